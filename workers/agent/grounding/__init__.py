"""Grounding: from an intent's target phrase to a node of the page and a stable locator (HTE)."""

from .hte import Chooser, ground, text_chooser
from .locators import best_locator, resolve
from .scoring import THRESHOLD, score, score_region
from .tree import StaleSnapshotError, element_handle, snapshot

__all__ = [
    "THRESHOLD",
    "Chooser",
    "StaleSnapshotError",
    "best_locator",
    "element_handle",
    "ground",
    "resolve",
    "score",
    "score_region",
    "snapshot",
    "text_chooser",
]
