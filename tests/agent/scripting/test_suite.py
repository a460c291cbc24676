from __future__ import annotations

import importlib.metadata
import json
from pathlib import Path

from shared.settings import CHROMIUM_ARGS
from workers.agent.scripting.suite import write_suite


def test_write_suite_lays_out_a_cucumber_project(tmp_path: Path) -> None:
    feature = write_suite(tmp_path, "Owner Search", "Feature: x\n", "// steps\n")
    assert feature == tmp_path / "features" / "owner-search.feature"
    assert feature.read_text() == "Feature: x\n"
    assert (tmp_path / "features/step_definitions/steps.js").read_text() == "// steps\n"
    package = json.loads((tmp_path / "package.json").read_text())
    major, minor = importlib.metadata.version("playwright").split(".")[:2]
    assert package["name"] == "owner-search" and package["private"] is True
    assert package["scripts"] == {"test": "cucumber-js"}
    assert package["devDependencies"] == {"@cucumber/cucumber": "^12.9.0", "playwright-core": f"~{major}.{minor}.0"}
    config = (tmp_path / "cucumber.js").read_text()
    assert 'paths: ["features/**/*.feature"]' in config and '"json:reports/cucumber.json"' in config
    world = (tmp_path / "features/support/world.js").read_text() + (tmp_path / "features/support/stepforge.js").read_text()
    for needle in ("STEPFORGE_BROWSER_PATH", "STEPFORGE_BASE_URL", "STEPFORGE_RESET_COMMAND", "STEPFORGE_HEADED",
                   "setDefaultTimeout(30000)", "--no-sandbox", "expectText", "expectValue", "exec(RESET_COMMAND",
                   "STEPFORGE_VIEWPORT_WIDTH", "STEPFORGE_VIEWPORT_HEIGHT", "url(path)", "dialog.accept()"):
        assert needle in world
    assert "__CHROMIUM_ARGS__" not in world
    assert all(f'"{flag}"' in world for flag in CHROMIUM_ARGS)  # the generation's own launch flags
    readme = (tmp_path / "README.md").read_text()
    assert readme.startswith("# Owner Search\n") and "npm install" in readme and "STEPFORGE_BASE_URL" in readme


def test_the_suite_finds_the_definition_and_locators_behind_a_failing_step() -> None:
    from shared.records import RunRecord
    from tests.agent.scripting.example import FIND_AT, RUNS
    from workers.agent.scripting.build import build_suite

    suite = build_suite([(s, RunRecord(scenario_id=s.id, title=s.title, base_url="http://app", operations=ops))
                         for s, ops in RUNS])
    search = 'When Enter "Coleman" in the Last name field and click "Find Owner"'
    assert suite.step_definition(search).pattern.startswith("Enter {string}")
    assert suite.step_locators(search)[-1] == FIND_AT
    assert suite.step_definition('Then the page shows "x"').ops[0].kind == "assert_text"
    assert suite.step_definition("Before hook") is None and suite.step_locators("Before hook") == []


def test_a_suite_written_with_a_base_url_carries_it_as_its_default(tmp_path: Path) -> None:
    write_suite(tmp_path / "plain", "Owners", "Feature: x\n", "// steps\n")
    assert not (tmp_path / "plain" / "stepforge.json").exists()  # the CLI's suites: STEPFORGE_BASE_URL as before
    write_suite(tmp_path / "known", "Owners", "Feature: x\n", "// steps\n", base_url="http://127.0.0.1:8080")
    assert json.loads((tmp_path / "known" / "stepforge.json").read_text()) == {"base_url": "http://127.0.0.1:8080"}
    world = (tmp_path / "known" / "features/support/stepforge.js").read_text()
    assert 'process.env.STEPFORGE_BASE_URL || DEFAULTS.base_url' in world and '"stepforge.json"' in world


def test_a_suite_written_again_from_its_own_files_folder_keeps_its_files(tmp_path):
    """`stepforge regenerate` and `accept` write a suite again with the files it ships (suite/files/)."""
    source = tmp_path / "given"
    source.mkdir()
    (source / "notes.txt").write_text("notes")
    out = tmp_path / "suite"
    write_suite(out, "t", "Feature: t\n", "// steps\n", files_dir=source)
    write_suite(out, "t", "Feature: t\n", "// steps\n", files_dir=out / "files")  # the very same files
    assert (out / "files" / "notes.txt").read_text() == "notes"
