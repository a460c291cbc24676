"""A finished batch's one suite: built from its passed jobs' run records as the batch chose (its feature, its step
writer, its format), replayed as a whole with cucumber-js (or Playwright's runner for a playwright-bdd suite), and
stored beside the batch as suite.zip with its replay report (suite-replay.json). The API only serves the bytes.

The script phase is a pure function of the run records and the steps the registry knew before (the batch's own
jobs register none; its new steps join the registry once it is built), so a step several jobs share is defined
once, whatever order they finished in. A scenario red in the combined replay stays in the
suite and is named in the batch's status (suite_failed), never dropped silently. The zip carries the batch's base
URL in stepforge.json, so `npm install && npx cucumber-js` (playwright-bdd: `npm install && npx bddgen && npx
playwright test`) runs it as it is (STEPFORGE_BASE_URL still overrides it).
"""

from __future__ import annotations

import json
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from shared.artifacts import ArtifactNotFoundError, ArtifactStore, zip_folder
from shared.logging import log
from shared.models import Batch, Job
from shared.records import ReplayResult, RunRecord, cut_reason
from shared.scenarios import Scenario, natural_key
from shared.settings import Settings
from shared.step_registry import RegistryError, StepRegistry, origin_of
from shared.store import batch_prefix, job_run_record_key
from shared.triage import FAILING_TAG
from workers.agent.choice import open_agent
from workers.agent.pipeline import suite_digest
from workers.agent.scripting.build import Suite, build_with_registry, new_steps
from workers.agent.verify.bdd_replay import replay_playwright_bdd
from workers.agent.verify.replay import replay_scenarios
from workers.service.batch_replay import first_pass_results as chunk_results

SUITE_FOLDER = "suite"  # the zip's top folder: unzip, cd suite, npm install && npx cucumber-js


@dataclass
class SuiteBuild:
    """The outcome of building a finished batch's suite.zip (the batch's suite_state and suite_failed)."""

    state: str  # "ready" (suite.zip stored) or "empty" (no scenario passed)
    failed: dict[str, str] = field(default_factory=dict)  # scenario id -> why it is red in the combined replay


def suite_key(batch: Batch) -> str:
    return batch_prefix(batch.project_id, batch.id) + "suite.zip"


def assemble(batch: Batch, jobs: list[tuple[Job, Scenario]], store: ArtifactStore, registry: StepRegistry | None,
             settings: Settings, registry_project: str | None = None, reset: str | None = None) -> SuiteBuild:
    """Build, replay and store the suite of these jobs (suite_jobs): scenarios in natural order of their ids, a
    regeneration's app_changed ones tagged @failing and left out of the replay (their failure is known), unless a
    person accepted their regenerated script; `reset` runs before each scenario of the replay. Then the new steps of
    the scenarios green in that replay join the registry for `registry_project`: the batch's jobs register none, so
    the suite is the same whatever order they finished in (no job's step reached the registry before another's
    script was grouped)."""
    if not jobs:
        return SuiteBuild("empty")
    jobs = sorted(jobs, key=lambda pair: natural_key(pair[1].id))
    runs = []
    for job, scenario in jobs:
        try:
            runs.append((scenario, RunRecord.model_validate_json(store.get_bytes(job_run_record_key(job)))))
        except ArtifactNotFoundError:
            if job.state == "passed" or job.accepted_at is not None:
                raise
            # A scenario the environment kept from running before it could keep its script: left out, not lost.
            log.warning("build_suite.no_kept_script", batch_id=batch.id, scenario_id=scenario.id)
    if not runs:
        return SuiteBuild("empty")
    jobs = [(job, scenario) for job, scenario in jobs if scenario.id in {s.id for s, _ in runs}]
    # An accepted one's script is its regenerated one, which passed: not failing.
    failing = {scenario.id: [FAILING_TAG] for job, scenario in jobs
               if job.triage == "app_changed" and job.accepted_at is None}
    agent = open_agent(settings, "builtin", None, batch.step_writer)  # only its step writer is used here
    try:
        suite, _problem = build_with_registry(runs, registry, origin_of(batch.base_url), feature=batch.feature,
                                              tags=failing, writer=agent.writer)
    finally:
        agent.close()
    with tempfile.TemporaryDirectory(prefix="stepforge-batch-suite-") as work:
        folder = Path(work) / SUITE_FOLDER
        suite.write(folder, base_url=batch.base_url, suite_format=batch.suite_format)
        data = zip_folder(folder)  # before the replay: its reports and runtime link are not the suite's
        replayed = [scenario.id for scenario, _ in runs if scenario.id not in failing]
        if batch.suite_format == "playwright-bdd":
            results = replay_playwright_bdd(folder, replayed, batch.base_url, settings, reset) if replayed else {}
        else:
            results = first_pass_results(store, batch, suite, replayed)
            if results is not None:
                log.info("build_suite.first_pass_reused", batch_id=batch.id, scenarios=len(results))
            else:
                results = replay_scenarios(folder, replayed, batch.base_url, settings, reset) if replayed else {}
    failed = {scenario_id: cut_reason(result.error or "failed") for scenario_id, result in sorted(results.items())
              if not result.passed}
    if registry is not None and registry_project is not None:
        register_green(suite, [i for i, result in results.items() if result.passed], registry, registry_project,
                       origin_of(batch.base_url))
    report = {scenario_id: result.model_dump(mode="json") for scenario_id, result in sorted(results.items())}
    prefix = batch_prefix(batch.project_id, batch.id)
    store.put_bytes(prefix + "suite-replay.json", json.dumps(report, indent=2).encode(), "application/json")
    store.put_bytes(suite_key(batch), data, "application/zip")
    return SuiteBuild("ready", failed)


def register_green(suite: Suite, green: list[str], registry: StepRegistry, project: str, origin: str) -> None:
    """The suite's new steps that a green scenario uses join the registry (idempotent: built again, nothing new)."""
    used = {step.signature for script in suite.scripts if script.scenario_id in green for step in script.steps}
    fresh = [definition for definition in suite.new_definitions if definition.signature in used]
    if not fresh:
        return
    try:
        registry.register(project, origin, new_steps(fresh))
    except RegistryError as error:  # the suite stands; only sharing its steps failed
        log.warning("build_suite.register_failed", error=str(error))


def first_pass_results(store: ArtifactStore, batch: Batch, suite: Suite, ids: list[str]
                       ) -> dict[str, ReplayResult] | None:
    """A regeneration's first pass replayed this very suite (the same text, in its chunks) green for every scenario
    in it: its results stand for the suite's replay. None otherwise (no pass, another text, a scenario red or
    settled later)."""
    results = chunk_results(store, batch, suite_digest(suite))
    if not ids or not all(i in results and results[i].passed for i in ids):
        return None
    return {i: results[i] for i in ids}
