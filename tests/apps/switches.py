"""Changes a demo application can be switched to between two runs (tests/apps/*/changes.py)."""

from __future__ import annotations

from collections.abc import Callable, Sequence


class Switches:
    """The changes that are on (`active`, read by the application at each request) among the known `names`."""

    def __init__(self, names: Sequence[str], on_switch: Callable[[], None] = lambda: None) -> None:
        self.names, self.on_switch = tuple(names), on_switch
        self.active: set[str] = set()

    def switch(self, *names: str) -> None:
        """Only these changes are on from now; switch() with no name: the application as it was."""
        unknown = [name for name in names if name not in self.names]
        if unknown:
            raise ValueError(f"unknown change(s) {unknown}; known: {', '.join(self.names)}")
        self.active.clear()
        self.active.update(names)
        self.on_switch()
