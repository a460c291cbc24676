"""The Celery application of the service:
`celery -A workers.service.celery_app worker --pool=prefork -Q celery,stepforge.webhooks` (and `beat`).

Jobs are long (a browser, several replays) and at-least-once: every task tolerates running twice, and the
state lives in the database (no result backend). Each worker process owns one BrowserPool, made after fork.
"""

from __future__ import annotations

import logging

from celery.signals import worker_process_init, worker_process_shutdown

from shared.artifacts import ArtifactStore, open_artifact_store
from shared.job_queue import make_celery
from shared.lifetime import die_with_parent
from shared.logging import configure_logging, log
from shared.service_settings import get_service_settings
from shared.step_registry import StepRegistry
from shared.store import dispose_engines
from workers.service.pool import BrowserPool

app = make_celery(get_service_settings(), include=["workers.service.tasks"])


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
            from shared.step_registry.factory import open_step_registry

            self._registry = open_step_registry(get_service_settings())
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
