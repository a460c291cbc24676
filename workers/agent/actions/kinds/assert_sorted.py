"""Check that the rows of a table are in a column's order: 'the rows are sorted by name', 'the table is now sorted by
"votes" in descending order', 'the results are ordered by the date column, newest first'. The rows are the data rows
of the table whose header cell says the column's name, whole (settle.js `sortedBy`, the same in generation and in the
suite): their cells under that header read top to bottom are in ascending order (descending when the sentence says
so), numbers by value when every cell holds one; at least two rows must be there to check.
"""

from __future__ import annotations

import json

from workers.agent.actions.base import CheckFailed, Rule
from workers.agent.actions.columns import ColumnCheck
from workers.agent.language.phrases import Op, Unsupported

_SUBJECT = (r"(?:the\s+|its\s+)?(?:(?:[\w-]+\s+){0,2}?(?:rows|results|table|list|entries|records|lines|items|issues|"
            r"tickets|posts|packages|transactions)|it|they)")
# a quoted name, one word, or two before "column" ("the due date column")
_COLUMN = r"(?P<col>\x01\d+\x02|[A-Za-z][\w-]*\s+[A-Za-z][\w-]*(?=\s+column\b)|[A-Za-z][\w-]*)"
_DESCENDING = r"descending|decreasing|reverse|highest\s+first|largest\s+first|newest\s+first|latest\s+first|z\s+to\s+a"
_ASCENDING = r"ascending|increasing|alphabetical(?:ly)?|lowest\s+first|smallest\s+first|oldest\s+first|a\s+to\s+z"
_DIRECTION = rf"(?:,?\s+(?:in\s+)?(?:(?P<down>{_DESCENDING})|(?P<up>{_ASCENDING}))(?:\s+order)?)?"


def _sorted(m, s):
    column = s.unmask(m["col"]).strip()
    if not column:
        raise Unsupported("it does not say by which column")
    if m["down"] is None and m["up"] is None and m["dir_words"]:
        raise Unsupported(f"{s.show(m['dir_words'])!r}: say ascending or descending")
    return [Op("assert_sorted", target=column, value="descending" if m["down"] else "ascending")]


class AssertSorted(ColumnCheck):
    name = "assert_sorted"
    literal = True
    param_name = "order"
    statements = (
        Rule(rf"{_SUBJECT}\s+(?:is|are)\s+(?:now\s+|still\s+)?(?:sorted|ordered)\s+by\s+(?:the\s+)?{_COLUMN}(?:\s+column)?"
             rf"{_DIRECTION}(?P<dir_words>\s+[a-z].*)?", _sorted, 131),
    )

    def describe(self, target, role, value):
        return f"Verify the rows are sorted by {target}, {value}"

    def check(self, act):
        if act.target is None or act.value not in ("ascending", "descending"):
            raise CheckFailed("nothing to check")
        self.check_column(act, "sortedBy", act.value == "descending",
                          "no table with two rows or more has a cell under that column's header",
                          lambda found: f"the column reads {', '.join(repr(t) for t in found)} from the top")

    def phrase(self, op, slot):
        return [f'the rows are sorted by "{op.said or ""}", ', *slot]

    def comment(self, op, what):
        return f'Check that the rows of the table are in the order of the "{op.said or ""}" ' \
               f"column, {what}"

    def javascript(self, op, target, value):
        return f"await this.expectSorted({target}, {value} === {json.dumps('descending')});"


ACTION = AssertSorted()
