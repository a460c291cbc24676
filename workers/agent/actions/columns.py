"""What the checks of a table's column share (kinds/assert_column_each, assert_sorted): the column found by its header
cell, and the reading of the data rows' cells under it in the page (settle.js `columnCells`, the same in generation
and in the suite).

The header is the cell whose own text is the column's name, whole and in any case, a sort arrow after it aside:
"status" is not the "status_code" column; "name ▼" is the name column, sorted by it.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from workers.agent.actions.base import Action, CheckFailed
from workers.agent.language.phrases import Unsupported

_SORT_MARKS = "▲▼△▽↑↓⬆⬇▴▾⌃⌄"


def header_locator(name: str):
    """The element that holds the column's name (the header cell's link or span; a Playwright text selector, which
    the "css" strategy passes to locator() as it is): settle.js takes the header cell around it."""
    from shared.records import Locator

    words = r"\s+".join(re.escape(w).replace("/", r"\/") for w in name.split())
    return Locator(strategy="css", value=f"text=/^\\s*{words}(?:\\s*[{_SORT_MARKS}])?\\s*$/i")


class ColumnCheck(Action):
    """A check of the cells under a column header; `target` is the column's name."""

    for_model = False
    is_assertion = True
    grounded = False
    valued = True

    def page_locator(self, intent):
        if not intent.target:
            raise Unsupported("it does not say which column")
        return header_locator(intent.target)

    def check_column(self, act, function: str, argument: Any, none: str, wrong: Callable[[list[str]], str]) -> None:
        """settle.js `function(headers, argument, timeout)` holds; else CheckFailed: `none` when no row was found,
        else what `wrong` says of the cells it reports."""
        found = act.target.evaluate_all(
            f"(els, [a, ms]) => window.__stepforge ? window.__stepforge.{function}(els, a, ms) : null",
            [argument, act.settings.assertion_timeout_ms])
        if found is True:
            return
        if found is None:
            raise CheckFailed("the page's scripts are not loaded")
        raise CheckFailed(wrong(found) if found else none)
