"""The CLI's summary: one line per scenario whatever its reason, and a clock that runs to the end."""

from __future__ import annotations

import io
import time
from pathlib import Path

from rich.console import Console
from rich.progress import Progress

from shared.records import RunRecord, Verdict
from shared.scenarios import Scenario
from workers.agent.pipeline import GenerationResult, Outcome
from workers.cli.common import ClockColumn, one_line
from workers.cli.generate import print_summary

CALL_LOG = ("the generated script failed its replay at 'When Click \"Save\"': TimeoutError: locator.click: "
            "Timeout 10000ms exceeded.\nCall log:\n  - waiting for getByRole('button', { name: 'Save' })\n"
            + "  - retrying click action\n" * 30)


def outcome(sid: str, verdict: Verdict) -> Outcome:
    scenario = Scenario(id=sid, title=f"Scenario {sid}", steps=["Click Save"])
    return Outcome(scenario=scenario, record=RunRecord(scenario_id=sid, title=sid, base_url="http://app"),
                   verdict=verdict, attempts=1)


def test_the_summary_shows_one_line_per_scenario(tmp_path: Path) -> None:
    result = GenerationResult(base_url="http://app", suite=None, outcomes=[
        outcome("OWN-1", Verdict(status="passed")),
        outcome("OWN-2", Verdict.failed(3, "action", CALL_LOG)),
        outcome("A-VERY-LONG-SCENARIO-ID-17", Verdict.failed(None, "error", "x" * 500)),
    ])
    out = io.StringIO()
    print_summary(Console(file=out, width=80, soft_wrap=True), result, tmp_path / "suite", tmp_path / "artifacts",
                  tmp_path / "artifacts/report.json")
    rows = [line for line in out.getvalue().splitlines() if line.startswith("│")]
    assert len(rows) == 3, out.getvalue()
    assert "A-VERY-LONG-SCENARIO-ID-17" in rows[2] and "failed at step 3" in rows[1]
    assert rows[0].split("│")[3:] == ["          0 ", "     0 ", "     0.0 ", ""]  # the counts keep their columns
    assert "Call log" not in out.getvalue()


def test_a_reason_is_cut_to_its_first_line() -> None:
    assert one_line(CALL_LOG).startswith("the generated script failed its replay at 'When Click \"Save\"'")
    assert "\n" not in one_line(CALL_LOG) and len(one_line(CALL_LOG)) <= 120


def test_the_clock_keeps_running_after_the_last_scenario_is_counted() -> None:
    clock = ClockColumn()
    clock.started -= 65  # the run began 65 s ago
    with Progress(clock, console=Console(file=io.StringIO())) as bar:
        task = bar.add_task("generating", total=1)
        bar.update(task, completed=1)  # every scenario counted; the final replays still run
        first = clock.render(bar.tasks[0]).plain
        clock.started -= 2
        assert first == "0:01:05" and clock.render(bar.tasks[0]).plain == "0:01:07"
    assert time.monotonic() - clock.started >= 67
