"""Tolerant parsing of a model's JSON reply, and validation against a JSON Schema."""

from __future__ import annotations

import json
import re
from typing import Any

try:  # jsonschema is a declared dependency; the fallback keeps the client usable without it.
    import jsonschema  # type: ignore[import-untyped]
except ImportError:  # pragma: no cover - exercised only where jsonschema is missing
    jsonschema = None

_FENCE = re.compile(r"```(?:json|JSON)?\s*\n?(.*?)```", re.DOTALL)


class ReplyParseError(ValueError):
    """The text holds no JSON object."""


def first_json_object(text: str) -> str | None:
    """The first balanced {...} in text (braces inside JSON strings ignored), or None."""
    start = text.find("{")
    while start != -1:
        depth = 0
        in_string = False
        escaped = False
        for i in range(start, len(text)):
            ch = text[i]
            if in_string:
                if escaped:
                    escaped = False
                elif ch == "\\":
                    escaped = True
                elif ch == '"':
                    in_string = False
            elif ch == '"':
                in_string = True
            elif ch == "{":
                depth += 1
            elif ch == "}":
                depth -= 1
                if depth == 0:
                    candidate = text[start : i + 1]
                    try:
                        json.loads(candidate)
                    except ValueError:
                        break
                    return candidate
        start = text.find("{", start + 1)
    return None


def parse_json_reply(text: str | None) -> dict[str, Any]:
    """Parse a reply that should be a JSON object: plain, fenced in ```json, or wrapped in prose."""
    if text is None or not text.strip():
        raise ReplyParseError("the reply is empty")
    stripped = text.strip()
    candidates = [stripped]
    candidates += [m.group(1).strip() for m in _FENCE.finditer(stripped)]
    for candidate in candidates:
        try:
            value = json.loads(candidate)
        except ValueError:
            continue
        if isinstance(value, dict):
            return value
    found = first_json_object(stripped)
    if found is not None:
        return json.loads(found)
    raise ReplyParseError(f"the reply holds no JSON object: {_clip(stripped)}")


def validate(value: Any, schema: dict[str, Any]) -> str | None:
    """None when value matches schema, else a one-line description of the first problem."""
    if jsonschema is not None:
        validator_cls = jsonschema.validators.validator_for(schema)
        validator = validator_cls(schema)
        error = jsonschema.exceptions.best_match(validator.iter_errors(value))
        if error is None:
            return None
        where = "/".join(str(p) for p in error.absolute_path) or "(root)"
        return f"at {where}: {error.message}"
    return _basic_check(value, schema, "(root)")


_TYPES: dict[str, tuple[type, ...]] = {
    "object": (dict,),
    "array": (list,),
    "string": (str,),
    "integer": (int,),
    "number": (int, float),
    "boolean": (bool,),
    "null": (type(None),),
}


def _basic_check(value: Any, schema: dict[str, Any], where: str) -> str | None:
    """Required keys and types only: what is left when jsonschema is not installed."""
    expected = schema.get("type")
    if expected is not None:
        names = expected if isinstance(expected, list) else [expected]
        ok = False
        for name in names:
            types = _TYPES.get(name, (object,))
            if isinstance(value, bool) and name in ("integer", "number"):
                continue
            if isinstance(value, types):
                ok = True
        if not ok:
            return f"at {where}: {_clip(json.dumps(value))} is not of type {expected!r}"
    if "enum" in schema and value not in schema["enum"]:
        return f"at {where}: {_clip(json.dumps(value))} is not one of {schema['enum']!r}"
    if isinstance(value, dict):
        for key in schema.get("required", []):
            if key not in value:
                return f"at {where}: {key!r} is a required property"
        for key, sub in schema.get("properties", {}).items():
            if key in value:
                problem = _basic_check(value[key], sub, f"{where}/{key}".removeprefix("(root)/"))
                if problem:
                    return problem
    if isinstance(value, list) and isinstance(schema.get("items"), dict):
        for i, item in enumerate(value):
            problem = _basic_check(item, schema["items"], f"{where}/{i}".removeprefix("(root)/"))
            if problem:
                return problem
    return None


def _clip(text: str, limit: int = 200) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"
