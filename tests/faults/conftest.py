"""The fault suite's service, run as an operator runs it and with its default timings: its own Redis on a port of
its own (restartable, without persistence: the worst case), its own PostgreSQL database, local artifacts, the API
in process, Celery workers and beat as subprocesses, the demo application and a webhook receiver on loopback.

Faults are real: processes are SIGKILLed, the broker is restarted with its data gone, Chromium's renderers are
killed while a job runs. Every wait is bounded; the bounds are the recovery targets of the README.
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import psutil
import pytest
import redis
from fastapi.testclient import TestClient

from api.app import create_app
from shared.lifetime import descendants
from shared.service_settings import ServiceSettings
from tests.service.conftest import (  # noqa: F401 - fixtures shared with the service tests
    ADMIN_TOKEN,
    ROOT,
    SECRETS_KEY,
    Worker,
    petclinic,
    service_db,
    webhook_receiver,
)

START_TIMEOUT_S = 60


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@dataclass
class Broker:
    """A Redis server of the suite's own; restart() brings it back on the same port with nothing in it."""

    port: int
    folder: Path
    process: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        command = [shutil.which("redis-server") or "redis-server", "--port", str(self.port), "--bind", "127.0.0.1",
                   "--save", "", "--appendonly", "no", "--dir", str(self.folder)]
        self.process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                        start_new_session=True)
        client = redis.Redis(port=self.port, socket_connect_timeout=1)
        deadline = time.monotonic() + START_TIMEOUT_S
        while True:
            try:
                client.ping()
                return
            except redis.ConnectionError:
                if time.monotonic() > deadline or self.process.poll() is not None:
                    raise
                time.sleep(0.05)
            finally:
                client.close()

    def kill(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.kill()
            self.process.wait(timeout=10)


@pytest.fixture(scope="session")
def broker(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Broker]:
    if shutil.which("redis-server") is None:
        pytest.fail("redis-server is not installed (infra/test.sh installs it)", pytrace=False)
    running = Broker(free_port(), tmp_path_factory.mktemp("redis"))
    running.start()
    yield running
    running.kill()


@pytest.fixture(scope="session")
def settings(service_db: str, broker: Broker, tmp_path_factory: pytest.TempPathFactory) -> ServiceSettings:  # noqa: F811
    """The defaults, but for where things are: the recovery targets hold with the default lease and sweep."""
    return ServiceSettings(
        database_url=service_db, broker_url=broker.url, admin_token=ADMIN_TOKEN, allow_private_targets=True,
        artifacts_dir=tmp_path_factory.mktemp("fault-artifacts"), max_batch_scenarios=20, log_json=True,
        secrets_key=SECRETS_KEY,
    )


def environment(settings: ServiceSettings) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("STEPFORGE_") or k == "STEPFORGE_BROWSER_PATH"}
    env.update(
        STEPFORGE_DATABASE_URL=settings.database_url,
        STEPFORGE_BROKER_URL=settings.broker_url,
        STEPFORGE_ALLOW_PRIVATE_TARGETS="true",
        STEPFORGE_ARTIFACTS_DIR=str(settings.artifacts_dir),
        STEPFORGE_LOG_JSON="true",
        STEPFORGE_SECRETS_KEY=SECRETS_KEY,
        PYTHONPATH=str(ROOT),
    )
    return env


@dataclass
class Process(Worker):
    """A Celery worker or beat, in a process group of its own; its log in a file."""

    @property
    def pid(self) -> int:
        return self.process.pid

    def tree(self) -> list[psutil.Process]:
        """The process and every descendant now (prefork children, Playwright's drivers, Chromium's processes)."""
        try:
            main = psutil.Process(self.pid)
            return [main, *descendants(main)]
        except psutil.NoSuchProcess:
            return []

    def stop(self) -> None:
        """SIGTERM (warm shutdown), then whatever is left of the process group."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                pass
        try:
            os.killpg(self.process.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
        self.process.wait(timeout=10)


@dataclass
class Service:
    settings: ServiceSettings
    client: TestClient
    folder: Path
    started: list[Process] = field(default_factory=list)

    def _start(self, name: str, arguments: list[str], ready: str, env: dict[str, str] | None = None) -> Process:
        log = self.folder / f"{name}-{uuid.uuid4().hex[:6]}.log"
        with log.open("wb") as out:
            process = subprocess.Popen([sys.executable, "-m", "celery", "-A", "workers.service.celery_app", *arguments],
                                       cwd=ROOT, env={**environment(self.settings), **(env or {})}, stdout=out,
                                       stderr=subprocess.STDOUT,
                                       stdin=subprocess.DEVNULL, start_new_session=True)
        running = Process(process, log)
        self.started.append(running)
        running.wait_for_line(ready, timeout_s=START_TIMEOUT_S)
        return running

    def worker(self, concurrency: int = 2, env: dict[str, str] | None = None) -> Process:
        """A worker as deployed: prefork, consuming the jobs' and the webhooks' queues; `env`: settings of its own."""
        return self._start("worker", [
            "worker", "--pool=prefork", f"--concurrency={concurrency}", "-Q",
            f"{self.settings.queue},{self.settings.webhook_queue}", "-n", f"fault-{uuid.uuid4().hex[:6]}@%h",
            "--loglevel=INFO", "--without-gossip", "--without-mingle", "--without-heartbeat"], "ready.", env)

    def beat(self) -> Process:
        return self._start("beat", ["beat", "--loglevel=INFO", "-s", str(self.folder / "beat-schedule")],
                           "beat: Starting")

    def stop_all(self) -> None:
        for process in reversed(self.started):
            process.stop()
        self.started.clear()


@pytest.fixture
def service(settings: ServiceSettings, tmp_path: Path) -> Iterator[Service]:
    """The API in process; each test starts the workers (and beat) its fault needs, stopped when it ends."""
    with TestClient(create_app(settings)) as client:
        running = Service(settings, client, tmp_path)
        try:
            yield running
        finally:
            running.stop_all()


def alive(process: psutil.Process) -> bool:
    try:
        return process.is_running() and process.status() != psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        return False
