"""`stepforge import`: an export in, a scenarios file out that `stepforge generate` takes; bad input is one line
naming the file and its line, and nothing is written."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from shared.scenarios import load_scenarios
from tests.importers.test_exports import DEMO, EXPORTS, csv_export
from workers.cli.main import main


@dataclass
class Done:
    returncode: int
    stderr: str


@pytest.fixture
def stepforge(capsys, monkeypatch):
    def run(*args: str, cwd) -> Done:
        monkeypatch.chdir(cwd)
        code = main(list(args))
        return Done(code, " ".join(capsys.readouterr().err.split()))
    return run


def test_an_export_becomes_a_scenarios_file_generate_takes(tmp_path, stepforge):
    done = stepforge("import", str(EXPORTS / "petclinic-xray.csv"), "-o", "cases/scenarios.yaml", "--base-url",
                     "http://127.0.0.1:8080", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "imported 13 cases (xray-csv)" in done.stderr
    written = load_scenarios(tmp_path / "cases" / "scenarios.yaml")
    assert written.base_url == "http://127.0.0.1:8080"
    assert [s.title for s in written.scenarios] == [s.title for s in DEMO.scenarios]
    assert written.scenarios[0].id == "PC-1" and written.scenarios[0].feature == "Owners > Find owners"


def test_skipped_cases_are_listed_and_the_exit_status_says_some_were(tmp_path, stepforge):
    (tmp_path / "cases.csv").write_text(csv_export([["C1", "ok", "S", "", "Open /", ""], ["C2", "none", "S", "", "",
                                                                                          ""]]), encoding="utf-8")
    done = stepforge("import", "cases.csv", "--from", "testrail", cwd=tmp_path)
    assert done.returncode == 1, done.stderr
    assert "skipped C2 (line 3): has no steps" in done.stderr and "1 skipped" in done.stderr
    assert [s.id for s in load_scenarios(tmp_path / "scenarios.yaml").scenarios] == ["C1"]


def test_a_malformed_export_is_one_line_naming_its_line_and_writes_nothing(tmp_path, stepforge):
    (tmp_path / "cases.csv").write_text('"ID","Title","Steps (Step)"\n"C1","a","Open /"\n"C2","b,"Open /"\n',
                                        encoding="utf-8")
    done = stepforge("import", "cases.csv", cwd=tmp_path)
    assert done.returncode == 2 and "cases.csv: line 3" in done.stderr and "Traceback" not in done.stderr, done.stderr
    assert not (tmp_path / "scenarios.yaml").exists()
    missing = stepforge("import", "nothing.json", cwd=tmp_path)
    assert missing.returncode == 2 and "nothing.json: cannot read" in missing.stderr, missing.stderr
    wrong = stepforge("import", str(EXPORTS / "petclinic-testrail.csv"), "--from", "zephyr", cwd=tmp_path)
    assert wrong.returncode == 2 and "Zephyr Scale export is JSON" in wrong.stderr, wrong.stderr


def test_an_existing_scenarios_file_is_overwritten_only_with_force(tmp_path, stepforge):
    (tmp_path / "scenarios.yaml").write_text("# edited by hand\n", encoding="utf-8")
    done = stepforge("import", str(EXPORTS / "petclinic-xray.csv"), cwd=tmp_path)
    assert done.returncode == 2 and "-o scenarios.yaml exists; --force to overwrite it" in done.stderr, done.stderr
    assert (tmp_path / "scenarios.yaml").read_text(encoding="utf-8") == "# edited by hand\n"
    forced = stepforge("import", str(EXPORTS / "petclinic-xray.csv"), "--force", cwd=tmp_path)
    assert forced.returncode == 0, forced.stderr
    assert len(load_scenarios(tmp_path / "scenarios.yaml").scenarios) == len(DEMO.scenarios)
