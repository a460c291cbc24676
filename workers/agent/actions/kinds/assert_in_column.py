"""Check that a text is shown in a column of a table or grid: below the column's header and across its width
('"Critical" is listed in the priority column', '"Gustav Berg" is shown in the "assignee_id" column'; settle.js
placed(), relation "column", the same in the suite). A grid drawn with divs has columns too: the geometry is what a
person sees, not the table's markup."""

from __future__ import annotations

from workers.agent.actions.base import Rule
from workers.agent.actions.placed import SHOWN_OR_IN, Placed
from workers.agent.language.phrases import TOKEN, Op, Unsupported

_COLUMN = r"(?P<y>\x01\d+\x02|[A-Za-z][\w-]*(?:\s+[A-Za-z][\w-]*)?)"


def _in_column(m, s):
    column = s.unmask(m["y"])
    if not column:
        raise Unsupported("it does not say which column")
    return [Op("assert_in_column", target=column, value=s.tokens[int(n)]) for n in TOKEN.findall(m["x"])]


class AssertInColumn(Placed):
    name = "assert_in_column"
    relation = "column"
    words = "in the column of"
    statements = (Rule(rf"(?:the\s+)?(?:(?:text|value|cell)\s+)?(?P<x>\x01\d+\x02(?:(?:\s*,\s*|\s+and\s+|,\s*and\s+)"
                       rf"\x01\d+\x02)*)\s+{SHOWN_OR_IN}\s+(?:in|under)\s+the\s+{_COLUMN}\s+column", _in_column, 133),)

    def page_locator(self, intent):
        from shared.records import Locator

        if not intent.target:
            raise Unsupported("it does not say which column")
        # the header's own text, whole: "status" is not the "status_code" column
        return Locator(strategy="text", value=intent.target, exact=True)


ACTION = AssertInColumn()
