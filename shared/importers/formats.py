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


def schema_problem(document: Any, schema: dict, at: str = "") -> str | None:
    """The first place where the document is not what its format's schema says, and what is wrong there; None
    when it is."""
    error = best_match(Draft202012Validator(schema).iter_errors(document))
    if error is None:
        return None
    inner = list(error.absolute_path)
    place = at + _path(inner) if at and inner and isinstance(inner[0], int) else (
        f"{at}.{_path(inner)}" if at and inner else at or _path(inner))
    return f"{place}: {error.message}"


def check_schema(document: Any, schema: dict, source: str, at: str = "") -> None:
    """FormatError naming the first place where the document is not what its format's schema says."""
    problem = schema_problem(document, schema, at)
    if problem is not None:
        raise FormatError(f"{source}: {problem}")


class Problems:
    """The problems of a file read to its end, each with its line: the file is refused naming all of them (up to
    SHOWN), so that one export fixes them in one go."""

    SHOWN = 20

    def __init__(self, source: str) -> None:
        self.source = source
        self.found: list[str] = []

    def add(self, line: int, problem: str) -> None:
        self.found.append(f"line {line}: {problem}")

    def raise_any(self) -> None:
        if not self.found:
            return
        count = len(self.found)
        shown = "\n".join(f"  {problem}" for problem in self.found[:self.SHOWN])
        more = f"\n  ... and {count - self.SHOWN} more" if count > self.SHOWN else ""
        if count == 1:
            raise FormatError(f"{self.source}: {self.found[0]}")
        raise FormatError(f"{self.source}: {count} problems; nothing was imported:\n{shown}{more}")


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


def csv_rows(reader: Any, header: list[str], problems: Problems, offset: int = 0) -> Iterator[tuple[int, list[str]]]:
    """The rows after the header, each with the line it starts on (a cell may span lines; `offset`: lines before
    the header the reader did not see), blank rows left out; a row that is not well-formed CSV or has another
    number of fields than the header is added to the problems, and the reading goes on."""
    while True:
        start = reader.line_num + 1 + offset
        try:
            row = next(reader)
        except StopIteration:
            return
        except csv.Error as exc:
            problems.add(start, str(exc))
            continue
        if not any(cell.strip() for cell in row):
            continue
        if len(row) != len(header):
            problems.add(start, f"{len(row)} fields, but the header has {len(header)} "
                                "(a quote not closed, or a cell with an unquoted separator)")
            continue
        yield start, row
