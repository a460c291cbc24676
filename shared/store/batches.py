"""Batches: made with their jobs in one transaction, idempotent by key; their progress and prefixes."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence

from sqlalchemy import ColumnElement, Row, case, or_
from sqlalchemy import select as sa_select
from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, col, func, select

from shared.models import (
    FULL_REGENERATION_KINDS,
    Batch,
    Job,
    Project,
    Scenario,
)
from shared.records import attempt_prefix
from shared.scenarios import feature_title_of_name
from shared.store.sessions import Conflict


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


def verified() -> ColumnElement[bool]:
    """A job whose script is verified: it passed, or a person accepted its regenerated script (accept_candidate)."""
    return or_(col(Job.state) == "passed", col(Job.accepted_at).is_not(None))


def job_run_record_key(job: Job) -> str:
    """The run record a finished job's script was built from (in its result attempt folder); for a job whose
    regenerated script a person accepted, that script's (triage_detail["candidate"]["run_record"])."""
    candidate = (job.triage_detail or {}).get("candidate") or {}
    if job.accepted_at is not None and candidate.get("run_record"):
        return f"{job_artifacts_prefix(job)}{candidate['run_record']}"
    return f"{job_artifacts_prefix(job)}{attempt_prefix(job.external_id, job.generation_attempts or 1)}/run.json"


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
    feature: str | None = None,
    suite_format: str | None = None,
    step_writer: str | None = None,
) -> tuple[Batch, bool]:
    """The batch for this Idempotency-Key: the existing one (created False), else a new one with a queued job per
    scenario, committed. The same key with another request (fingerprint) raises Conflict.

    The suite's choices not given are the project's defaults: the feature named after the project, cucumber-js,
    and the model step writer with the openai brain (the builtin rules otherwise), as the command line chooses."""
    existing = batch_by_key(session, project.id, idempotency_key)
    if existing is None:
        previous = previous_batch_id(session, project.id, kind)
        batch = Batch(project_id=project.id, idempotency_key=idempotency_key, request_hash=fingerprint, kind=kind,
                      base_url=base_url, brain=brain, grounding=grounding, jobs_total=len(scenarios),
                      previous_batch_id=previous,
                      feature=feature or project.default_feature or feature_title_of_name(project.name),
                      suite_format=suite_format or project.default_format or "cucumber-js",
                      step_writer=step_writer or project.default_step_writer
                      or ("model" if brain == "openai" else "builtin"))
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
    the suite changed, not that an on-demand batch held a few scenarios (the first one: the latest finished batch
    of any kind); for any other batch, the project's latest finished batch. A batch still running is never the
    reference (its verdicts are not known yet)."""
    query = select(Batch.id).where(Batch.project_id == project_id, Batch.state == "finished")
    latest = query.order_by(col(Batch.finished_at).desc(), col(Batch.id).desc()).limit(1)
    if kind in FULL_REGENERATION_KINDS:
        found = session.exec(latest.where(col(Batch.kind).in_(FULL_REGENERATION_KINDS))).first()
        if found is not None:
            return found
    return session.exec(latest).first()


def jobs_of(session: Session, batch_id: int) -> list[Job]:
    return list(session.exec(select(Job).where(Job.batch_id == batch_id).order_by(col(Job.id))).all())


def jobs_in(session: Session, batch_id: int, job_ids: list[int]) -> list[Job]:
    """These jobs of the batch (ids of another batch are ignored), in order of id."""
    return list(session.exec(select(Job).where(Job.batch_id == batch_id, col(Job.id).in_(job_ids))
                             .order_by(col(Job.id))).all())


# What a batch's progress shows of each job: rows of these columns, not Job objects (the script, a passed job's
# steps and locators, is the large part of a row and is not shown; building ORM objects costs more than the query).
JOB_PROGRESS_COLUMNS = (Job.id, Job.external_id, Job.scenario_version, Job.state, Job.attempt, Job.failed_step,
                        Job.failure_kind, Job.reason, Job.generation_attempts, Job.timings, Job.model_usage,
                        Job.triage, Job.started_at, Job.finished_at)


# What a batch's progress shows of the batch itself, labelled "batch_<column>" beside the job columns.
BATCH_PROGRESS_COLUMNS = tuple(column.label(f"batch_{column.key}") for column in (
    Batch.id, Batch.kind, Batch.state, Batch.base_url, Batch.brain, Batch.grounding, Batch.feature,
    Batch.suite_format, Batch.step_writer, Batch.previous_batch_id,
    Batch.created_at, Batch.started_at, Batch.finished_at, Batch.suite_state, Batch.suite_failed))


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


def earlier_jobs(session: Session, project_id: int, batch_id: int, external_ids: Sequence[str], *,
                 passed: bool = False) -> dict[str, Job]:
    """Each scenario's latest finished job in the project's batches before this one, whatever batch made it (with
    passed: its latest passed job, the script verified last): what a batch's changes compare with."""
    if not external_ids:
        return {}
    kept = verified() if passed else col(Job.state).in_(("passed", "failed"))
    newest = (select(func.max(Job.id)).where(Job.project_id == project_id, Job.batch_id < batch_id,
                                             col(Job.external_id).in_(list(external_ids)), kept)
              .group_by(Job.external_id))
    return {job.external_id: job for job in session.exec(select(Job).where(col(Job.id).in_(newest))).all()}


REPLAYED_CLASSES = ("passed", "flake", "drift", "app_changed")  # the triage classes that replayed a verified script


def flakiness(session: Session, project_id: int, batch_id: int, external_ids: Sequence[str]
              ) -> dict[str, tuple[int, int]]:
    """Per scenario, over the project's regenerations up to this batch: (times it was a flake, times its verified
    script was replayed), so a scenario that flakes night after night stands out from one that flaked once."""
    if not external_ids:
        return {}
    flake = func.sum(case((Job.triage == "flake", 1), else_=0))
    rows = session.exec(select(Job.external_id, flake, func.count()).where(
        Job.project_id == project_id, Job.batch_id <= batch_id, col(Job.external_id).in_(list(external_ids)),
        col(Job.triage).in_(REPLAYED_CLASSES)).group_by(Job.external_id)).all()
    return {external_id: (int(flakes or 0), int(total)) for external_id, flakes, total in rows}
