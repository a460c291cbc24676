"""Faults an operator meets, against the service with its default timings: a main worker SIGKILLed, the broker
restarted with its data gone, Chromium's renderer killed in the middle of a job, a worker process killed in the
middle of a replay or of a regeneration's chunk, an application that is down. Each batch completes, each job once
in effect, with one signed webhook, within the README's recovery targets.

STEPFORGE_FAULT_ROUNDS (default 1) repeats each fault; the timings measured are printed (pytest -s shows them).
"""

from __future__ import annotations

import os
import signal
import threading
import time
import uuid
from collections.abc import Iterator

import psutil
import pytest

from shared.lifetime import descendants
from tests.apps.petclinic import serve_in_thread
from tests.faults.batches import assert_done_once, project_for, submit, wait_finished
from tests.faults.conftest import Broker, Service, alive, free_port
from tests.http_site import SiteHandler, serve

ROUNDS = int(os.environ.get("STEPFORGE_FAULT_ROUNDS", "1"))
TAKEN_OVER_WITHIN_S = 60  # a killed worker's job is running again elsewhere within this
TREE_GONE_WITHIN_S = 15  # a SIGKILLed main worker's children and browsers are gone within this
OUTAGE_S = 10  # how long the broker is down
RECOVERED_WITHIN_S = 60  # what a broker outage may add to a batch
JOB_S = 120  # the longest one demo job may take on a busy 2-core machine

pytestmark = [pytest.mark.faults, pytest.mark.service]


def claimed(process, job_id: int, timeout_s: float) -> float:  # noqa: ANN001
    process.wait_for_line("generate_job.claimed", f'"job_id": {job_id}', timeout_s=timeout_s)
    return time.monotonic()


@pytest.mark.parametrize("round_", range(ROUNDS))
def test_a_sigkilled_main_worker_takes_its_processes_along_and_its_jobs_run_elsewhere_within_a_minute(
        service: Service, petclinic: str, webhook_receiver, round_: int) -> None:
    project = project_for(service, petclinic, webhook_receiver)
    doomed = service.worker(concurrency=2)
    service.beat()
    batch_id, (first, second) = submit(service, project, "OWN-1", "OWN-4")  # OWN-4 is written as free text
    claimed(doomed, first, JOB_S)
    claimed(doomed, second, JOB_S)
    tree = doomed.tree()
    assert len(tree) >= 3, "the main worker and its two children"

    os.kill(doomed.pid, signal.SIGKILL)  # the main process only, as the OOM killer picks it
    killed_at = time.monotonic()
    deadline = killed_at + TREE_GONE_WITHIN_S
    while [p for p in tree if alive(p)] and time.monotonic() < deadline:
        time.sleep(0.2)
    left = [(p.pid, " ".join(p.cmdline())[:80]) for p in tree if alive(p)]
    assert not left, f"outlived their SIGKILLed main worker: {left}"

    # The worker that takes over starts once the jobs' worker is dead: started before, it could have been slower
    # to start than the two jobs were to finish, on a busy machine, leaving it nothing to take over.
    survivor = service.worker(concurrency=1)
    taken_over = [claimed(survivor, job_id, TAKEN_OVER_WITHIN_S + JOB_S) - killed_at for job_id in (first, second)]
    print(f"\nworker killed: its tree gone, jobs running again after {[round(t, 1) for t in taken_over]} s")
    assert taken_over[0] <= TAKEN_OVER_WITHIN_S, taken_over  # the second waits for the survivor's one process
    batch = wait_finished(service, project, batch_id, timeout_s=2 * JOB_S)
    assert_done_once(service, project, webhook_receiver, batch)


@pytest.mark.parametrize("round_", range(ROUNDS))
def test_a_broker_restarted_without_its_data_mid_batch_adds_under_a_minute(
        service: Service, broker: Broker, petclinic: str, webhook_receiver, round_: int) -> None:
    project = project_for(service, petclinic, webhook_receiver)
    worker = service.worker(concurrency=1)
    service.beat()
    batch_id, jobs = submit(service, project, "OWN-1", "OWN-2", "OWN-3")
    claimed(worker, jobs[0], JOB_S)  # one job runs, two wait in the broker's queue

    broker.kill()
    time.sleep(OUTAGE_S)  # the outage itself
    broker.start()  # empty: the queued messages are gone
    back_at = time.monotonic()

    # The two queued jobs' messages are sent again by the next sweep (the running job keeps its lease).
    worker.wait_for_line("sweep.done", '"requeued_jobs": 2', timeout_s=RECOVERED_WITHIN_S)
    resent = time.monotonic() - back_at
    claims = [claimed(worker, job_id, 3 * JOB_S) - back_at for job_id in jobs[1:]]
    print(f"\nbroker back after {OUTAGE_S} s: lost jobs sent again {resent:.1f} s later, claimed "
          f"{[round(c, 1) for c in claims]} s later")
    assert resent <= RECOVERED_WITHIN_S
    batch = wait_finished(service, project, batch_id, timeout_s=3 * JOB_S)
    assert_done_once(service, project, webhook_receiver, batch)
    first_job = next(job for job in batch["jobs"] if job["id"] == jobs[0])
    assert first_job["attempt"] == 1, "the job running through the outage was cancelled and run again"


def generation_renderers(worker) -> list[psutil.Process]:  # noqa: ANN001
    """Renderers of the pool's Chromium (under Playwright's driver), not of a replay's (under cucumber-js)."""
    found = []
    for process in worker.tree():
        try:
            if "--type=renderer" not in process.cmdline():
                continue
            ancestry = " ".join(" ".join(p.cmdline()) for p in process.parents())
        except psutil.NoSuchProcess:
            continue
        if "run-driver" in ancestry:
            found.append(process)
    return found


@pytest.fixture
def paused_page() -> Iterator[tuple[str, threading.Event, threading.Event]]:
    """The demo application, whose pages link a stylesheet served here: its first request (the job's page
    loading in the pool's Chromium) is held until the test has done its harm."""
    requested, release = threading.Event(), threading.Event()

    class Stylesheet(SiteHandler):
        def do_GET(self) -> None:  # noqa: N802
            if not requested.is_set():
                requested.set()
                release.wait(JOB_S)
            self.send("body { margin: 0 }", content_type="text/css")

    css, stop_css = serve(Stylesheet)
    app, stop_app = serve_in_thread(stylesheet=f"{css}/style.css")
    yield app, requested, release
    release.set()
    stop_app()
    stop_css()


@pytest.mark.parametrize("round_", range(ROUNDS))
def test_a_renderer_killed_mid_job_is_not_blamed_on_the_application(
        service: Service, paused_page, webhook_receiver, round_: int) -> None:
    app, requested, release = paused_page
    project = project_for(service, app, webhook_receiver)
    worker = service.worker(concurrency=1)
    batch_id, (job_id,) = submit(service, project, "OWN-1")
    assert requested.wait(JOB_S), "the job's page never loaded"
    renderers = generation_renderers(worker)
    assert renderers, "the job's browser has no renderer"
    for renderer in renderers:
        renderer.send_signal(signal.SIGKILL)
    release.set()

    batch = wait_finished(service, project, batch_id, timeout_s=2 * JOB_S)
    assert_done_once(service, project, webhook_receiver, batch)
    assert batch["jobs"][0]["attempt"] == 1, "the scenario ran again on a fresh context, within the job"
    worker.wait_for_line("scenario.renderer_crashed", f'"job_id": {job_id}', timeout_s=5)


def replaying(process: psutil.Process) -> bool:
    """A cucumber-js of its own, or the resident one (workers/agent/verify/resident.js) while it drives a browser."""
    try:
        command = " ".join(process.cmdline())
        return "cucumber" in command or ("resident.js" in command and bool(process.children()))
    except psutil.NoSuchProcess:
        return False


def replay_running(worker) -> bool:  # noqa: ANN001
    return any(replaying(process) for process in worker.tree())


def kill_mid_replay(worker) -> tuple[list, float]:  # noqa: ANN001
    """SIGKILL the worker's (only) child once a cucumber-js replay runs under it, as the OOM killer or the hard time
    limit would; the child's process tree as it was, and when."""
    deadline = time.monotonic() + JOB_S
    while not replay_running(worker) and time.monotonic() < deadline:
        time.sleep(0.05)
    (child,) = psutil.Process(worker.pid).children()
    tree = [child, *descendants(child)]
    assert any(replaying(p) for p in tree[1:]), "no replay was seen running"
    child.send_signal(signal.SIGKILL)
    return tree, time.monotonic()


@pytest.mark.parametrize("round_", range(ROUNDS))
def test_a_worker_process_sigkilled_mid_replay_takes_the_replay_and_its_browser_along(
        service: Service, petclinic: str, webhook_receiver, round_: int) -> None:
    project = project_for(service, petclinic, webhook_receiver)
    worker = service.worker(concurrency=1)
    batch_id, (job_id,) = submit(service, project, "OWN-1")
    claimed(worker, job_id, JOB_S)
    tree, killed_at = kill_mid_replay(worker)
    while [p for p in tree if alive(p)] and time.monotonic() < killed_at + TREE_GONE_WITHIN_S:
        time.sleep(0.2)
    left = [(p.pid, " ".join(p.cmdline())[:80]) for p in tree if alive(p)]
    assert not left, f"outlived their SIGKILLed worker process: {left}"
    print(f"\nworker process killed mid-replay: its {len(tree) - 1} processes gone in {time.monotonic() - killed_at:.1f} s")

    batch = wait_finished(service, project, batch_id, timeout_s=TAKEN_OVER_WITHIN_S + 2 * JOB_S)
    assert_done_once(service, project, webhook_receiver, batch)
    assert batch["jobs"][0]["attempt"] == 2, batch["jobs"][0]


@pytest.mark.parametrize("round_", range(ROUNDS))
def test_a_worker_process_sigkilled_mid_chunk_loses_no_job_and_settles_each_once(
        service: Service, petclinic: str, webhook_receiver, round_: int) -> None:
    """A regeneration's chunk is killed while it replays: its jobs are claimed again once their leases run out
    (the sweep), each replayed and settled once; the batch completes with its suite, as if nothing had happened."""
    project = project_for(service, petclinic, webhook_receiver)
    worker = service.worker(concurrency=1)
    service.beat()
    generated, _jobs = submit(service, project, "OWN-1", "OWN-5")
    assert_done_once(service, project, webhook_receiver, wait_finished(service, project, generated, 2 * JOB_S))

    accepted = service.client.post("/v1/projects/me/regenerate",
                                   headers={**project.headers, "Idempotency-Key": uuid.uuid4().hex})
    assert accepted.status_code == 202, accepted.text
    batch_id = accepted.json()["id"]
    worker.wait_for_line("replay_chunk.claimed", f'"batch_id": {batch_id}', '"replayed": 2', timeout_s=JOB_S)
    _tree, killed_at = kill_mid_replay(worker)

    batch = wait_finished(service, project, batch_id, timeout_s=TAKEN_OVER_WITHIN_S + 2 * JOB_S)
    print(f"\nworker process killed mid-chunk: the batch finished {time.monotonic() - killed_at:.1f} s later")
    assert_done_once(service, project, webhook_receiver, batch)
    # Each job: the killed chunk's claim, then one claim that settled it (none lost, none settled twice).
    assert [(job["attempt"], job["triage"]) for job in batch["jobs"]] == [(2, "passed"), (2, "passed")], batch


def test_an_application_that_is_down_fails_its_jobs_at_once_and_says_so(
        service: Service, webhook_receiver) -> None:
    """Nothing listens on the project's address: each job fails at its start page, in well under the 15 s load
    timeout, naming the refused connection (not a timeout, not the application's fault), and the batch's webhook
    still goes."""
    down = f"http://127.0.0.1:{free_port()}"
    project = project_for(service, down, webhook_receiver)
    worker = service.worker(concurrency=1)
    batch_id, (job_id,) = submit(service, project, "OWN-1")
    claimed_at = claimed(worker, job_id, JOB_S)
    batch = wait_finished(service, project, batch_id, timeout_s=JOB_S)
    took = time.monotonic() - claimed_at
    (job,) = batch["jobs"]
    print(f"\napplication down: the job failed {took:.1f} s after its claim: {job['verdict']['reason']}")
    assert job["state"] == "failed" and job["verdict"]["kind"] == "error", job
    assert job["verdict"]["reason"].startswith("could not open the start page"), job
    assert down in job["verdict"]["reason"] and "refused the connection" in job["verdict"]["reason"], job
    assert took < 15, "it waited for the load timeout"
    events = service.client.get(f"/v1/batches/{batch_id}/webhooks", headers=project.headers).json()["events"]
    assert len(events) == 1 and events[0]["type"] == "batch.completed", events
