"""Jobs: claimed through their row, held by a renewed lease, finished with the batch's outbox event in one
transaction; and the jobs whose message may be lost."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import and_, func, or_, update
from sqlalchemy.engine import Engine
from sqlmodel import Session, col, select

from shared.models import (
    FULL_REGENERATION_KINDS,
    JOB_FINISHED,
    Batch,
    Job,
    Outbox,
    Project,
    Scenario,
    as_utc,
    utcnow,
)
from shared.records import cut_reason
from shared.store.batches import attempt_artifact_prefix, verified
from shared.store.outbox import batch_summary, new_event_id
from shared.store.sessions import MAX_CLAIMS, UNSENT_GRACE_S, Conflict, reading, writing
from shared.triage import TRIAGE_ORDER
from shared.webhooks import event as webhook_event


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
    # In a regeneration (kind regenerate or nightly): the scenario version's latest passed job, whose run record is
    # its verified script, replayed first. None: generated from scratch.
    verified: Job | None = None


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
        verified = latest_verified_job(session, job.scenario_id) if batch.kind in FULL_REGENERATION_KINDS else None
        return Claim("claimed", job, batch, session.get(Project, job.project_id), session.get(Scenario, job.scenario_id),
                     verified=verified)


def latest_verified_job(session: Session, scenario_row_id: int) -> Job | None:
    """The scenario version's latest verified job (a passed one, or an app_changed one whose regenerated script a
    person accepted): its run record (job_run_record_key) is the version's verified script. A failed regeneration
    (app_changed) leaves the one before it the latest: the verified script stays until replaced."""
    return session.exec(select(Job).where(Job.scenario_id == scenario_row_id, verified(),
                                          col(Job.result_prefix).is_not(None))
                        .order_by(col(Job.finished_at).desc(), col(Job.id).desc()).limit(1)).first()


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
class JobResult:
    """A job's result as the job row stores it: the verdict (state, failed step, kind, reason; records.Verdict as the
    agent gives it) with its attempts, timings, model usage, script and triage."""

    state: str  # passed | failed
    failed_step: int | None = None
    failure_kind: str | None = None
    reason: str | None = None
    generation_attempts: int | None = None
    timings: dict | None = None
    model_usage: dict | None = None
    script: list | None = None
    triage: str | None = None  # a regeneration's class (shared/triage.py)
    triage_detail: dict | None = None

    def __post_init__(self) -> None:
        if self.reason is not None:
            self.reason = cut_reason(self.reason)


@dataclass
class Finished:
    owned: bool  # False: the job was no longer ours (taken over, or already finished); nothing was written
    event_id: str | None = None  # the batch.completed event, when this job was the batch's last


def finish_job(engine: Engine, job_id: int, owner: str | None, verdict: JobResult, attempt: int | None = None
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
                    model_usage=verdict.model_usage, script=verdict.script, triage=verdict.triage,
                    triage_detail=verdict.triage_detail, finished_at=now, lease_until=None,
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
            batch.suite_state = "building"  # the caller sends its build after the commit (BUILD_SUITE)
            batch.jobs_passed, batch.jobs_failed = counts.get("passed", 0), counts.get("failed", 0)
            triage = dict(session.execute(select(Job.triage, func.count()).where(
                Job.batch_id == batch.id, col(Job.triage).is_not(None)).group_by(Job.triage)).all())
            triage = {name: triage[name] for name in TRIAGE_ORDER if name in triage}
            event = Outbox(id=new_event_id(), project_id=batch.project_id, batch_id=batch.id, type="batch.completed",
                           payload=webhook_event("batch.completed", batch_summary(batch, triage)))
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


class SuiteBusy(Conflict):
    """The batch's suite is being built: an acceptance now could be overtaken by that build; ask again shortly."""


def accept_candidate(engine: Engine, project_id: int, batch_id: int, job_id: int) -> tuple[Job, bool] | None:
    """A person accepts an app_changed job's regenerated script (triage_detail["candidate"], a passed one): it
    becomes the scenario version's verified script (job_run_record_key) and the batch's suite is built again
    (suite_state "building": the caller sends the build after the commit). (job, True) when accepted now,
    (job, False) when it was accepted before; None when the project has no such job; Conflict when there is nothing
    to accept."""
    with writing(engine) as session:
        batch = session.exec(select(Batch).where(Batch.id == batch_id, Batch.project_id == project_id)
                             .with_for_update()).first()
        job = session.get(Job, job_id) if batch is not None else None
        if job is None or job.batch_id != batch_id:
            return None
        if job.accepted_at is not None:
            return job, False
        candidate = (job.triage_detail or {}).get("candidate")
        if job.triage != "app_changed" or not candidate:
            raise Conflict(f"job {job_id} ({job.external_id}) is {job.triage or job.state}: only an app_changed "
                           "job has a regenerated script to accept")
        if not candidate.get("passed"):
            where = f"at step {candidate['failed_step']} " if candidate.get("failed_step") else ""
            raise Conflict(f"{job.external_id}'s regenerated script failed too {where}"
                           f"({candidate.get('failure_kind')}: {candidate.get('reason')}): the application does not "
                           "do what the scenario says; fix the application, or change the scenario (a new version is "
                           "generated afresh)")
        newest = session.exec(select(Scenario).where(Scenario.project_id == project_id,
                                                     Scenario.external_id == job.external_id)
                              .order_by(col(Scenario.version).desc()).limit(1)).first()
        if newest is not None and newest.deleted_at is not None:
            raise Conflict(f"{job.external_id} was deleted")
        if newest is not None and newest.version > job.scenario_version:
            raise Conflict(f"{job.external_id} has a newer version ({newest.version}) than this job's "
                           f"({job.scenario_version}); the next regeneration generates it afresh")
        later = session.exec(select(Job.batch_id).where(Job.scenario_id == job.scenario_id, Job.batch_id > batch_id,
                                                       col(Job.state).in_(JOB_FINISHED))
                             .order_by(col(Job.batch_id).desc()).limit(1)).first()
        if later is not None:
            raise Conflict(f"batch {later} ran {job.external_id} after this one: accept its job there")
        if batch.state != "finished":
            raise Conflict(f"batch {batch_id} is {batch.state}: accept once it has finished and its suite is built")
        if batch.suite_state == "building":
            raise SuiteBusy(f"the suite of batch {batch_id} is being built; accept again in a moment")
        job.accepted_at, job.script = utcnow(), candidate.get("script")
        batch.suite_state, batch.suite_sent_at = "building", None
        session.add_all([job, batch])
        session.commit()
        return job, True
