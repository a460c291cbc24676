"""Recovery: a failed operation moves to the next-best element; a red replay is regenerated with the failure known."""

from __future__ import annotations

import itertools
import json

import pytest

from shared.records import RunRecord
from tests.http_site import SiteHandler, serve

from .conftest import feature_text, generate

pytestmark = pytest.mark.e2e

OVERLAY = """<h1>Settings</h1>
<div style="position: relative">
  <button id="save-1" onclick="location.href='/saved'">Save</button>
  <div style="position: absolute; inset: -5px; z-index: 2"></div>
</div>
<button id="save-2" onclick="location.href='/saved'">Save</button>"""


class Site(SiteHandler):
    loads = itertools.count(1)

    def do_GET(self) -> None:  # noqa: N802
        if self.path == "/overlay":
            body = OVERLAY
        elif self.path == "/owner":
            body = "<h1>Owner</h1><a href='/edit-owner'>Edit Owner</a> <a href='/edit-pet'>Edit Pet</a>"
        elif self.path == "/unstable":
            # The button's id changes on every load, and not in a way that shows (no counter, no hex run).
            word = ("alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta")[next(self.loads) % 8]
            body = f"<h1>Wizard</h1><button id='next-{word}' onclick=\"location.href='/done'\">Next</button>"
        else:
            body = f"<h1>{self.path.strip('/').capitalize()}</h1>"
        data = f"<!doctype html><html><body>{body}</body></html>".encode()
        self.send(data)


@pytest.fixture(scope="module")
def site():
    url, stop = serve(Site)
    yield url
    stop()


def run(site, tmp_path, scenario: str):
    path = tmp_path / "s.yaml"
    path.write_text(scenario)
    generation = generate(path, site, tmp_path)
    report = json.loads(generation.report.read_text())["scenarios"]
    return generation, report


def test_a_covered_element_falls_back_to_the_next_best(site, tmp_path, monkeypatch):
    monkeypatch.setenv("STEPFORGE_ACTION_TIMEOUT_MS", "1000")
    generation, report = run(
        site, tmp_path, "scenarios: [{id: SAVE, title: t, start: /overlay, steps: [Click Save, Verify 'Saved' is shown]}]"
    )
    assert report["SAVE"]["verdict"] == "passed", report
    record = RunRecord.model_validate_json((generation.artifacts / "SAVE/attempt-1/run.json").read_text())
    clicks = [op for op in record.operations if op.kind == "click"]
    assert [(op.ok, op.locator.value) for op in clicks] == [(False, "#save-1"), (True, "#save-2")]
    assert "intercepts pointer events" in clicks[0].error
    steps = (generation.suite / "features/step_definitions/steps.js").read_text()
    assert "#save-2" in steps and "#save-1" not in steps  # the failed operation is not in the script


SCENARIO = "scenarios: [{id: WIZ, title: t, start: /unstable, steps: [Click Next, Verify 'Done' is shown]}]"


def test_red_replay_regenerates_avoiding_the_locator_that_failed(site, tmp_path):
    generation, report = run(site, tmp_path, SCENARIO)
    assert (report["WIZ"]["verdict"], report["WIZ"]["attempts"]) == ("passed", 2), report
    first = RunRecord.model_validate_json((generation.artifacts / "WIZ/attempt-1/run.json").read_text())
    second = RunRecord.model_validate_json((generation.artifacts / "WIZ/attempt-2/run.json").read_text())
    assert first.replay is not None and not first.replay.passed
    assert first.replay.failed_step == "When Click \"Next\""
    assert second.avoided_locators == {"Click Next": ["id"]}
    click = next(op for op in second.operations if op.kind == "click")
    assert (click.locator.strategy, click.locator.role, click.locator.value) == ("role", "button", "Next")


def test_attempts_are_bounded_and_the_verdict_says_why(site, tmp_path, monkeypatch):
    monkeypatch.setenv("STEPFORGE_MAX_ATTEMPTS", "1")
    generation, report = run(site, tmp_path, SCENARIO)
    entry = report["WIZ"]
    assert generation.exit_code == 1
    assert (entry["verdict"], entry["attempts"], entry["failure_kind"]) == ("failed", 1, "action")
    assert entry["reason"].startswith("the generated script failed its replay at 'When Click \"Next\"'")
    assert "@WIZ" not in feature_text(generation.suite)


def test_a_target_fitting_two_different_elements_is_refused(site, tmp_path):
    generation, report = run(site, tmp_path, "scenarios: [{id: AMB, title: t, start: /owner, steps: [Click Edit]}]")
    entry = report["AMB"]
    assert (entry["verdict"], entry["failed_step"], entry["failure_kind"]) == ("failed", 1, "action")
    assert "'Edit' fits both 'Edit Owner' and 'Edit Pet'; say which one" in entry["reason"]
