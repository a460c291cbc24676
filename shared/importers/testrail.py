"""TestRail's exports of test cases: the CSV export (Test Cases > Export > CSV) and the JSON of its API's get_cases.

CSV: one header row of field labels ("ID", "Title", "Section", "Preconditions", ...), after Excel's separator hint
("sep=,") when the export dialog's "Include separator hint" was ticked (its default). A case with separated steps
("Test Case (Steps)" template) has "Steps (Step)" and "Steps (Expected Result)" columns: with "Include separated
steps on separate rows", one step per row (the case's fields on its first row, or repeated on each); without it
(the default), all steps in one cell numbered "1. ...", their expected results likewise. A case of the text
template has "Steps" (a label two columns may carry) and "Expected Result" instead. IDs look like C123.

JSON: get_cases' answer, either the paginated {"offset", "limit", "size", "_links", "cases": [...]} or, from
TestRail before 6.7, the list of cases; a case has id, title, section_id, custom_preconds, and
custom_steps_separated [{content, expected, additional_info, refs}] or custom_steps / custom_expected."""

from __future__ import annotations

import re
from collections.abc import Iterator

from shared.importers.formats import (
    FormatError,
    Problems,
    check_schema,
    csv_reader,
    csv_rows,
    parse_json,
    schema_problem,
)
from shared.importers.mapping import Case, CaseStep, numbered, section_path

_COLUMNS = {  # what we read, by TestRail's label (compared without case and surrounding spaces)
    "id": "ID", "title": "Title", "section": "Section", "hierarchy": "Section Hierarchy",
    "preconditions": "Preconditions", "steps": "Steps", "expected": "Expected Result",
    "step": "Steps (Step)", "step_expected": "Steps (Expected Result)", "step_info": "Steps (Additional Info)",
}


def _case_key(value: str | int) -> str:
    text = str(value).strip()
    return text if text[:1] in ("C", "c") else f"C{text}"


def _feature(section: str, hierarchy: str) -> str | None:
    """The case's section with its whole path: "Section Hierarchy" ("Owners > Search"), else "Section"."""
    return section_path(hierarchy, ">") or section_path(section, ">")


def _one_cell_steps(case: Case) -> None:
    """A case exported with "separated steps on separate rows" off: its steps and their expected results numbered
    in one cell each, paired by number."""
    if len(case.steps) != 1:
        return
    (only,) = case.steps
    try:
        actions = numbered(only.action)
        expected = numbered(only.expected, from_one=False) if actions and len(actions) > 1 else None
    except ValueError as error:  # the case is skipped and reported, the others imported
        case.unsupported = f"its steps cell cannot be read: {error}"
        return
    if not actions or len(actions) < 2:
        return
    expected = expected or ({1: only.expected} if only.expected.strip() else {})
    extra = sorted(set(expected) - set(actions))
    if extra:
        case.unsupported = f"an expected result is numbered {extra[0]}, but no step is"
        return
    case.steps = [CaseStep(action=actions[n], expected=expected.get(n, "")) for n in sorted(actions)]


def read_csv(content: str, source: str) -> Iterator[Case]:
    # Excel's separator hint, which TestRail's export writes by default, before the header: "sep=,".
    hint = re.match(r"sep=(.)\r?\n", content)
    delimiter = hint.group(1) if hint else ","
    offset = 1 if hint else 0
    reader, header = csv_reader(content[hint.end():] if hint else content, source, delimiter,
                                "TestRail's CSV export", offset)
    labels = [label.strip().casefold() for label in header]
    index = {name: labels.index(label.casefold()) for name, label in _COLUMNS.items() if label.casefold() in labels}
    # Two columns may both be "Steps" (the separated steps whole, and the text template's steps): either holds them.
    texts = [number for number, label in enumerate(labels) if label == "steps"]
    missing = [_COLUMNS[name] for name in ("id", "title") if name not in index]
    if missing:
        raise FormatError(f"{source}: line {1 + offset}: no {' or '.join(repr(m) for m in missing)} column; "
                          f"TestRail's CSV export has them (its columns here: {', '.join(header[:8])})")
    if "step" not in index and not texts:
        raise FormatError(f"{source}: line {1 + offset}: no 'Steps (Step)' or 'Steps' column: export the cases "
                          "with their steps")
    problems = Problems(source)
    case: Case | None = None
    orphan = False  # the rows after a case that has no ID: its steps, reported with it
    seen: dict[str, str] = {}  # each case's first line, by its key
    refused = ""  # the key of a second case under one ID: its step rows are reported with it, once
    for start, row in csv_rows(reader, header, problems, offset):

        def cell(name: str) -> str:
            return row[index[name]] if name in index else ""

        key = _case_key(cell("id")) if cell("id").strip() else ""
        text = next((row[number] for number in texts if row[number].strip()), "")
        if refused and key in ("", refused) and (key or not cell("title").strip()):
            continue
        refused = ""
        if case is not None and key == case.key and _another_case(case, cell("title"), text, cell("step")):
            problems.add(start, f"case {key} again, with {_what_differs(case, cell('title'))} (its first row is "
                                f"{case.where}): two cases under one ID; give each its own ID")
            orphan, refused = True, key
            continue
        # A new case: a row with its ID (the case's fields repeated on each of its step rows belong to it) or a title.
        if (key and (case is None or key != case.key)) or (not key and cell("title").strip()):
            if case is not None and not orphan:
                _one_cell_steps(case)
                yield case
            case, orphan = None, False
            if not key:
                problems.add(start, f"the case {cell('title').strip()[:60]!r} has no ID")
                orphan = True
                continue
            if key in seen:
                problems.add(start, f"case {key} appears twice (first at {seen[key]}): give each its own ID")
                orphan, refused = True, key
                continue
            seen[key] = f"line {start}"
            case = Case(key=key, title=cell("title"), where=f"line {start}",
                        feature=_feature(cell("section"), cell("hierarchy")), preconditions=cell("preconditions"),
                        text=text if "step" not in index or not cell("step").strip() else "",
                        text_expected=cell("expected"))
        elif orphan:
            continue
        elif case is None:
            problems.add(start, "a step row before any case (no ID and no Title above it)")
            orphan = True
            continue
        if cell("step").strip() or cell("step_expected").strip() or cell("step_info").strip():
            case.steps.append(CaseStep(action=cell("step"), data=cell("step_info"), expected=cell("step_expected")))
    problems.raise_any()
    if case is not None and not orphan:
        _one_cell_steps(case)
        yield case


def _another_case(case: Case, title: str, text: str, step: str) -> bool:
    """A row with the ID of the case above it is another case, not one of its step rows, when it has another
    title, or when the case's steps were all in its first row (the Steps text, or numbered in one cell) and this
    row has steps again."""
    if title.strip() and title.strip() != case.title.strip():
        return True
    whole = bool(case.text.strip()) or (len(case.steps) == 1 and len(_numbered_or_none(case.steps[0].action)) > 1)
    return whole and bool(text.strip() or step.strip())


def _what_differs(case: Case, title: str) -> str:
    if title.strip() and title.strip() != case.title.strip():
        return f"another title ({title.strip()[:60]!r}, not {case.title.strip()[:60]!r})"
    return "its steps again"


def _numbered_or_none(text: str) -> dict[int, str]:
    try:
        return numbered(text) or {}
    except ValueError:
        return {}


_STEP = {"type": "object", "properties": {
    "content": {"type": ["string", "null"]}, "expected": {"type": ["string", "null"]},
    "additional_info": {"type": ["string", "null"]}, "refs": {"type": ["string", "null"]}}}
_CASE = {"type": "object", "required": ["id", "title"], "properties": {
    "id": {"type": ["integer", "string"]}, "title": {"type": "string"},
    "section_id": {"type": ["integer", "null"]}, "custom_preconds": {"type": ["string", "null"]},
    "custom_steps": {"type": ["string", "null"]}, "custom_expected": {"type": ["string", "null"]},
    "custom_steps_separated": {"type": ["array", "null"], "items": _STEP}}}
SCHEMA = {"oneOf": [
    {"type": "array", "items": {"type": "object"}},
    {"type": "object", "required": ["cases"], "properties": {"cases": {"type": "array", "items": {"type": "object"}}}},
]}


def read_json(content: str, source: str) -> Iterator[Case]:
    document = parse_json(content, source)
    cases = document.get("cases") if isinstance(document, dict) else document
    check_schema({"cases": cases} if isinstance(document, dict) else document, SCHEMA if isinstance(document, list)
                 else SCHEMA["oneOf"][1], source)
    for number, item in enumerate(cases):
        where = f"cases[{number}]"
        problem = schema_problem(item, _CASE, where)
        if problem is not None:  # this case is skipped and reported, the others imported
            key = item.get("id")
            yield Case(key=_case_key(key) if isinstance(key, (int, str)) and str(key).strip() else where,
                       title=str(item.get("title") or ""), where=where,
                       unsupported=f"not a case of get_cases: {problem}")
            continue
        steps = [CaseStep(action=s.get("content") or "", data=s.get("additional_info") or "",
                          expected=s.get("expected") or "") for s in item.get("custom_steps_separated") or []]
        yield Case(key=_case_key(item["id"]), title=item["title"], where=where,
                   feature=None,  # get_cases names the section by its id only
                   preconditions=item.get("custom_preconds") or "", steps=steps,
                   text="" if steps else item.get("custom_steps") or "",
                   text_expected="" if steps else item.get("custom_expected") or "")
