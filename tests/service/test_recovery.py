"""A worker process killed in the middle of a job loses nothing: the job runs again, once, and its artifacts and
its webhook are not duplicated."""

from __future__ import annotations

import signal
import time

import psutil
import pytest

from tests.service.conftest import new_project
from tests.service.test_batches import demo_scenarios, wait_finished

pytestmark = pytest.mark.service  # its tier (tests/conftest.py)


def test_a_job_whose_worker_process_is_killed_runs_again(client, worker, petclinic, webhook_receiver, settings):
    project = new_project(client, petclinic, webhook_url=webhook_receiver.url)
    accepted = client.post("/v1/batches", json={"scenarios": demo_scenarios("OWN-1")},
                           headers={**project.headers, "Idempotency-Key": "to-be-killed"})
    assert accepted.status_code == 202
    batch_id = accepted.json()["id"]
    job_id = client.get(f"/v1/batches/{batch_id}", headers=project.headers).json()["jobs"][0]["id"]
    worker.wait_for_line("generate_job.claimed", f'"job_id": {job_id}', timeout_s=60)
    time.sleep(1.5)  # in the middle of generating
    child = _pool_child(worker.process.pid)
    browser = child.children(recursive=True)  # Playwright's driver and Chromium's processes
    child.send_signal(signal.SIGKILL)  # as the OOM killer or the hard time limit would

    final = wait_finished(client, project.headers, batch_id, timeout_s=90)[-1]
    job = final["jobs"][0]
    assert job["state"] == "passed" and job["attempt"] == 2, job  # claimed again once the lease ran out
    artifacts = client.get(f"/v1/batches/{batch_id}/jobs/{job_id}/artifacts", headers=project.headers).json()
    runs = [a["key"] for a in artifacts["artifacts"] if a["key"].endswith("/run.json")]
    assert runs == [f"OWN-1/attempt-{job['generation_attempts']}/run.json"]
    # The rerun wrote in its own attempt folder (the killed run's files, if any, stay apart in attempts/1/).
    assert artifacts["prefix"].endswith(f"/jobs/{job_id}/attempts/2/")
    events = client.get(f"/v1/batches/{batch_id}/webhooks", headers=project.headers).json()["events"]
    assert len(events) == 1
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline and not _received(webhook_receiver, events[0]["id"]):
        time.sleep(0.1)
    time.sleep(0.5)
    assert _received(webhook_receiver, events[0]["id"]) == 1
    assert browser and not [p for p in browser if _alive(p)], "the killed process's browser was left running"


def _pool_child(worker_pid: int) -> psutil.Process:
    """The worker's prefork child (Chromium and its driver are that child's own children)."""
    children = [p for p in psutil.Process(worker_pid).children() if "python" in p.name().lower()
                or "celery" in " ".join(p.cmdline())]
    assert len(children) == 1, children
    return children[0]


def _received(receiver, event_id: str) -> int:  # noqa: ANN001
    return sum(1 for r in receiver.received if r.headers.get("webhook-id") == event_id)


def _alive(process: psutil.Process) -> bool:
    try:
        return process.is_running() and process.status() != psutil.STATUS_ZOMBIE
    except psutil.Error:
        return False
