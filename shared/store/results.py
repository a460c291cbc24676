"""A finished batch's verdicts as results files (shared/results.py): one CaseResult per job, its steps as the
scenario version said them, a failure's screenshot read from the job's run record."""

from __future__ import annotations

from collections.abc import Callable

from pydantic import ValidationError
from sqlmodel import Session, col, select

from shared.artifacts import ArtifactNotFoundError, ArtifactStore
from shared.models import Batch, Job
from shared.models import Scenario as ScenarioRow
from shared.records import RunRecord
from shared.results import CaseResult, step_texts
from shared.store.batches import job_artifacts_prefix, job_run_record_key
from shared.store.scenarios import scenario_from_row


def failure_screenshot(store: ArtifactStore, job: Job) -> str | None:
    """The key, under the job's artifacts, of the last screenshot of the step that failed (None: none kept)."""
    try:
        record = RunRecord.model_validate_json(store.get_bytes(job_run_record_key(job)))
    except (ArtifactNotFoundError, ValidationError, ValueError):
        return None
    step = (job.failed_step or 0) - 1
    shots = [op.screenshot for op in record.operations if op.screenshot and (step < 0 or op.step_index == step)]
    if not shots:
        return None
    run_folder = job_run_record_key(job).removeprefix(job_artifacts_prefix(job)).rsplit("/", 1)[0]
    return f"{run_folder}/{shots[-1]}"


def batch_results(session: Session, store: ArtifactStore, batch: Batch,
                  link: Callable[[Job, str], str]) -> list[CaseResult]:
    """Each job of the batch as a CaseResult; `link(job, key)` is where the caller serves an artifact of the job."""
    rows = session.exec(select(Job, ScenarioRow).where(Job.batch_id == batch.id, Job.scenario_id == ScenarioRow.id)
                        .order_by(col(Job.id))).all()
    results = []
    for job, row in rows:
        scenario = scenario_from_row(row)
        failed = job.state == "failed"
        shot = failure_screenshot(store, job) if failed else None
        results.append(CaseResult(
            id=job.external_id, title=scenario.title, feature=scenario.feature or batch.feature,
            steps=step_texts(scenario), passed=job.state == "passed", failed_step=job.failed_step,
            kind=job.failure_kind if failed else None,
            reason=job.reason or ("" if job.state in ("passed", "failed") else f"the job is {job.state}"),
            seconds=float((job.timings or {}).get("seconds") or 0.0),
            screenshots=[link(job, shot)] if shot else []))
    return results
