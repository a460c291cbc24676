"""The whole-sentence check: a step's words against what its operations said, seen from outside the reader."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from workers.agent.reading.coverage import ANY_OPERATION, IGNORABLE, Done, account, substitute


def test_a_step_that_used_every_word_is_whole() -> None:
    done = [Done('Type Franklin into the last name field', "last name", "Franklin")]
    assert account('Please type "Franklin" into the Last Name box', done).whole


def test_place_words_no_operation_used_are_named_in_one_run() -> None:
    done = [Done('Click the "More" button', "More")]
    coverage = account("Click the three-dots button in the bottom left corner of the invoice card", done)
    assert coverage.unused == ("three-dots", "bottom left corner of the invoice card")
    assert coverage.reason() == ('read only part of the sentence: "three-dots", "bottom left corner of the invoice card" are '
                                 "not used")


def test_a_quoted_text_no_operation_looked_for_is_not_used() -> None:
    done = [Done("Verify 'Apples' is shown", value="Apples", checks=True)]
    assert account('"Apples" and "Pears" are listed', done).unused == ('"Pears"',)


def test_a_negation_is_used_only_by_an_operation_that_denies() -> None:
    shown = [Done("Verify 'Saved' is shown", value="Saved", checks=True)]
    assert account('"Saved" is not shown', shown).unused == ("not",)
    gone = [Done("Verify 'Saved' is not shown", value="Saved", checks=True)]
    assert account('"Saved" is not shown', gone).whole


def test_an_order_or_a_look_is_never_read_past() -> None:
    done = [Done("Verify 'Total' is shown", value="Total", checks=True)]
    assert account('"Total" is shown in bold', done).unused == ("bold",)
    assert account('The first item shows "Total"', done).unused == ("first item",)


def test_a_step_that_did_nothing_used_no_verb() -> None:
    assert account("Click Save", []).unused == ("Click Save",)


def test_words_of_one_group_use_each_other() -> None:
    done = [Done("Type Bob into the Name field", "Name", "Bob")]
    assert account('Enter "Bob" in the Name box', done).whole
    assert not account('Enter "Bob" in the Name dropdown', done).whole


def test_an_examples_value_is_checked_as_the_step_ran_it() -> None:
    done = [Done("Type Coleman into the last name field", "last name", "Coleman")]
    sentence = substitute('Type "<lastName>" into the last name field', {"lastName": "Coleman"})
    assert sentence == 'Type "Coleman" into the last name field'
    assert account(sentence, done).whole
    assert not account(substitute('Type "<lastName>" into the last name field', {"lastName": "Franklin"}), done).whole


_NAMES = st.lists(st.sampled_from(["Alpha", "Beta", "Gamma", "Delta", "Omega"]), min_size=2, max_size=4, unique=True)


@given(_NAMES, st.randoms())
def test_reordering_a_list_keeps_what_is_used(names: list[str], rnd) -> None:
    done = [Done(f"Verify '{n}' is shown", value=n, checks=True) for n in names[:-1]]
    said = " and ".join(f'"{n}"' for n in names) + " are shown"
    shuffled = list(names)
    rnd.shuffle(shuffled)
    again = " and ".join(f'"{n}"' for n in shuffled) + " are shown"
    assert account(said, done).unused == (f'"{names[-1]}"',)
    assert account(again, done).unused == (f'"{names[-1]}"',)


@given(_NAMES)
def test_quoting_a_name_an_operation_used_keeps_it_used(names: list[str]) -> None:
    done = [Done(f"Verify '{n}' is shown", value=n, checks=True) for n in names]
    bare = ", ".join(names) + " are listed"
    quoted = ", ".join(f'"{n}"' for n in names) + " are listed"
    assert account(bare, done).whole and account(quoted, done).whole


@given(_NAMES, st.sampled_from(["not", "never", "no longer"]))
def test_adding_a_negation_is_never_read_past(names: list[str], negation: str) -> None:
    done = [Done(f"Verify '{n}' is shown", value=n, checks=True) for n in names]
    said = f'"{names[0]}" is {negation} shown'
    assert not account(said, done).whole
    denied = [Done(f"Verify '{names[0]}' is {negation} shown", value=names[0], checks=True)]
    assert account(said, denied).whole


def test_the_lists_hold_no_word_of_negation_place_order_or_look() -> None:
    meaningful = set("not no never none nor without top bottom left right above below under inside between next "
                     "first last second only every all bold red disabled selected hidden gone".split())
    assert not meaningful & (IGNORABLE | ANY_OPERATION)


def test_words_of_absence_use_each_other_and_never_a_presence() -> None:
    gone = [Done("Verify the dialog is gone", checks=True),
            Done("Verify the Sign in button is not shown", "Sign in", checks=True)]
    assert account('The dialog closes and the "Sign in" button is no longer shown', gone).whole
    shown = [Done("Verify the dialog is shown", checks=True),
             Done("Verify the Sign in button is visible", "Sign in", checks=True)]
    assert account('The dialog closes and the "Sign in" button is no longer shown', shown).unused == (
        "closes", "no longer")


def test_a_verb_of_doing_is_never_used_by_a_check_nor_one_of_seeing_by_an_action() -> None:
    checked = [Done("Verify 'Save' is shown", value="Save", checks=True)]
    assert account('Click "Save"', checked).unused == ("Click",)
    clicked = [Done("Click Save", "Save")]
    assert account('"Save" is shown', clicked).unused == ("shown",)


def test_a_quoted_text_is_used_whole_as_words_and_a_number_whole() -> None:
    unpaid = [Done("Verify 'Unpaid' is shown", value="Unpaid", checks=True)]
    assert account('"Paid" and "Unpaid" are shown', unpaid).unused == ('"Paid"',)
    typed = [Done("Type 50.12 into the Amount field", "Amount", "50.12")]
    assert account("Type 12.50 into the Amount field", typed).unused == ("12.50",)


def test_a_denial_is_never_used_by_a_text_an_operation_looked_for() -> None:
    both_shown = [Done("Verify 'Saved' is shown", value="Saved", checks=True),
                  Done("Verify 'Not found' is shown", value="Not found", checks=True)]
    assert account('"Saved" is not shown and "Not found" is shown', both_shown).unused == ("not",)


def test_a_kind_of_control_said_in_two_words_is_used_when_its_first_word_is() -> None:
    assert account('Click the "Yes" radio button', [Done("Click the Yes radio", "Yes")]).whole
    assert account('Click the "Yes" radio button', [Done("Click Yes", "Yes")]).unused == ("radio button",)


def test_a_word_of_absence_is_used_by_a_value_that_is_that_word_alone_and_any_more_by_a_denial() -> None:
    closed = [Done("Verify the Status shows 'Closed'", "Status", "Closed", checks=True)]
    assert account("The Status changes to Closed", closed).whole
    opened = [Done("Verify the Status shows 'Closed on Monday'", "Status", "Closed on Monday", checks=True)]
    assert account("The Status is not Closed", opened).unused == ("not Closed",)  # a value of several words: no word of it
    gone = [Done("Verify 'Draft' is not shown", value="Draft", checks=True)]
    assert account('"Draft" is not shown any more', gone).whole
    shown = [Done("Verify 'Draft' is shown", value="Draft", checks=True)]
    assert account('"Draft" is not shown any more', shown).unused == ("not shown any more",)


def test_a_value_uses_only_the_place_it_is_written_never_a_denial_or_a_predicate_elsewhere() -> None:
    set_closed = [Done('Type Closed into the Status field', "Status", "Closed"),
                  Done("Verify 'Invoice 7' is shown", value="Invoice 7", checks=True)]
    assert account('Set Status to Closed and verify "Invoice 7" is not shown', set_closed).unused == ("not",)
    hidden = [Done("Tick the Hidden checkbox", "Hidden"), Done("Verify 'Draft' is shown", value="Draft", checks=True)]
    assert account('Tick Hidden and verify "Draft" is hidden', hidden).unused == ("hidden",)
    # 'changes to' is said by a check; 'changes' alone, or a sign-in no operation did, is not
    shown = [Done("Verify 'Alpha' is shown", value="Alpha", checks=True)]
    assert account('Verify "Alpha" is shown and the text changes', shown).unused == ("changes",)
    assert account("Click Save and log in", [Done("Click Save", "Save")]).unused == ("log in",)


def test_signing_in_is_used_by_typing_a_password_and_a_verb_of_absence_by_the_element_it_clicks() -> None:
    signed = [Done("Type admin into the Username field", "Username", "admin"),
              Done("Type s3cret into the Password field", "Password", "s3cret"), Done("Click the Log in button", "Log in")]
    assert account('Sign in as "admin" with the password "s3cret"', signed).whole
    assert account('Sign in as "admin"', signed[:1]).unused == ("Sign in",)  # no password typed: not signed in
    closed = [Done("Click the Close button in the row of 'Welcome'", "Close")]
    assert account('Close the "Welcome" box', closed).unused == ("box",)
    # a word of absence said of what is seen is never used by a name clicked
    assert account('Click "Close" and the dialog is closed', closed).unused == ("dialog is closed",)


def test_a_title_word_a_closing_verb_and_a_sign_in_are_used_only_by_what_they_say() -> None:
    shown = [Done("Verify 'Report' is shown", value="Report", checks=True)]
    assert account('The page is titled "Report"', shown).unused == ("titled",)  # the title is no text anywhere
    dialog = [Done("Verify the Login dialog is shown", value="Login dialog", checks=True)]
    assert account('A dialog titled "Login" opens', dialog).whole
    clicks = [Done("Click Close", "Close"), Done("Click Save", "Save")]
    assert account('Click "Close", then never click "Save"', clicks).unused == ("never",)
    assert account('Tick "Closed" and close the filters', [Done("Tick Closed", "Closed"), Done("Click filters", "filters")]
                   ).unused == ("close",)
    typed = [Done("Type s3cret into the Password field", "Password", "s3cret")]
    assert account('Type "s3cret" into Password, then sign in', typed).unused == ("sign in",)  # nothing sent it


def test_a_form_left_empty_is_used_only_by_a_step_that_typed_nothing() -> None:
    submit = Done("Submit the form leaving it empty: Click the Add Owner button", "Add Owner")
    assert account("Submit the form leaving it empty", [submit]).whole
    typed = Done("Type Jane into the First Name field", "First Name", "Jane")
    assert account("Submit the form leaving it empty", [typed, submit]).unused == ("leaving it empty",)
    ticked = Done("Check the Terms checkbox", "Terms", fills=True)
    assert account("Submit the form leaving it empty", [ticked, submit]).unused == ("leaving it empty",)
