"""A scenario that passed its replay and turns red later is replayed again, then regenerated within its attempts;
never silently dropped. A replay that timed out on an element it had found is a page not ready, not a wrong
locator."""

from __future__ import annotations

import itertools
import json
from collections import Counter

import pytest

from shared.records import RunRecord
from tests.http_site import SiteHandler, serve

from .conftest import generate

pytestmark = pytest.mark.e2e

# Path -> the page loads (1 = generation's) that serve a broken page: the button missing, or disabled.
MISSING: dict[str, set[int]] = {"/steady-once": {3}, "/steady-twice": {3, 4}}
DISABLED: dict[str, set[int]] = {"/slow": {2}}


class Site(SiteHandler):
    loads: Counter = Counter()
    unstable = itertools.count(1)

    def do_GET(self) -> None:  # noqa: N802
        self.loads[self.path] += 1
        load = self.loads[self.path]
        if self.path == "/unstable":
            # A new id on every load: its first replay fails, its second attempt uses the button's name.
            body = f"<button id='next-{next(self.unstable)}' onclick=\"location.href='/done'\">Next</button>"
        elif self.path == "/done":
            body = "<h1>Done</h1>"
        elif load in MISSING.get(self.path, ()):
            body = "<p>Maintenance</p>"
        else:
            disabled = " disabled" if load in DISABLED.get(self.path, ()) else ""
            body = f"<button id='go'{disabled} onclick=\"location.href='/done'\">Go</button>"
        data = f"<!doctype html><html><body>{body}</body></html>".encode()
        self.send(data)


@pytest.fixture()
def site():
    Site.loads.clear()
    url, stop = serve(Site)
    yield url
    stop()


def scenarios(*starts: str) -> str:
    # WIZ fails its first replay and is regenerated with another locator: the suite's text changes, so every
    # scenario verified before is replayed again in the final suite.
    rows = ["{id: WIZ, title: w, start: /unstable, steps: [Click Next, Verify 'Done' is shown]}"]
    rows += [f"{{id: S{n}, title: s, start: {start}, steps: [Click Go, Verify 'Done' is shown]}}"
             for n, start in enumerate(starts, 1)]
    return "scenarios: [" + ", ".join(rows) + "]"


def run(site, tmp_path, text: str):
    path = tmp_path / "s.yaml"
    path.write_text(text)
    generation = generate(path, site, tmp_path)
    return generation, json.loads(generation.report.read_text())["scenarios"]


def test_red_once_in_the_final_suite_is_replayed_again_and_kept(site, tmp_path, monkeypatch):
    monkeypatch.setenv("STEPFORGE_ACTION_TIMEOUT_MS", "1500")
    generation, report = run(site, tmp_path, scenarios("/steady-once"))
    assert (report["WIZ"]["verdict"], report["WIZ"]["attempts"]) == ("passed", 2), report
    entry = report["S1"]
    # generation, the first replay, the final replay (no button), the final replay again
    assert Site.loads["/steady-once"] == 4
    assert (entry["verdict"], entry["attempts"], entry["replays"]) == ("passed", 1, 2), entry
    assert "@S1" in next((generation.suite / "features").glob("*.feature")).read_text()


def test_red_twice_in_the_final_suite_is_regenerated_not_dropped(site, tmp_path, monkeypatch):
    monkeypatch.setenv("STEPFORGE_ACTION_TIMEOUT_MS", "1500")
    generation, report = run(site, tmp_path, scenarios("/steady-twice"))
    entry = report["S1"]
    assert (entry["verdict"], entry["attempts"]) == ("passed", 2), entry
    assert Site.loads["/steady-twice"] == 6  # ... then generated (5) and replayed (6) again
    second = RunRecord.model_validate_json((generation.artifacts / "S1/attempt-2/run.json").read_text())
    assert second.verdict is not None and second.verdict.status == "passed"
    assert "@S1" in next((generation.suite / "features").glob("*.feature")).read_text()


def test_an_element_found_but_not_ready_is_replayed_again_keeping_its_locator(site, tmp_path, monkeypatch):
    monkeypatch.setenv("STEPFORGE_ACTION_TIMEOUT_MS", "1500")
    generation, report = run(site, tmp_path, "scenarios: [{id: SLOW, title: s, start: /slow, "
                                             "steps: [Click Go, Verify 'Done' is shown]}]")
    entry = report["SLOW"]
    assert (entry["verdict"], entry["attempts"], entry["replays"]) == ("passed", 1, 2), entry
    record = RunRecord.model_validate_json((generation.artifacts / "SLOW/attempt-1/run.json").read_text())
    assert record.avoided_locators == {}
    assert '.locator("#go")' in (generation.suite / "features/step_definitions/steps.js").read_text()
