"""What the format readers share: their error, and JSON read and checked against a format's JSON schema."""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterator
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


def check_schema(document: Any, schema: dict, source: str, at: str = "") -> None:
    """FormatError naming the first place where the document is not what its format's schema says."""
    error = best_match(Draft202012Validator(schema).iter_errors(document))
    if error is not None:
        inner = list(error.absolute_path)
        place = at + _path(inner) if at and inner and isinstance(inner[0], int) else (
            f"{at}.{_path(inner)}" if at and inner else at or _path(inner))
        raise FormatError(f"{source}: {place}: {error.message}")


def csv_reader(content: str, source: str, delimiter: str, what: str, offset: int = 0) -> tuple[Any, list[str]]:
    """A strict CSV reader of the content and its header row (`offset`: lines before it, for the messages)."""
    reader = csv.reader(io.StringIO(content, newline=""), delimiter=delimiter, strict=True)
    try:
        header = next(reader, None)
    except csv.Error as exc:
        raise FormatError(f"{source}: line {1 + offset}: {exc}") from None
    if not header:
        raise FormatError(f"{source}: empty file; expected {what} with a header row")
    return reader, header


def csv_rows(reader: Any, header: list[str], source: str, offset: int = 0) -> Iterator[tuple[int, list[str]]]:
    """The rows after the header, each with the line it starts on (a cell may span lines; `offset`: lines before
    the header the reader did not see), blank rows left out; FormatError naming the line of a row that is not
    well-formed CSV or has another number of fields than the header."""
    while True:
        start = reader.line_num + 1 + offset
        try:
            row = next(reader)
        except StopIteration:
            return
        except csv.Error as exc:
            raise FormatError(f"{source}: line {start}: {exc}") from None
        if not any(cell.strip() for cell in row):
            continue
        if len(row) != len(header):
            raise FormatError(f"{source}: line {start}: {len(row)} fields, but the header has {len(header)} "
                              "(a quote not closed, or a cell with an unquoted separator)")
        yield start, row
