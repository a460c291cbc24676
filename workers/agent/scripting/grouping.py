"""Which kept operations make one step by the rules: a form up to its submit, a run of neighbours from one scenario
step, each check on its own."""

from __future__ import annotations

from collections.abc import Sequence
from urllib.parse import urlsplit

from shared.records import Operation
from workers.agent.actions import action


def _path(value: str | None) -> str:
    parts = urlsplit(value or "/")
    return (parts.path or "/") + (f"?{parts.query}" if parts.query else "")


def _navigated(op: Operation) -> bool:
    obs = op.observation
    return obs is not None and obs.url_before != obs.url_after


def _group_key(op: Operation) -> tuple:
    """Neighbours with the same key share a step: the same form, else the same scenario step."""
    form = op.target.form if op.target is not None else None
    return ("form", form) if form is not None else ("step", op.step_index)


def _ends_group(op: Operation) -> bool:
    """A form's submit, a navigation and a goto end their step."""
    form = op.target.form if op.target is not None else None
    submits = form is not None and action(op.kind).submits
    return submits or _navigated(op) or op.kind == "goto"


def group_operations(operations: Sequence[Operation]) -> list[list[Operation]]:
    """Consecutive kept operations grouped into steps (see the module docstring)."""
    groups: list[list[Operation]] = []
    current: list[Operation] = []
    current_key: tuple | None = None

    def close() -> None:
        nonlocal current, current_key
        if current:
            groups.append(current)
        current, current_key = [], None

    for op in operations:
        if action(op.kind).is_assertion:
            close()
            groups.append([op])
            continue
        key = _group_key(op)
        if key != current_key:
            close()
            current_key = key
        current.append(op)
        if _ends_group(op):
            close()
    close()
    return groups
