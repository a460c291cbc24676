"""Submitting a batch to the fault suite's service and checking it ended as if nothing had happened: every job
finished once, with one run in its final attempt folder, and one signed webhook for the batch."""

from __future__ import annotations

import json
import time
import uuid

from shared.webhooks import verify
from tests.faults.conftest import Service
from tests.service.conftest import ProjectAccess, WebhookReceiver, new_project
from tests.service.test_batches import demo_scenarios

SUITE_BUILT_WITHIN_S = 180  # a batch's suite is built and replayed as a whole before its webhook goes


def submit(service: Service, project: ProjectAccess, *scenario_ids: str) -> tuple[int, list[int]]:
    answer = service.client.post("/v1/batches", json={"scenarios": demo_scenarios(*scenario_ids)},
                                 headers={**project.headers, "Idempotency-Key": uuid.uuid4().hex})
    assert answer.status_code == 202, answer.text
    batch_id = answer.json()["id"]
    jobs = service.client.get(f"/v1/batches/{batch_id}", headers=project.headers).json()["jobs"]
    return batch_id, [job["id"] for job in jobs]


def wait_finished(service: Service, project: ProjectAccess, batch_id: int, timeout_s: float) -> dict:
    deadline = time.monotonic() + timeout_s
    while True:
        batch = service.client.get(f"/v1/batches/{batch_id}", headers=project.headers).json()
        if batch["state"] == "finished":
            return batch
        if time.monotonic() > deadline:
            raise AssertionError(f"batch {batch_id} did not finish within {timeout_s} s: {json.dumps(batch)}")
        time.sleep(0.3)


def assert_done_once(service: Service, project: ProjectAccess, receiver: WebhookReceiver, batch: dict) -> None:
    """Every job passed, with the artifacts of one run; one batch.completed event, received once, signed."""
    for job in batch["jobs"]:
        assert job["state"] == "passed", job
        listing = service.client.get(f"/v1/batches/{batch['id']}/jobs/{job['id']}/artifacts",
                                     headers=project.headers).json()
        runs = [a["key"] for a in listing["artifacts"] if a["key"].endswith("/run.json")]
        assert len(runs) == 1, runs
    events = service.client.get(f"/v1/batches/{batch['id']}/webhooks", headers=project.headers).json()["events"]
    assert len(events) == 1, events
    deadline = time.monotonic() + SUITE_BUILT_WITHIN_S  # the event goes once the batch's suite is built
    while time.monotonic() < deadline and not delivered(receiver, events[0]["id"]):
        time.sleep(0.1)
    (received,) = delivered(receiver, events[0]["id"])
    verify(project.webhook_secret, received.headers, received.body)
    data = json.loads(received.body)["data"]
    assert data["batch_id"] == batch["id"] and data["suite"] == {"state": "ready", "failed": {}}, data


def delivered(receiver: WebhookReceiver, event_id: str) -> list:
    return [r for r in receiver.received if r.headers.get("webhook-id") == event_id]


def project_for(service: Service, petclinic: str, receiver: WebhookReceiver) -> ProjectAccess:
    return new_project(service.client, petclinic, webhook_url=receiver.url)
