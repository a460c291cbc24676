"""What "shown" means, whoever checks it (the agent, the replayed suite): a text as whole words of some visible
element's text, any case, any run of spaces between words."""

from __future__ import annotations

import re


def shown_text_pattern(text: str) -> re.Pattern[str]:
    """The text as whole words, any case, any run of spaces between words: "1 owner" is not shown by
    "11 owners". world.js builds the same pattern."""
    # Escape exactly what world.js escapes: the pattern runs in the browser as a JavaScript RegExp.
    words = [re.sub(r"[.*+?^${}()|[\]\\]", lambda m: "\\" + m.group(0), word) for word in text.split()]
    return re.compile(r"(?<![\w])" + r"\s+".join(words) + r"(?![\w])", re.IGNORECASE)
