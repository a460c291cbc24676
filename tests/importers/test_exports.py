"""Exports of the demo's cases, written by hand in each system's published format (tests/importers/exports/), read
into the scenarios examples/petclinic.yaml holds; and what each reader does with what real exports carry: HTML and
markdown in cells, multi-line steps, Unicode, test data, preconditions, cases it cannot map, malformed files."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest
import yaml

from shared.importers import ImportFormatError, format_of, import_cases, scenarios_yaml
from shared.importers.mapping import with_data
from shared.importers.text import plain_text
from shared.scenarios import load_scenarios, parse_scenarios

EXPORTS = Path(__file__).parent / "exports"
DEMO = load_scenarios(Path(__file__).parents[2] / "examples" / "petclinic.yaml")
FILES = {"testrail-csv": "petclinic-testrail.csv", "testrail-json": "petclinic-testrail-cases.json",
         "xray-json": "petclinic-xray.json", "xray-csv": "petclinic-xray.csv", "zephyr-json": "petclinic-zephyr.json"}
# TestRail and Xray's exports carry no data rows: there the demo's one parameterised case (OWN-12) is written with
# its first row's values.
PARAMETERISED = {"testrail-csv", "testrail-json", "xray-json", "xray-csv"}


def imported(fmt: str):
    return import_cases((EXPORTS / FILES[fmt]).read_text(encoding="utf-8"), fmt, source=FILES[fmt])


def steps_of(scenario, row: dict[str, str] | None = None) -> list[tuple[str, str | None]]:
    def fill(text):
        for name, value in (row or {}).items():
            text = text.replace(f"<{name}>", value)
        return text
    return [(fill(s.action), None if s.expected is None else fill(s.expected)) for s in scenario.steps]


@pytest.mark.parametrize("fmt", list(FILES))
def test_each_export_of_the_demo_s_cases_imports_as_the_demo_s_scenarios(fmt):
    report = imported(fmt)
    assert report.skipped == []
    got = report.scenario_file.scenarios
    assert len(got) == len(DEMO.scenarios)
    for case, scenario in zip(got, DEMO.scenarios, strict=True):
        assert case.title == scenario.title
        if scenario.data and fmt in PARAMETERISED:
            assert steps_of(case) == steps_of(scenario, scenario.data[0]) and case.data == []
        else:
            assert steps_of(case) == steps_of(scenario) and case.data == scenario.data
        # the section, folder or component; get_cases names a case's section only by its id
        assert (case.feature is None) == (fmt == "testrail-json")
    assert format_of(None, FILES[fmt], (EXPORTS / FILES[fmt]).read_text(encoding="utf-8")) == fmt


def test_the_case_key_is_the_scenario_id_and_the_section_its_feature():
    scenarios = {s.id: s for s in imported("testrail-csv").scenario_file.scenarios}
    assert list(scenarios)[:3] == ["C101", "C102", "C103"]
    assert (scenarios["C110"].feature, scenarios["C121"].feature) == ("Owners > Add owner", "Errors")
    zephyr = {s.id: s for s in imported("zephyr-json").scenario_file.scenarios}
    assert zephyr["PC-T12"].feature == "Owners > Edit owner"  # the folder /Owners/Edit owner, whole
    assert [row["city"] for row in zephyr["PC-T12"].data] == ["Middleton", "Verona"]


def test_a_precondition_that_is_an_action_leads_and_one_that_states_a_fact_is_reported():
    zephyr = {s.id: s for s in imported("zephyr-json").scenario_file.scenarios}
    assert zephyr["PC-T2"].steps[0].action == "Go to the Find Owners page"
    notes = imported("zephyr-json").notes
    assert len(notes) == 1 and "PC-T1" in notes[0] and "An owner named Franklin exists" in notes[0]


@pytest.mark.parametrize("cell, text", [
    ("<p>Click <strong>Save</strong></p><p>then&nbsp;wait</p>", "Click Save\nthen wait"),
    ("1. Open the page\n2. Search for **Davis**", "Open the page\nSearch for Davis"),
    ("Click [Add Owner](index.php?/cases/view/3) ![](index.php?/attachments/get/9)", "Click Add Owner"),
    ("Search for <lastName>", "Search for <lastName>"),  # a placeholder is the tester's text, not markup
    ("<ul><li>Press <enter></li></ul>", "Press <enter>"),
    ("Type \"Größe ✓ 東京\" &amp; save", "Type \"Größe ✓ 東京\" & save"),
    ("Enter user_name and 5 * 3", "Enter user_name and 5 * 3"),
])
def test_html_and_markdown_in_a_cell_become_its_plain_text(cell, text):
    assert plain_text(cell) == text


@pytest.mark.parametrize("action, data, step", [
    ("Type the test data into the last name field", "Franklin", 'Type "Franklin" into the last name field'),
    ("Fill in the owner form", "First Name: Jane\nLast Name: Doe",
     'Fill in the owner form with "Jane" as First Name and "Doe" as Last Name'),
    ("Search for", "Davis", 'Search for "Davis"'),
    ("Log in", "admin", 'Log in with "admin"'),
    ("Click Save", "", "Click Save"),
])
def test_test_data_goes_where_the_action_names_it(action, data, step):
    assert with_data(action, data) == step


def csv_export(rows: list[list[str]]) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(["ID", "Title", "Section", "Preconditions", "Steps (Step)", "Steps (Expected Result)"])
    writer.writerows(rows)
    return "\ufeff" + out.getvalue()


def test_multi_line_steps_and_unicode_stay_whole():
    content = csv_export([["C7", "Überweisung prüfen", "Zahlungen", "", "Open /transfers\nthen look", ""],
                            ["", "", "", "", "Verify \"€ 1.234,50\" is shown", "<p>Beträge stimmen</p>"]])
    scenario = import_cases(content, "testrail-csv").scenario_file.scenarios[0]
    assert [s.action for s in scenario.steps] == ["Open /transfers\nthen look", 'Verify "€ 1.234,50" is shown']
    assert (scenario.title, scenario.feature, scenario.steps[1].expected) == ("Überweisung prüfen", "Zahlungen",
                                                                            "Beträge stimmen")


def test_a_case_that_cannot_be_mapped_is_skipped_and_reported_never_dropped():
    content = csv_export([["C1", "Has steps", "S", "", "Open /", ""],
                            ["C2", "Has none", "S", "", "", ""],
                            ["C3", "Bad id", "S", "", "Open /", ""]]).replace("C3", "C 3")
    report = import_cases(content, "testrail-csv", source="cases.csv")
    assert [s.id for s in report.scenario_file.scenarios] == ["C1"]
    assert [(s.key, s.where) for s in report.skipped] == [("C2", "line 3"), ("C 3", "line 4")]
    assert "no steps" in report.skipped[0].reason and report.skipped[1].reason.startswith("id:")
    zephyr = json.dumps([{"key": "T-1", "name": "bdd", "testScript": {"type": "BDD", "text": "Given x"}},
                         {"key": "T-2", "name": "ok", "testScript": {"type": "STEP_BY_STEP",
                                                                     "steps": [{"description": "Open /"}]}},
                         {"key": "T-3", "name": "param", "testScript": {"type": "STEP_BY_STEP",
                                                                        "steps": [{"description": "Search {who}"}]}}])
    report = import_cases(zephyr, "zephyr-json")
    assert [s.id for s in report.scenario_file.scenarios] == ["T-2"]
    assert "BDD" in report.skipped[0].reason and "parameter who" in report.skipped[1].reason


@pytest.mark.parametrize("content, message", [
    ('"ID","Title","Steps (Step)"\r\n"C1","a","Open /"\r\n"C2","b,"Open /"\r\n', "line 3"),
    ('"ID","Title","Steps (Step)"\r\n"C1","a","Open /"\r\n"C2","b","Open /","extra"\r\n', "line 3: 4 fields"),
    ('"Title","Steps (Step)"\r\n"a","Open /"\r\n', "line 1: no 'ID' column"),
    ('"ID","Title","Steps (Step)"\r\n"","","Open /"\r\n', "line 2: a step row before any case"),
    ('"ID","Title","Steps (Step)"\r\n"C1","a","Open /"\r\n"C2","b","Open /"\r\n"C1","a again","Open /"\r\n',
     "line 4: case C1 appears twice"),
])
def test_a_malformed_testrail_csv_is_refused_naming_its_line(content, message):
    with pytest.raises(ImportFormatError, match=message):
        import_cases(content, "testrail-csv", source="cases.csv")


@pytest.mark.parametrize("fmt, document, message", [
    ("testrail-json", {"cases": [{"id": 1, "title": "a", "custom_steps_separated": [{"content": 5}]}]},
     r"cases\[0\]\.custom_steps_separated\[0\]\.content: 5 is not of type"),
    ("testrail-json", {"cases": [{"id": 1}]}, r"cases\[0\]: 'title' is a required property"),
    ("xray-json", [{"testtype": "Manual", "fields": {"summary": "s"}, "steps": []}], r"\[0\].*no issue key"),
    ("zephyr-json", [{"key": "T-1", "name": "n", "testScript": {"steps": "x"}}], r"\[0\]\.testScript\.steps"),
])
def test_a_json_export_that_is_not_its_format_is_refused_naming_the_case_and_field(fmt, document, message):
    with pytest.raises(ImportFormatError, match=message):
        import_cases(json.dumps(document), fmt, source="export.json")


def test_the_scenarios_file_written_reads_back_as_the_import():
    report = imported("zephyr-json")
    text = scenarios_yaml(report, source="petclinic-zephyr.json", base_url="http://127.0.0.1:8080")
    back = parse_scenarios(text, "scenarios.yaml")
    assert back.scenarios == report.scenario_file.scenarios and back.base_url == "http://127.0.0.1:8080"
    tricky = import_cases(csv_export([["C9", "t", "S", "", 'Type "Same root cause as #4." in the box', ""],
                                        ["", "", "", "", "key: value? - [x] {a}", ""]]), "testrail-csv")
    assert parse_scenarios(scenarios_yaml(tricky, source="x"), "s.yaml").scenarios == tricky.scenario_file.scenarios


def test_a_five_thousand_case_export_imports_every_case():
    rows = []
    for number in range(1, 5001):
        rows.append([f"C{number}", f"Case {number}: Größe prüfen", f"Section {number % 40}", "",
                     "Open /owners/find", ""])
        rows.append(["", "", "", "", f"Type \"Name {number}\" into the <b>last name</b> field", ""])
        rows.append(["", "", "", "", "Click **Find Owner**", f"<p>\"Owner {number}\" is shown</p>"])
    report = import_cases(csv_export(rows), "testrail-csv", source="big.csv")
    assert len(report.scenario_file.scenarios) == 5000 and not report.skipped
    last = report.scenario_file.scenarios[-1]
    assert [s.action for s in last.steps][1:] == ['Type "Name 5000" into the last name field', "Click Find Owner"]
    written = yaml.load(scenarios_yaml(report, source="big.csv"), Loader=yaml.CSafeLoader)
    assert len(written["scenarios"]) == 5000 and written["scenarios"][-1]["id"] == "C5000"


def test_testrail_s_other_layouts_read_alike():
    """The separator hint line, steps numbered in one cell (the export's default), the case's fields repeated on
    each step row, and the two columns labelled "Steps"."""
    one_cell = ('sep=,\r\n"ID","Title","Section","Steps (Step)","Steps (Expected Result)"\r\n'
                '"C1","Search","Owners","1. Go to the Find Owners page\n2. Search for Davis","2. ""Betty Davis"" is shown"'
                '\r\n')
    repeated = ('"ID","Title","Section","Steps (Step)","Steps (Expected Result)"\r\n'
                '"C1","Search","Owners","Go to the Find Owners page",""\r\n'
                '"C1","Search","Owners","Search for Davis","""Betty Davis"" is shown"\r\n')
    two_steps = ('"ID","Title","Section","Steps","Steps","Expected Result"\r\n'
                 '"C1","Search","Owners","","1. Go to the Find Owners page\n2. Search for Davis","""Betty Davis"" is shown"'
                 '\r\n')
    for content in (one_cell, repeated, two_steps):
        (scenario,) = import_cases(content, "testrail-csv").scenario_file.scenarios
        assert [(s.action, s.expected) for s in scenario.steps] == [
            ("Go to the Find Owners page", None), ("Search for Davis", '"Betty Davis" is shown')], content
    with pytest.raises(ImportFormatError, match="line 3: 3 fields"):
        import_cases('sep=,\r\n"ID","Title","Steps (Step)","X"\r\n"C1","a","Open /"\r\n', "testrail-csv")


def test_xray_s_server_export_and_importer_csv_read_alike():
    """The REST export (a manual test's definition.steps of raw/rendered fields; a Cucumber test's definition is
    its text), the bulk JSON with its summary at the top level, and the importer's CSV with its own column names."""
    server = json.dumps([
        {"key": "PC-1", "type": "Manual", "status": "TODO", "definition": {"steps": [
            {"index": 1, "step": {"raw": "Go to the Find Owners page", "rendered": "<p>Go to the Find Owners page</p>"},
             "data": {"raw": "", "rendered": ""}, "result": {"raw": "", "rendered": ""}, "attachments": []},
            {"index": 2, "step": {"raw": "Search for", "rendered": ""}, "data": {"raw": "Davis"},
             "result": {"raw": "*Betty Davis* is shown"}, "attachments": []}]}},
        {"key": "PC-2", "type": "Cucumber", "status": "PASS", "definition": "Given I open the page"}])
    report = import_cases(server, "xray-json")
    (scenario,) = report.scenario_file.scenarios
    assert [(s.action, s.expected) for s in scenario.steps] == [("Go to the Find Owners page", None),
                                                                ('Search for "Davis"', "Betty Davis is shown")]
    assert report.skipped[0].key == "PC-2" and "Cucumber test" in report.skipped[0].reason
    older = json.dumps([{"testtype": "Manual", "update_key": "PC-3", "summary": "Top-level summary",
                         "steps": [{"action": "Open /"}]}])
    assert import_cases(older, "xray-json").scenario_file.scenarios[0].title == "Top-level summary"
    importer = "TCID;Test Summary;Step Action;Step Data;Step Result\r\n7;Search;Search for;Davis;\r\n7;;Open it;;ok\r\n"
    (csv_case,) = import_cases(importer, "xray-csv").scenario_file.scenarios
    assert (csv_case.id, [s.action for s in csv_case.steps]) == ("7", ['Search for "Davis"', "Open it"])


@pytest.mark.parametrize("fmt, content, message", [
    ("xray-json", [{"fields": {"summary": "S"}, "key": "A-1", "xray_testtype": 5}], r"\[0\]\.xray_testtype"),
    ("xray-json", [{"fields": {"summary": "S"}, "key": "A-1", "xray_steps": ["Open"]}], r"xray_steps\[0\]"),
    ("zephyr-json", [{"key": "T-1", "name": "n", "parameters": {"variables": [{"name": {"a": 1}}], "entries": []}}],
     r"variables\[0\]\.name"),
])
def test_a_value_of_another_type_deep_in_an_export_is_refused_naming_it(fmt, content, message):
    with pytest.raises(ImportFormatError, match=message):
        import_cases(json.dumps(content), fmt, source="export.json")


def test_nothing_is_lost_without_a_word():
    """An older bulk test (its summary at the top level) keeps its actions; a CSV row naming a new test without
    its key is refused; a cell numbering two steps alike, or an expected result without its step, skips its case."""
    older = [{"key": "A-1", "summary": "S", "steps": [{"action": "Open the page", "result": "shown"}]}]
    (scenario,) = import_cases(json.dumps(older), "xray-json").scenario_file.scenarios
    assert [(s.action, s.expected) for s in scenario.steps] == [("Open the page", "shown")]
    with pytest.raises(ImportFormatError, match="line 3: the test 'Second' has no Issue Key"):
        import_cases("Issue Key,Summary,Action,Result\r\nA-1,First,Open /,\r\n,Second,Click add,shown\r\n", "xray-csv")
    content = csv_export([["C1", "a", "S", "", "1. Open\n2. Click add\n2. Click save", ""],
                          ["C2", "b", "S", "", "1. Open\n2. Click", "3. shown"],
                          ["C3", "c", "S", "", "Open /", ""]])
    report = import_cases(content, "testrail-csv")
    assert [s.id for s in report.scenario_file.scenarios] == ["C3"]
    assert ["numbered 2" in report.skipped[0].reason, "numbered 3" in report.skipped[1].reason] == [True, True]
