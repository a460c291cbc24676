"""Expected results that describe the page: each quoted text is shown, or after a negation it is not; a statement
that says more than that is refused whole."""

from __future__ import annotations

import pytest

from shared.scenarios import ScenarioStep
from workers.agent.brains import BuiltinBrain


def checks(expected: str, action: str = "Look at the list") -> list[tuple[str, str | None]]:
    decision = BuiltinBrain().decide(ScenarioStep(action=action, expected=expected), 0)
    assert decision.unsupported is None, decision.unsupported
    return [(i.kind, i.value) for i in decision.intents]


def refusal(expected: str) -> str:
    decision = BuiltinBrain().decide(ScenarioStep(action="Look at the list", expected=expected), 0)
    assert decision.unsupported is not None, decision.intents
    return decision.unsupported


DESCRIBED = [
    ('The suggestions list "Apples" and "Apricots" and do not list "Bananas"',
     [("assert_text", "Apples"), ("assert_text", "Apricots"), ("assert_absent", "Bananas")]),
    ('"Draft", "Sent" and "Archive" are listed under "Folders", "Spam" under "Other"',
     [("assert_in_section", "Draft"), ("assert_in_section", "Sent"), ("assert_in_section", "Archive"),
      ("assert_in_section", "Spam")]),
    ('"Inbox" is no longer listed under "Folders"', [("assert_not_in_section", "Inbox")]),
    ('"Tips" is now in "Chosen" and no longer in "Available"',
     [("assert_in_section", "Tips"), ("assert_not_in_section", "Tips")]),
    ('"Tips" has been removed from "Favourites"', [("assert_not_in_section", "Tips")]),
    ('The account page "Holiday Fund" opens with a balance of 1,250.00',
     [("assert_text", "Holiday Fund"), ("assert_text", "1,250.00")]),
    ('The page of order "#13" opens with the title "Blue mug" and the status "shipped"',
     [("assert_text", "#13"), ("assert_text", "Blue mug"), ("assert_text", "shipped")]),
    ('"Inbox" is still listed, but "Drafts" and "Old mail" are not',
     [("assert_text", "Inbox"), ("assert_absent", "Drafts"), ("assert_absent", "Old mail")]),
    ('The heading reads "Folders (3)" and "Junk" is no longer in the table',
     [("assert_text", "Folders (3)"), ("assert_absent", "Junk")]),
    ('"Junk" is no longer shown at the top of the window',  # not shown anywhere is not shown there
     [("assert_absent", "Junk")]),
    ('"Sent" is one of the rows', [("assert_text", "Sent")]),
    ('"Blue mug" is the first row of the table and the footer shows "3 items"',
     [("assert_row_at", "Blue mug"), ("assert_text", "3 items")]),
    ('The "Edit node" tray opens with "Wake up" in the Name field and a Repeat dropdown set to "none"',
     [("assert_text", "Edit node"), ("assert_value", "Wake up"), ("assert_value", "none")]),
]


@pytest.mark.parametrize(("expected", "ops"), DESCRIBED, ids=[e for e, _ in DESCRIBED])
def test_a_describing_statement_checks_each_text_shown_or_not(expected, ops):
    assert checks(expected) == ops


def test_a_check_said_as_an_operation_is_read_the_same_way():
    assert checks(None, 'Verify "Inbox" is listed and "Junk" is not') == [("assert_text", "Inbox"),
                                                                        ("assert_absent", "Junk")]


SAYS_MORE = [
    '"Drafts" and "Sent" appear in bold under "Folders"',  # a look
    'The dialog opens with an empty text area and a "Import" button, then "Saved" is not shown',  # denied: which?
    'Most rows have "Open" or "Closed" in the status column',  # alternatives, and "most" (every row is checked)
    '"Inbox" is no longer listed next to "Folders"',  # absent from beside a text only: cannot be checked
    'The commands change to "npm install x" and "pnpm install x", without a version number',
    'The row shows "Inbox" with 0 unread messages',  # a count not quoted
    '"Inbox" is shown instead of "Junk"',  # a contrast: which is absent
    '"Inbox" but not "Junk" is shown',
    '"Alice" no longer has role "Admin"',  # a negation with texts on both sides
    '"Alice" is removed from the list, leaving "Bob"',
    'The list shows everything except "Archived"',
]


@pytest.mark.parametrize("expected", SAYS_MORE)
def test_a_statement_that_says_more_than_which_texts_are_shown_is_refused(expected):
    refusal(expected)


def test_a_negation_with_no_text_of_its_own_is_refused():
    refusal('The message "Deleted 2 posts." is shown and neither post is in the table any more')
    assert "absent" in refusal('"Deleted 2 posts." is shown and no longer in the table')


def test_a_text_in_or_under_a_quoted_title_is_checked_in_the_part_the_title_heads() -> None:
    decision = BuiltinBrain().decide(ScenarioStep(
        action="Look at the list", expected='"Tips" is now in "Chosen" and no longer in "Available"'), 0)
    assert [(i.kind, i.target, i.value) for i in decision.intents] == [
        ("assert_in_section", "Chosen", "Tips"), ("assert_not_in_section", "Available", "Tips")]
    # a text changed from one to another is no place
    assert checks('The history says it changed from "Bob" to "Carol"') == [("assert_text", "Carol"), ("assert_text", "Bob")]


def test_the_controls_a_description_says_are_there_are_checked_visible_or_in_their_state() -> None:
    decision = BuiltinBrain().decide(ScenarioStep(action="Look at the page", expected=(
        'The "Import" dialog opens with a Password field, an empty Notes text area and a disabled "Import" button')), 0)
    assert [(i.kind, i.target, i.role_hint, i.value) for i in decision.intents] == [
        ("assert_text", None, None, "Import"), ("assert_state", "Password", "field", "visible"),
        ("assert_state", "Notes", "field", "empty"), ("assert_state", "Import", "button", "disabled")]
    assert refusal('The dialog opens with an empty text area')  # which one is not said


@pytest.mark.parametrize(("expected", "read"), [
    # "is not" after a part that said where: there too, for every text it goes with
    ('"Inbox" is listed under "Folders", "Sent" and "Archive" are not',
     [("assert_in_section", "Inbox"), ("assert_not_in_section", "Sent"), ("assert_not_in_section", "Archive")]),
    # a column named by a quoted text is not a title over a part of the page: the text is checked in the column
    ('"Ann" is shown in the "Owner" column', [("assert_in_column", "Ann")]),
    ('"Tips" and "Rent" are now in "Chosen" and no longer in "Available"',
     [("assert_in_section", "Tips"), ("assert_in_section", "Rent"), ("assert_not_in_section", "Tips"),
      ("assert_not_in_section", "Rent")]),
    ('"docs" is listed under "Labels" and "wontfix" is not listed',
     [("assert_in_section", "docs"), ("assert_not_in_section", "wontfix")]),
])
def test_review_readings_of_texts_in_titled_parts(expected, read) -> None:
    assert checks(expected) == read


@pytest.mark.parametrize("expected", [
    '"Tips" is removed from "Favourites" and "News" is not',  # a denial of a denial
    '"Tips" is no longer in "Available" and "News" is not',
    '"Ann" is listed in the Assignee dropdown',  # a control that says where, not a control said to be there
    'The "Starbucks" row shows "4.50" and a disabled Refund button',  # which row's button is not checked
    '"Alice" is listed with a disabled "Remove" button',  # which row's button is not said
    '"Tips" was removed from "Favourites" but "Rent" wasn\'t',  # a denial of a denial
])
def test_review_refusals_of_texts_in_titled_parts(expected) -> None:
    assert refusal(expected)


@pytest.mark.parametrize("expected, read", [
    ('"inject" and "debug" are listed in the palette again', [("assert_text", "inject"), ("assert_text", "debug")]),
    ('"Saved" is shown in the menu', [("assert_text", "Saved")]),
    # a place said with 'appears' is checked there
    ('"Inbox" is shown and "Sent" appears right above the form', [("assert_text", "Inbox"), ("assert_above", "Sent")]),
])
def test_a_text_shown_in_a_part_of_the_page_named_in_unquoted_words_is_shown(expected, read) -> None:
    assert checks(expected) == read


def test_a_text_shown_in_a_column_is_checked_in_that_column() -> None:
    assert checks('"Open" is listed in the status column') == [("assert_in_column", "Open")]


@pytest.mark.parametrize("expected", ['"Tips" is shown in the second dialog',
                                      'The first name in the list is "Walter"', 'The second panel shows "A" above "B"'])
def test_an_order_or_a_look_said_with_a_place_is_refused_not_read_past(expected) -> None:
    assert refusal(expected)


def test_a_placed_part_after_a_check_of_its_own_keeps_that_check() -> None:
    assert checks('The "Save" button is disabled and the form shows "Required" below "Email"') == [
        ("assert_state", "disabled"), ("assert_below", "Required")]


def test_a_field_named_first_name_is_a_field_not_a_pick() -> None:
    assert checks('The page "Change user" opens with "Walter" in the First name field') == [
        ("assert_text", "Change user"), ("assert_value", "Walter")]
