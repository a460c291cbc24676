"""The service's Celery tasks: generate one job, deliver one webhook event, and beat's periodic sweep.

Each may run more than once for one message (late acks, redelivery); each makes that harmless: a job is
claimed through its row (a finished job is left alone), an event that was delivered is not sent again.
"""

from __future__ import annotations

import os
import socket
import threading
import traceback
from collections.abc import Callable, Sequence
from datetime import UTC, date, datetime, time, timedelta
from time import monotonic

import structlog
from celery.exceptions import SoftTimeLimitExceeded
from sqlmodel import col, select

from shared.artifacts import ArtifactStore
from shared.job_queue import (
    BUILD_SUITE,
    DELIVER_WEBHOOK,
    GENERATE_JOB,
    REPLAY_CHUNK,
    SWEEP,
    broker_life_start,
    fleet_processes,
    send_events,
    send_jobs,
    send_regeneration,
    send_suites,
)
from shared.logging import log
from shared.models import FULL_REGENERATION_KINDS, JOB_FINISHED, Batch, Outbox, Project
from shared.models import Scenario as ScenarioRow
from shared.service_settings import ServiceSettings, get_service_settings
from shared.store import (
    MAX_CLAIMS,
    RESULTS_EVENT,
    JobResult,
    batch_by_key,
    batch_lock,
    claim_job,
    batch_results,
    create_batch,
    deliver_event,
    deliver_results,
    engine_for,
    finish_job,
    finish_suite,
    give_up,
    jobs_in,
    jobs_of,
    latest_scenarios,
    latest_verified_job,
    queued_job_ids,
    reading,
    registry_project,
    release_job,
    renew_lease,
    request_hash,
    scenario_from_row,
    stale_jobs,
    suite_jobs,
    unbuilt_suites,
    undelivered_events,
    writing,
)
from shared.urls import TargetPolicy, UnsafeTargetError
from shared.reporting import ReportTarget, send_report
from shared.secrets import SecretsKeyError, decrypt
from shared.webhooks import BACKOFF_S, DeliveryAttempt, deliver_once, next_delay
from workers.service.batch_replay import first_pass_suite, replay_first
from workers.service.batch_suite import SuiteBuild, assemble
from workers.service.celery_app import app, resources
from workers.service.pool import BrowserCrashedError
from workers.service.scenario_job import (
    BrokenEnvironment,
    LeaseLost,
    ResetNotConfigured,
    TimeLimitReached,
    claim_store,
    project_reset,
    run_job,
    verified_record,
)

BROWSER_CRASH_RETRIES = 2
ENVIRONMENT_RETRY_S = 30  # a regeneration that found the environment broken tries again this much later
# The sweep may hand many messages to the broker; the worker's own sends (one event) are short.
SWEEP_SEND_BUDGET_S = 60.0
EVENT_SEND_BUDGET_S = 5.0
# A suite build that raised (the artifact store or the registry away) is tried again after 10, 20, 40 s.
SUITE_BUILD_RETRIES = 3
SUITE_BUILD_RETRY_S = 10


def _engine(settings: ServiceSettings):
    return engine_for(settings.database_url, pool_size=2, max_overflow=2)


# --- generate_job ---------------------------------------------------------------------------------------------


@app.task(bind=True, name=GENERATE_JOB, max_retries=None)
def generate_job(self, job_id: int) -> str:
    """Claim the job row, run its scenario, write the verdict; the batch's last job also finishes the batch."""
    settings = get_service_settings()
    deadline = monotonic() + settings.task_soft_time_limit_s
    engine = _engine(settings)
    owner = f"{socket.gethostname()}:{os.getpid()}:{self.request.id}"
    bound = log.bind(job_id=job_id, task_id=self.request.id)
    claim = claim_job(engine, job_id, owner, settings.job_lease_s)
    if claim.status == "missing":
        bound.warning("generate_job.missing")
        return "missing"
    if claim.status == "finished":
        bound.info("generate_job.already_finished", state=claim.job.state)
        return "already finished"
    if claim.status == "busy":  # another worker runs it; if that one died, its lease runs out and we take over
        bound.info("generate_job.busy", retry_in_s=round(claim.retry_in_s))
        raise self.retry(countdown=claim.retry_in_s)
    if claim.status == "abandoned":
        _finish(engine, job_id, None, abandoned(claim), bound, batch_id=claim.job.batch_id)
        return "abandoned"
    ids = {"project_id": claim.job.project_id, "batch_id": claim.job.batch_id, "job_id": job_id}
    attempt = claim.job.attempt
    bound = bound.bind(**ids, attempt=attempt)
    bound.info("generate_job.claimed", scenario=claim.job.external_id, version=claim.job.scenario_version)
    keeper = LeaseKeeper(engine, job_id, owner, settings.job_lease_s)

    def fence() -> None:
        """Called at every artifact write: the run stops there once the job is taken over or out of time."""
        keeper.check()
        if monotonic() > deadline:
            raise TimeLimitReached(f"job {job_id}: {settings.task_soft_time_limit_s} s have passed")
    try:
        # The pipeline's own log lines carry the ids too. Every artifact write checks the lease first: once
        # another worker has taken the job over, this run stops at its next write (LeaseLost).
        with structlog.contextvars.bound_contextvars(**ids), keeper, resources.browser_pool().session() as session:
            verdict = run_job(claim, settings, session, resources.store(), resources.registry(), fence=fence)
    except LeaseLost:
        bound.warning("generate_job.lease_lost", detail="another worker took the job over; this run stopped and "
                                                        "its result is dropped")
        return "lease lost"
    except (BrowserCrashedError, BrokenEnvironment) as error:  # the machine's or the environment's: run it again
        crashed = isinstance(error, BrowserCrashedError)
        # Run again while the job has claims left (a claim more would find it abandoned, its class lost).
        if self.request.retries < BROWSER_CRASH_RETRIES and claim.job.attempt < MAX_CLAIMS \
                and release_job(engine, job_id, owner):
            bound.warning("generate_job.browser_crashed" if crashed else "generate_job.broken_environment",
                          error=str(error))
            raise self.retry(countdown=1 if crashed else ENVIRONMENT_RETRY_S) from None
        verdict = JobResult("failed", failure_kind="error",
                          reason=f"the browser crashed: {error}" if crashed else f"the environment is broken: {error}",
                          triage=crash_triage(claim))
    except (SoftTimeLimitExceeded, TimeLimitReached):
        verdict = JobResult("failed", failure_kind="error",
                          reason=f"time limit exceeded ({settings.task_soft_time_limit_s} s)")
    except Exception as error:  # noqa: BLE001 - the batch must finish whatever happens to one job
        bound.exception("generate_job.crashed")
        verdict = JobResult("failed", failure_kind="error",
                          reason=internal_error(error, claim_store(resources.store(), claim), traceback.format_exc()))
    _finish(engine, job_id, owner, verdict, bound, attempt, batch_id=claim.job.batch_id)
    return verdict.state


def abandoned(claim) -> JobResult:  # noqa: ANN001 - a Claim
    """The verdict of a job started MAX_CLAIMS times that never finished."""
    return JobResult("failed", failure_kind="error", reason=f"the job was started {claim.job.attempt} times and "
                                                            "never finished (worker killed or time limit exceeded)")


def crash_triage(claim) -> str | None:  # noqa: ANN001 - a Claim
    """A regeneration's class for a job the machine or the environment kept from running: nothing is concluded
    about a verified scenario (broken_environment); one never verified stays one to generate."""
    if claim.batch is None or claim.batch.kind not in FULL_REGENERATION_KINDS:
        return None
    return "broken_environment" if claim.verified is not None else "generated"


def internal_error(error: Exception, job_store: ArtifactStore, details: str) -> str:
    """The one-line reason of a job's internal error; its traceback is kept as the attempt's error.txt (when the
    store can take it)."""
    first = next((line.strip() for line in str(error).splitlines() if line.strip()), "")
    kind = type(error).__name__
    reason = f"internal error ({kind}: {first[:200]})" if first else f"internal error ({kind})"
    try:
        job_store.put_bytes("error.txt", details.encode(), "text/plain")
    except Exception as failure:  # noqa: BLE001 - the verdict is written whatever the store does
        log.warning("generate_job.error_txt_not_written", error=str(failure))
        return reason
    return f"{reason}; details in error.txt"


def _finish(engine, job_id: int, owner: str | None, verdict: JobResult, bound, attempt: int | None = None, *,
            batch_id: int) -> None:
    finished = finish_job(engine, job_id, owner, verdict, attempt)
    if not finished.owned:
        bound.warning("generate_job.lease_lost", detail="another worker took the job over; this result is dropped")
        return
    bound.info("generate_job.finished", state=verdict.state, failure_kind=verdict.failure_kind)
    if finished.event_id is not None:  # sent after the commit: the rows exist when the task runs
        bound.info("batch.completed", event_id=finished.event_id)
        with writing(engine) as session:  # not sent (broker down): it stays unsent and the sweep sends it
            send_suites(app, session, [batch_id], budget_s=EVENT_SEND_BUDGET_S)


# --- replay_chunk ---------------------------------------------------------------------------------------------


@app.task(bind=True, name=REPLAY_CHUNK, max_retries=0)
def replay_chunk(self, batch_id: int, job_ids: list[int]) -> str:
    """A chunk of a regeneration's first pass (workers/service/batch_replay.py): the chunk's verified scripts
    replayed as their part of the batch's first-pass suite, the green jobs finished, the others sent as jobs of
    their own. Whatever this chunk does not settle (it fails, its worker dies) is a job like any other: released and
    sent now, or claimed again once its lease ran out (this message delivered again, or the sweep). A job settled
    is never replayed again: its claim finds it finished."""
    settings = get_service_settings()
    engine = _engine(settings)
    owner = f"{socket.gethostname()}:{os.getpid()}:{self.request.id}"
    bound = log.bind(batch_id=batch_id, task_id=self.request.id)
    with reading(engine) as session:
        batch = session.get(Batch, batch_id)
        if batch is None:
            return "missing"
        pending = [(job, session.get(ScenarioRow, job.scenario_id), latest_verified_job(session, job.scenario_id))
                   for job in jobs_in(session, batch_id, job_ids) if job.state not in JOB_FINISHED]
        project = session.get(Project, batch.project_id)
    # Sent as jobs of their own at once: never verified (generated), or every job when the target or the reset is
    # refused (each fails saying why). Only queued ones: a running one is another worker's (a chunk delivered again).
    fresh = [job.id for job, _row, verified in pending if verified is None and job.state == "queued"]
    try:  # checked again, as a job does: the name may resolve elsewhere now than when the batch was accepted
        TargetPolicy.of(settings).check_url(batch.base_url)
        reset = project_reset(project, settings) if project is not None else None
    except (UnsafeTargetError, ResetNotConfigured):
        fresh = [job.id for job, _row, _verified in pending if job.state == "queued"]
        pending, reset = [], None
    claimed = []
    for job, row, verified in pending:
        if verified is None:
            continue
        claim = claim_job(engine, job.id, owner, settings.job_lease_s)
        if claim.status == "claimed":
            claimed.append((claim.job, row, verified))
        elif claim.status == "abandoned":  # started MAX_CLAIMS times, never finished: as generate_job finishes it
            _finish(engine, job.id, None, abandoned(claim), bound, batch_id=batch_id)
    bound.info("replay_chunk.claimed", replayed=len(claimed), generated=len(fresh))
    with writing(engine) as session:  # never verified: generated, as jobs of their own, at once
        send_jobs(app, session, fresh, budget_s=EVENT_SEND_BUDGET_S)
    held = [job.id for job, _row, _verified in claimed]
    # What the chunk does not settle runs as a job of its own: a red one's replay there is its second try; one never
    # replayed here (the chunk failed or ran out of time) has its claim undone, so its own job tries it twice.
    settled, red, unreplayed = [], [], held
    try:
        if claimed:  # leases renewed as a job's are: a worker killed mid-chunk loses its jobs within a lease
            with structlog.contextvars.bound_contextvars(project_id=batch.project_id, batch_id=batch_id), \
                    LeaseKeeper(engine, held, owner, settings.job_lease_s):
                store = resources.store()
                suite = first_pass_suite(batch, store, resources.registry(),
                                         lambda: batch_verified_scripts(engine, batch_id),
                                         lambda: batch_lock(engine, batch_id, "first-pass suite"))
                first = replay_first(batch, claimed, suite, store, settings, reset)
            settled, red, unreplayed = first.settled, first.red, first.unreplayed
    except Exception:  # noqa: BLE001 - the jobs are still there: each runs on its own
        bound.exception("replay_chunk.failed")
    for done in settled:
        _finish(engine, done.job_id, owner, done.verdict, bound, done.attempt, batch_id=batch_id)
    released = [job_id for job_id in red if release_job(engine, job_id, owner)]
    released += [job_id for job_id in unreplayed if release_job(engine, job_id, owner, undo_claim=True)]
    with writing(engine) as session:
        send_jobs(app, session, released, budget_s=EVENT_SEND_BUDGET_S)
    bound.info("replay_chunk.done", green=len(settled), red=len(released), generated=len(fresh))
    return f"{len(settled)} green, {len(released)} to triage, {len(fresh)} to generate"


def batch_verified_scripts(engine, batch_id: int) -> list[tuple]:  # noqa: ANN001 - (Scenario, RunRecord) pairs
    """Every verified script of the batch's scenario versions, which its first-pass suite is built from."""
    store = resources.store()
    with reading(engine) as session:
        pairs = [(session.get(ScenarioRow, job.scenario_id), latest_verified_job(session, job.scenario_id))
                 for job in jobs_of(session, batch_id)]
    scripts = [(scenario_from_row(row), verified_record(store, verified)) for row, verified in pairs
               if row is not None and verified is not None]
    return [(scenario, record) for scenario, record in scripts if record is not None]


# --- build_suite ----------------------------------------------------------------------------------------------


@app.task(bind=True, name=BUILD_SUITE, max_retries=SUITE_BUILD_RETRIES)
def build_batch_suite(self, batch_id: int) -> str:
    """Build the finished batch's one suite, replay it as a whole, store it (workers/service/batch_suite.py), then
    send the batch's webhook event, which names the suite's state. Running twice is harmless: the second finds it
    built, or builds the same bytes again. A build that fails is tried again; after SUITE_BUILD_RETRIES the suite is "error"
    (the log line says why) and the event goes all the same."""
    settings = get_service_settings()
    engine = _engine(settings)
    bound = log.bind(batch_id=batch_id, task_id=self.request.id)
    with reading(engine) as session:
        batch = session.get(Batch, batch_id)
        if batch is None or batch.suite_state != "building":
            return "nothing to build"
        project = session.get(Project, batch.project_id)
    jobs: list = []
    try:
        with reading(engine) as session:  # a stored scenario that no longer reads is this build's error, not a loop
            jobs = suite_jobs(session, batch_id)
        with structlog.contextvars.bound_contextvars(project_id=batch.project_id, batch_id=batch_id):
            built = assemble(batch, jobs, resources.store(), resources.registry(), settings,
                             registry_project(project) if project is not None else None,
                             project_reset(project, settings) if project is not None else None)
    except Exception as error:
        if self.request.retries < SUITE_BUILD_RETRIES:
            bound.warning("build_suite.retry", error=f"{type(error).__name__}: {error}", exc_info=True)
            raise self.retry(countdown=SUITE_BUILD_RETRY_S * 2**self.request.retries) from None
        bound.error("build_suite.failed", error=f"{type(error).__name__}: {error}", exc_info=True)
        built = SuiteBuild("error")
    events = finish_suite(engine, batch_id, built.state, built.failed)
    bound.info("build_suite.done", state=built.state, scenarios=len(jobs), failed=sorted(built.failed))
    with writing(engine) as session:  # not sent (broker down): they stay unsent and the sweep sends them
        send_events(app, session, events, budget_s=EVENT_SEND_BUDGET_S)
    return built.state


class LeaseKeeper:
    """Renews the jobs' leases (one job's, or the jobs a regeneration's first pass holds) every third of their
    length, on a thread of its own. When a renewal finds a job taken over (another worker claimed it after the
    lease ran out, or it was finished as abandoned), `lost` is set and `check()` raises LeaseLost: the run's
    artifact writes call it, so the old run stops instead of going on beside the new one (whose artifacts are in
    another attempt folder anyway); that job's result is dropped when it is written."""

    def __init__(self, engine, job_ids: int | Sequence[int], owner: str, lease_s: float) -> None:
        self.job_ids = [job_ids] if isinstance(job_ids, int) else list(job_ids)
        self.engine, self.owner, self.lease_s = engine, owner, lease_s
        self.lost = threading.Event()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name=f"lease-{self.job_ids[:1]}", daemon=True)

    def __enter__(self) -> LeaseKeeper:
        self._thread.start()
        return self

    def __exit__(self, *_exc: object) -> None:
        self._stop.set()
        self._thread.join(timeout=10)

    def check(self) -> None:
        if self.lost.is_set():
            raise LeaseLost(f"job {self.job_ids[0]}: another worker took it over; this run stops")

    def _run(self) -> None:
        held = list(self.job_ids)
        while held and not self._stop.wait(self.lease_s / 3):
            for job_id in list(held):
                try:
                    if not renew_lease(self.engine, job_id, self.owner, self.lease_s):
                        self.lost.set()
                        held.remove(job_id)
                        log.warning("generate_job.lease_lost", job_id=job_id)
                except Exception as error:  # noqa: BLE001 - a database blip: try again at the next tick
                    log.warning("generate_job.lease_renewal_failed", job_id=job_id, error=str(error))


# --- deliver_webhook ------------------------------------------------------------------------------------------


@app.task(bind=True, name=DELIVER_WEBHOOK, max_retries=None)
def deliver_webhook(self, event_id: str) -> str:
    """One attempt to deliver the event (batch.completed to the webhook, batch.results to the report_to); on a
    retryable failure, the next one after next_delay()."""
    settings = get_service_settings()
    engine = _engine(settings)

    def send(url: str, secret: str, event: Outbox) -> DeliveryAttempt:
        return deliver_once(url, secret, event.id, event.payload, timeout_s=settings.webhook_timeout_s,
                            policy=TargetPolicy.of(settings))

    with reading(engine) as session:
        kind = session.exec(select(Outbox.type).where(Outbox.id == event_id)).first()
    if kind == RESULTS_EVENT:  # a batch's verdicts for its project's test-management system
        delivery = deliver_results(engine, event_id, results_sender(settings, resources.store()),
                                   disable_after=settings.report_disable_after_4xx)
        return _settle(self, engine, event_id, delivery, "deliver_results", settings.report_max_attempts,
                       settings.report_backoff_s)
    delivery = deliver_event(engine, event_id, send)
    return _settle(self, engine, event_id, delivery, "deliver_webhook", settings.webhook_max_attempts, BACKOFF_S)


def _settle(task, engine, event_id: str, delivery, name: str, max_attempts: int, schedule) -> str:
    """Log the attempt; after a retryable failure the task runs again after next_delay(), else the event is given
    up."""
    bound = log.bind(event_id=event_id, attempt=task.request.retries + 1)
    bound.info(f"{name}.done", status=delivery.status,
               status_code=delivery.attempt.status_code if delivery.attempt else None)
    if delivery.status != "failed":
        return delivery.status
    attempt = delivery.attempt
    delay = next_delay(task.request.retries + 1, max_attempts=max_attempts, retry_after_s=attempt.retry_after_s,
                       schedule=schedule) if attempt.retryable else None
    if delay is None:
        give_up(engine, event_id)
        bound.warning(f"{name}.gave_up", error=attempt.error)
        return "gave up"
    raise task.retry(countdown=delay)


def results_sender(settings: ServiceSettings, store: ArtifactStore):
    """What posts one batch.results event to its project's report_to (shared/reporting.py): deliver_results' send."""
    def send(session, project: Project, event: Outbox) -> DeliveryAttempt:
        batch = session.get(Batch, event.batch_id)
        cases = batch_results(session, store, batch,
                              lambda job, key: f"/v1/batches/{batch.id}/jobs/{job.id}/artifacts/{key}")
        try:
            secret = decrypt(settings.secrets_key.get_secret_value() if settings.secrets_key else None,
                             project.report_secret or "")
        except SecretsKeyError as error:
            return DeliveryAttempt(url=project.report_to["url"], msg_id=event.id, ok=False, retryable=False,
                                   error=str(error), duration_ms=0, attempted_at=datetime.now(UTC))
        target = ReportTarget(kind=project.report_to["kind"], url=project.report_to["url"], secret=secret,
                              run_id=project.report_to.get("run_id"), user=project.report_to.get("user"))
        return send_report(target, cases, msg_id=event.id, timeout_s=settings.webhook_timeout_s,
                           policy=TargetPolicy.of(settings), links_base=(settings.public_url or "").rstrip("/"))
    return send


# --- beat: nightly regeneration and the sweep -----------------------------------------------------------------


@app.task(name=SWEEP)
def sweep() -> dict:
    """Enqueue the nightly regenerations that are due (once per project and day), and send again the messages
    that may have been lost (jobs and events not sent, or not sent for STEPFORGE_REQUEUE_AFTER_S)."""
    settings = get_service_settings()
    return sweep_once(_engine(settings), settings, datetime.now(UTC))


def sweep_once(engine, settings: ServiceSettings, now: datetime, celery=None) -> dict:
    """One sweep at `now`, sending through `celery` (default: this app). Whatever is re-sent is marked sent, so the
    next sweeps leave it alone for requeue_after_s; what cannot be sent (the broker is down) stays as it was."""
    celery = celery or app

    def send_job_ids(job_ids: Sequence[int]) -> None:
        with writing(engine) as session:
            send_jobs(celery, session, job_ids, budget_s=SWEEP_SEND_BUDGET_S, moment=now)

    fleet: list[int] = []  # asked once a sweep, when a nightly batch is made

    def send_nightly(batch_id: int, job_ids: Sequence[int]) -> None:
        fleet[:] = fleet or [fleet_processes(celery, settings)]
        with writing(engine) as session:
            send_regeneration(celery, session, batch_id, job_ids, budget_s=SWEEP_SEND_BUDGET_S, fleet=fleet[0],
                              moment=now)

    nightly = enqueue_nightly(engine, now, send_nightly, window_s=nightly_window_s(settings))
    # A broker that lost its data (restarted without persistence) holds none of the messages sent before its
    # life began: those jobs and events are sent again now, not requeue_after_s later.
    lost_before = broker_life_start(celery, now, budget_s=EVENT_SEND_BUDGET_S)
    jobs = stale_jobs(engine, settings.requeue_after_s, now=now, lost_before=lost_before)
    if jobs:
        send_job_ids(jobs)
    events = undelivered_events(engine, settings.requeue_after_s, now=now, lost_before=lost_before)
    if events:
        with writing(engine) as session:
            send_events(celery, session, events, budget_s=SWEEP_SEND_BUDGET_S, moment=now)
    suites = unbuilt_suites(engine, settings.requeue_after_s, now=now, lost_before=lost_before)
    if suites:
        with writing(engine) as session:
            send_suites(celery, session, suites, budget_s=SWEEP_SEND_BUDGET_S, moment=now)
    if nightly or jobs or events or suites:
        log.info("sweep.done", nightly_batches=nightly, requeued_jobs=len(jobs), requeued_events=len(events),
                 requeued_suites=len(suites))
    return {"nightly_batches": nightly, "requeued_jobs": len(jobs), "requeued_events": len(events),
            "requeued_suites": len(suites)}


def nightly_window_s(settings: ServiceSettings) -> int:
    """How long after its hour a nightly run may still start: the hour itself, or one sweep interval when the
    sweep runs less often than hourly (so no hour falls between two sweeps)."""
    return max(3600, settings.nightly_check_interval_s)


def nightly_due(hour_utc: int, now: datetime, window_s: int = 3600) -> date | None:
    """The day whose nightly run is due at `now` (its hour has begun, less than window_s ago), else None.
    A project whose hour has already passed today waits for tomorrow's."""
    now = now.astimezone(UTC)
    for day in (now.date(), now.date() - timedelta(days=1)):
        scheduled = datetime.combine(day, time(hour_utc), tzinfo=UTC)
        if scheduled <= now < scheduled + timedelta(seconds=window_s):
            return day
    return None


def enqueue_nightly(engine, now: datetime, send_batch_now: Callable[[int, Sequence[int]], None],
                    window_s: int = 3600) -> list[int]:
    """A nightly batch for each project whose hour is now (nightly_due; the key nightly-<day> makes it once a
    day); its jobs are sent after the commit (send_batch_now(batch id, job ids)). The ids of the batches made."""
    created = []
    hours = {(now - timedelta(seconds=back)).astimezone(UTC).hour for back in range(0, window_s + 1, 1800)}
    with reading(engine) as session:
        projects = session.exec(select(Project).where(col(Project.nightly_hour_utc).in_(sorted(hours)))).all()
    for project in projects:
        day = nightly_due(project.nightly_hour_utc, now, window_s)
        if day is None:
            continue
        key = f"nightly-{day.isoformat()}"
        with writing(engine) as session:
            scenarios = [] if batch_by_key(session, project.id, key) else latest_scenarios(session, project.id)
            if not scenarios:
                continue
            batch, new = create_batch(
                session, project, idempotency_key=key, fingerprint=request_hash({"nightly": key}),
                scenarios=scenarios, base_url=project.base_url, brain=project.default_brain,
                grounding=project.default_grounding, kind="nightly",
            )
            if new:
                send_batch_now(batch.id, queued_job_ids(session, batch.id))
                created.append(batch.id)
                log.info("nightly.enqueued", project_id=project.id, batch_id=batch.id, jobs=batch.jobs_total)
    return created
