"""A small part of the corpus in the e2e tier: one application written by others (Datasette, installed from PyPI by
its own install script into the corpus cache), started, reset and scored exactly as `python -m bench.corpus` does."""

from __future__ import annotations

import pytest

from bench.corpus.__main__ import RunningApp, install, load_half, run_half
from shared.settings import Settings
from tests.agent.pages_site import in_thread

pytestmark = pytest.mark.e2e

CHOSEN = ("DS-7", "DS-F2")  # a passing scenario and its failing variant (the team is not "Platform")
# What is held here is the benchmark's plumbing and scoring; a step that leaves words of its sentence unused is recorded
# (the "partial" figure) instead of failed, as the benchmark's own figures under the product's default show it
READ_IN_PART = Settings(partial_readings="report")


def test_a_corpus_application_is_installed_started_generated_and_scored(tmp_path):
    install("datasette", tmp_path / "install.log")
    scenario_file, expectations = load_half("datasette", "dev")
    chosen = scenario_file.model_copy(update={"scenarios": [s for s in scenario_file.scenarios if s.id in CHOSEN]})
    running = RunningApp("datasette", tmp_path / "server.log")
    try:
        running.wait_ready()
        # In a thread of its own: the test session's sync Playwright may hold this one.
        results = {r.scenario_id: r for r in
                   in_thread(lambda: run_half(running, chosen, expectations, READ_IN_PART, tmp_path / "work"))}
    finally:
        running.stop()
    assert running.process.poll() is not None  # its process group is gone
    assert set(results) == set(CHOSEN)
    variant = results["DS-F2"]
    # The failing variant never passes, and it fails at the step the scenario file names.
    assert variant.status == "failed" and variant.step == variant.expectation.fails_at, variant.explain()
    assert variant.right()
    # The passing scenario gets a verdict with a reason; a pass is replayed green by the suite.
    passing = results["DS-7"]
    assert passing.status in ("passed", "failed") and (passing.status == "passed" or passing.reason)
    assert passing.replay_green is (True if passing.status == "passed" else None)
