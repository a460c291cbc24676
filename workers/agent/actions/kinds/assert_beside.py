"""Check that a text is shown beside a part of the page, on its line ("'(8 matches)' is shown next to the
"Custom Query" heading")."""

from __future__ import annotations

from workers.agent.actions.placed import Placed, statement


class AssertBeside(Placed):
    name = "assert_beside"
    relation = "beside"
    words = "next to"
    statements = (statement(r"next\s+to|beside|alongside|to\s+the\s+(?:right|left)\s+of|(?:right|left)\s+of",
                            "assert_beside"),)


ACTION = AssertBeside()
