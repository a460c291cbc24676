"""The second demo application: a single-page app whose API answers late from another port, with htmx swaps and a
stylesheet host that never answers. Its scenarios that today's sentences express are generated, verified, and
replayed green twice by the suite alone; failing variants fail at the right step."""

from __future__ import annotations

import json
import shlex
import sys

import pytest

from shared.scenarios import load_scenarios
from tests.apps.teamtasks import serve_in_thread

from .conftest import ROOT, generate
from .test_generate_examples import installed_copy, run_cucumber

pytestmark = pytest.mark.e2e

EXAMPLES = ROOT / "examples" / "teamtasks.yaml"
TODAY = ["TT-1", "TT-2", "TT-3", "TT-4", "TT-5", "TT-6"]  # the sentence forms the builtin brain reads today


@pytest.fixture(scope="module")
def teamtasks():
    app = serve_in_thread()  # the app's own delays: every API answer 300-1000 ms late
    yield app
    app.stop()


@pytest.fixture(scope="module")
def reset(teamtasks) -> str:
    return (f"env PYTHONPATH={shlex.quote(str(ROOT))} {shlex.quote(sys.executable)} "
            f"-m tests.apps.teamtasks reset --url {teamtasks.web_url}")


@pytest.fixture(scope="module")
def run(teamtasks, reset, tmp_path_factory):
    return generate(EXAMPLES, teamtasks.web_url, tmp_path_factory.mktemp("teamtasks"), reset,
                    ["--only", ",".join(TODAY)])


def test_the_scenarios_of_today_s_sentences_are_all_verified(run, teamtasks):
    report = json.loads(run.report.read_text())
    assert run.exit_code == 0, report
    assert list(report["scenarios"]) == TODAY
    assert {sid: e["verdict"] for sid, e in report["scenarios"].items()} == dict.fromkeys(TODAY, "passed")
    # The stylesheet host that never answers is cut off after its first request, and said so.
    stalled = [url for e in report["scenarios"].values() for url in e["stalled_requests"]]
    assert len(stalled) == 1 and stalled[0].startswith(teamtasks.stylesheet), stalled
    steps = (run.suite / "features/step_definitions/steps.js").read_text()
    assert "xpath=" not in steps
    assert 'getByRole("button", { name: "Sign in", exact: true }).click()' in steps


def test_the_suite_replays_green_twice_on_its_own(run, teamtasks, reset, tmp_path):
    suite = installed_copy(run.suite, tmp_path)
    rows = sum(len(s.data) or 1 for s in load_scenarios(EXAMPLES).scenarios if s.id in TODAY)
    for attempt in (1, 2):
        done = run_cucumber(suite, teamtasks.web_url, reset)
        assert done.returncode == 0, f"run {attempt}:\n{done.stdout}\n{done.stderr}"
        assert f"{rows} scenarios ({rows} passed)" in done.stdout


FAILING = """
scenarios:
  - id: BAD-WELCOME
    title: A wrong expectation after a background sign-in fails at that step
    start: /login
    steps:
      - Fill Email with alice@example.com
      - Fill Password with wonderland
      - action: Click Sign in
        expected: '"Welcome, Bob" is shown'
  - id: BAD-BUTTON
    title: A button the swapped page does not have fails as an action
    start: /login
    steps:
      - Fill Email with alice@example.com
      - Fill Password with wonderland
      - Click Sign in
      - Click Archive all
"""


def test_failing_variants_fail_at_the_right_step(teamtasks, reset, tmp_path, monkeypatch):
    monkeypatch.setenv("STEPFORGE_ACTION_TIMEOUT_MS", "3000")
    scenarios = tmp_path / "failing.yaml"
    scenarios.write_text(FAILING)
    generation = generate(scenarios, teamtasks.web_url, tmp_path, reset)
    report = json.loads(generation.report.read_text())["scenarios"]
    welcome, button = report["BAD-WELCOME"], report["BAD-BUTTON"]
    assert (welcome["verdict"], welcome["failed_step"], welcome["failure_kind"]) == ("failed", 3, "expectation")
    assert 'does not show "Welcome, Bob"' in welcome["reason"]
    assert (button["verdict"], button["failed_step"], button["failure_kind"]) == ("failed", 4, "action")
    assert "Archive all" in button["reason"]
