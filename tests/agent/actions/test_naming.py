"""How a step names an element: the tester's words first, the page's words a person reads otherwise; never an
attribute only a locator reads, never a character nobody sees."""

from __future__ import annotations

from shared.records import Locator, Node, Operation
from workers.agent.actions.naming import clean, element_name, field_label, page_name_differs
from workers.agent.scripting.wording import describe


def op(kind: str, target: Node, said: str | None = None, locator: Locator | None = None) -> Operation:
    return Operation(index=0, step_index=0, kind=kind, description="", target=target, said=said,
                     locator=locator or Locator(strategy="css", value="#x"))


def test_a_field_named_only_by_attributes_is_named_by_the_tester_s_words_or_its_kind():
    only_a_name = Node(id=1, tag="input", input_type="text", name_attr="__user_name", id_attr="user-name-7")
    assert field_label(op("fill", only_a_name, said="user name")) == "user name"
    assert field_label(op("fill", only_a_name)) == "text"
    assert field_label(op("fill", only_a_name, said="__user_name")) == "text"  # an attribute is never a step's word
    assert page_name_differs(op("fill", only_a_name, said="user name")) is None  # nothing on the page to name


def test_the_page_s_name_stays_where_the_tester_said_it_in_other_case():
    link = Node(id=2, tag="a", role="link", text="Find owners")
    assert element_name(op("click", link, said="Find Owners")) == "Find owners"
    assert page_name_differs(op("click", link, said="Find Owners")) is None


def test_a_card_is_named_by_the_tester_s_title_and_its_comment_gives_the_page_s_name():
    card = Node(id=3, tag="a", role="link",
                text="Quarterly report What the quarter brought in sales and hiring Read more... finance")
    clicked = op("click", card, said="Quarterly report",
                 locator=Locator(strategy="role", role="link", value=card.text))
    assert element_name(clicked) == "Quarterly report"
    assert ': "Quarterly report What the quarter brought in sales and hiri…" on the page)' in describe(clicked, None)


def test_words_that_only_point_never_name_an_element():
    button = Node(id=4, tag="button", role="button", text="Save")
    assert element_name(op("click", button, said="it")) == "Save"
    assert element_name(op("click", button, said="this one")) == "Save"


def test_characters_nobody_sees_are_not_part_of_a_name():
    assert clean("\u200bContact\u00ad us\ufeff") == "Contact us"
    assert clean("\u200b") == ""


def test_other_words_than_the_page_s_leave_the_page_s_name_in_the_step():
    # 'Click "Save"' that landed on "Save draft" says what it clicked
    assert element_name(op("click", Node(id=7, tag="button", role="button", text="Save draft"), said="Save")) \
        == "Save draft"
    # a "trash" icon the page calls "Delete": the step says what it clicks
    icon = Node(id=5, tag="button", role="button", title="Delete", icon="trash")
    assert element_name(op("click", icon, said="trash")) == "Delete"
    assert field_label(op("fill", Node(id=6, tag="input", label="Username"), said="user name")) == "Username"


def test_the_tester_s_word_that_is_also_an_id_is_still_theirs_where_the_page_shows_it():
    like = Node(id=8, tag="button", role="button", text="Like (3)", id_attr="like")
    assert element_name(op("click", like, said="Like")) == "Like"
    assert page_name_differs(op("click", like, said="Like")) is None  # "(3)" changes: the comment never holds it
