"""Kept operations grouped into readable Gherkin steps, each backed by a (possibly reused) step definition.

Grouping: consecutive operations on one form, up to and including the click (or key press) that submits
it, make one step; other operations make one step per run of neighbours from the same scenario step;
each assertion is its own Then step; every scenario opens with a Given step that opens its start path.

Reuse: a step's signature hashes its keyword and the ordered (locator identity, action kind) pairs;
values given as parameters are ignored, but literal values that live in the code (a goto path, a pressed
key) count, since a definition carrying another path would do something else. A step whose signature
(or, under another keyword, whose operations) match an existing definition reuses that definition's
wording with this scenario's parameters. No two definitions get patterns that match the same text.

Known sequences first: the same operations must not end up split [a], [b, c] in one scenario and [a, b], [c]
in another. Before grouping, every contiguous run of a scenario's acting operations (at most
MAX_STEP_OPERATIONS, never across an assertion) is signed as a When step made of it would be; the step
registry is asked for all of them at once, for the application's origin. Then, left to right, each position
takes the longest run already known (to the registry or defined earlier in this run); operations no known run
starts at are grouped by the rules above, each group being defined as soon as it closes so that later
positions can match it. The registry's steps are reused with their wording.

Wording: a step that fills fields of one form (and submits it) names the form by its heading or legend,
`Fill in the Find Owners form with "<lastName>" as Last name and submit it with "Find Owner"`; without such a
context it lists the operations, `Enter "<lastName>" in the Last name field and click "Find Owner"`.
Steps are worded from labels and texts a person reads, never from locators.

A step writer (writer.py; a model: model_writer.py) may then propose, for each scenario, another grouping,
wording and parameter names, shown the rules' result and the steps already known. Its proposal is taken only
when it holds (writer.check_proposal; known runs kept whole, as the rules keep them; no wording that reads like
another step's); a group whose operations are a known step reuses that step unchanged. Otherwise, or when the
writer fails, the scenario keeps the rules' result, exactly as without a writer. Scripts.notes says which.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from shared.records import Operation, ScenarioScript, StepDefinition, StepUse
from shared.scenarios import Scenario
from shared.step_registry import RegistryError, StepRegistry
from workers.agent.actions import action
from workers.agent.scripting.expressions import _arguments, _pattern, pattern_text, patterns_overlap, readable_pattern
from workers.agent.scripting.plan import _keyword, _place_by_rules, _Plan, _plan
from workers.agent.scripting.step_book import Keyword, StepBook, _Step, _step_signatures
from workers.agent.scripting.wording import describe, with_records
from workers.agent.scripting.writer import (
    KnownStep,
    OperationBrief,
    ParameterBrief,
    Proposal,
    ProposalRejected,
    ProposedStep,
    Segment,
    StepWriter,
    WriterError,
    WritingRequest,
    check_proposal,
    step_wording,
)


def _operations(start: int, end: int) -> str:
    return f"operation {start + 1}" if end - start == 1 else f"operations {start + 1}-{end}"


def _keep_known_runs(book: StepBook, plan: _Plan, keyword: Keyword, start: int, end: int) -> None:
    """Known runs win over a proposal's grouping as over the rules: where a known run starts, the step must be the
    longest one starting there, and no new step may take in the start of one (nor an assertion known alone)."""
    if keyword == "Then":
        if end - start == 1:
            return
        for position in range(start, end):
            if book.knows(*_step_signatures(plan.step("Then", position, position + 1))):
                raise ProposalRejected(f"the existing step of {_operations(position, position + 1)} must be kept "
                                       f"as one step, not {_operations(start, end)}")
        return
    known = plan.known_run(book, start)
    if known is not None:
        if known != end:
            raise ProposalRejected(f"the existing step of {_operations(start, known)} must be kept as one step, "
                                   f"not {_operations(start, end)}")
        return
    for position in range(start + 1, end):
        inner = plan.known_run(book, position)
        if inner is not None:
            raise ProposalRejected(f"the existing step of {_operations(position, inner)} must be kept as one "
                                   f"step; {_operations(start, end)} cannot take it in")


def _proposed_wording(book: StepBook, step: _Step, text: str, foreign: Sequence[StepDefinition]) -> list[Segment]:
    """A proposed step text as segments, when it reads its own arguments back and no known step's text with
    other operations (here, or the registry's `foreign` steps) could match it or be matched by it."""
    segments = step_wording(text, step.params)
    records = step.records
    if any(records):  # the record the proposal quotes becomes its argument, as in the rules' wording
        segments = with_records(segments, step.ops, records)
    pattern = _pattern(segments)
    names = [*step.params, *records]
    values = [f'"<{names[s]}>"' for s in segments if isinstance(s, int)]
    if _arguments(pattern, pattern_text(pattern, values)) != values:
        raise ProposalRejected(f"step text {text!r} does not read back its own arguments (stray quotes?)")
    clash = book.clash(pattern)
    signature = _step_signatures(step)[0]
    if clash is None:
        clash = next((d for d in foreign if d.signature != signature and patterns_overlap(pattern, d.pattern)),
                     None)
    if clash is not None:
        raise ProposalRejected(f"step text {text!r} would be ambiguous with the existing step "
                               f"{clash.keyword} {readable_pattern(clash.pattern)!r}, "
                               f"which does other operations")
    return segments


def _write(book: StepBook, plan: _Plan, proposal: Proposal, foreign: Sequence[StepDefinition]) -> ScenarioScript:
    """The scenario's script as the proposal has it, defined in `book`; ProposalRejected when it breaks a rule
    (the book is then half-written: the caller throws it away)."""
    reserved = {op.param for op in plan.kept if op.param} | {key for row in plan.scenario.data for key in row}
    checked = check_proposal(proposal, [action(op.kind).is_assertion for op in plan.kept], plan.parameters, reserved)
    plan = replace(plan, parameters=checked.parameters)
    uses = [book.place(plan.opening)]
    for (start, end), text in zip(checked.spans, checked.texts, strict=True):
        keyword = _keyword(plan.kept[start])
        _keep_known_runs(book, plan, keyword, start, end)
        step = plan.step(keyword, start, end)
        uses.append(book.place(step, lambda step=step, text=text: _proposed_wording(book, step, text, foreign)))
    return plan.script(uses)


class _Writing:
    """A step writer's turn at each scenario of one build; the rules' result stays wherever it fails."""

    def __init__(self, writer: StepWriter, registry: StepRegistry | None, origin: str | None) -> None:
        self.writer = writer
        self.registry = registry
        self.origin = origin
        self.notes: dict[str, str] = {}
        self.stopped: str | None = None  # why the writer is asked nothing more in this build
        self._foreign: list[StepDefinition] | None = None

    def foreign(self) -> list[StepDefinition]:
        """The registry's steps for the origin (fetched once; none when it cannot say)."""
        if self._foreign is None:
            self._foreign = []
            if self.registry is not None and self.origin:
                try:
                    self._foreign = [s.definition for s in self.registry.steps(origin=self.origin)]
                except RegistryError:
                    pass
        return self._foreign

    def script(self, book: StepBook, plan: _Plan) -> tuple[StepBook, ScenarioScript]:
        """The scenario's script and the book after it: the writer's when its proposal holds, else the rules'."""
        by_rules = book.fork()
        uses, spans = _place_by_rules(by_rules, plan)
        sid = plan.scenario.id

        def fall_back(reason: str) -> tuple[StepBook, ScenarioScript]:
            self.notes[sid] = f"builtin: {reason}"
            return by_rules, plan.script(uses)

        if self.stopped is not None:
            return fall_back(f"{self.writer.name} not asked (stopped earlier in this build: {self.stopped})")
        if not plan.kept:
            return fall_back("no operations to write")
        try:
            proposal = self.writer.propose(self.request(book, plan, uses[1:], spans))
        except WriterError as error:
            if error.stop:
                self.stopped = error.reason
            return fall_back(error.reason)
        written = book.fork()
        try:
            script = _write(written, plan, proposal, self.foreign())
        except ProposalRejected as error:
            return fall_back(f"{self.writer.name} proposal rejected: {error}")
        self.notes[sid] = self.writer.name
        return written, script

    def request(self, book: StepBook, plan: _Plan, uses: list[StepUse], spans: list[tuple[int, int]]
                ) -> WritingRequest:
        """What the writer is shown: the operations, the rules' result (`uses` over `spans`, placed in a copy of
        `book`), and the steps known before this scenario."""
        operations = tuple(_brief(position, op, plan.parameters.by_op.get(position))
                           for position, op in enumerate(plan.kept))
        builtin = Proposal(
            steps=tuple(ProposedStep(tuple(range(start + 1, end + 1)), use.text)
                        for (start, end), use in zip(spans, uses, strict=True)),
            parameters=tuple((p.name, p.name) for p in plan.parameters.params),
        )
        fixed = tuple(number for number, (start, end) in enumerate(spans)
                      if book.knows(*_step_signatures(plan.step(_keyword(plan.kept[start]), start, end))))
        known = [KnownStep(d.keyword, d.pattern, "run") for d in book.defs.values()]
        seen = {(d.keyword, d.pattern) for d in book.defs.values()}
        for definition in self.foreign():
            if (definition.keyword, definition.pattern) not in seen:
                seen.add((definition.keyword, definition.pattern))
                known.append(KnownStep(definition.keyword, definition.pattern, "registry"))
        return WritingRequest(
            scenario=plan.scenario,
            operations=operations,
            parameters=tuple(ParameterBrief(p.name, p.value, p.column) for p in plan.parameters.params),
            builtin=builtin,
            fixed=fixed,
            known_steps=tuple(known),
        )


def _brief(position: int, op: Operation, parameter: str | None) -> OperationBrief:
    spec = action(op.kind)
    return OperationBrief(number=position + 1, kind=op.kind, description=describe(op, None),
                          target=spec.brief_target(op), value=op.value, column=op.param, parameter=parameter,
                          sentence=op.step_index + 1, assertion=spec.is_assertion)


@dataclass
class Scripts:
    """What build_scripts makes, with where each definition came from."""

    scripts: list[ScenarioScript]
    definitions: list[StepDefinition]  # the unique definitions the scripts use, in order of first use
    reused: frozenset[str]  # signatures of those taken from `existing` or the registry (not to register again)
    # With a step writer: per scenario id, the writer's name when its proposal was taken, else "builtin: <why>".
    notes: dict[str, str] = field(default_factory=dict)

    @property
    def new_definitions(self) -> list[StepDefinition]:
        return [d for d in self.definitions if d.signature not in self.reused]


def generate_scripts(
    runs: Sequence[tuple[Scenario, Sequence[Operation]]],
    existing: Sequence[StepDefinition] = (),
    registry: StepRegistry | None = None,
    origin: str | None = None,
    writer: StepWriter | None = None,
) -> Scripts:
    """Scenario scripts for the runs of one batch, in order, each reusing the longest operation runs already known.

    `existing` definitions are known from the start. With a registry (and the application's `origin`, see
    shared.step_registry.origin_of), each scenario asks it once for every run of its operations that could be one
    step, and reuses the steps it knows with their wording. With a `writer`, each scenario is then offered to it
    (see the module docstring); Scripts.notes says which scenarios took its proposal.
    """
    if registry is not None and not origin:
        raise ValueError("build_scripts: a registry needs the application's origin")
    book = StepBook(existing)
    writing = _Writing(writer, registry, origin) if writer is not None else None
    scripts: list[ScenarioScript] = []
    for scenario, operations in runs:
        plan = _plan(book, scenario, operations, registry, origin)
        if writing is None:
            scripts.append(plan.script(_place_by_rules(book, plan)[0]))
        else:
            book, script = writing.script(book, plan)
            scripts.append(script)
    definitions = book.used_definitions()
    reused = frozenset(d.signature for d in definitions if d.signature in book.reused)
    notes = dict(writing.notes) if writing is not None else {}
    return Scripts(scripts=scripts, definitions=definitions, reused=reused, notes=notes)


def build_scripts(
    runs: Sequence[tuple[Scenario, Sequence[Operation]]],
    existing: Sequence[StepDefinition] = (),
    registry: StepRegistry | None = None,
    origin: str | None = None,
    writer: StepWriter | None = None,
) -> tuple[list[ScenarioScript], list[StepDefinition]]:
    """Scenario scripts for the runs of one batch, and the unique step definitions they use, in order.

    `existing` definitions and, with a registry, the steps it knows for `origin` are reused (see
    generate_scripts); generate_scripts also says which definitions are new and what a writer did.
    """
    result = generate_scripts(runs, existing, registry, origin, writer)
    return result.scripts, result.definitions
