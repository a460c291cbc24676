"""The dashboard's pages (/ui/) in the fast tier: signing in and out with a project's key, CSRF on every form, each
page of a batch whose jobs finished (verdicts, triage, artifacts as a worker stores them), and the boundaries: another
project's ids are a 404, a page without a session goes to the sign-in form."""

from __future__ import annotations

import re
import uuid

import pytest
from fastapi.testclient import TestClient

from api.ui import router as dashboard
from tests.apps.dashboard.seed import seed
from tests.service.conftest import ADMIN_TOKEN


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


@pytest.fixture(scope="module")
def finished(settings) -> dict:
    """A project with a finished nightly regeneration (OWN-3 app_changed with a candidate, OWN-6 drift) and a
    finished on-demand batch of two scenarios, OWN-2 failed at step 2 (tests/apps/dashboard/seed.py)."""
    seeded = seed(settings, scenarios=8)  # OWN-8 flaked
    base = f"/ui/projects/{seeded.project_id}/batches/{seeded.on_demand_id}"
    return {"project_id": seeded.project_id, "api_key": seeded.api_key, "batch_id": seeded.on_demand_id,
            "passed": seeded.jobs["on_demand/OWN-1"], "failed": seeded.jobs["on_demand/OWN-2"], "base": base,
            "nightly": f"/ui/projects/{seeded.project_id}/batches/{seeded.nightly_id}",
            "changed": seeded.jobs["nightly/OWN-3"], "passed_nightly": seeded.jobs["nightly/OWN-4"]}


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
    assert "step 2 (expectation)" in batch.text and "it holds &#34;&lt;empty&gt;&#34;" in batch.text
    assert f'{finished["base"]}/downloads/junit.xml' in batch.text
    failed_only = browser.get(finished["base"], params={"state": "failed", "triage": ""})  # the form's "any"
    assert failed_only.status_code == 200
    assert "OWN-2</a>" in failed_only.text and "OWN-1</a>" not in failed_only.text

    failed = browser.get(f"{finished['base']}/scenarios/{finished['failed']}")
    assert failed.status_code == 200
    assert "Why it failed:" in failed.text and "<strong>(failed here)</strong>" in failed.text
    screenshots = re.findall(r'<img src="([^"]+)"', failed.text)
    assert len(screenshots) == 2 and all("/screenshots/" in url for url in screenshots)
    picture = browser.get(screenshots[0])
    assert picture.status_code == 200 and picture.content.startswith(b"\x89PNG")
    assert "label=Last name" in failed.text and "npx playwright show-trace" in failed.text
    trace = browser.get(f"{finished['base']}/scenarios/{finished['failed']}/artifacts/OWN-2/attempt-1/trace.zip")
    assert trace.status_code == 200 and "attachment" in trace.headers["content-disposition"]

    passed = browser.get(f"{finished['base']}/scenarios/{finished['passed']}")
    assert '<span class="k">Feature:</span>' in passed.text and "&lt;last name&gt;" in passed.text  # Gherkin
    assert """<span class="s1">'@cucumber/cucumber'</span>""" in passed.text  # the JavaScript highlighted
    assert "replayed green" in passed.text
    assert "<h3>Read as</h3>" in passed.text and "Read as: Click" in passed.text  # each sentence as it was read

    junit = browser.get(f"{finished['base']}/downloads/junit.xml")
    assert junit.status_code == 200 and 'name="OWN-2' in junit.text  # the /v1 route's own bytes
    assert browser.get(f"{finished['base']}/downloads/suite.zip").content.startswith(b"PK")
    assert browser.get(f"{finished['base']}/downloads/nothing").status_code == 404


def test_the_morning_report_groups_by_class_and_accepts_a_candidate(client, finished):
    browser = signed_in(client, finished["api_key"])
    report = browser.get(f"{finished['nightly']}/report")
    assert report.status_code == 200
    classes = re.findall(r'<h2 id="class-(\w+)"', report.text)
    assert classes == ["app_changed", "drift", "flake", "passed"]  # what needs a person first; passed counted
    assert '<th scope="row">OWN-8</th><td>1</td>' in report.text  # flakiness over nights
    assert "id=#lastName" in report.text and "id=#ownerLastName" in report.text  # drift: old and new locator
    assert "<dt>Expected</dt><dd>Owner Information</dd>" in report.text
    assert '<span class="gi">+  await this.page.getByRole' in report.text  # the candidate's diff, highlighted
    changed_picture = re.search(r'<img src="([^"]+app_change.png)"', report.text).group(1)
    assert browser.get(changed_picture).content.startswith(b"\x89PNG")
    changed = browser.get(f"{finished['nightly']}/scenarios/{finished['changed']}").text
    timelines = re.findall(r'<h2 id="timeline-\d">([^<]+)</h2>', changed)
    assert timelines == ["Timeline", "Timeline of the script generated afresh"]  # its own run first
    own = changed.split("Timeline of the script generated afresh")[0]
    assert "OWN-3/attempt-1/screenshots/" in own and "candidate/" not in own
    accept = f"{finished['nightly']}/scenarios/{finished['changed']}/accept"
    assert f'action="{accept}"' in report.text
    done = browser.post(accept, data={"csrf": csrf_of(report.text, accept)}, follow_redirects=False)
    assert done.status_code == 303 and done.headers["location"].endswith(f"/report#job-{finished['changed']}")
    after = browser.get(f"{finished['nightly']}/report").text
    assert f'action="{accept}"' not in after and "it is the verified script now" in after
    again = browser.post(accept, data={"csrf": csrf_of(after)}, follow_redirects=False)
    assert again.status_code == 303  # accepted once: the same answer again, as the API's route gives
    passed = f"{finished['nightly']}/scenarios/{finished['passed_nightly']}/accept"
    refused = browser.post(passed, data={"csrf": csrf_of(after)})
    assert refused.status_code == 409 and "only an app_changed" in refused.text  # the API's own answer, as a page


# Every dashboard route that names a project's ids, as the permission test fills them in.
PROJECT_ROUTES = [
    ("GET", "/ui/projects/{project_id}"),
    ("GET", "/ui/projects/{project_id}/batches/{batch_id}"),
    ("GET", "/ui/projects/{project_id}/batches/{batch_id}/progress"),
    ("GET", "/ui/projects/{project_id}/batches/{batch_id}/report"),
    ("GET", "/ui/projects/{project_id}/batches/{batch_id}/downloads/{name}"),
    ("GET", "/ui/projects/{project_id}/batches/{batch_id}/scenarios/{job_id}"),
    ("GET", "/ui/projects/{project_id}/batches/{batch_id}/scenarios/{job_id}/artifacts/{key}"),
    ("POST", "/ui/projects/{project_id}/batches/{batch_id}/scenarios/{job_id}/accept"),
]


def test_the_table_covers_every_dashboard_route_of_a_project():
    served = {(method, route.path.replace(":path", "")) for route in dashboard.routes
              if route.path.startswith("/ui/projects/{") for method in route.methods}
    assert served == set(PROJECT_ROUTES)


@pytest.mark.parametrize(("method", "path"), PROJECT_ROUTES, ids=[f"{m} {p}" for m, p in PROJECT_ROUTES])
def test_another_project_s_ids_are_not_found(client, finished, petclinic, method, path):
    _other_id, other_key = new_project(client, petclinic)
    browser = signed_in(client, other_key)
    url = path.format(project_id=finished["project_id"], batch_id=finished["batch_id"], job_id=finished["failed"],
                      name="junit.xml", key="OWN-2/attempt-1/trace.zip")
    data = {"csrf": csrf_of(browser.get("/ui/projects").text)} if method == "POST" else None
    answer = browser.request(method, url, data=data)
    assert answer.status_code == 404, (url, answer.status_code)
    assert "OWN-" not in answer.text


def test_a_page_of_the_session_s_project_does_not_open_another_project_s_batch(client, finished, petclinic):
    other_id, other_key = new_project(client, petclinic)
    browser = signed_in(client, other_key)  # its own project, the first project's batch and job ids
    for path in (f"/ui/projects/{other_id}/batches/{finished['batch_id']}",
                 f"/ui/projects/{other_id}/batches/{finished['batch_id']}/scenarios/{finished['failed']}",
                 f"/ui/projects/{other_id}/batches/{finished['batch_id']}/downloads/junit.xml"):
        assert browser.get(path).status_code == 404, path


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
    first_token = browser.cookies.get("stepforge_session")
    form = browser.get("/ui/sign-in")
    browser.post("/ui/sign-in", data={"api_key": other_key, "csrf": csrf_of(form.text, "/ui/sign-in")})
    listed = browser.get("/ui/projects").text
    assert f"/ui/projects/{finished['project_id']}\"" in listed and f"/ui/projects/{other_id}\"" in listed
    # Each sign-in gives the browser a new token: the one it had before opens nothing any more, so a token planted
    # in a browser never gains what its owner signs in to afterwards.
    assert browser.cookies.get("stepforge_session") != first_token
    planted = TestClient(client.app)
    planted.cookies.set("stepforge_session", first_token, path="/ui")
    assert planted.get(f"/ui/projects/{other_id}", follow_redirects=False).status_code == 303


def test_bad_query_values_are_a_page_naming_them(client, finished):
    browser = signed_in(client, finished["api_key"])
    answer = browser.get(finished["base"], params={"state": "sideways"})
    assert answer.status_code == 422 and "state" in answer.text and "<html" in answer.text


def test_a_running_batch_s_page_follows_its_progress(client, petclinic):
    _project_id, api_key = new_project(client, petclinic)
    scenario = {"id": "RUN-1", "title": "Open the home page", "steps": ["Go to /"]}
    answer = client.post("/v1/batches", json={"scenarios": [scenario]},
                         headers={"Authorization": f"Bearer {api_key}", "Idempotency-Key": uuid.uuid4().hex})
    assert answer.status_code == 202, answer.text
    browser = signed_in(client, api_key)
    base = f"/ui/projects/{_project_id}/batches/{answer.json()['id']}"
    page = browser.get(base).text
    assert f'data-refresh="{base}/progress"' in page  # the script asks for the counts while it runs
    assert "The suite and the reports are ready when the batch has finished" in page
    assert '<span class="title">Open the home page</span>' in page  # the table names each scenario by its title
    (queued_url,) = re.findall(rf'href="({base}/scenarios/\d+)"', page)
    queued = " ".join(browser.get(queued_url).text.split())
    assert "queued</span> not started yet" in queued and "None yet: the scenario has not started." in queued
    assert "attempts;" not in queued and "artifacts</summary>" not in queued  # no count of nothing, no empty list
    fragment = browser.get(f"{base}/progress")
    assert fragment.status_code == 200 and "0 of 1 scenarios done" in " ".join(fragment.text.split())
    assert fragment.text.lstrip().startswith('<div id="progress"')  # the element it replaces, alone
    script = browser.get("/ui/static/dashboard.js")
    assert script.status_code == 200 and "data-refresh" in script.text
    assert ".code" in browser.get("/ui/static/code.css").text
    assert browser.get("/ui/static/..%2Fpages.py").status_code == 404


def test_pages_load_only_the_dashboard_s_own_files_and_are_never_framed(client, finished):
    browser = signed_in(client, finished["api_key"])
    headers = browser.get(finished["base"]).headers
    policy = headers["content-security-policy"]
    assert "script-src 'self'" in policy and "frame-ancestors 'none'" in policy and "img-src 'self'" in policy
    assert "unsafe-inline" not in policy and ' style="' not in browser.get(finished['base']).text
    assert headers["x-content-type-options"] == "nosniff" and headers["cache-control"] == "no-store"
    artifact = browser.get(f"{finished['base']}/scenarios/{finished['failed']}/artifacts/OWN-2/attempt-1/run.json")
    assert artifact.headers["x-content-type-options"] == "nosniff" and "sandbox" in artifact.headers[
        "content-security-policy"]
    script = browser.get(f"{finished['base']}/scenarios/{finished['passed']}/artifacts/"
                         "suite/features/step_definitions/steps.js")
    assert script.headers["content-type"].startswith("text/plain")  # shown, never run in the dashboard's origin


def test_every_error_on_a_dashboard_url_is_a_page(client, finished):
    browser = signed_in(client, finished["api_key"])
    for method, path, status in (("GET", "/ui/no-such-page", 404), ("GET", "/ui/sign-out", 405),
                                 ("GET", f"{finished['base']}/scenarios/999999", 404)):
        answer = browser.request(method, path)
        assert answer.status_code == status and answer.text.startswith("<!doctype html>"), (path, answer.text[:80])
        assert "frame-ancestors 'none'" in answer.headers["content-security-policy"]
    assert client.get("/v1/no-such-route").json()["detail"]  # the API answers JSON as before


def test_a_form_sent_after_the_session_ended_comes_back_to_its_page(client, finished):
    browser = TestClient(client.app, base_url="http://dashboard.test")
    report = f"{finished['nightly']}/report"
    answer = browser.post(f"{finished['nightly']}/scenarios/{finished['changed']}/accept", data={"csrf": "x"},
                          headers={"Referer": f"http://dashboard.test{report}"}, follow_redirects=False)
    assert answer.status_code == 303 and answer.headers["location"] == f"/ui/sign-in?next={report}"
    elsewhere = browser.post(f"{finished['nightly']}/scenarios/{finished['changed']}/accept", data={"csrf": "x"},
                             headers={"Referer": "https://evil.example/ui/x"}, follow_redirects=False)
    assert elsewhere.headers["location"] == "/ui/sign-in?next=/ui/"


def test_the_morning_report_reads_at_most_a_page_of_each_class(settings):
    from shared.models import Batch
    from shared.store import engine_for, morning_report, reading

    seeded = seed(settings, scenarios=30, with_artifacts=0)  # OWN-6, OWN-16 and OWN-26 drifted
    with reading(engine_for(settings.database_url)) as session:
        batch = session.get(Batch, seeded.nightly_id)
        report = morning_report(session, batch, limit=2)
    assert report.cost["drift"]["scenarios"] == 3
    assert [job.external_id for job in report.attention if job.triage == "drift"] == ["OWN-6", "OWN-16"]
    assert [job.external_id for job in report.attention if job.triage == "app_changed"] == ["OWN-3"]
