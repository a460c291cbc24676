"""Leases: a job claimed through its row and held by a renewed lease while one worker runs it, handed back when
its browser crashed, found again when its message may be lost (its lease ran out, it was never sent)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import and_, func, or_, update
from sqlalchemy.engine import Engine
from sqlmodel import Session, col, select

from shared.models import FULL_REGENERATION_KINDS, JOB_FINISHED, Batch, Job, Project, Scenario, as_utc, utcnow
from shared.store.batches import verified
from shared.store.sessions import MAX_CLAIMS, UNSENT_GRACE_S, mark_sent, reading, writing


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
        return Claim("claimed", job, batch, session.get(Project, job.project_id),
                     session.get(Scenario, job.scenario_id), verified=verified)


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
    mark_sent(session, Job.sent_at, job_ids, moment)
