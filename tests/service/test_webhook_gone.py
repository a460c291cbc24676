"""A receiver answering 410 Gone asks never to be called again: the project's webhook is disabled (visible on
GET /v1/projects/me), later events are skipped, and setting the webhook URL again enables it."""

from __future__ import annotations

import threading
import uuid
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from shared.models import Project
from shared.scenarios import Scenario as ScenarioDefinition
from shared.store import (
    claim_job,
    create_batch,
    deliver_event,
    deliveries_of,
    engine_for,
    finish_job,
    jobs_of,
    upsert_scenario,
    writing,
)
from shared.urls import TargetPolicy
from shared.webhooks import deliver_once
from tests.http_site import POLL_S
from tests.service.conftest import new_project
from tests.service.test_jobs import PASSED

pytestmark = pytest.mark.service  # its tier (tests/conftest.py)


@pytest.fixture
def gone_receiver():
    calls = []

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            self.rfile.read(int(self.headers.get("content-length", 0)))
            calls.append(self.path)
            self.send_response(410)
            self.end_headers()

        def log_message(self, *_args: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, kwargs={"poll_interval": POLL_S}, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_port}/gone", calls
    server.shutdown()
    server.server_close()


def _finished_batch_event(engine, project_id: int) -> tuple[int, str]:
    with writing(engine) as session:
        project = session.get(Project, project_id)
        row, _ = upsert_scenario(session, project_id, ScenarioDefinition(id="G-1", title="g", steps=["Go to /"]))
        batch, _ = create_batch(session, project, idempotency_key=uuid.uuid4().hex, fingerprint="x", scenarios=[row],
                                base_url=project.base_url, brain="builtin", grounding="hte")
        job_id = jobs_of(session, batch.id)[0].id
    claim_job(engine, job_id, "w", lease_s=60)
    return batch.id, finish_job(engine, job_id, "w", PASSED).event_id


def test_a_410_gone_disables_the_projects_webhook(client, settings, petclinic, gone_receiver):
    url, calls = gone_receiver
    project = new_project(client, petclinic, webhook_url=url)
    engine = engine_for(settings.database_url)

    def send(target: str, secret: str, event):  # the real HTTP delivery, as deliver_webhook does it
        return deliver_once(target, secret, event.id, event.payload, timeout_s=5, policy=TargetPolicy(allow_private=True))

    batch_id, event_id = _finished_batch_event(engine, project.id)
    delivery = deliver_event(engine, event_id, send)
    assert delivery.status == "failed" and delivery.attempt.status_code == 410 and not delivery.attempt.retryable
    me = client.get("/v1/projects/me", headers=project.headers).json()
    assert me["webhook_url"] == url and me["webhook_disabled_at"] is not None
    assert "410 Gone" in me["webhook_disabled_reason"] and event_id in me["webhook_disabled_reason"]

    # The next event is not sent to the receiver that asked to be left alone; the log says why.
    _batch, later_event = _finished_batch_event(engine, project.id)
    assert deliver_event(engine, later_event, send).status == "skipped"
    assert len(calls) == 1
    with writing(engine) as session:
        (skipped,) = deliveries_of(session, later_event)
    assert skipped.status == "skipped" and "disabled" in skipped.error
    log = client.get(f"/v1/batches/{batch_id}/webhooks", headers=project.headers).json()
    assert [(d["status"], d["status_code"]) for d in log["events"][0]["deliveries"]] == [("failed", 410)]

    # Setting the URL again (here: the same one, fixed on the receiver's side) enables the webhook.
    response = client.patch("/v1/projects/me", json={"webhook_url": url}, headers=project.headers)
    assert response.status_code == 200 and response.json()["project"]["webhook_disabled_at"] is None
    with writing(engine) as session:
        assert session.get(Project, project.id).webhook_disabled_reason is None
