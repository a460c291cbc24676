"""The abstraction phase's step writer: who groups a scenario's kept operations into steps and words them.

The builtin rules of steps.py always write a scenario first; a `StepWriter` (say, a model: model_writer.py) is
then shown that proposal and may answer another one. Its proposal is a plain `Proposal`:

- `steps`: the scenario's kept operations (numbered from 1, the opening Given apart) cut into contiguous groups,
  in order, each with its Gherkin step text (no keyword), where every operation carrying a parameter has its own
  `"<parameterName>"` placeholder;
- `parameters`: (builtin name, proposed name) for every parameter (Examples column) of the scenario; data columns
  keep their names.

`check_proposal` holds a proposal to the rules that need no step book: every operation in exactly one group and
in order, groups of at most MAX_STEP_OPERATIONS, no group mixing an assertion with an action, parameter names
that are identifiers and collide with nothing. `step_wording` reads one step text into literal text and argument
slots. Both raise `ProposalRejected`; steps.py then checks the groups against the known steps and the wording
against every step it could be confused with, and falls back to the builtin result when anything is off.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Literal, Protocol

from shared.scenarios import Scenario
from workers.agent.scripting.parameters import Parameters

MAX_STEP_OPERATIONS = 8  # a step takes at most this many operations (the longest known run steps.py matches)
MAX_STEP_TEXT = 200  # characters of a proposed step text
MAX_PARAMETER_NAME = 40
IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")
# A placeholder as a step text holds it: "<name>" (quoted, as the Gherkin line shows it) or <name> (quotes added).
PLACEHOLDER = re.compile(r'"<([A-Za-z_][A-Za-z0-9_]*)>"|<([A-Za-z_][A-Za-z0-9_]*)>')
_KEYWORD = re.compile(r"^(?:Given|When|Then|And|But)(?:\s+|$)")

Segment = str | int  # literal text, or the index (within the step) of the operation whose value goes there


# --- what a writer is shown -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class OperationBrief:
    """One kept operation as the writer sees it."""

    number: int  # 1-based position among the scenario's kept operations (the opening Given apart)
    kind: str  # ActionKind value
    description: str  # one line: what it does (the comment steps.js gives it)
    target: str | None  # how a person names the element (None for goto, page-wide assertions, plain key presses)
    value: str | None  # typed text, option, key, path or expected text
    column: str | None  # the data column the value came from
    parameter: str | None  # the builtin parameter carrying the value (its <placeholder>), if any
    sentence: int  # 1-based scenario step it was done for
    assertion: bool


@dataclass(frozen=True)
class ParameterBrief:
    name: str  # builtin name
    value: str  # the value of the first Examples row
    column: bool  # a data column: its name cannot change


@dataclass(frozen=True)
class KnownStep:
    """A step already defined for the application: its wording is the house style, its text is taken."""

    keyword: str
    pattern: str  # cucumber expression, {string} per argument
    source: Literal["run", "registry"]


@dataclass(frozen=True)
class ProposedStep:
    operations: tuple[int, ...]  # operation numbers (1-based)
    text: str  # Gherkin step text without keyword, "<name>" per argument


@dataclass(frozen=True)
class Proposal:
    steps: tuple[ProposedStep, ...]
    parameters: tuple[tuple[str, str], ...]  # (builtin name, proposed name)


@dataclass(frozen=True)
class WritingRequest:
    """What a writer gets for one scenario."""

    scenario: Scenario
    operations: tuple[OperationBrief, ...]
    parameters: tuple[ParameterBrief, ...]
    builtin: Proposal  # the builtin rules' grouping, wording and names: a starting point
    fixed: tuple[int, ...]  # indexes into builtin.steps of steps that reuse a known step: to keep as grouped
    known_steps: tuple[KnownStep, ...] = field(default=())  # this run's steps first, then the registry's


class WriterError(Exception):
    """The writer has no proposal for this scenario (the builtin result stays); `stop`: ask it nothing more in
    this build (a spent budget)."""

    def __init__(self, reason: str, *, stop: bool = False) -> None:
        super().__init__(reason)
        self.reason = reason
        self.stop = stop


class ProposalRejected(ValueError):
    """A proposal that breaks a rule; the message says which, for the build's notes."""


class StepWriter(Protocol):
    """Proposes a scenario's steps, wording and parameter names; raises WriterError when it has none."""

    name: str  # how the notes call a scenario written by it

    def propose(self, request: WritingRequest) -> Proposal: ...


# --- checks that need no step book ---------------------------------------------------------------------------


@dataclass(frozen=True)
class CheckedProposal:
    spans: list[tuple[int, int]]  # [start, end) positions in the kept operations, in order
    texts: list[str]  # the step text of each span, as proposed
    parameters: Parameters  # the scenario's parameters under their proposed names


def check_proposal(
    proposal: Proposal, assertions: Sequence[bool], parameters: Parameters, reserved: set[str]
) -> CheckedProposal:
    """The proposal's groups as spans and the parameters renamed, or ProposalRejected.

    `assertions` says for each kept operation whether it is an assertion; `reserved` holds the names no renamed
    parameter may take (the scenario's data columns).
    """
    count = len(assertions)
    if not proposal.steps:
        raise ProposalRejected("no steps")
    numbers = [n for step in proposal.steps for n in step.operations]
    if numbers != list(range(1, count + 1)):
        raise ProposalRejected(f"the steps must take operations 1 to {count}, each once and in order; they take "
                               f"{_numbers(numbers)}")
    spans: list[tuple[int, int]] = []
    start = 0
    for step in proposal.steps:
        end = start + len(step.operations)
        if end == start:
            raise ProposalRejected("a step has no operations")
        if end - start > MAX_STEP_OPERATIONS:
            raise ProposalRejected(f"the step of operations {start + 1}-{end} has {end - start} operations "
                                   f"(at most {MAX_STEP_OPERATIONS})")
        if len(set(assertions[start:end])) > 1:
            raise ProposalRejected(f"the step of operations {start + 1}-{end} mixes assertions with actions")
        spans.append((start, end))
        start = end
    return CheckedProposal(spans=spans, texts=[s.text for s in proposal.steps],
                           parameters=renamed(parameters, _renames(proposal, parameters, reserved)))


def _numbers(numbers: Sequence[int]) -> str:
    shown = ", ".join(str(n) for n in numbers[:30])
    return f"[{shown}{', …' if len(numbers) > 30 else ''}]"


def _renames(proposal: Proposal, parameters: Parameters, reserved: set[str]) -> dict[str, str]:
    current = {p.name: p for p in parameters.params}
    renames: dict[str, str] = {}
    for old, new in proposal.parameters:
        if old not in current:
            raise ProposalRejected(f"there is no parameter {old!r}")
        if old in renames:
            raise ProposalRejected(f"parameter {old!r} is named twice")
        if not IDENTIFIER.match(new) or len(new) > MAX_PARAMETER_NAME:
            raise ProposalRejected(f"parameter name {new!r} is not an identifier of at most {MAX_PARAMETER_NAME} "
                                   f"letters, digits and underscores")
        if current[old].column and new != old:
            raise ProposalRejected(f"parameter {old!r} is a data column: its name stays")
        if new != old and new in reserved:
            raise ProposalRejected(f"parameter name {new!r} is a data column's")
        renames[old] = new
    missing = [name for name in current if name not in renames]
    if missing:
        raise ProposalRejected(f"parameter {missing[0]!r} is not named")
    taken: dict[str, str] = {}
    for old, new in renames.items():
        if new in taken:
            raise ProposalRejected(f"parameters {taken[new]!r} and {old!r} would both be named {new!r}")
        taken[new] = old
    return renames


def renamed(parameters: Parameters, renames: dict[str, str]) -> Parameters:
    """The same parameters, values and Examples rows under other names (every name in `renames`)."""
    return Parameters(
        by_op={position: renames[name] for position, name in parameters.by_op.items()},
        by_record={position: renames[name] for position, name in parameters.by_record.items()},
        params=[replace(p, name=renames[p.name]) for p in parameters.params],
        examples=[{renames[name]: value for name, value in row.items()} for row in parameters.examples],
    )


def step_wording(text: str, params: Sequence[str | None]) -> list[Segment]:
    """A proposed step text as literal text and argument slots, for a step whose operations carry `params`.

    Whitespace is collapsed and a leading Gherkin keyword dropped; each placeholder becomes the slot of the next
    operation (in order) carrying that parameter. Every such operation must get exactly one placeholder.
    """
    text = _KEYWORD.sub("", " ".join(text.split()), count=1)
    if not text:
        raise ProposalRejected("a step text is empty")
    if len(text) > MAX_STEP_TEXT:
        raise ProposalRejected(f"step text {text[:40]!r}… is longer than {MAX_STEP_TEXT} characters")
    matches = list(PLACEHOLDER.finditer(text))
    arguments = [index for index, param in enumerate(params) if param is not None]
    if len(matches) != len(arguments):
        raise ProposalRejected(f"step text {text!r} has {len(matches)} placeholder(s) for {len(arguments)} "
                               f"argument(s) ({', '.join(f'<{params[i]}>' for i in arguments) or 'none'})")
    segments: list[Segment] = []
    free = list(arguments)
    at = 0
    for match in matches:
        name = match.group(1) or match.group(2)
        slot = next((index for index in free if params[index] == name), None)
        if slot is None:
            raise ProposalRejected(f"step text {text!r}: <{name}> is not the parameter of one of its operations")
        free.remove(slot)
        if match.start() > at:
            segments.append(text[at : match.start()])
        segments.append(slot)
        at = match.end()
    if at < len(text):
        segments.append(text[at:])
    return segments
