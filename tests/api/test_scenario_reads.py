"""A test-management integration lists the project's stored scenarios a page at a time and reads any version of one;
another project's scenarios are never seen."""

from __future__ import annotations

from tests.service.conftest import new_project


def put(client, project, external_id: str, title: str) -> int:
    response = client.put(f"/v1/scenarios/{external_id}", json={"title": title, "steps": ["Go to /"]},
                          headers=project.headers)
    assert response.status_code in (200, 201), response.text
    return response.json()["version"]


def test_the_scenarios_are_listed_in_natural_order_a_page_at_a_time(client, petclinic):
    project, other = new_project(client, petclinic), new_project(client, petclinic)
    for number in (10, 2, 1, 30, 3):
        put(client, project, f"OWN-{number}", f"Scenario {number}")
    put(client, project, "own-2", "Scenario 2, lower case")  # reads as OWN-2 in natural order: a tie on a page edge
    put(client, project, "OWN-2", "Scenario 2, changed")
    put(client, other, "OWN-99", "not this project's")
    assert client.delete("/v1/scenarios/OWN-30", headers=project.headers).status_code == 204

    seen, url = [], "/v1/scenarios?limit=2"
    while url:
        page = client.get(url, headers=project.headers)
        assert page.status_code == 200, page.text
        body = page.json()
        assert len(body["scenarios"]) <= 2
        seen += [(s["external_id"], s["version"], s["definition"]["title"]) for s in body["scenarios"]]
        url = body["next"]
    assert seen == [("OWN-1", 1, "Scenario 1"), ("OWN-2", 2, "Scenario 2, changed"), ("own-2", 1, "Scenario 2, lower case"),
                    ("OWN-3", 1, "Scenario 3"), ("OWN-10", 1, "Scenario 10")]
    assert client.get("/v1/scenarios", headers=other.headers).json()["scenarios"][0]["external_id"] == "OWN-99"


def test_a_scenario_reads_at_its_latest_version_or_the_one_asked_for(client, petclinic):
    project, other = new_project(client, petclinic), new_project(client, petclinic)
    put(client, project, "VET-1", "First wording")
    put(client, project, "VET-1", "Second wording")

    latest = client.get("/v1/scenarios/VET-1", headers=project.headers).json()
    assert (latest["version"], latest["latest_version"], latest["definition"]["title"]) == (2, 2, "Second wording")
    first = client.get("/v1/scenarios/VET-1?version=1", headers=project.headers).json()
    assert (first["version"], first["latest_version"], first["definition"]["title"]) == (1, 2, "First wording")

    missing = client.get("/v1/scenarios/VET-1?version=3", headers=project.headers)
    assert missing.status_code == 404 and "has no version 3 (its latest is 2)" in missing.json()["detail"]
    assert client.get("/v1/scenarios/VET-1", headers=other.headers).status_code == 404
    assert client.delete("/v1/scenarios/VET-1", headers=project.headers).status_code == 204
    gone = client.get("/v1/scenarios/VET-1", headers=project.headers)
    assert gone.status_code == 404 and "was deleted" in gone.json()["detail"]


def test_bad_paging_is_422_naming_the_parameter(client, petclinic):
    project = new_project(client, petclinic)
    for query, name in (("limit=0", "limit"), ("limit=501", "limit"), ("after=a%20b", "after")):
        response = client.get(f"/v1/scenarios?{query}", headers=project.headers)
        assert response.status_code == 422 and name in response.json()["detail"], response.text
