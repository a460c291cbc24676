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

from shared.importers.formats import FormatError, check_schema, csv_reader, csv_rows, parse_json
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


_NUMBERED = re.compile(r"^\s*(\d+)[.)]\s+", re.M)


def numbered(text: str, *, from_one: bool = True) -> dict[int, str] | None:
    """A cell holding a case's separated steps in one ("1. Open the page\n2. Search"): the steps by number; None
    when it does not start with a number (with "1." when from_one: the steps; expected results may skip some)."""
    marks = list(_NUMBERED.finditer(text))
    if not marks or text[:marks[0].start()].strip() or (from_one and marks[0].group(1) != "1"):
        return None
    items = {}
    for mark, following in zip(marks, [*marks[1:], None], strict=True):
        number = int(mark.group(1))
        if number in items:
            raise ValueError(f"two items are numbered {number}")
        items[number] = text[mark.end():following.start() if following else len(text)].strip()
    return items


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
    case: Case | None = None
    for start, row in csv_rows(reader, header, source, offset):

        def cell(name: str) -> str:
            return row[index[name]] if name in index else ""

        key = _case_key(cell("id")) if cell("id").strip() else ""
        # A new case: a row with its ID (the case's fields repeated on each of its step rows belong to it) or a title.
        if (key and (case is None or key != case.key)) or (not key and cell("title").strip()):
            if case is not None:
                _one_cell_steps(case)
                yield case
            if not key:
                raise FormatError(f"{source}: line {start}: the case {cell('title').strip()[:60]!r} has no ID")
            text = next((row[number] for number in texts if row[number].strip()), "")
            case = Case(key=key, title=cell("title"), where=f"line {start}",
                        feature=_feature(cell("section"), cell("hierarchy")), preconditions=cell("preconditions"),
                        text=text if "step" not in index or not cell("step").strip() else "",
                        text_expected=cell("expected"))
        elif case is None:
            raise FormatError(f"{source}: line {start}: a step row before any case (no ID and no Title above it)")
        if cell("step").strip() or cell("step_expected").strip() or cell("step_info").strip():
            case.steps.append(CaseStep(action=cell("step"), data=cell("step_info"), expected=cell("step_expected")))
    if case is not None:
        _one_cell_steps(case)
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

