"""Words of a text as a page or a sentence may show them."""

from __future__ import annotations

import re


def words_pattern(text: str) -> re.Pattern[str]:
    """The words of a text as the page may show them: whole words, any case, any spacing between them."""
    return re.compile(r"(?<!\w)" + r"\s+".join(re.escape(w) for w in text.split()) + r"(?!\w)", re.I)
