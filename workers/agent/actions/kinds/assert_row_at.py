"""Check the texts of a row picked by its order in a table or grid: 'the first row of the table is issue 7 "Password
rules ..." with 0 votes', 'the last row shows "Archived"'. The rows are the data rows the page shows (a table's rows
with cells, a grid's rows with cells; never a header row), in document order; each quoted text, and each number the
sentence writes, is in the picked row as whole words."""

from __future__ import annotations

import re

from workers.agent.actions.base import Action, CheckFailed, Rule
from workers.agent.actions.shown import shown_text_pattern
from workers.agent.language.phrases import NEGATIVE, TOKEN, Op, Place, Unsupported

_ORDERS = {"first": 0, "top": 0, "second": 1, "third": 2, "fourth": 3, "fifth": 4, "last": -1, "bottom": -1}
_WORDS = {0: "first", 1: "second", 2: "third", 3: "fourth", 4: "fifth", 5: "sixth", 6: "seventh", 7: "eighth",
          8: "ninth", 9: "tenth", -1: "last"}
# The data rows of tables and grids, as the suite finds them too.
ROWS = "tbody > tr:has(> td):visible, [role=row]:has([role=gridcell], [role=cell]):visible"
_NUMBER = re.compile(r"(?<![\w.,])\d+(?:,\d{3})*(?:\.\d+)?(?![\w])")  # 1,250.00; never the comma after "120,"


_ROW = (r"(?:the\s+)?(?P<o>first|top|second|third|fourth|fifth|last|bottom)\s+row(?:\s+(?:of|in)\s+(?:the\s+)?"
        r"(?:[a-z]+\s+){0,2}?(?:table|results|grid|list))?(?:\s+(?:on|of)\s+(?:the|this)\s+(?:[a-z]+\s+)?page)?\s+(?:should\s+|must\s+|will\s+)?(?:now\s+)?"
        r"(?:is|be|shows?|has|have|contains?|reads?|lists?|displays?|says?|holds?)\s+(?P<rest>.+)")
# '"Fix login" is the first row', '"Fix login" is shown in the top row of the table': the texts, then the row
_ROW_AFTER = (r"(?P<rest>\x01\d+\x02(?:(?:\s*,\s*|\s+and\s+|,\s*and\s+)\x01\d+\x02)*)\s+(?:is|are|should\s+be|must\s+be|"
              r"(?:should\s+|must\s+|will\s+)?appears?)\s+"
              r"(?:now\s+|still\s+)?(?:(?:shown|displayed|listed)\s+)?(?:in\s+|on\s+)?(?:the\s+)?"
              r"(?P<o>first|top|second|third|fourth|fifth|last|bottom)\s+row(?:\s+(?:of|in)\s+(?:the\s+)?"
              r"(?:[a-z]+\s+){0,2}?(?:table|results|grid|list))?(?:\s+(?:listed|shown|displayed))?(?:\s+(?:on|of)\s+"
              r"(?:the|this)\s+(?:[a-z]+\s+)?page)?")
# '"Rent" is listed first', '"Rent" is at the top of the table': the texts, then where in the rows
_ROW_END = (r"(?P<rest>\x01\d+\x02)\s+(?:is|are|should\s+be|must\s+be|"
            r"(?:should\s+|must\s+|will\s+)?(?:comes?|appears?))\s+(?:now\s+|still\s+)?(?:(?:shown|displayed|listed|sorted)\s+)?(?:(?P<o>first|last)|"
            r"at\s+the\s+(?P<o2>top|bottom)\s+of\s+the\s+(?:[a-z]+\s+){0,2}?(?:table|results|grid|list))")
# 'the first row is "A" and the last row shows "B"', '..., the second row is "B"': the next row said
_NEXT_ROW = re.compile(r"\s*(?:,\s*(?:and\s+|but\s+)?|\s+(?:and|but)\s+)(?=(?:the\s+)?(?:first|top|second|third|fourth|"
                       r"fifth|last|bottom)\s+row\b)", re.I)
# Words that say more of a row than the texts it shows: a state, a look, a comparison
_MORE = re.compile(r"\b(?:highlighted|selected|checked|ticked|unticked|disabled|enabled|bold|italic|red|green|grey|gray|"
                   r"empty|blank|expanded|collapsed|active|inactive|focused|hidden|greater|less|more|fewer|before|after|"
                   r"instead|except|only)\b", re.I)


def _row_texts(m, s):
    rest, *more = _NEXT_ROW.split(m["rest"], maxsplit=1)
    following = []
    if more:
        nxt = re.fullmatch(_ROW, more[0].strip(), re.I | re.S)
        if nxt is None:
            raise Unsupported(f"{s.show(more[0])!r}: say which texts that row shows")
        following = _row_texts(nxt, s)
    bare = TOKEN.sub(" ", rest)
    if NEGATIVE.search(bare) or re.search(r"\bor\b", bare, re.I) or _MORE.search(bare):
        raise Unsupported(f"{s.show(rest)!r}: say plainly which texts the row shows")
    texts = [s.tokens[int(n)] for n in TOKEN.findall(rest)] + _NUMBER.findall(TOKEN.sub(" ", rest))
    if not texts:
        raise Unsupported(f"{s.show(rest)!r}: quote the texts the row shows")
    place = Place(ordinal=_ORDERS[(m["o"] or m.groupdict().get("o2") or "").lower()])
    return [Op("assert_row_at", value=t, place=place) for t in texts] + following


# 'its rows are Open 47, Closed 32 and Won't fix 12, in that order': the first rows, one per item, top to bottom
_IN_ORDER = (r"(?:its|their|the)\s+(?:data\s+)?rows\s+(?:now\s+)?(?:are|show|read|list|say)\s+(?P<items>.+?),?\s+"
             r"(?:in\s+(?:that|this)\s+order|from\s+(?:the\s+)?top\s+to\s+(?:the\s+)?bottom)")
_ITEM_SPLIT = re.compile(r"\s*,\s*(?:and\s+)?|\s+and\s+", re.I)
# An unquoted item: its words and the number after or before them ("In progress 29", "12 Login fails")
_NUMBER_AT_END = r"\d[\d,]*(?:\.\d+)?"
_WORDS_AND_NUMBER = re.compile(rf"(?P<words>.*?[^\W\d].*?)\s+(?P<number>{_NUMBER_AT_END})|"
                               rf"(?P<number2>{_NUMBER_AT_END})\s+(?P<words2>.*?[^\W\d].*?)", re.S)


def _rows_in_order(m, s):
    items = [item.strip() for item in _ITEM_SPLIT.split(m["items"]) if item.strip()]
    if len(items) < 2 or len(items) > len(_WORDS) - 1:
        raise Unsupported(f"{s.show(m['items'])!r}: say the texts of two to ten rows, top to bottom")
    ops = []
    for nth, item in enumerate(items):
        bare = TOKEN.sub(" ", item)
        if NEGATIVE.search(bare) or re.search(r"\bor\b", bare, re.I) or _MORE.search(bare):
            raise Unsupported(f"{s.show(item)!r}: say plainly which texts the row shows")
        if TOKEN.search(item):
            texts = [s.tokens[int(n)] for n in TOKEN.findall(item)] + _NUMBER.findall(bare)
        else:
            split = _WORDS_AND_NUMBER.fullmatch(item)
            texts = ([split["words"] or split["words2"], split["number"] or split["number2"]] if split else [item])
        ops += [Op("assert_row_at", value=text, place=Place(ordinal=nth)) for text in texts]
    return ops


class AssertRowAt(Action):
    name = "assert_row_at"
    for_model = False
    is_assertion = True
    grounded = False
    valued = True
    param_name = "expectedText"
    statements = (Rule(_ROW, _row_texts, 104), Rule(_ROW_AFTER, _row_texts, 104), Rule(_ROW_END, _row_texts, 104),
                  Rule(_IN_ORDER, _rows_in_order, 104))

    def describe(self, target, role, value):
        return f"Verify the row shows '{value}'"

    def page_locator(self, intent):
        from shared.records import Locator

        if intent.ordinal is None:
            raise Unsupported("it does not say which row")
        return Locator(strategy="css", value=ROWS, nth=intent.ordinal)

    def check(self, act):
        text = act.value or ""
        if act.target is None or not text:
            raise CheckFailed("nothing to look for")
        try:
            act.target.get_by_text(shown_text_pattern(text)).filter(visible=True).first.wait_for(
                state="visible", timeout=act.settings.assertion_timeout_ms)
        except Exception:
            shows = act.target.inner_text(timeout=1000) if act.target.count() else "no such row"
            raise CheckFailed(f'the row does not show "{text}" (it shows "{" ".join(shows.split())[:120]}")') from None

    def phrase(self, op, slot):
        return [f"the {_order(op)} row shows ", *slot]

    def comment(self, op, what):
        return f"Check that the {_order(op)} data row of the table shows {what}"

    def javascript(self, op, target, value):
        return f"await this.expectText({value}, {target});"


def _order(op) -> str:
    nth = op.locator.nth if op.locator is not None else None
    return _WORDS.get(nth, f"#{nth}") if nth is not None else "picked"


ACTION = AssertRowAt()
