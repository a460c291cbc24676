"""Zephyr Scale's (SmartBear, for Jira) test cases, as JSON.

A list of test cases (or {"values": [...]} / {"testCases": [...]}, as its search answers), each with its "key"
(SA-T10), "name", "folder" ("/Owners/Search", or {"name"}), "precondition", "labels", "component", and its
"testScript": {"type": "STEP_BY_STEP", "steps": [{"description", "testData", "expectedResult"}]} (Server/DC's
API v1; Cloud's v2 answers the steps on their own, {"values": [{"inline": {"description", "testData",
"expectedResult"}}]}, which may stand in "testScript"'s place joined to its case). A "PLAIN_TEXT" script's text is
the steps, one a line. Parameters: "parameters": {"variables": [{"name"}], "entries": [{name: value}]} give the
case's data rows, and {name} in a step is the parameter."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from shared.importers.formats import FormatError, check_schema, parse_json
from shared.importers.mapping import Case, CaseStep

_TEXT = {"type": ["string", "null"]}
_STEP = {"type": "object", "properties": {"description": _TEXT, "testData": _TEXT, "expectedResult": _TEXT,
                                          "inline": {"type": "object", "properties": {
                                              "description": _TEXT, "testData": _TEXT, "expectedResult": _TEXT}}}}
CASE = {"type": "object", "required": ["key", "name"], "properties": {
    "key": {"type": "string"}, "name": {"type": "string"}, "precondition": _TEXT,
    "folder": {"type": ["string", "object", "null"]},
    "component": {"type": ["string", "object", "null"]},
    "testScript": {"type": ["object", "null"], "properties": {
        "type": {"type": "string"}, "text": _TEXT, "steps": {"type": "array", "items": _STEP},
        "values": {"type": "array", "items": _STEP}}},
    "parameters": {"type": ["object", "null"], "properties": {
        "variables": {"type": "array", "items": {"type": "object", "required": ["name"],
                                                  "properties": {"name": {"type": "string"}}}},
        "entries": {"type": "array", "items": {"type": "object"}}}}}}
SCHEMA = {"type": "array", "items": CASE}


def _named(value: Any) -> str | None:
    if isinstance(value, dict):
        value = value.get("name")
    return str(value).strip() or None if value else None


def _folder(value: Any) -> str | None:
    name = _named(value)
    parts = [part for part in (name or "").split("/") if part.strip()]
    return parts[-1].strip() if parts else None


def _rows(parameters: dict | None) -> list[dict[str, str]]:
    if not parameters:
        return []
    names = [variable["name"] for variable in parameters.get("variables") or []]
    entries = parameters.get("entries") or []
    return [{name: "" if entry.get(name) is None else str(entry.get(name)) for name in names} for entry in entries]


def read_json(content: str, source: str) -> Iterator[Case]:
    document = parse_json(content, source)
    if isinstance(document, dict):
        cases = document.get("values", document.get("testCases"))
        if cases is None and "key" in document:
            cases = [document]  # one test case
    else:
        cases = document
    if not isinstance(cases, list):
        raise FormatError(f"{source}: expected a list of Zephyr Scale test cases (or {{\"values\": [...]}})")
    check_schema(cases, SCHEMA, source)
    for number, item in enumerate(cases):
        script = item.get("testScript") or {}
        kind = (script.get("type") or "STEP_BY_STEP").upper()
        where = f"[{number}]"
        if kind == "BDD":
            yield Case(key=item["key"], title=item["name"], where=where,
                       unsupported="is a BDD test case (its script is Gherkin already): only step-by-step and "
                                   "plain-text test cases are imported")
            continue
        steps = [step.get("inline") or step for step in script.get("steps") or script.get("values") or []]
        yield Case(key=item["key"], title=item["name"], where=where,
                   feature=_folder(item.get("folder")) or _named(item.get("component")),
                   preconditions=item.get("precondition") or "",
                   steps=[CaseStep(s.get("description") or "", s.get("testData") or "", s.get("expectedResult") or "")
                          for s in steps],
                   text=(script.get("text") or "") if kind == "PLAIN_TEXT" else "",
                   data=_rows(item.get("parameters")), parameters="{name}")
