"""The builtin brain: sentences into intents, no browser, no model."""

from __future__ import annotations

from typing import Any

import pytest

from shared.records import ActionKind, Decision, Intent, Node, Operation, PageSnapshot
from shared.scenarios import ScenarioStep
from workers.agent.brains import Brain, BuiltinBrain
from workers.agent.brains.builtin import unread_words
from workers.agent.brains.clauses import split_clauses
from workers.agent.brains.values import is_placeholder_option, sample_from_pattern, value_for
from workers.agent.language.phrases import Sentence, parse_key

EMPTY = PageSnapshot(url="http://app/", title="", nodes=[Node(id=0, tag="body")])


def I(kind: ActionKind, description: str, target=None, role=None, value=None, param=None, **place) -> Intent:  # noqa: E743
    return Intent(kind=kind, description=description, target=target, role_hint=role, value=value, param=param, **place)


def doing(words: str, wanted: list[Intent]) -> list[Intent]:
    """The intents of a form's whole as they say the sentence's words they carry out ('Search for Davis: ...')."""
    return [i.model_copy(update={"description": f"{words}: {i.description}"}) for i in wanted]


def decide(action: str, expected: str | None = None, page: PageSnapshot = EMPTY, row=None) -> Decision:
    return BuiltinBrain(row=row).decide(ScenarioStep(action=action, expected=expected), 0, page, [])


def intents(action: str, expected: str | None = None, page: PageSnapshot = EMPTY, row=None) -> list[Intent]:
    decision = decide(action, expected, page, row)
    assert decision.unsupported is None, decision.unsupported
    assert decision.step_done
    return decision.intents


def unsupported(action: str, expected: str | None = None, page: PageSnapshot = EMPTY) -> str:
    decision = decide(action, expected, page)
    assert decision.unsupported, decision.intents
    assert decision.intents == []
    return decision.unsupported


# --- single sentences ----------------------------------------------------------------------

SENTENCES: list[tuple[str, list[Intent]]] = [
    # click
    ("Click Find Owner", [I("click", "Click Find Owner", "Find Owner")]),
    ("Click the 'Add Owner' button", [I("click", "Click the Add Owner button", "Add Owner", "button")]),
    ("Click on the George Franklin link", [I("click", "Click the George Franklin link", "George Franklin", "link")]),
    ("Press the Submit button", [I("click", "Click the Submit button", "Submit", "button")]),
    ("Tap “Continue”", [I("click", "Click Continue", "Continue")]),
    # "for" after a name is left to scoring, which reads "Leo" as a qualifier of "Edit Pet" (row headers count)
    ("Click Edit Pet for Leo", [I("click", "Click Edit Pet for Leo", "Edit Pet for Leo")]),
    ("Click the Edit button in the Leo row",
     [I("click", 'Click the Edit button in the row of "Leo"', "Edit", "button", anchor="Leo")]),
    ('Pick "Mobile app" in the value dropdown of the Component row',
     [I("select", 'Select Mobile app from the value dropdown in the row of "Component"', "value", "dropdown",
        "Mobile app", anchor="Component")]),
    ("When I click the Save button.", [I("click", "Click the Save button", "Save", "button")]),
    ("The user clicks \"Sign in\"", [I("click", "Click Sign in", "Sign in")]),
    ("Click on the owner's 'Edit' link", [I("click", "Click the owner's Edit link", "owner's Edit", "link")]),
    # fill
    ("Type Franklin into the last name field",
     [I("fill", "Type Franklin into the last name field", "last name", "field", "Franklin")]),
    ("Enter 'Franklin' in Last name", [I("fill", "Type Franklin into the Last name field", "Last name", "field", "Franklin")]),
    ("Fill Last name with Franklin", [I("fill", "Type Franklin into the Last name field", "Last name", "field", "Franklin")]),
    ("Fill in the last name field with Franklin",
     [I("fill", "Type Franklin into the last name field", "last name", "field", "Franklin")]),
    ("Set City to Madison", [I("fill", "Type Madison into the City field", "City", "field", "Madison")]),
    ("Input 42 in Age", [I("fill", "Type 42 into the Age field", "Age", "field", "42")]),
    ('Type "Tom and Jerry" into the Name field', [I("fill", "Type Tom and Jerry into the Name field", "Name", "field", "Tom and Jerry")]),
    ("Type 'x' into the name field in the Pet section",
     [I("fill", 'Type x into the name field under the "Pet" section', "name", "field", "x", section="Pet")]),
    ("Clear the City field", [I("clear", "Clear the City field", "City", "field", None)]),
    # select
    ("Select Dog from the Type dropdown", [I("select", "Select Dog from the Type dropdown", "Type", "dropdown", "Dog")]),
    ("Select 'dog' as the type", [I("select", "Select dog from the type dropdown", "type", "dropdown", "dog")]),
    ("Choose cat in Type", [I("select", "Select cat from the Type dropdown", "Type", "dropdown", "cat")]),
    ("Pick the Large option from Size", [I("select", "Select Large from the Size dropdown", "Size", "dropdown", "Large")]),
    ("Set the Type dropdown to dog", [I("select", "Select dog from the Type dropdown", "Type", "dropdown", "dog")]),
    # check / uncheck
    ("Check Remember me", [I("check", "Check the Remember me checkbox", "Remember me", "checkbox")]),
    ("Tick the newsletter checkbox", [I("check", "Check the newsletter checkbox", "newsletter", "checkbox")]),
    ("Uncheck Notify the owner by email",
     [I("uncheck", "Uncheck the Notify the owner by email checkbox", "Notify the owner by email", "checkbox")]),
    ("Select the Express radio button", [I("check", "Check the Express radio", "Express", "radio")]),
    # press
    ("Press Enter", [I("press", "Press Enter", value="Enter")]),
    ("Press Tab in the last name field", [I("press", "Press Tab in the last name field", "last name", "field", "Tab")]),
    ("Hit Escape", [I("press", "Press Escape", value="Escape")]),
    ("Press the down arrow key", [I("press", "Press ArrowDown", value="ArrowDown")]),
    ("Press Ctrl+A", [I("press", "Press Control+A", value="Control+A")]),
    # goto
    ("Go to /owners/find", [I("goto", "Go to /owners/find", value="/owners/find")]),
    ("Open http://host:8080/path?q=1", [I("goto", "Go to http://host:8080/path?q=1", value="http://host:8080/path?q=1")]),
    ("Navigate to /vets", [I("goto", "Go to /vets", value="/vets")]),
    ("Visit /", [I("goto", "Go to /", value="/")]),
    ("Given I am on /owners", [I("goto", "Go to /owners", value="/owners")]),
    # pages by name: a click on a link
    ("Go to the Find Owners page", [I("click", "Click the Find Owners link", "Find Owners", "link")]),
    ("Open the Veterinarians page", [I("click", "Click the Veterinarians link", "Veterinarians", "link")]),
    ("Navigate to the vets page", [I("click", "Click the vets link", "vets", "link")]),
    ("Open the Add Owner form", [I("click", "Click Add Owner", "Add Owner")]),
    ("Go to the 'Find Owners' screen", [I("click", "Click the Find Owners link", "Find Owners", "link")]),
    # assert_text
    ("Verify 'George Franklin' is shown", [I("assert_text", "Verify 'George Franklin' is shown", value="George Franklin")]),
    ("Check that the page shows Owner Information",
     [I("assert_text", "Verify 'Owner Information' is shown", value="Owner Information")]),
    ("Verify the text 'has not been found' is displayed",
     [I("assert_text", "Verify 'has not been found' is shown", value="has not been found")]),
    ("Expect 'X' to be visible", [I("assert_text", "Verify 'X' is shown", value="X")]),
    ("the page contains Welcome", [I("assert_text", "Verify 'Welcome' is shown", value="Welcome")]),
    ("Owner Information is displayed", [I("assert_text", "Verify 'Owner Information' is shown", value="Owner Information")]),
    ("Then I should see Owner Information", [I("assert_text", "Verify 'Owner Information' is shown", value="Owner Information")]),
    ("Verify 'A' and 'B' are shown", [I("assert_text", "Verify 'A' is shown", value="A"), I("assert_text", "Verify 'B' is shown", value="B")]),
    # assert_value
    ("Verify the Telephone shows 6085551023",
     [I("assert_value", "Verify the Telephone shows '6085551023'", "Telephone", value="6085551023")]),
    ("Verify that the City field contains Madison",
     [I("assert_value", "Verify the City field shows 'Madison'", "City", "field", "Madison")]),
    ("the Name is 'George Franklin'", [I("assert_value", "Verify the Name shows 'George Franklin'", "Name", value="George Franklin")]),
    ("Verify the value of Telephone is 6085551023",
     [I("assert_value", "Verify the Telephone shows '6085551023'", "Telephone", value="6085551023")]),
    ("Expect the City to be Madison", [I("assert_value", "Verify the City shows 'Madison'", "City", value="Madison")]),
    ("Check the Telephone shows 6085551023",
     [I("assert_value", "Verify the Telephone shows '6085551023'", "Telephone", value="6085551023")]),
    ('Verify "Madison" is shown in the City field',
     [I("assert_value", "Verify the City field shows 'Madison'", "City", "field", "Madison")]),
    ("Verify the City shows Sun Prairie", [I("assert_value", "Verify the City shows 'Sun Prairie'", "City", value="Sun Prairie")]),
    ("Verify the City should be 'Madison or Monona'",
     [I("assert_value", "Verify the City shows 'Madison or Monona'", "City", value="Madison or Monona")]),
    ("Verify 'Franklin' is shown in the results table",
     [I("assert_text", "Verify 'Franklin' is shown", value="Franklin")]),
    ("Verify 'No owners found' is shown", [I("assert_text", "Verify 'No owners found' is shown", value="No owners found")]),
    ("Type 'an invalid email' into Email",
     [I("fill", "Type an invalid email into the Email field", "Email", "field", "an invalid email")]),
    ('Type "x@" into Email', [I("fill", "Type x@ into the Email field", "Email", "field", "x@")]),
    ("Select 'the first' from Type", [I("select", "Select the first from the Type dropdown", "Type", "dropdown", "the first")]),
    ("Check Send a reminder", [I("check", "Check the Send a reminder checkbox", "Send a reminder", "checkbox")]),
    ("Click the Add Visit button", [I("click", "Click the Add Visit button", "Add Visit", "button")]),
    ("Open /oups", [I("goto", "Go to /oups", value="/oups")]),
    ("Return to the Find Owners page", [I("click", "Click the Find Owners link", "Find Owners", "link")]),
    ("Type Jane into the first name field", [I("fill", "Type Jane into the first name field", "first name", "field", "Jane")]),
    ("Click the 'Last' button", [I("click", "Click the Last button", "Last", "button")]),
]  # fmt: skip


@pytest.mark.parametrize(("sentence", "expected"), SENTENCES, ids=[s for s, _ in SENTENCES])
def test_sentence(sentence: str, expected: list[Intent]) -> None:
    assert intents(sentence) == expected


# --- several operations in one sentence ----------------------------------------------------------


def test_and_followed_by_a_verb_splits() -> None:
    assert intents("Enter Franklin in the last name field and click Find Owner") == [
        I("fill", "Type Franklin into the last name field", "last name", "field", "Franklin"),
        I("click", "Click Find Owner", "Find Owner"),
    ]


def test_commas_and_then_split() -> None:
    assert intents("Type 'a' into X, type 'b' into Y, then click Z") == [
        I("fill", "Type a into the X field", "X", "field", "a"),
        I("fill", "Type b into the Y field", "Y", "field", "b"),
        I("click", "Click Z", "Z"),
    ]


@pytest.mark.parametrize(
    ("text", "clauses"),
    [
        ("Click A and then click B", ["Click A", "click B"]),
        ("Click A then click B", ["Click A", "click B"]),
        ("Click A; click B", ["Click A", "click B"]),
        ("Click A, and verify 'x' is shown", ["Click A", "verify \x010\x02 is shown"]),
        ("Type rock and roll into Genre", ["Type rock and roll into Genre"]),  # 'roll' is no verb
        ("Type 'a and click b' into X", ["Type \x010\x02 into X"]),  # never inside quotes
        ("Fill in the form and submit it", ["Fill in the form", "submit it"]),
        ("Type 'x' into A and I click B", ["Type \x010\x02 into A", "I click B"]),
    ],
)
def test_split_rules(text: str, clauses: list[str]) -> None:
    assert split_clauses(Sentence(text).masked) == clauses


def test_quoted_values_keep_conjunctions_and_punctuation() -> None:
    assert intents("Type 'a, then b; and c' into Notes and press Enter") == [
        I("fill", "Type a, then b; and c into the Notes field", "Notes", "field", "a, then b; and c"),
        I("press", "Press Enter", value="Enter"),
    ]


def test_fill_then_check_that_is_an_assertion() -> None:
    assert intents("Fill City with Madison and check that the page shows Saved") == [
        I("fill", "Type Madison into the City field", "City", "field", "Madison"),
        I("assert_text", "Verify 'Saved' is shown", value="Saved"),
    ]


def test_several_statements_joined_by_and() -> None:
    assert intents("Verify 'A' is shown and 'B' is displayed") == [
        I("assert_text", "Verify 'A' is shown", value="A"),
        I("assert_text", "Verify 'B' is shown", value="B"),
    ]


# --- the expected cell -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("cell", "texts"),
    [
        ("'Owner Information' and 'George Franklin' are shown", ["Owner Information", "George Franklin"]),
        ('"Betty Davis", "Harold Davis" and "Jean Coleman" are displayed', ["Betty Davis", "Harold Davis", "Jean Coleman"]),
        ('"Something happened..." is shown', ["Something happened..."]),
        ("Owner Information is visible", ["Owner Information"]),
        ("the page shows Owner Information", ["Owner Information"]),
        ("shows 'New Owner Created'", ["New Owner Created"]),
        ("'Saved'", ["Saved"]),
        ("Verify 'A' is shown", ["A"]),
        ("Owner Information is shown and George Franklin is shown", ["Owner Information", "George Franklin"]),
        ("“Welcome” appears", ["Welcome"]),
    ],
)
def test_expected_cell_texts(cell: str, texts: list[str]) -> None:
    got = intents("Click Find Owner", cell)
    assert got[0] == I("click", "Click Find Owner", "Find Owner")
    assert got[1:] == [I("assert_text", f"Verify '{t}' is shown", value=t) for t in texts]


def test_expected_cell_value_check() -> None:
    assert intents("Click Update", "the City shows Madison")[1:] == [
        I("assert_value", "Verify the City shows 'Madison'", "City", value="Madison")
    ]


@pytest.mark.parametrize(
    ("cell", "reason"),
    [
        ("the same page loads", "names no particular page"),
        ("the user stays on the previous page", "names no particular page"),
        ("the form is valid", "not an element with a value"),
        ("it works", "states nothing"),
        ("Click X", "must be something to check"),
        ("'Gone' is shown or not", "cannot tell which text must be absent"),
    ],
)
def test_expected_cell_with_nothing_checkable(cell: str, reason: str) -> None:
    message = unsupported("Click Find Owner", cell)
    assert message.startswith(f"expected result {cell!r}")
    assert reason in message


# --- placeholders ------------------------------------------------------------------------------------

ROW = {"lastName": "Franklin", "city": "Madison", "first": "George"}


def test_placeholder_value_carries_its_column() -> None:
    assert intents("Type <lastName> into the last name field", row=ROW) == [
        I("fill", "Type Franklin into the last name field", "last name", "field", "Franklin", "lastName")
    ]


def test_quoted_placeholder_and_assertions() -> None:
    assert intents("Fill City with '<city>'", "the City shows <city>", row=ROW) == [
        I("fill", "Type Madison into the City field", "City", "field", "Madison", "city"),
        I("assert_value", "Verify the City shows 'Madison'", "City", value="Madison", param="city"),
    ]
    assert intents("Verify <lastName> is shown", row=ROW) == [
        I("assert_text", "Verify 'Franklin' is shown", value="Franklin", param="lastName")
    ]


def test_placeholder_inside_a_longer_value_keeps_its_wording_and_in_a_target_is_substituted_only() -> None:
    assert intents("Type '<first> <lastName>' into Name and click <lastName>", row=ROW) == [
        I("fill", "Type George Franklin into the Name field", "Name", "field", "George Franklin",
          template="<first> <lastName>"),
        I("click", "Click Franklin", "Franklin"),
    ]
    assert intents("Click Go", 'The text "Moved to <city>" is shown', row=ROW)[1] == I(
        "assert_text", "Verify 'Moved to Madison' is shown", value="Moved to Madison", template="Moved to <city>")


def test_placeholder_without_a_column() -> None:
    message = unsupported("Type <zip> into Zip")
    assert message == "'Type <zip> into Zip': <zip> has no value: the data row has no column 'zip'"


# --- refusals ----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("sentence", "reason"),
    [
        ("Make sure everything works", "states nothing"),
        ("Drag the slider to 50%", "dragging is not supported"),
        ("Scroll to the bottom of the table", "within a part of the page"),
        ("Click", "names nothing to click"),
        ("Click ''", "names no element"),
        ("Type Franklin", "which field"),
        ("Everything works", "no rule understands it"),
        ("Verify the error message is displayed", "describes something"),
        ("Right-click the row", "right clicks"),
        ("Verify the URL contains the ticket number", "no part of an address"),
        ("Enter the name Bob", "which field"),  # a description of a value, never typed as it is
        # a row by its order is never a row holding the word "second"
        ('Click "Edit" in the second row', "a row said by its order"),
        ('In the second row of the table, click "Edit"', "a row said by its order"),
        ("Type a valid email", "which field"),
        ('Under "Billing address", type "Main St"', "which field"),  # a heading is no field
        ('In the "Savings" card, type "100"', "which field"),
        ("Type shoes to search", "which field"),  # more than a text to type
        ("Search for Davis", "no search field"),  # the empty page has none
        ("Fill in the form with valid values", "no form"),
        # absence checks and descriptions of state
        ("Verify no error is shown", "absent"),
        ("Verify nothing is shown", "absent"),
        ("Every row has been deleted", "describes something"),  # never the text "every row" absent
        ("Verify the page has loaded", "state of the page"),
        ("Verify the page has finished loading", "state of the page"),
        ("Verify there is no error", "absent"),
        ("Verify there is an error", "names no element"),
        ("Verify it is correct", "names no element"),
        ("Then I should see no results", "absent"),
        # value checks that are no value checks
        ('Verify "Franklin" is highlighted', "quoted text, not an element"),
        ('Verify "Franklin" is shown at the top', "not where, how"),
        ('Verify "Franklin" is shown in red', "not where, how"),
        ('Verify "Franklin" is shown within 2 seconds', "not where, how"),
        ("Verify the City should be Madison or Monona", "not a single literal value"),
        ("Verify the City shows Madison in the header", "not a single literal value"),
        ("Verify the Total is greater than 10", "not a single literal value"),
        ('Verify "Madison" is shown in the City field and the Name field', "names several fields"),
        ('Verify "A" and "B" are shown in the City field', "a field shows one value"),
        ("Verify the City or the Town shows Madison", "more than one element"),
        # states said of no element, or of several
        ("Verify it is disabled", "names no element"),
        ("Verify the page is empty", "not an element with a state"),
        ("Verify the Save and the Cancel buttons are disabled", "more than one element"),
        # descriptions typed or selected instead of values
        ("Type an invalid email into Email", "'an invalid email' describes a value instead of giving it"),
        ("Enter today's date in Birth Date", "describes a value"),
        ("Set City to something valid", "describes a value"),
        ("Fill Name with a random name", "describes a value"),
        ("Select the first option from Type", "describes an option"),
        ("Choose any type from the Type dropdown", "describes an option"),
        ("Set the Type dropdown to a valid option", "describes an option"),
        ("Fill in the form with invalid values", "'invalid values' describes values"),
        ("Fill in the form with wrong data", "describes values"),
        ("Search for an existing owner", "describes a search text"),
        ("Click any link", "at random"),
        ("Select another option", "at random"),
        # navigation guesses
        ("Open a new tab", "opening an empty tab"),
        ("Open a new browser window", "opening an empty tab"),
        ("Wait 5 seconds", "waiting a fixed time"),
        ("Wait for the page to load", "waiting a fixed time"),
        ("Upload notes.txt", "which file field"),
        ("Check the result", "announces a check but says nothing to check"),
        ("Go to a page", "names no particular page"),
        ("Open a dialog", "names no particular page"),
    ],
)
def test_unsupported_names_the_sentence(sentence: str, reason: str) -> None:
    message = unsupported(sentence)
    assert message.startswith(repr(sentence) + ": ")
    assert reason in message


def test_unsupported_clause_names_clause_and_sentence() -> None:
    assert unsupported("Click X and drag the card").startswith("'drag the card' (in 'Click X and drag the card'): dragging")


def test_builtin_is_a_brain() -> None:
    assert isinstance(BuiltinBrain(), Brain)


# --- high-level intents on hand-built pages ------------------------------------------------------------------


def snapshot(*specs: dict[str, Any]) -> PageSnapshot:
    """Nodes in document order; ids from 1 (0 is the body)."""
    nodes = [Node(id=0, tag="body")]
    for number, spec in enumerate(specs, start=1):
        spec = dict(spec)
        if spec.get("tag") in ("input", "select", "textarea", "button") or spec.get("role") in ("link", "button"):
            spec.setdefault("operable", True)
        nodes.append(Node(id=number, parent=spec.pop("parent", 0), **spec))
    return PageSnapshot(url="http://app/page", title="Page", nodes=nodes)


def owner_form(**first_name: Any) -> PageSnapshot:
    return snapshot(
        dict(tag="a", role="link", text="Find Owners"),  # 1
        dict(tag="form", context="New Owner", id_attr="add-owner-form"),  # 2
        dict(tag="input", input_type="text", label="First Name", name_attr="firstName", form=2, required=True, **first_name),
        dict(tag="input", input_type="text", label="Last Name:", name_attr="lastName", form=2),  # 4
        dict(tag="input", input_type="tel", label="Telephone", pattern="[0-9]{10}", maxlength=10, form=2),  # 5
        dict(tag="input", input_type="text", label="Mobile", maxlength=7, form=2),  # 6
        dict(tag="input", input_type="date", label="Birth Date", max="2019-06-30", form=2),  # 7
        dict(tag="select", input_type="select", label="Type", options=["-- choose --", "bird", "cat"], value="", form=2),
        dict(tag="input", input_type="checkbox", label="I accept the terms", required=True, checked=False, form=2),
        dict(tag="input", input_type="checkbox", label="Newsletter", checked=False, form=2),  # 10: optional, left
        dict(tag="textarea", input_type="textarea", label="Notes", value="already here", form=2),  # 11: not empty
        dict(tag="input", input_type="text", placeholder="Email address", form=2),  # 12: no label
        dict(tag="button", role="button", text="Cancel", input_type="button", form=2),  # 13
        dict(tag="button", role="button", text="Add Owner", form=2),  # 14
    )


OWNER_FILL = [
    I("fill", "Type Jane into the First Name field", "First Name", "field", "Jane"),
    I("fill", "Type Doe into the Last Name field", "Last Name", "field", "Doe"),
    I("fill", "Type 5550100123 into the Telephone field", "Telephone", "field", "5550100123"),
    I("fill", "Type 5550100 into the Mobile field", "Mobile", "field", "5550100"),
    I("fill", "Type 2019-06-30 into the Birth Date field", "Birth Date", "field", "2019-06-30"),
    I("select", "Select bird from the Type dropdown", "Type", "dropdown", "bird"),
    I("check", "Check the I accept the terms checkbox", "I accept the terms", "checkbox"),
    I("fill", "Type user@example.com into the Email address field", "Email address", "field", "user@example.com"),
]


FILLED = "Fill in the form, every empty field, with valid values"  # what a form filled says it did


@pytest.mark.parametrize(
    ("sentence", "said"),
    [("Fill in the form with valid values", FILLED),
     ("Fill the owner form with valid data", "Fill in the owner form, every empty field, with valid data"),
     ("Complete the form", FILLED), ("Fill out all the fields", FILLED)],
)  # fmt: skip
def test_fill_form(sentence: str, said: str) -> None:
    assert intents(sentence, page=owner_form()) == doing(said, OWNER_FILL)


def test_a_form_s_whole_says_only_the_words_the_page_bears_out() -> None:
    # the form filled is named by the step's words only when its own words hold them all: "billing", "not" and "owner"
    # are left for the whole-sentence check to find unused
    assert intents("Fill in the billing form, not the owner form", page=owner_form())[0].description.startswith(
        "Fill in the form, every empty field")
    assert intents("Fill in the owner form", page=owner_form())[0].description.startswith(
        "Fill in the owner form, every empty field")
    # a search says so only of a form that is one ("Find Owners"); a form that is no search says nothing of it
    assert intents("Search for Davis", page=search_page())[0].description.startswith("Search for Davis: ")
    newsletter = snapshot(dict(tag="form", context="Newsletter"),
                          dict(tag="input", input_type="text", label="Your email", form=1),
                          dict(tag="button", role="button", text="Subscribe", input_type="submit", form=1))
    assert intents("Search for Davis", page=newsletter)[0].description == "Type Davis into the Your email field"


def test_fill_form_and_submit_it() -> None:
    got = intents("Fill in the form with valid values and submit it", page=owner_form())
    assert got == [*doing(FILLED, OWNER_FILL),
                   *doing("Submit the form", [I("click", "Click the Add Owner button", "Add Owner", "button")])]


def test_fill_form_skips_filled_controls_and_is_deterministic() -> None:
    page = owner_form(value="George")
    first = intents("Fill in the form with valid values", page=page)
    assert first == doing(FILLED, OWNER_FILL[1:])
    assert intents("Fill in the form with valid values", page=page) == first


@pytest.mark.parametrize(
    "sentence",
    ["Submit the form leaving it empty", "Submit the form without filling it in", "Submit the empty form", "Submit"],
)
def test_submit_empty_form(sentence: str) -> None:
    assert intents(sentence, page=owner_form()) == doing("Submit the form", [
        I("click", "Click the Add Owner button", "Add Owner", "button")])


def search_page() -> PageSnapshot:
    return snapshot(
        dict(tag="a", role="link", text="Home"),  # 1
        dict(tag="form", context="Find Owners"),  # 2
        dict(tag="input", input_type="text", label="Last name", name_attr="lastName", form=2),  # 3
        dict(tag="button", role="button", text="Find Owner", input_type="submit", form=2),  # 4
        dict(tag="a", role="link", text="Add Owner"),  # 5
    )


@pytest.mark.parametrize("sentence", ["Search for Davis", "Search for owners named Davis", "Search for 'Davis'"])
def test_search_uses_the_single_text_field(sentence: str) -> None:
    assert intents(sentence, page=search_page()) == doing("Search for Davis", [
        I("fill", "Type Davis into the Last name field", "Last name", "field", "Davis"),
        I("click", "Click the Find Owner button", "Find Owner", "button"),
    ])


def test_search_with_a_placeholder() -> None:
    assert intents("Search for <lastName>", page=search_page(), row=ROW)[0] == I(
        "fill", "Search for <lastName>: Type Franklin into the Last name field", "Last name", "field", "Franklin",
        "lastName")


def test_search_box_without_a_button_presses_enter() -> None:
    page = snapshot(
        dict(tag="input", input_type="search", aria_label="Search the site"),  # 1, outside any form
        dict(tag="form", context="Contact"),  # 2
        dict(tag="input", input_type="text", label="Name", form=2),
        dict(tag="input", input_type="email", label="Email", form=2),
        dict(tag="button", role="button", text="Send", form=2),
    )
    assert intents("Search for shoes", page=page) == doing("Search for shoes", [
        I("fill", "Type shoes into the Search the site field", "Search the site", "field", "shoes"),
        I("press", "Press Enter in the Search the site field", "Search the site", "field", "Enter"),
    ])


def two_forms() -> PageSnapshot:
    return snapshot(
        dict(tag="form", context="Search", aria_label="Site search"),  # 1
        dict(tag="input", input_type="text", label="Query", form=1),  # 2
        dict(tag="button", role="button", text="Go", form=1),  # 3
        dict(tag="form", context="Add Pet"),  # 4
        dict(tag="input", input_type="text", label="Name", form=4),  # 5
        dict(tag="input", input_type="date", label="Birth Date", form=4),  # 6
        dict(tag="select", input_type="select", label="Type", options=["", "cat", "dog"], form=4),  # 7
        dict(tag="button", role="button", text="Add Pet", form=4),  # 8
    )


def test_fill_picks_the_form_with_most_empty_fields() -> None:
    assert intents("Fill in the form with valid values and submit the form", page=two_forms()) == [
        *doing(FILLED, [
            I("fill", "Type Buddy into the Name field", "Name", "field", "Buddy"),
            I("fill", "Type 2020-01-15 into the Birth Date field", "Birth Date", "field", "2020-01-15"),
            I("select", "Select cat from the Type dropdown", "Type", "dropdown", "cat")]),
        *doing("Submit the form", [I("click", "Click the Add Pet button", "Add Pet", "button")]),
    ]


def test_a_named_form_wins() -> None:
    assert intents("Fill the search form with sample data", page=two_forms()) == doing(
        "Fill in the search form, every empty field, with sample data",
        [I("fill", "Type Sample text into the Query field", "Query", "field", "Sample text")])
    assert intents("Submit the search form", page=two_forms()) == doing(
        "Submit the search form", [I("click", "Click the Go button", "Go", "button")])
    assert intents("Submit the empty form", page=two_forms()) == doing(
        "Submit the form", [I("click", "Click the Add Pet button", "Add Pet", "button")])


@pytest.mark.parametrize(
    "sentence",
    ["Fill in the payment form with valid values", "Fill the payment form", "Submit the payment form"],
)
def test_a_named_form_that_is_not_there_is_refused(sentence: str) -> None:
    message = unsupported(sentence, page=two_forms())
    assert message.startswith(repr(sentence) + ": ")
    assert "no form matching 'payment'" in message


def test_a_named_form_without_empty_fields() -> None:
    page = owner_form(value="x")
    filled = PageSnapshot(
        url=page.url, title=page.title,
        nodes=[n.model_copy(update={"value": "x", "checked": True}) if n.tag in ("input", "select") else n for n in page.nodes],
    )  # fmt: skip
    assert "the owner form has no empty field" in unsupported("Fill in the owner form with valid values", page=filled)


def test_fill_form_with_invalid_values_is_refused_on_a_page_with_a_form() -> None:
    message = unsupported("Fill in the form with invalid values and submit it", page=owner_form())
    assert "only 'Fill in the form with valid values' invents values" in message


def test_search_prefers_a_search_form_among_single_field_forms() -> None:
    assert intents("Search for cats", page=two_forms()) == doing("Search for cats", [
        I("fill", "Type cats into the Query field", "Query", "field", "cats"),
        I("click", "Click the Go button", "Go", "button"),
    ])


def test_go_to_page_does_not_need_the_page() -> None:
    assert intents("Go to the Add Owner page", page=search_page()) == [
        I("click", "Click the Add Owner link", "Add Owner", "link")
    ]


# --- values and helpers -------------------------------------------------------------------------------------


def control(**kw: Any) -> Node:
    return Node(id=1, tag=kw.pop("tag", "input"), operable=True, **kw)


@pytest.mark.parametrize(
    ("fields", "value"),
    [
        (dict(input_type="email", label="Contact"), "user@example.com"),
        (dict(input_type="text", label="Phone", pattern=r"\d{3}-\d{3}-\d{4}"), "555-010-0123"),
        (dict(input_type="text", label="Phone", pattern=r"[0-9]{5}"), "55501"),
        (dict(input_type="number", label="Quantity", min="2", max="5"), "2"),
        (dict(input_type="number", label="Age", min="0", max="20"), "20"),
        (dict(input_type="date", label="Visit date", min="2030-01-01"), "2030-01-01"),
        (dict(input_type="time", label="At"), "10:30"),
        (dict(input_type="url", label="Home"), "https://example.com"),
        (dict(input_type="password", label="Password", minlength=12), "Secret123!Se"),
        (dict(input_type="text", label="ZIP code"), "12345"),
        (dict(input_type="text", label="City"), "Springfield"),
        (dict(input_type="text", label="Street address"), "12 Main Street"),
        (dict(input_type="text", name_attr="owner.firstName"), "Jane"),
        (dict(input_type="text", label="Surname"), "Doe"),
        (dict(input_type="text", label="Name", context="New Owner"), "Jane Doe"),
        (dict(input_type="text", label="Name", context="Add a pet"), "Buddy"),
        (dict(tag="textarea", input_type="textarea", label="Comments"), "Sample description"),
        (dict(input_type="text", label="Nickname of the thing", maxlength=6), "jane.d"),
        (dict(input_type="text", label="Whatever", maxlength=6), "Sample"),
    ],
)
def test_values(fields: dict[str, Any], value: str) -> None:
    assert value_for(control(**fields)) == value


def test_pattern_sampler() -> None:
    assert sample_from_pattern(r"^[A-Z]{2}\d{4}$") == "SA5550"
    assert sample_from_pattern(r"(a|b)") is None


@pytest.mark.parametrize(
    ("label", "placeholder"),
    [("", True), ("-- choose --", True), ("Select a type", True), ("Choose...", True), ("dog", False)],
)
def test_placeholder_options(label: str, placeholder: bool) -> None:
    assert is_placeholder_option(label) is placeholder


@pytest.mark.parametrize(
    ("text", "key"),
    [("enter", "Enter"), ("Return", "Enter"), ("esc", "Escape"), ("arrow up", "ArrowUp"), ("Page Down", "PageDown"),
     ("space", "Space"), ("shift+tab", "Shift+Tab"), ("Submit", None), ("a", None)],
)  # fmt: skip
def test_keys(text: str, key: str | None) -> None:
    assert parse_key(text) == key


def _done_in(field: Node, said: str) -> Operation:
    return Operation(index=1, step_index=0, kind="click", description=f"Click {said}", target=field, said=said)


def test_typing_with_no_field_named_goes_into_the_field_just_clicked() -> None:
    brain = BuiltinBrain()
    decision = brain.decide(ScenarioStep(action='Click the "Search Packages" box and type "queue" without pressing '
                                                'Enter'), 0)
    assert [(i.kind, i.target, i.value) for i in decision.intents] == [
        ("click", "Search Packages", None), ("fill", "Search Packages", "queue")]
    box = Node(id=3, tag="input", role="textbox", input_type="text", operable=True, placeholder="Search Packages")
    decision = brain.decide(ScenarioStep(action='Type "queue"'), 1, None, [_done_in(box, "Search Packages")])
    assert [(i.kind, i.target, i.value) for i in decision.intents] == [("fill", "Search Packages", "queue")]


def test_typing_with_no_field_named_after_anything_but_a_field_is_refused() -> None:
    link = Node(id=3, tag="a", role="link", operable=True, text="Packages")
    for history in ([], [_done_in(link, "Packages")]):
        decision = BuiltinBrain().decide(ScenarioStep(action='Type "queue"'), 1, None, history)
        assert decision.unsupported and "which field" in decision.unsupported


@pytest.mark.parametrize("action", ["Click Save, then the page reloads", 'Type "x" into Name, then Tab'])
def test_a_clause_without_a_verb_goes_on_with_an_element_verb_only_when_it_names_an_element(action) -> None:
    decision = BuiltinBrain().decide(ScenarioStep(action=action), 0)
    assert decision.unsupported is not None, decision.intents


@pytest.mark.parametrize("action", ['Type "abc" to search', 'Enter "5" for quantity', "Close the dialog with Escape",
                                    'Type the text "hello"', 'Replace "Old" with "New"',
                                    # a check that cannot be read is refused, never a box ticked
                                    'Check the "Total" text is shown in bold',
                                    # a number alone said of a title would be found inside another; a state word is
                                    # no text; a word before a quoted value that names no field; an old value
                                    'Verify "Open tickets" shows 5', "It becomes enabled", 'Type in "shoes"',
                                    'Replace the text "foo" with "bar"', 'every row contains delete button',
                                    "Expand the first row",
                                    # a short number is found inside others ("0" in "10"): never looked for in a row
                                    '"Backend" is listed with a usage count of 0',
                                    # a selection in a dropdown nothing names; 'the password one more time'
                                    '"Pages" is selected in the dropdown', 'Enter the password "secret" one more time'])
def test_sentences_that_would_act_on_a_guess_are_refused(action) -> None:
    assert BuiltinBrain().decide(ScenarioStep(action=action), 0).unsupported is not None


@pytest.mark.parametrize("action", ["Check Require confirmation", "Check the Send confirmation"])
def test_a_checkbox_named_like_a_part_of_the_page_is_still_ticked(action) -> None:
    assert [i.kind for i in BuiltinBrain().decide(ScenarioStep(action=action), 0).intents] == ["check"]


@pytest.mark.parametrize("action", ['Click the Name field, replace it with "Bob" and press Enter',
                                    'Click the Name field and replace its value with "Bob"'])
def test_replacing_the_value_of_the_field_just_clicked_clears_it_and_types(action):
    found = [(i.kind, i.target, i.value) for i in intents(action)]
    assert found[:3] == [("click", "Name", None), ("clear", "Name", None), ("fill", "Name", "Bob")], found


def test_replacing_with_no_field_said_is_refused():
    assert "which field" in decide('Replace it with "450"').unsupported


@pytest.mark.parametrize("action, expected", [
    ('Click the small arrow to the left of "Orders" in the tree',
     'The entry opens and shows "Validation" and "New order" beneath it'),
    ('Click "Orders"', '"Validation" and "New order" appear below it'),
])
def test_it_in_an_expected_result_is_the_text_the_action_named(action, expected):
    found = [(i.kind, i.target, i.value) for i in intents(action, expected) if i.kind.startswith("assert")]
    assert found == [("assert_below", "Orders", "Validation"), ("assert_below", "Orders", "New order")]


def test_it_after_typing_names_no_text_to_place_by():
    assert "not a part of the page" in decide('Type "Bob" into the Name field', '"Saved" is shown below it').unsupported



def test_that_row_is_the_row_the_steps_before_placed_texts_in():
    checked = Operation(index=3, step_index=2, kind="assert_in_row", description='Verify \'500.00\' is shown in the row '
                        'of "Savings"', said="Savings")
    decision = BuiltinBrain().decide(ScenarioStep(action='Click "Categorize" in that row'), 3, None, [checked])
    assert [(i.kind, i.target, i.anchor) for i in decision.intents] == [("click", "Categorize", "Savings")]
    alone = BuiltinBrain().decide(ScenarioStep(action='Click "Categorize" in that row'), 0, None, [])
    assert alone.unsupported is not None and "names no element" in alone.unsupported


@pytest.mark.parametrize("action, target", [('Click the "votes" column header again', "votes"),
                                            ('Click "Close" to leave the dialog', "Close"),
                                            ('Click "Save" to save the changes', "Save")])
def test_once_more_and_a_purpose_said_after_a_named_target_are_not_its_name(action, target):
    assert [(i.kind, i.target) for i in intents(action)] == [("click", target)]


def test_a_purpose_that_quotes_a_text_is_not_dropped():
    found = [(i.kind, i.target) for i in intents('Click "Save" to confirm that the name "Bob" is saved')]
    assert found != [("click", "Save")], found


@pytest.mark.parametrize("expected", ['The first row is highlighted', 'The first row shows "A" or "B"'])
def test_a_row_picked_by_its_order_that_says_more_than_its_texts_is_refused(expected):
    assert "say plainly" in decide("Look at the table", expected).unsupported


def test_rows_picked_by_their_order_in_one_sentence_are_each_checked():
    found = [(i.kind, i.value, i.ordinal) for i in intents("Look at the table",
                                                           'The first row is "Alice", the second row is "Bob"')]
    assert found == [("assert_row_at", "Alice", 0), ("assert_row_at", "Bob", 1)]


def test_that_row_is_only_the_row_of_the_step_just_before():
    older = Operation(index=1, step_index=0, kind="click", description='Click Edit in the row of "Bob"', said="Edit")
    newer = Operation(index=2, step_index=1, kind="click", description="Click the Alice checkbox", said="Alice")
    decision = BuiltinBrain().decide(ScenarioStep(action='Click "Delete" in that row'), 2, None, [older, newer])
    assert decision.unsupported is not None, decision.intents
    # "next to it" is the element the step before acted on, never its row
    beside = BuiltinBrain().decide(ScenarioStep(action='Click "Delete" next to it'), 1, None, [older])
    assert [(i.target, i.anchor) for i in beside.intents] == [("Delete", "Edit")]


def test_an_unquoted_list_of_three_or_more_short_texts_is_checked_text_by_text():
    found = intents('Look at the new "priority" facet list', "It lists Medium 46, High 29, Low 25 and Critical 20")
    assert [(i.kind, i.value) for i in found] == [("assert_text", "Medium 46"), ("assert_text", "High 29"),
                                                  ("assert_text", "Low 25"), ("assert_text", "Critical 20")]
    # two parts, or a part of many words, is one text as written
    assert [i.value for i in intents("Look at it", "It says Hello, world")] == ["Hello, world"]


def test_an_option_in_the_menu_that_opens_is_picked_from_what_opened():
    found = intents('Choose "Facet by this" in the menu that opens')
    assert [(i.kind, i.value) for i in found] == [("pick", "Facet by this")]


def test_a_state_said_of_a_quoted_entry_is_its_state_beside_the_texts_said_with_it():
    found = intents("Click it", 'The "Order Processing" entry is collapsed and "New order" is no longer shown in the tree')
    assert [(i.kind, i.target, i.value) for i in found[1:]] == [("assert_state", "Order Processing", "collapsed"),
                                                                ("assert_absent", None, "New order")]
    # a row's texts are still its cells
    assert [(i.kind, i.target, i.value) for i in intents("Click it", 'The "Savings" row shows "500.00"')[1:]] == [
        ("assert_in_row", "Savings", "500.00")]


def test_texts_a_statement_says_something_changed_to_are_shown():
    found = intents("Click it", 'The commands change to "npm install x" and "pnpm install x"')
    assert [(i.kind, i.value) for i in found[1:]] == [("assert_text", "npm install x"), ("assert_text", "pnpm install x")]
    # from one text to another says more than which are shown
    assert unsupported("Click it", 'The Status changed from "new" to "closed"')


def test_a_state_in_a_parenthesis_is_the_state_of_each_element_listed_before_it():
    found = intents("Click it", 'A submenu opens with "Show palette" and "Show sidebar" (both ticked) and "Event log"')
    assert [(i.kind, i.target, i.value) for i in found[1:]] == [
        ("assert_text", None, "Show palette"), ("assert_text", None, "Show sidebar"), ("assert_text", None, "Event log"),
        ("assert_state", "Show palette", "checked"), ("assert_state", "Show sidebar", "checked")]


def test_next_to_it_with_nothing_named_before_in_the_step_is_the_element_the_step_before_acted_on() -> None:
    field = Node(id=3, tag="input", role="textbox", input_type="text", operable=True, placeholder="Search")
    decision = BuiltinBrain().decide(ScenarioStep(action="Click the Search button next to it"), 1, None,
                                     [_done_in(field, "Search")])
    assert [(i.kind, i.target, i.role_hint, i.anchor) for i in decision.intents] == [
        ("click", "Search", "button", "Search")]
    assert BuiltinBrain().decide(ScenarioStep(action="Click the Search button next to it"), 0).unsupported


def test_the_words_a_reading_leaves_unused_are_named_before_anything_is_done():
    step = ScenarioStep(action='Click Delete next to "Bob"')
    assert unread_words(step, BuiltinBrain().intents(step)) == [
        '\'Click Delete next to "Bob"\': read only part of the sentence: "next" is not used']
    vague = ScenarioStep(action='Click Delete in the middle of the card')
    assert unread_words(vague, BuiltinBrain().intents(vague))
