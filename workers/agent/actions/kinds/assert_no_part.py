"""Check that no part of the page of a kind is shown: "Verify the dialog is closed", "Ensure the palette is gone", said
in a step that does nothing (see actions/parts.py). The step before made it go, so nothing was found before to see
go: this waits until no part of the page fits the words (settle.js `partGone` with no key), the same in generation
and in the suite. The builtin brain turns a part said gone into this kind when its step does nothing."""

from __future__ import annotations

from workers.agent.actions.kinds.assert_part_gone import AssertPartGone


class AssertNoPart(AssertPartGone):
    name = "assert_no_part"
    marked = False
    statements = ()

    def describe(self, target, role, value):
        return f"Verify no {value} is shown"

    def phrase(self, op, slot):
        return [f"no {op.value} is shown"]

    def comment(self, op, what):
        return f"Check that no {op.value} is shown"


ACTION = AssertNoPart()
