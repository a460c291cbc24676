"""Action kinds: one module each under `kinds/`, found by looking, so adding a kind is adding a module.

    action("click").javascript(op, target, value)
    all_actions()  # every kind, in name order

See `base.Action` for what a kind declares.
"""

from __future__ import annotations

import pkgutil
from importlib import import_module

from .base import Act, Action, ActionFailed, CheckFailed, Rule, Segment

__all__ = ["Act", "Action", "ActionFailed", "CheckFailed", "Rule", "Segment", "action", "all_actions",
           "is_assertion", "UnknownAction"]


class UnknownAction(KeyError):
    """A kind name no module declares (a record written by another version, or a typo)."""

    def __str__(self) -> str:
        return f"unknown action kind {self.args[0]!r} (known: {', '.join(sorted(_registry()))})"


_ACTIONS: dict[str, Action] = {}


def _registry() -> dict[str, Action]:
    if not _ACTIONS:
        from . import kinds

        found: dict[str, Action] = {}
        for info in sorted(pkgutil.iter_modules(kinds.__path__), key=lambda i: i.name):
            declared = getattr(import_module(f"{kinds.__name__}.{info.name}"), "ACTION", None)
            if isinstance(declared, Action):
                if declared.name in found:
                    raise RuntimeError(f"two modules declare the action kind {declared.name!r}")
                found[declared.name] = declared
        _ACTIONS.update(found)
    return _ACTIONS


def action(kind: str) -> Action:
    """The action kind of that name; UnknownAction when no module declares it."""
    try:
        return _registry()[kind]
    except KeyError:
        raise UnknownAction(kind) from None


def all_actions() -> list[Action]:
    return [_registry()[name] for name in sorted(_registry())]


def is_assertion(kind: str) -> bool:
    return action(kind).is_assertion
