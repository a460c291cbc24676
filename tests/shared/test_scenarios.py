import json
from pathlib import Path

import pytest
from pydantic import ValidationError

from shared.records import REASON_MAX, Verdict
from shared.scenarios import Scenario, ScenarioFile, ScenarioFileError, parse_scenarios, split_sentences


def test_two_column_steps_free_text_and_data_rows():
    parsed = parse_scenarios(
        """
base_url: http://127.0.0.1:8080
reset_command: ./reset.sh
scenarios:
  - id: OWN-1
    title: Find
    start: /owners/find
    steps:
      - Type "<lastName>" into the last name field
      - action: Click Find Owner
        expected: '"Owner Information" is shown'
    data:
      - {lastName: Franklin}
      - {lastName: 42}
  - id: 7
    title: Free
    text: Open /vets. Verify "Helen Leary" is shown.
""",
        "s.yaml",
    )
    first, second = parsed.scenarios
    assert parsed.base_url == "http://127.0.0.1:8080" and parsed.reset_command == "./reset.sh"
    assert [s.action for s in first.steps] == ['Type "<lastName>" into the last name field', "Click Find Owner"]
    assert first.steps[1].expected == '"Owner Information" is shown'
    assert first.data == [{"lastName": "Franklin"}, {"lastName": "42"}] and first.first_row() == {"lastName": "Franklin"}
    assert second.id == "7" and [s.action for s in second.steps] == ["Open /vets", 'Verify "Helen Leary" is shown']


def test_a_bare_list_and_json_are_accepted():
    document = [{"id": "A", "title": "t", "steps": ["Click X"]}]
    assert parse_scenarios(json.dumps(document), "s.json").scenarios[0].id == "A"
    assert parse_scenarios("- {id: A, title: t, steps: [Click X]}", "s.yaml").scenarios[0].steps[0].action == "Click X"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("scenarios: [", "s.yaml: not valid YAML at line 1"),
        ("42", "s.yaml: expected a mapping with 'scenarios' or a list of scenarios"),
        ("scenarios: []", "s.yaml: scenarios: List should have at least 1 item"),
        ("scenarios: [{title: t, steps: [x]}]", "s.yaml: scenarios[0].id: Field required"),
        ("scenarios: [{id: A, steps: [x]}]", "s.yaml: scenarios[0] (id A).title: Field required"),
        ("scenarios: [{id: A, title: t}]", "needs 'steps' (a list) or 'text'"),
        ("scenarios: [{id: 'A B', title: t, steps: [x]}]", "may hold only letters, digits"),
        ("scenarios: [{id: A, title: t, steps: ['<city>'], data: [{name: x}]}]", "steps use <city> but 'data' has no such column"),
        ("scenarios: [{id: A, title: t, steps: [x], data: [{a: 1}, {b: 2}]}]", "data row 2 has columns ['b'], expected ['a']"),
        ("scenarios: [{id: A, title: t, steps: [x]}, {id: A, title: u, steps: [y]}]", "scenario id 'A' appears twice"),
        ("scenarios: [{id: A, title: t, steps: ['  ']}]", "scenarios[0] (id A).steps[0].action"),
        ('scenarios:\n- id: A\n  title: t\n  steps:\n  - Open /\n  - Verify the page shows "Status: open"\n',
         "s.yaml: scenarios[0] (id A).steps[1]: Value error, the step 'Verify the page shows \"Status: open\"' "
         "holds ': ', so YAML read it as a mapping; put the whole step in quotes"),
        (f"scenarios: [{{id: A, title: t, steps: ['{'x' * 2001}']}}]",
         "scenarios[0] (id A).steps[0].action: String should have at most 2000 characters"),
        (f"scenarios: [{{id: A, title: t, text: '{'x' * 2001}. Click Save'}}]",
         "the text's sentence 'xxxx"),
    ],
)
def test_bad_files_name_the_problem(text, message):
    with pytest.raises(ScenarioFileError) as caught:
        parse_scenarios(text, "s.yaml")
    assert message in str(caught.value)


def test_sentences_split_outside_quotes_only():
    text = 'Open /owners/find.\nType "McTavish" and press Enter. Verify "2387 S. Fair Way" is shown; Check the owner\'s name'
    assert split_sentences(text) == [
        "Open /owners/find",
        'Type "McTavish" and press Enter',
        'Verify "2387 S. Fair Way" is shown',
        "Check the owner's name",
    ]


def test_a_text_scenario_validated_again_keeps_its_derived_steps_and_both_given_are_refused():
    """A scenario written as text carries the steps derived from it; validating it again (as the service's worker
    does, putting it into a ScenarioFile) must not read those as steps given beside the text."""
    scenario = Scenario(id="TXT-1", title="t", text="Open /owners/find. Click Find Owner.")
    again = ScenarioFile(scenarios=[scenario]).scenarios[0]
    assert [step.action for step in again.steps] == ["Open /owners/find", "Click Find Owner"]
    assert Scenario.model_validate(scenario.model_dump()).steps == scenario.steps
    with pytest.raises(ValidationError, match="give either 'steps' or 'text', not both"):
        Scenario(id="TXT-2", title="t", text="Open /owners/find.", steps=["Click Find Owner"])


def test_a_step_cut_by_a_yaml_comment_is_refused_with_its_line():
    text = 'scenarios:\n  - id: A\n    title: t\n    start: /x   # the page\n    steps:\n      - Type "Same root cause as #4." in the box\n'
    with pytest.raises(ScenarioFileError) as caught:
        parse_scenarios(text, "cases.yaml")
    message = str(caught.value)
    assert "cases.yaml: line 6" in message and "YAML comment" in message and "#4.\" in the box" in message


def test_a_hash_inside_a_quoted_step_or_after_a_closed_quote_is_kept():
    text = ("scenarios:\n  - id: A\n    title: t\n    start: /x\n    steps:\n      - 'Type \"Fix #4\" in the box'\n"
            "      - Click \"Save\"  # the form's button\n")
    steps = parse_scenarios(text, "cases.yaml").scenarios[0].steps
    assert [getattr(s, "action", s) for s in steps] == ['Type "Fix #4" in the box', 'Click "Save"']


def test_a_long_reason_is_cut_and_says_how_long_it_was():
    verdict = Verdict.failed(3, "action", "no element matches " + "x" * 100_000)
    assert len(verdict.reason) == REASON_MAX and verdict.reason.endswith("(cut: 100019 characters in all)")
    assert Verdict.failed(3, "action", "short").reason == "short"


@pytest.mark.parametrize("loader", ["libyaml", "pure"])
def test_libyaml_and_pyyaml_s_own_parser_read_a_scenarios_file_alike(loader, monkeypatch):
    # parse_scenarios takes libyaml's loader where PyYAML has it (bench/importers.py times it); both read the same
    import yaml

    import shared.scenarios

    assert yaml.__with_libyaml__, "PyYAML without libyaml here: the fast path is not tested"
    text = (Path(__file__).resolve().parents[2] / "examples" / "petclinic.yaml").read_text(encoding="utf-8")
    expected = parse_scenarios(text, "petclinic.yaml")
    if loader == "pure":
        monkeypatch.setattr(shared.scenarios, "_YAML_LOADER", yaml.SafeLoader)
    assert parse_scenarios(text, "petclinic.yaml") == expected
    cut = 'scenarios:\n  - id: A\n    title: t\n    steps:\n      - Type "Same as #4." in the box\n'
    with pytest.raises(ScenarioFileError, match="line 5.*YAML comment"):
        parse_scenarios(cut, "cases.yaml")
    with pytest.raises(ScenarioFileError, match="not valid YAML at line 1"):
        parse_scenarios("scenarios: [", "s.yaml")
