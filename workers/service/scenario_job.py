"""One service job: one scenario version through the embedded pipeline, in the worker's pooled browser, its
artifacts under the claim's own folder (projects/<p>/batches/<b>/jobs/<j>/attempts/<n>/, n = the job's claim
attempt), its outcome as a job-row verdict."""

from __future__ import annotations

import tempfile
from collections.abc import Callable
from pathlib import Path

from celery.exceptions import SoftTimeLimitExceeded
from pydantic import ValidationError

from shared.artifacts import ArtifactNotFoundError, ArtifactStore, put_model
from shared.artifacts.prefixed import PrefixedStore
from shared.logging import log
from shared.models import FULL_REGENERATION_KINDS, Job, Project
from shared.records import RunRecord, attempt_prefix, locator_text
from shared.reset_request import LabelledReset, reset_command
from shared.scenarios import Scenario, ScenarioFile
from shared.settings import Settings
from shared.step_registry import StepRegistry, origin_of
from shared.store import (
    Claim,
    JobResult,
    attempt_artifact_prefix,
    job_run_record_key,
    registry_project,
    scenario_from_row,
)
from shared.triage import CANDIDATE_FOLDER, VerifiedScript
from shared.urls import TargetPolicy, UnsafeTargetError
from workers.agent.choice import Agent, open_agent
from workers.agent.execution.browser import BrowserSession
from workers.agent.pipeline import GenerationResult, RunStopped, generate_scenarios
from workers.agent.regeneration.regenerate import Regenerated, regenerate_scenarios
from workers.agent.regeneration.triage import FLAKE_RETRIES
from workers.agent.scripting.build import Suite, build_with_registry


class BrokenEnvironment(RuntimeError):
    """A regeneration found the environment broken (the start page does not load, the browser crashed): nothing is
    concluded about the scenario; the job goes back to the queue as after a browser crash."""


class LeaseLost(RunStopped):
    """Another worker has taken the job over (this worker's lease ran out): this run must stop, unfinished."""


class TimeLimitReached(RunStopped):
    """The job has run for its soft time limit. Celery's SoftTimeLimitExceeded, raised wherever the job happens to
    be, can be caught on its way by a handler that keeps one scenario's failure from ending the others; the
    job's fence checks the same limit at every artifact write, so the run still stops there."""


class ResetNotConfigured(ValueError):
    """The project names a reset command this worker's deployment does not configure."""


def project_reset(project: Project, settings: Settings) -> LabelledReset | None:
    """The reset command run before each of the project's scenarios (generation and every replay): its reset
    request as the command that POSTs it (shared/reset_request.py), or the operator's command it names
    (STEPFORGE_RESET_COMMANDS); None when the project has no reset."""
    if project.reset_url:
        return reset_command(project.reset_url, TargetPolicy.of(settings))
    if project.reset_command:
        command = getattr(settings, "reset_commands", {}).get(project.reset_command)
        if command is None:
            raise ResetNotConfigured(f"the project's reset command {project.reset_command!r} is not configured on "
                                     "this worker (STEPFORGE_RESET_COMMANDS)")
        # Named, never shown: an operator's command may hold a secret, and its output is the operator's to read.
        return LabelledReset(command, f"the reset command {project.reset_command!r}")
    return None


def claim_store(store: ArtifactStore, claim: Claim, fence: Callable[[], None] | None = None) -> PrefixedStore:
    """The claim's view of the store: its own attempt folder, so two claims of one job never write the same keys."""
    assert claim.job is not None
    return PrefixedStore(store, attempt_artifact_prefix(claim.job.artifact_prefix, claim.job.attempt), fence)


def run_job(claim: Claim, settings: Settings, session: BrowserSession, store: ArtifactStore,
            registry: StepRegistry | None, fence: Callable[[], None] | None = None) -> JobResult:
    """Generate and verify the job's scenario; the verdict to write on the job row. `fence` (LeaseKeeper.check)
    stops the run with LeaseLost at its next artifact write once another worker has taken the job over."""
    job, batch, project = claim.job, claim.batch, claim.project
    assert job is not None and batch is not None and project is not None and claim.scenario is not None
    # Checked again here: the name may resolve elsewhere now than when the batch was accepted.
    TargetPolicy.of(settings).check_url(batch.base_url)
    # A stored scenario that no longer validates raises here: the job's internal error (its reason in one line, the
    # traceback in error.txt), never retried for ever.
    scenario = scenario_from_row(claim.scenario)
    try:
        reset = project_reset(project, settings)
    except (ResetNotConfigured, UnsafeTargetError) as error:
        return JobResult(state="failed", failure_kind="error", reason=f"not generated: {error}", generation_attempts=0)
    job_store = claim_store(store, claim, fence)
    if claim.verified is not None:  # a regeneration of a scenario version verified before: replay it first
        record = verified_record(store, claim.verified)
        if record is not None:
            return replay_job(claim, scenario, record, settings, session, job_store, registry, reset)
    result = generate(scenario, claim, settings, session, job_store, registry, reset)
    job_store.put_bytes("report.json", result.report_json().encode(), "application/json")
    verdict = verdict_of(result)
    if batch.kind in FULL_REGENERATION_KINDS:  # a new scenario version, or one never verified: generated afresh
        verdict.triage = "generated"
    return verdict


def generate(scenario: Scenario, claim: Claim, settings: Settings, session: BrowserSession, job_store: ArtifactStore,
             registry: StepRegistry | None, reset: str | None = None) -> GenerationResult:
    """The scenario through the agent (`reset` run before each scenario run and replay), its run records and suite/
    in job_store. Its steps are not registered: the batch's suite registers them once built (batch_suite.assemble),
    so no job's steps change another's grouping."""
    batch, project = claim.batch, claim.project
    assert batch is not None and project is not None
    agent = open_agent(settings, batch.brain, batch.grounding, batch.step_writer)
    try:
        result = generate_scenarios(ScenarioFile(scenarios=[scenario], feature=batch.feature), base_url=batch.base_url,
                                    settings=settings, store=job_store, reset_command=reset, registry=registry,
                                    project=registry_project(project), agent=agent, session=session,
                                    suite_format=batch.suite_format, register_steps=False)
    finally:
        agent.close()
    store_suite(job_store, "suite/", result.suite, batch.suite_format, settings.files_dir)
    return result


def verified_record(store: ArtifactStore, verified: Job) -> RunRecord | None:
    """The run record of a verified job; None when it is gone or no longer reads as one (the scenario is then
    generated afresh, never failed for it)."""
    try:
        return RunRecord.model_validate_json(store.get_bytes(job_run_record_key(verified)))
    except (ArtifactNotFoundError, ValidationError, ValueError) as exc:
        log.warning("regeneration.verified_record_unreadable", job_id=verified.id, error=str(exc).splitlines()[0])
        return None


def replay_job(claim: Claim, scenario: Scenario, record: RunRecord, settings: Settings, session: BrowserSession,
               job_store: ArtifactStore, registry: StepRegistry | None, reset: str | None = None) -> JobResult:
    """The regeneration of the scenario version's verified script (workers/agent/regeneration/regenerate.py):
    replayed, a red replay triaged, an app_changed one generated afresh as a candidate under candidate/. The script
    kept (the verified one; the healed one for drift) is the job's run record, so the batch's suite and the next
    regeneration build on it. A broken environment concludes nothing: raised."""
    batch, project = claim.batch, claim.project
    assert batch is not None and project is not None
    # A job claimed before was red in the batch's first pass (or its run was cut short): this replay is already its
    # second try. (A chunk that never replayed a job undoes its claim: that job still gets both tries.)
    retries = 0 if claim.job is not None and claim.job.attempt > 1 else FLAKE_RETRIES
    opened: list[Agent] = []

    def agent() -> Agent:  # opened only for a candidate: a replay makes no model call
        if not opened:
            opened.append(open_agent(settings, batch.brain, batch.grounding, batch.step_writer))
        return opened[0]

    def keep(done: Regenerated) -> None:
        """The kept script is the job's run record whatever the class, stored before any candidate is generated: the
        batch's suite takes a broken_environment scenario's script as it was."""
        kept = done.kept[scenario.id][1].model_copy(update={"attempt": 1})
        put_model(job_store, f"{attempt_prefix(scenario.id, 1)}/run.json", kept)
        if done.triage[scenario.id].triage == "broken_environment":
            raise BrokenEnvironment(done.triage[scenario.id].environment or "the environment is broken")

    try:
        done = regenerate_scenarios(
            [VerifiedScript(scenario=scenario, record=record)], [], session, base_url=batch.base_url,
            settings=settings, store=job_store, candidate_store=PrefixedStore(job_store, CANDIDATE), agent=agent,
            reset_command=reset, registry=registry, project=registry_project(project), feature=batch.feature,
            flake_retries=retries, suite_format=batch.suite_format, on_settled=keep,
            stop_on=(SoftTimeLimitExceeded,))
        usage = (opened[0].usage() or None) if opened else None
    finally:
        for one in opened:
            one.close()
    triage = done.triage[scenario.id]
    kept = done.kept[scenario.id][1].model_copy(update={"attempt": 1})
    origin = origin_of(batch.base_url) if registry is not None else None
    suite, _problem = build_with_registry([(scenario, kept)], registry, origin, feature=batch.feature)
    store_suite(job_store, "suite/", suite, batch.suite_format, settings.files_dir)
    candidate = done.candidates.get(scenario.id)
    if candidate is not None:
        store = PrefixedStore(job_store, CANDIDATE)
        run_record = diff = None
        if candidate.passed and candidate.record is not None:
            store.put_bytes("script.diff", candidate.diff.encode(), "text/x-diff")
            store_suite(store, "suite/", candidate.regenerated, batch.suite_format, settings.files_dir)
            run_record = f"{CANDIDATE}{attempt_prefix(scenario.id, candidate.record.attempt)}/run.json"
            diff = f"{CANDIDATE}script.diff"
        triage.candidate = candidate.script(run_record, diff, script_summary(candidate.regenerated, scenario.id))
    job_store.put_bytes("report.json", triage.model_dump_json(indent=2).encode(), "application/json")
    detail = triage.model_dump(mode="json", include={"source", "replays", "drift", "app_change", "seconds"})
    if triage.candidate is not None:
        detail["candidate"] = triage.candidate.model_dump(mode="json")
    passed = triage.verdict.status == "passed"
    return JobResult(
        state="passed" if passed else "failed",
        failed_step=triage.verdict.step, failure_kind=triage.verdict.kind,
        reason=triage.verdict.reason or None,
        generation_attempts=1,
        timings={"seconds": triage.seconds, "replays": triage.replays},
        model_usage=usage,
        script=script_summary(suite, scenario.id),
        triage=triage.triage,
        triage_detail=detail,
    )


CANDIDATE = CANDIDATE_FOLDER  # where an app_changed job's regenerated script is, in its attempt folder


def store_suite(store: ArtifactStore, prefix: str, suite: Suite | None, suite_format: str = "cucumber-js",
                files_dir: Path | None = None) -> None:
    """The suite's files, as its folder holds them (a cucumber-js or playwright-bdd project, with the files its
    scenarios upload from files_dir), stored under prefix."""
    if suite is None:
        return
    with tempfile.TemporaryDirectory(prefix="stepforge-job-") as work:
        folder = Path(work) / "suite"
        suite.write(folder, files_dir=files_dir, suite_format=suite_format)
        for path in sorted(folder.rglob("*")):
            if path.is_file():
                store.put_file(f"{prefix}{path.relative_to(folder).as_posix()}", path, _content_type(path))


def verdict_of(result: GenerationResult) -> JobResult:
    """The job row's verdict of a one-scenario run: its outcome, as the run report gives it (Outcome.timings)."""
    outcome = result.outcomes[0]
    passed = outcome.verdict.status == "passed"
    return JobResult(
        state="passed" if passed else "failed",
        failed_step=None if passed else outcome.verdict.step,
        failure_kind=None if passed else outcome.verdict.kind,
        reason=None if passed else outcome.verdict.reason,
        generation_attempts=outcome.attempts,
        timings=outcome.timings(),
        model_usage=result.model_usage or None,
        script=script_summary(result.suite, outcome.scenario.id) if passed else None,
    )


def script_summary(suite: Suite | None, scenario_id: str) -> list[dict] | None:
    """The scenario's Gherkin steps with the locators their definitions use (what the changes report compares)."""
    if suite is None:
        return None
    script = next((s for s in suite.scripts if s.scenario_id == scenario_id), None)
    if script is None:
        return None
    definitions = {d.signature: d for d in suite.definitions}
    steps = []
    for use in script.steps:
        definition = definitions.get(use.signature)
        steps.append({
            "step": f"{use.keyword} {use.text}",
            "pattern": definition.pattern if definition else use.text,
            "locators": [locator_text(op.locator) for op in definition.ops if op.locator] if definition else [],
        })
    return steps


def _content_type(path: Path) -> str:
    return {".json": "application/json", ".js": "text/javascript", ".feature": "text/plain", ".md": "text/markdown",
            ".zip": "application/zip", ".png": "image/png"}.get(path.suffix, "text/plain")
