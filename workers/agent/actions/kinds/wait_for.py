"""Wait until a text appears ("Wait until 'Report ready' is shown"), bounded by STEPFORGE_WAIT_TIMEOUT_MS.

Every operation already waits for the page to settle; this is for what comes later on its own (a job finishing).
"""

from __future__ import annotations

from workers.agent.actions.base import Action, ActionFailed, Rule
from workers.agent.actions.kinds.assert_text import texts
from workers.agent.language.phrases import VISIBLE, Unsupported

_UNTIL = r"wait(?:\s+(?:until|till|for))?\s+"
GONE = r"(?:disappears?|vanishes|goes\s+away|is\s+gone|(?:is|are)\s+(?:no\s+longer|not)\s+" + VISIBLE + r"|" \
       r"(?:is|are)\s+(?:hidden|removed))"


def _wait(kind: str):
    def handler(m, s):
        ops = texts(m["x"], s, kind)
        if len(ops) != 1:
            raise Unsupported("wait for one text at a time", final=True)
        return ops

    return handler


def _refuse_time(m, s):
    raise Unsupported("waiting a fixed time is not supported (every operation waits for the page by itself); "
                      "wait for a text instead, e.g. Wait until 'Report ready' is shown")


class WaitFor(Action):
    name = "wait_for"
    model_hint = "wait_for: wait (long, bounded) until the text (value) appears on the page"
    grounded = False
    valued = True
    param_name = "awaitedText"
    verbs = frozenset({"wait"})
    rules = (
        Rule(rf"{_UNTIL}(?P<x>.+?)\s+(?:to\s+)?{GONE}", _wait("wait_gone"), 40),
        Rule(rf"{_UNTIL}(?P<x>.+?)\s+(?:(?:is|are)\s+{VISIBLE}|(?:to\s+)?appears?|shows?\s+up|(?:to\s+)?(?:be\s+)?{VISIBLE})",
             _wait("wait_for"), 41),
        Rule(r"wait\s+(?:for\s+)?(?:\d+|a|an|one|two|three|five|ten|a\s+few|some)\s+(?:milli)?(?:seconds?|secs?|s|"
             r"minutes?|moments?|while)\b.*", _refuse_time, 42),
        Rule(r"wait\s+(?:for\s+)?(?:the\s+)?(?:page|screen|app|application)(?:\s+to\s+(?:load|finish\s+loading|"
             r"settle))?", _refuse_time, 43),
        # 'wait for the "Successfully deployed" notification', 'wait for "Done" to appear'
        Rule(r"wait\s+(?:for\s+)?(?:the\s+|a\s+|an\s+)?(?P<x>\x01\d+\x02)(?:\s+(?:notification|message|banner|toast|"
             r"alert|text|heading|title|dialog|popup|label|status))?(?:\s+to\s+(?:appear|show(?:\s+up)?|be\s+shown))?",
             _wait("wait_for"), 44),
    )

    def describe(self, target, role, value):
        return f"Wait until '{value}' is shown"

    def perform(self, act):
        if not act.text_shown(act.value or "", act.settings.wait_timeout_ms):
            raise ActionFailed(f'"{act.value}" did not appear within {act.settings.wait_timeout_ms / 1000:g} s')

    def phrase(self, op, slot):
        return ["Wait until ", *slot, " is shown"]

    def comment(self, op, what):
        return f"Wait until the page shows {what} (bounded)"

    def javascript(self, op, target, value):
        return f"await this.waitForText({value});"


ACTION = WaitFor()

