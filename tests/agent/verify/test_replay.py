"""Replays that really run cucumber-js and Chromium against the small owners app."""

from __future__ import annotations

import json
import os
import subprocess
import time
from pathlib import Path

import pytest

from shared.records import ScenarioScript
from shared.settings import Settings
from tests.agent.scripting.example import RUNS
from workers.agent.scripting.gherkin import render_feature
from workers.agent.scripting.javascript import render_steps
from workers.agent.scripting.steps import build_scripts
from workers.agent.scripting.suite import write_suite
from workers.agent.verify import replay as replay_module
from workers.agent.verify import resident
from workers.agent.verify.replay import cucumber_command, replay, replay_environment

pytestmark = pytest.mark.e2e  # its tier (tests/conftest.py)


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
    assert not (tmp_path / "node_modules").exists()  # nothing links the suite to the shared runtime
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


def test_a_reset_command_that_outlives_its_time_limit_fails_the_scenario(tmp_path: Path, site: str,
                                                                        node_modules: Path) -> None:
    make_suite(tmp_path)
    settings = Settings(reset_timeout_s=1, replay_timeout_s=60)
    result = replay(tmp_path, "find-owner", site, settings, reset_command="sleep 30")
    assert not result.passed and result.failed_step is None
    assert "reset command failed (it did not finish within 1000 ms): sleep 30" in result.error, result.error
    assert result.seconds < 30  # stopped at its limit, not waited for


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
    assert replay(tmp_path, "find-owner", site, Settings()).passed  # the runner stopped is replaced


def test_generated_patterns_are_defined_and_unambiguous_for_cucumber(tmp_path: Path, node_modules: Path) -> None:
    """A dry run: every step finds exactly one definition, escapes and disambiguated wording included."""
    from shared.records import Locator
    from tests.agent.scripting.test_escaping import click, scenario

    runs = list(RUNS) + [
        (scenario("odd"), [click(0, 'Add (new) pet/owner {x} \\ "now"', Locator(strategy="css", value="#add"))]),
        (scenario("e1"), [click(0, "Edit", Locator(strategy="id", value="#edit-owner"))]),
        (scenario("e2"), [click(0, "Edit", Locator(strategy="id", value="#edit-pet"), context="Pets")]),
        (scenario("e3"), [click(0, "Edit", Locator(strategy="id", value="#edit-visit"))]),
    ]
    scripts, defs = build_scripts(runs)
    scripts[0].examples.append({"lastName": 'O"Neil | \\x', "owner": "it's"})
    write_suite(tmp_path, "Dry", render_feature("Dry", scripts), render_steps(defs))
    report = tmp_path / "dry.json"
    cli, extra_env = cucumber_command(tmp_path, node_modules)
    done = subprocess.run(
        [str(cli), "--dry-run", "--format", f"json:{report.name}"],
        cwd=tmp_path, capture_output=True, text=True, timeout=120, check=False,
        env={**os.environ, "NO_COLOR": "1", **extra_env},
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


# --- the replay leaves the suite folder alone and one @cucumber/cucumber is loaded ------------------------------

PROBE = """
// Written by the test: which @cucumber/cucumber the step definitions get, and how many copies are loaded.
const fs = require("fs");
const cucumber = require("@cucumber/cucumber");
const copies = Object.keys(require.cache).filter((file) => /[\\\\/]@cucumber[\\\\/]cucumber[\\\\/]lib[\\\\/]index\\.js$/.test(file));
fs.writeFileSync(process.env.PROBE_OUT, JSON.stringify({
  resolved: fs.realpathSync(require.resolve("@cucumber/cucumber")),
  playwright: fs.realpathSync(require.resolve("playwright-core")),
  copies: copies.map((file) => fs.realpathSync(file)),
  world: typeof cucumber.setWorldConstructor,
}));
"""


def test_step_definitions_share_the_clis_cucumber_and_nothing_is_left_in_the_suite(
    tmp_path: Path, site: str, settings: Settings, node_modules: Path, monkeypatch
) -> None:
    suite = tmp_path / "suite"
    make_suite(suite)
    (suite / "features" / "support" / "probe.js").write_text(PROBE)
    probe = tmp_path / "probe.json"
    monkeypatch.setenv("PROBE_OUT", str(probe))
    before = sorted(p.relative_to(suite) for p in suite.rglob("*"))
    result = replay(suite, "owner-details", site, settings)
    assert result.passed, result  # the definitions registered with the CLI's instance
    seen = json.loads(probe.read_text())
    runtime = node_modules.resolve()
    assert seen["resolved"].startswith(str(runtime / "@cucumber" / "cucumber") + os.sep)
    assert seen["playwright"].startswith(str(runtime / "playwright-core") + os.sep)
    assert len(seen["copies"]) == 1 and seen["copies"][0].startswith(str(runtime)), seen
    assert seen["world"] == "function"
    assert sorted(p.relative_to(suite) for p in suite.rglob("*")) == before  # no node_modules link, no reports


def test_a_link_left_by_an_older_replay_is_removed(tmp_path: Path, site: str, settings: Settings,
                                                   node_modules: Path) -> None:
    make_suite(tmp_path)
    (tmp_path / "node_modules").symlink_to(node_modules, target_is_directory=True)
    result = replay(tmp_path, "owner-details", site, settings)
    assert result.passed, result
    assert not (tmp_path / "node_modules").exists() and not (tmp_path / "node_modules").is_symlink()


def test_a_suite_with_its_own_node_modules_uses_them(tmp_path: Path, node_modules: Path) -> None:
    own = tmp_path / "node_modules" / ".bin"
    own.mkdir(parents=True)
    (own / "cucumber-js").write_text("#!/bin/sh\n")
    cli, extra_env = cucumber_command(tmp_path, node_modules)
    assert cli == own / "cucumber-js" and extra_env == {}
    cli, extra_env = cucumber_command(tmp_path / "other", node_modules)
    assert cli == node_modules / ".bin" / "cucumber-js"
    assert extra_env["NODE_PATH"].split(os.pathsep)[0] == str(node_modules.resolve())


# --- an interrupted replay leaves no process behind ----------------------------------------------------------


def _group_alive(pgid: int) -> bool:
    try:
        os.killpg(pgid, 0)
    except ProcessLookupError:
        return False
    # Members may be zombies waiting for a reaper: only live ones count.
    for status in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = status.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[2]) == pgid and fields[0] != "Z":
            return True
    return False


def test_an_interrupt_kills_the_replay_process_group(tmp_path: Path, site: str, node_modules: Path,
                                                      monkeypatch) -> None:
    make_suite(tmp_path / "suite")
    marker = tmp_path / "started"
    started: list[int] = []

    class Interrupted(subprocess.Popen):
        def communicate(self, *args, **kwargs):
            if not started:  # the first wait: once the reset command runs, Ctrl-C
                started.append(self.pid)
                _wait_for(marker)
                raise KeyboardInterrupt
            return super().communicate(*args, **kwargs)

    monkeypatch.setattr(replay_module.subprocess, "Popen", Interrupted)
    with pytest.raises(KeyboardInterrupt):
        replay(tmp_path / "suite", "find-owner", site, Settings(resident_replay=False),
               reset_command=f"touch '{marker}'; sleep 60")
    assert marker.exists() and started
    _assert_group_ends(started[0])  # cucumber-js, its shell and `sleep 60` are gone


def test_an_interrupt_kills_the_resident_runner_s_process_group(tmp_path: Path, site: str, settings: Settings,
                                                               node_modules: Path, monkeypatch) -> None:
    make_suite(tmp_path / "suite")
    marker = tmp_path / "started"
    started: list[int] = []

    def interrupted(self: resident.Runner, timeout_s: float) -> resident.ResidentAnswer:
        started.append(self.process.pid)
        _wait_for(marker)
        raise KeyboardInterrupt

    monkeypatch.setattr(resident.Runner, "_read_answer", interrupted)
    with pytest.raises(KeyboardInterrupt):
        replay(tmp_path / "suite", "find-owner", site, settings, reset_command=f"touch '{marker}'; sleep 60")
    assert marker.exists() and started
    _assert_group_ends(started[0])  # the runner, its browser, the shell and `sleep 60` are gone


def _wait_for(marker: Path) -> None:
    deadline = time.monotonic() + 60
    while not marker.exists() and time.monotonic() < deadline:
        time.sleep(0.1)


def _assert_group_ends(pgid: int) -> None:
    deadline = time.monotonic() + 10
    while _group_alive(pgid) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not _group_alive(pgid)


# --- cucumber-js kept resident between replays ----------------------------------------------------------------


def _idle_runner_pids() -> set[int]:
    return {runner.process.pid for runner in resident.RUNNERS._idle}


def test_one_resident_runner_replays_a_suite_as_it_is_at_each_replay(tmp_path: Path, site: str,
                                                                      settings: Settings, node_modules: Path) -> None:
    make_suite(tmp_path)
    assert replay(tmp_path, "find-owner", site, settings).passed
    runners = _idle_runner_pids()
    assert runners

    def wrong_owner(scripts: list[ScenarioScript]) -> None:
        scripts[0].examples[1]["owner"] = "Nobody Here"

    make_suite(tmp_path, wrong_owner)  # the suite rewritten: its features and step definitions are read again
    result = replay(tmp_path, "find-owner", site, settings)
    assert not result.passed and result.failed_step == 'Then the page shows "Nobody Here"', result
    assert _idle_runner_pids() & runners  # the same node process ran both replays
    result = replay(tmp_path, "find-owner", "", settings)  # nor does an environment outlive its replay
    assert not result.passed and "STEPFORGE_BASE_URL is not set" in result.error, result


def test_a_resident_runner_that_dies_mid_replay_leaves_it_to_a_new_cucumber_js(tmp_path: Path, site: str,
                                                                                settings: Settings,
                                                                                node_modules: Path) -> None:
    make_suite(tmp_path)
    killed = tmp_path / "killed"
    # The first reset kills the process that runs it: the resident runner, mid-replay. The replay is then run by a
    # cucumber-js of its own, whose resets pass.
    reset = f"[ -e '{killed}' ] || {{ touch '{killed}'; kill -9 $PPID; }}"
    result = replay(tmp_path, "find-owner", site, settings, reset_command=reset)
    assert killed.exists()
    assert result.passed, result
    assert replay(tmp_path, "find-owner", site, settings).passed  # and the next replay has a runner again


# --- the generation's settings reach world.js ---------------------------------------------------------------


def test_settings_become_the_world_variables(monkeypatch) -> None:
    for name in [k for k in os.environ if k.startswith("STEPFORGE_")]:
        monkeypatch.delenv(name)  # only what the replay sets is compared
    settings = Settings(assertion_timeout_ms=1234, viewport_width=1000, viewport_height=700, action_timeout_ms=2222,
                        navigation_timeout_ms=3333, headless=False, settle_timeout_ms=1500, settle_quiet_ms=70,
                        third_party_timeout_ms=900)
    env = replay_environment("http://app", settings, reset_command="true")
    assert {k: env[k] for k in env if k.startswith("STEPFORGE_")} == {
        "STEPFORGE_BASE_URL": "http://app",
        "STEPFORGE_BROWSER_PATH": settings.browser_path,
        "STEPFORGE_ACTION_TIMEOUT_MS": "2222",
        "STEPFORGE_NAVIGATION_TIMEOUT_MS": "3333",
        "STEPFORGE_EXPECT_TIMEOUT_MS": "1234",
        "STEPFORGE_SETTLE_TIMEOUT_MS": "1500",
        "STEPFORGE_SETTLE_QUIET_MS": "70",
        "STEPFORGE_THIRD_PARTY_TIMEOUT_MS": "900",
        "STEPFORGE_VIEWPORT_WIDTH": "1000",
        "STEPFORGE_VIEWPORT_HEIGHT": "700",
        "STEPFORGE_RESET_COMMAND": "true",
        "STEPFORGE_RESET_TIMEOUT_MS": str(int(settings.reset_timeout_s * 1000)),
        "STEPFORGE_HEADED": "1",
        "STEPFORGE_TRACE": "off",
    }
    readme = (Path(__file__).parents[3] / "workers/agent/scripting/templates/README.md").read_text()
    for name in env:
        if name.startswith("STEPFORGE_"):
            assert f"`{name}`" in readme


def _plain_suite(folder: Path, steps_js: str) -> None:
    """A cucumber-js suite of one scenario, @t, whose one step is steps_js's."""
    (folder / "features" / "step_definitions").mkdir(parents=True)
    (folder / "package.json").write_text('{"name": "plain", "private": true}\n')
    (folder / "features" / "plain.feature").write_text("Feature: plain\n\n  @t\n  Scenario: one step\n    Given the step\n")
    (folder / "features" / "step_definitions" / "steps.js").write_text(
        'const { Given } = require("@cucumber/cucumber");\nconst fs = require("fs");\n' + steps_js)


def test_a_resident_runner_keeps_playwright_loaded_and_loads_the_suite_afresh(tmp_path: Path, settings: Settings,
                                                                              node_modules: Path) -> None:
    seen = tmp_path / "seen"
    _plain_suite(tmp_path / "suite", f'''
const playwright = require("playwright-core");
Given("the step", function () {{
  globalThis.firstPlaywright = globalThis.firstPlaywright || playwright;
  fs.appendFileSync({json.dumps(str(seen))}, String(globalThis.firstPlaywright === playwright) + "\\n");
}});
''')
    for _ in range(2):
        assert replay(tmp_path / "suite", "t", "http://127.0.0.1:9", settings).passed
    # The steps ran twice, their file loaded each time; playwright-core was the one instance both times.
    assert seen.read_text() == "true\ntrue\n"


@pytest.mark.parametrize("resident_replay", [True, False], ids=["resident", "cold"])
def test_a_rejection_a_step_leaves_unhandled_fails_that_step_as_in_a_cucumber_js_of_its_own(
        tmp_path: Path, node_modules: Path, resident_replay: bool) -> None:
    _plain_suite(tmp_path, '''
Given("the step", async function () {
  Promise.reject(new Error("a promise nobody awaited"));
  await new Promise((resolve) => setTimeout(resolve, 50));
});
''')
    result = replay(tmp_path, "t", "http://127.0.0.1:9", Settings(resident_replay=resident_replay))
    assert not result.passed, result
    assert "a promise nobody awaited" in (result.error or ""), result
