"""What makes two steps the same step: each operation's identity (kind, locator, literal value), hashed with the
keyword into the step's signature; names a person reads, and JavaScript identifiers."""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Sequence

from shared.records import Locator, Operation, StepDefinition
from workers.agent.actions import action
from workers.agent.actions.naming import clean as _clean
from workers.agent.actions.naming import (
    record_anchored,
    record_text,
    the_container,
)

_JS_RESERVED = {
    "break", "case", "catch", "class", "const", "continue", "debugger", "default", "delete", "do", "else", "enum",
    "export", "extends", "false", "finally", "for", "function", "if", "implements", "import", "in", "instanceof",
    "interface", "let", "new", "null", "package", "private", "protected", "public", "return", "static", "super",
    "switch", "this", "throw", "true", "try", "typeof", "var", "void", "while", "with", "yield", "await",
    "arguments", "eval", "undefined"
}


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


def _definition_identities(definition: StepDefinition) -> list[list]:
    return [_identity(op.kind, op.locator, op.value, op.arg is not None, op.name, op.record_arg is not None)
            for op in definition.ops]
