"""Untick a checkbox or a switch."""

from __future__ import annotations

from workers.agent.actions.base import Rule
from workers.agent.actions.kinds.check import Check, toggle


class Uncheck(Check):
    name = "uncheck"
    model_hint = "uncheck: untick the target checkbox"
    verb = "Uncheck"
    verbs = frozenset({"leave"})
    rules = (
        Rule(r"(?:uncheck|untick|deselect|unselect|un-check|un-tick)\s+(?P<t>.+)", toggle("uncheck"), 610),
        # 'Turn off the "Dark mode" toggle', 'Switch the "Notifications" toggle off'
        Rule(r"(?:turn|switch|toggle|flip)\s+off\s+(?P<t>.+)|(?:turn|switch|flip|set)\s+(?P<t2>.+?)\s+(?:to\s+)?off",
             lambda m, s: toggle("uncheck")({"t": m["t"] or m["t2"]}, s), 612),
        # 'leave "Off budget" unticked': it stays unticked, whatever it was
        Rule(r"(?:leave|keep)\s+(?P<t>.+?)\s+(?:unticked|unchecked|unselected|un-ticked|un-checked|cleared|off)",
             toggle("uncheck"), 611),
    )

    def perform(self, act):
        act.target.uncheck()

    def javascript(self, op, target, value):
        return f"await {target}.uncheck();"


ACTION = Uncheck()
