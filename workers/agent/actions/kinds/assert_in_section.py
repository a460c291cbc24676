"""Check that a text is shown in the part of the page a title heads: after the title, in the smallest box holding it
and more, up to the next title alike ('"Tips" is now in "Chosen categories"', '"Checking" is listed under "On
budget"', said in described results: see brains/checks.py; settle.js placed(), relation "section")."""

from __future__ import annotations

from workers.agent.actions.placed import SHOWN_OR_IN, Placed, statement

# A quoted title ('under "On budget"'); a kind of part ('under the form') is a place below it (assert_below).
_TITLE = r"(?:the\s+)?\x01\d+\x02"


class AssertInSection(Placed):
    name = "assert_in_section"
    relation = "section"
    words = "under"
    statements = (statement(r"under|in|inside|within", "assert_in_section", part=_TITLE, order=134,
                            shown=SHOWN_OR_IN),)


ACTION = AssertInSection()
