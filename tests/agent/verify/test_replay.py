"""Replays that really run cucumber-js and Chromium against the small owners app."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

from shared.records import ScenarioScript
from shared.settings import Settings
from tests.agent.scripting.example import RUNS
from workers.agent.scripting.gherkin import render_feature
from workers.agent.scripting.javascript import render_steps
from workers.agent.scripting.steps import build_scripts
from workers.agent.scripting.suite import write_suite
from workers.agent.verify.replay import replay


def make_suite(out: Path, change=None) -> list[ScenarioScript]:
    scripts, defs = build_scripts(RUNS)
    if change is not None:
        change(scripts)
    write_suite(out, "Owners", render_feature("Owners", scripts), render_steps(defs))
    return scripts


def test_generated_scenarios_pass(tmp_path: Path, site: str, settings: Settings, node_modules: Path) -> None:
    make_suite(tmp_path)
    for scenario_id in ("find-owner", "owner-details"):
        result = replay(tmp_path, scenario_id, site, settings)
        assert result.passed, result
        assert result.failed_step is None and result.error is None and result.seconds > 0
    assert (tmp_path / "node_modules").resolve() == node_modules.resolve()
    assert not (tmp_path / "reports").exists()  # the replay's report goes to a temporary folder


def test_absent_text_fails_at_its_step(tmp_path: Path, site: str, settings: Settings, node_modules: Path) -> None:
    def wrong_owner(scripts: list[ScenarioScript]) -> None:
        scripts[0].examples[1]["owner"] = "Nobody Here"

    make_suite(tmp_path, wrong_owner)
    result = replay(tmp_path, "find-owner", site, settings)
    assert not result.passed
    assert result.failed_step == 'Then the page shows "Nobody Here"'
    assert 'expected the page to show "Nobody Here"' in result.error
    assert " at " not in result.error  # stack lines are left out


def test_wrong_value_names_what_is_shown(tmp_path: Path, site: str, settings: Settings, node_modules: Path) -> None:
    def wrong_phone(scripts: list[ScenarioScript]) -> None:
        scripts[1].examples[0]["telephoneShown"] = "000"

    make_suite(tmp_path, wrong_phone)
    result = replay(tmp_path, "owner-details", site, settings)
    assert not result.passed
    assert result.failed_step == 'Then the Telephone shows "000"'
    assert 'to show "000" but it shows "6085551023"' in result.error


def test_reset_command_runs_before_each_scenario(tmp_path: Path, site: str, settings: Settings,
                                                 node_modules: Path) -> None:
    make_suite(tmp_path / "suite")
    marker = tmp_path / "marker"
    result = replay(tmp_path / "suite", "find-owner", site, settings, reset_command=f"echo reset >> '{marker}'")
    assert result.passed, result
    # One Examples row each for Davis and Franklin: two scenarios, two resets.
    assert marker.read_text() == "reset\nreset\n"


def test_a_failing_reset_command_fails_the_scenario(tmp_path: Path, site: str, settings: Settings,
                                                    node_modules: Path) -> None:
    make_suite(tmp_path)
    result = replay(tmp_path, "find-owner", site, settings, reset_command="echo database is locked >&2; exit 3")
    assert not result.passed
    assert result.failed_step is None
    assert "reset command failed (exit status 3)" in result.error
    assert "database is locked" in result.error


def test_unknown_scenario_and_missing_base_url(tmp_path: Path, site: str, settings: Settings,
                                               node_modules: Path) -> None:
    make_suite(tmp_path)
    result = replay(tmp_path, "no-such-scenario", site, settings)
    assert not result.passed and "no scenario tagged @no-such-scenario" in result.error
    result = replay(tmp_path, "find-owner", "", settings)
    assert not result.passed and "STEPFORGE_BASE_URL is not set" in result.error


def test_timeout_stops_the_run(tmp_path: Path, site: str, node_modules: Path) -> None:
    make_suite(tmp_path)
    settings = Settings(replay_timeout_s=3)
    result = replay(tmp_path, "find-owner", site, settings, reset_command="sleep 60")
    assert not result.passed
    assert "did not finish within 3 s" in result.error
    assert result.seconds < 20


def test_generated_patterns_are_defined_and_unambiguous_for_cucumber(tmp_path: Path, node_modules: Path) -> None:
    """A dry run: every step finds exactly one definition, escapes and disambiguated wording included."""
    from shared.records import Locator  # noqa: PLC0415
    from tests.agent.scripting.test_escaping import click, scenario  # noqa: PLC0415

    runs = list(RUNS) + [
        (scenario("odd"), [click(0, 'Add (new) pet/owner {x} \\ "now"', Locator(strategy="css", value="#add"))]),
        (scenario("e1"), [click(0, "Edit", Locator(strategy="id", value="edit-owner"))]),
        (scenario("e2"), [click(0, "Edit", Locator(strategy="id", value="edit-pet"), context="Pets")]),
        (scenario("e3"), [click(0, "Edit", Locator(strategy="id", value="edit-visit"))]),
    ]
    scripts, defs = build_scripts(runs)
    scripts[0].examples.append({"lastName": 'O"Neil | \\x', "owner": "it's"})
    write_suite(tmp_path, "Dry", render_feature("Dry", scripts), render_steps(defs))
    (tmp_path / "node_modules").symlink_to(node_modules)
    report = tmp_path / "dry.json"
    done = subprocess.run(
        [str(node_modules / ".bin" / "cucumber-js"), "--dry-run", "--format", f"json:{report.name}"],
        cwd=tmp_path, capture_output=True, text=True, timeout=120, env={**os.environ, "NO_COLOR": "1"},
    )
    assert done.returncode == 0, done.stdout + done.stderr
    statuses = [
        step["result"]["status"]
        for feature in json.loads(report.read_text())
        for element in feature["elements"]
        for step in element["steps"]
        if not step.get("hidden")
    ]
    assert statuses and set(statuses) == {"skipped"}
    names = [step.get("name") for f in json.loads(report.read_text()) for e in f["elements"] for step in e["steps"]]
    assert 'Enter "O\\"Neil | \\x" in the Last name field and click "Find Owner"' in names
