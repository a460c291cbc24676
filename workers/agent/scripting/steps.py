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

import hashlib
import json
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import Literal
from urllib.parse import urlsplit

from shared.records import Locator, Operation, ScenarioScript, ScriptOp, StepDefinition, StepUse
from shared.scenarios import Scenario
from shared.step_registry import RegistryError, StepRegistry
from workers.agent.actions import action
from workers.agent.actions.naming import clean as _clean
from workers.agent.actions.naming import (
    context_name,
    element_name,
    field_label,
    found_by,
    holds_value,
    noun,
    record_anchored,
    record_text,
    stable_label,
    the_container,
)
from workers.agent.scripting.parameters import Parameters, kept_operations, parameterise
from workers.agent.scripting.writer import (
    MAX_STEP_OPERATIONS,
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

Keyword = Literal["Given", "When", "Then"]

# Characters with a meaning in cucumber expressions; literal text escapes them with a backslash.
_EXPRESSION_SPECIALS = set("(){}/\\")
# What cucumber's {string} parameter type matches.
_STRING_RE = r"(?:\"(?:[^\"\\]*(?:\\.[^\"\\]*)*)\"|'(?:[^'\\]*(?:\\.[^'\\]*)*)')"
_JS_RESERVED = {
    "break", "case", "catch", "class", "const", "continue", "debugger", "default", "delete", "do", "else", "enum",
    "export", "extends", "false", "finally", "for", "function", "if", "implements", "import", "in", "instanceof",
    "interface", "let", "new", "null", "package", "private", "protected", "public", "return", "static", "super",
    "switch", "this", "throw", "true", "try", "typeof", "var", "void", "while", "with", "yield", "await",
    "arguments", "eval", "undefined"
}
LOOKUP_BATCH = 1000  # signatures per registry lookup (the registry's limit); one lookup unless a scenario is huge


# --- text helpers ---------------------------------------------------------------


def escape_expression(text: str) -> str:
    """Literal text for a cucumber expression: ( ) { } / and backslash get a backslash."""
    return "".join("\\" + ch if ch in _EXPRESSION_SPECIALS else ch for ch in text)


def unescape_expression(text: str) -> str:
    return re.sub(r"\\(.)", r"\1", text)


def expression_regex(pattern: str) -> re.Pattern[str]:
    """The regular expression cucumber builds for a pattern made of literal text and {string}."""
    parts = pattern.split("{string}")
    body = _STRING_RE.join(re.escape(unescape_expression(part)) for part in parts)
    return re.compile(f"^{body}$")


_GHERKIN_KEYWORD = re.compile(r"^(?:Given|When|Then|And|But|\*)\s+")


def definition_for_step(reported_step: str, definitions: Sequence[StepDefinition]) -> StepDefinition | None:
    """The definition a step as cucumber reports it ("And Click \"Next\"", "Then the page shows \"X\"") matched.

    The leading Gherkin keyword (Given, When, Then, And, But, *) is optional; the rest must match a definition's
    whole pattern, as cucumber matches it. Generated patterns never overlap, so at most one matches; None when
    none does (a hook failure, a step of another suite).
    """
    text = reported_step.strip()
    candidates = [text]
    bare = _GHERKIN_KEYWORD.sub("", text, count=1)
    if bare != text:
        candidates.insert(0, bare)
    for candidate in candidates:
        for definition in definitions:
            if expression_regex(definition.pattern).match(candidate):
                return definition
    return None


def is_assertion_step(definition: StepDefinition) -> bool:
    """True for a Then step (only assertions: its failure is an expectation), False for a step that acts."""
    return bool(definition.ops) and all(action(op.kind).is_assertion for op in definition.ops)


def _is_field(op: Operation) -> bool:
    return action(op.kind).field


def describe(op: Operation, arg: str | None, record_arg: str | None = None) -> str:
    """The one-line comment saying what an operation does, and how its locator finds the element; the record it
    finds it by, when an argument carries it, is named by that argument."""
    comment = action(op.kind).comment(op, arg or json.dumps(op.value or ""))
    record = record_text(op) if record_arg else None
    if record is not None:
        comment = comment.replace(f'"{_clean(record[0])}"', record_arg, 1)
    how = found_by(op) if op.kind != "goto" else ""
    return f"{comment} ({how})" if how else comment


# --- step text as segments: literal text and argument slots ------------------------------------------

def _phrase(op: Operation, position: int, has_arg: bool) -> list[Segment]:
    slot: list[Segment] = [position] if has_arg else [json.dumps(op.value or "", ensure_ascii=False)]
    return action(op.kind).phrase(op, slot)


def _lower_first(segments: list[Segment]) -> list[Segment]:
    if segments and isinstance(segments[0], str) and segments[0]:
        return [segments[0][0].lower() + segments[0][1:], *segments[1:]]
    return segments


def _join(phrases: list[list[Segment]]) -> list[Segment]:
    out: list[Segment] = []
    for number, phrase in enumerate(phrases):
        if number:
            out.append(" and " if number == len(phrases) - 1 else ", ")
            phrase = _lower_first(phrase)
        out.extend(phrase)
    merged: list[Segment] = []
    for segment in out:
        if isinstance(segment, str) and merged and isinstance(merged[-1], str):
            merged[-1] += segment
        else:
            merged.append(segment)
    return merged


def _context_parts(context: str | None) -> list[str]:
    """A node's context, outermost first ("Owners / New Owner" -> ["Owners", "New Owner"])."""
    return [p.strip() for p in re.split(r"[›»>|/]", context or "") if p.strip()]


def form_name(ops: Sequence[Operation]) -> str:
    """How a person names the form the fields of these operations belong to: the form's own title (its name, legend
    or heading, or a heading just before it; "" when it has none); for records read before forms had titles, the
    innermost heading, legend or caption the fields share. As a stable label: never record data ("Owner: David
    Schroeder" -> "Owner", a heading with digits -> ""). A trailing "form" is dropped ("Add Pet Form" -> "Add Pet")."""
    fields = [op for op in ops if _is_field(op)]
    if not fields or any(op.target is None for op in fields):
        return ""
    titles = {op.target.form_title for op in fields if op.target is not None}
    if titles != {None}:  # the form's own title, never a heading elsewhere on the page
        title = titles.pop() if len(titles) == 1 else ""
        return re.sub(r"(?i)(?:^|\s+)form$", "", stable_label(title)).strip()
    common: list[str] | None = None
    for op in fields:
        parts = _context_parts(op.target.context if op.target else None)
        if common is None:
            common = parts
        else:
            length = 0
            while length < min(len(common), len(parts)) and common[length] == parts[length]:
                length += 1
            common = common[:length]
    name = stable_label(common[-1]) if common else ""
    name = re.sub(r"(?i)(?:^|\s+)form$", "", name).strip()
    return name


def _form_phrase(ops: Sequence[Operation], has_args: Sequence[bool], data: frozenset[str] = frozenset()
                 ) -> list[Segment] | None:
    """`Fill in the <form> form with "<a>" as A and "<b>" as B and submit it with "<button>"`, for operations that
    fill fields of one named form and may end with its submit; None for any other group."""
    if not ops or any(op.target is None or op.target.form is None for op in ops):
        return None
    if len({op.target.form for op in ops if op.target is not None}) != 1:
        return None
    last = ops[-1]
    submit = last if action(last.kind).submits else None
    fields = list(ops[:-1]) if submit is not None else list(ops)
    if not fields or any(not _is_field(op) for op in fields):
        return None
    if submit is None and len(fields) == 1:
        # One field alone says nothing about its form, and the same field (one locator) may sit in forms
        # of other pages that reuse this step: its plain wording stays true everywhere.
        return None
    name = form_name(fields)
    if not name or holds_value(name, data):  # a heading that names a record ("Write the quarterly report")
        return None
    items: list[list[Segment]] = []
    for position, (op, has_arg) in enumerate(zip(fields, has_args[: len(fields)], strict=True)):
        if action(op.kind).valued:
            slot: list[Segment] = [position] if has_arg else [json.dumps(op.value or "", ensure_ascii=False)]
            items.append([*slot, f" as {field_label(op)}"])
        elif op.kind == "clear":
            items.append([f"{field_label(op)} cleared"])
        else:
            items.append([f"{field_label(op)} {'checked' if op.kind == 'check' else 'unchecked'}"])
    out: list[Segment] = [f"Fill in the {name} form with "]
    for number, item in enumerate(items):
        if number:
            out.append(" and " if number == len(items) - 1 else ", ")
        out.extend(item)
    if submit is not None and submit.kind == "click":
        out.append(f' and submit it with "{element_name(submit)}"')
    elif submit is not None:
        where = f" in the {field_label(submit)} field" if submit.locator is not None else ""
        out.append(f' and submit it by pressing "{submit.value or "Enter"}"{where}')
    return _join([out])


def step_segments(ops: Sequence[Operation], has_args: Sequence[bool], data: frozenset[str] = frozenset()
                  ) -> list[Segment]:
    """A step's wording before disambiguation: the form sentence when it fits (its form named by a heading that
    holds none of the scenario's `data`), else one phrase per operation."""
    form = _form_phrase(ops, has_args, data)
    if form is not None:
        return form
    return _join([_phrase(op, i, a) for i, (op, a) in enumerate(zip(ops, has_args, strict=True))])


def with_records(segments: list[Segment], ops: Sequence[Operation], records: Sequence[str | None]
                 ) -> list[Segment]:
    """The wording with each record the step's locators find elements by (a row's text, a record's name) as an
    argument slot (len(ops) + the operation's position) instead of the quoted literal: 'Click the "<owner>" link',
    'Tick the checkbox in the row of "<row>"'."""
    out = list(segments)
    for position, (op, record) in enumerate(zip(ops, records, strict=True)):
        found = record_text(op) if record is not None else None
        if found is None:
            continue
        text, anchored = found
        slot = len(ops) + position
        # The record as the wording quotes it: cleaned or raw; for a name, the one the phrase gave the element.
        names = [text, _clean(text)] + ([] if anchored else [element_name(op), field_label(op)])
        forms = [f'"{name}"' for name in dict.fromkeys(names) if name]
        for index, segment in enumerate(out):
            quoted = next((form for form in forms if isinstance(segment, str) and form in segment), None)
            if quoted is None:
                continue
            before, after = segment.split(quoted, 1)
            if not anchored and before.endswith(("Click ", "click ", "Hover over ", "hover over ")):
                before, after = before + "the ", f" {noun(op) or 'item'}" + after  # Click the "<owner>" link
            out[index : index + 1] = [part for part in (before, slot, after) if part != ""]
            break
        else:
            out += [" (", slot, ")"]
    return out


def _pattern(segments: list[Segment]) -> str:
    return "".join("{string}" if isinstance(s, int) else escape_expression(s) for s in segments)


def pattern_text(pattern: str, values: Sequence[str]) -> str:
    """A pattern's wording with each {string} replaced by the given (already quoted) values, in order."""
    parts = pattern.split("{string}")
    if len(parts) != len(values) + 1:
        raise ValueError(f"pattern {pattern!r} takes {len(parts) - 1} values, got {len(values)}")
    out = unescape_expression(parts[0])
    for value, part in zip(values, parts[1:], strict=True):
        out += value + unescape_expression(part)
    return out


def readable_pattern(pattern: str) -> str:
    """A pattern as a person reads it: its literal text unescaped, {string} where an argument goes."""
    return pattern_text(pattern, ["{string}"] * pattern.count("{string}"))


# --- grouping -------------------------------------------------------------------


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


# --- definitions and reuse ----------------------------------------------------------


def _locator_identity(locator: Locator | None, record: bool = False) -> list | None:
    """The locator as identity; with `record`, its record text (row text or name) stands as "{record}": the same
    code for every record."""
    if locator is None:
        return None
    if record:
        locator = _record_masked(locator)
    identity = [locator.strategy, locator.role, locator.value, list(locator.frames)]
    # Appended only when set: the identities of the steps known before stay as they were.
    if locator.within is not None:
        identity.append([locator.within.css, locator.within.text])
    if locator.nth is not None:
        identity.append(["nth", locator.nth])
    if not locator.exact:
        identity.append(["inexact"])
    return identity


def _record_masked(locator: Locator) -> Locator:
    """The locator with the record text it finds the element by (a row's text, a record's name) as "{record}"."""
    if record_anchored(locator):
        assert locator.within is not None
        return locator.model_copy(update={"within": locator.within.model_copy(update={"text": "{record}"})})
    return locator.model_copy(update={"value": "{record}"})


_NAMELESS = ("css", "id", "name", "xpath")  # locator strategies that do not carry the name a person reads


def spoken_name(op: Operation) -> str | None:
    """The name a step's text gives the element when its locator does not carry it (a CSS selector finds the
    "Add Visit" button and, on another page, the "Submit" one): None when the locator holds the name itself."""
    if op.locator is None or op.locator.strategy not in _NAMELESS or op.kind == "goto" or the_container(op):
        return None  # a clickable row is named by its row's text, which its locator carries
    return action(op.kind).brief_target(op)


def _spoken(op: Operation, record: bool) -> str | None:
    """spoken_name, but never a record's data: with a record parameter, a name holding the record text is none."""
    name = spoken_name(op)
    found = record_text(op) if record else None
    if name and found is not None and (not found[1] or _clean(found[0]) in name or found[0] in name):
        return None
    return name


def _identity(kind: str, locator: Locator | None, value: str | None, has_arg: bool, name: str | None = None,
              record: bool = False) -> list:
    """What makes two operations the same code and the same words: target, action, a literal path or key (not
    parameters), and the element's name when the locator does not carry it (one definition never names two
    different elements)."""
    literal = (value or "") if action(kind).literal and not has_arg else None
    where = None if kind == "goto" else _locator_identity(locator, record)
    identity = [where, kind, literal, has_arg]
    if name:
        identity.append(["name", name])
    return identity


def _op_identity(op: Operation, has_arg: bool, record: bool = False) -> list:
    return _identity(op.kind, op.locator, op.value, has_arg, _spoken(op, record), record)


def signature_of(keyword: str, identities: Sequence[list]) -> str:
    document = json.dumps([keyword, list(identities)], separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(document.encode("utf-8")).hexdigest()[:16]


def _locator_text(locator: Locator) -> str:
    """The locator in a few words, for a step that nothing else tells apart (a record's text masked)."""
    text = locator.value if locator.strategy != "role" else f"{locator.role} {locator.value}".strip()
    if locator.frames:
        text = " > ".join(locator.frames) + " > " + text
    if locator.within is not None:
        text += f" within {locator.within.css} {locator.within.text}"
    return text + (f" #{locator.nth + 1}" if locator.nth is not None else "")


def js_identifier(name: str) -> str:
    ident = re.sub(r"[^A-Za-z0-9_$]", "_", name) or "value"
    if ident[0].isdigit():
        ident = "_" + ident
    return ident + "Value" if ident in _JS_RESERVED else ident


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


def _sample(pattern: str) -> str:
    """A step text the pattern matches, "x" in each argument."""
    return pattern_text(pattern, ['"x"'] * pattern.count("{string}"))


def patterns_overlap(pattern: str, other: str) -> bool:
    """True when some step text could match both patterns (cucumber would call it ambiguous)."""
    return (pattern == other or bool(expression_regex(other).match(_sample(pattern)))
            or bool(expression_regex(pattern).match(_sample(other))))


def _definition_identities(definition: StepDefinition) -> list[list]:
    return [_identity(op.kind, op.locator, op.value, op.arg is not None, op.name, op.record_arg is not None)
            for op in definition.ops]


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


# --- scenarios ----------------------------------------------------------------------


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
    parameters = parameterise(kept, scenario.data)
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


def _step_identities(step: _Step) -> list[list]:
    return [_op_identity(op, p is not None, r is not None)
            for op, p, r in zip(step.ops, step.params, step.records, strict=True)]


def _step_signatures(step: _Step) -> tuple[str, str]:
    """(signature, keyword-free signature) of a step, as StepBook.place signs it."""
    identities = _step_identities(step)
    return signature_of(step.keyword, identities), signature_of("", identities)


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


# --- a step writer's proposal ---------------------------------------------------------------------------------


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


def _arguments(pattern: str, text: str) -> list[str] | None:
    """The quoted arguments a step text gives a pattern, in order, as cucumber reads them; None: no match."""
    parts = pattern.split("{string}")
    body = f"({_STRING_RE})".join(re.escape(unescape_expression(part)) for part in parts)
    match = re.match(f"^{body}$", text)
    return list(match.groups()) if match else None


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


# --- a batch ----------------------------------------------------------------------------------------------------


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
