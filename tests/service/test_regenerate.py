"""Regenerating a project's suite, what changed since the previous batch, redelivery, and the nightly run."""

from __future__ import annotations

import time
from datetime import UTC, datetime

import pytest
from sqlmodel import select

from api.changes import changes
from shared.job_queue import send_regeneration
from shared.models import Batch, Job
from shared.store import engine_for, reading, writing
from tests.service.conftest import new_project
from tests.service.test_batches import demo_scenarios, wait_finished, wait_suite
from workers.service.tasks import enqueue_nightly

pytestmark = pytest.mark.service  # its tier (tests/conftest.py)


def test_regenerate_reports_what_changed_and_webhooks_can_be_redelivered(client, worker, petclinic,
                                                                         webhook_receiver, settings):
    project = new_project(client, petclinic, webhook_url=webhook_receiver.url)
    vets = demo_scenarios("VET-20")[0]
    definition = {key: value for key, value in vets.items() if key != "id"}
    stored = client.put("/v1/scenarios/VET-20", json=definition, headers=project.headers)
    assert stored.status_code == 201 and stored.json()["version"] == 1

    first = client.post("/v1/projects/me/regenerate", headers=project.headers)
    assert first.status_code == 202 and first.json()["kind"] == "regenerate", first.text
    assert wait_finished(client, project.headers, first.json()["id"])[-1]["counts"]["passed"] == 1

    # The page no longer shows what the scenario expects: the next run fails at that step.
    definition["steps"] = [{"action": "Go to the Veterinarians page", "expected": '"Nobody Here" is shown'}]
    changed = client.put("/v1/scenarios/VET-20", json=definition, headers=project.headers)
    assert changed.status_code == 201 and changed.json()["version"] == 2
    second = client.post("/v1/projects/me/regenerate", headers={**project.headers, "Idempotency-Key": "regen-2"})
    again = client.post("/v1/projects/me/regenerate", headers={**project.headers, "Idempotency-Key": "regen-2"})
    assert again.json()["id"] == second.json()["id"]
    final = wait_finished(client, project.headers, second.json()["id"])[-1]
    job = final["jobs"][0]
    assert (job["state"], job["scenario_version"], job["verdict"]["failed_step"], job["verdict"]["kind"]) == \
           ("failed", 2, 1, "expectation")
    assert "Nobody Here" in job["verdict"]["reason"]

    report = client.get(f"/v1/batches/{final['id']}/changes", headers=project.headers).json()
    assert report["previous_batch_id"] == first.json()["id"]
    assert [(c["external_id"], c["before"]["state"], c["after"]["state"], c["after"]["failed_step"])
            for c in report["verdicts"]] == [("VET-20", "passed", "failed", 1)]
    assert report["added"] == [] and report["removed"] == []
    assert wait_suite(client, project.headers, final["id"])["suite_state"] == "empty"
    assert client.get(f"/v1/batches/{final['id']}/suite.zip", headers=project.headers).status_code == 404

    # One webhook per batch; a redelivery sends the same event (same webhook-id) once more.
    events = client.get(f"/v1/batches/{final['id']}/webhooks", headers=project.headers).json()["events"]
    assert len(events) == 1 and events[0]["payload"]["data"]["jobs"]["failed"] == 1
    event_id = events[0]["id"]
    _wait_for_event(webhook_receiver, event_id, 1, worker)
    response = client.post(f"/v1/webhooks/{event_id}/redeliver", headers=project.headers)
    assert response.status_code == 202
    _wait_for_event(webhook_receiver, event_id, 2, worker)
    # The receiver has the request before the worker logs the attempt (after the answer): give it a moment.
    deadline = time.monotonic() + 10
    while True:
        log = client.get(f"/v1/batches/{final['id']}/webhooks", headers=project.headers).json()
        deliveries = [(d["attempt"], d["status"]) for d in log["events"][0]["deliveries"]]
        if len(deliveries) >= 2 or time.monotonic() > deadline:
            break
        time.sleep(0.1)
    assert deliveries == [(1, "delivered"), (2, "delivered")]

    # The nightly run: due in the project's hour, once a day whatever the number of sweeps.
    now = datetime.now(UTC)
    assert client.patch("/v1/projects/me", json={"nightly_hour_utc": now.hour},
                        headers=project.headers).status_code == 200
    engine = engine_for(settings.database_url)
    services = client.app.state.services

    def send(batch_id, job_ids):
        with writing(engine) as session:
            send_regeneration(services.celery, session, batch_id, list(job_ids), budget_s=5, fleet=1)

    made = enqueue_nightly(engine, now, send)
    assert enqueue_nightly(engine, now, send) == []
    with reading(engine) as session:
        nightly = session.exec(select(Batch).where(Batch.project_id == project.id, Batch.kind == "nightly")).all()
    made = [batch_id for batch_id in made if batch_id in {batch.id for batch in nightly}]  # ours only
    assert [batch.id for batch in nightly] == made and len(made) == 1
    assert nightly[0].idempotency_key == f"nightly-{now.date().isoformat()}"
    assert nightly[0].previous_batch_id == final["id"]  # the latest finished full regeneration
    assert wait_finished(client, project.headers, made[0])[-1]["counts"]["failed"] == 1


def _wait_for_event(receiver, event_id: str, count: int, worker) -> None:
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if sum(1 for r in receiver.received if r.headers.get("webhook-id") == event_id) >= count:
            break
        time.sleep(0.1)
    received = sum(1 for r in receiver.received if r.headers.get("webhook-id") == event_id)
    assert received == count, f"{received} deliveries of {event_id}; the worker's log ends:\n{worker.output()[-4000:]}"


def job(external_id: str, state: str = "passed", script: list | None = None, **verdict: object) -> Job:
    return Job(batch_id=1, project_id=1, scenario_id=1, external_id=external_id, scenario_version=1, state=state,
               artifact_prefix="", script=script, **verdict)


def test_changes_lists_moved_locators_new_failures_and_added_scenarios_in_natural_order():
    find = {"step": "When I click Find Owner", "pattern": "I click Find Owner", "locators": ["id=find"]}
    moved = {**find, "locators": ["role[button]=Find Owner"]}
    verified = {"OWN-10": job("OWN-10", script=[find]), "OWN-2": job("OWN-2")}
    earlier = {**verified, "OWN-2": job("OWN-2")}
    report = changes(
        [job("OWN-10", script=[moved]), job("OWN-2", "failed", failed_step=2, failure_kind="action", reason="gone"),
         job("NEW-1"), job("NEW-2", "failed", failed_step=1, failure_kind="action", reason="no such button")],
        earlier, verified, ["OLD-1"])
    assert report["locators"] == [{"external_id": "OWN-10", "step": "When I click Find Owner",
                                   "before": ["id=find"], "after": ["role[button]=Find Owner"]}]
    assert [(c["external_id"], c["after"]["failed_step"]) for c in report["verdicts"]] == [("OWN-2", 2)]
    # NEW-2 failed: it joined no suite, so it is not "added".
    assert report["added"] == ["NEW-1"] and report["removed"] == ["OLD-1"]
    assert (report["triage"], report["triaged"]) == ({}, [])  # not a regeneration


def test_changes_group_a_regeneration_by_triage_class_with_links_to_the_pictures():
    drifted = job("OWN-2", triage="drift", triage_detail={"replays": 3, "drift": [
        {"step": 2, "operation": 3, "description": "Type Davis", "before": "id=#a", "after": "id=#b",
         "screenshot": "OWN-2/regeneration/drift-003.png"}]})
    failing = job("OWN-10", "failed", failed_step=3, failure_kind="expectation", reason="not shown",
                  triage="app_changed", triage_detail={"replays": 3, "app_change": {
                      "step": 3, "kind": "expectation", "description": "Verify", "expected": "Owner Information",
                      "actual": "not shown", "reason": "not shown", "screenshot": None}},
                  timings={"seconds": 21.5}, model_usage={"total": {"calls": 12, "input_tokens": 900}})
    drifted.timings = {"seconds": 9.25, "replays": 3}
    passed = [job("OWN-1", triage="passed", timings={"seconds": 1.5}), job("OWN-3", triage="passed", timings=None)]
    report = changes([failing, drifted, *passed], {}, {}, [],
                     link=lambda j, key: f"/files/{j.external_id}/{key}")
    assert report["triage"] == {"app_changed": 1, "drift": 1, "passed": 2}
    assert [entry["external_id"] for entry in report["triaged"]] == ["OWN-1", "OWN-2", "OWN-3", "OWN-10"]
    assert report["triaged"][1]["drift"][0]["screenshot"] == "/files/OWN-2/OWN-2/regeneration/drift-003.png"
    assert report["triaged"][3]["app_change"]["expected"] == "Owner Information"
    assert report["cost"] == {"app_changed": {"scenarios": 1, "model_calls": 12, "seconds": 21.5},
                              "drift": {"scenarios": 1, "model_calls": 0, "seconds": 9.25},
                              "passed": {"scenarios": 2, "model_calls": 0, "seconds": 1.5}}


def test_changes_show_an_app_changed_scenario_s_regenerated_script_and_flaky_scenarios():
    accepted_at = datetime(2026, 11, 24, tzinfo=UTC)
    detail = {"replays": 2, "candidate": {"passed": True, "run_record": "candidate/OWN-5/attempt-1/run.json",
                                          "diff": "candidate/script.diff", "script": [], "model_calls": 4}}
    passing = job("OWN-5", "failed", triage="app_changed", triage_detail=detail, id=7)
    failing = job("OWN-1", "failed", triage="app_changed", id=8, triage_detail={"replays": 2, "candidate": {
        "passed": False, "failed_step": 3, "failure_kind": "expectation", "reason": "not shown"}})
    done = job("OWN-6", "failed", triage="app_changed", triage_detail=detail, id=9, accepted_at=accepted_at)
    report = changes([passing, failing, done], {}, {}, [], link=lambda j, key: f"/files/{j.id}/{key}",
                     accept=lambda j: f"/accept/{j.id}", flakiness={"OWN-10": (2, 7), "OWN-2": (1, 3), "OWN-5": (0, 3)})
    candidates = {entry["external_id"]: entry["candidate"] for entry in report["triaged"]}
    assert candidates["OWN-5"] == {"passed": True, "diff": "/files/7/candidate/script.diff", "accept": "/accept/7",
                                   "accepted_at": None, "model_calls": 4}
    assert candidates["OWN-1"]["accept"] is None and candidates["OWN-1"]["failed_step"] == 3
    assert candidates["OWN-6"]["accept"] is None and candidates["OWN-6"]["accepted_at"] == accepted_at
    assert report["flakiness"] == [{"external_id": "OWN-2", "flakes": 1, "regenerations": 3},
                                   {"external_id": "OWN-10", "flakes": 2, "regenerations": 7}]
