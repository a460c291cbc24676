"""Verdicts as results files (JUnit XML, Cucumber JSON), posted to a TestRail- or Xray-shaped API (the local
recorder stands in for the remote one), and the credentials for it encrypted at rest."""

from __future__ import annotations

import base64
import json
import xml.etree.ElementTree as ET
from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path

import pytest
import xmlschema
from cryptography.fernet import Fernet

from shared.reporting import ReportTarget, send_report, xray_kind
from shared.results import CaseResult, cucumber_json, junit_xml
from shared.secrets import SecretsKeyError, decrypt, encrypt
from shared.urls import TargetPolicy
from tests.tm_recorder import CUCUMBER_JSON, Recorder, shape_problem

CASES = [
    CaseResult(id="C101", title="Finding an owner", feature="Find owners",
               steps=["Go to the Find Owners page", 'Search for Franklin (expected: "Owner Information" is shown)'],
               passed=True, seconds=3.2),
    CaseResult(id="C102", title="Größe \x07prüfen", feature="Find owners", steps=["Open /", "Click Save", "Verify"],
               passed=False, failed_step=2, kind="action", reason='no "Save" button', seconds=1.4,
               screenshots=["/v1/batches/1/jobs/2/artifacts/C102/attempt-1/screenshots/op-1.png"]),
    CaseResult(id="PC-7", title="Vets", feature="Vets", steps=["Go to the Veterinarians page"], passed=True),
]
POLICY = TargetPolicy(allow_private=True)
JUNIT = xmlschema.XMLSchema(Path(__file__).parents[1] / "schemas" / "junit.xsd")


@pytest.fixture
def recorder():
    running = Recorder().start()
    yield running
    running.stop()


def test_junit_names_each_case_by_its_key_where_testrail_and_xray_look():
    root = ET.fromstring(junit_xml(CASES, name="petclinic"))
    assert (root.get("tests"), root.get("failures")) == ("3", "1")
    suites = {suite.get("name"): suite for suite in root}
    assert (suites["Find owners"].get("tests"), suites["Find owners"].get("failures")) == ("2", "1")
    failed = suites["Find owners"][1]
    assert failed.get("name") == "C102 Größe \ufffdprüfen"  # a control character cannot stand in XML
    properties = {p.get("name"): p.get("value") for p in failed.iter("property")}
    assert properties == {"test_key": "C102", "test_id": "C102", "testrail_attachment": CASES[1].screenshots[0]}
    failure = failed.find("failure")
    assert failure.get("message") == 'step 2 failed (action): no "Save" button' and failure.get("type") == "action"
    assert "step 2: Click Save" in failure.text and CASES[1].screenshots[0] in failure.text
    vets = suites["Vets"][0]
    assert {p.get("name") for p in vets.iter("property")} == {"test_key"}  # PC-7 is no TestRail case id


def test_junit_tells_a_scenario_that_could_not_run_from_a_wrong_expectation_as_ci_servers_read_it():
    could_not_run = [
        CaseResult(id="C103", title="Timed out", feature="Find owners", steps=["Open /"], passed=False,
                   failed_step=1, kind="error", reason="the page did not load within 30 s", seconds=30.0),
        CaseResult(id="C104", title="Unread", feature="Vets", steps=["Frobnicate the vets"], passed=False,
                   failed_step=1, kind="unsupported", reason="'Frobnicate' was not read", seconds=0.2),
        CaseResult(id="C105", title="Crashed worker", feature="Vets", steps=["Open /"], passed=False,
                   reason="the job is lost"),
        CaseResult(id="C106", title="Wrong text", feature="Vets", steps=["Open /"], passed=False, failed_step=1,
                   kind="expectation", reason='"Vets" is not shown', seconds=1.0)]
    started = datetime(2026, 12, 7, 23, 5, 9, 700_000, tzinfo=timezone(timedelta(hours=2)))
    text = junit_xml(CASES + could_not_run, name="petclinic", started_at=started, hostname="worker-3")
    JUNIT.validate(text)
    root = ET.fromstring(text)
    assert (root.get("tests"), root.get("failures"), root.get("errors")) == ("7", "2", "3")
    suites = {suite.get("name"): suite for suite in root}
    assert {name: (s.get("tests"), s.get("failures"), s.get("errors"), s.get("time"))
            for name, s in suites.items()} == {"Find owners": ("3", "1", "1", "34.600"),
                                               "Vets": ("4", "1", "2", "1.200")}
    assert {(s.get("timestamp"), s.get("hostname")) for s in root} == {("2026-12-07T21:05:09", "worker-3")}
    kinds = {case.get("name").split()[0]: [child.tag for child in case if child.tag != "properties"]
             for case in root.iter("testcase")}
    assert kinds == {"C101": [], "C102": ["failure"], "PC-7": [], "C103": ["error"], "C104": ["error"],
                     "C105": ["error"], "C106": ["failure"]}
    now = ET.fromstring(junit_xml(CASES[:1]))[0]
    stamp = datetime.strptime(now.get("timestamp"), "%Y-%m-%dT%H:%M:%S").replace(tzinfo=UTC)
    assert abs((datetime.now(UTC) - stamp).total_seconds()) < 3600 and now.get("hostname")


def test_the_junit_schema_refuses_what_ci_servers_would_not_read():
    """The schema the reports are checked against can fail: a suite without its timestamp, a zone in it, two
    outcomes in one test case."""
    good = junit_xml(CASES, started_at=datetime(2026, 1, 2, 3, 4, 5, tzinfo=UTC), hostname="h")
    JUNIT.validate(good)
    for broken in (good.replace(' timestamp="2026-01-02T03:04:05"', ""),
                   good.replace('"2026-01-02T03:04:05"', '"2026-01-02T03:04:05Z"'),
                   good.replace("</failure>", '</failure><error type="error"/>')):
        assert broken != good and not JUNIT.is_valid(broken)


def test_cucumber_json_tags_each_scenario_with_its_key_and_marks_the_failed_step():
    assert shape_problem(cucumber_json(CASES).encode(), CUCUMBER_JSON) is None  # the shape Xray's import reads
    features = json.loads(cucumber_json(CASES))
    assert [f["name"] for f in features] == ["Find owners", "Vets"]
    failed = features[0]["elements"][1]
    assert failed["tags"] == [{"name": "@C102", "line": 2}]
    assert [s["result"]["status"] for s in failed["steps"]] == ["passed", "failed", "skipped"]
    step = failed["steps"][1]
    assert step["result"]["error_message"] == 'step 2 failed (action): no "Save" button'
    assert base64.b64decode(step["embeddings"][0]["data"]).decode() == CASES[1].screenshots[0]


def test_testrail_gets_one_result_per_case_with_basic_auth(recorder):
    target = ReportTarget(kind="testrail", url=recorder.url, secret=recorder.key, run_id=12, user=recorder.user)
    attempt = send_report(target, CASES, msg_id="evt_1", timeout_s=5,
                          policy=POLICY, links_base="https://stepforge.example.com")
    assert attempt.ok, attempt
    (call,) = recorder.received
    assert call.path == "/index.php?/api/v2/add_results_for_cases/12"
    results = call.json()["results"]
    assert [(r["case_id"], r["status_id"], r["elapsed"]) for r in results] == [(101, 1, "3s"), (102, 5, "1s")]
    assert "step 2: Click Save" in results[1]["comment"]
    assert "screenshot: https://stepforge.example.com/v1/batches/1/jobs/2/artifacts/" in results[1]["comment"]
    wrong = send_report(ReportTarget(kind="testrail", url=recorder.url, secret="wrong", run_id=12, user=recorder.user),
                        CASES, msg_id="evt_2", timeout_s=5, policy=POLICY)
    assert (wrong.ok, wrong.status_code, wrong.retryable) == (False, 401, True)


def test_xray_server_and_cloud_get_the_cucumber_json_with_their_tokens(recorder):
    server = send_report(ReportTarget(kind="xray-server", url=recorder.url, secret=recorder.token), CASES,
                         msg_id="evt_1", timeout_s=5, policy=POLICY)
    assert server.ok, server
    (imported,) = recorder.calls("^/rest/raven/1.0/import/execution/cucumber$")
    assert {e["tags"][0]["name"] for f in imported.json() for e in f["elements"]} == {"@C101", "@C102", "@PC-7"}
    cloud = send_report(ReportTarget(kind="xray-cloud", url=recorder.url,
                                     secret=f"{recorder.client_id}:{recorder.client_secret}"), CASES, msg_id="evt_2",
                        timeout_s=5, policy=POLICY)
    assert cloud.ok, cloud
    assert len(recorder.calls("^/api/v2/authenticate$")) == 1 and len(recorder.calls("^/api/v2/import/")) == 1
    refused = send_report(ReportTarget(kind="xray-cloud", url=recorder.url, secret="client-id:wrong"), CASES,
                          msg_id="evt_3", timeout_s=5, policy=POLICY)
    assert refused.status_code == 401 and refused.error.startswith("authentication:"), refused


def test_a_batch_with_no_testrail_case_is_not_posted(recorder):
    attempt = send_report(ReportTarget(kind="testrail", url=recorder.url, secret="k", run_id=1, user="u"),
                          [CASES[2]], msg_id="evt_1", timeout_s=5, policy=POLICY)
    assert not attempt.ok and not attempt.retryable and "no case of the batch is a TestRail case" in attempt.error
    assert recorder.received == []


def test_credentials_are_encrypted_and_a_rotated_key_still_reads_them():
    old, new = Fernet.generate_key().decode(), Fernet.generate_key().decode()
    stored = encrypt(old, "api-key-123")
    assert "api-key-123" not in stored and decrypt(old, stored) == "api-key-123"
    assert decrypt(f"{new},{old}", stored) == "api-key-123"  # the new key first, the old one still reads
    with pytest.raises(SecretsKeyError, match="does not decrypt"):
        decrypt(new, stored)
    with pytest.raises(SecretsKeyError, match="no STEPFORGE_SECRETS_KEY"):
        encrypt(None, "x")
    with pytest.raises(SecretsKeyError, match="not a Fernet key"):
        encrypt("not-a-key", "x")


@pytest.mark.parametrize("url, kind", [
    ("https://xray.cloud.getxray.app", "xray-cloud"), ("https://eu.xray.cloud.getxray.app/api", "xray-cloud"),
    ("https://XRAY.CLOUD.GETXRAY.APP.", "xray-cloud"), ("https://jira.acme.example/", "xray-server"),
    ("https://getxray.app.acme.example", "xray-server"), ("http://127.0.0.1:8080/jira", "xray-server"),
])
def test_xray_cloud_and_server_are_told_apart_by_the_address(url, kind):
    assert xray_kind(url) == kind


def test_the_stand_in_refuses_a_body_that_is_not_the_shape_its_api_documents(recorder):
    """The stand-in checks what it is sent, so the round trips that use it can fail on a wrong shape."""
    import httpx

    auth = (recorder.user, recorder.key)
    wrong = httpx.post(f"{recorder.url}/index.php?/api/v2/add_results_for_cases/3", auth=auth,
                       json={"results": [{"case_id": "C101", "status_id": 1}]})
    assert wrong.status_code == 400 and wrong.json()["error"].startswith("Field :results.0.case_id"), wrong.text
    assert httpx.post(f"{recorder.url}/index.php?/api/v2/add_results_for_cases/3", auth=auth,
                      json={"results": [{"case_id": 101, "status_id": 1, "elapsed": "1m 5s"}]}).status_code == 200
    untagged = json.loads(cucumber_json(CASES[:1]))
    del untagged[0]["elements"][0]["tags"]
    answer = httpx.post(f"{recorder.url}/rest/raven/1.0/import/execution/cucumber", json=untagged,
                        headers={"Authorization": f"Bearer {recorder.token}"})
    assert answer.status_code == 400 and "'tags' is a required property" in answer.json()["error"], answer.text


def test_a_jira_cloud_site_is_refused_as_an_xray_address_naming_xray_cloud_s():
    from pydantic import ValidationError

    from api.schemas import ReportTo

    for kind in ("xray", "xray-server"):
        with pytest.raises(ValidationError, match="Xray Cloud does, at https://xray.cloud.getxray.app"):
            ReportTo.model_validate({"kind": kind, "url": "https://acme.atlassian.net", "secret": "token"})
    cloud = ReportTo.model_validate({"kind": "xray", "url": "https://xray.cloud.getxray.app", "secret": "id:secret"})
    assert cloud.kind == "xray-cloud"
