"""A batch made from a test-management export: POST /v1/batches with a source, or the export uploaded as a file to
POST /v1/imports. Its cases become the batch's scenarios, what could not be mapped is said in the answer,
and an export that cannot be read is a 422 naming its line (nothing is stored)."""

from __future__ import annotations

import json
import uuid
from pathlib import Path

from tests.importers.test_exports import EXPORTS, csv_export
from tests.service.conftest import new_project

CASES = csv_export([["C1", "Search", "Find owners", "Go to the Find Owners page", "Search for Davis",
                     '"Betty Davis" is shown'],
                    ["C2", "Vets", "Vets", "", "Go to the Veterinarians page", ""],
                    ["C3", "No steps", "Vets", "", "", ""]])


def key() -> dict[str, str]:
    return {"Idempotency-Key": uuid.uuid4().hex}


def test_an_export_in_the_body_becomes_the_batch_s_scenarios(client, petclinic):
    project = new_project(client, petclinic)
    response = client.post("/v1/batches", json={"source": {"format": "testrail-csv", "content": CASES}},
                           headers={**project.headers, **key()})
    assert response.status_code == 202, response.text
    body = response.json()
    assert body["jobs_total"] == 2 and body["imported"]["imported"] == 2
    assert body["imported"]["skipped"] == [{"case": "C3", "where": "line 4",
                                            "reason": "has no steps (neither separated steps nor a Steps text)"}]
    jobs = client.get(f"/v1/batches/{body['id']}", headers=project.headers).json()["jobs"]
    assert sorted(job["external_id"] for job in jobs) == ["C1", "C2"]
    stored = client.get("/v1/scenarios/C1", headers=project.headers).json()["definition"]
    assert stored["feature"] == "Find owners"
    assert [step if isinstance(step, str) else step["action"] for step in stored["steps"]] == [
        "Go to the Find Owners page", "Search for Davis"]


def test_an_uploaded_export_is_told_by_its_content(client, petclinic):
    project = new_project(client, petclinic)
    content = json.loads((EXPORTS / "petclinic-zephyr.json").read_text(encoding="utf-8"))[:3]
    response = client.post("/v1/imports", files={"file": ("cases.json", json.dumps(content), "application/json")},
                           headers={**project.headers, **key()})
    assert response.status_code == 202, response.text
    assert response.json()["imported"]["format"] == "zephyr-json" and response.json()["jobs_total"] == 3
    named = client.post("/v1/imports", files={"file": ("cases.csv", CASES, "text/csv")},
                        data={"format": "testrail"}, headers={**project.headers, **key()})
    assert named.status_code == 202 and named.json()["imported"]["format"] == "testrail-csv", named.text


def test_an_export_that_cannot_be_read_is_a_422_naming_its_line_and_stores_nothing(client, petclinic):
    project = new_project(client, petclinic)
    broken = CASES.replace('"""Betty Davis"" is shown"', '"""Betty Davis"" is shown')  # its quote left open
    assert broken != CASES
    for request in (
        lambda: client.post("/v1/batches", json={"source": {"format": "testrail-csv", "content": broken}},
                            headers={**project.headers, **key()}),
        lambda: client.post("/v1/imports", files={"file": ("cases.csv", broken, "text/csv")},
                            headers={**project.headers, **key()}),
    ):
        response = request()
        assert response.status_code == 422 and "line 2" in response.json()["detail"], response.text
    latin1 = client.post("/v1/imports", files={"file": ("cases.csv", "ID,Title\nC1,Gr\xf6\xdfe\n".encode("latin-1"),
                                                                "text/csv")}, headers={**project.headers, **key()})
    assert latin1.status_code == 422 and latin1.json()["detail"].startswith("file: line 2: not UTF-8"), latin1.text
    assert client.get("/v1/scenarios", headers=project.headers).json()["scenarios"] == []


def test_a_batch_gives_scenarios_or_an_export_and_an_export_over_the_limit_says_so(client, petclinic):
    project = new_project(client, petclinic)
    both = client.post("/v1/batches", json={"source": {"format": "testrail-csv", "content": CASES},
                                            "scenarios": [{"id": "A", "title": "t", "steps": ["Go to /"]}]},
                       headers={**project.headers, **key()})
    assert both.status_code == 422 and "either 'scenarios'" in both.text, both.text
    unknown = client.post("/v1/batches", json={"source": {"format": "qtest-csv", "content": CASES}},
                          headers={**project.headers, **key()})
    assert unknown.status_code == 422 and unknown.json()["detail"].startswith("source.format"), unknown.text
    demo = Path(EXPORTS / "petclinic-testrail.csv").read_text(encoding="utf-8")  # 13 cases; this tier allows 10
    over = client.post("/v1/batches", json={"source": {"format": "testrail-csv", "content": demo}},
                       headers={**project.headers, **key()})
    assert over.status_code == 422 and "holds 13 cases, over the limit of 10" in over.json()["detail"], over.text


def test_an_uploaded_export_with_an_odd_case_imports_the_others_and_answers_the_skipped_list(client, petclinic):
    project = new_project(client, petclinic)
    tests = json.loads((EXPORTS / "petclinic-xray.json").read_text(encoding="utf-8"))[:3]
    del tests[1]["update_key"]  # one test exported without its issue key
    response = client.post("/v1/imports", files={"file": ("tests.json", json.dumps(tests), "application/json")},
                           headers={**project.headers, **key()})
    assert response.status_code == 202, response.text
    imported = response.json()["imported"]
    assert imported["format"] == "xray-json" and imported["imported"] == 2 and response.json()["jobs_total"] == 2
    assert [(s["case"], s["where"]) for s in imported["skipped"]] == [("[1]", "[1]")]
    assert "no issue key" in imported["skipped"][0]["reason"]
