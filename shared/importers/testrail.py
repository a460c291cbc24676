"""TestRail's exports of test cases: the CSV export (Test Cases > Export > CSV) and the JSON of its API's get_cases.

CSV: one header row of field labels ("ID", "Title", "Section", "Preconditions", ...). A case with separated steps
("Test Case (Steps)" template) has "Steps (Step)" and "Steps (Expected Result)" columns, one step per row: its first
row holds the case's fields, each further row only its step's cells. A case of the text template has "Steps" and
"Expected Result" instead. IDs look like C123.

JSON: get_cases' answer, either the paginated {"offset", "limit", "size", "_links", "cases": [...]} or, from
TestRail before 6.7, the list of cases; a case has id, title, section_id, custom_preconds, and
custom_steps_separated [{content, expected, additional_info, refs}] or custom_steps / custom_expected."""

from __future__ import annotations

import csv
import io
from collections.abc import Iterator

from shared.importers.formats import FormatError, check_schema, parse_json
from shared.importers.mapping import Case, CaseStep

_COLUMNS = {  # what we read, by TestRail's label (compared without case and surrounding spaces)
    "id": "ID", "title": "Title", "section": "Section", "hierarchy": "Section Hierarchy",
    "preconditions": "Preconditions", "steps": "Steps", "expected": "Expected Result",
    "step": "Steps (Step)", "step_expected": "Steps (Expected Result)", "step_info": "Steps (Additional Info)",
}


def _case_key(value: str | int) -> str:
    text = str(value).strip()
    return text if text[:1] in ("C", "c") else f"C{text}"


def _feature(section: str, hierarchy: str) -> str | None:
    """The case's section: "Section", else the last part of "Section Hierarchy" (Owners > Search -> Search)."""
    if section.strip():
        return section.strip()
    parts = [part.strip() for part in hierarchy.split(">") if part.strip()]
    return parts[-1] if parts else None


def read_csv(content: str, source: str) -> Iterator[Case]:
    reader = csv.reader(io.StringIO(content, newline=""), strict=True)
    try:
        header = next(reader, None)
    except csv.Error as exc:
        raise FormatError(f"{source}: line 1: {exc}") from None
    if not header:
        raise FormatError(f"{source}: empty file; expected TestRail's CSV export with a header row")
    labels = [label.strip().casefold() for label in header]
    index = {name: labels.index(label.casefold()) for name, label in _COLUMNS.items() if label.casefold() in labels}
    missing = [_COLUMNS[name] for name in ("id", "title") if name not in index]
    if missing:
        raise FormatError(f"{source}: line 1: no {' or '.join(repr(m) for m in missing)} column; TestRail's CSV "
                          f"export has them (its columns here: {', '.join(header[:8])})")
    if not {"step", "steps"} & set(index):
        raise FormatError(f"{source}: line 1: no 'Steps (Step)' or 'Steps' column: export the cases with their steps")
    case: Case | None = None
    line = 1
    while True:
        start = reader.line_num + 1
        try:
            row = next(reader)
        except StopIteration:
            break
        except csv.Error as exc:
            raise FormatError(f"{source}: line {start}: {exc}") from None
        line = start
        if not any(cell.strip() for cell in row):
            continue
        if len(row) != len(header):
            raise FormatError(f"{source}: line {line}: {len(row)} fields, but the header has {len(header)} "
                              "(a quote not closed, or a cell with an unquoted comma)")

        def cell(name: str) -> str:
            return row[index[name]] if name in index else ""

        if cell("id").strip() or cell("title").strip():
            if case is not None:
                yield case
            if not cell("id").strip():
                raise FormatError(f"{source}: line {line}: the case {cell('title').strip()[:60]!r} has no ID")
            case = Case(key=_case_key(cell("id")), title=cell("title"), where=f"line {line}",
                        feature=_feature(cell("section"), cell("hierarchy")), preconditions=cell("preconditions"),
                        text=cell("steps"), text_expected=cell("expected"))
        elif case is None:
            raise FormatError(f"{source}: line {line}: a step row before any case (no ID and no Title above it)")
        if cell("step").strip() or cell("step_expected").strip() or cell("step_info").strip():
            case.steps.append(CaseStep(action=cell("step"), data=cell("step_info"), expected=cell("step_expected")))
    if case is not None:
        yield case


_STEP = {"type": "object", "properties": {
    "content": {"type": ["string", "null"]}, "expected": {"type": ["string", "null"]},
    "additional_info": {"type": ["string", "null"]}, "refs": {"type": ["string", "null"]}}}
_CASE = {"type": "object", "required": ["id", "title"], "properties": {
    "id": {"type": ["integer", "string"]}, "title": {"type": "string"},
    "section_id": {"type": ["integer", "null"]}, "custom_preconds": {"type": ["string", "null"]},
    "custom_steps": {"type": ["string", "null"]}, "custom_expected": {"type": ["string", "null"]},
    "custom_steps_separated": {"type": ["array", "null"], "items": _STEP}}}
SCHEMA = {"oneOf": [
    {"type": "array", "items": _CASE},
    {"type": "object", "required": ["cases"], "properties": {"cases": {"type": "array", "items": _CASE}}},
]}


def read_json(content: str, source: str) -> Iterator[Case]:
    document = parse_json(content, source)
    cases = document.get("cases") if isinstance(document, dict) else document
    check_schema({"cases": cases} if isinstance(document, dict) else document, SCHEMA if isinstance(document, list)
                 else SCHEMA["oneOf"][1], source)
    for number, item in enumerate(cases):
        steps = [CaseStep(action=s.get("content") or "", data=s.get("additional_info") or "",
                          expected=s.get("expected") or "") for s in item.get("custom_steps_separated") or []]
        yield Case(key=_case_key(item["id"]), title=item["title"], where=f"cases[{number}]",
                   feature=None,  # get_cases names the section by its id only
                   preconditions=item.get("custom_preconds") or "", steps=steps,
                   text="" if steps else item.get("custom_steps") or "",
                   text_expected="" if steps else item.get("custom_expected") or "")

