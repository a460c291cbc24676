"""Jobs' results: a job finished with its verdict (the batch's last one finishing the batch, with its outbox
event, in the same transaction), and an app_changed job's candidate accepted. Claims and leases: leases.py."""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import and_, func, or_, update
from sqlalchemy.engine import Engine
from sqlmodel import col, select

from shared.models import (
    JOB_FINISHED,
    Batch,
    Job,
    Outbox,
    Project,
    Scenario,
    utcnow,
)
from shared.records import cut_reason
from shared.store.batches import attempt_artifact_prefix
from shared.store.outbox import RESULTS_EVENT, batch_summary, new_event_id
from shared.store.sessions import Conflict, writing
from shared.triage import TRIAGE_ORDER
from shared.webhooks import event as webhook_event


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
            project = session.get(Project, batch.project_id)
            if project is not None and project.report_to and project.report_disabled_at is None:
                # The verdicts for its test-management system, delivered like the webhook (shared/reporting.py)
                session.add(Outbox(id=new_event_id(), project_id=batch.project_id, batch_id=batch.id,
                                   type=RESULTS_EVENT, payload=webhook_event(RESULTS_EVENT, {"batch_id": batch.id})))
        else:
            batch.jobs_passed, batch.jobs_failed = counts.get("passed", 0), counts.get("failed", 0)
        session.add(batch)
        session.commit()
        return Finished(True, event_id)


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
