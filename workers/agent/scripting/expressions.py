"""Cucumber expressions: literal text escaped, a step's pattern as a regular expression, which definition a reported
step runs, what a pattern reads like with its values."""

from __future__ import annotations

import re
from collections.abc import Sequence

from shared.records import StepDefinition
from workers.agent.actions import action
from workers.agent.scripting.writer import (
    Segment,
)

# Characters with a meaning in cucumber expressions; literal text escapes them with a backslash.
_EXPRESSION_SPECIALS = set("(){}/\\")


# What cucumber's {string} parameter type matches.
_STRING_RE = r"(?:\"(?:[^\"\\]*(?:\\.[^\"\\]*)*)\"|'(?:[^'\\]*(?:\\.[^'\\]*)*)')"


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


def _sample(pattern: str) -> str:
    """A step text the pattern matches, "x" in each argument."""
    return pattern_text(pattern, ['"x"'] * pattern.count("{string}"))


def patterns_overlap(pattern: str, other: str) -> bool:
    """True when some step text could match both patterns (cucumber would call it ambiguous)."""
    return (pattern == other or bool(expression_regex(other).match(_sample(pattern)))
            or bool(expression_regex(pattern).match(_sample(other))))


def _arguments(pattern: str, text: str) -> list[str] | None:
    """The quoted arguments a step text gives a pattern, in order, as cucumber reads them; None: no match."""
    parts = pattern.split("{string}")
    body = f"({_STRING_RE})".join(re.escape(unescape_expression(part)) for part in parts)
    match = re.match(f"^{body}$", text)
    return list(match.groups()) if match else None
