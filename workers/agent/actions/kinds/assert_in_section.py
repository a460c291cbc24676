"""Check that a text is shown in the part of the page a title heads: after the title, in the smallest box holding it
and more, up to the next title alike ('"Tips" is now in "Chosen categories"', '"Checking" is listed under "On
budget"', '"Vacation" is listed in the "Savings Goals" group', said in described results: see brains/checks.py; settle.js placed(), relation "section")."""

from __future__ import annotations

import re

from shared.scenarios import list_items
from workers.agent.actions.base import Rule
from workers.agent.actions.placed import SHOWN_OR_IN, TEXTS, Placed, statement
from workers.agent.language.phrases import NEGATIVE, TOKEN, Op

# A quoted title ('under "On budget"'); a kind of part ('under the form') is a place below it (assert_below).
_TITLE = r"(?:the\s+)?\x01\d+\x02"
# what kind of part the title heads, said after it: 'in the "Savings Goals" group'
_KIND = r"(?:\s+(?:group|section|category|folder|list|panel|box|area|block|card|heading|title))?"
# A title in capitalised words ('under Validation', 'in Chosen Categories'), never a kind of part ('the form')
_WORDS_TITLE = r"(?-i:[A-Z][\w-]*(?:\s+[A-Z][\w-]*){0,2})"


def _together(m, s):
    title = s.tokens[int(TOKEN.findall(m["y"])[0])]
    return [Op("assert_in_section", target=title, value=s.tokens[int(n)])
            for n in TOKEN.findall(m["x"]) + TOKEN.findall(m["more"])]


def _titled_lists(m, s):
    """'"Release Notes (4)" lists 4.1.0, 5.0.0-rc.2, 3.9.1 and 3.9.0', '"Current Tags" shows "latest" and
    "next"': each item is under that title; quoted items only (words between them refuse it), or an unquoted list of
    three or more short items. One value said of a label ('"Owned by:" shows Bob Tanaka') is beside it, on its line;
    of a title ('"DevDependencies (1)" shows "tiny-logger: ^1.2.0"'), under it."""
    if re.search(r"\x02\s+(?:box|field|input|dropdown|select|text\s*area|text\s*box)\b", m[0], re.I):
        return None  # 'the "Search Packages" box shows "..."': a field's value (assert_value)
    title = s.tokens[int(TOKEN.fullmatch(m["y"])[1])]
    items = m["x"].strip()
    quoted = TOKEN.findall(items)
    if quoted:
        if re.sub(r"\x01\d+\x02|,|\band\b|\s", "", items, flags=re.I):
            return None
        values = [s.tokens[int(n)] for n in quoted]
    else:
        values = list_items(items)
        if NEGATIVE.search(items) or re.search(r"\bor\b", items, re.I) or (len(values) < 3 and (
                len(values[0].split()) > 4 or re.search(r"\b(?:and|with|by|as|in|on|of|at|is|are)\b", items, re.I)
                # a number with words: whose number it is is said apart from it ('shows 500.00 available')
                or (re.search(r"\d", items) and re.search(r"[^\W\d]{2,}", items)))):
            return None
    if len(values) == 1 and (re.fullmatch(r"[\d.,\s%$€£+-]+", values[0])
                             or re.search(r"\b(?:contains?|has|holds?)\s", m[0], re.I)):
        return None  # a number alone would be found inside another ("15" holds "5"); 'contains': a field's value
    if len(values) == 1 and title.rstrip().endswith(":"):  # a label and its value: 'Owned by:' then 'Bob'
        return [Op("assert_beside", target=title, value=values[0])]
    return [Op("assert_in_section", target=title, value=v) for v in values if v.strip()]


def _fronted(m, s):
    """'Under "Recent Comments", "Just borrowed it" is listed', 'Under 1.0 Alpha, "Total: 3" is displayed': the title
    said first (quoted, or a few words starting with a capital or a digit), then the texts under it."""
    title = s.unmask(m["y"])
    return [Op("assert_in_section", target=title, value=s.tokens[int(n)]) for n in TOKEN.findall(m["x"])]


class AssertInSection(Placed):
    name = "assert_in_section"
    relation = "section"
    words = "under"
    statements = (statement(r"under|in|inside|within", "assert_in_section", part=_WORDS_TITLE, order=134,
                            shown=SHOWN_OR_IN, after=_KIND),
                  Rule(rf"(?:under|below|beneath|in|within)\s+(?:the\s+)?(?P<y>\x01\d+\x02|(?-i:[A-Z0-9])[\w.-]*"
                       rf"(?:\s+(?-i:[A-Z0-9])[\w.-]*){{0,3}}){_KIND},\s+(?P<x>{TEXTS})\s+(?:is|are|should\s+be|must\s+be)\s+"
                       r"(?:now\s+|still\s+|also\s+)?(?:shown|displayed|listed|visible|present)", _fronted, 102),
                  statement(r"under|in|inside|within", "assert_in_section", part=_TITLE, order=134,
                            shown=SHOWN_OR_IN, after=_KIND),
                  # '"Car Repairs" is listed in the "Savings Goals" group together with "Vacation" and "Emergency Fund"'
                  Rule(rf"(?P<x>{TEXTS})\s+{SHOWN_OR_IN}\s+(?:under|in|inside|within)\s+(?P<y>{_TITLE}){_KIND}\s+"
                       rf"(?:together\s+with|along\s+with|alongside|next\s+to)\s+(?P<more>{TEXTS})", _together, 133),
                  # '"Release Notes (3)" lists 4.1.0, 5.0.0-rc.2 and 3.9.1': a title, then what is under it
                  Rule(rf"(?:the\s+)?(?P<y>\x01\d+\x02){_KIND}\s+(?:now\s+|still\s+)?(?:lists?|shows?|contains?|includes?|"
                       r"has|holds?|reads?|says?|displays?)\s+(?:only\s+)?(?P<x>.+)", _titled_lists, 133))


ACTION = AssertInSection()
