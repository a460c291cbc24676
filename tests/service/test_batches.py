"""A batch through the whole service: API -> Redis -> a real Celery worker with Chromium -> PostgreSQL, S3 (moto)
-> a signed webhook; then the suite zip, run by cucumber-js."""

from __future__ import annotations

import io
import json
import os
import re
import subprocess
import time
import zipfile
from pathlib import Path

import httpx
import pytest
from sqlalchemy import func
from sqlmodel import select
from standardwebhooks.webhooks import Webhook

from shared.job_queue import GENERATE_JOB
from shared.models import Job, Outbox
from shared.scenarios import load_scenarios
from shared.store import engine_for, reading
from tests.service.conftest import ROOT, new_project
from workers.agent.verify.node_runtime import ensure_runtime
from workers.agent.verify.replay import cucumber_command, replay_scenarios

pytestmark = pytest.mark.service  # its tier (tests/conftest.py)

# Ten of the demo's scenarios (OWN-4 written as free text), as one batch: its suite shares steps between jobs.
SCENARIO_IDS = ("OWN-1", "OWN-2", "OWN-3", "OWN-4", "OWN-5", "OWN-10", "OWN-11", "PET-14", "VET-20", "ERR-21")
TOTAL = len(SCENARIO_IDS)
FINISH_TIMEOUT_S = 45 * TOTAL  # a generous bound on the whole batch: its jobs run one at a time


def demo_scenarios(*ids: str) -> list[dict]:
    by_id = {s.id: s for s in load_scenarios(ROOT / "examples" / "petclinic.yaml").scenarios}
    # A scenario written as text is sent as text (its steps are derived from it, not given).
    return [by_id[i].model_dump(mode="json", exclude_none=True, exclude={"steps"} if by_id[i].text else None)
            for i in ids]


def wait_finished(client, headers: dict, batch_id: int, timeout_s: float = FINISH_TIMEOUT_S) -> list[dict]:
    """Poll the progress until the batch is finished; every snapshot seen."""
    snapshots = []
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        response = client.get(f"/v1/batches/{batch_id}", headers=headers)
        assert response.status_code == 200, response.text
        snapshots.append(response.json())
        if snapshots[-1]["state"] == "finished":
            return snapshots
        time.sleep(0.3)
    raise AssertionError(f"batch {batch_id} did not finish in {timeout_s} s: {snapshots[-1]}")


def wait_suite(client, headers: dict, batch_id: int, timeout_s: float = FINISH_TIMEOUT_S) -> dict:
    """Poll the finished batch until its suite is built and replayed (ready) or known empty; the last snapshot."""
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        batch = client.get(f"/v1/batches/{batch_id}", headers=headers).json()
        if batch["suite_state"] in ("ready", "empty"):
            return batch
        pending = client.get(f"/v1/batches/{batch_id}/suite.zip", headers=headers)
        if pending.status_code == 409:  # else it was built meanwhile: the next look says so
            assert pending.headers["retry-after"] == "5", pending.text
        time.sleep(0.3)
    raise AssertionError(f"the suite of batch {batch_id} was not built in {timeout_s} s")


@pytest.fixture(scope="module")
def project(client, petclinic, webhook_receiver):
    return new_project(client, petclinic, webhook_url=webhook_receiver.url)


@pytest.fixture(scope="module")
def batch_run(client, worker, project):
    """The demo scenarios submitted once; the answer, its time, and every progress snapshot until finished."""
    body = {"scenarios": demo_scenarios(*SCENARIO_IDS)}
    started = time.monotonic()
    response = client.post("/v1/batches", json=body, headers={**project.headers, "Idempotency-Key": "first-batch"})
    answered_s = time.monotonic() - started
    assert response.status_code == 202, response.text
    snapshots = wait_finished(client, project.headers, response.json()["id"])
    return {"body": body, "response": response.json(), "answered_s": answered_s, "snapshots": snapshots}


def test_the_batch_is_accepted_at_once_and_its_progress_is_visible(batch_run):
    assert batch_run["answered_s"] < 3
    accepted = batch_run["response"]
    assert accepted["state"] == "queued" and accepted["jobs_total"] == TOTAL
    unfinished = [s for s in batch_run["snapshots"] if s["state"] != "finished"]
    assert unfinished, "the batch finished before any progress was seen"
    assert any(s["counts"]["running"] == 1 for s in unfinished), [s["counts"] for s in unfinished]
    assert all(sum(s["counts"].values()) == TOTAL for s in batch_run["snapshots"])


def test_every_scenario_passes_with_verdicts_and_timings(batch_run):
    final = batch_run["snapshots"][-1]
    assert final["counts"]["passed"] == TOTAL, final
    assert [job["external_id"] for job in final["jobs"]] == list(SCENARIO_IDS)
    for job in final["jobs"]:
        assert job["state"] == "passed" and job["verdict"] is None
        assert job["attempt"] == 1  # claimed once
        assert job["timings"]["seconds"] > 0 and job["timings"]["operations"] >= 1
    assert final["finished_at"] is not None


def test_artifacts_are_listed_with_working_presigned_urls(client, project, batch_run):
    batch = batch_run["snapshots"][-1]
    job = batch["jobs"][0]
    response = client.get(f"/v1/batches/{batch['id']}/jobs/{job['id']}/artifacts", headers=project.headers)
    assert response.status_code == 200, response.text
    artifacts = {a["key"]: a for a in response.json()["artifacts"]}
    attempt = f"OWN-1/attempt-{job['generation_attempts']}"
    for key in (f"{attempt}/run.json", f"{attempt}/trace.zip", f"{attempt}/replay.json", "report.json",
                "suite/features/step_definitions/steps.js"):
        assert key in artifacts, sorted(artifacts)
    assert any(key.startswith(f"{attempt}/screenshots/") for key in artifacts)
    run = artifacts[f"{attempt}/run.json"]
    downloaded = httpx.get(run["url"], timeout=10)  # presigned on the S3 server, no credentials
    assert downloaded.status_code == 200 and b'"scenario_id": "OWN-1"' in downloaded.content
    via_api = client.get(f"/v1/batches/{batch['id']}/jobs/{job['id']}/artifacts/{attempt}/run.json",
                         headers=project.headers)
    assert via_api.status_code == 200 and via_api.content == downloaded.content


def test_the_batch_suite_is_built_and_replayed_as_a_whole_by_a_worker(client, project, batch_run, worker):
    """The API serves the bytes a worker stored; the combined replay passed, so no scenario is named as red."""
    batch_id = batch_run["response"]["id"]
    built = wait_suite(client, project.headers, batch_id)
    assert built["suite_state"] == "ready" and built["suite_failed"] is None, built
    line = worker.wait_for_line("build_suite.done", f'"batch_id": {batch_id}')
    assert '"failed": []' in line and f'"scenarios": {TOTAL}' in line, line


def test_the_suite_zip_runs_with_cucumber_js(client, project, batch_run, settings, petclinic, tmp_path: Path):
    batch_id = batch_run["response"]["id"]
    wait_suite(client, project.headers, batch_id)
    response = client.get(f"/v1/batches/{batch_id}/suite.zip", headers=project.headers)
    assert response.status_code == 200 and response.headers["content-type"] == "application/zip"
    with zipfile.ZipFile(io.BytesIO(response.content)) as archive:
        names = set(archive.namelist())
        archive.extractall(tmp_path)
    for name in ("package.json", "cucumber.js", "features/step_definitions/steps.js", "features/support/world.js"):
        assert f"suite/{name}" in names, sorted(names)
    feature = next(n for n in names if n.endswith(".feature"))
    text = (tmp_path / feature).read_text()
    assert all(f"@{scenario_id}" in text for scenario_id in SCENARIO_IDS)
    steps = (tmp_path / "suite/features/step_definitions/steps.js").read_text()
    patterns = re.findall(r"^(?:Given|When|Then)\((\S.*?), async", steps, re.MULTILINE)
    assert patterns and len(patterns) == len(set(patterns)), "a step is defined twice"
    # What `npm install && npx cucumber-js` does, with the replay runtime's packages (no download here).
    results = replay_scenarios(tmp_path / "suite", list(SCENARIO_IDS), petclinic, settings)
    assert {i: r.passed for i, r in results.items()} == dict.fromkeys(SCENARIO_IDS, True), results
    again = client.get(f"/v1/batches/{batch_id}/suite.zip", headers=project.headers)
    assert again.content == response.content  # built once, then served from the artifact store


def test_the_suite_zip_runs_with_plain_npx_cucumber_js(client, project, batch_run, settings, petclinic,
                                                      tmp_path: Path):
    """No STEPFORGE_BASE_URL: the zip names the batch's base URL itself (stepforge.json), as `npm install && npx
    cucumber-js` in the unzipped folder needs; the suite's own cucumber.js profile, its own reports/."""
    wait_suite(client, project.headers, batch_run["response"]["id"])
    response = client.get(f"/v1/batches/{batch_run['response']['id']}/suite.zip", headers=project.headers)
    with zipfile.ZipFile(io.BytesIO(response.content)) as archive:
        archive.extractall(tmp_path)
    suite = tmp_path / "suite"
    assert json.loads((suite / "stepforge.json").read_text()) == {"base_url": petclinic}
    cli, extra = cucumber_command(suite, ensure_runtime(settings))  # the packages npm install would fetch
    env = {name: value for name, value in os.environ.items() if not name.startswith("STEPFORGE_")}
    env.update(extra, STEPFORGE_BROWSER_PATH=settings.browser_path, NO_COLOR="1")
    run = subprocess.run([str(cli)], cwd=suite, env=env, capture_output=True, text=True, timeout=300, check=False)
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-2000:]
    assert re.search(r"^(\d+) scenarios \(\1 passed\)$", run.stdout, re.MULTILINE), run.stdout[-2000:]


def test_one_outbox_event_and_one_signed_webhook(client, project, batch_run, settings, webhook_receiver):
    batch_id = batch_run["response"]["id"]
    received = webhook_receiver.wait_for(1)
    time.sleep(1)  # a duplicate would arrive now
    ours = [r for r in webhook_receiver.received if f'"batch_id":{batch_id},'.encode() in r.body]
    assert len(ours) == 1, received
    message = ours[0]
    payload = Webhook(project.webhook_secret).verify(message.body, message.headers)
    assert payload["type"] == "batch.completed"
    assert payload["data"]["jobs"] == {"total": TOTAL, "passed": TOTAL, "failed": 0}
    assert payload["data"]["suite"] == {"state": "ready", "failed": {}}  # sent once the suite was built
    assert client.get(f"/v1/batches/{batch_id}/suite.zip", headers=project.headers).status_code == 200
    with reading(engine_for(settings.database_url)) as session:
        events = session.exec(select(Outbox).where(Outbox.batch_id == batch_id)).all()
    assert len(events) == 1 and events[0].id == message.headers["webhook-id"]
    log = client.get(f"/v1/batches/{batch_id}/webhooks", headers=project.headers).json()
    assert len(log["events"]) == 1
    deliveries = log["events"][0]["deliveries"]
    assert [(d["attempt"], d["status"], d["status_code"]) for d in deliveries] == [(1, "delivered", 204)]


def test_the_same_idempotency_key_gives_the_same_batch_and_nothing_new(client, project, batch_run, settings):
    batch_id = batch_run["response"]["id"]
    jobs_before = _count_jobs(settings)
    again = client.post("/v1/batches", json=batch_run["body"],
                        headers={**project.headers, "Idempotency-Key": "first-batch"})
    assert again.status_code == 202 and again.json()["id"] == batch_id
    assert again.headers["Idempotent-Replayed"] == "true"
    assert _count_jobs(settings) == jobs_before
    other_body = client.post("/v1/batches", json={"scenarios": demo_scenarios("VET-20")},
                             headers={**project.headers, "Idempotency-Key": "first-batch"})
    assert other_body.status_code == 409 and "Idempotency-Key" in other_body.json()["detail"]


def test_a_finished_job_delivered_again_does_nothing(client, project, batch_run, settings, worker, webhook_receiver):
    batch = batch_run["snapshots"][-1]
    job_id = batch["jobs"][1]["id"]
    before = _job(settings, job_id)
    webhooks_before = len(webhook_receiver.received)
    client.app.state.services.celery.send_task(GENERATE_JOB, args=(job_id,))  # as a redelivered message would
    worker.wait_for_line("generate_job.already_finished", f'"job_id": {job_id}', timeout_s=30)
    after = _job(settings, job_id)
    assert (after.state, after.attempt, after.finished_at, after.lease_owner) == \
           (before.state, before.attempt, before.finished_at, before.lease_owner)
    time.sleep(0.5)
    assert len(webhook_receiver.received) == webhooks_before
    with reading(engine_for(settings.database_url)) as session:
        assert session.exec(select(func.count()).select_from(Outbox).where(Outbox.batch_id == batch["id"])).one() == 1


def _count_jobs(settings) -> int:
    with reading(engine_for(settings.database_url)) as session:
        return session.exec(select(func.count()).select_from(Job)).one()


def _job(settings, job_id: int) -> Job:
    with reading(engine_for(settings.database_url)) as session:
        return session.get(Job, job_id)


def test_an_internal_error_in_a_job_leaves_a_one_line_reason_a_traceback_and_error_txt(client, worker, project,
                                                                                        settings):
    """A stored scenario that can no longer be read (its row edited by hand) is the job's internal error: the
    verdict says it in one line, the worker's log line holds the traceback, and the attempt keeps error.txt."""
    put = client.put("/v1/scenarios/BROKEN-1", json={"title": "t", "steps": ["Go to /owners/find"]},
                     headers=project.headers)
    assert put.status_code == 201, put.text
    from sqlalchemy import update

    from shared.models import Scenario as ScenarioRow

    with engine_for(settings.database_url).begin() as connection:
        connection.execute(update(ScenarioRow).where(ScenarioRow.external_id == "BROKEN-1")
                           .values(definition={"title": "t"}))  # neither steps nor text
    accepted = client.post("/v1/batches", json={"scenarios": [{"external_id": "BROKEN-1"}]},
                           headers={**project.headers, "Idempotency-Key": "broken-row"})
    assert accepted.status_code == 202, accepted.text
    batch_id = accepted.json()["id"]
    (job,) = wait_finished(client, project.headers, batch_id)[-1]["jobs"]
    verdict = job["verdict"]
    assert (job["state"], verdict["kind"]) == ("failed", "error")
    assert verdict["reason"].startswith("internal error (ValidationError: ") and "\n" not in verdict["reason"]
    assert verdict["reason"].endswith("; details in error.txt")
    line = worker.wait_for_line("generate_job.crashed", f'"job_id": {job["id"]}', timeout_s=30)
    assert "Traceback (most recent call last)" in line and '"exc_info": true' not in line
    listed = client.get(f"/v1/batches/{batch_id}/jobs/{job['id']}/artifacts", headers=project.headers)
    assert listed.status_code == 200, listed.text
    keys = [artifact["key"] for artifact in listed.json()["artifacts"]]
    assert "error.txt" in keys, keys
    text = client.get(f"/v1/batches/{batch_id}/jobs/{job['id']}/artifacts/error.txt", headers=project.headers)
    assert "ValidationError" in text.text and "Traceback" in text.text
