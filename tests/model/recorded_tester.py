"""A ScriptedTester whose scripts are read off verified run records: the answers a tester model would give to
generate the same scenarios again, operation by operation.

    tester = recorded_tester(read_verified(suite_dir))   # a suite the builtin brain generated
    server.respond_with(tester)

Each scenario step is answered with the operations its record holds for that step, in order (the ones that failed
and were corrected left out); the last one declares the step done with the step's assertions. A value assertion is
given as the text it expects (the model brain checks a value without an element as a text on the page). The model
bench uses it to time full generation with the model brain against a regeneration of the same scenarios.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from shared.records import Operation
from shared.triage import VerifiedScript

from .scripted_tester import ScriptedTester, act


def target_phrase(operation: Operation) -> str:
    """The element's name as the page shows it: its role name, else its label, own words or placeholder."""
    if operation.locator is not None and operation.locator.strategy == "role" and operation.locator.value:
        return operation.locator.value
    target = operation.target
    if target is None:
        return ""
    for name in (target.label, target.a11y_name, target.aria_label, target.placeholder, target.text, target.title,
                 target.name_attr):
        if name and name.strip():
            return " ".join(name.split())
    return ""


def step_answers(operations: list[Operation]) -> list[dict[str, Any]]:
    actions = [op for op in operations if not op.kind.startswith("assert_")]
    texts = [op.value for op in operations if op.kind in ("assert_text", "assert_value") and op.value]
    answers = [act(op.kind, "" if op.kind in ("goto", "press") else target_phrase(op), op.value or "")
               for op in actions]
    if not answers:
        return [act("none", done=True, texts=texts)]
    last = actions[-1]
    answers[-1] = act(last.kind, "" if last.kind in ("goto", "press") else target_phrase(last), last.value or "",
                      done=True, texts=texts)
    return answers


def recorded_tester(scripts: Iterable[VerifiedScript]) -> ScriptedTester:
    found: dict[str, dict[int, list[dict[str, Any]]]] = {}
    for script in scripts:
        steps: dict[int, list[Operation]] = {}
        for op in script.record.operations:
            if op.step_index >= 0 and op.ok and not op.redundant:
                steps.setdefault(op.step_index + 1, []).append(op)
        found[script.scenario.title] = {number: step_answers(ops) for number, ops in sorted(steps.items())}
    return ScriptedTester(found)
