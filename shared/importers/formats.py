"""What the format readers share: their error, and JSON read and checked against a format's JSON schema."""

from __future__ import annotations

import json
from typing import Any

from jsonschema import Draft202012Validator
from jsonschema.exceptions import best_match

from shared.scenarios import ScenarioFileError


class FormatError(ScenarioFileError):
    """An export that cannot be imported; the message names the source, the line or case, and the field."""


def parse_json(content: str, source: str) -> Any:
    try:
        return json.loads(content)
    except json.JSONDecodeError as exc:
        raise FormatError(f"{source}: not valid JSON at line {exc.lineno}, column {exc.colno}: {exc.msg}") from None


def _path(parts) -> str:
    text = ""
    for part in parts:
        text += f"[{part}]" if isinstance(part, int) else f".{part}"
    return text.lstrip(".") or "(top level)"


def check_schema(document: Any, schema: dict, source: str) -> None:
    """FormatError naming the first place where the document is not what its format's schema says."""
    error = best_match(Draft202012Validator(schema).iter_errors(document))
    if error is not None:
        raise FormatError(f"{source}: {_path(error.absolute_path)}: {error.message}")
