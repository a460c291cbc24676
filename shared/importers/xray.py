"""Xray's (Jira) manual Tests: JSON and CSV. Each step of a manual test is an action, its test data and its
expected result.

JSON, any of:
- the Tests JSON Xray imports and exports in bulk: a list of {"testtype": "Manual", "fields": {"summary",
  "components": [{"name"}], "labels"}, "xray_test_repository_folder", "steps": [{"action", "data", "result"}]},
  the issue's key in "update_key" (or "key");
- Xray Cloud's GraphQL getTests answer: {"data": {"getTests": {"results": [{"jira": {"key", "summary",
  "components"}, "folder": {"path"}, "steps": [{"action", "data", "result"}]}]}}};
- Xray Server/DC's REST /rest/raven/1.0/api/test?keys= answer: a list of {"key", "type", "definition": {"steps":
  [{"index", "step": {"raw", "rendered"}, "data": {...}, "result": {...}}]}} (a Cucumber or Generic test's
  definition is its text), or steps of configurable fields {"fields": {"Action", "Data", "Expected Result"}}.

CSV, as Xray's Test Case Importer takes it: a row per step, the rows of one test sharing its identifier ("Issue
Key", "Test ID" or "TCID"), the test's columns ("Summary", "Component", "Test Repository Path") on its first row,
"Action", "Data" and "Result" (or "Step Action", "Step Data", "Step Result") on every row; comma, semicolon or tab
separated."""

from __future__ import annotations

import csv
from collections.abc import Iterator
from typing import Any

from shared.importers.formats import (
    FormatError,
    Problems,
    check_schema,
    csv_reader,
    csv_rows,
    parse_json,
    schema_problem,
)
from shared.importers.mapping import Case, CaseStep, section_path

XRAY_PARAMETER = "${name}"  # a dataset parameter in a step (datasets are not exported with the steps)

_TEXT = {"type": ["string", "null"]}
_STEP = {"type": "object", "properties": {"action": _TEXT, "data": _TEXT, "result": _TEXT}}
_RAW = {"type": ["object", "string", "null"], "properties": {"raw": _TEXT}}
_SERVER_STEP = {"type": "object", "properties": {
    "fields": {"type": "object", "properties": {"Action": _TEXT, "Data": _TEXT, "Expected Result": _TEXT}},
    "step": _RAW, "data": _RAW, "result": _RAW}}
_NAMED = {"type": "array", "items": {"type": ["object", "string"], "properties": {"name": {"type": "string"}}}}
BULK_TEST = {"type": "object", "properties": {
    "testtype": {"type": "string"}, "xray_testtype": {"type": "string"}, "update_key": {"type": "string"},
    "key": {"type": "string"}, "xray_steps": {"type": "array", "items": _STEP},
    "xray_test_repository_folder": _TEXT,
    "summary": {"type": "string"},
    "fields": {"type": "object", "properties": {
        "summary": {"type": "string"}, "components": _NAMED, "description": _TEXT}},
    "steps": {"type": "array", "items": _STEP}}}
GRAPHQL_TEST = {"type": "object", "required": ["jira"], "properties": {
    "jira": {"type": "object", "required": ["key"], "properties": {
        "key": {"type": "string"}, "summary": {"type": "string"}, "components": _NAMED}},
    "folder": {"type": ["object", "null"], "properties": {"path": _TEXT}},
    "steps": {"type": "array", "items": _STEP}}}
SERVER_TEST = {"type": "object", "required": ["key"], "properties": {
    "key": {"type": "string"}, "summary": {"type": "string"}, "steps": {"type": "array", "items": _SERVER_STEP},
    "definition": {"type": ["object", "string", "null"], "properties": {
        "steps": {"type": "array", "items": _SERVER_STEP}}}}}


def _raw(value: Any) -> str:
    return (value.get("raw") or "") if isinstance(value, dict) else (value or "")


def _component(components: list | None) -> str | None:
    for component in components or []:
        name = component.get("name") if isinstance(component, dict) else component
        if name and str(name).strip():
            return str(name).strip()
    return None


def _folder(path: str | None) -> str | None:
    return section_path(path, "/")


def _server_form(test: dict) -> bool:
    """Xray Server/DC's REST form (a definition, or steps of step/data/result or fields), not the bulk JSON's."""
    if {"fields", "testtype", "xray_testtype", "update_key"} & set(test):
        return False
    steps = test.get("steps") or []
    return "definition" in test or any(isinstance(s, dict) and {"step", "fields"} & set(s) for s in steps)


def read_json(content: str, source: str) -> Iterator[Case]:
    document = parse_json(content, source)
    if isinstance(document, dict) and "data" in document:
        check_schema(document, {"type": "object", "required": ["data"], "properties": {"data": {
            "type": "object", "required": ["getTests"], "properties": {"getTests": {
                "type": "object", "required": ["results"], "properties": {
                    "results": {"type": "array", "items": {"type": "object"}}}}}}}}, source)
        for number, test in enumerate(document["data"]["getTests"]["results"]):
            where = f"results[{number}]"
            problem = schema_problem(test, GRAPHQL_TEST, where)
            jira = test.get("jira") if isinstance(test.get("jira"), dict) else {}
            if problem is not None:  # this test is skipped and reported, the others imported
                key = jira.get("key")
                yield Case(key=key if isinstance(key, str) and key.strip() else where, title="", where=where,
                           unsupported=problem)
                continue
            yield Case(parameters=XRAY_PARAMETER, key=jira["key"], title=jira.get("summary") or "", where=where,
                       feature=_folder((test.get("folder") or {}).get("path")) or _component(jira.get("components")),
                       steps=[CaseStep(s.get("action") or "", s.get("data") or "",
                                       s.get("result") or "") for s in test.get("steps") or []])
        return
    tests = document.get("tests") if isinstance(document, dict) else document
    if not isinstance(tests, list):
        raise FormatError(f"{source}: expected a list of Xray tests (or {{\"tests\": [...]}}, or a getTests answer)")
    check_schema(tests, {"type": "array", "items": {"type": "object"}}, source)
    for number, test in enumerate(tests):
        where = f"[{number}]"
        server = _server_form(test)
        key = test.get("update_key") or test.get("key")
        key = key.strip() if isinstance(key, str) and key.strip() else None
        summary = (test.get("fields") or {}).get("summary") if isinstance(test.get("fields"), dict) else None
        summary = summary or test.get("summary")  # older revisions of the format: at the top level
        problem = schema_problem(test, SERVER_TEST if server else BULK_TEST, where)
        if problem is None and not key:
            problem = ("no issue key ('update_key' or 'key'): the scenario's id and tag, and the Test its result "
                       "goes to, come from it")
        if problem is None and not server and not summary:
            problem = "fields.summary: missing; a test needs its summary"
        if problem is not None:  # this test is skipped and reported, the others imported
            yield Case(key=key or where, title=summary if isinstance(summary, str) else "", where=where,
                       unsupported=problem)
            continue
        if server:
            definition = test.get("definition")
            if isinstance(definition, str):
                yield Case(parameters=XRAY_PARAMETER, key=key, title=test.get("summary") or "", where=where,
                           unsupported=f"is a {test.get('type') or 'Cucumber or Generic'} test: only manual tests "
                                       "(steps) are imported")
                continue
            steps = [CaseStep(*(_raw(s.get(old)) or _raw((s.get("fields") or {}).get(name))
                                for name, old in (("Action", "step"), ("Data", "data"), ("Expected Result", "result"))))
                     for s in test.get("steps") or (definition or {}).get("steps") or []]
            yield Case(parameters=XRAY_PARAMETER, key=key, title=test.get("summary") or "", where=where,
                       steps=steps)
            continue
        fields = test.get("fields") or {}
        testtype = test.get("testtype") or test.get("xray_testtype") or "Manual"
        if testtype.lower() != "manual":
            yield Case(parameters=XRAY_PARAMETER, key=key, title=summary, where=where,
                       unsupported=f"is a {testtype} test: only manual tests (steps) are imported")
            continue
        yield Case(parameters=XRAY_PARAMETER, key=key, title=summary, where=where,
                   feature=_folder(test.get("xray_test_repository_folder")) or _component(fields.get("components")),
                   steps=[CaseStep(s.get("action") or "", s.get("data") or "", s.get("result") or "")
                          for s in test.get("steps") or test.get("xray_steps") or []])


# The Test Case Importer maps columns named at will; these are the names its documentation and exports use.
_KEYS = ("issue key", "test key", "key", "test id", "issue id", "tcid", "test case identifier")
_COLUMNS = {"summary": ("summary", "test summary", "title"), "action": ("action", "step action", "step"),
            "data": ("data", "step data", "test data"), "result": ("result", "step result", "expected result"),
            "component": ("component", "components"),
            "folder": ("test repository path", "repository path", "folder")}


def read_csv(content: str, source: str) -> Iterator[Case]:
    sample = content[:4096]
    try:
        dialect = csv.Sniffer().sniff(sample.split("\n", 1)[0], delimiters=",;\t")
        delimiter = dialect.delimiter
    except csv.Error:
        delimiter = ","
    reader, header = csv_reader(content, source, delimiter, "Xray's test CSV")
    labels = [label.strip().casefold() for label in header]
    key_column = next((labels.index(k) for k in _KEYS if k in labels), None)
    index = {name: next(labels.index(c) for c in choices if c in labels)
             for name, choices in _COLUMNS.items() if any(c in labels for c in choices)}
    if key_column is None or "action" not in index:
        raise FormatError(f"{source}: line 1: needs an 'Issue Key' (or 'Test ID') column and an 'Action' column; "
                          f"its columns: {', '.join(header[:8])}")
    problems = Problems(source)
    case: Case | None = None
    orphan = False  # the step rows of a test without a key: reported with it
    for start, row in csv_rows(reader, header, problems):

        def cell(name: str) -> str:
            return row[index[name]] if name in index else ""

        key = row[key_column].strip()
        if not key and cell("summary").strip():
            problems.add(start, f"the test {cell('summary').strip()[:60]!r} has no {header[key_column]}")
            if case is not None and not orphan:
                yield case
            case, orphan = None, True
            continue
        if key and (case is None or key != case.key):
            if case is not None and not orphan:
                yield case
            case, orphan = Case(parameters=XRAY_PARAMETER, key=key, title=cell("summary"), where=f"line {start}",
                                feature=_folder(cell("folder")) or (cell("component").strip() or None)), False
        elif orphan:
            continue
        elif case is None:
            problems.add(start, "a step row before any test (no key above it)")
            orphan = True
            continue
        if cell("action").strip() or cell("result").strip() or cell("data").strip():
            case.steps.append(CaseStep(cell("action"), cell("data"), cell("result")))
    problems.raise_any()
    if case is not None and not orphan:
        yield case
