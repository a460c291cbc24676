"""A project's report_to: where its batches' verdicts are posted. Its secret is stored encrypted, never returned
and never logged; a service without STEPFORGE_SECRETS_KEY refuses to store one; setting it again re-enables
reporting disabled after repeated 4xx; null stops it. A batch's results files are there once it has finished."""

from __future__ import annotations

import logging

from fastapi.testclient import TestClient
from sqlmodel import Session

from api.app import create_app
from shared.models import Project, utcnow
from shared.secrets import decrypt
from shared.store import engine_for
from tests.service.conftest import ADMIN_TOKEN, SECRETS_KEY, new_project

TESTRAIL = {"kind": "testrail", "url": "http://127.0.0.1:9/", "run_id": 12, "user": "qa@example.com",
            "secret": "api-key-not-to-be-seen"}


def stored(settings, project_id: int) -> Project:
    with Session(engine_for(settings.database_url)) as session:
        return session.get(Project, project_id)


def test_the_secret_is_stored_encrypted_and_never_returned(client, settings, petclinic, caplog):
    caplog.set_level(logging.DEBUG)
    project = new_project(client, petclinic, report_to=TESTRAIL)
    shown = client.get("/v1/projects/me", headers=project.headers)
    assert shown.json()["report_to"] == {"kind": "testrail", "url": "http://127.0.0.1:9/", "run_id": 12,
                                         "user": "qa@example.com"}
    assert "api-key-not-to-be-seen" not in shown.text and "api-key-not-to-be-seen" not in caplog.text
    row = stored(settings, project.id)
    assert "api-key-not-to-be-seen" not in (row.report_secret or "") + str(row.report_to)
    assert decrypt(SECRETS_KEY, row.report_secret) == "api-key-not-to-be-seen"


def test_setting_it_again_re_enables_reporting_and_null_stops_it(client, settings, petclinic):
    project = new_project(client, petclinic)
    changed = client.patch("/v1/projects/me", json={"report_to": {**TESTRAIL, "kind": "xray-server",
                                                                  "secret": "pat-123"}}, headers=project.headers)
    assert changed.status_code == 200 and changed.json()["project"]["report_to"]["kind"] == "xray-server"
    with Session(engine_for(settings.database_url)) as session:
        row = session.get(Project, project.id)
        row.report_disabled_reason, row.report_disabled_at = "3 answers 4xx in a row", utcnow()
        session.add(row)
        session.commit()
    again = client.patch("/v1/projects/me", json={"report_to": TESTRAIL}, headers=project.headers).json()["project"]
    assert (again["report_disabled_at"], again["report_disabled_reason"]) == (None, None)
    stopped = client.patch("/v1/projects/me", json={"report_to": None}, headers=project.headers).json()["project"]
    assert stopped["report_to"] is None and stored(settings, project.id).report_secret is None


def test_bad_report_to_is_a_422_naming_the_field(client, petclinic):
    project = new_project(client, petclinic)
    for report_to, message in (({**TESTRAIL, "run_id": None}, "needs run_id"),
                               ({**TESTRAIL, "kind": "xray-cloud", "secret": "no-colon"}, "<client_id>:<client_secret>"),
                               ({**TESTRAIL, "kind": "qtest"}, "report_to.kind"),
                               ({**TESTRAIL, "url": "ftp://x"}, "report_to.url")):
        answer = client.patch("/v1/projects/me", json={"report_to": report_to}, headers=project.headers)
        assert answer.status_code == 422 and message in answer.json()["detail"], answer.text


def test_a_service_without_a_secrets_key_refuses_to_store_a_secret(settings, petclinic):
    with TestClient(create_app(settings.model_copy(update={"secrets_key": None}))) as keyless:
        answer = keyless.post("/v1/projects", json={"name": "p", "base_url": petclinic, "report_to": TESTRAIL},
                              headers={"Authorization": f"Bearer {ADMIN_TOKEN}"})
    assert answer.status_code == 503 and "no STEPFORGE_SECRETS_KEY" in answer.json()["detail"], answer.text


def test_a_batch_s_results_are_there_once_it_has_finished(client, petclinic):
    project = new_project(client, petclinic)
    batch = client.post("/v1/batches", json={"scenarios": [{"id": "C1", "title": "t", "steps": ["Go to /"]}]},
                        headers={**project.headers, "Idempotency-Key": "results-1"}).json()["id"]
    for name in ("junit.xml", "cucumber.json"):
        answer = client.get(f"/v1/batches/{batch}/{name}", headers=project.headers)
        assert answer.status_code == 409 and "ready when it has finished" in answer.json()["detail"], answer.text
    other = new_project(client, petclinic)
    assert client.get(f"/v1/batches/{batch}/junit.xml", headers=other.headers).status_code == 404



def test_an_xray_report_to_is_stored_as_the_xray_its_address_names(client, petclinic):
    """(xray_kind's hosts are in tests/shared/test_results_reporting.py: Cloud's names do not resolve here.)"""
    project = new_project(client, petclinic)
    report_to = {"kind": "xray", "url": "http://127.0.0.1:9/jira", "secret": "pat-123"}
    answer = client.patch("/v1/projects/me", json={"report_to": report_to}, headers=project.headers)
    assert answer.status_code == 200 and answer.json()["project"]["report_to"]["kind"] == "xray-server", answer.text
