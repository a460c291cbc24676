"""Check that a part of the page named by what it is is shown: "the page stays on the sign-in form", "the "Import"
dialog opens", "the palette is back" (see actions/parts.py). It also marks the part, for a "... is gone" after it."""

from __future__ import annotations

from workers.agent.actions.base import Action, CheckFailed
from workers.agent.actions.parts import SHOWN, part_javascript, part_of, statements


class AssertPartShown(Action):
    name = "assert_part_shown"
    for_model = False
    is_assertion = True
    grounded = False
    literal = True
    statements = statements("assert_part_shown", SHOWN, (101,), quoted=False)

    def describe(self, target, role, value):
        return f"Verify the {value} is shown"

    def check(self, act):
        part = part_of(act.value or "")
        found = act.page.evaluate(
            "([n, w, s, k, ms]) => window.__stepforge ? window.__stepforge.part(n, w, s, k, ms) : null",
            [part.noun, part.words, part.side, part.key, act.settings.assertion_timeout_ms])
        if found is None:
            raise CheckFailed("the page's scripts are not loaded")
        if found["found"] != 1:
            fit = "no part of the page fits" if not found["found"] else f"{found['found']} parts of the page fit"
            raise CheckFailed(f"{fit} 'the {part.said}'" + ("; say which one" if found["found"] else ""))

    def phrase(self, op, slot):
        return [f"the {op.value} is shown"]

    def comment(self, op, what):
        return f"Check that the page shows the {op.value} (and mark it, to see it go)"

    def javascript(self, op, target, value):
        return f"await this.expectPart({part_javascript(part_of(op.value or ''))});"


ACTION = AssertPartShown()
