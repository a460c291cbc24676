"""Projects on one application share steps through the registry; another origin gets none of them."""

from __future__ import annotations

import json

import pytest

from .conftest import feature_text, generate

pytestmark = pytest.mark.e2e

SCENARIOS = """
scenarios:
  - id: FIND
    title: Finding an owner
    steps:
      - Go to the Find Owners page
      - Type "Franklin" into the last name field
      - action: Click Find Owner
        expected: '"Owner Information" is shown'
  - id: LIST
    title: Listing owners
    steps:
      - Go to the Find Owners page
      - action: Search for Davis
        expected: '"Betty Davis" is shown'
"""


def run(tmp_path, name, base_url, reset_command, project, monkeypatch, database):
    monkeypatch.setenv("STEPFORGE_DATABASE_URL", database)
    work = tmp_path / name
    work.mkdir()
    scenarios = work / "scenarios.yaml"
    scenarios.write_text(SCENARIOS)
    generation = generate(scenarios, base_url, work, reset_command, extra=["--project", project])
    report = json.loads(generation.report.read_text())
    assert generation.exit_code == 0, report
    steps = (generation.suite / "features/step_definitions/steps.js").read_text()
    feature = feature_text(generation.suite)
    return report["summary"], steps, feature


def test_projects_on_one_origin_share_steps_and_other_origins_do_not(tmp_path, petclinic, reset_command,
                                                                      monkeypatch):
    database = f"sqlite:///{tmp_path / 'registry.db'}"
    first, steps_a, feature_a = run(tmp_path, "a", petclinic, reset_command, "clinic-a", monkeypatch, database)
    assert first["reused_from_registry"] == 0 and first["registered"] == first["step_definitions"] > 0

    second, steps_b, feature_b = run(tmp_path, "b", petclinic, reset_command, "clinic-b", monkeypatch, database)
    assert second["reused_from_registry"] == second["step_definitions"] and second["registered"] == 0
    assert (steps_b, feature_b) == (steps_a, feature_a)  # regenerated: byte-identical

    other_origin = petclinic.replace("127.0.0.1", "localhost")  # the same app under another origin
    third, _, _ = run(tmp_path, "c", other_origin, reset_command, "clinic-c", monkeypatch, database)
    assert third["reused_from_registry"] == 0 and third["registered"] == third["step_definitions"]
