"""Click an element: a button, a link, a row or card with a click handler, an icon-only control."""

from __future__ import annotations

import re

from shared.scenarios import PLACEHOLDER
from workers.agent.actions.base import Action, Rule, pointer_javascript, thing
from workers.agent.actions.elements import is_textbox
from workers.agent.actions.naming import element_name, noun, placed, the_container, where
from workers.agent.language.phrases import ON_SCREEN, Op, Place, Target, Unsupported, split_role, target_phrase

# Where on the screen the part is, said after it: 'the welcome notification in the bottom right corner'
_SPOT = (r"\s+(?:at|in|on)\s+the\s+(?:very\s+|far\s+)?(?:top|bottom|upper|lower)[\s-]+(?:left|right)(?:[\s-]+(?:corner|side))?"
         r"(?:\s+of\s+the\s+(?:page|screen|window))?")
# What a close button closes: a part of the page a person closes, named by its title or by what it says.
_CLOSABLE = (r"notification|message|banner|toast|alert|popup|pop-up|panel|tray|modal|dialog(?:\s+box)?|window|tip|"
             r"hint|notice|callout|drawer|overlay|card|box|bar")


def _click(m, s):
    t = target_phrase(s, m["t"])
    return [Op.on("click", t)]


def _select_alone(m, s):
    """'Select the Alice row' / 'Choose Express shipping': a click, or a tick for a checkbox or radio. 'Select
    "Backend"', a quoted text alone: the option of the one dropdown that offers it, else the element of that name
    (the kind select, grounded by its value: see grounding/scoring.py)."""
    t = target_phrase(s, m["t"])
    if t.role in ("checkbox", "radio"):
        return [Op.on("check", t)]
    if s.is_quoted(m["t"]) and t.role is None and t.place == Place() and not PLACEHOLDER.search(t.name or ""):
        return [Op("select", value=t.name)]
    return [Op.on("click", t)]


def _close(m, s):
    """'Close the "Welcome" notification (with its × button)': the close control in the smallest part of the page
    that holds that title, never a close button elsewhere."""
    # 'in the bottom right corner', 'in its corner': where a person looks
    control = re.sub(r"\s+(?:in|at)\s+(?:its|the)\s+(?:top\s+|bottom\s+)?(?:right\s+|left\s+)?corner$", "",
                     ON_SCREEN.sub("", m["control"] or ""), flags=re.I) or None
    if control and re.search(r"\b(?:escape|esc|enter|key|outside|elsewhere|away)\b", control, re.I):
        return None  # a key or a click elsewhere: not a close control
    if control:
        name, role = split_role(re.sub(r"^(?:its|the|their)\s+", "", control.strip(), flags=re.I))
        name = s.unmask(name) or "close"
    else:
        name, role = "close", "button"
    what = re.sub(r"^(?:the|this|that|a|an|its)\b\s*", "", (m["what"] or "").strip(), flags=re.I)
    anchor = s.unmask(what).strip() if what else None
    # what the part is said to be ('notification'), used when the page says so of the box of its title
    # (scenario_run.note_what_it_is); a part said by its kind alone ('Close the dialog') is found as that part
    said_as = " ".join(m["noun"].lower().split()) if anchor else None
    return [Op.on("click", Target(name, role, Place(anchor=anchor or None), said_as))]


def _sort(m, s):
    """'Sort the table by Name': a click on that column's header; which way it sorts is the page's."""
    if m["dir"]:
        raise Unsupported(f"which way one click sorts is the page's: write Click the {s.show(m['t'])} column header, "
                          "then check the order of the rows")
    t = target_phrase(s, f"{m['t']} column header")
    return [Op.on("click", t)]


def _nothing(m, s):
    raise Unsupported("it names nothing to click")


class Click(Action):
    name = "click"
    verb = "Click"  # how a step and a comment say it
    model_hint = "click: click the target"
    submits = True
    rules = (
        # 'Switch to the "Install" tab', 'Go to the Palette tab': a tab of the page, by its name (a browser's tabs
        # are new, first, other: switch_tab's)
        Rule(r"(?:switch|go|change|move|navigate|return)\s+(?:over\s+|back\s+)?to\s+(?:the\s+)?(?P<t>\x01\d+\x02\s+(?:sub-?)?tab|"
             r"(?-i:[A-Z])[\w-]*(?:\s+[\w-]+){0,2}\s+(?:sub-?)?tab)", _click, 299),
        Rule(rf"(?:close|dismiss|hide)\s+(?P<what>.*?)\s*(?<![\w-])(?P<noun>{_CLOSABLE})(?:{_SPOT})?(?:\s+(?:with|using|via|by\s+clicking(?:\s+on)?)"
             rf"\s+(?P<control>.+))?", _close, 630),
        Rule(r"(?:select|choose|pick)\s+(?P<t>.+)", _select_alone, 640),
        Rule(r"(?:click|tap|press|push|hit|activate|follow|highlight)(?:\s+(?:on|into|inside|in(?=\s+the\b)))?\s+(?P<t>.+)",
             _click, 700),
        Rule(r"(?:click|tap|press|push|hit)", _nothing, 701),
        # 'Log out', 'Sign out': the control named so
        Rule(r"(?P<t>(?:log|sign)\s*(?:out|off))", lambda m, s: [Op.on("click", target_phrase(s, m["t"]))], 702),
        # 'Sort the table by Name', 'Sort the results by the "votes" column'
        Rule(r"sort\s+(?:the\s+)?(?:[\w-]+\s+){0,2}?(?:table|list|results|rows|grid|entries|items|issues|tickets)?\s*"
             r"by\s+(?:the\s+)?(?P<t>(?:(?!\b(?:column|ascending|descending|asc|desc|in)\b).)+?)(?:\s+column)?"
             r"(?P<dir>,?\s+(?:in\s+)?(?:ascending|descending|asc|desc|increasing|decreasing|reverse)(?:\s+order)?)?",
             _sort, 702),
    )

    def describe(self, target, role, value):
        return f"Click {thing(target, role)}"

    def eligible(self, node):
        # A person clicks a button or a link; clicking into a text field is what "click" means only when nothing
        # clickable bears the name ("Click Search" beside a Search field is the Search button).
        if is_textbox(node):
            return 0.75
        if not node.operable and node.text and not node.children:
            # a text an app handles clicks on where no element shows it (a cell of a React grid that turns into a
            # field): clicked where nothing operable bears the name
            return 0.55
        return super().eligible(node)

    def perform(self, act):
        act.pointer(act.target.click)

    def phrase(self, op, slot):
        container = the_container(op)
        return [f"{self.verb} {container}"] if container else [f'{self.verb} "{element_name(op)}"{placed(op)}']

    def comment(self, op, what):
        container = the_container(op)
        if container:
            return f"{self.verb} {container}"
        kind = noun(op)
        name = element_name(op)
        return f'{self.verb} the "{name}" {kind}{where(op)}' if kind else f'{self.verb} "{name}"{where(op)}'

    def brief_target(self, op):
        return element_name(op)

    def javascript(self, op, target, value):
        return pointer_javascript(op, target, "click")


ACTION = Click()
