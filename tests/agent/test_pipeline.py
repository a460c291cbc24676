"""The pipeline keeps going when one scenario breaks unexpectedly, and loses nothing."""

from __future__ import annotations

import json

from shared.artifacts.local import LocalArtifactStore
from shared.records import RunRecord, Verdict
from shared.scenarios import parse_scenarios
from shared.settings import Settings
from workers.agent import pipeline


def test_an_unexpected_error_in_one_scenario_is_its_verdict_not_the_end(tmp_path, monkeypatch):
    scenarios = parse_scenarios(
        "scenarios: [{id: BOOM, title: t, steps: [Click X]}, {id: NEXT, title: u, steps: [Click Y]}]", "s.yaml"
    )

    def run_scenario(scenario, *args, **kwargs):
        if scenario.id == "BOOM":
            raise KeyError("a defect")
        record = RunRecord(scenario_id=scenario.id, title=scenario.title, base_url="http://h")
        record.verdict = Verdict.failed(1, "action", "no element matches 'Y'")
        return record

    monkeypatch.setattr(pipeline, "run_scenario", run_scenario)
    store = LocalArtifactStore(tmp_path / "artifacts")
    result = pipeline.generate_suite(scenarios, base_url="http://h", out_dir=tmp_path / "suite",
                                     settings=Settings(), store=store)
    boom, following = result.outcomes
    assert (boom.verdict.status, boom.verdict.kind) == ("failed", "error")
    assert boom.verdict.reason == "internal error (KeyError: 'a defect'); details in BOOM/attempt-1/error.txt"
    assert "KeyError: 'a defect'" in (tmp_path / "artifacts/BOOM/attempt-1/error.txt").read_text()
    assert json.loads((tmp_path / "artifacts/BOOM/attempt-1/run.json").read_text())["verdict"]["kind"] == "error"
    assert following.verdict.reason == "no element matches 'Y'"
    assert (tmp_path / "suite/.stepforge-suite").exists()
    assert not list(tmp_path.glob(".stepforge-staging-*"))  # the staging folder is gone


def test_a_stopped_run_ends_the_pipeline_instead_of_becoming_a_scenario_verdict(tmp_path, monkeypatch):
    """RunStopped (the job was taken over, or its time is up) ends the whole run: no error verdict is recorded for
    the scenario it interrupted, and the next scenario does not start."""
    import pytest

    scenarios = parse_scenarios(
        "scenarios: [{id: FIRST, title: t, steps: [Click X]}, {id: NEXT, title: u, steps: [Click Y]}]", "s.yaml"
    )
    started = []

    def run_scenario(scenario, *args, **kwargs):
        started.append(scenario.id)
        raise pipeline.RunStopped("time is up")

    monkeypatch.setattr(pipeline, "run_scenario", run_scenario)
    store = LocalArtifactStore(tmp_path / "artifacts")
    with pytest.raises(pipeline.RunStopped, match="time is up"):
        pipeline.generate_suite(scenarios, base_url="http://h", out_dir=tmp_path / "suite", settings=Settings(),
                                store=store)
    assert started == ["FIRST"]
    assert not (tmp_path / "artifacts/FIRST/attempt-1/error.txt").exists()
