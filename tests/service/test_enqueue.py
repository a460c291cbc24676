"""Handing messages to the broker: a batch is accepted at once even when the broker is down (the sweep sends its
jobs later), webhook deliveries travel on a queue of their own, never behind generation jobs, and a regeneration's
chunks interleave across batches."""

from __future__ import annotations

import json
import socket
import time
import uuid
from datetime import timedelta

import pytest
import redis
from fastapi.testclient import TestClient
from sqlmodel import select

from api.app import create_app
from shared.job_queue import (
    DELIVER_WEBHOOK,
    GENERATE_JOB,
    REPLAY_CHUNK,
    SWEEP,
    make_celery,
    publish,
    send_regeneration,
)
from shared.models import Job, utcnow
from shared.store import UNSENT_GRACE_S, engine_for, reading, writing
from tests.service.conftest import new_project
from workers.service.tasks import sweep_once

pytestmark = pytest.mark.service  # its tier (tests/conftest.py)

SCENARIOS = 50


def _closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.fixture(params=["refused", "silent"])
def dead_broker(request):
    """A broker URL nobody answers: a closed port (connection refused), or a port that accepts connections and
    never says a word (what a hung broker or a black-holing firewall looks like)."""
    if request.param == "refused":
        yield f"redis://127.0.0.1:{_closed_port()}/0"
        return
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(64)  # never accepted: the kernel completes the handshakes, nothing is ever read or written
    try:
        yield f"redis://127.0.0.1:{listener.getsockname()[1]}/0"
    finally:
        listener.close()


def test_a_batch_is_accepted_at_once_with_the_broker_down_and_the_sweep_sends_it_later(settings, petclinic,
                                                                                        dead_broker):
    # The jobs are sent after the 202, but FastAPI's TestClient returns only when that send has ended too: a short
    # send budget keeps the measured time that of the answer.
    down = settings.model_copy(update={"broker_url": dead_broker, "max_batch_scenarios": SCENARIOS,
                                       "batch_send_budget_s": 1.0,
                                       "queue": f"enqueue-{uuid.uuid4().hex[:8]}",
                                       "webhook_queue": f"enqueue-hooks-{uuid.uuid4().hex[:8]}"})
    body = {"scenarios": [{"id": f"DOWN-{i}", "title": f"scenario {i}", "steps": ["Go to /"]} for i in range(SCENARIOS)]}
    with TestClient(create_app(down)) as client:
        project = new_project(client, petclinic)
        started = time.monotonic()
        response = client.post("/v1/batches", json=body, headers={**project.headers, "Idempotency-Key": "down"})
        answered_s = time.monotonic() - started
    assert response.status_code == 202, response.text
    assert answered_s < 3, f"the 202 took {answered_s:.1f} s with the broker down"
    engine = engine_for(settings.database_url)
    batch_id = response.json()["id"]
    with reading(engine) as session:
        jobs = session.exec(select(Job).where(Job.batch_id == batch_id)).all()
    assert len(jobs) == SCENARIOS and all(job.sent_at is None and job.state == "queued" for job in jobs)

    # The broker is back (the test's Redis, on queues no worker reads): the next sweep sends every job, once.
    up = down.model_copy(update={"broker_url": settings.broker_url})
    client = redis.Redis.from_url(settings.broker_url)
    try:
        sweep_once(engine, up, utcnow() + timedelta(seconds=UNSENT_GRACE_S + 1), make_celery(up))
        messages = [json.loads(raw)["headers"] for raw in client.lrange(up.queue, 0, -1)]
        ours = {job.id for job in jobs}
        assert sorted(int(h["argsrepr"].strip("(),")) for h in messages if h["task"] == GENERATE_JOB
                      and int(h["argsrepr"].strip("(),")) in ours) == sorted(ours)
        with reading(engine) as session:
            assert all(job.sent_at is not None for job in session.exec(select(Job).where(Job.batch_id == batch_id)))
    finally:
        client.delete(up.queue, up.webhook_queue)
        client.close()


def test_publish_spends_at_most_about_its_budget(dead_broker, settings):
    celery = make_celery(settings.model_copy(update={"broker_url": dead_broker}))
    started = time.monotonic()
    assert publish(celery, GENERATE_JOB, [(i,) for i in range(200)], budget_s=1.0) == 0
    assert time.monotonic() - started < 2


def test_webhooks_and_the_sweep_have_their_own_queue(settings):
    own = settings.model_copy(update={"queue": f"jobs-{uuid.uuid4().hex[:8]}",
                                      "webhook_queue": f"hooks-{uuid.uuid4().hex[:8]}"})
    celery = make_celery(own)
    router = celery.amqp.router
    assert router.route({}, GENERATE_JOB)["queue"].name == own.queue
    assert router.route({}, DELIVER_WEBHOOK)["queue"].name == own.webhook_queue
    assert router.route({}, SWEEP)["queue"].name == own.webhook_queue
    client = redis.Redis.from_url(settings.broker_url)
    try:
        assert publish(celery, GENERATE_JOB, [(1,), (2,)], budget_s=5) == 2
        assert publish(celery, DELIVER_WEBHOOK, [("evt_x",)], budget_s=5) == 1
        # A delivery waits behind other deliveries only, however many generation jobs are queued.
        assert client.llen(own.queue) == 2 and client.llen(own.webhook_queue) == 1
        (message,) = [json.loads(raw)["headers"] for raw in client.lrange(own.webhook_queue, 0, -1)]
        assert message["task"] == DELIVER_WEBHOOK
    finally:
        client.delete(own.queue, own.webhook_queue)
        client.close()
    with pytest.raises(ValueError, match="webhook_queue must differ"):
        type(settings)(**{**settings.model_dump(), "webhook_queue": settings.queue})


def test_a_regeneration_is_sent_in_chunks_and_a_small_night_is_not_starved_by_a_large_one(settings):
    """The worker takes messages as kombu's Redis transport gives them (basic_get: priority lists in order): the
    first chunk of a batch sent later comes before the second chunk of a batch sent earlier."""
    own = settings.model_copy(update={"queue": f"chunks-{uuid.uuid4().hex[:8]}",
                                      "webhook_queue": f"chunks-hooks-{uuid.uuid4().hex[:8]}"})
    celery = make_celery(own)
    engine = engine_for(settings.database_url)
    large, small = list(range(10**9, 10**9 + 120)), list(range(2 * 10**9, 2 * 10**9 + 20))  # no such jobs
    with writing(engine) as session:
        assert send_regeneration(celery, session, 1, large, budget_s=5, fleet=1) == 120
        assert send_regeneration(celery, session, 2, small, budget_s=5, fleet=1) == 20
    taken = []
    with celery.connection_for_read() as connection:
        channel = connection.default_channel
        while (message := channel.basic_get(own.queue, no_ack=True)) is not None:
            assert message.headers["task"] == REPLAY_CHUNK
            batch_id, job_ids = json.loads(message.body)[0]
            taken.append((batch_id, len(job_ids), job_ids[0]))
        for priority in range(10):  # an empty list is no key in Redis; delete them all the same
            channel.client.delete(channel._q_for_pri(own.queue, priority))
    # 120 jobs: chunks of 50 (chunk_size for one process); 20 jobs: two of 10. Second chunks after first ones.
    assert taken == [(1, 50, large[0]), (2, 10, small[0]), (1, 50, large[50]), (2, 10, small[10]),
                     (1, 20, large[100])]
