"""One scenario's kept operations placed into steps: the longest runs already known (to the registry or this build)
first, the rules' grouping for the rest."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cached_property

from shared.records import Operation, ScenarioScript, StepDefinition, StepUse
from shared.scenarios import Scenario
from shared.step_registry import StepRegistry
from workers.agent.actions import action
from workers.agent.scripting.grouping import _ends_group, _group_key, _path, group_operations
from workers.agent.scripting.parameters import Parameters, kept_operations, parameterise
from workers.agent.scripting.step_book import Keyword, StepBook, _Step, _step_signatures, _words, untold
from workers.agent.scripting.writer import (
    MAX_STEP_OPERATIONS,
)

LOOKUP_BATCH = 1000  # signatures per registry lookup (the registry's limit); one lookup unless a scenario is huge


def _check_targets(scenario: Scenario, operations: Sequence[Operation]) -> None:
    for op in operations:
        if action(op.kind).grounded and not action(op.kind).target_optional and op.locator is None:
            raise ValueError(f"scenario {scenario.id}: kept operation {op.index} ({op.kind}) has no locator")


def _prepare(scenario: Scenario, operations: Sequence[Operation]) -> tuple[list[Operation], Parameters, _Step]:
    """A scenario's kept operations after its opening, their parameters, and its opening Given step."""
    kept = kept_operations(operations)
    _check_targets(scenario, kept)
    start = _path(scenario.start)
    # The agent's own opening of the start page is what the Given step does.
    if kept and kept[0].kind == "goto" and _path(kept[0].value) == start:
        kept = kept[1:]
    # (a full stop between action and expected result: the words before a value never run into the other)
    sentences = [f"{step.action}. {step.expected or ''}" for step in scenario.steps]
    parameters = parameterise(kept, scenario.data, sentences)
    opening = Operation(index=-1, step_index=0, kind="goto", description=f"Open {start}", value=start)
    return kept, parameters, _Step("Given", [opening], [None])


def scenario_steps(scenario: Scenario, operations: Sequence[Operation]) -> tuple[list[_Step], Parameters]:
    """A scenario's steps by the grouping rules alone (no known sequences) and its parameters, from all its
    operations (failed ones included)."""
    kept, parameters, opening = _prepare(scenario, operations)
    position = {id(op): index for index, op in enumerate(kept)}
    steps = [opening]
    for group in group_operations(kept):
        keyword: Keyword = "Then" if action(group[0].kind).is_assertion else "When"
        params = [parameters.by_op.get(position[id(op)]) for op in group]
        steps.append(_Step(keyword, group, params))
    return steps, parameters


def _candidate_runs(kept: Sequence[Operation]) -> dict[int, list[int]]:
    """For each acting operation's position, the ends (exclusive, longest first) of the runs starting there that
    could be one When step: acting operations only, at most MAX_STEP_OPERATIONS, never across an assertion."""
    runs: dict[int, list[int]] = {}
    for i, op in enumerate(kept):
        if action(op.kind).is_assertion:
            continue
        end = i
        while end < len(kept) and end - i < MAX_STEP_OPERATIONS and not action(kept[end].kind).is_assertion:
            end += 1
        runs[i] = list(range(end, i, -1))
    return runs


def _look_up(registry: StepRegistry, origin: str, signatures: Sequence[str]) -> dict[str, StepDefinition]:
    """The registry's definitions for these signatures: one lookup (more only past the registry's batch limit)."""
    wanted = sorted(set(signatures))
    found: dict[str, StepDefinition] = {}
    for first in range(0, len(wanted), LOOKUP_BATCH):
        batch = wanted[first : first + LOOKUP_BATCH]
        for signature, step in registry.lookup(origin, batch).items():
            if signature in batch:
                found[signature] = step.definition
    return found


def _keyword(op: Operation) -> Keyword:
    return "Then" if action(op.kind).is_assertion else "When"


@dataclass
class _Plan:
    """One scenario's kept operations, parameters and opening step, with every run of them that could be a When
    step signed (position span -> signatures)."""

    scenario: Scenario
    kept: list[Operation]
    parameters: Parameters
    opening: _Step
    candidates: dict[int, list[int]]
    signed: dict[tuple[int, int], tuple[str, str]] = field(default_factory=dict)

    def step(self, keyword: Keyword, start: int, end: int) -> _Step:
        ops = self.kept[start:end]
        indexes = sorted({op.step_index for op in ops if 0 <= op.step_index < len(self.scenario.steps)})
        said = [self.scenario.steps[i].action for i in indexes]
        return _Step(keyword, ops, [self.parameters.by_op.get(p) for p in range(start, end)],
                     [self.parameters.by_record.get(p) for p in range(start, end)], said, self.data_values)

    @cached_property
    def data_values(self) -> frozenset[str]:
        """Values of the scenario (typed, expected, a row's text, its data cells): a record's data."""
        values = [op.value or "" for op in self.kept] + [p.value for p in self.parameters.params]
        values += [cell for row in self.scenario.data for cell in row.values()]
        return frozenset(v.strip() for v in values if len(v.strip()) >= 4)

    @cached_property
    def data_words(self) -> frozenset[str]:
        return frozenset(w for value in self.data_values for w in _words(value))

    def known_run(self, book: StepBook, start: int) -> int | None:
        """The end of the longest run starting at `start` that the book knows as a step (None: no such run)."""
        return next((end for end in self.candidates.get(start, ()) if book.knows(*self.signed[(start, end)])), None)

    def script(self, uses: list[StepUse]) -> ScenarioScript:
        return ScenarioScript(scenario_id=self.scenario.id, title=self.scenario.title,
                              steps=untold(uses, self.data_words),
                              examples=self.parameters.examples, feature=self.scenario.feature)


def _plan(
    book: StepBook,
    scenario: Scenario,
    operations: Sequence[Operation],
    registry: StepRegistry | None,
    origin: str | None,
) -> _Plan:
    """A scenario ready to be grouped; with a registry, the book is offered the steps it knows for its runs."""
    kept, parameters, opening = _prepare(scenario, operations)
    plan = _Plan(scenario, kept, parameters, opening, _candidate_runs(kept))
    plan.signed = {(i, j): _step_signatures(plan.step("When", i, j)) for i, ends in plan.candidates.items()
                   for j in ends}
    if registry is not None and origin:
        wanted = [_step_signatures(opening)[0], *(signature for signature, _ in plan.signed.values())]
        wanted += [_step_signatures(plan.step("Then", i, i + 1))[0] for i, op in enumerate(kept)
                   if action(op.kind).is_assertion]
        book.offer(_look_up(registry, origin, wanted))
    return plan


def _place_by_rules(book: StepBook, plan: _Plan) -> tuple[list[StepUse], list[tuple[int, int]]]:
    """One scenario's steps by the rules, known operation runs first (longest at each position): its Gherkin lines
    (the opening first) and the span of kept operations behind each line after the opening."""
    uses = [book.place(plan.opening)]
    spans: list[tuple[int, int]] = []

    def put(keyword: Keyword, start: int, end: int) -> None:
        uses.append(book.place(plan.step(keyword, start, end)))
        spans.append((start, end))

    group: list[int] = []  # positions of the open group of unmatched operations
    group_key: tuple | None = None

    def close() -> None:
        nonlocal group, group_key
        if group:
            put("When", group[0], group[-1] + 1)
        group, group_key = [], None

    position = 0
    while position < len(plan.kept):
        op = plan.kept[position]
        if action(op.kind).is_assertion:
            close()
            put("Then", position, position + 1)
            position += 1
            continue
        key = _group_key(op)
        if group and key != group_key:
            close()
        known = plan.known_run(book, position)
        if known is not None:
            close()
            put("When", position, known)
            position = known
            continue
        if not group:
            group_key = key
        group.append(position)
        if _ends_group(op):
            close()
        position += 1
    close()
    return uses, spans
