"""The job lifecycle on PostgreSQL, without a worker: claim, lease, take-over, finish, batch completion, outbox."""

from __future__ import annotations

import uuid
from datetime import timedelta

import pytest
from sqlalchemy import update
from sqlmodel import func, select

from shared.models import Job, Outbox, utcnow
from shared.scenarios import Scenario as ScenarioDefinition
from shared.store import (
    MAX_CLAIMS,
    UNSENT_GRACE_S,
    JobResult,
    claim_job,
    create_batch,
    create_project,
    deliver_event,
    deliveries_of,
    engine_for,
    finish_job,
    finish_suite,
    jobs_of,
    reading,
    renew_lease,
    reopen_event,
    request_hash,
    stale_jobs,
    undelivered_events,
    upsert_scenario,
    upsert_scenarios,
    writing,
)
from shared.webhooks import DeliveryAttempt, new_secret

pytestmark = pytest.mark.service  # its tier (tests/conftest.py)

PASSED = JobResult("passed", generation_attempts=1, timings={"seconds": 1.0})


def make_batch(engine, size: int = 2) -> tuple[int, list[int]]:
    """A project with `size` scenarios and a batch of them, written directly (no message is sent)."""
    with writing(engine) as session:
        project, _key = create_project(session, name="jobs", base_url="http://127.0.0.1:9")
        rows = []
        for i in range(size):
            scenario = ScenarioDefinition(id=f"S-{i}", title=f"scenario {i}", steps=["Go to /"])
            rows.append(upsert_scenario(session, project.id, scenario)[0])
        batch, created = create_batch(session, project, idempotency_key=uuid.uuid4().hex, fingerprint="x",
                                      scenarios=rows, base_url=project.base_url, brain="builtin", grounding="hte")
        assert created
        return batch.id, [job.id for job in jobs_of(session, batch.id)]


def expire_lease(engine, job_id: int) -> None:
    with writing(engine) as session:
        session.execute(update(Job).where(Job.id == job_id).values(lease_until=utcnow() - timedelta(seconds=1)))
        session.commit()


def outbox_count(engine, batch_id: int) -> int:
    with writing(engine) as session:
        return session.exec(select(func.count()).select_from(Outbox).where(Outbox.batch_id == batch_id)).one()


def test_a_live_lease_keeps_others_out_and_an_expired_one_is_taken_over(service_db):
    engine = engine_for(service_db)
    _batch_id, (job_id, _other) = make_batch(engine)
    first = claim_job(engine, job_id, "worker-a", lease_s=60)
    assert first.status == "claimed" and first.job.attempt == 1 and first.batch.state == "running"
    busy = claim_job(engine, job_id, "worker-b", lease_s=60)
    assert busy.status == "busy" and 55 < busy.retry_in_s <= 61
    assert renew_lease(engine, job_id, "worker-a", lease_s=60)
    expire_lease(engine, job_id)  # worker-a died: its lease ran out
    second = claim_job(engine, job_id, "worker-b", lease_s=60)
    assert second.status == "claimed" and second.job.attempt == 2
    assert not renew_lease(engine, job_id, "worker-a", lease_s=60)
    assert not finish_job(engine, job_id, "worker-a", PASSED).owned  # a late result from the dead worker: dropped
    assert finish_job(engine, job_id, "worker-b", PASSED).owned
    assert claim_job(engine, job_id, "worker-c", lease_s=60).status == "finished"


def test_the_last_job_finishes_the_batch_with_exactly_one_event(service_db):
    engine = engine_for(service_db)
    batch_id, (first, second) = make_batch(engine)
    for job_id in (first, second):
        assert claim_job(engine, job_id, f"w-{job_id}", lease_s=60).status == "claimed"
    done_first = finish_job(engine, first, f"w-{first}", PASSED)
    assert done_first.owned and done_first.event_id is None
    done_second = finish_job(engine, second, f"w-{second}", JobResult("failed", 2, "expectation", "not shown"))
    assert done_second.owned and done_second.event_id is not None
    assert not finish_job(engine, second, f"w-{second}", PASSED).owned  # twice: nothing more
    assert outbox_count(engine, batch_id) == 1
    with writing(engine) as session:
        event = session.get(Outbox, done_second.event_id)
        assert event.type == "batch.completed"
        assert event.payload["data"]["jobs"] == {"total": 2, "passed": 1, "failed": 1}


def test_a_job_started_too_often_is_failed_and_still_finishes_its_batch(service_db):
    engine = engine_for(service_db)
    batch_id, (job_id,) = make_batch(engine, size=1)
    for n in range(MAX_CLAIMS):
        assert claim_job(engine, job_id, f"w{n}", lease_s=60).status == "claimed"
        expire_lease(engine, job_id)  # killed each time
    assert claim_job(engine, job_id, "w-last", lease_s=60).status == "abandoned"
    finished = finish_job(engine, job_id, None, JobResult("failed", failure_kind="error", reason="started 3 times"))
    assert finished.owned and finished.event_id is not None
    assert outbox_count(engine, batch_id) == 1


def test_the_same_idempotency_key_sent_twice_makes_one_batch(service_db):
    engine = engine_for(service_db)
    with writing(engine) as session:
        project, _key = create_project(session, name="keys", base_url="http://127.0.0.1:9")
        row, _ = upsert_scenario(session, project.id, ScenarioDefinition(id="K-1", title="k", steps=["Go to /"]))
        fingerprint = request_hash({"k": 1})
        made = [create_batch(session, project, idempotency_key="same", fingerprint=fingerprint, scenarios=[row],
                             base_url=project.base_url, brain="builtin", grounding="hte") for _ in range(2)]
        assert made[0][0].id == made[1][0].id and [created for _, created in made] == [True, False]
        assert len(jobs_of(session, made[0][0].id)) == 1


def finished_event(engine, *, suite: str | None = "ready", **project_fields: object) -> str:
    """A one-job batch run to its end, its suite settled as `suite` (None: still building): the id of its
    batch.completed event."""
    with writing(engine) as session:
        project, _key = create_project(session, name="hooks", base_url="http://127.0.0.1:9", **project_fields)
        row, _ = upsert_scenario(session, project.id, ScenarioDefinition(id="H-1", title="h", steps=["Go to /"]))
        batch, _ = create_batch(session, project, idempotency_key=uuid.uuid4().hex, fingerprint="x", scenarios=[row],
                                base_url=project.base_url, brain="builtin", grounding="hte")
        batch_id, job_id = batch.id, jobs_of(session, batch.id)[0].id
    claim_job(engine, job_id, "w", lease_s=60)
    event_id = finish_job(engine, job_id, "w", PASSED).event_id
    if suite is not None:
        assert finish_suite(engine, batch_id, suite, {}) == [event_id]
    return event_id


def test_a_batch_event_waits_for_its_suite_and_then_tells_its_state(service_db):
    """Sent while the suite is building, a webhook would point its receiver at a suite.zip that answers 409."""
    engine = engine_for(service_db)
    event_id = finished_event(engine, suite=None, webhook_url="http://127.0.0.1:9/hook", webhook_secret=new_secret())
    later = utcnow() + timedelta(seconds=UNSENT_GRACE_S + 1)
    assert event_id not in undelivered_events(engine, older_than_s=3600, now=later)
    with reading(engine) as session:
        event = session.get(Outbox, event_id)
        assert event.payload["data"]["suite"] == {"state": "building", "failed": {}}
        batch_id = event.batch_id
    assert finish_suite(engine, batch_id, "ready", {"H-1": "red in the combined replay"}) == [event_id]
    assert event_id in undelivered_events(engine, older_than_s=3600, now=later)
    with reading(engine) as session:
        data = session.get(Outbox, event_id).payload["data"]
    assert data["suite"] == {"state": "ready", "failed": {"H-1": "red in the combined replay"}}
    assert data["jobs"] == {"total": 1, "passed": 1, "failed": 0}  # the rest as written with the batch


def test_every_attempt_is_logged_and_a_delivered_event_is_not_sent_again(service_db):
    engine = engine_for(service_db)
    event_id = finished_event(engine, webhook_url="http://127.0.0.1:9/hook", webhook_secret=new_secret())
    sent = []

    def send(url: str, secret: str, event: Outbox) -> DeliveryAttempt:
        sent.append(event.id)
        ok = len(sent) > 1  # the receiver is down the first time
        return DeliveryAttempt(url=url, msg_id=event.id, ok=ok, retryable=not ok, status_code=204 if ok else 503,
                               error=None if ok else "HTTP 503", duration_ms=3, attempted_at=utcnow())

    assert deliver_event(engine, event_id, send).status == "failed"
    assert deliver_event(engine, event_id, send).status == "delivered"
    assert deliver_event(engine, event_id, send).status == "already"  # a duplicate message sends nothing
    with writing(engine) as session:
        reopen_event(session, session.get(Outbox, event_id))  # a redelivery asked through the API
    assert deliver_event(engine, event_id, send).status == "delivered"
    assert sent == [event_id] * 3
    with writing(engine) as session:
        log = [(d.attempt, d.status, d.status_code) for d in deliveries_of(session, event_id)]
    assert log == [(1, "failed", 503), (2, "delivered", 204), (3, "delivered", 204)]


def test_a_redelivery_asked_while_the_first_delivery_finishes_sends_it_again(service_db):
    """The API loads the event while a worker is still delivering it (not delivered yet); the worker commits its
    success before the API reopens the event: the event must still be pending again afterwards."""
    engine = engine_for(service_db)
    event_id = finished_event(engine, webhook_url="http://127.0.0.1:9/hook", webhook_secret=new_secret())
    ok = DeliveryAttempt(url="u", msg_id=event_id, ok=True, retryable=False, status_code=204, error=None,
                         duration_ms=1, attempted_at=utcnow())
    with writing(engine) as api_session:
        seen = api_session.get(Outbox, event_id)  # as the redeliver route sees it: not delivered
        assert seen.delivered_at is None
        assert deliver_event(engine, event_id, lambda *_: ok).status == "delivered"  # the worker, meanwhile
        reopen_event(api_session, seen)
    with writing(engine) as session:
        assert session.get(Outbox, event_id).delivered_at is None
    assert deliver_event(engine, event_id, lambda *_: ok).status == "delivered"


def test_a_delivery_waits_for_whoever_holds_the_event_row_instead_of_dropping_its_message(service_db):
    """The sender of a redelivery publishes the message, then marks the event sent: the task can arrive while that
    UPDATE still holds the row. It waits, then delivers."""
    import threading
    import time

    engine = engine_for(service_db)
    event_id = finished_event(engine, webhook_url="http://127.0.0.1:9/hook", webhook_secret=new_secret())
    ok = DeliveryAttempt(url="u", msg_id=event_id, ok=True, retryable=False, status_code=204, error=None,
                         duration_ms=1, attempted_at=utcnow())
    results = []
    with writing(engine) as sender:
        sender.execute(update(Outbox).where(Outbox.id == event_id).values(sent_at=utcnow()))  # row locked
        task = threading.Thread(target=lambda: results.append(deliver_event(engine, event_id, lambda *_: ok)))
        task.start()
        time.sleep(0.5)
        assert task.is_alive() and results == []  # waiting for the lock, not skipping
        sender.commit()
    task.join(timeout=10)
    assert [r.status for r in results] == ["delivered"]


def test_an_event_of_a_project_without_a_webhook_is_skipped(service_db):
    engine = engine_for(service_db)
    event_id = finished_event(engine)
    delivery = deliver_event(engine, event_id, lambda *_: pytest.fail("nothing to send to"))
    assert delivery.status == "skipped"


def test_the_sweep_finds_jobs_and_events_whose_messages_were_lost(service_db):
    engine = engine_for(service_db)
    _batch_id, (queued, running) = make_batch(engine)
    claim_job(engine, running, "dead-worker", lease_s=60)
    expire_lease(engine, running)
    later = utcnow() + timedelta(seconds=UNSENT_GRACE_S + 1)
    assert {queued, running} <= set(stale_jobs(engine, requeue_after_s=3600, now=later))  # never sent
    assert queued not in stale_jobs(engine, requeue_after_s=3600)  # just made: its sender is still trying
    never_tried = finished_event(engine, webhook_url="http://127.0.0.1:9/hook", webhook_secret=new_secret())
    assert never_tried in undelivered_events(engine, older_than_s=3600, now=later)
    assert never_tried not in undelivered_events(engine, older_than_s=3600)


def test_the_previous_batch_is_the_latest_finished_one_and_a_full_regeneration_for_a_regeneration_once_one_ran(service_db):
    engine = engine_for(service_db)
    with writing(engine) as session:
        project, _key = create_project(session, name="previous", base_url="http://127.0.0.1:9")
        rows = [upsert_scenario(session, project.id, ScenarioDefinition(id=f"P-{i}", title="p", steps=["Go to /"]))[0]
                for i in range(2)]
        session.commit()

    def batch(kind: str, scenarios=rows, finish: bool = True):
        with writing(engine) as session:
            made, _ = create_batch(session, session.get(type(project), project.id), idempotency_key=uuid.uuid4().hex,
                                   fingerprint="x", scenarios=scenarios, base_url=project.base_url, brain="builtin",
                                   grounding="hte", kind=kind)
            job_ids = [job.id for job in jobs_of(session, made.id)]
        for job_id in job_ids if finish else []:
            claim_job(engine, job_id, "w", lease_s=60)
            finish_job(engine, job_id, "w", PASSED)
        return made

    first = batch("on_demand")
    nightly = batch("nightly")
    # The first full regeneration is compared with the batch that ran before it, whatever its kind.
    assert nightly.previous_batch_id == first.id
    partial = batch("on_demand", scenarios=rows[:1])  # finished later, holding one scenario only
    running = batch("regenerate", finish=False)  # still running: its verdicts are not known
    assert running.previous_batch_id == nightly.id
    regenerated = batch("regenerate")
    assert regenerated.previous_batch_id == nightly.id  # not the partial on-demand batch, not the running one
    assert batch("on_demand", finish=False).previous_batch_id == regenerated.id  # the latest finished, any kind
    assert partial.previous_batch_id == nightly.id


def test_many_scenarios_are_upserted_at_once_with_the_versions_one_at_a_time_would_give(service_db):
    engine = engine_for(service_db)
    with writing(engine) as session:
        project, _key = create_project(session, name="bulk", base_url="http://127.0.0.1:9")
        same = ScenarioDefinition(id="U-1", title="same", steps=["Go to /"])
        changed = ScenarioDefinition(id="U-2", title="before", steps=["Go to /"])
        upsert_scenario(session, project.id, same)
        upsert_scenario(session, project.id, changed)
        session.commit()
        after = ScenarioDefinition(id="U-2", title="after", steps=["Go to /"])
        new = ScenarioDefinition(id="U-3", title="new", steps=["Go to /"])
        rows = upsert_scenarios(session, project.id, [new, same, after])
        session.commit()
        assert [(r.external_id, r.version) for r in rows] == [("U-3", 1), ("U-1", 1), ("U-2", 2)]
        assert rows[2].definition["title"] == "after"
        many = [ScenarioDefinition(id=f"M-{i}", title="m", steps=["Go to /"]) for i in range(300)]
        batch, _ = create_batch(session, project, idempotency_key="bulk", fingerprint=request_hash({"m": 1}),
                                scenarios=upsert_scenarios(session, project.id, many), base_url=project.base_url,
                                brain="builtin", grounding="hte")
        jobs = jobs_of(session, batch.id)
        assert len(jobs) == 300 and len({j.id for j in jobs}) == 300
        assert all(j.artifact_prefix == f"projects/{project.id}/batches/{batch.id}/jobs/{j.id}/" for j in jobs)
