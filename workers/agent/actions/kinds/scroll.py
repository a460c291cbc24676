"""Scroll: an element into view ("Scroll down to the "Change History" section", "Scroll to "Next page""), the page to
its top or bottom ("Scroll to the bottom of the page"), or the page by one screen ("Scroll down").

The tester scrolls to see something: the element is found as any named element is (a heading, a text, a control)
and brought into view, so a step that names something the page lacks fails there. A part of the page that is not
the page itself ("the bottom of the table") is not guessed: the step says what to scroll to.
"""

from __future__ import annotations

import re

from workers.agent.actions.base import Action, ActionFailed, Rule
from workers.agent.actions.naming import element_name, placed, where
from workers.agent.language.phrases import Op, Unsupported, target_phrase

_PAGE = r"(?:the\s+)?(?:(?:web\s*)?page|screen|window|site|document)"
_ENDS = {"bottom": "bottom", "end": "bottom", "foot": "bottom", "top": "top", "start": "top", "beginning": "top"}
_WORDS = {"bottom": "Scroll to the bottom of the page", "top": "Scroll to the top of the page",
          "down": "Scroll down", "up": "Scroll up"}
# what each page-level scroll does, in generation (Python) and in the suite (JavaScript): the same statement
_SCRIPT = {"bottom": "window.scrollTo(0, document.documentElement.scrollHeight)", "top": "window.scrollTo(0, 0)",
           "down": "window.scrollBy(0, window.innerHeight * 0.9)", "up": "window.scrollBy(0, -window.innerHeight * 0.9)"}


def _page_end(m, s):
    return [Op("scroll", value=_ENDS[m["end"].lower()])]


def _by_screen(m, s):
    return [Op("scroll", value=m["dir"].lower())]


def _to_element(m, s):
    said = m["t"].strip()
    end = re.fullmatch(r"(?:the\s+)?(?:very\s+)?(?P<end>bottom|end|top|beginning|start)\s+of\s+(?P<what>.+)", said,
                       re.I | re.S)
    if end is not None:
        raise Unsupported(f"{s.show(said)!r}: scrolling within a part of the page is not guessed; say what to scroll "
                          "to (e.g. Scroll to \"Next page\") or scroll to the bottom of the page")
    # 'the Change History section': the words a person reads there, not what kind of part they head
    words = re.sub(r"^(?:the|a|an)\s+", "", said, flags=re.I)
    if re.sub(r"(?:^|\s+)(?:section|part|area|block|panel|heading|header|title)$", "", words, flags=re.I).strip():
        said = re.sub(r"\s+(?:section|part|area|block|panel|heading|header|title)$", "", said, flags=re.I)
    t = target_phrase(s, said)
    if not t.name and t.role is None:
        raise Unsupported(f"{s.show(said)!r} names nothing to scroll to")
    return [Op.on("scroll", t)]


class Scroll(Action):
    name = "scroll"
    model_hint = 'scroll: bring the target into view, or (no target) scroll the page: value "top", "bottom", "down", "up"'
    literal = True
    reads = True  # what a tester scrolls to is often a heading or a plain text
    target_optional = True
    verbs = frozenset({"scroll"})
    rules = (
        Rule(rf"scroll\s+(?:all\s+the\s+way\s+)?(?:down\s+|up\s+|back\s+)?(?:to|until)\s+(?:you\s+reach\s+)?"
             rf"(?:the\s+)?(?:very\s+)?(?P<end>bottom|end|foot|top|start|beginning)(?:\s+of\s+{_PAGE})?", _page_end, 300),
        Rule(r"scroll\s+(?:the\s+page\s+)?(?P<dir>down|up)(?:\s+(?:a\s+bit|a\s+little|once|one\s+screen|the\s+page))?",
             _by_screen, 301),
        Rule(r"scroll\s+(?:down\s+|up\s+|back\s+)?(?:to|until)\s+(?:you\s+(?:see|reach)\s+|reaching\s+|seeing\s+)?"
             r"(?P<t>.+?)(?:\s+(?:is|are)\s+(?:visible|shown|displayed|in\s+view))?", _to_element, 302),
        Rule(r"scroll\s+(?P<t>.+?)\s+into\s+view", _to_element, 303),
    )

    def describe(self, target, role, value):
        if target or role:
            return f"Scroll to {target or role}"
        return _WORDS.get(value or "", "Scroll")

    def eligible(self, node):
        return 1.0

    def perform(self, act):
        if act.target is not None:
            act.target.scroll_into_view_if_needed()
            return None
        if act.value not in _SCRIPT:
            raise ActionFailed(f"unknown scroll {act.value!r}")
        act.page.evaluate(f"() => {_SCRIPT[act.value]}")
        return None

    def phrase(self, op, slot):
        if op.locator is not None:
            return [f'Scroll to "{element_name(op)}"{placed(op)}']
        return [_WORDS.get(op.value or "", "Scroll down")]

    def comment(self, op, what):
        if op.locator is not None:
            return f'Bring "{element_name(op)}"{where(op)} into view'
        return _WORDS.get(op.value or "", "Scroll down")

    def brief_target(self, op):
        return element_name(op) if op.locator is not None else None

    def javascript(self, op, target, value):
        if target is not None:
            return f"await {target}.scrollIntoViewIfNeeded();"
        return f"await this.page.evaluate(() => {_SCRIPT.get(op.value or '', _SCRIPT['down'])});"


ACTION = Scroll()
