"""Press a key, in a field or on the page: Enter, Escape, Control+A."""

from __future__ import annotations

import json

from workers.agent.actions.base import Action, Rule, thing
from workers.agent.actions.elements import is_textbox
from workers.agent.actions.naming import field_label
from workers.agent.language.phrases import Op, parse_key, target_phrase


def _press(m, s):
    key = parse_key(s.unmask(m["k"]))
    if key is None:
        return None  # "Press the Submit button": a click, left to the click rule
    if m["t"]:
        t = target_phrase(s, m["t"], "field")
        return [Op.on("press", t, value=key)]
    return [Op("press", value=key)]


class Press(Action):
    name = "press"
    model_hint = "press: press a key (value is the key, e.g. Enter), in the target field or on the page"
    literal = True
    submits = True
    target_optional = True
    rules = (Rule(r"(?:press|hit|push)\s+(?:the\s+)?(?P<k>.+?)(?:\s+key)?"
                  r"(?:\s+(?:in|on|into|inside|within)\s+(?P<t>.+))?", _press, 400),
             # 'Paste with Ctrl+V', 'Copy it using Ctrl+C': the keys said, pressed where the focus is
             Rule(r"(?:paste|copy|cut|undo|redo|select\s+all)(?:\s+(?:it|them|the\s+\w+))?\s+(?:with|using|by\s+pressing)\s+"
                  r"(?:the\s+)?(?P<k>.+?)(?:\s+keys?)?(?:\s+(?:in|on|into|inside|within)\s+(?P<t>.+))?", _press, 401))

    def describe(self, target, role, value):
        return f"Press {value} in {thing(target, role)}" if target else f"Press {value}"

    def eligible(self, node):
        return 1.0 if is_textbox(node) else (0.8 if node.operable else 0.3)

    def perform(self, act):
        if act.target is not None:
            act.target.press(act.value or "Enter")
        else:
            act.page.keyboard.press(act.value or "Enter")

    def phrase(self, op, slot):
        place = f" in the {field_label(op)} field" if op.locator is not None else ""
        return [f'Press "{op.value or "Enter"}"{place}']

    def comment(self, op, what):
        return f"Press {op.value or 'Enter'}" + (f' in the "{field_label(op)}" field' if op.locator else "")

    def brief_target(self, op):
        return field_label(op) if op.locator is not None else None

    def javascript(self, op, target, value):
        key = value if op.arg else json.dumps(op.value or "Enter")
        if target is None:
            return f"await this.page.keyboard.press({key});"
        return f"await {target}.press({key});"


ACTION = Press()
