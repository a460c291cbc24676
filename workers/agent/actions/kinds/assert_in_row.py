"""Check that a text is shown in the row of another: the table row, list item or option that holds it, or, in a
grid drawn without rows, on its line ("'Team coffee' is shown in the row of "Starbucks"", and the rows an expected
result describes: 'the table has a "Starbucks" row with the notes "Team coffee"', see brains/checks.py)."""

from __future__ import annotations

from workers.agent.actions.placed import Placed, statement
from workers.agent.brains.phrases import Unsupported


class AssertInRow(Placed):
    name = "assert_in_row"
    relation = "row"
    words = "in the row of"
    statements = (statement(r"in\s+the\s+(?:row|line|entry|record)\s+(?:of|for)", "assert_in_row"),)

    def page_locator(self, intent):
        from shared.records import Locator

        if not intent.target:
            raise Unsupported("it does not say which row")
        # the row's own text, whole: "Starbucks" is not the "Starbucks Reserve" row
        return Locator(strategy="text", value=intent.target, exact=True)


ACTION = AssertInRow()
