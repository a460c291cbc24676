"""Words of a text as a page or a sentence may show them."""

from __future__ import annotations

import re


def words_pattern(text: str) -> re.Pattern[str]:
    """The words of a text as the page may show them: whole words, any case, any spacing between them."""
    return re.compile(r"(?<!\w)" + r"\s+".join(re.escape(w) for w in text.split()) + r"(?!\w)", re.I)


def counted(number: int, noun: str, plural: str | None = None) -> str:
    """A count as a person says it: "1 case", "2 cases", "0 cases"."""
    return f"{number} {noun if number == 1 else plural or noun + 's'}"
