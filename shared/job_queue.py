"""The job queue: the Celery app's configuration and task names, and handing messages to the broker by task name
without ever waiting long for it (the API and beat's sweep send; workers/ holds the tasks themselves).

The rows a message refers to are committed first; then `publish` sends the messages over one broker connection
and one producer, one try each, within a total time budget. What it could not send stays unsent in the database
(job.sent_at / outbox.sent_at is None) and beat's sweep sends it later, so a broker that is down costs a request
at most about the budget, whatever the number of messages.
"""

from __future__ import annotations

import contextlib
import math
import time
from collections.abc import Iterator, Sequence
from datetime import UTC, datetime

from celery import Celery
from kombu import Connection
from sqlmodel import Session

from shared.logging import log
from shared.models import FULL_REGENERATION_KINDS, Batch, utcnow
from shared.service_settings import ServiceSettings
from shared.store import mark_events_sent, mark_jobs_sent, mark_suites_sent, queued_job_ids

GENERATE_JOB = "stepforge.generate_job"
DELIVER_WEBHOOK = "stepforge.deliver_webhook"
SWEEP = "stepforge.sweep"
BUILD_SUITE = "stepforge.build_suite"
REPLAY_CHUNK = "stepforge.replay_chunk"

# A regeneration's first pass is split into chunks, replay_chunk tasks that any worker runs side by side.
MIN_CHUNK = 10  # below this, a cucumber-js start and reading the batch's first-pass suite cost more than the replay
# A chunk's replay stays within a task's time limit at up to 16 s per scenario (a red one waits its action timeout);
# one that does not is stopped at the soft limit and its jobs, never settled, run as jobs of their own.
MAX_CHUNK = 50
CHUNKS_PER_PROCESS = 2  # about two chunks per worker process: one slow chunk does not hold the batch's end
# Priorities (Redis: 0 is served first). A chunk's is its position in its batch, so the first chunk of a batch sent
# later goes before the tenth of one sent earlier: one project's 2,000-scenario night does not starve another's 20.
PRIORITIES = 10


def make_celery(settings: ServiceSettings, include: Sequence[str] = ()) -> Celery:
    """The configured Celery app. The API's sends tasks by name and loads no task code (include empty); the
    worker's includes workers.service.tasks."""
    celery = Celery("stepforge", broker=settings.broker_url, include=list(include))
    # Above the hard limit: a message a worker still runs must not be handed to another one by Redis. ETA
    # messages (webhook retries, up to an hour away) also wait unacked in the worker, so above those too.
    visibility_timeout = max(settings.task_hard_time_limit_s + 300, 2 * 3600)
    celery.conf.update(
        # Ack after the task returns, not when it starts: a worker that dies mid-job leaves its message queued.
        task_acks_late=True,
        # ... and a child killed by a signal (OOM killer, hard time limit) does not ack it either.
        task_reject_on_worker_lost=True,
        # Reserve only the job being run: with late acks, prefetched jobs would wait behind a long one.
        worker_prefetch_multiplier=1,
        # SoftTimeLimitExceeded first (the browser context closes, the trace is saved), then the process is killed.
        task_soft_time_limit=settings.task_soft_time_limit_s,
        task_time_limit=settings.task_hard_time_limit_s,
        # priority_steps: one list per priority (Redis serves them in order), so chunks interleave across batches.
        broker_transport_options={"visibility_timeout": visibility_timeout,
                                  "priority_steps": list(range(PRIORITIES))},
        # A broker blip does not cancel the jobs running: each finishes and writes its verdict to the database. A
        # copy of its message delivered again meanwhile finds the job's lease held, then the job finished.
        worker_cancel_long_running_tasks_on_connection_loss=False,
        # State is in the database; nothing reads Celery results.
        task_ignore_result=True,
        # Generation jobs go to settings.queue; webhook deliveries and the sweep to their own queue, so a backlog
        # of 15-minute jobs never holds them up (the worker consumes both: -Q <queue>,<webhook_queue>).
        task_default_queue=settings.queue,
        task_routes={
            GENERATE_JOB: {"queue": settings.queue},
            BUILD_SUITE: {"queue": settings.queue},  # a replay of the whole suite: minutes, like a job
            REPLAY_CHUNK: {"queue": settings.queue},  # a chunk of a regeneration's verified scripts, replayed
            DELIVER_WEBHOOK: {"queue": settings.webhook_queue},
            SWEEP: {"queue": settings.webhook_queue},
        },
        task_serializer="json",
        accept_content=["json"],
        broker_connection_retry_on_startup=True,
        # structlog writes JSON lines to stderr, which the worker captures: keep them at their own level.
        worker_redirect_stdouts_level="INFO",
        # Beat: nightly regenerations that are due, and messages that may have been lost (stale jobs, events).
        beat_schedule={
            "nightly-and-sweep": {"task": SWEEP, "schedule": float(settings.nightly_check_interval_s)},
        },
        timezone="UTC",
    )
    return celery


# The time the broker's current life began, kept in the broker itself: a broker that restarts without its data
# (no persistence) or is flushed loses this key with the messages, so a missing key says every message sent before
# is gone. Every send writes it when it is missing; so does the sweep, which then re-sends what was sent before.
BROKER_LIFE_KEY = "stepforge:broker-life"


@contextlib.contextmanager
def _broker(celery: Celery, budget_s: float) -> Iterator[Connection]:
    """A connection tried once (no kombu retry loop), every socket operation timing out after half the budget."""
    socket_timeout = max(budget_s / 2, 0.05)
    connection = celery.connection_for_write(
        connect_timeout=socket_timeout,
        transport_options={"max_retries": 0, "connect_retries_timeout": budget_s,
                           "socket_connect_timeout": socket_timeout, "socket_timeout": socket_timeout},
    )
    with connection:
        connection.ensure_connection(max_retries=0, timeout=budget_s)
        yield connection


def _redis(connection: Connection):  # noqa: ANN202 - redis.Redis, or None for another transport
    return getattr(connection.default_channel, "client", None) if connection.transport.driver_type == "redis" else None


def _mark_life(client, moment: datetime) -> datetime:  # noqa: ANN001
    """The broker's life start; `moment` (the time the caller records its sends at) when it was missing."""
    client.set(BROKER_LIFE_KEY, repr(moment.timestamp()), nx=True)
    return datetime.fromtimestamp(float(client.get(BROKER_LIFE_KEY)), UTC)


def broker_life_start(celery: Celery, now: datetime, *, budget_s: float) -> datetime | None:
    """When the broker's current life began (see BROKER_LIFE_KEY): messages sent before it are lost. A broker
    found without the mark begins its life at `now` (the time the caller records its re-sends at; never ahead of
    the clock). None when it cannot be told (a broker other than Redis, or one that cannot be reached now)."""
    try:
        with _broker(celery, budget_s) as connection:
            client = _redis(connection)
            return _mark_life(client, min(now, utcnow())) if client is not None else None
    except Exception as error:  # noqa: BLE001 - kombu and redis raise many kinds; the sweep goes on without it
        log.warning("broker_life.unknown", error=(str(error).splitlines() or [type(error).__name__])[0])
        return None


def publish(celery: Celery, task: str, args_list: Sequence[tuple], *, budget_s: float,
            moment: datetime | None = None, priorities: Sequence[int] | None = None) -> int:
    """Send `task` once per argument tuple, in order, over one connection; stop at the first failure or when
    `budget_s` has passed. The number sent (always the first ones). The queue comes from the app's task_routes.
    `moment` is the time the caller records the sends at (BROKER_LIFE_KEY, when missing, takes it); `priorities`,
    one per message, their priorities (default: the first, 0).

    Connecting is tried once (no kombu retry loop), and every socket operation times out after half the budget, so
    a broker that refuses, or accepts and never answers, costs at most about 1.5 x budget_s."""
    if not args_list:
        return 0
    deadline = time.monotonic() + budget_s
    sent = 0
    try:
        with _broker(celery, budget_s) as connection:
            if (client := _redis(connection)) is not None:
                # These messages belong to the broker's current life (the mark is never set ahead of the clock).
                _mark_life(client, min(moment or utcnow(), utcnow()))
            producer = celery.amqp.Producer(connection, auto_declare=False)
            for number, args in enumerate(args_list):
                if time.monotonic() > deadline:
                    log.warning("enqueue.budget_spent", task=task, sent=sent, left=len(args_list) - sent,
                                budget_s=budget_s)
                    break
                priority = {"priority": priorities[number]} if priorities is not None else {}
                celery.send_task(task, args=args, producer=producer, retry=False, **priority)
                sent += 1
    except Exception as error:  # noqa: BLE001 - kombu and redis raise many kinds; the rows stay unsent
        log.warning("enqueue.failed", task=task, sent=sent, left=len(args_list) - sent,
                    error=(str(error).splitlines() or [type(error).__name__])[0])
    return sent


def _send_and_mark(celery: Celery, session: Session, task: str, ids: Sequence, mark, *, budget_s: float,  # noqa: ANN001
                   moment: datetime | None) -> int:
    """Send `task` once per id and record which were sent with `mark` (at `moment`, default now: taken before
    publishing, as a worker may take the task before the mark is written); the others wait for the sweep."""
    moment = moment or utcnow()
    sent = publish(celery, task, [(one,) for one in ids], budget_s=budget_s, moment=moment)
    mark(session, ids[:sent], moment)
    return sent


def send_jobs(celery: Celery, session: Session, job_ids: Sequence[int], *, budget_s: float,
              moment: datetime | None = None) -> int:
    """Send generate_job for these (committed) jobs and record which were sent."""
    return _send_and_mark(celery, session, GENERATE_JOB, job_ids, mark_jobs_sent, budget_s=budget_s, moment=moment)


def send_events(celery: Celery, session: Session, event_ids: Sequence[str], *, budget_s: float,
                moment: datetime | None = None) -> int:
    """Send deliver_webhook for these (committed) events and record which were sent."""
    return _send_and_mark(celery, session, DELIVER_WEBHOOK, event_ids, mark_events_sent, budget_s=budget_s,
                          moment=moment)


def send_suites(celery: Celery, session: Session, batch_ids: Sequence[int], *, budget_s: float,
                moment: datetime | None = None) -> int:
    """Send build_suite for these finished batches and record which were sent."""
    return _send_and_mark(celery, session, BUILD_SUITE, batch_ids, mark_suites_sent, budget_s=budget_s,
                          moment=moment)


def chunk_size(jobs: int, fleet: int) -> int:
    """Jobs per replay_chunk for a regeneration of `jobs` jobs on `fleet` worker processes: about CHUNKS_PER_PROCESS
    chunks per process, within [MIN_CHUNK, MAX_CHUNK]."""
    return max(MIN_CHUNK, min(MAX_CHUNK, math.ceil(jobs / (max(fleet, 1) * CHUNKS_PER_PROCESS))))


FLEET_KEPT_S = 60.0  # how long this process trusts what the workers said of the fleet
_fleet_seen: dict[str, tuple[float, int]] = {}  # broker URL -> (when asked, processes)


def fleet_processes(celery: Celery, settings: ServiceSettings, *, budget_s: float = 1.0) -> int:
    """The worker processes of the fleet: settings.fleet_processes when set, else what the workers that answer
    within `budget_s` say (their pools' sizes; asked at most once a minute per process, over a connection that gives
    up after the budget as publish's does), else 1 (no worker up yet: the fewest, largest chunks)."""
    if settings.fleet_processes:
        return settings.fleet_processes
    if not settings.broker_url.startswith(("redis://", "rediss://")):
        return 1
    asked, processes = _fleet_seen.get(settings.broker_url, (float("-inf"), 1))
    if time.monotonic() - asked < FLEET_KEPT_S:
        return processes
    try:
        with _broker(celery, budget_s) as connection:
            stats = celery.control.inspect(timeout=budget_s, connection=connection).stats() or {}
        processes = max(1, sum(int(stat.get("pool", {}).get("max-concurrency", 1) or 1) for stat in stats.values()))
    except Exception as error:  # noqa: BLE001 - kombu and redis raise many kinds; the chunks are only larger
        log.warning("fleet.unknown", error=(str(error).splitlines() or [type(error).__name__])[0])
        processes = 1
    _fleet_seen[settings.broker_url] = (time.monotonic(), processes)
    return processes


def send_regeneration(celery: Celery, session: Session, batch_id: int, job_ids: Sequence[int], *, budget_s: float,
                      fleet: int, moment: datetime | None = None) -> int:
    """A regeneration's (committed) jobs, in chunks of chunk_size(len(job_ids), fleet): one replay_chunk message
    each, which replays the chunk's verified scripts, settles the green ones and sends the others as generate_job.
    A chunk's jobs are recorded as sent with it: when its message is lost, beat's sweep sends them one by one, as
    any job. How many jobs the messages sent cover."""
    moment = moment or utcnow()
    size = chunk_size(len(job_ids), fleet)
    chunks = [list(job_ids[start:start + size]) for start in range(0, len(job_ids), size)]
    sent = publish(celery, REPLAY_CHUNK, [(batch_id, chunk) for chunk in chunks], budget_s=budget_s, moment=moment,
                   priorities=[min(number, PRIORITIES - 1) for number in range(len(chunks))])
    covered = [job_id for chunk in chunks[:sent] for job_id in chunk]
    mark_jobs_sent(session, covered, moment)
    return len(covered)


def send_batch(celery: Celery, session: Session, batch_id: int, *, budget_s: float,
               settings: ServiceSettings) -> tuple[int, int]:
    """Send a (committed) batch's queued jobs: a full regeneration's in replay_chunk messages (its verified scripts
    replayed first, side by side), any other's one generate_job each. (How many were sent, how many there are.)"""
    job_ids = queued_job_ids(session, batch_id)
    batch = session.get(Batch, batch_id)
    if batch is not None and batch.kind in FULL_REGENERATION_KINDS:
        fleet = fleet_processes(celery, settings, budget_s=min(1.0, budget_s))
        return send_regeneration(celery, session, batch_id, job_ids, budget_s=budget_s, fleet=fleet), len(job_ids)
    return send_jobs(celery, session, job_ids, budget_s=budget_s), len(job_ids)
