"""Check that a text is shown in the row of another: the table row, list item or option that holds it, or, in a
grid drawn without rows, on its line ("'Team coffee' is shown in the row of "Starbucks"", and the rows an expected
result describes: 'the table has a "Starbucks" row with the notes "Team coffee"', see brains/checks.py)."""

from __future__ import annotations

import re

from workers.agent.actions.base import Rule
from workers.agent.actions.placed import Placed, statement
from workers.agent.language.phrases import Op, Unsupported

# 'a usage count of 0', 'the priority of 2': a number said with what it counts or measures
LABELLED_NUMBER = re.compile(r"\b(?:an?|the|its)\s+(?P<label>(?:[a-z][\w-]*\s+){0,2}?[a-z][\w-]*)\s+of\s+"
                             r"(?P<n>[-+]?\d[\d,]*(?:\.\d+)?%?)(?![\w.,]\d)", re.I)
# '"Backend" is listed with a usage count of 120', 'the "Backend" row has a budget of 2,500': that number is in the
# subject's row
ROW_NUMBER = re.compile(r"(?P<subject>\x01(?P<t>\d+)\x02(?:\s+(?:row|entry|line|record|item))?)"
                        r"(?P<verb>\s+(?:is|are)(?:\s+(?:now|still))?(?:\s+(?:listed|shown|displayed))?)?\s*,?\s+"
                        rf"(?:with|has|have|shows?)\s+{LABELLED_NUMBER.pattern}(?=\s*(?:$|,|;|\s+and\s))", re.I)


def number_in_row(m: re.Match[str], s) -> Op:
    """The check of a ROW_NUMBER match: its number in its row; refused for a number of fewer than three digits ('a
    usage count of 0' would be found in "10" or a date of the row)."""
    if len(re.sub(r"\D", "", m["n"])) < 3:
        raise Unsupported(f"{m['n']!r}: a number of fewer than three digits is found inside others; quote the text "
                          "the row shows")
    return Op("assert_in_row", target=s.tokens[int(m["t"])], value=m["n"])


def _row_number(m, s) -> list[Op]:
    return [Op("assert_text", value=s.tokens[int(m["t"])]), number_in_row(m, s)]


class AssertInRow(Placed):
    name = "assert_in_row"
    relation = "row"
    words = "in the row of"
    statements = (statement(r"in\s+the\s+(?:row|line|entry|record)\s+(?:of|for)", "assert_in_row"),
                  Rule(ROW_NUMBER.pattern, _row_number, 136))

    def page_locator(self, intent):
        from shared.records import Locator

        if not intent.target:
            raise Unsupported("it does not say which row")
        # the row's own text, whole: "Starbucks" is not the "Starbucks Reserve" row
        return Locator(strategy="text", value=intent.target, exact=True)


ACTION = AssertInRow()
