"""The service's data access, in one place: projects and their keys, versioned scenarios, batches and jobs
(claim, lease, finish), the outbox and its delivery log. The API routes and the Celery tasks both call it.

Two rules hold everywhere:
- a batch finishes in the transaction that finishes its last job, decided from the job rows (never from
  Celery chords), and that same transaction writes the batch.completed outbox event;
- messages are sent only after the transaction that created their rows has committed (the caller's job), and
  `mark_jobs_sent` / `mark_events_sent` record when; a message that could not be sent, or was lost, is found again
  by `stale_jobs` / `undelivered_events` (beat's sweep), which re-send only what was not sent for a while.
"""

from __future__ import annotations

import hashlib
import json
import re
import secrets
import uuid
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import Row, and_, func, or_, update
from sqlalchemy import select as sa_select
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, col, select

from shared.db import make_engine
from shared.logging import log
from shared.models import (
    FULL_REGENERATION_KINDS,
    JOB_FINISHED,
    Batch,
    Job,
    Outbox,
    Project,
    Scenario,
    WebhookDelivery,
    as_utc,
    utcnow,
)
from shared.scenarios import Scenario as ScenarioDefinition
from shared.webhooks import DeliveryAttempt
from shared.webhooks import event as webhook_event

API_KEY_PREFIX = "sfk_"
MAX_CLAIMS = 3  # a job started this many times without finishing (killed workers, time limits) fails
# A job or event whose message was never handed to the broker (the broker was down when its row was committed,
# or the sender died in between) is sent by the sweep once it is this old: enough for the sender to have tried.
UNSENT_GRACE_S = 30

_engines: dict[str, Engine] = {}


class Conflict(Exception):
    """The request contradicts stored state (an Idempotency-Key reused with another body)."""


# --- engines and sessions -------------------------------------------------------------------------------------


def engine_for(database_url: str, *, pool_size: int = 5, max_overflow: int = 10) -> Engine:
    """One engine per URL per process (after fork, call `dispose_engines` first)."""
    if database_url not in _engines:
        _engines[database_url] = make_engine(database_url, pool_size=pool_size, max_overflow=max_overflow)
    return _engines[database_url]


def dispose_engines() -> None:
    """Forget connections inherited across fork: they belong to the parent."""
    for engine in _engines.values():
        engine.dispose(close=False)
    _engines.clear()


@contextmanager
def writing(engine: Engine) -> Iterator[Session]:
    """A session for a read-modify-write transaction (SQLite: BEGIN IMMEDIATE, so writers queue up)."""
    with Session(engine.execution_options(sqlite_immediate=True), expire_on_commit=False) as session:
        yield session


def reading(engine: Engine) -> Session:
    return Session(engine, expire_on_commit=False)


# --- projects -------------------------------------------------------------------------------------------------


def hash_key(api_key: str) -> str:
    return hashlib.sha256(api_key.encode()).hexdigest()


def create_project(session: Session, **fields: object) -> tuple[Project, str]:
    """A new project and its API key (returned once; only its hash is stored)."""
    api_key = API_KEY_PREFIX + secrets.token_urlsafe(32)
    project = Project(api_key_hash=hash_key(api_key), **fields)
    session.add(project)
    session.commit()
    session.refresh(project)
    return project, api_key


def project_by_hash(session: Session, key_hash: str) -> Project | None:
    return session.exec(select(Project).where(Project.api_key_hash == key_hash)).first()


def project_id_by_hash(session: Session, key_hash: str) -> int | None:
    return session.exec(select(Project.id).where(Project.api_key_hash == key_hash)).first()


def registry_project(project: Project) -> str:
    """The project's name in the step registry (1-100 of A-Z a-z 0-9 _ . -), unique by id."""
    slug = re.sub(r"[^A-Za-z0-9_.-]+", "-", project.name).strip("-.")[:80] or "project"
    return f"{slug}-{project.id}"


# --- scenarios ------------------------------------------------------------------------------------------------


def definition_of(scenario: ScenarioDefinition) -> dict:
    """The stored definition: the scenario as it was given, without its id (the external id is a column). A
    scenario given as `text` is stored as its text alone: its steps are derived from it again when it is read."""
    return scenario.model_dump(mode="json", exclude={"id", "steps"} if scenario.text else {"id"})


def scenario_from_row(row: Scenario) -> ScenarioDefinition:
    definition = dict(row.definition)
    if definition.get("text"):
        definition.pop("steps", None)  # stored beside its text by earlier versions: derived, not given
    return ScenarioDefinition.model_validate({**definition, "id": row.external_id})


def latest_scenario(session: Session, project_id: int, external_id: str, version: int | None = None) -> Scenario | None:
    query = select(Scenario).where(Scenario.project_id == project_id, Scenario.external_id == external_id)
    if version is not None:
        return session.exec(query.where(Scenario.version == version)).first()
    return session.exec(query.order_by(col(Scenario.version).desc()).limit(1)).first()


def upsert_scenario(session: Session, project_id: int, scenario: ScenarioDefinition) -> tuple[Scenario, bool]:
    """The scenario's latest version when its definition is unchanged, else a new version; (row, created).

    Flushes, does not commit. Two writers of one external id at once: the unique (project, external id, version)
    makes one of them retry on the next version number.
    """
    definition = definition_of(scenario)
    for _ in range(5):
        latest = latest_scenario(session, project_id, scenario.id)
        if latest is not None and latest.definition == definition:
            return latest, False
        row = Scenario(project_id=project_id, external_id=scenario.id, definition=definition,
                       version=(latest.version + 1) if latest else 1)
        try:
            with session.begin_nested():
                session.add(row)
        except IntegrityError:
            continue
        return row, True
    raise Conflict(f"scenario {scenario.id!r} is being changed by several requests at once; try again")


def upsert_scenarios(session: Session, project_id: int, scenarios: Sequence[ScenarioDefinition]) -> list[Scenario]:
    """`upsert_scenario` for many at once (a batch of a thousand): one query for their latest versions, one
    insert of the new ones. Flushes, does not commit. When another writer adds a version meanwhile, the
    scenarios are upserted one by one instead."""
    ids = [scenario.id for scenario in scenarios]
    latest = {row.external_id: row for row in latest_scenarios(session, project_id, ids)} if ids else {}
    rows: list[Scenario] = []
    fresh: list[Scenario] = []
    for scenario in scenarios:
        definition = definition_of(scenario)
        known = latest.get(scenario.id)
        if known is not None and known.definition == definition:
            rows.append(known)
            continue
        row = Scenario(project_id=project_id, external_id=scenario.id, definition=definition,
                       version=(known.version + 1) if known else 1)
        rows.append(row)
        fresh.append(row)
    if not fresh:
        return rows
    try:
        with session.begin_nested():
            session.add_all(fresh)
    except IntegrityError:
        return [upsert_scenario(session, project_id, scenario)[0] for scenario in scenarios]
    return rows


def latest_scenarios(session: Session, project_id: int, external_ids: Sequence[str] | None = None) -> list[Scenario]:
    """Every scenario's latest version (or those of `external_ids`), by external id."""
    newest = select(Scenario.external_id, func.max(Scenario.version).label("version")).where(
        Scenario.project_id == project_id
    )
    if external_ids is not None:
        newest = newest.where(col(Scenario.external_id).in_(list(external_ids)))
    newest = newest.group_by(Scenario.external_id).subquery()
    query = (
        select(Scenario)
        .join(newest, and_(Scenario.external_id == newest.c.external_id, Scenario.version == newest.c.version))
        .where(Scenario.project_id == project_id)
        .order_by(Scenario.external_id)
    )
    return list(session.exec(query).all())


# --- batches --------------------------------------------------------------------------------------------------


def request_hash(document: object) -> str:
    return hashlib.sha256(json.dumps(document, sort_keys=True, default=str).encode()).hexdigest()


def artifact_prefix(project_id: int, batch_id: int, job_id: int) -> str:
    """The job's root in the artifact store; each claim of the job writes in an attempt folder below it."""
    return f"projects/{project_id}/batches/{batch_id}/jobs/{job_id}/"


def attempt_artifact_prefix(job_prefix: str, attempt: int) -> str:
    """Where the job's claim number `attempt` writes: projects/<p>/batches/<b>/jobs/<j>/attempts/<n>/. Two claims
    of one job (a redelivery, a take-over while the old worker still runs) never write the same keys."""
    return f"{job_prefix}attempts/{attempt}/"


def job_artifacts_prefix(job: Job) -> str:
    """Where the job's artifacts are: the attempt that finished it, else its latest claim's (still running)."""
    if job.result_prefix:
        return job.result_prefix
    return attempt_artifact_prefix(job.artifact_prefix, max(job.attempt, 1))


def batch_prefix(project_id: int, batch_id: int) -> str:
    return f"projects/{project_id}/batches/{batch_id}/"


def find_batch(session: Session, project_id: int, batch_id: int) -> Batch | None:
    batch = session.get(Batch, batch_id)
    return batch if batch is not None and batch.project_id == project_id else None


def batch_by_key(session: Session, project_id: int, idempotency_key: str) -> Batch | None:
    return session.exec(
        select(Batch).where(Batch.project_id == project_id, Batch.idempotency_key == idempotency_key)
    ).first()


def create_batch(
    session: Session,
    project: Project,
    *,
    idempotency_key: str,
    fingerprint: str,
    scenarios: Sequence[Scenario],
    base_url: str,
    brain: str,
    grounding: str,
    kind: str = "on_demand",
) -> tuple[Batch, bool]:
    """The batch for this Idempotency-Key: the existing one (created False), else a new one with a queued job per
    scenario, committed. The same key with another request (fingerprint) raises Conflict."""
    existing = batch_by_key(session, project.id, idempotency_key)
    if existing is None:
        previous = previous_batch_id(session, project.id, kind)
        batch = Batch(project_id=project.id, idempotency_key=idempotency_key, request_hash=fingerprint, kind=kind,
                      base_url=base_url, brain=brain, grounding=grounding, jobs_total=len(scenarios),
                      previous_batch_id=previous)
        try:
            with session.begin_nested():
                session.add(batch)
                session.flush()
                jobs = [Job(batch_id=batch.id, project_id=project.id, scenario_id=scenario.id,
                            external_id=scenario.external_id, scenario_version=scenario.version,
                            artifact_prefix="") for scenario in scenarios]
                session.add_all(jobs)
                session.flush()  # one multi-row insert; the ids come back with it
                for job in jobs:
                    job.artifact_prefix = artifact_prefix(project.id, batch.id, job.id)
            session.commit()
            return batch, True
        except IntegrityError:  # the same key, sent twice at once: the other request made it
            session.rollback()
            existing = batch_by_key(session, project.id, idempotency_key)
            if existing is None:
                raise
    if existing.request_hash != fingerprint:
        raise Conflict(f"Idempotency-Key {idempotency_key!r} was used for batch {existing.id} with another request")
    return existing, False


def previous_batch_id(session: Session, project_id: int, kind: str) -> int | None:
    """The batch a new one of `kind` is compared with in the what-changed report: for a full regeneration
    (regenerate, nightly) the project's latest finished full regeneration, so that "removed" and "added" mean
    the suite changed, not that an on-demand batch held a few scenarios; for any other batch, the project's latest
    finished batch. A batch still running is never the reference (its verdicts are not known yet)."""
    query = select(Batch.id).where(Batch.project_id == project_id, Batch.state == "finished")
    if kind in FULL_REGENERATION_KINDS:
        query = query.where(col(Batch.kind).in_(FULL_REGENERATION_KINDS))
    query = query.order_by(col(Batch.finished_at).desc(), col(Batch.id).desc()).limit(1)
    return session.exec(query).first()


def jobs_of(session: Session, batch_id: int) -> list[Job]:
    return list(session.exec(select(Job).where(Job.batch_id == batch_id).order_by(col(Job.id))).all())


# What a batch's progress shows of each job: rows of these columns, not Job objects (the script, a passed job's
# steps and locators, is the large part of a row and is not shown; building ORM objects costs more than the query).
JOB_PROGRESS_COLUMNS = (Job.id, Job.external_id, Job.scenario_version, Job.state, Job.attempt, Job.failed_step,
                        Job.failure_kind, Job.reason, Job.generation_attempts, Job.timings, Job.model_usage,
                        Job.started_at, Job.finished_at)


# What a batch's progress shows of the batch itself, labelled "batch_<column>" beside the job columns.
BATCH_PROGRESS_COLUMNS = tuple(column.label(f"batch_{column.key}") for column in (
    Batch.id, Batch.kind, Batch.state, Batch.base_url, Batch.brain, Batch.grounding, Batch.previous_batch_id,
    Batch.created_at, Batch.started_at, Batch.finished_at))


def read_batch_progress(session: Session, project_id: int, batch_id: int) -> tuple[dict, list[Row]] | None:
    """The project's batch (a dict of BATCH_PROGRESS_COLUMNS without the prefix) and its jobs in id order (rows
    with JOB_PROGRESS_COLUMNS as attributes): one statement, so the two agree, and rows rather than ORM objects
    (the status is the route clients poll). None when the project has no such batch."""
    statement = (sa_select(*BATCH_PROGRESS_COLUMNS, *JOB_PROGRESS_COLUMNS).outerjoin(Job, Job.batch_id == Batch.id)
                 .where(Batch.id == batch_id, Batch.project_id == project_id).order_by(Job.id))
    rows = session.execute(statement).all()
    if not rows:
        return None
    first = rows[0]._mapping
    batch = {column.key.removeprefix("batch_"): first[column.key] for column in BATCH_PROGRESS_COLUMNS}
    return batch, [row for row in rows if row.id is not None]


def queued_job_ids(session: Session, batch_id: int) -> list[int]:
    return list(session.exec(select(Job.id).where(Job.batch_id == batch_id, Job.state == "queued")).all())


# --- jobs: claim, lease, finish -------------------------------------------------------------------------------


@dataclass
class Claim:
    """What generate_job found: "claimed" (run it), "finished" (nothing to do), "busy" (another worker holds a
    live lease: look again in retry_in_s), "abandoned" (started MAX_CLAIMS times), "missing"."""

    status: str
    job: Job | None = None
    batch: Batch | None = None
    project: Project | None = None
    scenario: Scenario | None = None
    retry_in_s: float = 0.0


def claim_job(engine: Engine, job_id: int, owner: str, lease_s: int) -> Claim:
    """Take the job if it is queued, or running on a lease that expired; a finished job is left alone."""
    now = utcnow()
    claimable = or_(Job.state == "queued", and_(Job.state == "running", col(Job.lease_until) < now))
    with writing(engine) as session:
        taken = session.execute(
            update(Job)
            .where(Job.id == job_id, claimable, Job.attempt < MAX_CLAIMS)
            .values(state="running", lease_owner=owner, lease_until=now + timedelta(seconds=lease_s),
                    attempt=Job.attempt + 1, started_at=func.coalesce(Job.started_at, now))
        ).rowcount
        session.commit()
        job = session.get(Job, job_id)
        if job is None:
            return Claim("missing")
        if not taken:
            if job.state in JOB_FINISHED:
                return Claim("finished", job)
            lease_until = as_utc(job.lease_until)
            if job.state == "running" and lease_until is not None and lease_until > now:
                return Claim("busy", job, retry_in_s=(lease_until - now).total_seconds() + 1)
            return Claim("abandoned", job)
        # Its own transaction, after the claim: never hold a job row while waiting for the batch row.
        session.execute(update(Batch).where(Batch.id == job.batch_id, Batch.state == "queued")
                        .values(state="running", started_at=now))
        session.commit()
        batch = session.get(Batch, job.batch_id)
        return Claim("claimed", job, batch, session.get(Project, job.project_id), session.get(Scenario, job.scenario_id))


def renew_lease(engine: Engine, job_id: int, owner: str, lease_s: int) -> bool:
    """Push the lease forward while the job runs; False when another worker has taken the job over."""
    with writing(engine) as session:
        renewed = session.execute(
            update(Job).where(Job.id == job_id, Job.state == "running", Job.lease_owner == owner)
            .values(lease_until=utcnow() + timedelta(seconds=lease_s))
        ).rowcount
        session.commit()
        return bool(renewed)


def release_job(engine: Engine, job_id: int, owner: str) -> bool:
    """Hand a running job back to the queue (its browser crashed; a retry runs it afresh)."""
    with writing(engine) as session:
        released = session.execute(
            update(Job).where(Job.id == job_id, Job.state == "running", Job.lease_owner == owner)
            .values(state="queued", lease_owner=None, lease_until=None)
        ).rowcount
        session.commit()
        return bool(released)


@dataclass
class Verdict:
    """A job's result as the job row stores it."""

    state: str  # passed | failed
    failed_step: int | None = None
    failure_kind: str | None = None
    reason: str | None = None
    generation_attempts: int | None = None
    timings: dict | None = None
    model_usage: dict | None = None
    script: list | None = None


@dataclass
class Finished:
    owned: bool  # False: the job was no longer ours (taken over, or already finished); nothing was written
    event_id: str | None = None  # the batch.completed event, when this job was the batch's last


def finish_job(engine: Engine, job_id: int, owner: str | None, verdict: Verdict, attempt: int | None = None
               ) -> Finished:
    """Write the verdict; when it is the batch's last job, finish the batch and write the outbox event, all in one
    transaction. `owner` None: finish an abandoned job (queued, or running on an expired lease).

    `attempt` is the claim that produced the verdict (Claim.job.attempt): its artifact folder becomes the job's
    result_prefix, and a verdict from any other claim of the job is dropped. None: the job's latest claim."""
    now = utcnow()
    with writing(engine) as session:
        job = session.get(Job, job_id)
        if job is None:
            return Finished(False)
        attempt = job.attempt if attempt is None else attempt
        result_prefix = attempt_artifact_prefix(job.artifact_prefix, attempt) if attempt >= 1 else None
        # Every job of a batch finishes under the batch's row lock, so exactly one sees the batch complete.
        batch = session.exec(select(Batch).where(Batch.id == job.batch_id).with_for_update()).one()
        if owner is not None:
            ours = and_(Job.state == "running", Job.lease_owner == owner)
        else:  # nobody holds it: queued, or running on a lease that ran out
            ours = or_(Job.state == "queued", and_(Job.state == "running", col(Job.lease_until) < now))
        written = session.execute(
            update(Job).where(Job.id == job_id, Job.attempt == attempt, ours)
            .values(state=verdict.state, failed_step=verdict.failed_step, failure_kind=verdict.failure_kind,
                    reason=verdict.reason, generation_attempts=verdict.generation_attempts, timings=verdict.timings,
                    model_usage=verdict.model_usage, script=verdict.script, finished_at=now, lease_until=None,
                    result_prefix=result_prefix)
        ).rowcount
        if not written:
            session.rollback()
            return Finished(False)
        counts = dict(session.execute(
            select(Job.state, func.count()).where(Job.batch_id == batch.id).group_by(Job.state)
        ).all())
        event_id = None
        if not counts.get("queued") and not counts.get("running") and batch.state != "finished":
            batch.state, batch.finished_at = "finished", now
            batch.jobs_passed, batch.jobs_failed = counts.get("passed", 0), counts.get("failed", 0)
            event = Outbox(id=new_event_id(), project_id=batch.project_id, batch_id=batch.id, type="batch.completed",
                           payload=webhook_event("batch.completed", batch_summary(batch)))
            session.add(event)
            event_id = event.id
        else:
            batch.jobs_passed, batch.jobs_failed = counts.get("passed", 0), counts.get("failed", 0)
        session.add(batch)
        session.commit()
        return Finished(True, event_id)


def stale_jobs(engine: Engine, requeue_after_s: int, *, now: datetime | None = None,
               unsent_grace_s: int = UNSENT_GRACE_S, limit: int = 1000, lost_before: datetime | None = None
               ) -> list[int]:
    """Jobs whose message may be lost, by when it was last sent (job.sent_at), so that a job is re-sent at most
    once per `requeue_after_s` however often the sweep runs:
    - queued and never sent (the broker was down when it was accepted), once `unsent_grace_s` old;
    - queued and not sent for `requeue_after_s`, or sent before `lost_before` (the broker lost every message sent
      before then: it restarted without its data);
    - running on a lease that expired (its worker died) and not sent since the lease ran out, or not for
      `requeue_after_s`.
    Mark what was sent with `mark_jobs_sent`."""
    now = now or utcnow()
    resend_before = now - timedelta(seconds=requeue_after_s)
    if lost_before is not None:
        resend_before = max(resend_before, min(lost_before, now))
    never_sent = and_(col(Job.sent_at).is_(None), col(Job.created_at) < now - timedelta(seconds=unsent_grace_s))
    with reading(engine) as session:
        query = select(Job.id).where(or_(
            and_(Job.state == "queued", or_(never_sent, col(Job.sent_at) < resend_before)),
            and_(Job.state == "running", col(Job.lease_until) < now,
                 or_(col(Job.sent_at).is_(None), col(Job.sent_at) < col(Job.lease_until),
                     col(Job.sent_at) < resend_before)),
        )).order_by(col(Job.id)).limit(limit)
        return list(session.exec(query).all())


def mark_jobs_sent(session: Session, job_ids: Sequence[int], moment: datetime | None = None) -> None:
    """Record that these jobs' messages were handed to the broker now; commits."""
    if job_ids:
        session.execute(update(Job).where(col(Job.id).in_(list(job_ids))).values(sent_at=moment or utcnow()))
        session.commit()


# --- the outbox and webhook deliveries ------------------------------------------------------------------------


def new_event_id() -> str:
    return "evt_" + uuid.uuid4().hex


def batch_summary(batch: Batch) -> dict:
    """The batch.completed event's data."""
    return {
        "batch_id": batch.id,
        "project_id": batch.project_id,
        "kind": batch.kind,
        "state": batch.state,
        "jobs": {"total": batch.jobs_total, "passed": batch.jobs_passed, "failed": batch.jobs_failed},
        "created_at": _iso(batch.created_at),
        "finished_at": _iso(batch.finished_at),
        "links": {
            "batch": f"/v1/batches/{batch.id}",
            "suite": f"/v1/batches/{batch.id}/suite.zip",
            "changes": f"/v1/batches/{batch.id}/changes",
        },
    }


def _iso(moment: datetime | None) -> str | None:
    moment = as_utc(moment)
    return moment.isoformat().replace("+00:00", "Z") if moment else None


def find_event(session: Session, project_id: int, event_id: str) -> Outbox | None:
    event = session.get(Outbox, event_id)
    return event if event is not None and event.project_id == project_id else None


def events_of_batch(session: Session, batch_id: int) -> list[Outbox]:
    return list(session.exec(select(Outbox).where(Outbox.batch_id == batch_id).order_by(col(Outbox.created_at))).all())


def deliveries_of(session: Session, event_id: str) -> list[WebhookDelivery]:
    query = select(WebhookDelivery).where(WebhookDelivery.event_id == event_id).order_by(col(WebhookDelivery.id))
    return list(session.exec(query).all())


def undelivered_events(engine: Engine, older_than_s: int, *, now: datetime | None = None,
                       unsent_grace_s: int = UNSENT_GRACE_S, limit: int = 1000, lost_before: datetime | None = None
                       ) -> list[str]:
    """Events to deliver whose message may be lost: never sent since they were written or reopened for a
    redelivery (once `unsent_grace_s` old), or sent more than `older_than_s` ago and not attempted since (the
    message was lost; an event being retried has attempts, and its retries are deliver_webhook's own), or sent
    before `lost_before` and not attempted since (the broker lost it). Mark what was sent with `mark_events_sent`."""
    now = now or utcnow()
    sent_before = now - timedelta(seconds=older_than_s)
    if lost_before is not None:
        sent_before = max(sent_before, min(lost_before, now))
    attempted_since_sent = (
        select(WebhookDelivery.id)
        .where(WebhookDelivery.event_id == Outbox.id, col(WebhookDelivery.at) >= col(Outbox.sent_at))
        .exists()
    )
    with reading(engine) as session:
        query = select(Outbox.id).where(
            col(Outbox.delivered_at).is_(None), col(Outbox.gave_up_at).is_(None),
            or_(
                and_(col(Outbox.sent_at).is_(None), col(Outbox.created_at) < now - timedelta(seconds=unsent_grace_s)),
                and_(col(Outbox.sent_at) < sent_before, ~attempted_since_sent),
            ),
        ).order_by(col(Outbox.created_at)).limit(limit)
        return list(session.exec(query).all())


def mark_events_sent(session: Session, event_ids: Sequence[str], moment: datetime | None = None) -> None:
    """Record that these events' deliver_webhook messages were handed to the broker now; commits."""
    if event_ids:
        session.execute(update(Outbox).where(col(Outbox.id).in_(list(event_ids))).values(sent_at=moment or utcnow()))
        session.commit()


@dataclass
class Delivery:
    """One run of deliver_webhook: "delivered", "failed" (see attempt.retryable), "skipped" (no webhook URL),
    "already" (delivered, and no redelivery asked since), "missing"."""

    status: str
    attempt: DeliveryAttempt | None = None


def deliver_event(engine: Engine, event_id: str, send: Callable[[str, str, Outbox], DeliveryAttempt]) -> Delivery:
    """Send one event once through `send(url, secret, event)` and log the attempt, holding the event's row lock
    meanwhile so that two tasks never send one event at the same time.

    A task that finds the row locked waits for the lock rather than skipping the event: the holder may be another
    delivery (then this one finds it delivered), but also the sender of this very message still marking it sent,
    or a redelivery being asked (skipping would drop the message that asked for it)."""
    with writing(engine) as session:
        event = session.exec(select(Outbox).where(Outbox.id == event_id).with_for_update()).first()
        if event is None:
            return Delivery("missing")
        if event.delivered_at is not None:
            return Delivery("already")
        project = session.get(Project, event.project_id)
        number = len(deliveries_of(session, event_id)) + 1
        skipped = None
        if project is None or not project.webhook_url or not project.webhook_secret:
            skipped = "the project has no webhook URL"
        elif project.webhook_disabled_at is not None:
            skipped = (f"the project's webhook is disabled ({project.webhook_disabled_reason}); set webhook_url again "
                       "with PATCH /v1/projects/me to enable it")
        if skipped:
            session.add(WebhookDelivery(event_id=event_id, attempt=number, status="skipped", error=skipped))
            session.commit()
            return Delivery("skipped")
        url = project.webhook_url
        attempt = send(url, project.webhook_secret, event)
        session.add(WebhookDelivery(event_id=event_id, attempt=number, status="delivered" if attempt.ok else "failed",
                                    status_code=attempt.status_code, error=attempt.error,
                                    duration_ms=attempt.duration_ms, at=attempt.attempted_at))
        if attempt.ok:
            event.delivered_at, event.gave_up_at = attempt.attempted_at, None
            session.add(event)
        disabled = attempt.endpoint_gone and disable_webhook(session, project.id, url, event_id, attempt.attempted_at)
        session.commit()
        if disabled:
            log.warning("webhook.disabled", project_id=project.id, event_id=event_id,
                        reason="the receiver answered HTTP 410 Gone")
        return Delivery("delivered" if attempt.ok else "failed", attempt)


def disable_webhook(session: Session, project_id: int, url: str, event_id: str, moment: datetime) -> bool:
    """The receiver answered 410 Gone: stop sending to it until the project sets its webhook_url again. Only when
    the URL that answered is still the project's (a PATCH meanwhile wins). Does not commit."""
    reason = f"HTTP 410 Gone from the receiver when delivering {event_id} at {_iso(moment)}"
    changed = session.execute(
        update(Project).where(Project.id == project_id, Project.webhook_url == url,
                              col(Project.webhook_disabled_at).is_(None))
        .values(webhook_disabled_at=moment, webhook_disabled_reason=reason)
    ).rowcount
    return bool(changed)


def give_up(engine: Engine, event_id: str) -> None:
    with writing(engine) as session:
        session.execute(update(Outbox).where(Outbox.id == event_id, col(Outbox.delivered_at).is_(None))
                        .values(gave_up_at=utcnow()))
        session.commit()


def reopen_event(session: Session, event: Outbox) -> None:
    """A redelivery asked through the API: the event is pending again until it is delivered (even after a success
    or after giving up); its attempts so far stay in the log."""
    # One UPDATE of all three columns, not the ORM's changed attributes: an event loaded while a worker was still
    # delivering it looks undelivered here, so `delivered_at = None` would be no change and the worker's success,
    # committed meanwhile, would stay and make the redelivery "already delivered".
    session.execute(update(Outbox).where(Outbox.id == event.id).values(delivered_at=None, gave_up_at=None,
                                                                        sent_at=None))
    session.commit()
    session.refresh(event)
