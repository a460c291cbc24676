"""Scenarios that must fail, at the right step and with the right kind, and never reach the suite."""

from __future__ import annotations

import json
import subprocess

import pytest

from shared.records import RunRecord
from shared.settings import Settings
from workers.agent.verify.node_runtime import ensure_runtime

from .conftest import feature_text, generate

pytestmark = pytest.mark.e2e

SCENARIOS = """
scenarios:
  - id: GOOD
    title: Finding an owner
    steps:
      - Go to the Find Owners page
      - action: Search for Franklin
        expected: '"Owner Information" is shown'
  - id: NO-TEXT
    title: An expected text that is not on the page
    steps:
      - Go to the Find Owners page
      - action: Search for Franklin
        expected: '"Owner Deleted" is shown'
      - Click Edit Owner
  - id: NO-BUTTON
    title: A button that does not exist
    steps:
      - Go to the Find Owners page
      - Search for Franklin
      - Click the Delete Owner button
  - id: WRONG-VALUE
    title: A field that shows another value
    steps:
      - Go to the Find Owners page
      - Search for Franklin
      - Verify the Telephone shows 5550000
  - id: UNSUPPORTED
    title: A sentence the builtin brain does not understand
    steps:
      - Go to the Find Owners page
      - Drag the owner list onto the vets page
"""


@pytest.fixture(scope="module")
def failing_run(petclinic, reset_command, tmp_path_factory):
    work = tmp_path_factory.mktemp("failing")
    scenarios = work / "scenarios.yaml"
    scenarios.write_text(SCENARIOS)
    run = generate(scenarios, petclinic, work, reset_command)
    return run, json.loads(run.report.read_text())["scenarios"]


def verdict(report, scenario_id):
    entry = report[scenario_id]
    return entry["verdict"], entry["failed_step"], entry["failure_kind"], entry["reason"]


def test_exit_status_says_some_failed(failing_run):
    run, report = failing_run
    assert run.exit_code == 1
    assert verdict(report, "GOOD")[:3] == ("passed", None, None)


def test_expected_text_absent_fails_at_that_step(failing_run):
    _, report = failing_run
    status, step, kind, reason = verdict(report, "NO-TEXT")
    assert (status, step, kind) == ("failed", 2, "expectation")
    assert 'the page does not show "Owner Deleted"' in reason


def test_missing_button_fails_as_an_action(failing_run):
    _, report = failing_run
    status, step, kind, reason = verdict(report, "NO-BUTTON")
    assert (status, step, kind) == ("failed", 3, "action")
    assert "Delete Owner" in reason


def test_another_value_fails_naming_both_values(failing_run):
    _, report = failing_run
    status, step, kind, reason = verdict(report, "WRONG-VALUE")
    assert (status, step, kind) == ("failed", 3, "expectation")
    assert '"6085551023"' in reason and '"5550000"' in reason


def test_unsupported_sentence_is_named_not_guessed(failing_run):
    run, report = failing_run
    status, step, kind, reason = verdict(report, "UNSUPPORTED")
    assert (status, step, kind) == ("failed", 2, "unsupported")
    assert "Drag the owner list onto the vets page" in reason
    record = RunRecord.model_validate_json((run.artifacts / "UNSUPPORTED/attempt-1/run.json").read_text())
    assert [op.kind for op in record.operations] == ["goto", "click"]  # nothing done for the sentence


def test_failed_scenarios_stay_out_of_the_suite_and_it_still_passes(failing_run, petclinic, reset_command):
    run, _ = failing_run
    feature = feature_text(run.suite)
    assert "@GOOD" in feature
    for scenario_id in ("NO-TEXT", "NO-BUTTON", "WRONG-VALUE", "UNSUPPORTED"):
        assert f"@{scenario_id}" not in feature
    assert "Owner Deleted" not in feature and "5550000" not in feature
    node_modules = ensure_runtime(Settings())  # the npm packages stepforge installed, instead of npm install
    done = subprocess.run(
        [str(node_modules / ".bin/cucumber-js")], cwd=run.suite, capture_output=True, text=True, timeout=300,
        env={"PATH": "/usr/bin:/bin", "NODE_PATH": str(node_modules), "STEPFORGE_BASE_URL": petclinic,
             "STEPFORGE_RESET_COMMAND": reset_command},
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "1 scenario (1 passed)" in done.stdout


def test_the_results_files_carry_each_verdict_for_a_test_management_system(failing_run):
    """junit.xml (TestRail's CLI, Xray) and cucumber.json (Xray) beside the report: one test case per scenario,
    its key, the failed step and reason, and the failure's screenshot, which exists."""
    run, report = failing_run
    import xml.etree.ElementTree as ET

    suites = ET.parse(run.artifacts / "junit.xml").getroot()
    cases = {case.find("properties/property[@name='test_key']").get("value"): case for case in suites.iter("testcase")}
    # three the application did not meet (<failure>), one whose sentence could not be read (<error>)
    assert sorted(cases) == sorted(report) and (suites.get("failures"), suites.get("errors")) == ("3", "1")
    assert cases["GOOD"].find("failure") is None and cases["UNSUPPORTED"].find("error") is not None
    failure = cases["NO-TEXT"].find("failure")
    assert failure.get("type") == "expectation" and failure.get("message").startswith("step 2 failed (expectation)")
    assert 'step 2: Search for Franklin (expected: "Owner Deleted" is shown)' in failure.text
    shots = [p.get("value") for p in cases["NO-TEXT"].iter("property") if p.get("name") == "testrail_attachment"]
    assert len(shots) == 1 and shots[0].endswith(".png") and (run.artifacts / shots[0].split(
        str(run.artifacts.resolve()) + "/", 1)[-1]).is_file(), shots
    features = json.loads((run.artifacts / "cucumber.json").read_text())
    scenarios = {e["tags"][0]["name"]: e for f in features for e in f["elements"]}
    assert sorted(scenarios) == sorted(f"@{key}" for key in report)
    statuses = [s["result"]["status"] for s in scenarios["@NO-TEXT"]["steps"]]
    assert statuses == ["passed", "failed", "skipped"]
    assert "Owner Deleted" in scenarios["@NO-TEXT"]["steps"][1]["result"]["error_message"]
    assert {s["result"]["status"] for s in scenarios["@GOOD"]["steps"]} == {"passed"}
