"""A finished batch's results event, delivered to the project's report_to as the deliver_webhook task does it
(results_sender, deliver_results) against PostgreSQL and the local recorder standing in for TestRail: one result
per case, each attempt in the delivery log, and reporting disabled after 3 answers 4xx in a row."""

from __future__ import annotations

import pytest
from sqlmodel import Session, select

from shared.artifacts.local import LocalArtifactStore
from shared.models import Job, Outbox, Project
from shared.store import RESULTS_EVENT, JobResult, deliver_results, engine_for, finish_job
from tests.service.conftest import new_job
from tests.tm_recorder import Recorder
from workers.service.tasks import results_sender

pytestmark = pytest.mark.service


@pytest.fixture
def recorder():
    running = Recorder().start()
    yield running
    running.stop()


def finished_batch(client, settings, petclinic, recorder, external_id: str = "OWN-1") -> tuple[int, str]:
    """A project reporting to the recorder, with a batch of one job finished failed: its results event."""
    project, batch_id, job_id = new_job(client, settings, petclinic)
    engine = engine_for(settings.database_url)
    with Session(engine) as session:
        job = session.get(Job, job_id)
        job.external_id = external_id
        session.add(job)
        session.commit()
    answer = client.patch("/v1/projects/me", json={"report_to": {
        "kind": "testrail", "url": recorder.url, "run_id": 7, "user": recorder.user, "secret": recorder.key}},
        headers=project.headers)
    assert answer.status_code == 200, answer.text
    assert finish_job(engine, job_id, None, JobResult(state="failed", failed_step=1, failure_kind="action",
                                                      reason="no such link", timings={"seconds": 2.5})).owned
    with Session(engine) as session:
        (event,) = session.exec(select(Outbox).where(Outbox.batch_id == batch_id, Outbox.type == RESULTS_EVENT)).all()
    return project.id, event.id


def test_the_results_reach_the_system_once_with_one_result_per_case(client, settings, petclinic, recorder,
                                                                    tmp_path):
    project_id, event_id = finished_batch(client, settings, petclinic, recorder)
    engine = engine_for(settings.database_url)
    send = results_sender(settings, LocalArtifactStore(tmp_path))
    # OWN-1 is no TestRail case id: nothing to post, said in the log, never retried
    delivery = deliver_results(engine, event_id, send, disable_after=3)
    assert delivery.status == "failed" and not delivery.attempt.retryable
    assert "no case of the batch is a TestRail case" in delivery.attempt.error and recorder.received == []


def test_three_answers_4xx_in_a_row_disable_reporting(client, settings, petclinic, recorder, tmp_path):
    recorder.answer_with = 400
    project_id, event_id = finished_batch(client, settings, petclinic, recorder, external_id="C42")
    engine = engine_for(settings.database_url)
    send = results_sender(settings, LocalArtifactStore(tmp_path))
    assert [deliver_results(engine, event_id, send, disable_after=3).status for _ in range(3)] == ["failed"] * 3
    assert len(recorder.received) == 3 and recorder.received[0].json()["results"][0]["case_id"] == 42
    with Session(engine) as session:
        project = session.get(Project, project_id)
        event = session.get(Outbox, event_id)
    assert project.report_disabled_at is not None and "3 answers 4xx in a row, the last HTTP 400" in \
        project.report_disabled_reason
    assert event.gave_up_at is not None and event.delivered_at is None
    assert deliver_results(engine, event_id, send, disable_after=3).status == "skipped"  # disabled: not posted
    assert len(recorder.received) == 3
