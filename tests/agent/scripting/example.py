"""A hand-written two-scenario run against a PetClinic-like owners app (see tests/agent/verify/site.py)."""

from __future__ import annotations

from shared.records import ActionKind, Locator, Node, Observation, Operation
from shared.scenarios import Scenario

FORM = 7  # node id of the search form on /owners/find

LAST_NAME = Node(id=8, tag="input", role="textbox", operable=True, label="Last name", name_attr="lastName",
                 id_attr="lastName", input_type="text", form=FORM)
FIND = Node(id=9, tag="button", role="button", operable=True, text="Find Owner", form=FORM)
FRANKLIN = Node(id=12, tag="a", role="link", operable=True, text="George Franklin", context="Owners")
TELEPHONE = Node(id=20, tag="td", role="cell", text="6085551023", context="Telephone")
HEADING = Node(id=3, tag="h2", role="heading", text="Find Owners")

LAST_NAME_AT = Locator(strategy="id", value="#lastName")
FIND_AT = Locator(strategy="role", role="button", value="Find Owner")
FRANKLIN_AT = Locator(strategy="role", role="link", value="George Franklin")
TELEPHONE_AT = Locator(strategy="xpath", value='//th[text()="Telephone"]/following-sibling::td')


def moved(before: str, after: str) -> Observation:
    return Observation(url_before=before, url_after=after, dom_changed=True, summary=f"navigated to {after}")


def op(index: int, step: int, kind: ActionKind, description: str, **fields) -> Operation:
    return Operation(index=index, step_index=step, kind=kind, description=description, **fields)


FIND_OWNER = Scenario(
    id="find-owner",
    title="Find owners by last name",
    start="/owners/find",
    steps=["Enter <lastName> in the last name field", "Click Find Owner", "Verify <owner> is shown"],
    data=[{"lastName": "Davis", "owner": "Betty Davis"}, {"lastName": "Franklin", "owner": "George Franklin"}],
)

FIND_OWNER_OPS = [
    op(0, 0, "goto", "Open the find owners page", value="/owners/find"),
    op(1, 0, "fill", "Type Davis into the last name field", target=LAST_NAME, locator=LAST_NAME_AT,
       value="Davis", param="lastName"),
    # Grounded on the heading first: failed, so it is dropped.
    op(2, 1, "click", "Click Find Owner", target=HEADING, locator=Locator(strategy="text", value="Find"),
       ok=False, error="element is not clickable"),
    op(3, 1, "click", "Click Find Owner", target=FIND, locator=FIND_AT,
       observation=moved("http://app/owners/find", "http://app/owners?lastName=Davis")),
    op(4, 2, "assert_text", "Betty Davis is shown", value="Betty Davis", param="owner"),
]

OWNER_DETAILS = Scenario(
    id="owner-details",
    title="Show an owner's details",
    start="/owners/find",
    steps=["Search for the owner Franklin", "Open George Franklin", "The telephone shows 6085551023"],
)

OWNER_DETAILS_OPS = [
    op(0, 0, "fill", "Type Franklin into the last name field", target=LAST_NAME, locator=LAST_NAME_AT,
       value="Franklin"),
    op(1, 0, "click", "Click Find Owner", target=FIND, locator=FIND_AT,
       observation=moved("http://app/owners/find", "http://app/owners?lastName=Franklin")),
    op(2, 1, "click", "Click George Franklin", target=FRANKLIN, locator=FRANKLIN_AT,
       observation=moved("http://app/owners?lastName=Franklin", "http://app/owners/1")),
    # Clicking the cell changed nothing: redundant, so it is dropped.
    op(3, 2, "click", "Click the telephone", target=TELEPHONE, locator=TELEPHONE_AT, redundant=True),
    op(4, 2, "assert_value", "The telephone shows 6085551023", target=TELEPHONE, locator=TELEPHONE_AT,
       value="6085551023"),
    op(5, 2, "assert_text", "George Franklin is shown", value="George Franklin"),
]

RUNS = [(FIND_OWNER, FIND_OWNER_OPS), (OWNER_DETAILS, OWNER_DETAILS_OPS)]
