"""Choose an option of a native dropdown (<select>) by its visible label."""

from __future__ import annotations

import re

from workers.agent.actions.base import Action, ActionFailed, Rule, thing
from workers.agent.actions.elements import is_combo, is_native_select
from workers.agent.actions.naming import field_label, where
from workers.agent.language.phrases import NAMED_MENU, Op, Unsupported, literal_value, split_role, target_phrase

# A part of the page every app has, said where a dropdown would be: 'Select "Cash Wallet" in the sidebar' is a click
_LANDMARK = re.compile(r"(?:the\s+)?(?:(?:left|right|top|main)\s+)?(?:sidebar|side\s+bar|navigation|nav\s*bar|menu\s*bar|"
                       r"toolbar|header|footer|page|screen)", re.I)


def _select(m, s):
    kind = split_role(m["v"])[1]
    if kind in ("radio", "checkbox", "tab", "button", "link"):
        # 'Select the "Published" radio button in the row for "Draft"', 'Select the "Keyboard" tab on the left': that
        # control, there (never an option of a dropdown)
        t = target_phrase(s, f"{m['v']} {m[0][m.end('v'):m.start('t')].strip()} {m['t']}")
        return [Op.on("check" if kind in ("radio", "checkbox") else "click", t)]
    if _LANDMARK.fullmatch(m["t"].strip()) and s.is_quoted(m["v"].strip()):
        return [Op.on("click", target_phrase(s, m["v"]))]
    menu = NAMED_MENU.fullmatch(m["t"].strip())
    # ('the hamburger menu': its control is named by the picture, said with the word menu)
    opener = (f"{menu['name']} menu" if menu["name"].lower() == "hamburger" else menu["name"]) if menu else m["t"]
    t = target_phrase(s, opener, "dropdown")
    value = literal_value(s, m["v"], option=True, what="option")
    if not value:
        raise Unsupported("it names no option to select")
    return [Op.on("select", t, value=value)]


class Select(Action):
    name = "select"
    model_hint = "select: choose the option (value) of the target dropdown"
    valued = True
    field = True
    rules = (
        Rule(r"(?:select|choose|pick)\s+(?P<v>.+?)\s+(?:from|in|on|for|within|inside)\s+(?P<t>.+)", _select, 600),
        Rule(r"(?:select|choose|pick)\s+(?P<v>.+?)\s+as\s+(?P<t>.+)", _select, 601),
    )

    def describe(self, target, role, value):
        return f"Select {value} from {thing(target, role)}" if target or role else f"Select {value}"

    def eligible(self, node):
        # a dropdown drawn without a <select> (a Chosen box, a design system's select) is clicked open: see choose
        return 1.0 if is_combo(node) else 0.8 if node.operable else 0.0

    def refine(self, node, intent=None):
        if is_native_select(node):
            return self.name
        # 'Select "Backend"' with no dropdown said, grounded on an element of that name: a click on it
        return "click" if intent is not None and not intent.target and not is_combo(node) else "choose"

    def perform(self, act):
        select_option(act.target, act.value or "")

    def phrase(self, op, slot):
        return ["Select ", *slot, f" in the {field_label(op)} dropdown"]

    def comment(self, op, what):
        return f'Choose the option {what} in the "{field_label(op)}" dropdown{where(op)}'

    def brief_target(self, op):
        return field_label(op)

    def javascript(self, op, target, value):
        return f"await {target}.selectOption({{ label: {value} }});"


def select_option(target, wanted: str) -> None:
    """Select by visible label, as the generated script does; a case-insensitive label match is accepted."""
    labels: list[str] = target.evaluate("el => Array.from(el.options || []).map(o => o.label || o.text)")
    exact = [label for label in labels if label == wanted]
    loose = [label for label in labels if label.strip().lower() == wanted.strip().lower()]
    chosen = (exact or loose or [None])[0]
    if chosen is None:
        raise ActionFailed(f"the dropdown has no option {wanted!r} (options: {', '.join(labels[:12])})")
    target.select_option(label=chosen)


ACTION = Select()
