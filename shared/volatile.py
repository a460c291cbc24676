"""Text that reads otherwise tomorrow: dates, times, relative times, counters and generated ids.

A suite that names a row by today's date, or a step that quotes "3 minutes ago", cannot pass on the next day.
Generation never anchors an element by such text, nor writes it into a step, unless the tester's sentence names
it (then it is the tester's value, a parameter); the corpus benchmark flags any that gets through.

Patterns rather than a date-parsing library: what is needed is "does this text hold a date-like run", in any of
the shapes pages print, with few false hits on names ("May", "March" alone are names as often as months), which a
parser that reads "in 3" or "may" as dates does not give.
"""

from __future__ import annotations

import re

from shared.words import words_pattern

_MONTH = (r"(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sept?(?:ember)?|"
          r"oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\.?")
_MONTH_CAPITAL = (r"(?:Jan(?:uary)?|Feb(?:ruary)?|Mar(?:ch)?|Apr(?:il)?|May|June?|July?|Aug(?:ust)?|Sept?(?:ember)?|"
                  r"Oct(?:ober)?|Nov(?:ember)?|Dec(?:ember)?|JAN|FEB|MAR|APR|MAY|JUNE?|JULY?|AUG|SEPT?|OCT|NOV|DEC)\.?")
_DAY = r"(?:[0-3]?\d)(?:st|nd|rd|th)?"
_YEAR = r"(?:19|20)\d\d"
_UNIT = r"(?:sec(?:ond)?s?|min(?:ute)?s?|h(?:ou)?rs?|hours?|days?|weeks?|months?|years?|yrs?)"

_PATTERNS = {
    "date": [
        rf"(?<!\d){_YEAR}[-/.](?:0?[1-9]|1[0-2])[-/.](?:[0-3]?\d)(?!\d)",  # 2027-03-03
        r"(?<![\d./])(?:[0-3]?\d)/(?:[0-3]?\d)/(?:\d{4}|\d\d)(?![\d./])",  # 03/03/2027, 3/3/27
        r"(?<![\d.-])(?:[0-3]?\d)[-.](?:[0-3]?\d)[-.](?:19|20)\d\d(?![\d.-])",  # 3.3.2027 (never a version: 4.17.21)
        rf"\b{_MONTH}\s+{_DAY}(?:\s*,\s*|\s+){_YEAR}\b",  # Mar. 3, 2027
        rf"\b{_DAY}\s+{_MONTH}\s+{_YEAR}\b",  # 3 March 2027
        rf"\b{_MONTH}\s+{_YEAR}\b",  # March 2027
        # without a year, only a month written with its capital ("Step 2 may fail" is no date)
        rf"\b(?-i:{_MONTH_CAPITAL})\s+(?:[0-3]?\d)(?:st|nd|rd|th)?\b(?!\s*[:.]\d)",  # Mar 3
        rf"\b(?:[0-3]?\d)(?:st|nd|rd|th)?\s+(?-i:{_MONTH_CAPITAL})(?=\W|$)",  # 3 Mar
    ],
    "time": [
        r"(?<![\d:])(?:[01]?\d|2[0-3]):[0-5]\d(?::[0-5]\d)?(?:\s*[ap]\.?m\.?)?(?![\w:])",  # 10:45, 10:45:12 pm
        r"\b(?:1[0-2]|0?[1-9])\s*[ap]\.?m\.?(?!\w)",  # 3 pm
    ],
    "relative time": [
        rf"\b(?:\d+|an?|one|few|several)\s+{_UNIT}\s+ago\b",  # 3 minutes ago, an hour ago
        rf"\bin\s+(?:\d+|an?)\s+{_UNIT}\b",  # in 3 days
        r"\b(?:\d+)\s*(?:s|m|h|d|w|mo|y)\s+ago\b",  # 3m ago
        r"\b(?:just\s+now|today|yesterday|tomorrow|moments?\s+ago|last\s+(?:week|month|year)|"
        r"(?:this|next)\s+(?:week|month|year))\b",
    ],
    "counter": [
        r"(?<![\w.])\((?!(?:19|20)\d\d\))\d+\)(?!\w|\s*\d)",  # (3), never a year "(2025)" nor "(555) 123-4567"
        r"\b\d+\s+(?:items?|results?|comments?|replies|reply|messages?|notifications?|unread|new|views?|likes?|"
        r"votes?|stars?|downloads?|followers?|members?|tasks?|entries|entry|records?|rows?|files?|posts?|issues?|"
        r"tickets?|versions?|matches|match)\b",
        # "1-10 of 42", never a year ("Best of 2026") nor a version ("of 2.0")
        r"\bof\s+(?!(?:19|20)\d\d\b)\d+\b(?![.,]\d)(?=\s*(?:$|[)\].,;]|results?|items?|entries|records?|pages?))",
    ],
    "generated id": [
        r"\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b",  # a UUID
        r"\b(?=[0-9a-f]*\d)(?=[0-9a-f]*[a-f])[0-9a-f]{10,}\b",  # a hash: hex with letters and digits
    ],
}
_COMPILED = {kind: [re.compile(p, re.IGNORECASE) for p in patterns] for kind, patterns in _PATTERNS.items()}


def volatile_parts(text: str | None) -> list[tuple[str, str]]:
    """The runs of `text` that read otherwise tomorrow, each as (its kind, the run), in order of where they start:
    "Mar. 3, 2027" -> [("date", "Mar. 3, 2027")]; "Comments (3)" -> [("counter", "(3)")]; [] for "Owner"."""
    text = text or ""
    found: list[tuple[int, int, str]] = []
    for kind, patterns in _COMPILED.items():
        for pattern in patterns:
            for m in pattern.finditer(text):
                if m.group(0).strip() and not any(s <= m.start() < e or m.start() <= s < m.end() for s, e, _ in found):
                    found.append((m.start(), m.end(), kind))
    return [(kind, text[start:end].strip()) for start, end, kind in sorted(found)]


def locator_texts(locator) -> list[str]:
    """The texts a locator (shared.records.Locator) finds its element by that a page prints: the name or text it
    matches (by role, text, title or label) and the text of the row or item it looks inside."""
    texts = [locator.value] if locator.strategy in ("role", "text", "title", "label") else []
    if locator.within is not None:
        texts.append(locator.within.text)
    return texts


def is_volatile(text: str | None) -> bool:
    return bool(volatile_parts(text))


def said_by(run: str, sentences: str) -> bool:
    """The tester's sentences name this run as whole words (any case, any spacing): then it is their value, not the
    page's ("Mar 3" is not said by "Mar 31", nor "3 minutes ago" by "13 minutes ago")."""
    return bool(run.split()) and words_pattern(run).search(sentences) is not None


def unsaid_volatile(text: str | None, sentences: str) -> list[tuple[str, str]]:
    """The volatile runs of `text` that the tester's `sentences` do not name."""
    return [(kind, run) for kind, run in volatile_parts(text) if not said_by(run, sentences)]
