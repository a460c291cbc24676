"""Work in the tab or popup an action opened, and come back: "Switch to the new tab", "Close the tab"."""

from __future__ import annotations

import json

from workers.agent.actions.base import Action, ActionFailed, Rule
from workers.agent.language.phrases import Op

TAB = r"(?:tab|window|popup|pop-up|browser\s+tab|browser\s+window)"
_WORDS = {"new": "Switch to the new tab", "first": "Switch back to the first tab", "close": "Close the tab"}


def _to(which: str):
    return lambda m, s: [Op("switch_tab", value=which)]


class SwitchTab(Action):
    name = "switch_tab"
    model_hint = ('switch_tab: work in another tab: "new" (the one an action just opened), "first" (back to the '
                  'first tab) or "close" (close this one and go back) (value)')
    grounded = False
    literal = True
    verbs = frozenset({"switch", "close", "return"})
    rules = (
        Rule(rf"(?:switch|go|move|change|turn)\s+(?:over\s+)?to\s+(?:the\s+)?(?:new|other|second|next|opened|latest)\s+{TAB}",
             _to("new"), 30),
        Rule(rf"(?:in|on|within|inside)\s+(?:the\s+)?(?:new|other|second|opened)\s+{TAB}", _to("new"), 31),
        Rule(rf"(?:switch|change)\s+back(?:\s+to\s+(?:the\s+)?(?:first|original|main|previous|old)\s+{TAB})?",
             _to("first"), 32),
        Rule(rf"(?:go|move|return|come)\s+back\s+to\s+(?:the\s+)?(?:first|original|main|previous|old)\s+{TAB}",
             _to("first"), 35),
        Rule(rf"(?:switch|go|return|move)\s+to\s+(?:the\s+)?(?:first|original|main|previous)\s+{TAB}", _to("first"), 33),
        Rule(rf"close\s+(?:the\s+|this\s+)?(?:new\s+|second\s+)?{TAB}(?:\s+and\s+(?:return|go\s+back|switch\s+back)"
             rf"(?:\s+to\s+(?:the\s+)?(?:first|original|main)\s+{TAB})?)?", _to("close"), 34),
    )

    def describe(self, target, role, value):
        return _WORDS.get(value or "", f"Switch tab {value}")

    def perform(self, act):
        if act.value not in _WORDS:
            raise ActionFailed(f"unknown tab {act.value!r}")
        act.switch_tab(act.value)

    def phrase(self, op, slot):
        return [_WORDS.get(op.value or "", "Switch to the new tab")]

    def comment(self, op, what):
        return {"new": "Go on in the tab or popup the previous action opened",
                "first": "Go on in the first tab",
                "close": "Close this tab and go on in the first one"}.get(op.value or "", "Switch tab")

    def javascript(self, op, target, value):
        return f"await this.switchTab({json.dumps(op.value or 'new')});"


ACTION = SwitchTab()
