"""The corpus benchmark's scoring: the seed's metrics (a failing test is a positive) and the readability checks."""

from __future__ import annotations

import pytest

from bench.corpus.scoring import Expectation, Result, metrics, readability, scenario_block
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
