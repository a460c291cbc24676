"""Expected results read as their claims, checked on a real page: inside the titled part they name, with their
polarity; a false claim fails at its step as an expectation."""

from __future__ import annotations

from pathlib import Path

from shared.settings import Settings
from tests.agent.pages_site import assert_failed_at, assert_passed, run_on_page

SHOP = """<!doctype html><html><body>
<h2>Reviews</h2>
<ul><li><b>Great value</b>, by Sam</li><li><b>Too small</b>, by Kim</li></ul>
<h2>Questions</h2>
<ul><li>Does it fold? asked by Tom</li></ul>
<button onclick="document.querySelector('ul').lastElementChild.remove()">Hide the last review</button>
</body></html>"""


def test_texts_said_to_appear_in_a_titled_part_are_checked_there(tmp_path: Path) -> None:
    record = run_on_page(SHOP, [{"action": "Look at the page",
                                 "expected": 'The review "Great value" by "Sam" appears in the "Reviews" list'}],
                         tmp_path)
    assert_passed(record)
    assert [op.kind for op in record.operations if op.ok][1:] == ["assert_in_section", "assert_in_section"]
    assert all(not r.unused for r in record.readings), record.readings


def test_who_a_text_is_by_is_checked_in_that_text_s_own_record(tmp_path: Path) -> None:
    grammar = Settings(expected_reader="grammar")
    said = {"action": "Look at the page", "expected": 'The review "Great value" by "Sam" appears in the Reviews list'}
    record = run_on_page(SHOP, [said], tmp_path / "sam", grammar)
    assert_passed(record)
    assert [op.kind for op in record.operations if op.ok][1:] == ["assert_in_section", "assert_in_row"]
    # "Kim" is in the Reviews list, but in another review's record: the claim fails
    kim = {"action": "Look at the page", "expected": 'The review "Great value" by "Kim" appears in the Reviews list'}
    assert_failed_at(run_on_page(SHOP, [kim], tmp_path / "kim", grammar), 1, "expectation")


def test_a_text_of_another_part_fails_the_claim_at_its_step(tmp_path: Path) -> None:
    # "Tom" is on the page, but under Questions: the claim is about the Reviews part
    record = run_on_page(SHOP, ['Click "Hide the last review"',
                                {"action": "Look at the page",
                                 "expected": 'The review "Does it fold?" by "Tom" appears in the "Reviews" list'}],
                         tmp_path)
    assert_failed_at(record, 2, "expectation")


def test_a_negated_clause_is_checked_absent(tmp_path: Path) -> None:
    steps = [{"action": 'Click "Hide the last review"',
              "expected": '"Great value" is still listed in the "Reviews" list, but "Too small" and "Kim" are not'}]
    assert_passed(run_on_page(SHOP, steps, tmp_path / "gone"))
    steps = [{"action": "Look at the page",
              "expected": '"Great value" is still listed in the "Reviews" list, but "Too small" and "Kim" are not'}]
    assert_failed_at(run_on_page(SHOP, steps, tmp_path / "there"), 1, "expectation")


TICKET_HEADER = """<!doctype html><html><body>
<div id="header"><a href="/">Lighthouse</a></div>
<h2><a href="#">#2</a> <span>assigned</span> <span>enhancement</span></h2>
<p>Was closed once, then reopened.</p>
</body></html>"""


def test_a_text_in_the_header_may_be_in_the_banner_or_in_a_heading_and_nowhere_else(tmp_path: Path) -> None:
    grammar = Settings(expected_reader="grammar")
    said = {"action": "Look at the page", "expected": 'The header shows "assigned enhancement" and "Lighthouse"'}
    assert_passed(run_on_page(TICKET_HEADER, [said], tmp_path / "said", grammar))
    closed = {"action": "Look at the page", "expected": 'The header shows "closed"'}  # in a paragraph only
    assert_failed_at(run_on_page(TICKET_HEADER, [closed], tmp_path / "closed", grammar), 1, "expectation")


LOGIN = """<!doctype html><html><body>
<form id="login-form" onsubmit="event.preventDefault(); err.hidden = false">
<p id="err" hidden>Please enter the correct username and password.</p>
<label>Username <input></label> <label>Password <input type="password"></label> <button>Log in</button></form>
</body></html>"""


def test_a_part_said_in_lower_case_words_is_that_part_shown_or_gone(tmp_path: Path) -> None:
    grammar = Settings(expected_reader="grammar")
    still = {"action": 'Click "Log in"', "expected": '"Please enter the correct username and password." appears and '
                                                     "the login form is still shown"}
    assert_passed(run_on_page(LOGIN, [still], tmp_path / "still", grammar))
    signup = {"action": 'Click "Log in"', "expected": "The signup form is still shown"}
    assert_failed_at(run_on_page(LOGIN, [signup], tmp_path / "signup", grammar), 1, "expectation")
