"""Zephyr Scale's (SmartBear, for Jira) test cases, as JSON.

A list of test cases (or {"values": [...]} / {"testCases": [...]}, as its search answers), each with its "key"
(SA-T10), "name", "folder" ("/Owners/Search", or {"name"}), "precondition", "labels", "component", and its
"testScript": {"type": "STEP_BY_STEP", "steps": [{"description", "testData", "expectedResult"}]} (Server/DC's
API v1; Cloud's v2 answers the steps on their own, {"values": [{"inline": {"description", "testData",
"expectedResult"}}]}, which may stand in "testScript"'s place joined to its case). A "PLAIN_TEXT" script's text is
the steps, one a line. A "call to test" step includes another test case's steps ({"testCaseKey"} in v1,
{"testCase": {"testCaseKey", "parameters"}} beside a null "inline" in v2): they are put in its place when the export
holds that case; else the calling case is skipped and reported. Parameters: "parameters": {"variables": [{"name"}],
"entries": [{name: value}]} give the case's data rows, and {name} in a step is the parameter."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from shared.importers.formats import FormatError, check_schema, parse_json, schema_problem
from shared.importers.mapping import PARAMETERS, Case, CaseStep, section_path

_TEXT = {"type": ["string", "null"]}
_STEP = {"type": "object", "properties": {"description": _TEXT, "testData": _TEXT, "expectedResult": _TEXT,
                                          "testCaseKey": _TEXT,
                                          "inline": {"type": ["object", "null"], "properties": {
                                              "description": _TEXT, "testData": _TEXT, "expectedResult": _TEXT}},
                                          "testCase": {"type": ["object", "null"], "properties": {
                                              "testCaseKey": {"type": "string"}}}}}
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
PARAMETER = PARAMETERS["{name}"]


def _named(value: Any) -> str | None:
    if isinstance(value, dict):
        value = value.get("name")
    return str(value).strip() or None if value else None


def _folder(value: Any) -> str | None:
    return section_path(_named(value), "/")


def _rows(parameters: dict | None) -> list[dict[str, str]]:
    if not parameters:
        return []
    names = [variable["name"] for variable in parameters.get("variables") or []]
    entries = parameters.get("entries") or []
    return [{name: "" if entry.get(name) is None else str(entry.get(name)) for name in names} for entry in entries]


def _called(step: dict) -> str | None:
    """The key of the test case a "call to test" step includes, or None for a step of its own."""
    call = step.get("testCase") if isinstance(step.get("testCase"), dict) else {}
    key = step.get("testCaseKey") or call.get("testCaseKey")
    return key.strip() if isinstance(key, str) and key.strip() else None


def _call_values(step: dict) -> dict[str, str]:
    """The parameter values a call to test passes: [{"name", "value"}] (v2) or {name: value}."""
    given = (step.get("testCase") or {}).get("parameters") if isinstance(step.get("testCase"), dict) else None
    given = given if given is not None else step.get("parameters")
    if isinstance(given, dict):
        return {str(name): "" if value is None else str(value) for name, value in given.items()}
    return {str(item["name"]): "" if item.get("value") is None else str(item["value"])
            for item in given or [] if isinstance(item, dict) and item.get("name")}


class _CallError(ValueError):
    pass


def _steps(item: dict, by_key: dict[str, dict], calling: tuple[str, ...] = ()) -> list[CaseStep]:
    """The case's steps, each call to test replaced by the called case's steps (its parameters filled in with the
    values the call passes); _CallError naming the step that cannot be."""
    script = item.get("testScript") or {}
    steps: list[CaseStep] = []
    for number, raw in enumerate(script.get("steps") or script.get("values") or [], start=1):
        called = _called(raw)
        if called is None:
            step = raw.get("inline") if "inline" in raw else raw
            if not isinstance(step, dict):
                raise _CallError(f"step {number} has neither its own text (its inline script is null) nor a test "
                                 "case it calls")
            steps.append(CaseStep(step.get("description") or "", step.get("testData") or "",
                                  step.get("expectedResult") or ""))
            continue
        target = by_key.get(called)
        if target is None:
            raise _CallError(f"step {number} calls test case {called}, which this export does not hold: export "
                             "that case too, or write its steps in place of the call")
        if called in calling or called == item["key"]:
            raise _CallError(f"step {number} calls test case {called}, which calls back into "
                             f"{' -> '.join((*calling, item['key']))}")
        kind = ((target.get("testScript") or {}).get("type") or "STEP_BY_STEP").upper()
        if kind != "STEP_BY_STEP":
            raise _CallError(f"step {number} calls test case {called}, whose script is {kind}, not steps")
        values = _call_values(raw)

        def fill(text: str, values: dict[str, str] = values) -> str:
            return PARAMETER.sub(lambda m: values.get(m.group(1), m.group(0)), text)

        steps.extend(CaseStep(fill(s.action), fill(s.data), fill(s.expected))
                     for s in _steps(target, by_key, (*calling, item["key"])))
    return steps


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
    check_schema(cases, {"type": "array", "items": {"type": "object"}}, source)
    problems = [schema_problem(item, CASE, f"[{number}]") for number, item in enumerate(cases)]
    by_key = {item["key"]: item for item, problem in zip(cases, problems, strict=True) if problem is None}
    for number, (item, problem) in enumerate(zip(cases, problems, strict=True)):
        where = f"[{number}]"
        key = item.get("key") if isinstance(item.get("key"), str) and item.get("key").strip() else where
        if problem is not None:  # this case is skipped and reported, the others imported
            yield Case(key=key, title=str(item.get("name") or ""), where=where, unsupported=problem)
            continue
        script = item.get("testScript") or {}
        kind = (script.get("type") or "STEP_BY_STEP").upper()
        if kind == "BDD":
            yield Case(key=key, title=item["name"], where=where,
                       unsupported="is a BDD test case (its script is Gherkin already): only step-by-step and "
                                   "plain-text test cases are imported")
            continue
        try:
            steps = _steps(item, by_key) if kind != "PLAIN_TEXT" else []
        except _CallError as error:
            yield Case(key=key, title=item["name"], where=where, unsupported=str(error))
            continue
        yield Case(key=key, title=item["name"], where=where,
                   feature=_folder(item.get("folder")) or _named(item.get("component")),
                   preconditions=item.get("precondition") or "", steps=steps,
                   text=(script.get("text") or "") if kind == "PLAIN_TEXT" else "",
                   data=_rows(item.get("parameters")), parameters="{name}")
