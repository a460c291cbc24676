"""The Celery application of the service: `celery -A workers.celery_app worker --pool=prefork -Q celery,stepforge.webhooks`
(and `beat`).

Jobs are long (a browser, several replays) and at-least-once: every task tolerates running twice, and the
state lives in the database (no result backend). Each worker process owns one BrowserPool, made after fork.
"""

from __future__ import annotations

import logging

from celery import Celery
from celery.signals import worker_process_init, worker_process_shutdown

from shared.artifacts import ArtifactStore, open_artifact_store
from shared.logging import configure_logging, log
from shared.step_registry import StepRegistry
from workers.lifetime import die_with_parent
from workers.pool import BrowserPool
from workers.service import dispose_engines
from workers.service_settings import ServiceSettings, get_service_settings

GENERATE_JOB = "stepforge.generate_job"
DELIVER_WEBHOOK = "stepforge.deliver_webhook"
SWEEP = "stepforge.sweep"


def make_celery(settings: ServiceSettings) -> Celery:
    """The configured app; the API uses one too, only to send tasks by name."""
    celery = Celery("stepforge", broker=settings.broker_url, include=["workers.tasks"])
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
        broker_transport_options={"visibility_timeout": visibility_timeout},
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


app = make_celery(get_service_settings())


class WorkerResources:
    """What one worker process keeps between jobs: the browser pool, the artifact store, the step registry."""

    def __init__(self) -> None:
        self.pool: BrowserPool | None = None
        self._store: ArtifactStore | None = None
        self._registry: StepRegistry | None = None

    def browser_pool(self) -> BrowserPool:
        if self.pool is None:  # a task run outside a prefork child (tests calling a task directly)
            self.pool = BrowserPool(get_service_settings())
        return self.pool

    def store(self) -> ArtifactStore:
        if self._store is None:
            self._store = open_artifact_store(get_service_settings())
        return self._store

    def registry(self) -> StepRegistry:
        if self._registry is None:
            from workers.agent.registry import open_registry

            self._registry = open_registry(get_service_settings())
        return self._registry

    def close(self) -> None:
        if self.pool is not None:
            self.pool.close()
            self.pool = None
        if self._registry is not None:
            self._registry.close()
            self._registry = None


resources = WorkerResources()


@worker_process_init.connect
def _start_process(**_: object) -> None:
    # Init handlers are killed after 4 s: the pool launches Chromium on the first job, not here.
    die_with_parent()  # a SIGKILLed main worker takes its children, and so their browsers, with it
    settings = get_service_settings()
    configure_logging(settings)
    # httpx logs every request's full URL at INFO; a webhook URL may carry a token in its query string.
    logging.getLogger("httpx").setLevel(logging.WARNING)
    dispose_engines()  # connections made before fork belong to the parent
    resources.pool = BrowserPool(settings)
    log.info("worker.process_ready")


@worker_process_shutdown.connect
def _stop_process(**_: object) -> None:
    resources.close()
