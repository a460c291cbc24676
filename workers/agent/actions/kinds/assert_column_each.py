"""Check that every row of a table shows a text in a column: 'every row has "Critical" in the priority column',
'Verify every row of the results has "Open" or "In progress" in the status column and "Gustav Berg" in the assignee
column' (each column a check of its own; "or": any of the texts, written "Open|In progress" in the step). The rows are the data rows of the table whose
header cell says the column's name, whole (settle.js `columnEach`, the same in generation and in the suite): each
row's cell under that header shows one of the texts as whole words; at least one row must be there to check.
"""

from __future__ import annotations

import json
import re

from workers.agent.actions.base import CheckFailed, Rule
from workers.agent.actions.columns import ColumnCheck
from workers.agent.language.phrases import TOKEN, Op, Unsupported

_ROWS = (r"(?:(?:every|each)\s+(?:row|result|record|entry|line|issue|item)|all\s+(?:the\s+)?(?:rows|results|records|"
         r"entries|lines|issues|items))(?:\s+(?:of|in)\s+the\s+(?:[\w-]+\s+){0,2}?(?:results?|table|list|grid))?")
_TEXTS = r"\x01\d+\x02(?:(?:\s*,\s*|\s+or\s+|,\s*or\s+)\x01\d+\x02)*"
_COLUMN = r"(?:\x01\d+\x02|[A-Za-z][\w-]*(?:\s+(?!(?:and|or|but)\b)[A-Za-z][\w-]*)?)"
# '"Critical" in the priority column', '"Julia Moreau" as assignee', 'status "closed"', 'the status closed'
_CONDITION = (rf"(?P<x>{_TEXTS})\s+(?:in\s+(?:the|its)\s+(?P<y>{_COLUMN})\s+column|as\s+(?:the\s+|its\s+)?"
              rf"(?P<y2>{_COLUMN})(?:\s+column)?)|(?:the\s+|its\s+)?(?!(?:the|its|a|an|text|texts|value|word|words|label)\s)(?P<y3>{_COLUMN})\s+"
              rf"(?P<x3>{_TEXTS})|"
              r"(?:the\s+|its\s+)?(?!(?:a|an|the|no|not|none|been|never|more|less|fewer|exactly|only|at|some|any|one|"
              r"two|three|its|their|this|that|same|different|empty|blank|text|button|link|icon|field|checkbox|label|value)\b)"
              r"(?P<y4>[A-Za-z][\w-]*)\s+(?!(?:empty|blank|missing|set|shown|hidden|selected|checked|disabled|enabled|"
              r"button|link|icon|field|checkbox|label|value|text)\b)(?P<x4>[A-Za-z][\w-]*)")
_CONDITIONS = rf"(?:{re.sub(r'[?]P<[a-z0-9]+>', '?:', _CONDITION)})"
_AND = r"(?:\s*,\s*and|\s*,|\s+and)\s+"
SEPARATOR = "|"  # between the texts any of which a cell may show: "Open|In progress"


def _each(m, s):
    ops = []
    conds, conditions, at = m["conds"].strip(), [], 0
    while at < len(conds):  # one condition after another, "and" or a comma between them
        between = re.compile(_AND, re.I).match(conds, at) if conditions else None
        c = re.compile(_CONDITION, re.I).match(conds, between.end() if between else at)
        if c is None or (conditions and between is None):
            raise Unsupported(f"{s.show(conds)!r}: say which text every row has in which column")
        conditions.append(c)
        at = c.end()
    for c in conditions:
        if c["y4"] and not re.match(r"(?:has|have)\b", m["verb"], re.I):
            raise Unsupported(f"{s.show(c[0])!r}: quote the text every row has, and say in which column")
        column = s.unmask(c["y"] or c["y2"] or c["y3"] or c["y4"])
        texts = [s.tokens[int(n)] for n in TOKEN.findall(c["x"] or c["x3"] or "")] or [c["x4"] or ""]
        if not column or not all(t.strip() for t in texts):
            raise Unsupported("it does not say which column, or which text")
        if len(texts) > 1 and any(SEPARATOR in t for t in texts):
            raise Unsupported(f"a text that may be shown instead of another holds {SEPARATOR!r}; check it on its own")
        ops.append(Op("assert_column_each", target=column, value=SEPARATOR.join(texts)))
    return ops


def _cells(m, s):
    texts = [s.tokens[int(n)] for n in TOKEN.findall(m["x"])]
    if any(SEPARATOR in t or not t.strip() for t in texts):
        raise Unsupported(f"{s.show(m['x'])!r}: quote each text a cell may show")
    return [Op("assert_column_each", target=s.unmask(m["y"]), value=SEPARATOR.join(texts))]


_BE_ONLY = r"(?:should\s+|must\s+|will\s+)?(?:now\s+|still\s+)?"
# 'every cell in the priority column reads "Critical"', 'all values of the status column are "Open"'
_CELLS_EACH = (rf"(?:(?:every|each)\s+(?:row|cell|value|entry)|all\s+(?:the\s+)?(?:rows|cells|values|entries))\s+(?:in|of|under)\s+"
               rf"the\s+(?P<y>{_COLUMN})\s+column\s+{_BE_ONLY}(?:reads?|shows?|says?|contains?|equals?|is|are|be)\s+"
               rf"(?P<x>{_TEXTS})")
# 'the assignee column should contain only "Dana Okafor"', 'the status column shows nothing but "Open"'
_COLUMN_ONLY = (rf"(?:the\s+)?(?P<y>{_COLUMN})\s+column\s+{_BE_ONLY}(?:contains?|shows?|lists?|has|have|holds?|reads?)\s+"
                rf"(?:only|nothing\s+but)\s+(?P<x>{_TEXTS})")


class AssertColumnEach(ColumnCheck):
    name = "assert_column_each"
    param_name = "expectedText"
    statements = (
        Rule(rf"{_ROWS}\s+(?P<verb>has|have|shows?|contains?|reads?|lists?)\s+"
             rf"(?P<conds>{_CONDITIONS}(?:{_AND}{_CONDITIONS})*)", _each, 132),
        Rule(_CELLS_EACH, _cells, 132), Rule(_COLUMN_ONLY, _cells, 132),
    )

    def describe(self, target, role, value):
        return f"Verify every row has {_alternatives(value)} in the {target} column"

    def check(self, act):
        if act.target is None or not act.value:
            raise CheckFailed("nothing to check")
        self.check_column(act, "columnEach", act.value.split(SEPARATOR),
                          "no table row has a cell under that column's header",
                          lambda found: f"a row shows {', '.join(repr(t) for t in found)} there")

    def phrase(self, op, slot):
        return ["every row has ", *slot, f' in the "{op.said or ""}" column']

    def comment(self, op, what):
        return f'Check that every row of the table shows {what} in the "{op.said or ""}" column'

    def javascript(self, op, target, value):
        return f"await this.expectColumnEach({target}, {value}.split({json.dumps(SEPARATOR)}));"


def _alternatives(value: str | None) -> str:
    return " or ".join(f"'{t}'" for t in (value or "").split(SEPARATOR))


ACTION = AssertColumnEach()
