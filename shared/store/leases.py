"""Leases: a job claimed through its row and held by a renewed lease while one worker runs it, handed back when
its browser crashed, found again when its message may be lost (its lease ran out, it was never sent)."""

from __future__ import annotations

import contextlib
import zlib
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import and_, exists, func, or_, text, update
from sqlalchemy.engine import Engine
from sqlalchemy.orm import aliased
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


def release_job(engine: Engine, job_id: int, owner: str, *, undo_claim: bool = False) -> bool:
    """Hand a running job back to the queue (its browser crashed; a retry runs it afresh). `undo_claim`: the claim
    did nothing with the job (a regeneration's chunk that never replayed it), so it does not count as an attempt."""
    attempt = Job.attempt - 1 if undo_claim else Job.attempt
    with writing(engine) as session:
        released = session.execute(
            update(Job).where(Job.id == job_id, Job.state == "running", Job.lease_owner == owner)
            .values(state="queued", lease_owner=None, lease_until=None, attempt=attempt)
        ).rowcount
        session.commit()
        return bool(released)


def stale_jobs(engine: Engine, requeue_after_s: int, *, now: datetime | None = None,
               unsent_grace_s: int = UNSENT_GRACE_S, limit: int = 1000, lost_before: datetime | None = None
               ) -> list[int]:
    """Jobs whose message may be lost, by when it was last sent (job.sent_at), so that a job is re-sent at most
    once per `requeue_after_s` however often the sweep runs:
    - queued and never sent (the broker was down when it was accepted), once `unsent_grace_s` old;
    - queued and not sent for `requeue_after_s` while no job of its batch was taken or finished meanwhile (a job
      waiting behind the others of a large batch is not lost), or sent before `lost_before` (the broker lost every
      message sent before then: it restarted without its data);
    - running on a lease that expired (its worker died) and not sent since the lease ran out, or not for
      `requeue_after_s`.
    Mark what was sent with `mark_jobs_sent`."""
    now = now or utcnow()
    quiet_since = now - timedelta(seconds=requeue_after_s)
    resend_before = quiet_since
    if lost_before is not None:
        resend_before = max(resend_before, min(lost_before, now))
    never_sent = and_(col(Job.sent_at).is_(None), col(Job.created_at) < now - timedelta(seconds=unsent_grace_s))
    # A queued job of a batch whose jobs are being taken is waiting behind them in the queue (a large batch, a
    # regeneration's later chunks), not lost: it is sent again once its batch has made no progress for
    # requeue_after_s. One sent before the broker lost its data is sent again at once all the same.
    other = aliased(Job)
    progressing = exists().where(other.batch_id == Job.batch_id,
                                 or_(col(other.started_at) >= quiet_since, col(other.finished_at) >= quiet_since))
    waited_long = and_(col(Job.sent_at) < quiet_since, ~progressing)
    lost = col(Job.sent_at) < min(lost_before, now) if lost_before is not None else None
    with reading(engine) as session:
        query = select(Job.id).where(or_(
            and_(Job.state == "queued", or_(never_sent, waited_long, *([lost] if lost is not None else []))),
            and_(Job.state == "running", col(Job.lease_until) < now,
                 or_(col(Job.sent_at).is_(None), col(Job.sent_at) < col(Job.lease_until),
                     col(Job.sent_at) < resend_before)),
        )).order_by(col(Job.id)).limit(limit)
        return list(session.exec(query).all())


def mark_jobs_sent(session: Session, job_ids: Sequence[int], moment: datetime | None = None) -> None:
    """Record that these jobs' messages were handed to the broker now; commits."""
    mark_sent(session, Job.sent_at, job_ids, moment)


@contextlib.contextmanager
def batch_lock(engine: Engine, batch_id: int, purpose: str) -> Iterator[None]:
    """Held by one process at a time for this batch and purpose (PostgreSQL: a session advisory lock, released
    with the block or the connection); the embedded database serves one process: nothing to lock."""
    if engine.dialect.name != "postgresql":
        yield
        return
    key = zlib.crc32(purpose.encode()) & 0x7FFFFFFF
    with engine.connect() as connection:
        connection.execute(text("SELECT pg_advisory_lock(:key, :batch)"), {"key": key, "batch": batch_id})
        connection.commit()
        try:
            yield
        finally:
            connection.execute(text("SELECT pg_advisory_unlock(:key, :batch)"), {"key": key, "batch": batch_id})
            connection.commit()
