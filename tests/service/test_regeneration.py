"""A regeneration in the service replays each scenario version's verified script first: an unchanged application
costs no generation; a renamed id is healed (drift) in the suite; a changed heading fails at its step and keeps its
script, tagged @failing; the changes report groups the scenarios by triage class, with the old and new locators and
the expected and actual; an app_changed scenario is generated afresh beside its kept script, and a person accepts
that script when it passed; a deleted scenario is reported removed, and only then."""

from __future__ import annotations

import io
import zipfile

import pytest

from shared.job_queue import REPLAY_CHUNK, publish
from tests.apps.petclinic.changes import switch
from tests.service.dashboard_browser import accept_in_the_dashboard
from tests.service.conftest import new_project
from tests.service.test_batches import demo_scenarios, wait_finished, wait_suite

pytestmark = pytest.mark.service  # its tier (tests/conftest.py)

SCENARIOS = ("OWN-1", "OWN-5", "VET-20")


@pytest.fixture
def project(client, petclinic, webhook_receiver):
    project = new_project(client, petclinic, webhook_url=webhook_receiver.url)
    for scenario in demo_scenarios(*SCENARIOS):
        definition = {key: value for key, value in scenario.items() if key != "id"}
        assert client.put(f"/v1/scenarios/{scenario['id']}", json=definition,
                          headers=project.headers).status_code == 201
    yield project
    switch()


def regenerate(client, project, key: str) -> dict:
    accepted = client.post("/v1/projects/me/regenerate", headers={**project.headers, "Idempotency-Key": key})
    assert accepted.status_code == 202, accepted.text
    batch = wait_finished(client, project.headers, accepted.json()["id"])[-1]
    wait_suite(client, project.headers, batch["id"])
    return batch


def report(client, project, batch: dict) -> dict:
    answer = client.get(f"/v1/batches/{batch['id']}/changes", headers=project.headers)
    assert answer.status_code == 200, answer.text
    return answer.json()


def feature_of(client, project, batch: dict) -> str:
    data = client.get(f"/v1/batches/{batch['id']}/suite.zip", headers=project.headers).content
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        return "\n".join(archive.read(name).decode() for name in sorted(archive.namelist())
                         if name.endswith(".feature"))


def blocks(feature: str) -> dict[str, list[str]]:
    """Each scenario's lines, by the id its tag line names."""
    found: dict[str, list[str]] = {}
    current = None
    for line in feature.splitlines():
        if line.strip().startswith("@"):
            current = line.strip().split()[0].lstrip("@")
            found[current] = []
        elif current is not None:
            found[current].append(line)
    return found


def test_a_regeneration_replays_first_heals_drift_and_keeps_a_changed_scenario_failing(client, worker, project,
                                                                                       webhook_receiver, settings):
    first = regenerate(client, project, "first")
    assert first["counts"]["passed"] == 3, first
    first_report = report(client, project, first)
    assert first_report["triage"] == {"generated": 3} and first_report["added"] == list(SCENARIOS)

    # Nothing changed: every scenario is its verified script replayed, none generated, none "added" again.
    second = regenerate(client, project, "second")
    assert second["counts"]["passed"] == 3 and second["model_usage"].get("calls", 0) == 0, second
    second_report = report(client, project, second)
    assert second_report["triage"] == {"passed": 3}
    assert (second_report["added"], second_report["removed"], second_report["verdicts"]) == ([], [], [])
    unchanged_feature = feature_of(client, project, second)
    # One run replayed the three scripts (the first pass) and settled every job; the suite reuses that replay.
    line = worker.wait_for_line("replay_chunk.done", f'"batch_id": {second["id"]}')
    assert '"green": 3' in line and '"red": 0' in line and '"generated": 0' in line, line
    worker.wait_for_line("build_suite.first_pass_reused", f'"batch_id": {second["id"]}')
    # The chunk's message delivered again once it settled replays nothing: each claim finds its job finished.
    jobs = [job["id"] for job in second["jobs"]]
    assert publish(client.app.state.services.celery, REPLAY_CHUNK, [(second["id"], jobs)], budget_s=5) == 1
    line = worker.wait_for_line("replay_chunk.done", f'"batch_id": {second["id"]}', '"green": 0')
    assert '"red": 0' in line and '"generated": 0' in line, line

    # The last-name field's id renamed and the owner page's heading retitled.
    switch("renamed-id", "retitled-heading")
    third = regenerate(client, project, "third")
    changes = report(client, project, third)
    assert changes["triage"] == {"app_changed": 1, "drift": 1, "passed": 1}, changes
    assert {name: cost["scenarios"] for name, cost in changes["cost"].items()} == changes["triage"]
    assert all(cost["seconds"] > 0 for cost in changes["cost"].values()), changes["cost"]
    by_id = {entry["external_id"]: entry for entry in changes["triaged"]}
    assert [entry["external_id"] for entry in changes["triaged"]] == list(SCENARIOS)  # natural order
    drift = by_id["OWN-5"]["drift"]
    assert [(d["step"], d["before"], d["after"]) for d in drift] == [(2, "id=#lastName", "id=#ownerLastName")]
    picture = client.get(drift[0]["screenshot"], headers=project.headers)
    assert picture.status_code == 200 and picture.content.startswith(b"\x89PNG")
    changed = by_id["OWN-1"]
    assert (changed["verdict"]["state"], changed["verdict"]["failed_step"], changed["verdict"]["failure_kind"]) == \
           ("failed", 3, "expectation")
    assert changed["app_change"]["expected"] == "Owner Information"
    assert client.get(changed["app_change"]["screenshot"], headers=project.headers).status_code == 200
    assert [(c["external_id"], c["after"]["state"]) for c in changes["verdicts"]] == [("OWN-1", "failed")]

    # The suite: the drift healed, the changed scenario kept as it was verified, tagged @failing and left out of
    # the suite's own replay; the webhook counts the classes.
    progress = wait_suite(client, project.headers, third["id"])
    assert (progress["suite_state"], progress["suite_failed"]) == ("ready", None), progress
    feature = feature_of(client, project, third)
    assert "@OWN-1 @failing" in feature and "@OWN-5\n" in feature
    # Only OWN-5's healed step reads differently (OWN-1 keeps the old one, so the two steps are told apart).
    before_blocks, after_blocks = blocks(unchanged_feature), blocks(feature.replace(" @failing", ""))
    assert after_blocks["OWN-1"] == before_blocks["OWN-1"] and after_blocks["VET-20"] == before_blocks["VET-20"]
    healed = set(after_blocks["OWN-5"]) ^ set(before_blocks["OWN-5"])
    assert healed and all("ast name" in line or "Find Owner" in line for line in healed), healed
    events = client.get(f"/v1/batches/{third['id']}/webhooks", headers=project.headers).json()["events"]
    assert events[0]["payload"]["data"]["triage"] == {"app_changed": 1, "drift": 1, "passed": 1}

    # OWN-1 was generated afresh beside its kept script: that failed too, at the same step (the scenario's own words
    # name the old heading), so there is nothing to accept.
    assert changed["candidate"]["passed"] is False and changed["candidate"]["failed_step"] == 3, changed
    assert changed["candidate"]["accept"] is None
    refused = client.post(f"/v1/batches/{third['id']}/jobs/{changed['job_id']}/accept", headers=project.headers)
    assert refused.status_code == 409 and "failed too at step 3" in refused.json()["detail"], refused.text

    # The search button relabelled "Search": OWN-1 says "Click Find Owner" and stays red when generated afresh;
    # OWN-5 says "Search for Davis", and generated afresh it passes: a script a person may accept.
    switch("renamed-id", "relabelled-button")
    fourth = regenerate(client, project, "fourth")
    changes = report(client, project, fourth)
    assert changes["triage"] == {"app_changed": 2, "passed": 1}, changes
    by_id = {entry["external_id"]: entry for entry in changes["triaged"]}
    assert by_id["OWN-1"]["candidate"]["passed"] is False
    candidate = by_id["OWN-5"]["candidate"]
    assert candidate["passed"] is True and candidate["accept"], candidate
    diff = client.get(candidate["diff"], headers=project.headers).text
    # The heal of the night before is the verified script the candidate is compared with.
    assert "--- verified/features/step_definitions/steps.js" in diff and "#ownerLastName" in diff, diff
    assert '+  await this.page.getByRole("button", { name: "Search", exact: true }).click();' in diff, diff
    assert "@OWN-5 @failing" in feature_of(client, project, fourth)

    # The QA lead accepts it in the dashboard, in a real browser, after reading OWN-1's failure and timeline
    # (tests/service/dashboard_browser.py); the API's accept route answers with what was accepted, once.
    accept_in_the_dashboard(settings, project.api_key, project.id, fourth["id"], accepted="OWN-5", failed="OWN-1")
    again = client.post(candidate["accept"], headers=project.headers)
    assert again.status_code == 200 and again.json()["diff"] == diff and again.json()["accepted_at"], again.text
    rebuilt = wait_suite(client, project.headers, fourth["id"])
    assert (rebuilt["suite_state"], rebuilt["suite_failed"]) == ("ready", None), rebuilt
    feature = feature_of(client, project, fourth)
    assert "@OWN-1 @failing" in feature and "@OWN-5\n" in feature
    assert report(client, project, fourth)["triaged"][1]["candidate"]["accepted_at"] is not None

    # The next night, the accepted script is OWN-5's verified one: it replays green as it is.
    fifth = regenerate(client, project, "fifth")
    assert report(client, project, fifth)["triage"] == {"app_changed": 1, "passed": 2}


def test_a_scenario_is_removed_only_when_deleted(client, worker, project):
    first = regenerate(client, project, "first")
    one = client.post("/v1/batches", json={"scenarios": [{"external_id": "VET-20"}]},
                      headers={**project.headers, "Idempotency-Key": "one"})
    assert one.status_code == 202, one.text
    on_demand = wait_finished(client, project.headers, one.json()["id"])[-1]
    assert (report(client, project, on_demand)["removed"], report(client, project, on_demand)["added"]) == ([], [])

    assert client.delete("/v1/scenarios/VET-20", headers=project.headers).status_code == 204
    assert client.delete("/v1/scenarios/VET-20", headers=project.headers).status_code == 404
    refused = client.post("/v1/batches", json={"scenarios": [{"external_id": "VET-20"}]},
                          headers={**project.headers, "Idempotency-Key": "deleted"})
    assert refused.status_code == 404 and "was deleted" in refused.json()["detail"]
    second = regenerate(client, project, "second")
    assert [job["external_id"] for job in second["jobs"]] == ["OWN-1", "OWN-5"]
    assert report(client, project, second)["removed"] == ["VET-20"]
    assert second["previous_batch_id"] == first["id"]

    # Stored again, it comes back as a new version, generated afresh.
    definition = {k: v for k, v in demo_scenarios("VET-20")[0].items() if k != "id"}
    again = client.put("/v1/scenarios/VET-20", json=definition, headers=project.headers)
    assert again.status_code == 201 and again.json()["version"] == 2
