"""Accepting an app_changed job's regenerated script, and flakiness over nights, on PostgreSQL without a worker."""

from __future__ import annotations

import uuid

import pytest
from sqlalchemy import update
from sqlmodel import col

from shared.models import Batch, Job, Project
from shared.models import Scenario as ScenarioRow
from shared.store import (
    Conflict,
    JobResult,
    SuiteBusy,
    accept_candidate,
    claim_job,
    create_batch,
    engine_for,
    finish_job,
    flakiness,
    job_run_record_key,
    jobs_of,
    latest_verified_job,
    reading,
    writing,
)
from tests.service.test_jobs import make_batch

pytestmark = pytest.mark.service  # its tier (tests/conftest.py)

CANDIDATE = {"passed": True, "run_record": "candidate/S-0/attempt-1/run.json", "diff": "candidate/script.diff",
             "script": [{"step": "When Search for Davis", "pattern": "Search for {string}", "locators": ["x"]}]}


def finish(engine, job_id: int, verdict: JobResult) -> None:
    claim = claim_job(engine, job_id, "worker", lease_s=60)
    assert claim.status == "claimed"
    assert finish_job(engine, job_id, "worker", verdict).owned


def app_changed(candidate: dict) -> JobResult:
    return JobResult("failed", failed_step=2, failure_kind="action", reason="gone", generation_attempts=1,
                   triage="app_changed", triage_detail={"replays": 2, "candidate": candidate},
                   script=[{"step": "When Click Find Owner", "pattern": "Click Find Owner", "locators": ["y"]}])


def suite_settled(engine, batch_id: int) -> None:
    with writing(engine) as session:
        session.execute(update(Batch).where(Batch.id == batch_id).values(suite_state="ready"))
        session.commit()


def test_an_accepted_script_becomes_the_verified_one_and_rebuilds_the_suite(service_db):
    engine = engine_for(service_db)
    batch_id, (passed_id, changed_id) = make_batch(engine)
    finish(engine, changed_id, app_changed(CANDIDATE))
    with pytest.raises(Conflict, match=f"batch {batch_id} is running: accept once it has finished"):
        accept_candidate(engine, *project_and_batch(engine, batch_id), changed_id)
    finish(engine, passed_id, JobResult("passed", generation_attempts=1, triage="passed"))
    with reading(engine) as session:
        changed = session.get(Job, changed_id)
        assert latest_verified_job(session, changed.scenario_id) is None  # app_changed: not verified by itself
    with pytest.raises(SuiteBusy):  # the batch's suite is still being built
        accept_candidate(engine, *project_and_batch(engine, batch_id), changed_id)
    suite_settled(engine, batch_id)
    project_id = project_and_batch(engine, batch_id)[0]
    with pytest.raises(Conflict, match="only an app_changed job"):
        accept_candidate(engine, project_id, batch_id, passed_id)
    assert accept_candidate(engine, project_id + 1, batch_id, changed_id) is None  # another project's batch

    job, now = accept_candidate(engine, project_id, batch_id, changed_id)
    assert now and job.accepted_at is not None and job.script == CANDIDATE["script"]
    assert accept_candidate(engine, project_id, batch_id, changed_id)[1] is False  # accepted once only
    with reading(engine) as session:
        verified = latest_verified_job(session, job.scenario_id)
        assert verified is not None and verified.id == changed_id
        assert job_run_record_key(verified).endswith("/attempts/1/candidate/S-0/attempt-1/run.json")
        assert session.get(Batch, batch_id).suite_state == "building"


def test_a_candidate_that_failed_too_cannot_be_accepted(service_db):
    engine = engine_for(service_db)
    batch_id, (job_id,) = make_batch(engine, size=1)
    failed = {"passed": False, "failed_step": 3, "failure_kind": "expectation", "reason": "not shown"}
    finish(engine, job_id, app_changed(failed))
    suite_settled(engine, batch_id)
    with pytest.raises(Conflict, match=r"failed too at step 3 \(expectation: not shown\)"):
        accept_candidate(engine, project_and_batch(engine, batch_id)[0], batch_id, job_id)


def test_flakiness_counts_each_scenario_over_the_regenerations_up_to_a_batch(service_db):
    engine = engine_for(service_db)
    nights = []
    for classes in (("flake", "passed"), ("passed", "passed"), ("flake", "generated")):
        batch_id, job_ids = make_batch(engine)
        for job_id, triage in zip(job_ids, classes, strict=True):
            finish(engine, job_id, JobResult("passed", generation_attempts=1, triage=triage))
        nights.append(batch_id)
    # make_batch makes a project per batch: put the three nights in the first one's project
    project_id = project_and_batch(engine, nights[0])[0]
    with writing(engine) as session:
        session.execute(update(Job).where(col(Job.batch_id).in_(nights)).values(project_id=project_id))
        session.commit()
    with reading(engine) as session:
        assert flakiness(session, project_id, nights[2], ["S-0", "S-1"]) == {"S-0": (2, 3), "S-1": (0, 2)}
        assert flakiness(session, project_id, nights[1], ["S-0"]) == {"S-0": (1, 2)}  # up to that batch


def project_and_batch(engine, batch_id: int) -> tuple[int, int]:
    with reading(engine) as session:
        return session.get(Batch, batch_id).project_id, batch_id


def test_only_the_latest_finished_batch_s_job_is_accepted(service_db):
    engine = engine_for(service_db)
    batch_id, (job_id,) = make_batch(engine, size=1)
    project_id = project_and_batch(engine, batch_id)[0]
    with pytest.raises(Conflict, match="only an app_changed job"):  # still queued
        accept_candidate(engine, project_id, batch_id, job_id)
    finish(engine, job_id, app_changed(CANDIDATE))
    suite_settled(engine, batch_id)
    with writing(engine) as session:  # the next night ran the same scenario version again
        job = session.get(Job, job_id)
        scenario = session.get(ScenarioRow, job.scenario_id)
        project = session.get(Project, project_id)
        later, _ = create_batch(session, project, idempotency_key=uuid.uuid4().hex, fingerprint="y",
                                scenarios=[scenario], base_url=project.base_url, brain="builtin", grounding="hte")
        later_job = jobs_of(session, later.id)[0].id
    finish(engine, later_job, app_changed(CANDIDATE))
    with pytest.raises(Conflict, match=f"batch {later.id} ran S-0 after this one"):
        accept_candidate(engine, project_id, batch_id, job_id)

