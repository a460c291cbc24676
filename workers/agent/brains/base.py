"""The brain interface: decides the next intents for a scenario step.

A brain reads the step (action sentence plus optional expected result), the current page and
what has been done so far, and answers with a `Decision`. The builtin brain is rule-based and
answers each step at once; a model-based brain can implement the same protocol and answer
incrementally (`step_done=False`) after seeing the effect of its intents.
"""

from __future__ import annotations

from typing import Protocol, runtime_checkable

from shared.records import Decision, Operation, PageSnapshot
from shared.scenarios import ScenarioStep


@runtime_checkable
class Brain(Protocol):
    def decide(
        self,
        step: ScenarioStep,
        step_index: int,
        snapshot: PageSnapshot,
        history: list[Operation],
    ) -> Decision:
        """Intents for `step` (0-based `step_index`) on the page `snapshot`, or `Decision(unsupported=...)`."""
        ...
