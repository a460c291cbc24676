"""Ids a framework generates at run time (a counter or a random part): never a locator, never a name.

React's useId (`:r1q:`, `«r1q»`, `_r_1q_`) and what libraries build on it (`radix-:r1q:-trigger-x`,
`react-aria8254751381-_r_11_`), Ember's `ember123`, ids holding a run of six digits or more, and ids ending in a long
digit or hex run (`mui-12345`, `field-8f3a9c2e`) change from one render or one build to
the next: a replay that finds an element by one is flaky by construction. A short number a person wrote
(`save-2`, `step2`) is kept.
"""

from __future__ import annotations

import re

_GENERATED = (
    re.compile(r"[:«»]"),  # React's useId and the ids built on it
    re.compile(r"\d{3,}$"),  # a long digit run at the end: ember123, mui-12345, owner_1024
    re.compile(r"\d{6,}"),  # a long digit run anywhere: react-aria8254751381-x
    re.compile(r"(?:^|[-_])_?r_[0-9a-z]+_(?:$|[-_])"),  # React 19's useId: _r_11_, react-aria-_r_1q_
    re.compile(r"(?:^|[-_.])(?=[0-9a-f]*\d)(?=[0-9a-f]*[a-f])[0-9a-f]{6,}$", re.IGNORECASE),  # a hex run
    re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}", re.IGNORECASE),  # a UUID
    re.compile(r"[a-z][-_]\d+[-_][a-z]", re.IGNORECASE),  # a counter between words: downshift-0-input, select-2-option
)


def generated_id(value: str) -> bool:
    """True when the id looks made by a framework at run time rather than written by a person."""
    return any(pattern.search(value) for pattern in _GENERATED)


def stable_id(value: str | None) -> str | None:
    """The id when a person wrote it; None for a generated one (or none)."""
    return value if value and not generated_id(value) else None
