"""A job that runs past its soft time limit ends with a clear verdict, in a real Celery worker, even when the
limit strikes inside a browser call that the pipeline would otherwise record as one scenario's error."""

from __future__ import annotations

import subprocess
import sys
import threading
import time
import uuid
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from fastapi.testclient import TestClient

from api.app import create_app
from tests.http_site import POLL_S
from tests.service.conftest import ROOT, WORKER_START_TIMEOUT_S, Worker, _stop, new_project, worker_environment

pytestmark = pytest.mark.service  # its tier (tests/conftest.py)

SOFT_S, HARD_S = 10, 25


def test_a_job_past_its_soft_time_limit_fails_saying_so(settings, tmp_path):
    class Slow(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            time.sleep(40)  # longer than the job may take

        def log_message(self, *_args: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Slow)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, kwargs={"poll_interval": POLL_S}, daemon=True).start()
    slow_app = f"http://127.0.0.1:{server.server_port}"

    own = settings.model_copy(update={"queue": f"stepforge-test-limit-{uuid.uuid4().hex[:8]}",
                                      "webhook_queue": f"stepforge-test-limit-hooks-{uuid.uuid4().hex[:8]}",
                                      "task_soft_time_limit_s": SOFT_S, "task_hard_time_limit_s": HARD_S})
    env = worker_environment(own)
    env.update(STEPFORGE_TASK_SOFT_TIME_LIMIT_S=str(SOFT_S), STEPFORGE_TASK_HARD_TIME_LIMIT_S=str(HARD_S),
               STEPFORGE_NAVIGATION_TIMEOUT_MS="60000")  # the page load outlasts the soft limit
    log = tmp_path / "worker.log"
    command = [sys.executable, "-m", "celery", "-A", "workers.service.celery_app", "worker", "--pool=prefork",
               "--concurrency=1", "-Q", f"{own.queue},{own.webhook_queue}", "-n", f"limit-{uuid.uuid4().hex[:6]}@%h",
               "--loglevel=INFO", "--without-gossip", "--without-mingle", "--without-heartbeat"]
    with log.open("wb") as out:
        process = subprocess.Popen(command, cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT,
                                   stdin=subprocess.DEVNULL, start_new_session=True)
    worker = Worker(process, log)
    try:
        worker.wait_for_line("ready.", timeout_s=WORKER_START_TIMEOUT_S)
        with TestClient(create_app(own)) as client:
            project = new_project(client, slow_app)
            accepted = client.post("/v1/batches", json={"scenarios": [{"id": "SLOW-1", "title": "t",
                                                                          "steps": ["Go to /"]}]},
                                   headers={**project.headers, "Idempotency-Key": "slow"})
            assert accepted.status_code == 202, accepted.text
            started = time.monotonic()
            while time.monotonic() - started < HARD_S + 30:
                progress = client.get(f"/v1/batches/{accepted.json()['id']}", headers=project.headers).json()
                if progress["state"] == "finished":
                    break
                time.sleep(0.5)
            job = progress["jobs"][0]
            assert (job["state"], job["verdict"]) == ("failed", {
                "failed_step": None, "kind": "error", "reason": f"time limit exceeded ({SOFT_S} s)"}), \
                f"{job}\nthe worker's log ends:\n{worker.output()[-3000:]}"
            assert job["attempt"] == 1  # ended by the soft limit, not killed by the hard one and run again
            assert time.monotonic() - started < HARD_S
    finally:
        _stop(process)
        server.shutdown()
        server.server_close()
