"""Double-click an element: a node on a canvas, a row or a cell that opens an editor on a double click."""

from __future__ import annotations

from workers.agent.actions.base import Rule, pointer_javascript, thing
from workers.agent.actions.kinds.click import Click
from workers.agent.language.phrases import Op, target_phrase


def _double_click(m, s):
    return [Op.on("double_click", target_phrase(s, m["t"]))]


class DoubleClick(Click):
    name = "double_click"
    verb = "Double-click"
    model_hint = "double_click: double-click the target (an item that opens an editor or its details on a double click)"
    rules = (Rule(r"double[\s-]?(?:click|tap)(?:\s+on)?\s+(?P<t>.+)", _double_click, 695),)

    def describe(self, target, role, value):
        return f"Double-click {thing(target, role)}"

    def perform(self, act):
        act.pointer(act.target.dblclick)

    def javascript(self, op, target, value):
        return pointer_javascript(op, target, "dblclick")


ACTION = DoubleClick()
