"""The brain interface: decides the next intents for a scenario step.

A brain reads the step (action sentence plus optional expected result), the current page and
what has been done so far, and answers with a `Decision`. The builtin brain is rule-based and
answers each step at once; a model-based brain can implement the same protocol and answer
incrementally (`step_done=False`) after seeing the effect of its intents.
"""

from __future__ import annotations

from collections.abc import Callable
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
        screenshot: Callable[[], bytes] | None = None,
    ) -> Decision:
        """Intents for `step` (0-based `step_index`) on the page `snapshot`, or `Decision(unsupported=...)`.

        `screenshot()` gives the page as PNG (taken on first use). `history` holds every operation so
        far, failed ones with their error: a brain with `recovers = True` is asked again after a failed
        operation and may choose another way; others end the scenario at the first failure."""
        ...
