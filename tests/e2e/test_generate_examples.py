"""The main job: every example scenario becomes a verified, green cucumber-js scenario."""

from __future__ import annotations

import json
import os
import subprocess
import zipfile
from collections import Counter

import pytest

from shared.records import RunRecord
from shared.scenarios import load_scenarios
from tests.npm_install import installed_copy
from workers.agent.actions import action

from .conftest import EXAMPLES, feature_text

pytestmark = pytest.mark.e2e


def test_every_example_scenario_passes_its_replay(examples_run):
    report = json.loads(examples_run.report.read_text())
    assert examples_run.exit_code == 0, report
    expected_ids = [s.id for s in load_scenarios(EXAMPLES).scenarios]
    assert list(report["scenarios"]) == expected_ids
    for scenario_id, entry in report["scenarios"].items():
        assert (entry["verdict"], entry["failed_step"], entry["failure_kind"]) == ("passed", None, None), scenario_id
        assert entry["attempts"] == 1 and entry["operations"] >= 1 and entry["steps"] >= 1
    summary = report["summary"]
    assert summary["passed"] == summary["scenarios"] == len(expected_ids)
    # Steps are reused across scenarios, so the code holds fewer operations than the scenarios perform.
    assert 0 < summary["ops_in_code"] < summary["operations"]
    assert summary["steps"] < summary["operations"]


def test_every_operation_kind_is_exercised(examples_run):
    kinds = Counter()
    for run_file in examples_run.artifacts.glob("*/attempt-1/run.json"):
        record = RunRecord.model_validate_json(run_file.read_text())
        kinds.update(op.kind for op in record.operations if op.ok)
    core = {"click", "fill", "select", "check", "uncheck", "press", "goto", "assert_text", "assert_value"}
    assert core <= set(kinds), f"missing: {core - set(kinds)}"


def test_artifacts_per_scenario(examples_run):
    for scenario in load_scenarios(EXAMPLES).scenarios:
        attempt = examples_run.artifacts / scenario.id / "attempt-1"
        record = RunRecord.model_validate_json((attempt / "run.json").read_text())
        assert record.verdict is not None and record.verdict.status == "passed"
        assert record.replay is not None and record.replay.passed
        assert json.loads((attempt / "replay.json").read_text())["passed"] is True
        pictured = [op.screenshot for op in record.operations if op.screenshot]
        assert pictured and all((attempt / shot).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" for shot in pictured)
        for op in record.operations:
            if op.ok and action(op.kind).grounded and (op.kind != "press" or op.target is not None):
                assert op.locator is not None and op.target is not None, op
            assert {"tree", "execution"} <= set(op.timings_ms) or op.kind == "goto", op
        with zipfile.ZipFile(attempt / "trace.zip") as trace:
            names = trace.namelist()
        assert any(name.endswith(".trace") for name in names) and any(name.endswith(".network") for name in names)


def test_suite_layout_and_readable_locators(examples_run):
    suite = examples_run.suite
    # Only the suite: replays ran in a staging folder, nothing links into stepforge's own npm packages.
    assert sorted(p.name for p in suite.iterdir()) == [
        ".gitignore", ".stepforge", ".stepforge-suite", "README.md", "cucumber.js", "features", "package.json"]
    for relative in ("package.json", "cucumber.js", "features/petclinic.feature",
                     "features/step_definitions/steps.js", "features/support/world.js"):
        assert (suite / relative).is_file(), relative
    package = json.loads((suite / "package.json").read_text())
    assert package["devDependencies"]["@cucumber/cucumber"].startswith("^12.")
    feature = feature_text(suite)
    assert feature.count("Scenario Outline:") == 13 and "@OWN-12" in feature
    assert "| Franklin | Middleton | Owner Values Updated |" in feature
    assert "| Coleman  | Verona    | Owner Values Updated |" in feature
    steps = (suite / "features/step_definitions/steps.js").read_text()
    # The demo app has ids, labels and roles everywhere: no step may fall back to a positional XPath.
    assert "xpath=/html" not in steps
    assert 'this.page.locator("#lastName").fill(lastName);' in steps
    statements = [line for line in steps.splitlines() if line.strip().startswith("await ")]
    comments = [line for line in steps.splitlines() if line.strip().startswith("// ")]
    assert len(comments) == len(statements)  # one comment per operation


def run_cucumber(suite, base_url, reset_command):
    env = dict(os.environ, STEPFORGE_BASE_URL=base_url, STEPFORGE_RESET_COMMAND=reset_command, NO_COLOR="1")
    return subprocess.run(["npx", "cucumber-js"], cwd=suite, env=env, capture_output=True, text=True, timeout=600)


def test_suite_passes_npm_install_and_cucumber_twice(examples_run, petclinic, reset_command, tmp_path):
    suite = installed_copy(examples_run.suite, tmp_path)
    for run in (1, 2):  # a second run passes too: no flake, no leftover state
        done = run_cucumber(suite, petclinic, reset_command)
        assert done.returncode == 0, f"run {run}:\n{done.stdout}\n{done.stderr}"
        assert "14 scenarios (14 passed)" in done.stdout  # OWN-12 has two Examples rows
