"""A suite folder's verified scripts: written beside the suite, read back in natural order, refused clearly."""

from __future__ import annotations

from pathlib import Path

import pytest

from shared.records import RunRecord
from shared.scenarios import Scenario, natural_key
from shared.triage import VerifiedScript
from workers.agent.scripting.verified import (
    RECORDS_DIR,
    NoVerifiedScripts,
    read_feature,
    read_verified,
    write_verified,
)


def script(scenario_id: str) -> VerifiedScript:
    return VerifiedScript(scenario=Scenario(id=scenario_id, title="t", steps=["Go to /"]),
                          record=RunRecord(scenario_id=scenario_id, title="t", base_url="http://app"))


def test_ids_sort_naturally() -> None:
    assert sorted(["OWN-10", "OWN-2", "PET-1", "own-3", "OWN-2a"], key=natural_key) == [
        "OWN-2", "OWN-2a", "own-3", "OWN-10", "PET-1"]


def test_written_scripts_come_back_in_natural_order_and_replace_the_old_ones(tmp_path: Path) -> None:
    write_verified(tmp_path, [script("OWN-10"), script("OWN-2"), script("GONE-1")], "Owners")
    write_verified(tmp_path, [script("OWN-10"), script("OWN-2")], "Owners")
    assert [s.scenario.id for s in read_verified(tmp_path)] == ["OWN-2", "OWN-10"]
    assert read_feature(tmp_path, "default") == "Owners"
    assert not (tmp_path / ".stepforge" / "records.new").exists()


def test_a_folder_without_scripts_or_with_a_foreign_file_is_refused_by_name(tmp_path: Path) -> None:
    with pytest.raises(NoVerifiedScripts, match="written by `stepforge generate`"):
        read_verified(tmp_path)
    (tmp_path / RECORDS_DIR).mkdir(parents=True)
    with pytest.raises(NoVerifiedScripts, match="no scenario of the suite passed"):
        read_verified(tmp_path)
    (tmp_path / RECORDS_DIR / "X.json").write_text('{"scenario": 1}')
    with pytest.raises(NoVerifiedScripts, match="X.json is not a verified script"):
        read_verified(tmp_path)
    assert read_feature(tmp_path, "default") == "default"


def test_a_write_cut_short_leaves_the_scripts_before_it_to_read(tmp_path: Path) -> None:
    write_verified(tmp_path, [script("OWN-1")], "Owners")
    folder = tmp_path / RECORDS_DIR
    folder.rename(folder.with_name("records.old"))  # where a crash between the two renames leaves them
    assert [s.scenario.id for s in read_verified(tmp_path)] == ["OWN-1"]
    write_verified(tmp_path, [script("OWN-2")], "Owners")
    assert [s.scenario.id for s in read_verified(tmp_path)] == ["OWN-2"]
    assert not folder.with_name("records.old").exists()
