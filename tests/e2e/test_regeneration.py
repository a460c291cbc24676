"""`stepforge regenerate` against the demo application changed between two runs by the test itself
(tests/apps/petclinic/changes.py): each change lands in its triage class; drift is healed in the drifted steps
only and the suite replays green; an application change fails at its step and keeps its script, and its script
generated afresh waits for a person to accept it; a flake is retried, never healed; an unchanged application costs
no model call.

The CLI runs as a user runs it, in a process of its own; the application runs in this one, so the test switches
its changes between the runs.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.apps.petclinic import serve_in_thread
from tests.apps.petclinic.changes import STALL_S, switch
from tests.apps.reset import reset_command
from tests.cli_run import run_cli
from tests.model.fake_openai import FakeOpenAI
from workers.agent.verify.replay import replay_scenarios

from .conftest import EXAMPLES, ROOT, feature_text, generate

pytestmark = pytest.mark.e2e

SCENARIOS = ("OWN-1", "OWN-2", "OWN-5", "OWN-10", "VET-20")


@dataclass
class Regenerated:
    exit_code: int
    suite: Path
    report: dict
    output: str

    def triage(self) -> dict[str, str]:
        return {scenario_id: entry["triage"] for scenario_id, entry in self.report["scenarios"].items()}


@pytest.fixture(scope="module")
def app() -> Iterator[str]:
    """An application of this module's own: its changes must not reach other tests."""
    base_url, stop = serve_in_thread()
    yield base_url
    switch()
    stop()


@pytest.fixture(scope="module")
def verified_suite(app: str, tmp_path_factory: pytest.TempPathFactory) -> Path:
    work = tmp_path_factory.mktemp("verified")
    switch()
    done = generate(EXAMPLES, app, work, reset(app), ["--only", ",".join(SCENARIOS)])
    assert done.exit_code == 0, done.report.read_text() if done.report.exists() else "no report"
    return done.suite


def reset(app: str) -> str:
    return reset_command(app)


@pytest.fixture
def suite(verified_suite: Path, tmp_path: Path) -> Path:
    """A copy of the verified suite for one test's regeneration."""
    copy = tmp_path / "suite"
    shutil.copytree(verified_suite, copy, symlinks=True)
    return copy


def regenerate(suite: Path, app: str, *changes: str, extra: tuple[str, ...] = (), env: dict | None = None
               ) -> Regenerated:
    switch(*changes)
    report = suite.parent / "regeneration.json"
    command = ["regenerate", str(suite), "--base-url", app,
               "--report", str(report), "--artifacts", str(suite.parent / "artifacts"),
               "--reset-command", reset(app), *extra]
    # A changed application's red replays, walks and fresh generations wait for what it no longer shows, each up to
    # its time limit: shorter limits than the defaults (5 s, 3 s) keep those waits short; a page that is there is
    # found at once after the settle.
    limits = {"STEPFORGE_ACTION_TIMEOUT_MS": "2500", "STEPFORGE_ASSERTION_TIMEOUT_MS": "2000"}
    done = run_cli(command, cwd=ROOT, timeout=900, capture=True, env={**os.environ, **limits, **(env or {})})
    output = done.stdout + done.stderr
    assert report.exists(), output[-3000:]
    return Regenerated(done.returncode, suite, json.loads(report.read_text()), output)


def steps_js(suite: Path) -> str:
    return (suite / "features" / "step_definitions" / "steps.js").read_text()


def test_an_unchanged_application_is_replayed_with_no_model_call_and_nothing_rewritten(suite, app, monkeypatch):
    before = (feature_text(suite), steps_js(suite))
    with FakeOpenAI() as model:  # the model brain is configured: a regeneration that asked it would show here
        model_env = {"STEPFORGE_MODEL_BASE_URL": model.base_url, "STEPFORGE_MODEL_API_KEY": "sk-test",
                     "STEPFORGE_MODEL_NAME": "scripted"}
        done = regenerate(suite, app, extra=("--brain", "openai"), env=model_env)
        assert model.requests == []
    assert done.exit_code == 0, done.output[-3000:]
    assert done.triage() == dict.fromkeys(SCENARIOS, "passed")
    assert done.report["model_calls"] == 0
    assert all(entry["source"] == "replayed" for entry in done.report["scenarios"].values())
    assert (feature_text(suite), steps_js(suite)) == before


def test_a_renamed_id_is_drift_healed_in_the_drifted_steps_only_and_the_suite_replays_green(suite, app):
    before_features, before_steps = feature_text(suite), steps_js(suite)
    done = regenerate(suite, app, "renamed-id")
    assert done.exit_code == 0, done.output[-3000:]
    triage = done.triage()
    # Every scenario that types a last name drifts; the others replay as they were.
    assert triage == {"OWN-1": "drift", "OWN-2": "drift", "OWN-5": "drift", "OWN-10": "passed",
                      "VET-20": "passed"}, done.output[-3000:]
    for scenario_id in ("OWN-1", "OWN-2", "OWN-5"):
        entry = done.report["scenarios"][scenario_id]
        assert entry["source"] == "healed" and entry["verdict"]["status"] == "passed"
        assert [(c["before"], c["after"]) for c in entry["drift"]] == [("id=#lastName", "id=#ownerLastName")]
        assert (suite.parent / "artifacts" / entry["drift"][0]["screenshot"]).is_file()
    steps = steps_js(suite)
    assert "#ownerLastName" in steps  # (the owner form's own #lastName field, of OWN-10, did not change)
    # Only the drifted steps' code changed: every other line is the one verified before.
    changed = set(steps.splitlines()) ^ set(before_steps.splitlines())
    assert changed and all("astName" in line for line in changed), sorted(changed)
    assert feature_text(suite) == before_features  # the steps read the same
    results = replay_scenarios(suite, list(SCENARIOS), app, settings_for_replay())
    assert all(result.passed for result in results.values()), results
    assert "step 2" in done.output and "id=#lastName -> id=#ownerLastName" in done.output


def test_a_changed_heading_and_a_removed_row_fail_at_their_step_and_keep_their_scripts(suite, app):
    before_steps = steps_js(suite)
    done = regenerate(suite, app, "retitled-heading", "removed-row")
    assert done.exit_code == 1
    assert done.triage() == {"OWN-1": "app_changed", "OWN-2": "app_changed", "OWN-5": "app_changed",
                             "OWN-10": "passed", "VET-20": "passed"}, done.output[-3000:]
    scenarios = done.report["scenarios"]
    heading = scenarios["OWN-1"]  # Click Find Owner, expecting "Owner Information"
    assert (heading["verdict"]["step"], heading["verdict"]["kind"]) == (3, "expectation")
    assert heading["app_change"]["expected"] == "Owner Information"
    listed = scenarios["OWN-2"]  # "Betty Davis" and "Harold Davis" are shown
    assert (listed["verdict"]["step"], listed["verdict"]["kind"]) == (2, "expectation")
    row = scenarios["OWN-5"]  # Click Betty Davis: nothing on the page is that link any more
    assert (row["verdict"]["step"], row["verdict"]["kind"]) == (3, "action")
    assert "no element on the page is the one it recorded" in row["verdict"]["reason"]
    assert all(scenarios[i]["drift"] == [] and scenarios[i]["source"] == "replayed" for i in ("OWN-1", "OWN-2",
                                                                                               "OWN-5"))
    assert steps_js(suite) == before_steps  # never healed into something else
    features = feature_text(suite)
    for scenario_id in ("OWN-1", "OWN-2", "OWN-5"):
        assert f"@{scenario_id} @failing" in features
    assert "@OWN-10 @failing" not in features
    # Generated afresh, each fails too: their own words name what the application no longer shows. Nothing to accept.
    for scenario_id in ("OWN-1", "OWN-2", "OWN-5"):
        candidate = scenarios[scenario_id]["candidate"]
        assert candidate["passed"] is False and candidate["run_record"] is None, (scenario_id, candidate)
    assert not list((suite / ".stepforge" / "candidates").glob("*"))
    assert "OWN-1: generated afresh, it fails too" in done.output


def test_a_relabelled_button_s_regenerated_script_is_offered_and_accepted_by_a_person(suite, app):
    before_steps = steps_js(suite)
    done = regenerate(suite, app, "relabelled-button")
    assert done.exit_code == 1
    assert done.triage() == {"OWN-1": "app_changed", "OWN-2": "app_changed", "OWN-5": "app_changed",
                             "OWN-10": "passed", "VET-20": "passed"}, done.output[-3000:]
    scenarios = done.report["scenarios"]
    # OWN-1 says "Click Find Owner": generated afresh it fails too. OWN-2 and OWN-5 say "Search for Davis": generated
    # afresh they pass, with the button's new name; their scripts wait for a person, the suite's are unchanged.
    assert scenarios["OWN-1"]["candidate"]["passed"] is False
    for scenario_id in ("OWN-2", "OWN-5"):
        candidate = scenarios[scenario_id]["candidate"]
        assert candidate["passed"] is True, (scenario_id, candidate)
        diff = (suite / candidate["diff"]).read_text()
        assert '-  await this.page.getByRole("button", { name: "Find Owner", exact: true }).click();' in diff, diff
        assert '+  await this.page.getByRole("button", { name: "Search", exact: true }).click();' in diff, diff
        assert f"stepforge accept {suite} {scenario_id}" in " ".join(done.output.split())
    assert steps_js(suite) == before_steps

    accepted = subprocess.run([sys.executable, "-m", "workers.cli", "accept", str(suite), "OWN-2", "OWN-5"], cwd=ROOT,
                              timeout=120, capture_output=True, text=True)
    assert accepted.returncode == 0, accepted.stdout + accepted.stderr
    assert "accepted OWN-2" in accepted.stdout and "accepted OWN-5" in accepted.stdout
    assert '+  await this.page.getByRole("button", { name: "Search", exact: true }).click();' in accepted.stdout
    features = feature_text(suite)
    assert "@OWN-1 @failing" in features and "@OWN-2 @failing" not in features and "@OWN-5 @failing" not in features
    assert not list((suite / ".stepforge" / "candidates").glob("OWN-[25].*"))
    results = replay_scenarios(suite, ["OWN-2", "OWN-5", "OWN-10"], app, settings_for_replay())
    assert all(result.passed for result in results.values()), results

    # The next night, the accepted scripts are the verified ones: replayed green as they are.
    again = regenerate(suite, app, "relabelled-button")
    assert again.triage() == {"OWN-1": "app_changed", "OWN-2": "passed", "OWN-5": "passed", "OWN-10": "passed",
                              "VET-20": "passed"}, again.output[-3000:]


def test_a_moved_link_its_locator_still_finds_is_kept_as_it_is(suite, app):
    before = (feature_text(suite), steps_js(suite))
    done = regenerate(suite, app, "moved-link")
    assert done.exit_code == 0 and done.triage()["OWN-10"] == "passed", done.output[-3000:]
    page = urllib.request.urlopen(f"{app}/owners/find", timeout=10).read().decode()  # the change was served
    form = page[page.index("<form"):page.index("</form>")]
    assert "Add Owner</a>" in form, page
    assert (feature_text(suite), steps_js(suite)) == before


def test_a_stylesheet_that_stalls_once_is_a_flake_retried_not_healed(suite, app):
    before = (feature_text(suite), steps_js(suite))
    # The page's load waits for the stylesheet: with a load timeout shorter than the stall, the first replay of
    # the first page fails, and the retry finds it served at once.
    timeout_ms = int(STALL_S * 1000 / 2)
    done = regenerate(suite, app, "stalled-stylesheet", env={"STEPFORGE_NAVIGATION_TIMEOUT_MS": str(timeout_ms)})
    assert done.exit_code == 0, done.output[-3000:]
    flaky = {scenario_id: entry for scenario_id, entry in done.report["scenarios"].items() if entry["triage"] != "passed"}
    assert len(flaky) == 1 and next(iter(flaky.values()))["triage"] == "flake", done.report
    assert next(iter(flaky.values()))["replays"] == 2
    assert (feature_text(suite), steps_js(suite)) == before


def test_a_reset_command_that_fails_is_a_broken_environment_and_concludes_nothing(suite, app):
    before = (feature_text(suite), steps_js(suite))
    done = regenerate(suite, app, extra=("--reset-command", "exit 3"))  # the last --reset-command counts
    assert done.exit_code == 1, done.output[-3000:]
    assert set(done.triage().values()) == {"broken_environment"}, done.report
    entry = done.report["scenarios"]["OWN-1"]
    assert entry["verdict"]["kind"] == "error" and "exited with 3" in entry["environment"], entry
    assert (feature_text(suite), steps_js(suite)) == before and "@failing" not in before[0]


def settings_for_replay():
    from shared.settings import Settings

    return Settings()
