"""The steps of one build: every definition made or reused, no two with patterns that read alike, and each use of
one by a scenario with its arguments."""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Literal

from shared.records import Operation, ScriptOp, StepDefinition, StepUse
from workers.agent.actions.naming import (
    context_name,
    noun,
)
from workers.agent.scripting.expressions import _pattern, _sample, expression_regex, pattern_text
from workers.agent.scripting.signatures import (
    _definition_identities,
    _locator_text,
    _op_identity,
    _record_masked,
    _spoken,
    js_identifier,
    signature_of,
)
from workers.agent.scripting.wording import _join, describe, step_segments, with_records
from workers.agent.scripting.writer import (
    Segment,
)

Keyword = Literal["Given", "When", "Then"]


@dataclass
class _Step:
    keyword: Keyword
    ops: list[Operation]
    params: list[str | None]  # per operation: the scenario parameter carrying its value
    records: list[str | None] = field(default_factory=list)  # per operation: the parameter carrying its record
    said: list[str] = field(default_factory=list)  # the tester's sentences behind it, in order
    data: frozenset[str] = frozenset()  # the scenario's values: never part of a literal name in its wording

    def __post_init__(self) -> None:
        if not self.records:  # no record parameters: one None per operation
            self.records = [None] * len(self.ops)


# Words that say nothing about which element a sentence means: they need not reappear in the step's text.
_FUNCTION_WORDS = frozenset("""
a an the to on in into of for from at by with and or then i we user should shows show shown see sees is are be
it its this that there their his her as page field button link box dropdown checkbox tab menu form section row
item list click tap press push hit type enter input write fill set clear select choose pick check uncheck tick
untick go navigate open visit browse verify confirm ensure expect assert
""".split())


def _words(text: str) -> list[str]:
    return re.findall(r"[a-z0-9]+", text.lower())


def untold(uses: Sequence[StepUse], data_words: frozenset[str]) -> list[StepUse]:
    """The steps with, above the first step of each tester's sentence, that sentence when the texts of its steps
    do not hold its words for the targets (a shared step worded by another scenario, a button the tester named
    by its purpose, a check phrased otherwise); `said` is emptied everywhere else."""
    held: dict[str, set[str]] = {}
    for use in uses:
        for sentence in use.said:
            held.setdefault(sentence, set()).update(_words(use.text))
    shown: set[str] = set()
    out = []
    for use in uses:
        said = []
        for sentence in use.said:
            if sentence in shown:
                continue
            shown.add(sentence)
            if any(w not in held[sentence] and w not in _FUNCTION_WORDS and w not in data_words
                   for w in _words(re.sub(r"<[^>]*>", " ", sentence))):
                said.append(sentence)
        out.append(use.model_copy(update={"said": said}))
    return out


class StepBook:
    """The step definitions of one run, in order of definition, looked up by signature.

    `existing` definitions are known from the start; `offer` adds steps known to the registry, which a step
    takes over (wording and all) when it has their signature and nothing in this run already does.
    """

    def __init__(self, existing: Sequence[StepDefinition] = ()) -> None:
        self.defs: dict[str, StepDefinition] = {}
        self._by_ops: dict[str, str] = {}  # keyword-free signature -> signature
        self._regexes: dict[str, re.Pattern[str]] = {}
        self.used: list[str] = []
        self.offered: dict[str, StepDefinition] = {}  # signature -> registry definition, not yet taken over
        self.reused: set[str] = set()  # signatures of definitions that came from outside this run
        for definition in existing:
            self._add(definition, signature_of("", _definition_identities(definition)))
            self.reused.add(definition.signature)

    def fork(self) -> StepBook:
        """An independent copy: what is defined, offered or used in it stays out of this book."""
        twin = StepBook()
        twin.defs, twin._by_ops, twin._regexes = dict(self.defs), dict(self._by_ops), dict(self._regexes)
        twin.used, twin.offered, twin.reused = list(self.used), dict(self.offered), set(self.reused)
        return twin

    def offer(self, definitions: dict[str, StepDefinition]) -> None:
        """Registry steps (by signature) that this run's steps may reuse."""
        for signature, definition in definitions.items():
            self.offered.setdefault(signature, definition)

    def knows(self, signature: str, ops_key: str) -> bool:
        """True when a step with this signature (or these operations) is defined here or offered."""
        return signature in self.defs or ops_key in self._by_ops or signature in self.offered

    def _adopt(self, step: _Step, signature: str, ops_key: str, identities: list[list]) -> bool:
        """Take over the offered definition for this step, when it fits and its wording clashes with none here."""
        definition = self.offered.get(signature)
        if definition is None:
            return False
        fits = (
            definition.signature == signature
            and definition.keyword == step.keyword
            and _definition_identities(definition) == identities
            and sorted(definition.args) == sorted(a for op in definition.ops for a in (op.arg, op.record_arg) if a)
            and len(set(definition.args)) == len(definition.args)
            and definition.pattern.count("{string}") == len(definition.args)
        )
        if not fits or self._collides(definition.pattern):
            return False
        self._add(definition, ops_key)
        self.reused.add(signature)
        return True

    def _add(self, definition: StepDefinition, ops_key: str) -> None:
        self.defs[definition.signature] = definition
        self._regexes[definition.signature] = expression_regex(definition.pattern)
        self._by_ops.setdefault(ops_key, definition.signature)

    def _use(self, signature: str) -> StepDefinition:
        if signature not in self.used:
            self.used.append(signature)
        return self.defs[signature]

    def clash(self, pattern: str) -> StepDefinition | None:
        """A definition here that some step text would match as well as `pattern` (None when there is none)."""
        sample = _sample(pattern)
        mine = expression_regex(pattern)
        for signature, regex in self._regexes.items():
            other = self.defs[signature].pattern
            if other == pattern or regex.match(sample) or mine.match(_sample(other)):
                return self.defs[signature]
        return None

    def _collides(self, pattern: str) -> bool:
        return self.clash(pattern) is not None

    def _unambiguous(self, segments: list[Segment], ops: Sequence[Operation], records: Sequence[str | None],
                     signature: str) -> list[Segment]:
        """The wording, told apart from an existing definition's text: by the element's kind ("(the button)") when
        the other's differs, else the heading it sits under (a stable label, never a record's data), else the
        locators, last operation first ('(id "#edit-pet")', a record's text masked), else the signature's start;
        never a running number, so the same operations read the same every time."""
        if not self._collides(_pattern(segments)):
            return segments
        located = [op for op in ops if op.locator is not None]
        clash = self.clash(_pattern(segments))
        other = next((op.locator for op in reversed(clash.ops) if op.locator is not None), None) if clash else None
        candidates: list[str] = []
        if located:
            last = located[-1]
            kind = noun(last)
            role = last.locator.role or (last.target.role if last.target is not None else None)  # type: ignore[union-attr]
            if kind and (other is None or other.role != role):
                candidates.append(f" (the {kind})")
            section = context_name(last.target.context) if last.target is not None else ""
            if section:
                candidates.append(f' in the "{section}" section')
        # The locators that differ from the other step's, last first (all of them when it has other operations).
        theirs = [op.locator for op in clash.ops] if clash is not None and len(clash.ops) == len(ops) else None
        for position in reversed(range(len(ops))):
            op, record = ops[position], records[position]
            if op.locator is None or (theirs is not None and theirs[position] == op.locator):
                continue
            locator = _record_masked(op.locator) if record is not None else op.locator
            candidates.append(f" ({locator.strategy} {json.dumps(_locator_text(locator), ensure_ascii=False)})")
        candidates.append(f" ({', '.join(op.kind for op in ops)})")
        candidates.append(f" (step {signature[:8]})")
        for suffix in candidates:
            attempt = [*segments, suffix]
            if not self._collides(_pattern(attempt)):
                return _join([attempt])
        raise RuntimeError(f"no unambiguous wording for the step {_pattern(segments)!r}")

    def place(self, step: _Step, wording: Callable[[], list[Segment]] | None = None) -> StepUse:
        """The Gherkin line for a step, defining its step definition first when none matches: worded by
        `wording()` when given (a writer's, checked by it), else by the rules."""
        identities = _step_identities(step)
        signature = signature_of(step.keyword, identities)
        ops_key = signature_of("", identities)
        if signature not in self.defs:
            # The same operations under another keyword: cucumber matches text only, so reuse that one.
            signature = self._by_ops.get(ops_key, signature)
        if signature not in self.defs and not self._adopt(step, signature, ops_key, identities):
            self._define(step, signature, ops_key, wording)
        definition = self._use(signature)
        quoted = {}
        for op_def, param, record in zip(definition.ops, step.params, step.records, strict=True):
            if op_def.arg:
                quoted[op_def.arg] = f'"<{param}>"' if param is not None else '""'
            if op_def.record_arg:
                quoted[op_def.record_arg] = f'"<{record}>"'
        text = pattern_text(definition.pattern, [quoted[arg] for arg in definition.args])
        return StepUse(keyword=step.keyword, text=text, signature=signature, said=step.said)

    def _define(
        self, step: _Step, signature: str, ops_key: str, wording: Callable[[], list[Segment]] | None = None
    ) -> None:
        records = step.records
        if wording is not None:
            segments = wording()
        else:
            segments = step_segments(step.ops, [p is not None for p in step.params], step.data)
            segments = self._unambiguous(with_records(segments, step.ops, records), step.ops, records, signature)
        arg_names: dict[int, str] = {}
        taken: set[str] = set()
        for index, param in enumerate([*step.params, *records]):
            if param is None:
                continue
            base = js_identifier(param)
            name, number = base, 2
            while name in taken:
                name, number = f"{base}{number}", number + 1
            taken.add(name)
            arg_names[index] = name
        ops = [
            ScriptOp(
                kind=op.kind,
                locator=op.locator if op.kind != "goto" else None,
                value=None if index in arg_names else op.value,
                arg=arg_names.get(index),
                comment=describe(op, arg_names.get(index), arg_names.get(len(step.ops) + index)),
                name=_spoken(op, index + len(step.ops) in arg_names),
                record_arg=arg_names.get(len(step.ops) + index),
                forced=op.forced,
            )
            for index, op in enumerate(step.ops)
        ]
        args = [arg_names[s] for s in segments if isinstance(s, int)]
        definition = StepDefinition(
            keyword=step.keyword, pattern=_pattern(segments), args=args, ops=ops, signature=signature
        )
        self._add(definition, ops_key)

    def used_definitions(self) -> list[StepDefinition]:
        return [self.defs[s] for s in self.used]


def _step_identities(step: _Step) -> list[list]:
    return [_op_identity(op, p is not None, r is not None)
            for op, p, r in zip(step.ops, step.params, step.records, strict=True)]


def _step_signatures(step: _Step) -> tuple[str, str]:
    """(signature, keyword-free signature) of a step, as StepBook.place signs it."""
    identities = _step_identities(step)
    return signature_of(step.keyword, identities), signature_of("", identities)
