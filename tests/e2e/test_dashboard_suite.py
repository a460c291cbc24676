"""stepforge on itself: the scenarios of examples/dashboard.yaml, written as a tester would, generated against the
dashboard's demo (the service's own app, seeded with a night's history: tests/apps/dashboard) into a suite that
cucumber-js replays green, each step acting on the element the tester named."""

from __future__ import annotations

import json

import pytest

from shared.scenarios import load_scenarios
from tests.apps.dashboard import serve_in_thread

from .conftest import ROOT, feature_text, generate

pytestmark = pytest.mark.e2e

EXAMPLES = ROOT / "examples" / "dashboard.yaml"
ALL = [scenario.id for scenario in load_scenarios(EXAMPLES).scenarios]


@pytest.fixture(scope="module")
def dashboard():
    demo = serve_in_thread()
    yield demo
    demo.stop()


def test_the_dashboard_s_own_scenarios_generate_a_suite_that_replays_green(dashboard, tmp_path):
    run = generate(EXAMPLES, dashboard.url, tmp_path)
    report = json.loads(run.report.read_text())
    assert run.exit_code == 0, {sid: e["reason"] for sid, e in report["scenarios"].items() if e["reason"]}
    assert {sid: e["verdict"] for sid, e in report["scenarios"].items()} == dict.fromkeys(ALL, "passed")
    assert all(e["replay_seconds"] > 0 for e in report["scenarios"].values()), report["scenarios"]  # replayed
    feature = feature_text(run.suite)
    assert all(f"@{sid}" in feature for sid in ALL)
    steps = "\n".join(path.read_text() for path in (run.suite / "features" / "step_definitions").glob("*.js"))
    # The elements the tester named, by their roles and names: the key's field, the links and buttons.
    assert 'getByRole("button", { name: "Sign in", exact: true })' in steps
    assert 'getByRole("link", { name: "Morning report", exact: true })' in steps
    assert 'getByRole("button", { name: "Sign out", exact: true })' in steps
