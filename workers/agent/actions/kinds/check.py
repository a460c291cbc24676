"""Tick a checkbox, a radio button or a switch."""

from __future__ import annotations

import re

from workers.agent.actions.base import Action, Rule, thing
from workers.agent.actions.elements import is_checkable
from workers.agent.actions.naming import field_label, noun, the_element, the_field
from workers.agent.language.phrases import TOKEN, Op, Unsupported, target_phrase

# A sentence that says something is shown is a check, whether or not it can be read ('Check the panel lists A, B and
# C' is never a box to tick)
_SAYS_SHOWN = re.compile(r"(?<!\bthat\s)(?<!\bwhich\s)\b(?:is|are|be)\s+(?:now\s+|still\s+)?(?:shown|displayed|visible|listed|"
                         r"present)\b|(?<!\bthat\s)(?<!\bwhich\s)\b(?:appears?|shows?\s+up|lists|shows|displays|"
                         r"contains|reads|says|includes|offers)\b", re.I)


def toggle(kind: str):
    def handler(m, s):
        if kind == "check" and m["verb"].lower() == "check" and s.token_list(m["t"]) is None:
            # "Check the Email field shows user@example.com": a check of the page, not a checkbox; never 'Tick
            # "Remember me"' or 'Check "Remember me"', which name a box to tick
            try:
                return list(s.statement(m["t"]))
            except Unsupported:
                if _SAYS_SHOWN.search(TOKEN.sub(" ", m["t"])):
                    raise  # 'Check the description "X" is shown below the heading': a check, never a box to tick
        t = target_phrase(s, m["t"])
        return [Op(kind, target=t.name, role_hint="radio" if t.role == "radio" else "checkbox", place=t.place)]

    return handler


def _either(m):
    """The match with its target as "t", whichever of the rule's forms said it."""
    return {"t": m["t"] or m["t2"], "verb": "turn"}


class Check(Action):
    name = "check"
    model_hint = "check: tick the target checkbox or radio button"
    field = True
    verb = "Check"
    rules = (
        Rule(r"(?P<verb>check|tick|mark)\s+(?P<t>.+)", toggle("check"), 630),
        # 'Turn on the "Dark mode" toggle', 'Switch the "Notifications" switch on'
        Rule(r"(?:turn|switch|toggle|flip)\s+on\s+(?P<t>.+)|(?:turn|switch|flip|set)\s+(?P<t2>.+?)\s+(?:to\s+)?on",
             lambda m, s: toggle("check")(_either(m), s), 629),
    )

    def describe(self, target, role, value):
        return f"{self.verb} {thing(target, role)}"

    def eligible(self, node):
        return 1.0 if is_checkable(node) else 0.0

    def redundant(self, node, value, current_url, base_url):
        return node is not None and node.checked is (self.name == "check")

    def perform(self, act):
        act.target.check()

    def phrase(self, op, slot):
        return [f"{self.verb} {the_element(op, noun(op) or 'checkbox', field_label(op))}"]

    def comment(self, op, what):
        return f"{'Tick' if self.name == 'check' else 'Untick'} {the_field(op, noun(op) or 'checkbox')}"

    def brief_target(self, op):
        return field_label(op)

    def javascript(self, op, target, value):
        return f"await {target}.check();"


ACTION = Check()
