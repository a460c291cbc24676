"""The dashboard's pages (/ui/) in the fast tier: signing in and out with a project's key, CSRF on every form, each
page of a batch whose jobs finished (verdicts, triage, artifacts as a worker stores them), and the boundaries: another
project's ids are a 404, a page without a session goes to the sign-in form."""

from __future__ import annotations

import re
import uuid

import pytest
from fastapi.testclient import TestClient
from sqlmodel import select

from shared.artifacts import open_artifact_store
from shared.models import Job
from shared.records import Locator, Operation, ReplayResult, RunRecord, Verdict
from shared.store import attempt_artifact_prefix, engine_for, finish_job, reading
from shared.store.jobs import JobResult
from tests.service.conftest import ADMIN_TOKEN

PNG = b"\x89PNG\r\n\x1a\n" + b"\0" * 16


def new_project(client: TestClient, base_url: str) -> tuple[int, str]:
    answer = client.post("/v1/projects", json={"name": f"dash {uuid.uuid4().hex[:6]}", "base_url": base_url},
                         headers={"Authorization": f"Bearer {ADMIN_TOKEN}"})
    assert answer.status_code == 201, answer.text
    return answer.json()["project"]["id"], answer.json()["api_key"]


def csrf_of(html: str, action: str = "") -> str:
    """The CSRF token of the page's form posting to `action` (any form's when not given)."""
    return re.search(rf'action="{action}[^"]*"[^>]*>\s*<input type="hidden" name="csrf" value="([^"]+)"', html).group(1)


def signed_in(client: TestClient, api_key: str) -> TestClient:
    """A browser of its own (its own cookies), signed in with the key."""
    browser = TestClient(client.app, base_url="http://dashboard.test")
    form = browser.get("/ui/sign-in")
    answer = browser.post("/ui/sign-in", data={"api_key": api_key, "csrf": csrf_of(form.text), "next": "/ui/"},
                          follow_redirects=False)
    assert answer.status_code == 303, answer.text
    return browser


def store_artifacts(settings, job: Job, *, passed: bool) -> None:
    """What a worker keeps of a job: a run record with a screenshot per operation, the trace, the suite's files."""
    root, prefix = open_artifact_store(settings), attempt_artifact_prefix(job.artifact_prefix, 1)

    class Scoped:
        def put_bytes(self, key: str, data: bytes, content_type: str) -> None:
            root.put_bytes(prefix + key, data, content_type)

    store = Scoped()
    attempt = f"{job.external_id}/attempt-1"
    operations = [Operation(index=i, step_index=i, kind=kind, description=text, said=said,
                            locator=Locator(strategy="label", value=said), screenshot=f"screenshots/{i:03d}.png",
                            ok=passed or i == 0)
                  for i, (kind, text, said) in enumerate([("fill", "Fill Last name with Davis", "Last name"),
                                                          ("assert_text", "Check the heading", "Owners")])]
    record = RunRecord(scenario_id=job.external_id, title="Find an owner", base_url="http://app.test",
                       operations=operations, verdict=Verdict.passed() if passed else Verdict.failed(
                           2, "expectation", "the heading reads Owner Information"),
                       replay=ReplayResult(passed=True, seconds=1.5) if passed else None)
    store.put_bytes(f"{attempt}/run.json", record.model_dump_json().encode(), "application/json")
    for i in range(2):
        store.put_bytes(f"{attempt}/screenshots/{i:03d}.png", PNG, "image/png")
    store.put_bytes(f"{attempt}/trace.zip", b"PK\x05\x06" + b"\0" * 18, "application/zip")
    if passed:
        store.put_bytes("suite/features/owners.feature", b"Feature: Owners\n  Scenario: Find <owner>\n",
                        "text/plain")
        store.put_bytes("suite/features/step_definitions/steps.js", b"const x = '<b>';\n", "text/javascript")


@pytest.fixture(scope="module")
def finished(client: TestClient, settings, petclinic: str) -> dict:
    """A project with a finished batch of two scenarios, one passed and one failed at step 2."""
    project_id, api_key = new_project(client, petclinic)
    headers = {"Authorization": f"Bearer {api_key}", "Idempotency-Key": "dash"}
    scenarios = [{"id": f"DASH-{n}", "title": "Find an owner", "steps": [
        {"action": "Fill Last name with Davis"}, {"action": "Check the heading", "expected": "Owners"}]}
        for n in (1, 2)]
    answer = client.post("/v1/batches", json={"scenarios": scenarios}, headers=headers)
    assert answer.status_code == 202, answer.text
    batch_id = answer.json()["id"]
    engine = engine_for(settings.database_url)
    with reading(engine) as session:
        jobs = list(session.exec(select(Job).where(Job.batch_id == batch_id).order_by(Job.id)).all())
    passed, failed = jobs
    store_artifacts(settings, passed, passed=True)
    store_artifacts(settings, failed, passed=False)
    finish_job(engine, passed.id, None, JobResult(state="passed", generation_attempts=1, timings={"seconds": 4.2}))
    finish_job(engine, failed.id, None, JobResult(state="failed", failed_step=2, failure_kind="expectation",
                                                  reason="the heading reads <Owner Information>",
                                                  generation_attempts=2, timings={"seconds": 9.0}))
    return {"project_id": project_id, "api_key": api_key, "batch_id": batch_id, "passed": passed.id,
            "failed": failed.id, "base": f"/ui/projects/{project_id}/batches/{batch_id}"}


def test_a_page_without_a_session_goes_to_the_sign_in_form_and_back(client, finished):
    browser = TestClient(client.app)
    answer = browser.get(finished["base"], follow_redirects=False)
    assert answer.status_code == 303 and answer.headers["location"] == f"/ui/sign-in?next={finished['base']}"
    form = browser.get(answer.headers["location"])
    assert form.status_code == 200 and 'name="next" value="%s"' % finished["base"] in form.text
    signed = browser.post("/ui/sign-in", data={"api_key": finished["api_key"], "csrf": csrf_of(form.text),
                                               "next": finished["base"]}, follow_redirects=False)
    assert signed.status_code == 303 and signed.headers["location"] == finished["base"]
    cookie = signed.headers["set-cookie"]
    assert "HttpOnly" in cookie and "SameSite=lax" in cookie and "Path=/ui" in cookie
    assert browser.get(finished["base"]).status_code == 200


def test_a_wrong_key_or_a_forged_form_signs_nothing_in(client, finished):
    browser = TestClient(client.app)
    form = browser.get("/ui/sign-in")
    wrong = browser.post("/ui/sign-in", data={"api_key": "sfk_wrong", "csrf": csrf_of(form.text)})
    assert wrong.status_code == 401 and "opens no project" in wrong.text
    forged = TestClient(client.app).post("/ui/sign-in", data={"api_key": finished["api_key"], "csrf": "x"})
    assert forged.status_code == 403 and "csrf" in forged.text
    assert "stepforge_session" not in forged.headers.get("set-cookie", "")
    elsewhere = browser.post("/ui/sign-in", data={"api_key": finished["api_key"], "csrf": csrf_of(form.text),
                                                  "next": "https://evil.example/"}, follow_redirects=False)
    assert elsewhere.headers["location"] == f"/ui/projects/{finished['project_id']}"  # never another site


def test_each_page_of_a_finished_batch(client, finished):
    browser = signed_in(client, finished["api_key"])
    projects = browser.get("/ui/projects")
    assert projects.status_code == 200 and f"Batch {finished['batch_id']}" in projects.text
    project = browser.get(f"/ui/projects/{finished['project_id']}")
    assert project.status_code == 200 and f'href="{finished["base"]}"' in project.text

    batch = browser.get(finished["base"])
    assert batch.status_code == 200
    assert "data-refresh" not in batch.text  # finished: nothing to follow
    assert "step 2 (expectation)" in batch.text and "the heading reads &lt;Owner Information&gt;" in batch.text
    assert f'{finished["base"]}/downloads/junit.xml' in batch.text
    failed_only = browser.get(finished["base"], params={"state": "failed"})
    assert "DASH-2" in failed_only.text and "DASH-1</a>" not in failed_only.text

    failed = browser.get(f"{finished['base']}/scenarios/{finished['failed']}")
    assert failed.status_code == 200
    assert "Why it failed:" in failed.text and 'class="failed" aria-label="Step 2, failed"' in failed.text
    screenshots = re.findall(r'<img src="([^"]+)"', failed.text)
    assert len(screenshots) == 2 and all("/screenshots/" in url for url in screenshots)
    picture = browser.get(screenshots[0])
    assert picture.status_code == 200 and picture.content == PNG
    assert "label=Last name" in failed.text and "npx playwright show-trace" in failed.text
    trace = browser.get(f"{finished['base']}/scenarios/{finished['failed']}/artifacts/DASH-2/attempt-1/trace.zip")
    assert trace.status_code == 200 and "attachment" in trace.headers["content-disposition"]

    passed = browser.get(f"{finished['base']}/scenarios/{finished['passed']}")
    assert '<span class="k">Feature:</span>' in passed.text and "&lt;owner&gt;" in passed.text  # Gherkin, escaped
    assert "'&lt;b&gt;'" in passed.text  # the JavaScript highlighted, its text escaped
    assert "replayed green" in passed.text

    junit = browser.get(f"{finished['base']}/downloads/junit.xml")
    assert junit.status_code == 200 and "DASH-2" in junit.text  # the /v1 route's own bytes
    assert browser.get(f"{finished['base']}/downloads/nothing").status_code == 404
    report = browser.get(f"{finished['base']}/report")
    assert report.status_code == 200 and "Flakiness over nights" in report.text


def test_another_project_s_ids_are_not_found(client, finished, petclinic):
    _other_id, other_key = new_project(client, petclinic)
    browser = signed_in(client, other_key)
    for path in (f"/ui/projects/{finished['project_id']}", finished["base"], f"{finished['base']}/report",
                 f"{finished['base']}/progress", f"{finished['base']}/scenarios/{finished['failed']}",
                 f"{finished['base']}/downloads/junit.xml",
                 f"{finished['base']}/scenarios/{finished['failed']}/artifacts/DASH-2/attempt-1/trace.zip"):
        answer = browser.get(path)
        assert answer.status_code == 404, (path, answer.status_code)
        assert "DASH-" not in answer.text
    accepted = browser.post(f"{finished['base']}/scenarios/{finished['failed']}/accept",
                            data={"csrf": csrf_of(browser.get("/ui/projects").text)})
    assert accepted.status_code == 404


def test_forms_need_the_session_s_csrf_token_and_signing_out_ends_the_session(client, finished):
    browser = signed_in(client, finished["api_key"])
    refused = browser.post("/ui/sign-out", data={"csrf": "forged"})
    assert refused.status_code == 403
    accept = browser.post(f"{finished['base']}/scenarios/{finished['failed']}/accept", data={"csrf": "forged"})
    assert accept.status_code == 403
    token = browser.cookies.get("stepforge_session")
    out = browser.post("/ui/sign-out", data={"csrf": csrf_of(browser.get("/ui/projects").text)},
                       follow_redirects=False)
    assert out.status_code == 303 and out.headers["location"] == "/ui/sign-in"
    stolen = TestClient(client.app)
    stolen.cookies.set("stepforge_session", token, path="/ui")
    assert stolen.get("/ui/projects", follow_redirects=False).status_code == 303  # the token opens nothing now


def test_two_projects_signed_in_on_one_browser(client, finished, petclinic):
    other_id, other_key = new_project(client, petclinic)
    browser = signed_in(client, finished["api_key"])
    form = browser.get("/ui/sign-in")
    browser.post("/ui/sign-in", data={"api_key": other_key, "csrf": csrf_of(form.text, "/ui/sign-in")})
    listed = browser.get("/ui/projects").text
    assert f"/ui/projects/{finished['project_id']}\"" in listed and f"/ui/projects/{other_id}\"" in listed


def test_bad_query_values_are_a_page_naming_them(client, finished):
    browser = signed_in(client, finished["api_key"])
    answer = browser.get(finished["base"], params={"state": "sideways"})
    assert answer.status_code == 422 and "state" in answer.text and "<html" in answer.text
