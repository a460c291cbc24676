"""A batch chooses what the command line lets a user choose: its feature title, the project its suite.zip holds
(cucumber-js or playwright-bdd) and who words its steps; a project's defaults fill in what a batch leaves out.
(The playwright-bdd suite.zip run with Playwright's runner: tests/service/test_batch_choices.py.)"""

from __future__ import annotations

import uuid

from tests.service.conftest import new_project


def submit(client, project, **choices: object):
    return client.post("/v1/batches", json={"scenarios": [{"id": "A", "title": "t", "steps": ["Go to /"]}], **choices},
                       headers={**project.headers, "Idempotency-Key": uuid.uuid4().hex})


def test_a_batch_takes_the_project_s_defaults_and_its_own_choices(client, petclinic):
    project = new_project(client, petclinic, name="checkout-flows team")
    chosen = client.get(f"/v1/batches/{submit(client, project).json()['id']}", headers=project.headers).json()
    assert (chosen["feature"], chosen["format"], chosen["step_writer"]) == ("Checkout flows team", "cucumber-js",
                                                                           "builtin")
    changed = client.patch("/v1/projects/me", json={"default_feature": "Owners", "default_format": "playwright-bdd"},
                           headers=project.headers)
    assert changed.status_code == 200 and changed.json()["project"]["default_format"] == "playwright-bdd"
    batch = submit(client, project).json()["id"]
    chosen = client.get(f"/v1/batches/{batch}", headers=project.headers).json()
    assert (chosen["feature"], chosen["format"]) == ("Owners", "playwright-bdd")
    batch = submit(client, project, feature="Vets", format="cucumber-js").json()["id"]
    chosen = client.get(f"/v1/batches/{batch}", headers=project.headers).json()
    assert (chosen["feature"], chosen["format"]) == ("Vets", "cucumber-js")


def test_bad_choices_are_422_naming_the_field(client, petclinic):
    project = new_project(client, petclinic)
    for choices, field in (({"format": "jest"}, "format"), ({"step_writer": "poet"}, "step_writer"),
                           ({"feature": "..."}, "feature"), ({"feature": "a\nb"}, "feature"),
                           ({"step_writer": "model"}, "step_writer: the model step writer needs a model endpoint")):
        response = submit(client, project, **choices)
        assert response.status_code == 422 and response.json()["detail"].startswith(field), response.text
    refused = client.patch("/v1/projects/me", json={"default_step_writer": "model"}, headers=project.headers)
    assert refused.status_code == 422 and refused.json()["detail"].startswith("default_step_writer"), refused.text
