"""Check that a part of the page named by what it is goes: "The palette on the left disappears", "the dialog
closes", "the form is gone" (see actions/parts.py). The part is the one assert_part_shown found and marked before the
step's operations; this waits until that element is detached, hidden, or shows nothing any more (a side panel
collapsed to a bare strip): settle.js `partGone`, the same in generation and in the suite."""

from __future__ import annotations

import json

from workers.agent.actions.base import Action, CheckFailed
from workers.agent.actions.parts import GONE, part_of, statements


class AssertPartGone(Action):
    name = "assert_part_gone"
    for_model = False
    is_assertion = True
    grounded = False
    literal = True
    statements = statements("assert_part_gone", GONE, (45, 137))

    def describe(self, target, role, value):
        return f"Verify the {value} is gone"

    def check(self, act):
        gone = act.page.evaluate("([k, ms]) => window.__stepforge ? window.__stepforge.partGone(k, ms) : null",
                                 [part_of(act.value or "").key, act.settings.assertion_timeout_ms])
        if gone is None:
            raise CheckFailed("the page's scripts are not loaded")
        if gone is not True:
            raise CheckFailed(f"the page still shows the {act.value}")

    def phrase(self, op, slot):
        return [f"the {op.value} is gone"]

    def comment(self, op, what):
        return f"Check that the {op.value} found before is no longer shown"

    def javascript(self, op, target, value):
        part = part_of(op.value or "")
        return f"await this.expectPartGone({json.dumps(part.key)}, {json.dumps(part.said)});"


ACTION = AssertPartGone()
