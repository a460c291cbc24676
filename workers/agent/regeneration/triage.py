"""Replay first, then triage every red: what a regeneration does with scenarios whose definition did not change.

    replay the verified scripts (cucumber-js, no agent, no model)
      green -> passed, kept as it is
      red   -> replayed again (FLAKE_RETRIES times): green -> flake, kept as it is
               still red -> walked in the browser (walk.py):
                   environment  -> broken_environment (nothing concluded)
                   app_changed  -> app_changed at that step, the script kept as it was
                   drifted      -> the healed script replayed: green -> drift (healed), red -> app_changed
                   held         -> replayed once more: green -> flake, red -> app_changed at the replay's step

The classes are documented in shared/triage.py. No step writer is used: the scripts are built with the registry's
wording, as generation left it, so a replay-first regeneration makes no model call.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from shared.artifacts import ArtifactStore
from shared.logging import log
from shared.records import ReplayResult, RunRecord, Verdict
from shared.settings import Settings
from shared.step_registry import StepRegistry
from shared.triage import AppChange, Triage, VerifiedScript
from workers.agent.execution.browser import BrowserSession, RendererCrashedError
from workers.agent.pipeline import PipelineEvents, replay_verdict
from workers.agent.regeneration.walk import Walk, walk_script
from workers.agent.scripting.build import DEFAULT_FEATURE, Suite, build_with_registry
from workers.agent.verify.replay import replay_scenarios

FLAKE_RETRIES = 1  # a red replay is replayed again this many times before it is triaged further


@dataclass
class TriageRun:
    triage: dict[str, Triage]
    records: dict[str, RunRecord]  # the script each scenario keeps: the healed one for drift, else the verified one


@dataclass
class Triager:
    scripts: Sequence[VerifiedScript]
    base_url: str
    settings: Settings
    store: ArtifactStore
    staging: Path
    reset_command: str | None = None
    registry: StepRegistry | None = None
    origin: str | None = None
    feature: str = DEFAULT_FEATURE
    events: PipelineEvents = field(default_factory=PipelineEvents)
    flake_retries: int = FLAKE_RETRIES  # 0 when the scenario was red in a replay just before (the service's pass)
    seconds: dict[str, float] = field(default_factory=dict)
    replays: dict[str, int] = field(default_factory=dict)

    def write(self, records: dict[str, RunRecord], ids: Sequence[str]) -> Suite:
        runs = [(s.scenario, records[s.scenario.id]) for s in self.scripts if s.scenario.id in ids]
        suite, _problem = build_with_registry(runs, self.registry, self.origin, self.feature)
        suite.write(self.staging, files_dir=self.settings.files_dir)
        return suite

    def replay(self, ids: list[str]) -> dict[str, ReplayResult]:
        results = replay_scenarios(self.staging, ids, self.base_url, self.settings, self.reset_command)
        for scenario_id, result in results.items():
            self.replays[scenario_id] = self.replays.get(scenario_id, 0) + 1
            self.seconds[scenario_id] = self.seconds.get(scenario_id, 0.0) + result.seconds
        return results

    def triage(self, scenario_id: str, triage: str, verdict: Verdict, source: str = "replayed", **fields: object
               ) -> Triage:
        return Triage(scenario_id=scenario_id, triage=triage, verdict=verdict, source=source,  # type: ignore[arg-type]
                      replays=self.replays.get(scenario_id, 0), seconds=round(self.seconds.get(scenario_id, 0.0), 2),
                      **fields)  # type: ignore[arg-type]

    def run(self, session: BrowserSession) -> TriageRun:
        recorded = {s.scenario.id: s.record for s in self.scripts}
        ids = list(recorded)
        done: dict[str, Triage] = {}
        self.events.on_phase(f"replaying {len(ids)} verified script(s)")
        suite = self.write(recorded, ids)
        results = self.replay(ids)
        red = [i for i in ids if not results[i].passed]
        for scenario_id in ids:
            if results[scenario_id].passed:
                done[scenario_id] = self.triage(scenario_id, "passed", Verdict.passed())
        red = self.not_run(red, results, done)
        for _ in range(self.flake_retries):
            if not red:
                break
            self.events.on_phase(f"replaying {len(red)} red scenario(s) again")
            again = self.replay(red)
            for scenario_id in [i for i in red if again[i].passed]:
                done[scenario_id] = self.triage(scenario_id, "flake", Verdict.passed())
            results.update(again)
            red = self.not_run([i for i in red if not again[i].passed], again, done)

        walks: dict[str, Walk] = {}
        by_id = {s.scenario.id: s for s in self.scripts}
        for scenario_id in red:
            self.events.on_phase(f"walking {scenario_id}'s recorded steps on the application")
            walks[scenario_id] = walk = self.walk(by_id[scenario_id], session)
            self.seconds[scenario_id] = self.seconds.get(scenario_id, 0.0) + walk.seconds
            if walk.outcome == "environment":
                done[scenario_id] = self.triage(scenario_id, "broken_environment",
                                                Verdict.failed(None, "error", walk.environment or "environment"),
                                                environment=walk.environment)
            elif walk.outcome == "app_changed":
                done[scenario_id] = self.app_changed(scenario_id, walk.app_change)

        to_verify = [i for i in red if i not in done]
        records = dict(recorded)
        if to_verify:
            for scenario_id in to_verify:
                records[scenario_id] = walks[scenario_id].record
            self.events.on_phase(f"replaying {len(to_verify)} scenario(s) after the walk")
            suite = self.write(records, [i for i in ids if i in to_verify])
            verified = self.replay(to_verify)
            for scenario_id in to_verify:
                walk, result = walks[scenario_id], verified[scenario_id]
                if not result.ran:
                    records[scenario_id] = recorded[scenario_id]
                    self.not_run([scenario_id], verified, done)
                    continue
                if result.passed:
                    done[scenario_id] = (self.triage(scenario_id, "drift", Verdict.passed(), "healed", drift=walk.drift)
                                         if walk.drift else self.triage(scenario_id, "flake", Verdict.passed()))
                    continue
                records[scenario_id] = recorded[scenario_id]  # a heal that does not replay green is no heal
                verdict = replay_verdict(walk.record, suite, result)
                done[scenario_id] = self.app_changed(scenario_id, AppChange(
                    step=verdict.step, kind=verdict.kind or "action", description=result.failed_step or "",
                    reason=verdict.reason))
        return TriageRun({i: done[i] for i in ids}, records)

    def not_run(self, red: list[str], results: dict[str, ReplayResult], done: dict[str, Triage]) -> list[str]:
        """Those of `red` the runner did run; the others (cucumber-js did not start, wrote no report, ran past its
        time) are broken_environment: nothing is known about them."""
        for scenario_id in [i for i in red if not results[i].ran]:
            reason = f"the replay did not run: {results[scenario_id].error or 'unknown error'}"
            done[scenario_id] = self.triage(scenario_id, "broken_environment", Verdict.failed(None, "error", reason),
                                            environment=reason)
        return [i for i in red if results[i].ran]

    def walk(self, script: VerifiedScript, session: BrowserSession) -> Walk:
        try:
            return walk_script(script, session, base_url=self.base_url, settings=self.settings, store=self.store,
                               reset_command=self.reset_command)
        except RendererCrashedError as exc:
            return Walk("environment", script.record, environment=str(exc))

    def app_changed(self, scenario_id: str, change: AppChange | None) -> Triage:
        assert change is not None
        kind = "expectation" if change.kind == "expectation" else "action"
        return self.triage(scenario_id, "app_changed", Verdict.failed(change.step, kind, change.reason),
                           app_change=change)


def triage_scripts(scripts: Sequence[VerifiedScript], session: BrowserSession, *, base_url: str, settings: Settings,
                   store: ArtifactStore, staging: Path, reset_command: str | None = None,
                   registry: StepRegistry | None = None, origin: str | None = None, feature: str = DEFAULT_FEATURE,
                   events: PipelineEvents | None = None, flake_retries: int = FLAKE_RETRIES) -> TriageRun:
    """Replay the verified scripts first and triage the red ones (see the module's doc)."""
    started = time.perf_counter()
    run = Triager(scripts, base_url, settings, store, staging, reset_command, registry, origin, feature,
                  events or PipelineEvents(), flake_retries).run(session)
    log.info("regeneration.triaged", scenarios=len(scripts), seconds=round(time.perf_counter() - started, 2),
             classes={i: t.triage for i, t in run.triage.items()})
    return run
