"""A regeneration, the one job behind `stepforge regenerate` and the service's regeneration jobs: replay first,
triage the red, generate only what changed, and generate every app_changed scenario afresh as a candidate.

    regenerate_scenarios(unchanged scripts, changed scenarios, session, ...) -> Regenerated (values, no folder)

A verified script whose scenario did not change is replayed and triaged (triage.py): passed, flake, drift (healed),
app_changed (kept as it was) or broken_environment. A scenario that changed, or that was never verified, is generated
from scratch (the pipeline's GenerationJob). Each app_changed scenario is generated afresh beside its kept script: a
candidate (candidate.py), never applied; when it passes, the diff against the kept script says what it would change.

The drivers put the values where their users expect them: the CLI writes the suite folder, its verified scripts and
.stepforge/candidates/ (workers/cli/regenerate.py); a service job stores the kept script, the triage and the
candidate in its attempt folder (workers/service/scenario_job.py).
"""

from __future__ import annotations

import json
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from shared.artifacts import ArtifactStore
from shared.logging import log
from shared.records import RunRecord, Verdict
from shared.scenarios import Scenario, natural_key
from shared.settings import Settings
from shared.step_registry import StepRegistry, origin_of
from shared.triage import TRIAGE_ORDER, CandidateScript, Triage, VerifiedScript
from workers.agent.choice import Agent
from workers.agent.execution.browser import BrowserCrashedError, BrowserSession, BrowserUnavailableError
from workers.agent.pipeline import GenerationJob, PipelineEvents, RunStopped, usage_since
from workers.agent.regeneration.candidate import script_diff
from workers.agent.regeneration.triage import FLAKE_RETRIES, TriageRun, triage_scripts
from workers.agent.scripting.build import DEFAULT_FEATURE, Suite, build_with_registry
from workers.agent.verify.node_runtime import NodeRuntimeError


@dataclass
class Candidate:
    """An app_changed scenario generated afresh: its last run record and verdict; when it passed, its script's
    suite and the diff against the kept script."""

    scenario: Scenario
    verdict: Verdict
    record: RunRecord | None = None
    regenerated: Suite | None = None  # the suite of its script, when it passed
    diff: str = ""
    model_calls: int = 0
    seconds: float = 0.0

    @property
    def passed(self) -> bool:
        return self.regenerated is not None

    def script(self, run_record: str | None = None, diff: str | None = None,
               summary: list[dict] | None = None) -> CandidateScript:
        """As the triage reports it, with where its driver put its run record and diff."""
        if not self.passed:
            return CandidateScript(passed=False, failed_step=self.verdict.step, failure_kind=self.verdict.kind,
                                   reason=self.verdict.reason or None, model_calls=self.model_calls)
        return CandidateScript(passed=True, run_record=run_record, diff=diff, model_calls=self.model_calls,
                               script=summary)


@dataclass
class Regenerated:
    """What a regeneration concluded. `triage` holds every scenario's class (an app_changed one's candidate counted
    in its model calls and seconds, its `candidate` left for the driver to fill in with where it put it); `kept` the
    script each scenario keeps: the verified one, the healed one for drift, the generated one that passed."""

    triage: dict[str, Triage]
    kept: dict[str, tuple[Scenario, RunRecord]]
    candidates: dict[str, Candidate] = field(default_factory=dict)
    registry_problem: str | None = None

    def kept_runs(self) -> list[tuple[Scenario, RunRecord]]:
        return [self.kept[i] for i in sorted(self.kept, key=natural_key)]


def regenerate_scenarios(
    unchanged: Sequence[VerifiedScript],
    changed: Sequence[Scenario],
    session: BrowserSession,
    *,
    base_url: str,
    settings: Settings,
    store: ArtifactStore,
    candidate_store: ArtifactStore,
    agent: Callable[[], Agent],
    reset_command: str | None = None,
    events: PipelineEvents | None = None,
    registry: StepRegistry | None = None,
    project: str = "default",
    feature: str = DEFAULT_FEATURE,
    flake_retries: int = FLAKE_RETRIES,
    suite_format: str = "cucumber-js",
    work_dir: Path | None = None,
    on_settled: Callable[[Regenerated], None] | None = None,
    stop_on: tuple[type[BaseException], ...] = (),
) -> Regenerated:
    """See the module's doc. `store` takes the replays' and the generations' artifacts, `candidate_store` the
    candidates'; `agent` gives the agent, called only when something is to be generated (a replay that stays green
    opens none); `flake_retries` is 0 where the scripts were red in a replay just before (the service's first pass);
    `work_dir` holds the staging folders (a temporary folder of the system when None). `on_settled` is called once
    every script is triaged and every changed scenario generated, before the candidates: what is settled is kept
    even if the candidates' generation is cut short. `stop_on`: more exceptions that stop the whole run wherever
    they are raised (the service's time limit), never taken for a candidate's failure."""
    events = events or PipelineEvents()
    origin = origin_of(base_url) if registry is not None else None

    def job(scenarios: Sequence[Scenario], artifacts: ArtifactStore) -> GenerationJob:
        return GenerationJob(list(scenarios), base_url, settings, artifacts, reset_command, events, registry, project,
                             agent(), feature=feature, suite_format=suite_format)

    with tempfile.TemporaryDirectory(prefix=".stepforge-regenerate-", dir=work_dir,
                                     ignore_cleanup_errors=True) as work:
        staging = Path(work)
        triaged = triage_scripts(unchanged, session, base_url=base_url, settings=settings, store=store,
                                 staging=staging / "replayed", reset_command=reset_command, registry=registry,
                                 origin=origin, feature=feature, events=events, flake_retries=flake_retries
                                 ) if unchanged else TriageRun({}, {})
        done = Regenerated(dict(triaged.triage), {s.scenario.id: (s.scenario, triaged.records[s.scenario.id])
                                                  for s in unchanged})
        if changed:
            generation = job(changed, store)
            generation.generate_and_verify(session, staging / "generated")
            for scenario in changed:
                verdict, passed = settled_verdict(generation, scenario, "its generated script failed its replay")
                record = generation.records[scenario.id]
                done.triage[scenario.id] = Triage(
                    scenario_id=scenario.id, triage="generated", source="generated", verdict=verdict,
                    replays=record.replay.replays if record.replay else 0, model_calls=generation.calls(scenario.id),
                    seconds=round(generation.seconds.get(scenario.id, 0.0), 2))
                if passed:
                    done.kept[scenario.id] = (scenario, record)
            done.registry_problem = generation.registry_problem
        if on_settled is not None:
            on_settled(done)
        app_changed = [done.kept[i][0] for i, t in sorted(done.triage.items(), key=lambda item: natural_key(item[0]))
                       if t.triage == "app_changed"]
        if app_changed:
            done.candidates = generate_candidates(app_changed, done, lambda: job(app_changed, candidate_store),
                                                  session, staging / "candidates", registry, origin, feature, stop_on)
    for scenario_id, candidate in done.candidates.items():
        triage = done.triage[scenario_id]
        done.triage[scenario_id] = triage.model_copy(update={
            "model_calls": triage.model_calls + candidate.model_calls,
            "seconds": round(triage.seconds + candidate.seconds, 2)})
    return done


def generate_candidates(scenarios: list[Scenario], done: Regenerated, open_job: Callable[[], GenerationJob],
                        session: BrowserSession, staging: Path, registry: StepRegistry | None, origin: str | None,
                        feature: str, stop_on: tuple[type[BaseException], ...] = ()) -> dict[str, Candidate]:
    """The app_changed scenarios generated afresh (open_job()), each compared with the script it keeps. A failure of
    the generation itself (not the machine's, not a stopped run) leaves the app_changed verdicts standing, each
    candidate failed saying why. One candidate alone is given its whole generation's model calls (the step writer's
    included) and seconds, and the very suite its replay verified; several share none of that."""
    started = time.perf_counter()
    try:
        job = open_job()
        before = job.agent.usage()
        verified = job.generate_and_verify(session, staging)
    except (RunStopped, BrowserCrashedError, BrowserUnavailableError, NodeRuntimeError, *stop_on):
        raise  # the job stops (or runs again on a fresh browser), as any job
    except Exception as exc:  # noqa: BLE001 - the app_changed verdicts stand; only their candidates are missing
        error = f"{type(exc).__name__}: {(str(exc).splitlines() or [''])[0]}"
        log.warning("regeneration.candidate_failed", scenarios=[s.id for s in scenarios], error=error)
        return {s.id: Candidate(s, Verdict.failed(None, "error", f"it could not be generated: {error}"))
                for s in scenarios}
    alone = len(scenarios) == 1
    calls = sum(int(phase.get("calls", 0)) for phase in usage_since(before, job.agent.usage()).values())
    candidates = {}
    for scenario in scenarios:
        verdict, passed = settled_verdict(job, scenario, "its regenerated script failed its replay")
        record = job.records[scenario.id]
        candidate = Candidate(scenario, verdict, record, model_calls=calls if alone else job.calls(scenario.id),
                              seconds=time.perf_counter() - started if alone else job.seconds.get(scenario.id, 0.0))
        if passed:
            kept = build_with_registry([done.kept[scenario.id]], registry, origin, feature)[0]
            candidate.regenerated = verified if alone else build_with_registry([(scenario, record)], registry,
                                                                                origin, feature)[0]
            candidate.diff = script_diff(kept, candidate.regenerated)
        candidates[scenario.id] = candidate
    return candidates


def settled_verdict(job: GenerationJob, scenario: Scenario, red_reason: str) -> tuple[Verdict, bool]:
    """A generated scenario's verdict, and whether its script was verified: one that ran through but whose script
    did not pass its replay failed."""
    record = job.records.get(scenario.id)
    verdict = (record.verdict if record is not None else None) or Verdict.failed(None, "error", "not generated")
    passed = scenario.id in job.verified
    if not passed and verdict.status == "passed":
        verdict = Verdict.failed(None, "action", red_reason)
    return verdict, passed


@dataclass
class Regeneration:
    """A regenerated suite folder's report: every scenario's class, what changed, what it cost."""

    base_url: str
    triage: list[Triage]  # in natural order of the scenario ids
    suite: Suite | None
    removed: list[str] = field(default_factory=list)  # scenarios the scenarios file no longer has
    registry_problem: str | None = None
    seconds: float = 0.0

    def counts(self) -> dict[str, int]:
        return {name: sum(1 for t in self.triage if t.triage == name) for name in TRIAGE_ORDER}

    def cost(self) -> dict[str, dict[str, float]]:
        """Model calls and seconds per triage class."""
        return {name: {"scenarios": len(group), "model_calls": sum(t.model_calls for t in group),
                       "seconds": round(sum(t.seconds for t in group), 2)}
                for name in TRIAGE_ORDER if (group := [t for t in self.triage if t.triage == name])}

    def report(self) -> dict:
        return {
            "base_url": self.base_url,
            "summary": self.counts(),
            "cost": self.cost(),
            "model_calls": sum(t.model_calls for t in self.triage),
            "seconds": round(self.seconds, 2),
            "removed": self.removed,
            "registry_problem": self.registry_problem,
            "scenarios": {t.scenario_id: t.model_dump(mode="json", exclude={"scenario_id"}) for t in self.triage},
        }

    def report_json(self) -> str:
        return json.dumps(self.report(), indent=2) + "\n"
