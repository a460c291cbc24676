"""The whole job for a scenarios file: generate each scenario, write the suite, replay it, decide verdicts.

    generate (scenario_run) -> script (scripting) -> verify (replay) -> red? generate again, at most
    settings.max_attempts attempts in all -> the suite holds exactly the scenarios whose replay passed.
"""

from __future__ import annotations

import json
import shutil
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from shared.artifacts import ArtifactStore, put_model
from shared.records import ReplayResult, RunRecord, Verdict
from shared.scenarios import Scenario, ScenarioFile
from shared.settings import Settings
from workers.agent.brains.builtin import BuiltinBrain
from workers.agent.execution.browser import BrowserSession
from workers.agent.scenario_run import attempt_prefix, run_scenario
from workers.agent.scripting.build import Suite, build_suite
from workers.agent.verify.replay import replay_scenarios


@dataclass
class PipelineEvents:
    on_phase: Callable[[str], None] = lambda text: None
    on_scenario: Callable[[str, int], None] = lambda scenario_id, attempt: None
    on_done: Callable[[str], None] = lambda scenario_id: None


@dataclass
class Outcome:
    scenario: Scenario
    record: RunRecord
    verdict: Verdict
    attempts: int
    replay: ReplayResult | None = None
    operations: int = 0  # operations kept in the script (the seed's table 1 "operations")
    steps: int = 0  # Gherkin steps between the opening Given and the assertions
    seconds: float = 0.0


@dataclass
class SuiteResult:
    base_url: str
    outcomes: list[Outcome]
    suite: Suite | None
    suite_replay: dict[str, ReplayResult] = field(default_factory=dict)

    @property
    def all_passed(self) -> bool:
        return all(o.verdict.status == "passed" for o in self.outcomes)

    def totals(self) -> dict[str, int]:
        passed = [o for o in self.outcomes if o.verdict.status == "passed"]
        return {
            "scenarios": len(self.outcomes),
            "passed": len(passed),
            "failed": len(self.outcomes) - len(passed),
            "operations": sum(o.operations for o in passed),
            "steps": sum(o.steps for o in passed),
            "ops_in_code": self.suite.operations_in_code if self.suite else 0,
        }

    def report(self) -> dict:
        return {
            "base_url": self.base_url,
            "summary": self.totals(),
            "scenarios": {
                o.scenario.id: {
                    "title": o.scenario.title,
                    "verdict": o.verdict.status,
                    "failed_step": o.verdict.step,
                    "failure_kind": o.verdict.kind,
                    "reason": o.verdict.reason,
                    "attempts": o.attempts,
                    "operations": o.operations,
                    "steps": o.steps,
                    "seconds": round(o.seconds, 2),
                    "generation_ms": o.record.timings_ms.get("generation"),
                    "replay_seconds": o.replay.seconds if o.replay else None,
                    "artifacts": attempt_prefix(o.scenario.id, o.attempts),
                }
                for o in self.outcomes
            },
        }

    def report_json(self) -> str:
        return json.dumps(self.report(), indent=2) + "\n"


def generate_suite(
    scenario_file: ScenarioFile,
    *,
    base_url: str,
    out_dir: Path,
    settings: Settings,
    store: ArtifactStore,
    reset_command: str | None = None,
    events: PipelineEvents | None = None,
) -> SuiteResult:
    events = events or PipelineEvents()
    scenarios = scenario_file.scenarios
    records: dict[str, RunRecord] = {}
    seconds: dict[str, float] = {s.id: 0.0 for s in scenarios}
    replays: dict[str, ReplayResult] = {}
    avoid: dict[str, dict[str, list[str]]] = {s.id: {} for s in scenarios}
    pending = list(scenarios)
    with BrowserSession(settings) as session:
        for attempt in range(1, settings.max_attempts + 1):
            for scenario in pending:
                events.on_scenario(scenario.id, attempt)
                started = time.perf_counter()
                records[scenario.id] = run_scenario(
                    scenario, BuiltinBrain(row=scenario.first_row()), session, base_url=base_url,
                    settings=settings, store=store, attempt=attempt, reset_command=reset_command,
                    avoid=avoid[scenario.id],
                )
                seconds[scenario.id] += time.perf_counter() - started
            to_verify = [s for s in pending if _generated(records[s.id])]
            for scenario in pending:
                if scenario not in to_verify:
                    events.on_done(scenario.id)  # failed in generation: final, a retry would fail the same way
            if not to_verify:
                break
            events.on_phase(f"replaying {len(to_verify)} scenario(s)")
            suite = _write(out_dir, scenarios, records, lambda s: _generated(records[s.id]))
            results = replay_scenarios(out_dir, [s.id for s in to_verify], base_url, settings, reset_command)
            pending = []
            for scenario in to_verify:
                result = results[scenario.id]
                replays[scenario.id] = result
                records[scenario.id].replay = result
                seconds[scenario.id] += result.seconds
                put_model(store, f"{attempt_prefix(scenario.id, attempt)}/replay.json", result)
                put_model(store, f"{attempt_prefix(scenario.id, attempt)}/run.json", records[scenario.id])
                if result.passed or attempt == settings.max_attempts:
                    events.on_done(scenario.id)
                else:
                    learn_from_replay(avoid[scenario.id], records[scenario.id], suite, result)
                    pending.append(scenario)
            if not pending:
                break

    verified = {s.id for s in scenarios if _generated(records[s.id]) and replays.get(s.id, _RED).passed}
    events.on_phase("writing the suite")
    suite = _write(out_dir, scenarios, records, lambda s: s.id in verified)
    outcomes = []
    for scenario in scenarios:
        record = records[scenario.id]
        verdict = record.verdict or Verdict.failed(None, "error", "not generated")
        replay = replays.get(scenario.id)
        if verdict.status == "passed" and scenario.id not in verified:
            verdict = _replay_verdict(replay)
        record.verdict = verdict
        put_model(store, f"{attempt_prefix(scenario.id, record.attempt)}/run.json", record)
        counts = suite.counts.get(scenario.id) if suite else None
        outcomes.append(
            Outcome(
                scenario=scenario, record=record, verdict=verdict, attempts=record.attempt, replay=replay,
                operations=counts.operations if counts else 0, steps=counts.steps if counts else 0,
                seconds=seconds[scenario.id],
            )
        )
    return SuiteResult(base_url=base_url, outcomes=outcomes, suite=suite if verified else None)


_RED = ReplayResult(passed=False, error="not replayed")


def learn_from_replay(avoid: dict[str, list[str]], record: RunRecord, suite: Suite, replay: ReplayResult) -> None:
    """The next attempt does not use, for the operations of the step that failed, the locator strategy it used."""
    failed = suite.step_locators(replay.failed_step) if replay.failed_step else []
    for operation in record.operations:
        if operation.locator is not None and operation.locator in failed:
            strategies = avoid.setdefault(operation.description, [])
            if operation.locator.strategy not in strategies:
                strategies.append(operation.locator.strategy)


def _generated(record: RunRecord) -> bool:
    return record.verdict is not None and record.verdict.status == "passed"


def _replay_verdict(replay: ReplayResult | None) -> Verdict:
    replay = replay or _RED
    step = f" at {replay.failed_step!r}" if replay.failed_step else ""
    kind = "expectation" if (replay.failed_step or "").startswith("Then") else "action"
    return Verdict.failed(None, kind, f"the generated script failed its replay{step}: {replay.error or 'unknown error'}")


def _write(out_dir: Path, scenarios: list[Scenario], records: dict[str, RunRecord],
           include: Callable[[Scenario], bool]) -> Suite:
    chosen = [(s, records[s.id]) for s in scenarios if include(s)]
    suite = build_suite(chosen)
    features = out_dir / "features"
    if features.exists():
        shutil.rmtree(features)  # a scenario dropped since the last write must not linger
    suite.write(out_dir)
    return suite
