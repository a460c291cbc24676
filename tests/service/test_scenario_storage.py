"""A stored scenario reads back as it was given: one written as free text (the README's OWN-4) becomes the same
steps again, never text and steps side by side (which the scenario model refuses)."""

from __future__ import annotations

import pytest

from shared.models import Scenario
from shared.scenarios import Scenario as ScenarioDefinition
from shared.store import definition_of, scenario_from_row

pytestmark = pytest.mark.service  # its tier (tests/conftest.py)

TEXT = "Go to the Find Owners page. Type McTavish into the last name field and press Enter. Verify \"2387 S. Fair Way\" is shown."


def test_a_text_scenario_is_stored_as_its_text_and_reads_back_whole() -> None:
    given = ScenarioDefinition(id="OWN-4", title="Searching from the keyboard", text=TEXT)
    stored = definition_of(given)
    assert "steps" not in stored and stored["text"] == TEXT
    again = scenario_from_row(Scenario(project_id=1, external_id="OWN-4", version=1, definition=stored))
    assert again == given and len(again.steps) == 3


def test_a_row_stored_with_text_and_its_derived_steps_still_reads() -> None:
    given = ScenarioDefinition(id="OWN-4", title="t", text=TEXT)
    legacy = given.model_dump(mode="json", exclude={"id"})  # what earlier versions stored: text and steps
    assert legacy["steps"] and legacy["text"]
    assert scenario_from_row(Scenario(project_id=1, external_id="OWN-4", version=1, definition=legacy)) == given


def test_a_steps_scenario_keeps_its_steps() -> None:
    given = ScenarioDefinition(id="OWN-1", title="t", steps=["Go to /owners/find", "Click Find Owner"])
    stored = definition_of(given)
    assert stored["steps"] and stored["text"] is None
    assert scenario_from_row(Scenario(project_id=1, external_id="OWN-1", version=1, definition=stored)) == given
