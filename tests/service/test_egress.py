"""The service runs every browser of a batch behind the egress guard: the job's generation, the job's replay and
the batch suite's replay each refuse a hostile page's requests to a refused address, record them, and open no
connection to it (tests/security/ proves the same for the CLI)."""

from __future__ import annotations

import json

import pytest

from shared.records import ReplayResult, RunRecord
from shared.store import batch_prefix
from tests.security.hostile import hostile_site, refused_listener
from tests.service.conftest import new_project
from tests.service.test_batches import wait_finished, wait_suite

pytestmark = pytest.mark.service  # its tier (tests/conftest.py)

SCENARIO = {"id": "HOST-1", "title": "The welcome page greets", "start": "/",
            "steps": [{"action": "Look at the page", "expected": "Welcome is shown"}]}


@pytest.fixture(scope="module")
def listener():
    with refused_listener() as listener:
        yield listener


@pytest.fixture(scope="module")
def finished(client, worker, listener):
    with hostile_site(listener) as site:
        project = new_project(client, site)
        response = client.post("/v1/batches", json={"scenarios": [SCENARIO]},
                               headers={**project.headers, "Idempotency-Key": "hostile"})
        assert response.status_code == 202, response.text
        batch_id = response.json()["id"]
        wait_finished(client, project.headers, batch_id)
        batch = wait_suite(client, project.headers, batch_id)
    return project, batch_id, batch


def test_a_batch_on_a_hostile_page_passes_refusing_every_request_to_the_refused_address(client, finished, listener):
    project, batch_id, batch = finished
    assert batch["counts"].get("passed") == 1 and batch["suite_state"] == "ready", batch
    (job,) = batch["jobs"]
    listing = client.get(f"/v1/batches/{batch_id}/jobs/{job['id']}/artifacts", headers=project.headers).json()
    (run_key,) = [a["key"] for a in listing["artifacts"] if a["key"].endswith("/run.json")]
    record = RunRecord.model_validate_json(
        client.get(f"/v1/batches/{batch_id}/jobs/{job['id']}/artifacts/{run_key}", headers=project.headers).content)
    assert any("127.0.0.2 is in a refused network" in r for r in record.refused_requests)  # generation
    assert record.replay is not None and record.replay.passed
    assert any("127.0.0.2 is in a refused network" in r for r in record.replay.refused)  # the job's replay
    suite_replay = json.loads(client.app.state.services.store().get_bytes(
        batch_prefix(project.id, batch_id) + "suite-replay.json"))
    result = ReplayResult.model_validate(suite_replay["HOST-1"])  # the batch suite's own replay
    assert result.passed and any("127.0.0.2 is in a refused network" in r for r in result.refused)
    assert listener.accepted == [] and listener.datagrams == []
