"""Artifacts are keyed by job and claim attempt: a job taken over from a worker that still runs never mixes the two
runs' files, the old run stops at its next write once it has lost its lease, its late result is dropped, and the
artifacts listing shows the attempt that finished the job."""

from __future__ import annotations

import time
from datetime import timedelta

import pytest
from sqlalchemy import update

from shared.models import Job, utcnow
from shared.store import (
    JobResult,
    claim_job,
    engine_for,
    finish_job,
    reading,
    writing,
)
from tests.service.conftest import new_job
from workers.service.scenario_job import LeaseLost, claim_store
from workers.service.tasks import LeaseKeeper

pytestmark = pytest.mark.service  # its tier (tests/conftest.py)

RUN = "OWN-1/attempt-1/run.json"  # the pipeline's key for generation attempt 1, the same in every claim


def test_a_taken_over_job_keeps_each_claims_artifacts_apart_and_lists_the_finishing_one(client, settings, petclinic):
    project, batch_id, job_id = new_job(client, settings, petclinic)
    engine = engine_for(settings.database_url)
    store = client.app.state.services.store()

    # Worker A claims the job and writes; then stalls (no renewal) until its lease runs out.
    first = claim_job(engine, job_id, "worker-a", lease_s=60)
    keeper = LeaseKeeper(engine, job_id, "worker-a", lease_s=0.3)
    old_run = claim_store(store, first, keeper.check)
    old_run.put_bytes(RUN, b"run of worker a", "application/json")
    with writing(engine) as session:
        session.execute(update(Job).where(Job.id == job_id).values(lease_until=utcnow() - timedelta(seconds=1)))
        session.commit()
    # Worker B takes it over: claim 2, its own folder.
    second = claim_job(engine, job_id, "worker-b", lease_s=60)
    assert second.status == "claimed" and second.job.attempt == 2
    new_run = claim_store(store, second)
    assert old_run.prefix.endswith(f"/jobs/{job_id}/attempts/1/") and new_run.prefix.endswith(f"/jobs/{job_id}/attempts/2/")

    with keeper:  # A wakes up: its next renewal finds the job taken over, and its next write stops the run
        deadline = time.monotonic() + 5
        while not keeper.lost.is_set() and time.monotonic() < deadline:
            time.sleep(0.05)
        assert keeper.lost.is_set()
        with pytest.raises(LeaseLost):
            old_run.put_bytes(RUN, b"late write of worker a", "application/json")
    new_run.put_bytes(RUN, b"run of worker b", "application/json")
    new_run.put_bytes("report.json", b"{}", "application/json")

    assert not finish_job(engine, job_id, "worker-a", JobResult("failed", reason="late"), attempt=1).owned  # dropped
    assert finish_job(engine, job_id, "worker-b", JobResult("passed", generation_attempts=1), attempt=2).owned
    with reading(engine) as session:
        job = session.get(Job, job_id)
        assert (job.state, job.result_prefix) == ("passed", new_run.prefix)

    listing = client.get(f"/v1/batches/{batch_id}/jobs/{job_id}/artifacts", headers=project.headers).json()
    assert listing["prefix"] == new_run.prefix
    assert sorted(a["key"] for a in listing["artifacts"]) == ["OWN-1/attempt-1/run.json", "report.json"]
    one = client.get(f"/v1/batches/{batch_id}/jobs/{job_id}/artifacts/{RUN}", headers=project.headers)
    assert one.status_code == 200 and one.content == b"run of worker b"
    assert store.get_bytes(old_run.prefix + RUN) == b"run of worker a"  # neither run overwrote the other
