"""schemathesis hooks for the conformance tests (SCHEMATHESIS_HOOKS=tests.schemathesis_hooks): the values of the
formats the OpenAPI documents declare beyond JSON Schema's own.

"target-url" is an http(s) URL the service may visit; the test servers allow loopback targets, and these hosts
resolve without a network."""

from __future__ import annotations

import json
import re
from typing import Any

import schemathesis
from hypothesis import strategies as st

schemathesis.openapi.format(
    "target-url",
    st.builds(lambda scheme, host, port, path: f"{scheme}://{host}{port}{path}",
              st.sampled_from(["http", "https"]), st.sampled_from(["127.0.0.1", "localhost", "[::1]"]),
              st.sampled_from(["", ":8080", ":65535"]), st.sampled_from(["", "/", "/app/", "/a?b=c"])),
)


PLACEHOLDER = re.compile(r"<([A-Za-z_][A-Za-z0-9_]*)>")


def _scenarios(body: Any) -> list[dict]:
    if not isinstance(body, dict):
        return []
    items = body.get("scenarios")
    return [item for item in items if isinstance(item, dict)] if isinstance(items, list) else [body]


def _coherent(scenario: dict) -> bool:
    """The two rules a scenario's JSON Schema cannot state: every data row has the first row's columns, and a
    <placeholder> in a step names one of them."""
    rows = scenario.get("data")
    if not isinstance(rows, list) or not rows:
        return not PLACEHOLDER.search(json.dumps(scenario.get("steps", ""), ensure_ascii=False))
    if not all(isinstance(row, dict) for row in rows):
        return True  # a wrong type: the schema says so itself
    columns = list(rows[0])
    if any(list(row) != columns for row in rows):
        return False
    steps = json.dumps([scenario.get("steps"), scenario.get("text")], ensure_ascii=False)
    return set(PLACEHOLDER.findall(steps)) <= set(columns)


@schemathesis.hook
def filter_body(ctx: Any, body: Any) -> bool:
    """Requests are generated only where the cross-field rules hold; those rules have tests of their own
    (tests/shared/test_scenarios.py, tests/service/test_api.py)."""
    return all(_coherent(scenario) for scenario in _scenarios(body))


# An export of one case in each format: what an export holds is beyond its JSON Schema (its content is a string).
EXPORTS = {
    "testrail-csv": '"ID","Title","Steps (Step)"\r\n"C1","Home","Open /"\r\n',
    "testrail-json": '{"cases": [{"id": 1, "title": "Home", "custom_steps_separated": [{"content": "Open /"}]}]}',
    "xray-json": '[{"testtype": "Manual", "update_key": "X-1", "fields": {"summary": "Home"}, '
                 '"steps": [{"action": "Open /"}]}]',
    "xray-csv": "Issue Key,Summary,Action\r\nX-1,Home,Open /\r\n",
    "zephyr-json": '[{"key": "Z-T1", "name": "Home", "testScript": {"type": "STEP_BY_STEP", '
                   '"steps": [{"description": "Open /"}]}}]',
}


@schemathesis.hook
def map_case(ctx: Any, case: Any) -> Any:
    """A batch's export (its `source`, or the uploaded file) is a real one of its format (map_case: applied in every
    phase, the coverage phase too)."""
    body = case.body
    source = body.get("source") if isinstance(body, dict) else None
    if isinstance(source, dict) and isinstance(source.get("format"), str) and source["format"] in EXPORTS:
        body["source"]["content"] = EXPORTS[body["source"]["format"]]
    elif isinstance(body, dict) and "file" in body:
        fmt = body.get("format") if isinstance(body.get("format"), str) else None
        fmt = {"testrail": "testrail-csv", "xray": "xray-csv", "zephyr": "zephyr-json"}.get(fmt, fmt)
        body["file"] = EXPORTS.get(fmt, EXPORTS["testrail-csv"])
    return case
