"""Regenerating a suite folder stepforge wrote: replay first, triage the red, generate only what changed.

    stepforge regenerate SUITE_DIR --base-url URL [--scenarios FILE]

The folder's verified scripts (.stepforge/records/) are replayed first (triage.py). A scenario whose definition in
FILE differs from the one its script was verified for, or that FILE adds, is generated from scratch; one FILE no
longer has leaves the suite. The folder then holds: the kept scripts (passed, flake, broken_environment), the healed
ones (drift), the generated ones that passed, and the app_changed ones as they were, tagged @failing. Each
app_changed scenario is generated afresh beside its kept script; when that passes, its script and the diff wait in
.stepforge/candidates/ for `stepforge accept` (accept.py). The report (regeneration.json) gives every scenario's
class, what changed, and the model calls and seconds per class.
"""

from __future__ import annotations

import contextlib
import json
import shutil
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from shared.artifacts import ArtifactStore
from shared.artifacts.prefixed import PrefixedStore
from shared.logging import log
from shared.records import RunRecord, Verdict
from shared.scenarios import Scenario, natural_key
from shared.settings import Settings
from shared.step_registry import RegistryError, StepRegistry, origin_of
from shared.triage import FAILING_TAG, TRIAGE_ORDER, CandidateScript, Triage, VerifiedScript
from workers.agent.choice import Agent
from workers.agent.execution.browser import BrowserSession
from workers.agent.pipeline import SUITE_MARKER, PipelineEvents, SuiteJob
from workers.agent.regeneration.candidate import script_diff
from workers.agent.regeneration.triage import triage_scripts
from workers.agent.scripting.build import DEFAULT_FEATURE, Suite, build_with_registry, new_steps
from workers.agent.scripting.verified import clear_candidates, read_verified, write_candidate, write_verified


@dataclass
class Regeneration:
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


def keep_candidate(suite_dir: Path, triage: Triage, scenario: Scenario, candidates: SuiteJob, kept: Suite,
                   registry: StepRegistry | None, origin: str | None, feature: str) -> Triage:
    """The app_changed scenario's triage with its candidate; a passed candidate's script and its diff against the
    kept one written to .stepforge/candidates/, for `stepforge accept`."""
    record = candidates.records[scenario.id]
    verdict = record.verdict or Verdict.failed(None, "error", "not generated")
    calls = record.model_calls
    update = {"model_calls": triage.model_calls + calls,
              "seconds": round(triage.seconds + candidates.seconds.get(scenario.id, 0.0), 2)}
    if scenario.id not in candidates.verified:
        if verdict.status == "passed":
            verdict = Verdict.failed(None, "action", "its regenerated script failed its replay")
        candidate = CandidateScript(passed=False, failed_step=verdict.step, failure_kind=verdict.kind,
                                    reason=verdict.reason or None, model_calls=calls)
        return triage.model_copy(update={**update, "candidate": candidate})
    regenerated = build_with_registry([(scenario, record)], registry, origin, feature)[0]
    script, diff = write_candidate(suite_dir, VerifiedScript(scenario=scenario, record=record),
                                   script_diff(kept, regenerated))
    candidate = CandidateScript(passed=True, run_record=script, diff=diff, model_calls=calls)
    return triage.model_copy(update={**update, "candidate": candidate})


def regenerate_suite(
    suite_dir: Path,
    *,
    base_url: str,
    settings: Settings,
    store: ArtifactStore,
    scenarios: Sequence[Scenario] | None = None,
    feature: str = DEFAULT_FEATURE,
    reset_command: str | None = None,
    events: PipelineEvents | None = None,
    registry: StepRegistry | None = None,
    project: str = "default",
    agent: Agent | None = None,
) -> Regeneration:
    """See the module's doc. Raises NoVerifiedScripts when suite_dir holds no verified script."""
    started = time.perf_counter()
    events = events or PipelineEvents()
    verified = {script.scenario.id: script for script in read_verified(suite_dir)}
    wanted = list(scenarios) if scenarios is not None else [script.scenario for script in verified.values()]
    unchanged = [verified[s.id] for s in wanted if s.id in verified and verified[s.id].scenario == s]
    changed = [s for s in wanted if not (s.id in verified and verified[s.id].scenario == s)]
    removed = sorted((i for i in verified if i not in {s.id for s in wanted}), key=natural_key)
    origin = origin_of(base_url) if registry is not None else None

    staging = Path(tempfile.mkdtemp(prefix=".stepforge-regenerate-", dir=suite_dir.resolve().parent))
    try:
        with BrowserSession(settings) as session:
            triaged = triage_scripts(unchanged, session, base_url=base_url, settings=settings, store=store,
                                     staging=staging / "replayed", reset_command=reset_command, registry=registry,
                                     origin=origin, feature=feature, events=events) if unchanged else None
            job = SuiteJob(changed, base_url, settings, store, reset_command, events, registry, project,
                           agent or Agent(), feature=feature)
            if changed:
                job.generate_and_verify(session, staging / "generated")
            # Every app_changed scenario is generated afresh beside its kept script: a candidate, never applied.
            app_changed = [verified[i].scenario for i, t in sorted(triaged.triage.items()) if t.triage == "app_changed"
                           ] if triaged else []
            candidates = SuiteJob(app_changed, base_url, settings, PrefixedStore(store, "candidates/"), reset_command,
                                  events, registry, project, agent or Agent(), feature=feature)
            if app_changed:
                candidates.generate_and_verify(session, staging / "candidates")
    finally:
        shutil.rmtree(staging, ignore_errors=True)

    triage = dict(triaged.triage) if triaged else {}
    keep: dict[str, tuple[Scenario, RunRecord]] = {}
    for script in unchanged:
        keep[script.scenario.id] = (script.scenario, triaged.records[script.scenario.id])  # type: ignore[union-attr]
    for scenario in changed:
        record = job.records[scenario.id]
        passed = scenario.id in job.verified
        verdict = record.verdict or Verdict.failed(None, "error", "not generated")
        if not passed and verdict.status == "passed":
            verdict = Verdict.failed(None, "action", "its generated script failed its replay")
        triage[scenario.id] = Triage(
            scenario_id=scenario.id, triage="generated", source="generated", verdict=verdict,
            replays=record.replay.replays if record.replay else 0,
            model_calls=record.model_calls,
            seconds=round(job.seconds.get(scenario.id, 0.0), 2))
        if passed:
            keep[scenario.id] = (scenario, record)

    clear_candidates(suite_dir)
    for scenario in app_changed:
        kept = build_with_registry([keep[scenario.id]], registry, origin, feature)[0]
        triage[scenario.id] = keep_candidate(suite_dir, triage[scenario.id], scenario, candidates, kept, registry,
                                             origin, feature)

    order = sorted(keep, key=natural_key)
    failing = {i: [FAILING_TAG] for i in order if triage[i].triage == "app_changed"}
    runs = [keep[i] for i in order]
    regeneration = Regeneration(base_url, [triage[i] for i in sorted(triage, key=natural_key)], None, removed)
    suite, regeneration.registry_problem = build_with_registry(runs, registry, origin, feature, failing)
    events.on_phase("writing the suite")
    suite.write(suite_dir, files_dir=settings.files_dir)
    (suite_dir / SUITE_MARKER).write_text("written by stepforge; its next run may overwrite this folder\n")
    write_verified(suite_dir, [VerifiedScript(scenario=s, record=r) for s, r in runs], feature, failing=list(failing))
    if registry is not None and suite.new_definitions and origin is not None:
        with contextlib.suppress(RegistryError):
            registry.register(project, origin, new_steps(suite.new_definitions))
    regeneration.suite = suite
    regeneration.seconds = time.perf_counter() - started
    log.info("regeneration.done", **regeneration.counts(), seconds=round(regeneration.seconds, 2))
    return regeneration

