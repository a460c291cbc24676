"""Beat's sweep: messages are re-sent by when they were last sent (not at every sweep), and the nightly run starts
in its hour, once a day (not as soon as a project's hour has passed)."""

from __future__ import annotations

import ast
import json
import uuid
from datetime import UTC, datetime, timedelta

import pytest
import redis
from sqlalchemy import update
from sqlmodel import select

from shared.job_queue import BROKER_LIFE_KEY, GENERATE_JOB, make_celery, send_jobs
from shared.models import Batch, Job, Project, utcnow
from shared.scenarios import Scenario as ScenarioDefinition
from shared.store import (
    UNSENT_GRACE_S,
    claim_job,
    create_project,
    engine_for,
    reading,
    stale_jobs,
    upsert_scenario,
    writing,
)
from tests.service.test_jobs import make_batch
from workers.service.tasks import enqueue_nightly, nightly_due, sweep_once

pytestmark = pytest.mark.service  # its tier (tests/conftest.py)


@pytest.fixture
def private_queues(settings):
    """Settings and a Celery app whose queues no worker consumes, and a way to read the jobs sent to them."""
    own = settings.model_copy(update={"queue": f"sweep-{uuid.uuid4().hex[:8]}",
                                      "webhook_queue": f"sweep-hooks-{uuid.uuid4().hex[:8]}"})
    client = redis.Redis.from_url(settings.broker_url)

    def sent_job_ids() -> list[int]:
        ids = []
        for raw in client.lrange(own.queue, 0, -1):
            headers = json.loads(raw)["headers"]
            if headers["task"] == GENERATE_JOB:  # the queue also carries suite builds
                ids.append(ast.literal_eval(headers["argsrepr"])[0])
        return ids

    yield own, make_celery(own), sent_job_ids
    client.delete(own.queue, own.webhook_queue)
    client.close()


def test_two_sweeps_in_a_row_do_not_send_the_same_jobs_again(settings, private_queues):
    own, celery, sent_job_ids = private_queues
    engine = engine_for(settings.database_url)
    _batch_id, (queued, running) = make_batch(engine)
    claim_job(engine, running, "dead-worker", lease_s=1)
    with writing(engine) as session:  # its worker died a while ago
        session.execute(update(Job).where(Job.id == running).values(lease_until=utcnow() - timedelta(seconds=5)))
        session.commit()
    ours = {queued, running}

    first = utcnow() + timedelta(seconds=UNSENT_GRACE_S + 1)  # neither job's message was ever sent
    sweep_once(engine, own, first, celery)
    assert sorted(i for i in sent_job_ids() if i in ours) == sorted(ours)
    for later in (first + timedelta(seconds=1), first + timedelta(seconds=own.nightly_check_interval_s)):
        sweep_once(engine, own, later, celery)  # the next sweeps: sent a moment ago, nothing again
        assert sorted(i for i in sent_job_ids() if i in ours) == sorted(ours)
        assert not ours & set(stale_jobs(engine, own.requeue_after_s, now=later))

    # Not sent for longer than the resend interval (and still not taken): sent once more, once.
    much_later = first + timedelta(seconds=own.requeue_after_s + 1)
    sweep_once(engine, own, much_later, celery)
    sweep_once(engine, own, much_later + timedelta(seconds=1), celery)
    assert sorted(i for i in sent_job_ids() if i in ours) == sorted([*ours, *ours])


def test_a_dead_workers_job_is_sent_again_once_its_lease_has_run_out(settings, private_queues):
    own, celery, sent_job_ids = private_queues
    engine = engine_for(settings.database_url)
    _batch_id, (job_id, _other) = make_batch(engine)
    with writing(engine) as session:  # sent a minute ago, then claimed
        session.execute(update(Job).where(Job.id == job_id).values(sent_at=utcnow() - timedelta(seconds=60)))
        session.commit()
    claim_job(engine, job_id, "worker-a", lease_s=30)
    assert job_id not in stale_jobs(engine, own.requeue_after_s)  # its lease is alive
    expired = utcnow() + timedelta(seconds=31)  # worker-a died: not renewed
    assert job_id in stale_jobs(engine, own.requeue_after_s, now=expired)  # not sent since the lease ran out
    sweep_once(engine, own, expired, celery)
    sweep_once(engine, own, expired + timedelta(seconds=5), celery)
    assert sent_job_ids().count(job_id) == 1


def test_a_job_waiting_behind_its_batch_is_not_sent_again_while_the_batch_moves(settings):
    """A large batch (or a regeneration's later chunks) keeps its jobs queued longer than requeue_after_s: they are
    not lost while other jobs of the batch are being taken; once the batch has stood still that long they are sent
    again; a broker that lost its data has them sent again at once."""
    engine = engine_for(settings.database_url)
    _batch_id, (waiting, taken) = make_batch(engine)
    now = utcnow()
    with writing(engine) as session:  # sent long ago, still queued
        session.execute(update(Job).where(Job.id == waiting).values(
            sent_at=now - timedelta(seconds=settings.requeue_after_s + 100)))
        session.commit()
    claim_job(engine, taken, "worker-a", lease_s=3600)  # the batch moves: one of its jobs was taken just now
    assert waiting not in stale_jobs(engine, settings.requeue_after_s, now=now)
    later = utcnow() + timedelta(seconds=settings.requeue_after_s + 1)  # nothing taken or finished since
    assert waiting in stale_jobs(engine, settings.requeue_after_s, now=later)
    assert waiting in stale_jobs(engine, settings.requeue_after_s, now=now, lost_before=now - timedelta(seconds=5))


def _project_with_a_scenario(engine, hour: int) -> int:
    with writing(engine) as session:
        project, _key = create_project(session, name="nightly", base_url="http://127.0.0.1:9", nightly_hour_utc=hour)
        upsert_scenario(session, project.id, ScenarioDefinition(id="N-1", title="n", steps=["Go to /"]))
        session.commit()
        return project.id


def _nightly_batches(engine, project_id: int) -> list[Batch]:
    with reading(engine) as session:
        return list(session.exec(select(Batch).where(Batch.project_id == project_id, Batch.kind == "nightly")
                                 .order_by(Batch.id)).all())


def test_the_nightly_run_starts_in_its_hour_not_as_soon_as_the_hour_has_passed(settings):
    engine = engine_for(settings.database_url)
    project_id = _project_with_a_scenario(engine, hour=3)
    sent: list[int] = []

    def send(_batch_id: int, job_ids: list[int]) -> None:
        sent.extend(job_ids)

    try:
        day = datetime(2026, 1, 10, tzinfo=UTC)
        # The project is created (or its hour set) at 05:00: 03:00 has passed today; nothing until tomorrow.
        for moment in (day.replace(hour=5), day.replace(hour=2, minute=59), day.replace(hour=23, minute=30)):
            enqueue_nightly(engine, moment, send)
        assert _nightly_batches(engine, project_id) == []  # (other tests' projects may be due at these moments)
        # In the hour: once, whatever the number of sweeps in it.
        for moment in (day.replace(hour=3), day.replace(hour=3, minute=5), day.replace(hour=3, minute=59)):
            enqueue_nightly(engine, moment, send)
        batches = _nightly_batches(engine, project_id)
        assert [b.idempotency_key for b in batches] == ["nightly-2026-01-10"]
        assert [i for i in sent if i in _job_ids(engine, batches[0].id)] == sorted(_job_ids(engine, batches[0].id))
        enqueue_nightly(engine, day.replace(hour=4, minute=1), send)  # the hour is over
        enqueue_nightly(engine, day.replace(day=11, hour=3, minute=2), send)  # the next night
        assert [b.idempotency_key for b in _nightly_batches(engine, project_id)] == \
               ["nightly-2026-01-10", "nightly-2026-01-11"]
    finally:
        with writing(engine) as session:  # other tests' sweeps must not find this project due
            session.execute(update(Project).where(Project.id == project_id).values(nightly_hour_utc=None))
            session.commit()


def test_a_sweep_window_longer_than_an_hour_still_fires_once_across_midnight():
    at = datetime(2026, 1, 11, 0, 30, tzinfo=UTC)
    assert nightly_due(23, at, window_s=7200).isoformat() == "2026-01-10"  # 23:00 yesterday, within the window
    assert nightly_due(23, at, window_s=3600) is None
    assert nightly_due(0, at) .isoformat() == "2026-01-11"
    assert nightly_due(1, at) is None  # not yet


def _job_ids(engine, batch_id: int) -> set[int]:
    with reading(engine) as session:
        return set(session.exec(select(Job.id).where(Job.batch_id == batch_id)).all())


def test_a_broker_that_lost_its_data_has_every_message_sent_before_sent_again_at_once(settings, private_queues):
    """A broker restarted without persistence holds none of the messages sent before: the next sweep sends those
    jobs again at once (not requeue_after_s later), once; a broker that kept its data gets nothing twice."""
    own, celery, sent_job_ids = private_queues
    engine = engine_for(settings.database_url)
    _batch_id, (first, second) = make_batch(engine)
    with writing(engine) as session:
        assert send_jobs(celery, session, [first, second], budget_s=5) == 2
    ours = {first, second}
    sweep_once(engine, own, utcnow(), celery)  # the broker kept everything: a long queue is not sent again
    assert sorted(i for i in sent_job_ids() if i in ours) == sorted(ours)

    client = redis.Redis.from_url(settings.broker_url)
    client.delete(own.queue, BROKER_LIFE_KEY)  # what a restart without persistence does to this broker
    client.close()
    assert not sent_job_ids()
    sweep_once(engine, own, utcnow(), celery)
    sweep_once(engine, own, utcnow(), celery)
    assert sorted(i for i in sent_job_ids() if i in ours) == sorted(ours)
