"""Counts said of a list, read before the rest of a sentence: each becomes an assert_count on the list holding a
quoted text, and the sentence goes on without it (the texts it quoted are still checked as shown).

    'Four modules are listed, including "A" and "B"'     -> count("A", "Four modules"); '"A" and "B" are shown'
    'The page lists one row, on "Savings", with ...'      -> count("Savings", "one row"); 'The page lists "Savings";
                                                             the table has a "Savings" row with ...' (see checks.py)
    'the tray shows three rules: "high" and "normal"'     -> count("high", "three rules"); 'the tray shows "high" ...'
    'Only "sql" is left in the list'                      -> count("sql", "one"); '"sql" is shown in the list'
    'The palette shows only the "network" category'       -> count("network", "one category"); without 'only'
    '"tiny-logger" is the only dependency listed under X'  -> count("tiny-logger", "one dependency"); '... is listed
                                                             under X'

A count is taken only with a quoted text to find its list by; 'Three results are shown' alone is left to the rules
that read it as a text.
"""

from __future__ import annotations

import re

from .phrases import Op, Sentence, Unsupported

# Number words a tester writes for a count (settle.js's NUMBER_WORDS are the same).
NUMBER_WORDS = {"no": 0, "zero": 0, "one": 1, "a": 1, "single": 1, "two": 2, "three": 3, "four": 4, "five": 5,
                "six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12}


def count_of(value: str | None) -> int | None:
    """The number a count's words start with: "four modules" -> 4, "exactly 12 rows" -> 12; None when there is none."""
    first = re.sub(r"(?i)^\s*exactly\s+", "", value or "").strip().split(" ", 1)[0].lower()
    if re.fullmatch(r"\d+", first):
        return int(first)
    return NUMBER_WORDS.get(first)


_TOKEN = "\x01(?:\\d+)\x02"
_LIST = rf"{_TOKEN}(?:\s*(?:,\s*(?:and\s+)?|and\s+|&\s*|\s){_TOKEN})*"  # ('#2 "Add dark mode"': one record's texts)
_NUMBER = (r"(?:\d+|<\w+>|a\s+single|" + "|".join(w for w in sorted(NUMBER_WORDS, key=len, reverse=True)
                                                  if w not in ("a", "no")) + r")")
# What is counted: one or two words, never a verb or a word that says where
_NOUN = (r"(?!(?:is|are|of|in|on|under|with|for)\b)[a-z][\w-]*"
         r"(?:\s+(?!(?:is|are|of|in|on|under|with|for)\b)[a-z][\w-]*)?")
_LEFT = r"(?:listed|shown|displayed|left|visible|found|present|remaining|there)"
_ROWS = frozenset("row rows entry entries record records line lines".split())
_WORDS = {n: w for w, n in reversed(list(NUMBER_WORDS.items())) if w not in ("a", "no", "single")}

# 'Four modules are listed, including "A"', 'Only one row is left: "writer" with ...'
_SUBJECT_COUNT = re.compile(
    rf"(?:\b|(?=<))(?:only\s+|just\s+|exactly\s+)?(?P<n>{_NUMBER})\s+(?P<noun>{_NOUN})\s+(?:(?P<be>is|are)\s+(?:now\s+|still\s+)?"
    rf"{_LEFT}|(?P<stays>remains?|stays?))\b(?P<where>\s+(?:in|on|under)\s+(?:the\s+)?(?:[a-z][\w-]*\s+){{0,2}}?(?:list|table|grid|results|palette|"
    rf"menu|tree|panel|sidebar|tray|dialog))?\s*(?:[,:;]\s*)?(?:(?:including|among\s+them|such\s+as|namely|with)\s+)?"
    r"(?:an?\s+(?:[a-z][\w-]*\s+){0,2}?)?"  # ('One result is shown, a function node "X"': what the record is)
    rf"(?P<list>{_LIST})", re.I)
# 'The page lists one row, on "Savings"', 'the tray shows three rules: "high", "normal" and "otherwise"', '... shows
# Property "x" and three rules: ...'
_OBJECT_COUNT = re.compile(
    rf"\b(?P<verb>lists?|shows?|has|have|contains?|holds?|displays?|and)\s+(?:only\s+|exactly\s+|just\s+)?(?P<n>{_NUMBER})"
    rf"\s+(?P<noun>{_NOUN})(?:\s*[,:]\s*(?:on\s+)?|\s+)(?:(?:including|namely|such\s+as)\s+)?(?P<list>{_LIST})"
    r"(?:\s*,(?=\s*with\b))?", re.I)
# 'Only "sql" is left in the list', 'Only "A" and "B" are shown'
# 'Only the post "Hello" should be listed'
_ONLY_LEFT = re.compile(rf"\bonly\s+(?:the\s+(?:[a-z][\w-]*\s+)?)?(?P<list>{_LIST})\s+"
                        rf"(?P<be>is|are|(?:should|must|will)\s+be)\s+(?:now\s+|still\s+)?{_LEFT}\b", re.I)
# 'The palette shows only the "network" category'
_SHOWS_ONLY = re.compile(rf"\b(?P<verb>lists?|shows?|displays?)\s+only\s+(?:the\s+)?(?P<tok>{_TOKEN})(?:\s+"
                         rf"(?P<noun>(?!(?:is|are|and|with|in|on|under|now|again)\b)[a-z][\w-]*)|\s*$)", re.I)
# '"tiny-logger" is the only dependency listed under "Dependencies (1)"'
_THE_ONLY = re.compile(rf"(?P<tok>{_TOKEN})\s+is\s+the\s+only\s+(?:(?P<noun>(?!(?:listed|shown|one)\b)[a-z][\w-]*)\s*|"
                       rf"one\s+)(?={_LEFT}\b|(?:under|in|on)\s|$)(?:{_LEFT}\b)?", re.I)


# 'More than two rows are shown', 'at least 3 results': a bound, not a count
_COMPARED = re.compile(rf"\b(?:(?:more|less|fewer)\s+than|at\s+(?:least|most)|over|under|up\s+to|no\s+more\s+than)\s+"
                       rf"{_NUMBER}\s+{_NOUN}\s+(?:is|are)\b", re.I)


def take_counts(s: Sentence) -> list[Op]:
    """The counts the sentence says, as assert_count operations; `s.masked` goes on without them."""
    ops: list[Op] = []

    def count(token: str, value: str) -> None:
        ops.append(Op("assert_count", target=s.tokens[int(re.search(r"\d+", token)[0])], value=value))

    def subject(m: re.Match[str]) -> str:
        count(m["list"], f"{_said(m['n'])} {m['noun']}")
        if m["noun"].lower() in _ROWS and len(re.findall(_TOKEN, m["list"])) == 1:
            return f"the table has a {m['list']} row "  # the texts said with it are in its row
        return f"{m['list']} {m['be'] or 'is'} shown{m['where'] or ''} "

    def object_(m: re.Match[str]) -> str:
        count(m["list"], f"{_said(m['n'])} {m['noun']}")
        if m["noun"].lower() in _ROWS and len(re.findall(_TOKEN, m["list"])) == 1:
            return f"{m['verb']} {m['list']}; the table has a {m['list']} row "
        return f"{m['verb']} {m['list']} "

    def only_left(m: re.Match[str]) -> str:
        listed = re.findall(_TOKEN, m["list"])
        count(m["list"], _WORDS.get(len(listed), str(len(listed))))
        return f"{m['list']} {m['be']} shown"

    def shows_only(m: re.Match[str]) -> str:
        count(m["tok"], f"one {m['noun'] or ''}".strip())
        return f"{m['verb']} {m['tok']} {m['noun'] or ''}"

    def the_only(m: re.Match[str]) -> str:
        count(m["tok"], f"one {m['noun'] or ''}".strip())
        return f"{m['tok']} is listed "

    compared = _COMPARED.search(s.masked)
    if compared:
        raise Unsupported(f"{s.show(compared[0])!r}: only an exact count can be checked (say how many)")
    masked = s.masked
    for pattern, rewrite in ((_SUBJECT_COUNT, subject), (_OBJECT_COUNT, object_), (_ONLY_LEFT, only_left),
                             (_SHOWS_ONLY, shows_only), (_THE_ONLY, the_only)):
        masked = pattern.sub(rewrite, masked)
    s.masked = " ".join(masked.split())
    return ops


def _said(number: str) -> str:
    return " ".join(number.split())
