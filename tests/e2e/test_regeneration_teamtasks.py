"""`stepforge regenerate` on the second demo application, a single-page app whose API answers late (150-500 ms under
test) from another port, changed between two runs by the test itself (tests/apps/teamtasks/changes.py): a renamed id
is drift, healed and replayed green; a changed greeting and a removed row fail at their step and keep their scripts;
a relabelled button's scenario names the old label, so generated afresh it fails too."""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from shared.settings import Settings
from tests.apps.reset import reset_command
from tests.apps.teamtasks import RunningApp, serve_in_thread
from tests.apps.teamtasks.changes import switch
from tests.cli_run import run_cli
from workers.agent.verify.replay import replay_scenarios

from .conftest import ROOT, feature_text, generate

pytestmark = pytest.mark.e2e

EXAMPLES = ROOT / "examples" / "teamtasks.yaml"
SCENARIOS = ("TT-1", "TT-2", "TT-4", "TT-5")


@pytest.fixture(scope="module")
def app() -> Iterator[RunningApp]:
    """An application of this module's own: its changes must not reach other tests."""
    switch()
    running = serve_in_thread()
    yield running
    switch()
    running.stop()


def reset(app: RunningApp) -> str:
    return reset_command(app.web_url)


@pytest.fixture(scope="module")
def verified_suite(app: RunningApp, tmp_path_factory: pytest.TempPathFactory) -> Path:
    done = generate(EXAMPLES, app.web_url, tmp_path_factory.mktemp("verified"), reset(app),
                    ["--only", ",".join(SCENARIOS)])
    assert done.exit_code == 0, done.report.read_text() if done.report.exists() else "no report"
    return done.suite


def regenerate(suite: Path, app: RunningApp, *changes: str) -> tuple[int, dict, str]:
    switch(*changes)
    report = suite.parent / "regeneration.json"
    done = run_cli(["regenerate", str(suite), "--base-url", app.web_url, "--report", str(report), "--artifacts",
                    str(suite.parent / "artifacts"), "--reset-command", reset(app)], cwd=ROOT, timeout=900,
                   capture=True)
    output = done.stdout + done.stderr
    assert report.exists(), output[-3000:]
    return done.returncode, json.loads(report.read_text()), output


def test_teamtasks_changes_land_in_their_triage_class(verified_suite, app, tmp_path):
    suite = tmp_path / "suite"
    shutil.copytree(verified_suite, suite, symlinks=True)
    steps_before = (suite / "features" / "step_definitions" / "steps.js").read_text()
    features_before = feature_text(suite)

    code, report, output = regenerate(suite, app, "renamed-id", "retitled-welcome", "removed-row")
    scenarios = report["scenarios"]
    assert {i: e["triage"] for i, e in scenarios.items()} == {
        "TT-1": "app_changed", "TT-2": "drift", "TT-4": "app_changed", "TT-5": "drift"}, output[-3000:]
    assert code == 1
    for scenario_id in ("TT-2", "TT-5"):  # the Email field found again by its label, under its new id
        drift = scenarios[scenario_id]["drift"]
        assert [(c["before"], c["after"]) for c in drift] == [("id=#email", "id=#login-email")], drift
    welcome = scenarios["TT-1"]  # Click Sign in, expecting "Welcome, Alice"
    assert (welcome["verdict"]["step"], welcome["verdict"]["kind"]) == (3, "expectation"), welcome
    assert welcome["app_change"]["expected"] == "Welcome, Alice"
    row = scenarios["TT-4"]  # Click Search, expecting "Write the quarterly report"
    assert (row["verdict"]["step"], row["verdict"]["kind"]) == (5, "expectation"), row
    for scenario_id in ("TT-1", "TT-4"):  # the scenarios' own words name what is gone: their candidates fail too
        assert scenarios[scenario_id]["candidate"]["passed"] is False, scenarios[scenario_id]

    # The heal touches the Email field's lines only; the app_changed scenarios keep their scripts, tagged @failing.
    steps = (suite / "features" / "step_definitions" / "steps.js").read_text()
    changed = set(steps.splitlines()) ^ set(steps_before.splitlines())
    assert changed and all("mail" in line for line in changed), sorted(changed)
    features = feature_text(suite)
    assert "@TT-1 @failing" in features and "@TT-4 @failing" in features
    # The kept scenarios read as before; the healed sign-in step, whose code now differs from theirs, is told apart.
    before, after = features_before.splitlines(), features.replace(" @failing", "").splitlines()
    assert len(before) == len(after)
    reworded = [(old, new) for old, new in zip(before, after, strict=True) if old != new]
    assert len(reworded) == 2 and all("Sign in form" in new and new.startswith(old) for old, new in reworded), reworded
    results = replay_scenarios(suite, ["TT-2", "TT-5"], app.web_url, Settings(), reset(app))
    assert all(result.passed for result in results.values()), results
