"""The whole job for a scenarios file: generate each scenario, write the suite, replay it, decide verdicts.

    generate (scenario_run) -> script (scripting) -> verify (replay) -> red? generate again, at most
    settings.max_attempts attempts in all -> the final suite: a scenario verified against other text is replayed
    in it, and one red there goes back to generation while it has attempts left -> the suite holds exactly the
    scenarios whose replay passed.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import tempfile
import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from shared.artifacts import ArtifactStore, put_model
from shared.logging import log
from shared.records import Operation, ReplayResult, RunRecord, Verdict, attempt_prefix
from shared.results import CaseResult, step_texts
from shared.scenarios import Scenario, ScenarioFile
from shared.settings import Settings
from shared.step_registry import RegistryError, StepRegistry, origin_of
from shared.triage import VerifiedScript
from workers.agent.choice import Agent
from workers.agent.execution.browser import (
    BrowserCrashedError,
    BrowserSession,
    BrowserUnavailableError,
    RendererCrashedError,
)
from workers.agent.reading.coverage import VERSION as COVERAGE_VERSION
from workers.agent.scenario_run import run_scenario
from workers.agent.scripting.build import DEFAULT_FEATURE, Suite, build_suite, new_steps
from workers.agent.scripting.expressions import is_assertion_step
from workers.agent.scripting.verified import write_verified
from workers.agent.verify.bdd_replay import replay_playwright_bdd
from workers.agent.verify.node_runtime import NodeRuntimeError
from workers.agent.verify.replay import replay_scenarios

RENDERER_CRASH_RETRIES = 2  # a scenario whose renderer crashed runs again on a fresh context, this many times
SUITE_MARKER = ".stepforge-suite"  # marks a folder stepforge wrote, so --out never overwrites anything else


class RunStopped(Exception):
    """The whole run must stop now, unfinished, whatever scenario it is on: raised by whoever runs the pipeline
    (through its store's fence: another worker took the job over, the job's time is up). Never recorded as one
    scenario's error, unlike any other exception of a scenario."""


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

    def timings(self) -> dict:
        """Where its time went and what its script holds, as the report and the service's job row show it."""
        return {"operations": self.operations, "steps": self.steps, "seconds": round(self.seconds, 2),
                "generation_ms": self.record.timings_ms.get("generation"),
                "replay_seconds": self.replay.seconds if self.replay else None}


@dataclass
class GenerationResult:
    """What generating a scenarios file gave: each scenario's outcome, and the verified suite (None when no scenario
    passed), as the report (report.json) and the service's job row show them."""

    base_url: str
    outcomes: list[Outcome]
    suite: Suite | None
    project: str = "default"
    registered: int = 0  # new steps added to the registry
    registry_problem: str | None = None
    brain: str = "builtin"
    grounding: str = "text"
    model_usage: dict = field(default_factory=dict)  # the job's model calls per phase and in total

    def verified_scripts(self) -> list[VerifiedScript]:
        """The scripts of the scenarios that passed, as the suite folder keeps them."""
        return [VerifiedScript(scenario=o.scenario, record=o.record) for o in self.outcomes
                if o.verdict.status == "passed"]

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
            "step_definitions": len(self.suite.definitions) if self.suite else 0,
            "reused_from_registry": len(self.suite.reused) if self.suite else 0,
            "registered": self.registered,
        }

    def report(self) -> dict:
        return {
            "base_url": self.base_url,
            "project": self.project,
            "registry_problem": self.registry_problem,
            "brain": self.brain,
            "grounding": self.grounding,
            "model_usage": self.model_usage or None,
            "summary": self.totals(),
            "sentence_check_version": COVERAGE_VERSION,
            "scenarios": {
                o.scenario.id: {
                    "title": o.scenario.title,
                    "verdict": o.verdict.status,
                    "failed_step": o.verdict.step,
                    "failure_kind": o.verdict.kind,
                    "reason": o.verdict.reason,
                    "attempts": o.attempts,
                    **o.timings(),
                    "replays": o.replay.replays if o.replay else 0,
                    "stalled_requests": o.record.stalled_requests,
                    # each sentence as it was read: the operations done, and the words none of them used
                    "read_as": [r.model_dump(exclude={"check_version"}) for r in o.record.readings],
                    "partial_readings": sum(1 for r in o.record.readings if r.unused),
                    "model_calls": o.record.model_calls,
                    "steps_written_by": self.suite.writer_notes.get(o.scenario.id) if self.suite else None,
                    "artifacts": attempt_prefix(o.scenario.id, o.attempts),
                }
                for o in self.outcomes
            },
        }

    def report_json(self) -> str:
        return json.dumps(self.report(), indent=2) + "\n"

    def case_results(self, feature: str, artifacts: str) -> list[CaseResult]:
        """Each verdict as the results files (JUnit XML, Cucumber JSON) give it; a failure's screenshots are named
        under `artifacts` (where the run's artifacts are)."""
        results = []
        for o in self.outcomes:
            failed = o.verdict.status != "passed"
            shots = [op.screenshot for op in o.record.operations if op.screenshot and failed
                     and (o.verdict.step is None or op.step_index == o.verdict.step - 1)]
            folder = f"{artifacts.rstrip('/')}/{attempt_prefix(o.scenario.id, o.attempts)}"
            results.append(CaseResult(
                id=o.scenario.id, title=o.scenario.title, feature=o.scenario.feature or feature,
                steps=step_texts(o.scenario), passed=not failed, failed_step=o.verdict.step, kind=o.verdict.kind,
                reason=o.verdict.reason, seconds=round(o.seconds, 3), screenshots=[f"{folder}/{shot}" for shot in
                                                                                  shots[-1:]]))
        return results


def generate_scenarios(
    scenario_file: ScenarioFile,
    *,
    base_url: str,
    settings: Settings,
    store: ArtifactStore,
    reset_command: str | None = None,
    events: PipelineEvents | None = None,
    registry: StepRegistry | None = None,
    project: str = "default",
    agent: Agent | None = None,
    session: BrowserSession | None = None,
    suite_format: str = "cucumber-js",
    register_steps: bool = True,
    work_dir: Path | None = None,
) -> GenerationResult:
    """The one generation job, behind `stepforge generate` and the service's generation jobs: every scenario
    generated and verified; the result holds each outcome and the verified suite (in memory: its driver writes it
    where its user expects it). Artifacts go to `store`, replays run in a staging folder under `work_dir`.

    With a registry, steps already known for the application's origin are reused, and the verified suite's new
    steps are registered for the project (unless register_steps is False: a batch's jobs, whose suite registers
    them once built). With a session (a worker's pooled browser), the scenarios run in it and it stays open; without
    one, a browser is launched for this call and closed. With suite_format "playwright-bdd", the verified suite is
    also replayed as a Playwright Test project by Playwright's runner; a scenario red there fails and is left out.
    """
    job = GenerationJob(scenario_file.scenarios, base_url, settings, store, reset_command, events or PipelineEvents(),
                        registry, project, agent or Agent(expected_reader=settings.expected_reader),
                        feature=scenario_file.feature or DEFAULT_FEATURE,
                        suite_format=suite_format)
    with tempfile.TemporaryDirectory(prefix=".stepforge-staging-", dir=work_dir, ignore_cleanup_errors=True) as work:
        staging = Path(work) / "suite"
        with contextlib.nullcontext(session) if session is not None else BrowserSession(settings) as browser:
            suite = job.generate_and_verify(browser, staging)
    if register_steps:
        job.register(suite)
    return job.result(suite)


def generate_suite(scenario_file: ScenarioFile, *, base_url: str, out_dir: Path, settings: Settings,
                   store: ArtifactStore, suite_format: str = "cucumber-js", **options: Any) -> GenerationResult:
    """generate_scenarios, its verified suite written to out_dir (only scenarios whose replay passed) with the
    verified scripts kept beside it (.stepforge/), as `stepforge generate` leaves it. Replays run in a staging
    folder beside out_dir: a crash mid-way never leaves unverified scenarios there."""
    out_dir.parent.mkdir(parents=True, exist_ok=True)
    result = generate_scenarios(scenario_file, base_url=base_url, settings=settings, store=store,
                                suite_format=suite_format, work_dir=out_dir.parent, **options)
    feature = scenario_file.feature or DEFAULT_FEATURE
    (options.get("events") or PipelineEvents()).on_phase("writing the suite")
    suite = result.suite or build_suite([], feature=feature)
    suite.write(out_dir, files_dir=settings.files_dir, suite_format=suite_format)
    (out_dir / SUITE_MARKER).write_text("written by stepforge generate; its next run may overwrite this folder\n")
    write_verified(out_dir, result.verified_scripts(), feature)
    return result


def suite_digest(suite: Suite) -> str:
    return hashlib.sha256((suite.feature_text + "\0" + suite.steps_text).encode()).hexdigest()


@dataclass
class GenerationJob:
    """The generation of some scenarios, under way: their run records, replays and verdicts as they come;
    generate_and_verify() runs it to its verified suite."""

    scenarios: list[Scenario]
    base_url: str
    settings: Settings
    store: ArtifactStore
    reset_command: str | None
    events: PipelineEvents
    registry: StepRegistry | None = None
    project: str = "default"
    agent: Agent = field(default_factory=Agent)
    records: dict[str, RunRecord] = field(default_factory=dict)
    replays: dict[str, ReplayResult] = field(default_factory=dict)
    seconds: dict[str, float] = field(default_factory=dict)
    model_calls: dict[str, int] = field(default_factory=dict)  # per scenario, over its attempts
    avoid: dict[str, dict[str, list[str]]] = field(default_factory=dict)
    # Scenario id -> digest of the suite text its passing replay ran against.
    verified: dict[str, str] = field(default_factory=dict)
    registered: int = 0  # new steps this run added to the registry
    registry_problem: str | None = None  # why the registry could not be used, if it could not
    feature: str = DEFAULT_FEATURE  # the feature of scenarios that name none (the scenarios file's)
    suite_format: str = "cucumber-js"  # the project the suite is written as (see suite.FORMATS)

    @property
    def origin(self) -> str:
        return origin_of(self.base_url)

    def register(self, suite: Suite) -> None:
        """The verified suite's new steps join the registry; a step another worker registered meanwhile
        is simply found there (registration is idempotent)."""
        fresh = suite.new_definitions
        if self.registry is not None and fresh and self.verified:
            self.events.on_phase(f"registering {len(fresh)} new step(s)")
            try:
                self.registry.register(self.project, self.origin, new_steps(fresh))
                self.registered = len(fresh)
            except RegistryError as exc:  # the suite is verified and written; only sharing its steps failed
                self.registry_problem = f"the new steps were not registered: {exc}"
                log.warning("registry.register_failed", error=str(exc))

    def generate_and_verify(self, session: BrowserSession, staging: Path) -> Suite:
        """Every scenario generated and replayed, red ones generated again, until each is verified or has used its
        attempts; then the final suite, in which each verified scenario is replayed again if the suite's text
        changed since it passed. A scenario red there is replayed once more, then generated again while it has
        attempts left: never dropped without a verdict. A playwright-bdd job's verified suite is then replayed by
        Playwright's runner too, in a folder beside staging (verify_with_playwright_bdd)."""
        pending = list(self.scenarios)
        while True:
            self.verify(session, staging, pending)
            suite, pending = self.settle_final_suite(staging)
            if not pending:
                break
        if self.suite_format == "playwright-bdd":
            return self.verify_with_playwright_bdd(staging.with_name(staging.name + "-bdd"))
        return suite

    def verify(self, session: BrowserSession, staging: Path, pending: list[Scenario]) -> None:
        """Generate each pending scenario at its next attempt and replay the ones generated; repeat for the red."""
        while pending:
            for scenario in pending:
                self.generate(scenario, self.attempts(scenario) + 1, session)
            to_verify = [s for s in pending if _generated(self.records[s.id])]
            for scenario in pending:
                if scenario not in to_verify:
                    self.events.on_done(scenario.id)  # failed in generation: final, a retry would fail the same way
            if not to_verify:
                return
            self.events.on_phase(f"replaying {len(to_verify)} scenario(s)")
            suite = self.write(staging, lambda s: _generated(self.records[s.id]))
            self.replay(staging, to_verify, suite, again=lambda result: result.target_resolved)
            pending = []
            for scenario in to_verify:
                result = self.replays[scenario.id]
                if result.passed or self.attempts(scenario) >= self.settings.max_attempts:
                    self.events.on_done(scenario.id)
                    continue
                if not result.target_resolved:  # the locator found nothing, or several: try another strategy
                    learn_from_replay(self.avoid.setdefault(scenario.id, {}), self.records[scenario.id], suite, result)
                pending.append(scenario)

    def replay(self, staging: Path, scenarios: list[Scenario], suite: Suite,
               again: Callable[[ReplayResult], bool]) -> None:
        """Replay the scenarios in the suite written to staging and record the results; a red result for which
        again() holds is replayed once more at once, and the second result stands."""
        results = replay_scenarios(staging, [s.id for s in scenarios], self.base_url, self.settings,
                                   self.reset_command)
        retry = [s for s in scenarios if not results[s.id].passed and again(results[s.id])]
        if retry:
            self.events.on_phase(f"replaying {len(retry)} red scenario(s) again")
            for scenario in retry:
                log.info("replay.retried", scenario_id=scenario.id, error=results[scenario.id].error)
            results.update(replay_scenarios(staging, [s.id for s in retry], self.base_url, self.settings,
                                            self.reset_command))
        for scenario in scenarios:
            self.record_replay(scenario, results[scenario.id], suite, replays=2 if scenario in retry else 1)

    def calls(self, scenario_id: str) -> int:
        """The model calls made generating the scenario, over all its attempts."""
        return self.model_calls.get(scenario_id, 0)

    def attempts(self, scenario: Scenario) -> int:
        record = self.records.get(scenario.id)
        return record.attempt if record is not None else 0

    def generate(self, scenario: Scenario, attempt: int, session: BrowserSession) -> None:
        self.events.on_scenario(scenario.id, attempt)
        if attempt == 1:
            self.store.remove_prefix(f"{scenario.id}/")  # artifacts of an earlier run would mix with these
        started = time.perf_counter()
        bound = log.bind(scenario_id=scenario.id, attempt=attempt)
        before = self.agent.usage()
        exhausted = self.agent.exhausted()
        try:
            if exhausted:  # the job's model budget is spent: the rest of the job is not generated
                record = RunRecord(scenario_id=scenario.id, title=scenario.title, attempt=attempt,
                                   base_url=self.base_url, brain=self.agent.brain)
                record.verdict = Verdict.failed(None, "error", f"not generated: the job's model budget is "
                                                               f"exhausted ({exhausted})")
                put_model(self.store, f"{attempt_prefix(scenario.id, attempt)}/run.json", record)
            else:
                record = self.run_on_fresh_context(scenario, attempt, session)
                record.model_usage = usage_since(before, self.agent.usage())
                if record.model_usage:
                    put_model(self.store, f"{attempt_prefix(scenario.id, attempt)}/run.json", record)
        except (BrowserUnavailableError, BrowserCrashedError, NodeRuntimeError, RunStopped):
            raise  # the machine cannot run any scenario, or the run was stopped: no scenario verdict to record
        except Exception as exc:  # one scenario's unexpected failure must not lose the others
            prefix = attempt_prefix(scenario.id, attempt)
            self.store.put_bytes(f"{prefix}/error.txt", traceback.format_exc().encode(), "text/plain")
            record = RunRecord(scenario_id=scenario.id, title=scenario.title, attempt=attempt, base_url=self.base_url)
            record.verdict = Verdict.failed(None, "error", f"internal error ({type(exc).__name__}: {exc}); "
                                                           f"details in {prefix}/error.txt")
            put_model(self.store, f"{prefix}/run.json", record)
            bound.error("scenario.crashed", error=str(exc))
        self.records[scenario.id] = record
        self.seconds[scenario.id] = self.seconds.get(scenario.id, 0.0) + time.perf_counter() - started
        self.model_calls[scenario.id] = self.model_calls.get(scenario.id, 0) + record.model_calls
        bound.info("scenario.generated", verdict=record.verdict.status if record.verdict else None)

    def run_on_fresh_context(self, scenario: Scenario, attempt: int, session: BrowserSession) -> RunRecord:
        """run_scenario; a renderer that crashed under it is the machine's failure, so the scenario runs again on a
        fresh context (RENDERER_CRASH_RETRIES times) before the crash ends the run."""
        crashes = 0
        while True:
            try:
                return run_scenario(
                    scenario, self.agent.brain_for(scenario), session, base_url=self.base_url,
                    settings=self.settings, store=self.store, attempt=attempt, reset_command=self.reset_command,
                    avoid=self.avoid.get(scenario.id, {}), grounder=self.agent.grounder,
                )
            except RendererCrashedError as exc:
                crashes += 1
                if crashes > RENDERER_CRASH_RETRIES:
                    raise
                log.warning("scenario.renderer_crashed", scenario_id=scenario.id, attempt=attempt, error=str(exc))

    def record_replay(self, scenario: Scenario, result: ReplayResult, suite: Suite, replays: int = 1) -> None:
        record = self.records[scenario.id]
        result.replays = replays
        self.replays[scenario.id] = record.replay = result
        self.seconds[scenario.id] = self.seconds.get(scenario.id, 0.0) + result.seconds
        if result.passed:
            self.verified[scenario.id] = suite_digest(suite)
        else:
            self.verified.pop(scenario.id, None)
            record.verdict = replay_verdict(record, suite, result)
        prefix = attempt_prefix(scenario.id, record.attempt)
        put_model(self.store, f"{prefix}/replay.json", result)
        put_model(self.store, f"{prefix}/run.json", record)

    def settle_final_suite(self, staging: Path) -> tuple[Suite, list[Scenario]]:
        """The suite of the verified scenarios; any of them verified against other text is replayed again (twice
        when red). Returns the suite and the scenarios that turned red in it and have attempts left."""
        regenerate: list[Scenario] = []
        while True:
            suite = self.write(staging, lambda s: s.id in self.verified)
            digest = suite_digest(suite)
            stale = [s for s in self.scenarios if s.id in self.verified and self.verified[s.id] != digest]
            if not stale:
                return suite, regenerate
            self.events.on_phase(f"replaying {len(stale)} scenario(s) in the final suite")
            self.replay(staging, stale, suite, again=lambda result: True)
            for scenario in stale:
                if scenario.id not in self.verified and self.attempts(scenario) < self.settings.max_attempts:
                    log.info("final_replay.red", scenario_id=scenario.id, attempt=self.attempts(scenario))
                    regenerate.append(scenario)

    def verify_with_playwright_bdd(self, folder: Path) -> Suite:
        """The verified suite written as a Playwright Test project and replayed by Playwright's runner; a scenario
        red there fails with the step and reason it gave, and the suite is written again without it."""
        while True:
            suite = self.write(folder, lambda s: s.id in self.verified, suite_format="playwright-bdd")
            ids = [s.id for s in self.scenarios if s.id in self.verified]
            if not ids:
                return suite
            self.events.on_phase(f"replaying {len(ids)} scenario(s) with playwright-bdd")
            results = replay_playwright_bdd(folder, ids, self.base_url, self.settings, self.reset_command)
            red = [s for s in self.scenarios if s.id in ids and not results[s.id].passed]
            if not red:
                return suite
            for scenario in red:
                record, result = self.records[scenario.id], results[scenario.id]
                verdict = replay_verdict(record, suite, result)
                verdict.reason = verdict.reason.replace("the generated script failed its replay",
                                                        "the playwright-bdd suite failed its replay", 1)
                record.verdict = verdict
                self.verified.pop(scenario.id, None)
                prefix = attempt_prefix(scenario.id, record.attempt)
                put_model(self.store, f"{prefix}/replay-playwright-bdd.json", result)
                put_model(self.store, f"{prefix}/run.json", record)
                log.info("playwright_bdd_replay.red", scenario_id=scenario.id, error=result.error)

    def write(self, folder: Path, include: Callable[[Scenario], bool], suite_format: str = "cucumber-js") -> Suite:
        runs = [(s, self.records[s.id]) for s in self.scenarios if include(s)]
        try:
            suite = build_suite(runs, self.registry, self.origin if self.registry is not None else None,
                                writer=self.agent.writer, feature=self.feature)
        except RegistryError as exc:  # generation goes on without reuse rather than losing the run
            self.registry_problem = f"known steps could not be looked up, none were reused: {exc}"
            log.warning("registry.lookup_failed", error=str(exc))
            self.registry = None
            suite = build_suite(runs, writer=self.agent.writer, feature=self.feature)
        suite.write(folder, files_dir=self.settings.files_dir, suite_format=suite_format)
        return suite

    def result(self, suite: Suite) -> GenerationResult:
        outcomes = []
        for scenario in self.scenarios:
            record = self.records[scenario.id]
            verdict = record.verdict or Verdict.failed(None, "error", "not generated")
            if verdict.status == "passed" and scenario.id not in self.verified:
                verdict = record.verdict = replay_verdict(record, suite, self.replays.get(scenario.id, _RED))
            put_model(self.store, f"{attempt_prefix(scenario.id, record.attempt)}/run.json", record)
            counts = suite.counts.get(scenario.id)
            outcomes.append(
                Outcome(
                    scenario=scenario, record=record, verdict=verdict, attempts=record.attempt,
                    replay=self.replays.get(scenario.id), operations=counts.operations if counts else 0,
                    steps=counts.steps if counts else 0, seconds=self.seconds.get(scenario.id, 0.0),
                )
            )
        return GenerationResult(base_url=self.base_url, outcomes=outcomes, suite=suite if self.verified else None,
                                project=self.project, registered=self.registered,
                                registry_problem=self.registry_problem, brain=self.agent.brain,
                                grounding=self.agent.grounding_name, model_usage=self.agent.usage())


_RED = ReplayResult(passed=False, error="not replayed")


def usage_since(before: dict, after: dict) -> dict[str, dict[str, float]]:
    """Per phase, the model usage added between two `ModelClient.usage()` readings (phases with calls)."""
    out: dict[str, dict[str, float]] = {}
    for phase, now in after.get("phases", {}).items():
        then = before.get("phases", {}).get(phase, {})
        delta = {key: round(value - then.get(key, 0), 8) for key, value in now.items()}
        if delta.get("calls"):
            out[phase] = delta
    return out


def failed_operations(record: RunRecord, suite: Suite, replay: ReplayResult) -> list[Operation]:
    """The recorded operations behind the Gherkin step the replay failed at."""
    failed = suite.step_locators(replay.failed_step) if replay.failed_step else []
    return [op for op in record.operations if op.locator is not None and op.locator in failed]


def learn_from_replay(avoid: dict[str, list[str]], record: RunRecord, suite: Suite, replay: ReplayResult) -> None:
    """The next attempt does not use, for the operations of the step that failed, the locator strategy it used."""
    for operation in failed_operations(record, suite, replay):
        strategies = avoid.setdefault(operation.description, [])
        if operation.locator is not None and operation.locator.strategy not in strategies:
            strategies.append(operation.locator.strategy)


def _generated(record: RunRecord) -> bool:
    return record.verdict is not None and record.verdict.status == "passed"


def replay_verdict(record: RunRecord, suite: Suite, replay: ReplayResult) -> Verdict:
    """A red replay as a verdict: the scenario step and kind of the Gherkin step that failed, where known."""
    at = f" at {replay.failed_step!r}" if replay.failed_step else ""
    reason = f"the generated script failed its replay{at}: {replay.error or 'unknown error'}"
    operations = failed_operations(record, suite, replay)
    step = operations[0].step_index + 1 if operations and operations[0].step_index >= 0 else None
    definition = suite.step_definition(replay.failed_step) if replay.failed_step else None
    checks = definition is not None and is_assertion_step(definition)
    return Verdict.failed(step, "expectation" if checks else "action", reason)
