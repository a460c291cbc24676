"""Service fixtures, all real and started once per session: a PostgreSQL database of its own (migrated with the
project's Alembic migrations), Redis (a database number of its own, flushed, and a queue named for the session),
an S3 server (moto in server mode), the demo application, a webhook receiver, a Celery worker subprocess, and the
API in process (FastAPI's TestClient).

STEPFORGE_TEST_DATABASE_URL names the PostgreSQL admin connection (default postgresql+psycopg://postgres@
127.0.0.1:5432/postgres); STEPFORGE_TEST_REDIS_URL the Redis database (default redis://127.0.0.1:6379/15).
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
import uuid
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
import redis
from fastapi.testclient import TestClient
from moto.server import ThreadedMotoServer
from sqlalchemy import create_engine, text

from api.app import create_app
from shared.db import create_database, drop_database, normalize_url
from shared.migrate import upgrade
from shared.service_settings import ServiceSettings
from tests.apps.petclinic import serve_in_thread
from tests.http_site import POLL_S

ROOT = Path(__file__).resolve().parents[2]
ADMIN_URL = os.environ.get("STEPFORGE_TEST_DATABASE_URL", "postgresql+psycopg://postgres@127.0.0.1:5432/postgres")
# A run split over processes (pytest-xdist: gw0, gw1, ...) gives each its own database number, as a session
# flushes its own: 15, 14, ... downwards (Redis has 16; the benchmarks use 13).
REDIS_URL = os.environ.get("STEPFORGE_TEST_REDIS_URL",
                           f"redis://127.0.0.1:6379/{15 - int(os.environ.get('PYTEST_XDIST_WORKER', 'gw0')[2:])}")
ADMIN_TOKEN = "test-admin-token-0123456789"
SECRETS_KEY = "qVs5lqV5eP0ojnB2bX4m8Z8d4GJ9o0oPp4y6M8Q2vC0="  # a Fernet key (STEPFORGE_SECRETS_KEY) for the tests
BUCKET = "stepforge-service-test"
WORKER_START_TIMEOUT_S = 60


@pytest.fixture(scope="session")
def service_db() -> str:
    engine = create_engine(normalize_url(ADMIN_URL), connect_args={"connect_timeout": 5})
    try:
        with engine.connect() as conn:
            conn.execute(text("SELECT 1"))
    except Exception as error:  # noqa: BLE001
        pytest.fail(f"PostgreSQL is not reachable at STEPFORGE_TEST_DATABASE_URL={ADMIN_URL!r}: "
                    f"{str(error).splitlines()[0]}", pytrace=False)
    finally:
        engine.dispose()
    name = f"stepforge_service_{uuid.uuid4().hex[:12]}"
    url = create_database(ADMIN_URL, name)
    upgrade(url)  # the schema comes from the migrations, as in production
    yield url
    drop_database(ADMIN_URL, name)


@pytest.fixture(scope="session")
def broker_url() -> str:
    client = redis.Redis.from_url(REDIS_URL, socket_connect_timeout=5)
    try:
        client.flushdb()
    except redis.RedisError as error:
        pytest.fail(f"Redis is not reachable at STEPFORGE_TEST_REDIS_URL={REDIS_URL!r}: {error}", pytrace=False)
    yield REDIS_URL
    client.flushdb()
    client.close()


@pytest.fixture(scope="session")
def s3_endpoint() -> str:
    server = ThreadedMotoServer(ip_address="127.0.0.1", port=0, verbose=False)
    server.start()
    host, port = server.get_host_and_port()
    yield f"http://{host}:{port}"
    server.stop()


@pytest.fixture(scope="session")
def petclinic() -> str:
    base_url, stop = serve_in_thread()
    yield base_url
    stop()


@dataclass
class Received:
    headers: dict[str, str]
    body: bytes


@dataclass
class WebhookReceiver:
    url: str
    received: list[Received] = field(default_factory=list)

    def wait_for(self, count: int, timeout_s: float = 30) -> list[Received]:
        deadline = time.monotonic() + timeout_s
        while len(self.received) < count and time.monotonic() < deadline:
            time.sleep(0.1)
        return list(self.received)


@pytest.fixture(scope="session")
def webhook_receiver() -> WebhookReceiver:
    receiver = WebhookReceiver(url="")

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            body = self.rfile.read(int(self.headers.get("content-length", 0)))
            receiver.received.append(Received({k.lower(): v for k, v in self.headers.items()}, body))
            self.send_response(204)
            self.end_headers()

        def log_message(self, *_args: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": POLL_S}, daemon=True)
    thread.start()
    receiver.url = f"http://127.0.0.1:{server.server_port}/hooks"
    yield receiver
    server.shutdown()
    server.server_close()


@pytest.fixture(scope="session")
def settings(service_db: str, broker_url: str, s3_endpoint: str, tmp_path_factory: pytest.TempPathFactory
             ) -> ServiceSettings:
    return ServiceSettings(
        database_url=service_db,
        broker_url=broker_url,
        queue=f"stepforge-test-{uuid.uuid4().hex[:8]}",
        webhook_queue=f"stepforge-test-webhooks-{uuid.uuid4().hex[:8]}",
        admin_token=ADMIN_TOKEN,
        allow_private_targets=True,  # the demo app and the webhook receiver are on 127.0.0.1
        refused_networks=("127.0.0.2/32",),  # the egress tests' refused listener (tests/security/hostile.py)
        s3_bucket=BUCKET,
        s3_endpoint_url=s3_endpoint,
        s3_access_key_id="testing",
        s3_secret_access_key="testing",
        artifacts_dir=tmp_path_factory.mktemp("service-artifacts"),
        # A named reset command (projects choose it by name): it appends a line per reset to resets.log.
        # "fails" fails, printing what must never reach a verdict.
        reset_commands={"count": f"echo reset >> {tmp_path_factory.mktemp('resets') / 'resets.log'}",
                        "fails": "echo secret-token-123; exit 3"},
        max_batch_scenarios=10,
        max_body_bytes=64 * 1024,
        job_lease_s=10,  # a killed worker's job is taken over 10 s later
        log_json=True,
        secrets_key=SECRETS_KEY,
    )


def worker_environment(settings: ServiceSettings) -> dict[str, str]:
    env = dict(os.environ)
    env.update(
        STEPFORGE_DATABASE_URL=settings.database_url,
        STEPFORGE_BROKER_URL=settings.broker_url,
        STEPFORGE_QUEUE=settings.queue,
        STEPFORGE_WEBHOOK_QUEUE=settings.webhook_queue,
        STEPFORGE_ALLOW_PRIVATE_TARGETS="true",
        STEPFORGE_REFUSED_NETWORKS='["127.0.0.2/32"]',
        STEPFORGE_S3_BUCKET=settings.s3_bucket or "",
        STEPFORGE_S3_ENDPOINT_URL=settings.s3_endpoint_url or "",
        STEPFORGE_S3_ACCESS_KEY_ID="testing",
        STEPFORGE_S3_SECRET_ACCESS_KEY="testing",
        STEPFORGE_JOB_LEASE_S=str(settings.job_lease_s),
        STEPFORGE_LOG_JSON="true",
        STEPFORGE_SECRETS_KEY=SECRETS_KEY,
        STEPFORGE_RESET_COMMANDS=json.dumps(settings.reset_commands),
        PYTHONPATH=str(ROOT),
    )
    return env


@dataclass
class Worker:
    process: subprocess.Popen
    log: Path

    def output(self) -> str:
        return self.log.read_text(errors="replace")

    def wait_for_line(self, *needles: str, timeout_s: float = 30) -> str:
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline:
            for line in self.output().splitlines():
                if all(needle in line for needle in needles):
                    return line
            if self.process.poll() is not None:
                break
            time.sleep(0.2)
        raise AssertionError(f"no worker log line with {needles}; the log ends:\n{self.output()[-3000:]}")


@pytest.fixture(scope="session")
def worker(settings: ServiceSettings, tmp_path_factory: pytest.TempPathFactory) -> Worker:
    """A real Celery worker (prefork, one child), as deployed: `celery -A workers.service.celery_app worker -Q <jobs>,<webhooks>`."""
    log = tmp_path_factory.mktemp("worker") / "worker.log"
    command = [sys.executable, "-m", "celery", "-A", "workers.service.celery_app", "worker", "--pool=prefork",
               "--concurrency=1", "-Q", f"{settings.queue},{settings.webhook_queue}", "-n",
               f"test-{uuid.uuid4().hex[:6]}@%h", "--loglevel=INFO", "--without-gossip", "--without-mingle",
               "--without-heartbeat"]
    with log.open("wb") as out:
        process = subprocess.Popen(command, cwd=ROOT, env=worker_environment(settings), stdout=out,
                                   stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, start_new_session=True)
    running = Worker(process, log)
    try:
        running.wait_for_line("ready.", timeout_s=WORKER_START_TIMEOUT_S)
        yield running
    finally:
        _stop(process)


def _stop(process: subprocess.Popen) -> None:
    """Warm shutdown (SIGTERM), then whatever is left of the worker's process group (its Chromium included)."""
    if process.poll() is None:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            pass
    try:
        os.killpg(process.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass
    process.wait(timeout=10)


@pytest.fixture(scope="session")
def client(settings: ServiceSettings) -> TestClient:
    with TestClient(create_app(settings)) as running:
        yield running


@dataclass
class ProjectAccess:
    id: int
    api_key: str
    webhook_secret: str

    @property
    def headers(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.api_key}"}


def new_project(client: TestClient, base_url: str, **fields: object) -> ProjectAccess:
    response = client.post("/v1/projects", json={"name": f"project {uuid.uuid4().hex[:6]}", "base_url": base_url,
                                                 **fields},
                           headers={"Authorization": f"Bearer {ADMIN_TOKEN}"})
    assert response.status_code == 201, response.text
    body = response.json()
    return ProjectAccess(body["project"]["id"], body["api_key"], body["webhook_secret"])


def new_job(client: TestClient, settings: ServiceSettings, base_url: str) -> tuple[ProjectAccess, int, int]:
    """A new project with a batch of one scenario (OWN-1), made straight in the database: (the project, the
    batch's id, its one job's id)."""
    from shared.models import Project
    from shared.scenarios import Scenario as ScenarioDefinition
    from shared.store import create_batch, engine_for, jobs_of, upsert_scenario, writing

    project = new_project(client, base_url)
    with writing(engine_for(settings.database_url)) as session:
        row, _ = upsert_scenario(session, project.id, ScenarioDefinition(id="OWN-1", title="t", steps=["Go to /"]))
        batch, _ = create_batch(session, session.get(Project, project.id), idempotency_key=uuid.uuid4().hex,
                                fingerprint="f", scenarios=[row], base_url=base_url, brain="builtin", grounding="hte")
        return project, batch.id, jobs_of(session, batch.id)[0].id
