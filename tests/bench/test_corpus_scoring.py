"""The corpus benchmark's scoring: the seed's metrics (a failing test is a positive) and the readability checks."""

from __future__ import annotations

import pytest

from bench.corpus.__main__ import extra_files, load_half
from bench.corpus.scoring import (
    Expectation,
    Result,
    interval,
    metrics,
    readability,
    scenario_block,
    volatile_anchors,
    wrong_actions,
)
from shared.records import Locator, Node, Operation, Within
from shared.scenarios import Scenario


def result(fails_at: int | None, status: str, step: int | None = None) -> Result:
    return Result(Expectation("app", "dev", fails_at), "X-1", status, step, "action" if step else None, "why",
                  replay_green=True if status == "passed" else None)


def test_metrics_follow_the_seed_definitions():
    results = [
        result(None, "passed"), result(None, "passed"), result(None, "failed", 2),  # TN, TN, FP
        result(3, "failed", 3), result(3, "failed", 1), result(2, "failed", 4),  # AFC, AFB, AFA
        result(2, "passed"),  # FN
    ]
    m = metrics(results)
    assert (m["tp"], m["tn"], m["fp"], m["fn"]) == (3, 2, 1, 1)
    assert (m["afc"], m["afb"], m["afa"]) == (1, 1, 1)
    assert m["accuracy"] == pytest.approx(5 / 7, abs=1e-3)
    assert m["specificity"] == pytest.approx(2 / 3, abs=1e-3)
    assert m["sensitivity"] == pytest.approx(3 / 4, abs=1e-3)
    assert (m["aer"], m["her"]) == (pytest.approx(1 / 3, abs=1e-3), pytest.approx(1 / 3, abs=1e-3))
    assert m["smer"] == pytest.approx(2 / 3, abs=1e-3)
    assert m["true_accuracy"] == pytest.approx(3 / 7, abs=1e-3)
    assert m["variants_at_step"] == "1/4"
    assert [r.right() for r in results] == [True, True, False, True, False, False, False]


FEATURE = """Feature: app dev

  @X-1
  Scenario: Liking a post
    Given I am on "/"
    When I click "Like (3)"
    And I click the "Weekly report and the quarterly numbers for…"
    Then "Liked" is shown

  @X-2
  Scenario: Other
    Given I am on "/"
"""


def test_readability_finds_cut_steps_foreign_numbers_and_missing_quotes():
    scenario = Scenario(id="X-1", title="Liking a post",
                        steps=["Click Like", 'Open the "Weekly report" card', '"Liked" and "Thanks!" are shown'])
    problems = readability(scenario, FEATURE)
    assert any(p.startswith("cut step") for p in problems)
    assert any(p.startswith("number 3 the tester did not write") for p in problems)
    assert 'the tester\'s "thanks!" is not in the feature' in problems
    assert not any("weekly report" in p and "not in the feature" in p for p in problems)
    assert "X-2" not in scenario_block(FEATURE, "X-1") and "Other" in scenario_block(FEATURE, "X-2")


def test_a_number_of_the_scenario_s_start_address_is_the_tester_s():
    feature = 'Feature: app dev\n\n  @X-3\n  Scenario: A ticket\n    Given I am on "/ticket/2"\n    Then "Open" is shown\n'
    scenario = Scenario(id="X-3", title="A ticket", start="/ticket/2", steps=['"Open" is shown'])
    assert readability(scenario, feature) == []


def test_a_quoted_text_holding_quotes_is_read_whole_as_the_product_reads_it():
    feature = ('Feature: app dev\n\n  @X-4\n  Scenario: Facets\n    Given I am on "/"\n'
               '    Then the page shows "20 rows where priority = \\"Critical\\""\n'
               '    And every row has "Critical" in the "priority" column\n')
    scenario = Scenario(id="X-4", title="Facets", steps=[
        '"20 rows where priority = "Critical"" is shown and every row has "Critical" in the priority column'])
    assert readability(scenario, feature) == []


def test_a_quote_escaped_twice_in_an_examples_cell_is_the_tester_s_quote():
    feature = ('Feature: app dev\n\n  @X-5\n  Scenario Outline: Facets\n    Given I am on "/"\n'
               '    Then the page shows "<expectedText>"\n\n    Examples:\n      | expectedText |\n'
               '      | 20 rows where priority = \\\\"Critical\\\\" |\n')
    scenario = Scenario(id="X-5", title="Facets", steps=['"20 rows where priority = "Critical"" is shown'])
    assert readability(scenario, feature) == []


def test_an_interval_is_wilson_s_and_narrows_with_more_verdicts():
    assert interval(9, 30) == (0.17, 0.48)
    assert interval(0, 0) == (0.0, 0.0)
    low, high = interval(90, 300)
    assert 0.17 < low < 0.3 < high < 0.48


def test_a_variant_caught_by_a_refusal_is_not_caught_by_its_claim():
    refused = Result(Expectation("app", "dev", 2), "X-F1", "failed", 2, "unsupported", "not read", None)
    checked = Result(Expectation("app", "dev", 2), "X-F2", "failed", 2, "expectation", "'Oops' is not shown", None)
    nowhere = Result(Expectation("app", "dev", 2), "X-F3", "failed", 2, "action",
                     "Click the Save button under \"toolbar\": place 'toolbar' not found", None)
    assert refused.right() and refused.unreadable and not refused.caught_by_its_claim()
    assert nowhere.right() and not nowhere.caught_by_its_claim()
    assert checked.caught_by_its_claim() and not checked.unreadable
    m = metrics([refused, checked])
    assert (m["caught_by_claim"], m["unreadable"]) == ("1/2", 1)


def _done(step: int, kind: str, **names) -> Operation:
    return Operation(index=1, step_index=step - 1, kind=kind, description=f"{kind} it",
                     target=Node(id=1, tag="button", **names))


def test_an_action_on_another_element_than_the_step_s_target_is_a_wrong_action():
    operations = [_done(1, "click", a11y_name="Settings"), _done(2, "click", a11y_name="More actions"),
                  _done(2, "assert_text", text="anything")]
    assert wrong_actions({1: "settings", 2: "More actions"}, operations) == []
    found = wrong_actions({1: "Invoice menu"}, operations)
    assert found == ["step 1: 'click it' was done on 'settings', not on 'Invoice menu'"]
    assert wrong_actions({2: "More"}, operations) == ["step 2: 'click it' was done on 'more actions', not on 'More'"]
    unnamed = [_done(1, "click")]
    assert wrong_actions({1: "the gear beside votes"}, unnamed) == []  # an element with no name is not judged
    for kind in ("select", "choose"):  # a native select, or a dropdown drawn by a script
        drawn = [_done(1, kind, a11y_name="Action")]
        drawn[0].description, drawn[0].value = "Select Delete selected from the Action dropdown", "delete_selected"
        assert wrong_actions({1: "Delete selected"}, drawn) == []
    chosen = [_done(1, "select", a11y_name="Action")]
    chosen[0].value = "delete_selected"  # the option's value attribute
    chosen[0].description = "Select Delete selected from the Action dropdown"
    assert wrong_actions({1: "Delete selected"}, chosen) == []  # a choice is named by its option too
    assert wrong_actions({1: "Export"}, chosen) == [
        "step 1: 'Select Delete selected from the Action dropdown' was done on 'action', not on 'Export'"]


def test_a_step_s_target_and_an_extra_file_are_the_benchmark_s(tmp_path):
    extra = tmp_path / "trac.yaml"
    extra.write_text("scenarios:\n  - id: P-1\n    title: t\n    steps:\n      - action: Click Save\n"
                     "        target: Save\n      - Verify \"Saved\" is shown\n")
    scenario_file, expectations = load_half("trac", "extra", path=extra)
    assert expectations["P-1"].targets == {1: "Save"}
    assert scenario_file.scenarios[0].steps[0].action == "Click Save"
    assert extra_files([extra]) == {"trac": extra.resolve()}
    wrong = tmp_path / "nowhere.yaml"
    wrong.write_text("scenarios: []\n")
    with pytest.raises(SystemExit, match="name it <app>.yaml"):
        extra_files([wrong])


def test_a_target_said_by_its_role_and_accessible_name_is_judged_by_its_name(tmp_path):
    extra = tmp_path / "trac.yaml"
    extra.write_text("scenarios:\n  - id: P-1\n    title: t\n    steps:\n      - action: Click Save\n"
                     "        target: {role: button, name: Save}\n      - action: Click the gear\n"
                     "        target: {role: button, name: '', near: Login}\n")
    _, expectations = load_half("trac", "extra", path=extra)
    assert expectations["P-1"].targets == {1: "Save"}  # an element with no name is not told from another by it


def test_a_step_of_several_actions_is_right_when_one_was_done_on_its_target():
    radio = _done(1, "click", label="resolve", line="resolve as")  # a radio whose label goes on after it
    opener = _done(2, "click", a11y_name="Action")  # a dropdown clicked open, then its option picked
    picked = Operation(index=2, step_index=1, kind="pick", description="Pick Delete selected from the list",
                       value="Delete selected")
    both = [radio, opener, picked, _done(3, "check", label="Component"), _done(3, "uncheck", label="Type")]
    assert wrong_actions({1: "resolve as", 2: "Delete selected", 3: "Component"}, both) == []
    # none of the step's actions on its target: the first named one is the wrong one
    assert wrong_actions({3: "Status"}, both) == ["step 3: 'check it' was done on 'component', not on 'Status'"]


def test_a_name_holding_the_target_and_only_words_the_step_said_is_the_target():
    link = _done(1, "click", text="Milestone: 1.1 Beta")
    link.description = "Click 1.1 Beta milestone name"
    assert wrong_actions({1: "1.1 Beta"}, [link]) == []
    draft = _done(1, "click", text="Save draft")
    draft.description = "Click Save"
    assert wrong_actions({1: "Save"}, [draft]) == ["step 1: 'Click Save' was done on 'save draft', not on 'Save'"]


def test_a_place_or_another_dropdown_never_makes_another_element_the_target():
    archive = _done(1, "click", text="Delete archive")
    archive.description, archive.said = 'Click Delete in the row of "Archive"', "Delete"
    assert wrong_actions({1: "Delete"}, [archive]) == [
        "step 1: 'Click Delete in the row of \"Archive\"' was done on 'delete archive', not on 'Delete'"]
    severity = _done(1, "select", a11y_name="Severity")
    severity.description, severity.value = "Select High from the Priority dropdown", "High"
    assert wrong_actions({1: "Priority"}, [severity]) == [
        "step 1: 'Select High from the Priority dropdown' was done on 'severity', not on 'Priority'"]


def test_a_label_with_a_hint_after_its_colon_names_by_its_first_words():
    field = _done(1, "type", label="Description: You may use WikiFormatting here.")
    assert wrong_actions({1: "Description"}, [field]) == []
    other = _done(1, "type", label="Summary: one line")
    assert wrong_actions({1: "Description"}, [other]) == [
        "step 1: 'type it' was done on 'summary one line', not on 'Description'"]


def test_a_step_one_of_whose_actions_failed_is_not_judged():
    typed = _done(1, "type", label="Title")
    missing = Operation(index=2, step_index=0, kind="click", description="Click Save and publish", ok=False,
                        error="no element on the page matches 'Save and publish'")
    assert wrong_actions({1: "Save and publish"}, [typed, missing]) == []
    assert wrong_actions({1: "Save and publish"}, [typed]) == [
        "step 1: 'type it' was done on 'title', not on 'Save and publish'"]
    # a failed try and then an action done on another element: judged
    other = _done(1, "click", text="Save draft")
    assert wrong_actions({1: "Save and publish"}, [missing, other]) == [
        "step 1: 'click it' was done on 'save draft', not on 'Save and publish'"]


def test_a_text_with_a_colon_is_never_named_by_its_first_words():
    shown = _done(1, "click", text="Status: Closed")
    assert wrong_actions({1: "Status"}, [shown]) == ["step 1: 'click it' was done on 'status closed', not on 'Status'"]


def test_the_tomorrow_check_flags_dates_times_and_counts_the_tester_did_not_write():
    scenario = Scenario(id="S-1", title="Reply to a thread", start="/", steps=[
        {"action": 'Open the thread "Weekly sync"', "expected": 'The reply "Posted at 10:30" is shown'}])
    features = "\n".join([
        "  @S-1", "  Scenario Outline: Reply to a thread",
        '    When I click "dana" in the item of "Mar. 3, 2027"',
        '    Then the page shows "<expectedReply>"', "    Examples:", "      | expectedReply |",
        "      | Posted at 10:30 |", "      | 3 minutes ago |"])
    row = Operation(index=1, step_index=0, kind="click", description="",
                    locator=Locator(strategy="role", role="link", value="dana",
                                    within=Within(css="li", text="Comments (4)")))
    problems = volatile_anchors(scenario, features, [row])
    assert problems == [
        'date "Mar. 3, 2027" the tester did not write: When I click "dana" in the item of "Mar. 3, 2027"',
        'relative time "3 minutes ago" the tester did not write: | 3 minutes ago |',
        'counter "(4)" in the locator of step 1: Comments (4)',
    ]  # "10:30" is the tester's own
    assert volatile_anchors(scenario, features.replace("Mar. 3, 2027", "Weekly sync").replace(
        "| 3 minutes ago |", ""), []) == []


def test_a_text_the_tester_wrote_with_a_placeholder_is_theirs_as_each_data_row_renders_it():
    scenario = Scenario(id="S-2", title="Search", start="/", steps=[
        {"action": 'Search for "<name>"', "expected": '"Found <count> rows" is shown'}],
        data=[{"name": "Ann", "count": "10"}, {"name": "Bo", "count": "9"}])
    features = "\n".join([
        "  @S-2", "  Scenario Outline: Search", '    When I search for "<name>"', '    Then the page shows "<found>"',
        "    Examples:", "      | name | found |", "      | Ann | Found 10 rows |", "      | Bo | Found 9 rows |"])
    assert readability(scenario, features) == []
    assert volatile_anchors(scenario, features, []) == []
    other = features.replace("Found 9 rows", "Found 12 rows")
    assert volatile_anchors(scenario, other, []) == ['counter "12 rows" the tester did not write: | Bo | Found 12 rows |']
    assert readability(scenario, other) != []
