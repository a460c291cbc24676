"""An expected result the rules do not read, read as its claims: texts shown or not, in a titled part."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from shared.scenarios import ScenarioStep
from workers.agent.brains import BuiltinBrain
from workers.agent.reading.claims import Claim, clauses, read_claims


def test_each_quoted_text_is_a_claim_of_its_clause_s_polarity() -> None:
    assert read_claims('"Inbox" is still listed, but "Drafts" and "Spam" are not') == [
        Claim("Inbox", True), Claim("Drafts", False), Claim("Spam", False)]


def test_a_titled_place_holds_the_clause_s_texts_and_is_no_claim_itself() -> None:
    assert read_claims('The note "Call back" by "Ann" appears in the "Messages" panel') == [
        Claim("Call back", True, "Messages"), Claim("Ann", True, "Messages")]
    assert read_claims('"Ann" is shown in the Messages list') == [Claim("Ann", True, "Messages")]


def test_numbers_with_decimals_or_three_digits_are_claims_too() -> None:
    assert read_claims('"Fuel" shows 1,250.00 this month') == [Claim("Fuel", True), Claim("1,250.00", True)]


def test_names_alone_are_said_of_by_the_clause_after_them() -> None:
    assert clauses('\x010\x02, \x011\x02 and \x012\x02 are not shown') == ['\x010\x02 and \x011\x02 and \x012\x02 are not shown']
    assert clauses('\x010\x02 and \x011\x02') == []


_WORDS = st.lists(st.sampled_from(["Alpha", "Beta", "Gamma 2", "Delta", "Omega"]), min_size=1, max_size=4, unique=True)


@given(_WORDS, st.sampled_from(["is not shown", "are no longer listed", "have disappeared", "is missing"]))
def test_negating_a_result_flips_every_claim(names: list[str], negated: str) -> None:
    listed = " and ".join(f'"{n}"' for n in names)
    assert all(c.shown for c in read_claims(f"{listed} are shown"))
    assert [c.text for c in read_claims(f"{listed} {negated}")] == names
    assert not any(c.shown for c in read_claims(f"{listed} {negated}"))


@given(_WORDS, st.randoms())
def test_reordering_the_list_reorders_the_claims_only(names: list[str], rnd) -> None:
    shuffled = list(names)
    rnd.shuffle(shuffled)
    said = read_claims(" and ".join(f'"{n}"' for n in names) + ' appear in the "Inbox" box')
    again = read_claims(" and ".join(f'"{n}"' for n in shuffled) + ' appear in the "Inbox" box')
    assert sorted(map(repr, said)) == sorted(map(repr, again))


def decide(expected: str):
    return BuiltinBrain().decide(ScenarioStep(action="Click Save", expected=expected), 0)


def test_the_brain_reads_a_result_the_rules_refuse_as_its_claims_when_every_word_is_used() -> None:
    decision = decide('The note "Call back" by "Ann" appears in the "Messages" panel')
    assert decision.unsupported is None, decision.unsupported
    assert [(i.kind, i.target, i.value) for i in decision.intents[1:]] == [
        ("assert_in_section", "Messages", "Call back"), ("assert_in_section", "Messages", "Ann")]


@pytest.mark.parametrize(("expected", "unused"), [
    ('"Total" is shown in bold under the table', '"bold'),
    ('The orders are grouped under headings such as "Paid" and "Unpaid"', '"orders are grouped'),
])
def test_a_result_saying_more_than_its_texts_is_refused_naming_what_was_not_read(expected, unused) -> None:
    decision = decide(expected)
    assert decision.unsupported is not None and not decision.intents
    assert "read only part of the sentence" in decision.unsupported and unused in decision.unsupported


@pytest.mark.parametrize("expected", [
    '"Tips" is no longer in "Available" and "News" is not',  # a denial of a denial
    '"Inbox" but not "Junk" is shown',  # which is said of which
    '"Gone" is shown or not',  # alternatives
    '"Saved" may appear',
])
def test_a_polarity_not_read_exactly_is_no_reading(expected) -> None:
    assert read_claims(expected) == []


@pytest.mark.parametrize("expected", [
    '"Sam" is listed, not "Ann"',  # the denial stands alone after a comma
    '"Inbox" is shown and not "Spam"',
    '"Inbox" still exists and is not missing',  # two denials
    '"Inbox" is not hidden',
])
def test_a_denial_that_would_reach_another_text_or_deny_a_denial_is_no_reading(expected) -> None:
    assert read_claims(expected) == []


def test_a_word_of_denial_in_a_title_or_a_quoted_text_denies_nothing() -> None:
    assert read_claims('"Sam" is listed in the No Reply list') == [Claim("Sam", True, "No Reply")]
    assert read_claims('"Not found" is shown') == [Claim("Not found", True)]
