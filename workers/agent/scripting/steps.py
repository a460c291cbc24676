"""Kept operations grouped into readable Gherkin steps, each backed by a (possibly reused) step definition.

Grouping: consecutive operations on one form, up to and including the click (or key press) that submits
it, make one step; other operations make one step per run of neighbours from the same scenario step;
each assertion is its own Then step; every scenario opens with a Given step that opens its start path.

Reuse: a step's signature hashes its keyword and the ordered (locator identity, action kind) pairs;
values given as parameters are ignored, but literal values that live in the code (a goto path, a pressed
key) count, since a definition carrying another path would do something else. A step whose signature
(or, under another keyword, whose operations) match an existing definition reuses that definition's
wording with this scenario's parameters. No two definitions get patterns that match the same text.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Literal
from urllib.parse import urlsplit

from shared.records import ActionKind, Locator, Node, Operation, ScenarioScript, ScriptOp, StepDefinition, StepUse
from shared.scenarios import Scenario
from workers.agent.scripting.parameters import Parameters, context_name, kept_operations, parameterise

Keyword = Literal["Given", "When", "Then"]

# Characters with a meaning in cucumber expressions; literal text escapes them with a backslash.
_EXPRESSION_SPECIALS = set("(){}/\\")
# What cucumber's {string} parameter type matches.
_STRING_RE = r"(?:\"(?:[^\"\\]*(?:\\.[^\"\\]*)*)\"|'(?:[^'\\]*(?:\\.[^'\\]*)*)')"
_LITERAL_KINDS = (ActionKind.goto, ActionKind.press)
_JS_RESERVED = {
    "break", "case", "catch", "class", "const", "continue", "debugger", "default", "delete", "do", "else", "enum",
    "export", "extends", "false", "finally", "for", "function", "if", "implements", "import", "in", "instanceof",
    "interface", "let", "new", "null", "package", "private", "protected", "public", "return", "static", "super",
    "switch", "this", "throw", "true", "try", "typeof", "var", "void", "while", "with", "yield", "await",
    "arguments", "eval", "undefined"
}
_MAX_NAME = 60


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
    return bool(definition.ops) and all(op.kind.is_assertion for op in definition.ops)


def _clean(text: str | None) -> str:
    text = " ".join((text or "").split())
    text = text.strip().rstrip(":*").strip()
    if len(text) > _MAX_NAME:
        text = text[: _MAX_NAME - 1].rstrip() + "…"
    return text


def field_label(op: Operation) -> str:
    """How a person names the field an operation works on."""
    target = op.target
    names = () if target is None else (target.label, target.aria_label, target.placeholder, target.title,
                                        target.name_attr, target.id_attr, context_name(target.context))
    return _first_name(op, names, lambda t: t.input_type or t.role or t.tag, "page element")


def element_name(op: Operation) -> str:
    """How a person names the thing clicked: its text, else its accessible name, label or value."""
    target = op.target
    names = () if target is None else (target.text, target.aria_label, target.label, target.title, target.value,
                                        target.testid)
    return _first_name(op, names, lambda t: t.role or t.tag, "element")


def _first_name(op: Operation, names: Sequence[str | None], kind: Callable[[Node], str], fallback: str) -> str:
    """The first of the target's names that says something, else the locator's text, else its kind."""
    for text in (*names, op.locator.value if op.locator and op.locator.strategy in _NAMED_BY else None):
        if _clean(text):
            return _clean(text)
    return kind(op.target) if op.target is not None else fallback


_NAMED_BY = ("label", "role", "text", "testid")  # locator strategies whose value is a name a person reads


def _noun(op: Operation) -> str:
    role = (op.target.role if op.target else None) or (op.locator.role if op.locator else None) or ""
    return {"menuitem": "menu item", "radio": "radio button", "switch": "switch", "tab": "tab", "link": "link",
            "button": "button", "checkbox": "checkbox", "option": "option", "combobox": "dropdown",
            "listbox": "dropdown", "textbox": "field"}.get(role, "")


def _where(op: Operation) -> str:
    context = _clean(op.target.context) if op.target else ""
    return f' in the "{context}" section' if context else ""


def describe(op: Operation, arg: str | None) -> str:
    """The one-line comment saying what an operation does."""
    kind = op.kind
    what = arg or json.dumps(op.value or "")
    if kind is ActionKind.goto:
        return f"Open {op.value or '/'}"
    if kind is ActionKind.press:
        return f"Press {op.value or 'Enter'}" + (f' in the "{field_label(op)}" field' if op.locator else "")
    if kind is ActionKind.assert_text:
        return f"Check that the page shows {what}"
    if kind is ActionKind.assert_value:
        return f'Check that the "{field_label(op)}" element shows {what}'
    if kind is ActionKind.fill:
        return f'Type {what} into the "{field_label(op)}" field{_where(op)}'
    if kind is ActionKind.select:
        return f'Choose the option {what} in the "{field_label(op)}" dropdown{_where(op)}'
    if kind in (ActionKind.check, ActionKind.uncheck):
        verb = "Tick" if kind is ActionKind.check else "Untick"
        return f'{verb} the "{field_label(op)}" {_noun(op) or "checkbox"}{_where(op)}'
    noun = _noun(op)
    return f'Click the "{element_name(op)}" {noun}{_where(op)}' if noun else f'Click "{element_name(op)}"{_where(op)}'


# --- step text as segments: literal text and argument slots ------------------------------------------

Segment = str | int  # literal text, or the index (within the step) of the operation whose value goes there


def _phrase(op: Operation, position: int, has_arg: bool) -> list[Segment]:
    kind = op.kind
    slot: list[Segment] = [position] if has_arg else [json.dumps(op.value or "", ensure_ascii=False)]
    if kind is ActionKind.goto:
        return [f'Open the page "{op.value or "/"}"']
    if kind is ActionKind.press:
        where = f" in the {field_label(op)} field" if op.locator is not None else ""
        return [f'Press "{op.value or "Enter"}"{where}']
    if kind is ActionKind.click:
        return [f'Click "{element_name(op)}"']
    if kind is ActionKind.fill:
        return ["Enter ", *slot, f" in the {field_label(op)} field"]
    if kind is ActionKind.select:
        return ["Select ", *slot, f" in the {field_label(op)} dropdown"]
    if kind in (ActionKind.check, ActionKind.uncheck):
        verb = "Check" if kind is ActionKind.check else "Uncheck"
        return [f"{verb} the {field_label(op)} {_noun(op) or 'checkbox'}"]
    if kind is ActionKind.assert_text:
        return ["the page shows ", *slot]
    if kind is ActionKind.assert_value:
        return [f"the {field_label(op)} shows ", *slot]
    raise ValueError(f"unknown action {kind!r}")


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


# --- grouping -------------------------------------------------------------------


def _path(value: str | None) -> str:
    parts = urlsplit(value or "/")
    return (parts.path or "/") + (f"?{parts.query}" if parts.query else "")


def _navigated(op: Operation) -> bool:
    obs = op.observation
    return obs is not None and obs.url_before != obs.url_after


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
        if op.kind.is_assertion:
            close()
            groups.append([op])
            continue
        form = op.target.form if op.target is not None else None
        key = ("form", form) if form is not None else ("step", op.step_index)
        if key != current_key:
            close()
            current_key = key
        current.append(op)
        submits = form is not None and op.kind in (ActionKind.click, ActionKind.press)
        if submits or _navigated(op) or op.kind is ActionKind.goto:
            close()
    close()
    return groups


# --- definitions and reuse ----------------------------------------------------------


def _locator_identity(locator: Locator | None) -> list | None:
    if locator is None:
        return None
    return [locator.strategy, locator.role, locator.value, list(locator.frames)]


def _identity(kind: ActionKind, locator: Locator | None, value: str | None, has_arg: bool) -> list:
    """What makes two operations the same code: target, action, and a literal path or key (not parameters)."""
    literal = (value or "") if kind in _LITERAL_KINDS and not has_arg else None
    where = None if kind is ActionKind.goto else _locator_identity(locator)
    return [where, kind.value, literal, has_arg]


def signature_of(keyword: str, identities: Sequence[list]) -> str:
    document = json.dumps([keyword, list(identities)], separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(document.encode("utf-8")).hexdigest()[:16]


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


class StepBook:
    """The step definitions of one run, in order of definition, looked up by signature."""

    def __init__(self, existing: Sequence[StepDefinition] = ()) -> None:
        self.defs: dict[str, StepDefinition] = {}
        self._by_ops: dict[str, str] = {}  # keyword-free signature -> signature
        self._regexes: dict[str, re.Pattern[str]] = {}
        self.used: list[str] = []
        for definition in existing:
            identities = [_identity(op.kind, op.locator, op.value, op.arg is not None) for op in definition.ops]
            self._add(definition, signature_of("", identities))

    def _add(self, definition: StepDefinition, ops_key: str) -> None:
        self.defs[definition.signature] = definition
        self._regexes[definition.signature] = expression_regex(definition.pattern)
        self._by_ops.setdefault(ops_key, definition.signature)

    def _use(self, signature: str) -> StepDefinition:
        if signature not in self.used:
            self.used.append(signature)
        return self.defs[signature]

    def _collides(self, pattern: str) -> bool:
        sample = pattern_text(pattern, ['"x"'] * pattern.count("{string}"))
        mine = expression_regex(pattern)
        for signature, regex in self._regexes.items():
            other = self.defs[signature].pattern
            if other == pattern or regex.match(sample):
                return True
            if mine.match(pattern_text(other, ['"x"'] * other.count("{string}"))):
                return True
        return False

    def _unambiguous(self, segments: list[Segment], ops: Sequence[Operation]) -> list[Segment]:
        if not self._collides(_pattern(segments)):
            return segments
        contexts = [_clean(op.target.context) for op in ops if op.target is not None and _clean(op.target.context)]
        candidates = [f' in the "{contexts[0]}" section'] if contexts else []
        candidates += [f" (variant {n})" for n in range(2, 1000)]
        for suffix in candidates:
            attempt = [*segments, suffix]
            if not self._collides(_pattern(attempt)):
                return _join([attempt])
        raise RuntimeError("could not find an unambiguous step pattern")

    def place(self, step: _Step) -> StepUse:
        """The Gherkin line for a step, defining its step definition first when none matches."""
        has_args = [p is not None for p in step.params]
        identities = [_identity(op.kind, op.locator, op.value, a) for op, a in zip(step.ops, has_args, strict=True)]
        signature = signature_of(step.keyword, identities)
        ops_key = signature_of("", identities)
        if signature not in self.defs:
            # The same operations under another keyword: cucumber matches text only, so reuse that one.
            signature = self._by_ops.get(ops_key, signature)
        if signature not in self.defs:
            self._define(step, signature, ops_key)
        definition = self._use(signature)
        quoted = {}
        for op_def, param in zip(definition.ops, step.params, strict=True):
            if op_def.arg:
                quoted[op_def.arg] = f'"<{param}>"' if param is not None else '""'
        text = pattern_text(definition.pattern, [quoted[arg] for arg in definition.args])
        return StepUse(keyword=step.keyword, text=text, signature=signature)

    def _define(self, step: _Step, signature: str, ops_key: str) -> None:
        phrases = [_phrase(op, i, p is not None) for i, (op, p) in enumerate(zip(step.ops, step.params, strict=True))]
        segments = self._unambiguous(_join(phrases), step.ops)
        arg_names: dict[int, str] = {}
        taken: set[str] = set()
        for index, param in enumerate(step.params):
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
                locator=op.locator if op.kind is not ActionKind.goto else None,
                value=None if index in arg_names else op.value,
                arg=arg_names.get(index),
                comment=describe(op, arg_names.get(index)),
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
        if op.kind.needs_target and op.locator is None:
            raise ValueError(f"scenario {scenario.id}: kept operation {op.index} ({op.kind.value}) has no locator")


def scenario_steps(scenario: Scenario, operations: Sequence[Operation]) -> tuple[list[_Step], Parameters]:
    """A scenario's steps (before reuse) and parameters, from all its operations (failed ones included)."""
    kept = kept_operations(operations)
    _check_targets(scenario, kept)
    start = _path(scenario.start)
    # The agent's own opening of the start page is what the Given step does.
    if kept and kept[0].kind is ActionKind.goto and _path(kept[0].value) == start:
        kept = kept[1:]
    parameters = parameterise(kept, scenario.data)
    position = {id(op): index for index, op in enumerate(kept)}
    opening = Operation(index=-1, step_index=0, kind=ActionKind.goto, description=f"Open {start}", value=start)
    steps = [_Step("Given", [opening], [None])]
    for group in group_operations(kept):
        keyword: Keyword = "Then" if group[0].kind.is_assertion else "When"
        params = [parameters.by_op.get(position[id(op)]) for op in group]
        steps.append(_Step(keyword, group, params))
    return steps, parameters


def build_scripts(
    runs: Sequence[tuple[Scenario, Sequence[Operation]]],
    existing: Sequence[StepDefinition] = (),
) -> tuple[list[ScenarioScript], list[StepDefinition]]:
    """Scenario scripts for the runs of one batch, and the unique step definitions they use, in order.

    `existing` definitions (e.g. from the step registry) are reused when a signature matches.
    """
    book = StepBook(existing)
    scripts: list[ScenarioScript] = []
    for scenario, operations in runs:
        steps, parameters = scenario_steps(scenario, operations)
        uses = [book.place(step) for step in steps]
        scripts.append(
            ScenarioScript(scenario_id=scenario.id, title=scenario.title, steps=uses, examples=parameters.examples)
        )
    return scripts, book.used_definitions()
