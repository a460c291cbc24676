"""Hover over an element: a menu that opens on hover, a tooltip."""

from __future__ import annotations

from workers.agent.actions.base import Action, Rule, pointer_javascript, thing
from workers.agent.actions.naming import element_name, placed, where
from workers.agent.language.phrases import Op, target_phrase


def _hover(m, s):
    t = target_phrase(s, m["t"])
    return [Op.on("hover", t)]


class Hover(Action):
    name = "hover"
    model_hint = "hover: move the mouse over the target (a menu that opens on hover)"
    reads = True  # what opens on hover is often a plain label, not a control
    verbs = frozenset({"hover", "point"})
    rules = (Rule(r"(?:hover|mouse|move\s+the\s+(?:mouse|pointer|cursor)|point|rest\s+the\s+(?:mouse|pointer|cursor))"
                       r"(?:\s+(?:over|on|onto|above|at|to))?\s+(?P<t>.+)",
                  _hover, 710),)

    def describe(self, target, role, value):
        return f"Hover over {thing(target, role)}"

    def eligible(self, node):
        return 1.0 if node.operable else 0.8

    def perform(self, act):
        act.pointer(act.target.hover)

    def phrase(self, op, slot):
        return [f'Hover over "{element_name(op)}"{placed(op)}']

    def comment(self, op, what):
        return f'Move the mouse over "{element_name(op)}"{where(op)}'

    def brief_target(self, op):
        return element_name(op)

    def javascript(self, op, target, value):
        return pointer_javascript(op, target, "hover")


ACTION = Hover()
