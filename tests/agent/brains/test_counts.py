"""Counts said of a list ('Four modules are listed, including "A"', 'Only "A" is left', '"A" is the only
dependency'): one assert_count on the list holding a quoted text, and the rest of the sentence read as before."""

from __future__ import annotations

import pytest

from shared.scenarios import ScenarioStep
from workers.agent.brains import BuiltinBrain
from workers.agent.language.counts import count_of


def intents(expected: str, action: str = "Look at the list") -> list[tuple[str, str | None, str | None]]:
    decision = BuiltinBrain().decide(ScenarioStep(action=action, expected=expected), 0)
    assert decision.unsupported is None, decision.unsupported
    return [(i.kind, i.target, i.value) for i in decision.intents]


@pytest.mark.parametrize("expected, wanted", [
    ('Four modules are listed, including "sqlite" and "email", and the counter reads "4 / 4"',
     [("assert_count", "sqlite", "Four modules"), ("assert_text", None, "sqlite"), ("assert_text", None, "email")]),
    ('Only "sqlite" is left in the list',
     [("assert_count", "sqlite", "one"), ("assert_text", None, "sqlite")]),
    ('Only "A" and "B" are shown',
     [("assert_count", "A", "two"), ("assert_text", None, "A"), ("assert_text", None, "B")]),
    ('The palette shows only the "network" category with the "mqtt in" node',
     [("assert_count", "network", "one category"), ("assert_text", None, "network"), ("assert_text", None, "mqtt in")]),
    ('"tiny-logger" is the only dependency listed under "Dependencies (1)"',
     [("assert_count", "tiny-logger", "one dependency"), ("assert_in_section", "Dependencies (1)", "tiny-logger")]),
    ('The rules list shows three rules: "high", "normal" and "otherwise"',
     [("assert_count", "high", "three rules"), ("assert_text", None, "high"), ("assert_text", None, "normal"),
      ("assert_text", None, "otherwise")]),
    # a row counted and described: the texts said with it are in its row
    ('Only one row is left: "writer" with the email "writer@example.com" and last name "Writer"',
     [("assert_count", "writer", "one row"), ("assert_in_row", "writer", "writer@example.com"),
      ("assert_in_row", "writer", "Writer")]),
    ('The page lists one row, on "Savings", with the notes "Monthly transfer" and a deposit of 500.00',
     [("assert_count", "Savings", "one row"), ("assert_text", None, "Savings"),
      ("assert_in_row", "Savings", "Monthly transfer"), ("assert_in_row", "Savings", "500.00")]),
])
def test_a_count_is_checked_on_the_list_holding_a_quoted_text(expected, wanted):
    found = intents(expected)
    assert [i for i in found if i[0] != "assert_value"] == wanted


def test_a_count_with_no_quoted_text_is_left_to_the_text_rules():
    assert intents("3 results are shown") == [("assert_text", None, "3 results")]


def test_count_words_start_with_the_number():
    assert [count_of(v) for v in ("Four modules", "12 rows", "one", "a single row", "several rows")] == [4, 12, 1, 1,
                                                                                                         None]


def test_the_number_words_are_the_same_in_generation_and_in_the_page_script():
    from workers.agent.execution.page_scripts import SETTLE_SCRIPT
    from workers.agent.language.counts import NUMBER_WORDS

    for word, number in NUMBER_WORDS.items():
        assert f" {word}: {number}," in SETTLE_SCRIPT or f" {word}: {number} }}" in SETTLE_SCRIPT, word


def test_a_part_without_a_verb_goes_with_a_verb_of_its_own_sentence_only():
    # "mqtt out" is shown with the category; "inject", after the ';', is the one gone
    assert intents('The palette shows the "network" category with the "mqtt in" and "mqtt out" nodes; "inject" is '
                   "no longer listed") == [("assert_text", None, "network"), ("assert_text", None, "mqtt in"),
                                           ("assert_text", None, "mqtt out"), ("assert_absent", None, "inject")]


def test_a_first_or_last_name_is_the_name_of_a_text_not_a_pick():
    assert intents('The "writer" row shows first name "Walter" and last name "Writer"') == [
        ("assert_in_row", "writer", "Walter"), ("assert_in_row", "writer", "Writer")]


@pytest.mark.parametrize("expected", ['More than two rows are shown: "A" and "B"', 'At least 3 results are listed, '
                                      'including "A"'])
def test_a_bound_is_no_count_and_is_refused(expected):
    decision = BuiltinBrain().decide(ScenarioStep(action="Look at the list", expected=expected), 0)
    assert decision.unsupported is not None and "exact count" in decision.unsupported


@pytest.mark.parametrize("expected", ['"A" is the only required field', 'The table has 2 rows for "Alice"'])
def test_only_with_an_adjective_and_a_count_of_a_subset_are_no_counts(expected):
    decision = BuiltinBrain().decide(ScenarioStep(action="Look at the list", expected=expected), 0)
    assert not any(i.kind == "assert_count" for i in decision.intents), decision.intents
