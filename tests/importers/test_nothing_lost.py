"""Nothing an export holds is lost without a word, and what a tester wrote reads as they meant it: each test is built
from an export shaped like its system's own (Zephyr Scale's test cases with calls to test, TestRail's CSV export,
Xray's bulk JSON), with the case or the line that goes wrong among good ones."""

from __future__ import annotations

import json

import pytest

from shared.importers import ImportFormatError, import_cases, scenarios_yaml
from shared.importers.mapping import PARAMETERS
from shared.importers.text import plain_text
from shared.records import ScenarioScript, StepUse
from tests.importers.test_exports import csv_export
from workers.agent.scripting.gherkin import render_features


def zephyr_case(key: str, name: str, steps: list[dict], **more) -> dict:
    """A test case as Zephyr Scale's API answers it."""
    return {"key": key, "name": name, "projectKey": key.split("-")[0], "status": "Approved",
            "folder": "/Owners/Search", "testScript": {"type": "STEP_BY_STEP", "steps": steps}, **more}


def inline(description: str, expected: str = "") -> dict:  # a v2 step of its own
    return {"inline": {"description": description, "testData": None, "expectedResult": expected or None},
            "testCase": None}


def call(key: str, **values: str) -> dict:  # a v2 "call to test" step
    return {"inline": None, "testCase": {"testCaseKey": key, "self": f"https://api.zephyrscale/testcases/{key}",
                                         "parameters": [{"name": n, "type": "DEFAULT_VALUE", "value": v}
                                                        for n, v in values.items()]}}


def test_a_call_to_test_step_becomes_the_called_case_s_steps_with_the_values_it_passes():
    login = zephyr_case("PC-T1", "Log in", [inline("Go to the login page"), inline("Type {user} into the user field"),
                                            inline("Click Log in", "the home page is shown")],
                        parameters={"variables": [{"name": "user", "type": "FREE_TEXT"}],
                                    "entries": [{"user": "guest"}]})
    search = zephyr_case("PC-T2", "Search owners", [call("PC-T1", user="admin"), inline("Click Find Owners")])
    old_style = zephyr_case("PC-T3", "Search again", [{"testCaseKey": "PC-T2"}, {"description": "Click Back"}])
    report = import_cases(json.dumps([login, search, old_style]), "zephyr-json")
    assert report.skipped == []
    scenarios = {s.id: s for s in report.scenario_file.scenarios}
    assert [(s.action, s.expected) for s in scenarios["PC-T2"].steps] == [
        ("Go to the login page", None), ("Type admin into the user field", None),
        ("Click Log in", "the home page is shown"), ("Click Find Owners", None)]
    assert [s.action for s in scenarios["PC-T3"].steps][-2:] == ["Click Find Owners", "Click Back"]


def test_a_call_to_a_case_the_export_does_not_hold_skips_that_case_and_names_it():
    report = import_cases(json.dumps([
        zephyr_case("PC-T2", "Search owners", [call("PC-T9"), inline("Click Find Owners")]),
        zephyr_case("PC-T4", "Loops", [call("PC-T5")]),
        zephyr_case("PC-T5", "Loops back", [call("PC-T4")]),
        zephyr_case("PC-T6", "Fine", [inline("Open the Find Owners page")])]), "zephyr-json")
    assert [s.id for s in report.scenario_file.scenarios] == ["PC-T6"]
    reasons = {s.key: s.reason for s in report.skipped}
    assert "step 1 calls test case PC-T9, which this export does not hold" in reasons["PC-T2"]
    assert "calls back" in reasons["PC-T4"] and "calls back" in reasons["PC-T5"]


def test_one_odd_case_is_skipped_and_listed_the_good_ones_imported():
    zephyr = import_cases(json.dumps([
        zephyr_case("PC-T1", "Null step", [inline("Open the page"), {"inline": None, "testCase": None}]),
        zephyr_case("PC-T2", "Good", [inline("Open the page")]),
        {"key": "PC-T3", "name": "Odd script", "testScript": {"type": "STEP_BY_STEP", "steps": [{"inline": 7}]}}]),
        "zephyr-json")
    assert [s.id for s in zephyr.scenario_file.scenarios] == ["PC-T2"]
    assert [(s.key, s.where) for s in zephyr.skipped] == [("PC-T1", "[0]"), ("PC-T3", "[2]")]
    assert "step 2 has neither its own text" in zephyr.skipped[0].reason
    assert "[2].testScript.steps[0].inline: 7 is not of type" in zephyr.skipped[1].reason
    xray = import_cases(json.dumps([
        {"testtype": "Manual", "fields": {"summary": "No key"}, "steps": [{"action": "Open the page"}]},
        {"testtype": "Manual", "update_key": "PC-2", "fields": {"summary": "Keyed"},
         "steps": [{"action": "Open the page", "data": "", "result": "it shows"}]},
        {"testtype": "Manual", "update_key": "PC-3", "fields": {}, "steps": []}]), "xray-json")
    assert [s.id for s in xray.scenario_file.scenarios] == ["PC-2"]
    assert [s.key for s in xray.skipped] == ["[0]", "PC-3"]
    assert "no issue key" in xray.skipped[0].reason and "summary" in xray.skipped[1].reason
    assert str(xray.skipped[0]).startswith("[0]: no issue key")  # where it is, said once
    summary = xray.summary()
    assert summary["imported"] == 1 and [s["case"] for s in summary["skipped"]] == ["[0]", "PC-3"]


def test_two_cases_under_one_testrail_id_refuse_the_file_naming_both_lines():
    content = csv_export([["C5", "Search by last name", "Owners", "", "Open the page", ""],
                          ["C5", "Search by first name", "Owners", "", "Open the page", ""],
                          ["C6", "Fine", "Owners", "", "Open the page", ""]])
    with pytest.raises(ImportFormatError, match=r"line 3: case C5 again, with another title .*its first row is "
                                                 r"line 2"):
        import_cases(content, "testrail-csv", source="cases.csv")
    numbered_twice = csv_export([["C5", "Search", "Owners", "", "1. Open the page\n2. Search", ""],
                                 ["C5", "Search", "Owners", "", "1. Open the page\n2. Search", ""]])
    with pytest.raises(ImportFormatError, match=r"line 4: case C5 again, with its steps again \(its first row is "
                                                 r"line 2\)"):
        import_cases(numbered_twice, "testrail-csv", source="cases.csv")
    # every problem of the file at once, one for each second case (not one for each of its rows)
    both = csv_export([["C1", "First", "Owners", "", "Open the page", ""],
                       ["C2", "Second", "Owners", "", "Open /", "", "x"],
                       ["C1", "First again", "Owners", "", "Open the page", ""], ["", "", "", "", "Click Find", ""],
                       ["C3", "Third", "Owners", "", "Open the page", ""], ["C3", "Other", "Owners", "", "Open /", ""],
                       ["C3", "Other", "Owners", "", "Click Find", ""]])
    with pytest.raises(ImportFormatError) as refused:
        import_cases(both, "testrail-csv", source="cases.csv")
    assert str(refused.value).split("\n")[1:] == [
        "  line 3: 7 fields, but the header has 6 (a quote not closed, or a cell with an unquoted separator)",
        "  line 4: case C1 again, with another title ('First again', not 'First') (its first row is line 2): two cases "
        "under one ID; give each its own ID",
        "  line 7: case C3 again, with another title ('Other', not 'Third') (its first row is line 6): two cases "
        "under one ID; give each its own ID"]
    apart = csv_export([["C1", "First", "Owners", "", "Open the page", ""],
                        ["C2", "Second", "Owners", "", "Open /", ""],
                        ["C1", "First", "Owners", "", "Open the page", ""], ["", "", "", "", "Click Find", ""],
                        ["C4", "Fourth", "Owners", "", "Open /", "", "x"]])
    with pytest.raises(ImportFormatError) as refused:
        import_cases(apart, "testrail-csv", source="cases.csv")
    assert [line.split(":")[0].strip() for line in str(refused.value).split("\n")[1:]] == ["line 4", "line 6"]
    assert "line 4: case C1 appears twice (first at line 2)" in str(refused.value)
    repeated_fields = csv_export([["C5", "Search", "Owners", "", "Open the page", ""],
                                  ["C5", "Search", "Owners", "", "Search", "found"]])
    (scenario,) = import_cases(repeated_fields, "testrail-csv").scenario_file.scenarios
    assert [s.action for s in scenario.steps] == ["Open the page", "Search"]  # step rows, the fields repeated


def test_a_broken_csv_names_every_problem_with_its_line_up_to_a_cap():
    rows = "\r\n".join(['"ID","Title","Steps (Step)"', '"C1","a","Open /"', '"C2","b,"Open /"', '"C3","c","Open /"',
                        '"C4","d","Open /","extra"', '"","e","Open /"', '"C6","f","Open /"'])
    with pytest.raises(ImportFormatError) as refused:
        import_cases(rows + "\r\n", "testrail-csv", source="cases.csv")
    message = str(refused.value)
    assert message.startswith("cases.csv: 3 problems; nothing was imported:")
    assert [line.split(":")[0].strip() for line in message.split("\n")[1:]] == ["line 3", "line 5", "line 6"]
    assert "'e' has no ID" in message
    many = '"ID","Title","Steps (Step)"\r\n' + "".join(f'"C{n}","t","Open /","x"\r\n' for n in range(1, 31))
    with pytest.raises(ImportFormatError) as refused:
        import_cases(many, "testrail-csv", source="many.csv")
    lines = str(refused.value).split("\n")
    assert lines[0] == "many.csv: 30 problems; nothing was imported:" and len(lines) == 22
    assert lines[-1] == "  ... and 10 more" and lines[1].startswith("  line 2: 4 fields")
    xray = "Issue Key,Summary,Action,Result\r\nA-1,First,Open /,\r\n,Second,Click add,shown\r\nA-3,Third,Open /\r\n"
    with pytest.raises(ImportFormatError, match=r"2 problems(.|\n)*line 3: the test 'Second'(.|\n)*line 4: 3 fields"):
        import_cases(xray, "xray-csv", source="tests.csv")


def test_numbered_expected_results_go_to_the_steps_they_number():
    text_template = ('"ID","Title","Section","Steps","Expected Result"\r\n'
                     '"C1","Search","Owners","1. Open the Find Owners page\n2. Type Davis. Click Find Owner\n'
                     '3. Open the first owner","2. Two owners are listed\n3. The owner\'s page is shown"\r\n'
                     '"C2","Plain","Owners","1. Open the page\n2. Click Add","The form is shown"\r\n')
    first, second = import_cases(text_template, "testrail-csv").scenario_file.scenarios
    assert [(s.action, s.expected) for s in first.steps] == [
        ("Open the Find Owners page", None), ("Type Davis", None), ("Click Find Owner", "Two owners are listed"),
        ("Open the first owner", "The owner's page is shown")]
    assert [(s.action, s.expected) for s in second.steps] == [("Open the page", None),
                                                              ("Click Add", "The form is shown")]
    empty_step = text_template.replace("1. Open the Find Owners page", "1.").replace("2. Two owners",
                                                                                 "1. Shown\n2. Two owners")
    report = import_cases(empty_step, "testrail-csv")
    assert [s.key for s in report.skipped] == ["C1"]
    assert report.skipped[0].reason == "expected result 1 belongs to step 1, which has no text"


def test_a_section_path_is_kept_whole_and_two_sections_never_merge():
    content = ('"ID","Title","Section","Section Hierarchy","Steps (Step)"\r\n'
               '"C1","Find an owner","Search","Owners > Search","Open the Find Owners page"\r\n'
               '"C2","Find a vet","Search","Vets > Search","Open the Veterinarians page"\r\n')
    report = import_cases(content, "testrail-csv")
    assert [s.feature for s in report.scenario_file.scenarios] == ["Owners > Search", "Vets > Search"]
    zephyr = import_cases(json.dumps([zephyr_case("PC-T1", "Find", [inline("Open the page")])]), "zephyr-json")
    assert zephyr.scenario_file.scenarios[0].feature == "Owners > Search"  # its folder /Owners/Search
    features = render_features([_script(s) for s in report.scenario_file.scenarios], "Imported")
    assert sorted(features) == ["features/owners-search.feature", "features/vets-search.feature"]
    owners = features["features/owners-search.feature"]
    # the section's tag after the scenario's id, which the runners name its screenshots and traces after
    assert owners.startswith("Feature: Owners > Search\n\n  @C1 @Owners/Search\n  Scenario: Find an owner\n")


def _script(scenario) -> ScenarioScript:
    step = StepUse(keyword="Given", text=scenario.steps[0].action, signature=scenario.steps[0].action)
    return ScenarioScript(scenario_id=scenario.id, title=scenario.title, feature=scenario.feature, steps=[step])


@pytest.mark.parametrize("cell, text", [
    ("Type {{admin}} into the *User name* field", "Type admin into the User name field"),
    ("Open [the owners page|https://petclinic.example/owners] and check _all_ rows", "Open the owners page and "
                                                                                     "check all rows"),
    ("{code:sql}select 1{code}", "select 1"),
    ("{noformat}Jane Doe{noformat} appears in {color:#de350b}red{color}", "Jane Doe appears in red"),
    ("h3. Setup\n* Open the page\n# Click Save\\\\then wait", "Setup\nOpen the page\nClick Save\nthen wait"),
    ("||Name||City||\n|Davis|Madison|", "Name City\nDavis Madison"),
    ("Upload !photo.png|thumbnail! and press +Enter+", "Upload and press Enter"),
    ("Send an e-mail to 5 - 3 people", "Send an e-mail to 5 - 3 people"),  # no markup
    # what only looks like markup stays as written, once a cell is read as wiki markup too
    ("Type {{admin}} then click [Save]", "Type admin then click [Save]"),
    ("Type a|b in {{field}}", "Type a|b in field"),
    ("Set {{x}} to ~/a and ~/b~, from -10 to -20-", "Set x to ~/a and ~/b~, from -10 to -20-"),
    ("Open \\\\fileserver\\share with {{admin}}", "Open \\\\fileserver\\share with admin"),
    ("Enter {code} in the voucher field, 5 * 3 * 2 of {{them}}",
     "Enter {code} in the voucher field, 5 * 3 * 2 of them"),
])
def test_jira_and_confluence_wiki_markup_becomes_the_plain_text_a_tester_meant(cell, text):
    assert plain_text(cell) == text


def test_a_case_s_parameters_stay_whatever_markup_is_around_them():
    case = zephyr_case("PC-T1", "Voucher", [inline("Enter {code} and confirm {code} in {{the}} *voucher* field"),
                                            inline("Type {{admin}} into {field}")],
                       parameters={"variables": [{"name": "code"}, {"name": "field"}],
                                   "entries": [{"code": "X1", "field": "Name"}]})
    (scenario,) = import_cases(json.dumps([case]), "zephyr-json").scenario_file.scenarios
    assert [s.action for s in scenario.steps] == ["Enter <code> and confirm <code> in the voucher field",
                                                  "Type admin into <field>"]
    assert plain_text("Select ${color} in {{Colour}}, {color}", PARAMETERS["${name}"]) == "Select ${color} in " \
                                                                                         "Colour, {color}"


def test_counts_read_as_a_person_says_them_and_steps_count_from_one():
    report = import_cases(csv_export([["C1", "One", "S", "", "Open /", ""]]), "testrail-csv")
    assert "): 1 case\n" in scenarios_yaml(report, source="one.csv")
    long_step = json.dumps([zephyr_case("PC-T1", "Long", [inline("Open the page"), inline("x" * 3000)]),
                            zephyr_case("PC-T2", "Fine", [inline("Open the page")])])
    (skipped,) = import_cases(long_step, "zephyr-json").skipped
    assert skipped.reason.startswith("step 2's action:"), skipped.reason
