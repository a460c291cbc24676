"""A suite a QA team keeps: the same scenarios give byte-identical files, step texts never carry a record's data,
the tester's words stay in the feature file, and a red run explains itself (screenshot, trace, HTML report), with a
clear message when no browser can be found."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import zipfile
from pathlib import Path

import pytest

from shared.scenarios import Scenario, load_scenarios
from shared.settings import Settings
from tests.cli_run import run_cli
from tests.npm_install import installed_copy
from workers.agent.scripting.step_book import _FUNCTION_WORDS
from workers.agent.verify.node_runtime import ensure_runtime
from workers.agent.verify.replay import cucumber_command

from .conftest import EXAMPLES, Generation

pytestmark = pytest.mark.e2e


def generate_with_registry(base_url: str, work: Path, database: Path, reset_command: str,
                           only: tuple[str, ...]) -> Generation:
    suite, artifacts = work / "suite", work / "artifacts"
    work.mkdir(parents=True, exist_ok=True)
    env = dict(os.environ, STEPFORGE_DATABASE_URL=f"sqlite:///{database}")
    done = run_cli(["generate", str(EXAMPLES), "--base-url", base_url, "--out", str(suite), "--reset-command",
                    reset_command, "--only", ",".join(only)], cwd=work.parent, env=env, timeout=1500)
    return Generation(done.returncode, suite, artifacts, artifacts / "report.json")


def suite_texts(suite: Path) -> dict[str, bytes]:
    files = sorted(suite.glob("features/**/*.feature")) + [suite / "features/step_definitions/steps.js"]
    return {str(path.relative_to(suite)): path.read_bytes() for path in files}


def step_lines(feature: str) -> list[str]:
    return [line.strip() for line in feature.splitlines()
            if re.match(r"\s+(Given|When|Then|And|But) ", line)]


def assert_no_record_data_in_step_texts(suite: Path, scenarios: list[Scenario]) -> None:
    """No step text holds, outside its <placeholders>, a value of an Examples row (a record's data)."""
    for path in suite.glob("features/*.feature"):
        text = path.read_text()
        for block in re.split(r"\n(?=  @)", text):
            lines = step_lines(block)
            rows = [line for line in block.splitlines() if line.strip().startswith("|")]
            cells = {cell.strip() for row in rows[1:] for cell in row.strip().strip("|").split("|")}
            for line in lines:
                literal = re.sub(r'"<[^>]*>"', '""', line)
                held = [cell for cell in cells
                        if len(cell) >= 4 and re.search(rf"(?<!\w){re.escape(cell)}(?!\w)", literal)]
                assert not held, f"{path.name}: {line!r} holds the record data {held}"


def assert_tester_words_kept(suite: Path, scenarios: list[Scenario]) -> None:
    """Every word a tester used for a target appears in the feature file (a step's text or a comment above it)."""
    feature = "\n".join(path.read_text() for path in suite.glob("features/*.feature")).lower()
    words = set(re.findall(r"[a-z0-9]+", feature))
    for scenario in scenarios:
        for step in scenario.steps:
            said = re.findall(r"[a-z0-9]+", re.sub(r"<[^>]*>", " ", step.action.lower()))
            missing = [w for w in said if w not in words and w not in _FUNCTION_WORDS]
            assert not missing, f"{scenario.id}: {step.action!r} lost {missing}"


# Scenarios with and without Examples rows (OWN-12 has two), one opening a page of its own.
TWICE = ("OWN-1", "OWN-4", "OWN-12", "VET-20")


def test_two_generations_give_byte_identical_suites(petclinic, reset_command, tmp_path):
    database = tmp_path / "registry.db"
    first = generate_with_registry(petclinic, tmp_path / "first", database, reset_command, TWICE)  # empty registry
    second = generate_with_registry(petclinic, tmp_path / "second", database, reset_command, TWICE)  # the first's steps
    assert first.exit_code == second.exit_code == 0
    assert suite_texts(first.suite) == suite_texts(second.suite)
    assert list(suite_texts(first.suite)) == ["features/petclinic.feature", "features/step_definitions/steps.js"]
    # Artifacts lie beside the suite (<out>/../artifacts), not in the folder the command ran from.
    assert first.report.is_file() and second.report.is_file() and not (tmp_path / "artifacts").exists()
    report = json.loads(second.report.read_text())
    summary = report["summary"]  # the second took every step from the registry: the same texts, the same code
    assert summary["reused_from_registry"] == summary["step_definitions"] > 0 and summary["registered"] == 0, summary


def test_the_feature_keeps_the_tester_s_words_and_no_record_data_in_its_steps(examples_run):
    suite = examples_run.suite
    feature = (suite / "features/petclinic.feature").read_text()
    assert feature.startswith("Feature: Petclinic\n\n  Background:\n    Given Open the page \"/\"\n")
    assert "(variant" not in feature and "@OWN-1\n" in feature
    scenarios = load_scenarios(EXAMPLES).scenarios
    assert_no_record_data_in_step_texts(suite, scenarios)
    assert_tester_words_kept(suite, scenarios)
    steps = (suite / "features/step_definitions/steps.js").read_text()
    assert " section" not in "".join(line for line in steps.splitlines() if line.strip().startswith("//"))


def test_a_failed_step_leaves_a_screenshot_a_trace_and_an_html_report(examples_run, petclinic, tmp_path):
    suite = tmp_path / "suite"
    shutil.copytree(examples_run.suite, suite, ignore=shutil.ignore_patterns("node_modules", "reports"))
    steps = suite / "features/step_definitions/steps.js"
    broken = steps.read_text().replace('{ name: "Find owners", exact: true }', '{ name: "Find our owners", exact: true }')
    assert broken != steps.read_text()
    steps.write_text(broken)
    settings = Settings()
    cli, extra = cucumber_command(suite, ensure_runtime(settings))
    env = dict(os.environ, **extra, STEPFORGE_BASE_URL=petclinic, STEPFORGE_BROWSER_PATH=settings.browser_path,
               STEPFORGE_ACTION_TIMEOUT_MS="1500", NO_COLOR="1")
    env.pop("STEPFORGE_TRACE", None)
    done = subprocess.run([str(cli), "--tags", "@OWN-1"], cwd=suite, env=env, capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 1, done.stdout + done.stderr
    reports = suite / "reports"
    html = (reports / "cucumber.html").read_text()
    assert 'Click \\"Find owners\\"' in html or 'Click "Find owners"' in html
    assert "image/png" in html  # the screenshot is attached to the failed scenario
    assert (reports / "screenshots/OWN-1.png").read_bytes().startswith(b"\x89PNG")
    with zipfile.ZipFile(reports / "traces/OWN-1.zip") as trace:
        assert any(name.endswith(".trace") for name in trace.namelist())
    assert "<failure" in (reports / "junit.xml").read_text()
    assert "features/petclinic.feature:" in (suite / "@rerun.txt").read_text()


def run_without_browser(suite: Path, env: dict[str, str], wrap: list[str]) -> subprocess.CompletedProcess:
    cli, extra = cucumber_command(suite, ensure_runtime(Settings()))
    return subprocess.run([*wrap, str(cli), "--tags", "@OWN-1"], cwd=suite, env=dict(env, **extra),
                          capture_output=True, text=True, timeout=300)


def test_no_browser_found_says_how_to_get_one(examples_run, petclinic, tmp_path):
    suite = tmp_path / "suite"
    shutil.copytree(examples_run.suite, suite, ignore=shutil.ignore_patterns("node_modules", "reports"))
    env = dict(os.environ, STEPFORGE_BASE_URL=petclinic, NO_COLOR="1", PLAYWRIGHT_BROWSERS_PATH=str(tmp_path / "none"))
    env["STEPFORGE_BROWSER_PATH"] = str(tmp_path / "no-such-chromium")
    done = run_without_browser(suite, env, [])
    assert done.returncode == 1
    assert f"STEPFORGE_BROWSER_PATH is {tmp_path / 'no-such-chromium'}, which does not exist or is not an executable file" in done.stdout + done.stderr
    # A machine with neither Playwright's own Chromium nor a system one: /usr/bin/chromium hidden in a mount
    # namespace of the run's own.
    env.pop("STEPFORGE_BROWSER_PATH")
    hide = ["unshare", "-m", "--propagation", "private", "sh", "-c",
            'for b in /usr/bin/chromium /usr/bin/chromium-browser /usr/bin/google-chrome; do '
            '[ -e "$b" ] && mount --bind /dev/null "$b"; done; exec "$@"', "hide"]
    if subprocess.run([*hide, "true"], capture_output=True).returncode != 0:
        pytest.skip("cannot hide the system browser here (no mount namespace)")
    done = run_without_browser(suite, env, hide)
    assert done.returncode == 1
    assert "no Chromium found: install Playwright's own (npx playwright-core install chromium)" in done.stdout + done.stderr


# Every operation kind of the demo (press, select, a date, check and uncheck) and a Scenario Outline of two rows.
BDD_SCENARIOS = ("OWN-1", "OWN-4", "OWN-12", "PET-14", "VIS-18", "VET-20")


def test_a_playwright_bdd_suite_is_verified_and_runs_with_playwright_s_runner(petclinic, reset_command, tmp_path):
    work = tmp_path / "bdd"
    work.mkdir()
    env = dict(os.environ, STEPFORGE_DATABASE_URL=f"sqlite:///{tmp_path / 'registry.db'}")
    done = run_cli(["generate", str(EXAMPLES), "--base-url", petclinic, "--out", "suite", "--reset-command",
                    reset_command, "--format", "playwright-bdd", "--only", ",".join(BDD_SCENARIOS)], cwd=work, env=env,
                   timeout=900)
    assert done.returncode == 0
    suite = work / "suite"
    assert sorted(p.name for p in suite.iterdir()) == [".gitignore", ".stepforge", ".stepforge-suite", "README.md",
                                                       "features", "package.json", "playwright.config.js", "steps"]
    assert "defineBddConfig" in (suite / "playwright.config.js").read_text()
    assert (suite / "steps/steps.js").read_text().startswith('const { Given, When, Then } = require("./fixtures");')
    assert "createBdd(test, { worldFixture: \"world\" })" in (suite / "steps/fixtures.js").read_text()

    # As a team on Playwright Test runs it: its own install, bddgen, Playwright's runner, Debian's Chromium.
    copy = installed_copy(suite, tmp_path)
    run_env = dict(os.environ, STEPFORGE_BASE_URL=petclinic, STEPFORGE_RESET_COMMAND=reset_command, NO_COLOR="1")
    ran = subprocess.run("npx bddgen && npx playwright test", shell=True, cwd=copy, env=run_env,
                         capture_output=True, text=True, timeout=900)
    assert ran.returncode == 0, ran.stdout + ran.stderr
    assert f"{len(BDD_SCENARIOS) + 1} passed" in ran.stdout  # OWN-12 has two Examples rows
    assert (copy / "reports/html/index.html").is_file() and (copy / "reports/junit.xml").is_file()

    # A broken step: the verification names the step, as for cucumber-js, and the others stay green.
    from workers.agent.verify.bdd_replay import replay_playwright_bdd

    steps = copy / "steps/steps.js"
    steps.write_text(steps.read_text().replace('{ name: "Find owners", exact: true }',
                                               '{ name: "Find our owners", exact: true }'))
    settings = Settings(action_timeout_ms=1500)
    results = replay_playwright_bdd(copy, ["OWN-1", "OWN-4"], petclinic, settings, reset_command)
    assert not results["OWN-1"].passed and results["OWN-1"].failed_step == 'When Click "Find owners"'
    assert "Find our owners" in (results["OWN-1"].error or "")
    assert results["OWN-4"].passed


def test_a_scenario_red_under_playwright_s_runner_fails_and_is_left_out(petclinic, reset_command, tmp_path):
    # Green under cucumber-js, red under Playwright's runner: a whole-test time limit of 1 ms there.
    env = dict(os.environ, STEPFORGE_DATABASE_URL=f"sqlite:///{tmp_path / 'registry.db'}",
               STEPFORGE_TEST_TIMEOUT_MS="1")
    done = run_cli(["generate", str(EXAMPLES), "--base-url", petclinic, "--out", "suite", "--reset-command",
                    reset_command, "--format", "playwright-bdd", "--only", "VET-20"], cwd=tmp_path, env=env,
                   timeout=900)
    assert done.returncode == 1
    report = json.loads((tmp_path / "artifacts/report.json").read_text())
    vet = report["scenarios"]["VET-20"]
    assert vet["verdict"] == "failed" and "the playwright-bdd suite failed its replay" in vet["reason"]
    assert "@VET-20" not in "".join(p.read_text() for p in (tmp_path / "suite/features").glob("*.feature"))


def test_with_only_playwright_s_own_chromium_the_suite_runs(examples_run, petclinic, reset_command, tmp_path):
    """No system browser, no STEPFORGE_BROWSER_PATH: the suite launches the Chromium where playwright-core keeps its
    own (PLAYWRIGHT_BROWSERS_PATH). Its download needs the internet, so Debian's binary stands in at that place."""
    suite = tmp_path / "suite"
    shutil.copytree(examples_run.suite, suite, ignore=shutil.ignore_patterns("node_modules", "reports"))
    node_modules = ensure_runtime(Settings())
    browsers = tmp_path / "ms-playwright"
    env = dict(os.environ, STEPFORGE_BASE_URL=petclinic, STEPFORGE_RESET_COMMAND=reset_command, NO_COLOR="1",
               PLAYWRIGHT_BROWSERS_PATH=str(browsers), NODE_PATH=str(node_modules))
    env.pop("STEPFORGE_BROWSER_PATH", None)
    own = subprocess.run(["node", "-e", 'console.log(require("playwright-core").chromium.executablePath())'],
                         env=env, capture_output=True, text=True, check=True).stdout.strip()
    assert own.startswith(str(browsers))
    Path(own).parent.mkdir(parents=True)
    Path(own).symlink_to("/usr/lib/chromium/chromium")
    hide = ["unshare", "-m", "--propagation", "private", "sh", "-c",
            'for b in /usr/bin/chromium /usr/bin/chromium-browser /usr/bin/google-chrome; do '
            '[ -e "$b" ] && mount --bind /dev/null "$b"; done; exec "$@"', "hide"]
    if subprocess.run([*hide, "true"], capture_output=True).returncode != 0:
        pytest.skip("cannot hide the system browser here (no mount namespace)")
    cli, extra = cucumber_command(suite, node_modules)
    done = subprocess.run([*hide, str(cli), "--tags", "@VET-20 or @OWN-1"], cwd=suite, env=dict(env, **extra),
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "2 scenarios (2 passed)" in done.stdout
