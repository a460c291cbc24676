"""A recorded element found again by what it is: its words, role and surroundings, never something else."""

from __future__ import annotations

from shared.records import Node, PageSnapshot
from workers.agent.regeneration.regrounding import find_again, own_words


def page(*nodes: Node) -> PageSnapshot:
    return PageSnapshot(url="http://app/", title="t", nodes=[Node(id=0, tag="body"), *nodes])


def field(node_id: int, id_attr: str, label: str = "Last name", context: str | None = "Find Owners") -> Node:
    return Node(id=node_id, tag="input", role="textbox", input_type="text", operable=True, label=label,
                id_attr=id_attr, context=context)


RECORDED = field(1, "lastName")


def test_an_element_whose_id_changed_is_found_by_its_label() -> None:
    assert find_again(page(field(1, "ownerLastName")), RECORDED) == [1]


def test_an_element_whose_words_changed_is_not_found() -> None:
    """A renamed control is the application's change: healing it into another element would hide a bug."""
    assert find_again(page(field(1, "lastName", label="Surname")), RECORDED) == []


def test_another_kind_of_element_with_the_same_words_is_not_it() -> None:
    heading = Node(id=1, tag="h2", role="heading", text="Last name")
    assert find_again(page(heading), RECORDED) == []


def test_equal_elements_are_told_apart_by_their_surroundings() -> None:
    found = page(field(1, "a", context="Billing address"), field(2, "b", context="Find Owners"))
    assert find_again(found, RECORDED) == [2]


def test_equal_elements_in_equal_surroundings_are_not_healed() -> None:
    found = page(field(1, "a", context="Find Owners"), field(2, "b", context="Find Owners"))
    assert find_again(found, RECORDED) == [1, 2]


def test_an_icon_only_button_is_known_by_its_icon_and_a_nameless_element_not_at_all() -> None:
    trash = Node(id=1, tag="button", role="button", operable=True, icon="trash")
    assert own_words(trash) == "icon:trash"
    assert find_again(page(trash.model_copy(update={"id_attr": "del-2"})), trash) == [1]
    assert find_again(page(Node(id=1, tag="div")), Node(id=5, tag="div")) == []
