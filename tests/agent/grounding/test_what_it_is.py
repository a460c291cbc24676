"""What the page says an element is (grounding/what_it_is.py): by the words around it, and by the accessibility tree's
roles of the element and of what holds it; never by the element's own words."""

from __future__ import annotations

from typing import Any

import pytest

from shared.records import Node, PageSnapshot
from workers.agent.grounding.what_it_is import anchor_holder, said_so


def page(*specs: dict[str, Any]) -> PageSnapshot:
    """Nodes in document order; ids from 1 (0 is the body)."""
    nodes = [Node(id=0, tag="body")]
    for number, spec in enumerate(specs, start=1):
        spec = dict(spec)
        nodes.append(Node(id=number, parent=spec.pop("parent", 0), **spec))
    return PageSnapshot(url="http://app/", title="App", nodes=nodes)


TABLE = page(
    dict(tag="table", role="table"),  # 1
    dict(tag="tr", role="row", parent=1),  # 2
    dict(tag="td", role="cell", parent=2),  # 3
    dict(tag="span", text="Renew the certificate", parent=3),  # 4
    dict(tag="h2", role="heading", text="Tasks"),  # 5
    dict(tag="div", role="dialog"),  # 6
    dict(tag="button", role="button", text="OK", parent=6, operable=True),  # 7
    dict(tag="button", role="button", icon="trash", parent=3, operable=True),  # 8
    dict(tag="div", role="alert"),  # 9
    dict(tag="p", text="Saved", parent=9),  # 10
    dict(tag="div", class_words="list"),  # 11: a box whose class only says list, far from its text
    dict(tag="div", parent=11),  # 12
    dict(tag="div", parent=12),  # 13
    dict(tag="span", text="Budget", parent=13),  # 14
    dict(tag="tr", role="row", parent=1),  # 15: the header row
    dict(tag="th", role="columnheader", text="Name", parent=15),  # 16
    dict(tag="button", role="button", text="Retry", parent=9, operable=True),  # 17
    dict(tag="table", role="presentation"),  # 18: a table that only lays out the page
    dict(tag="tr", role="presentation", parent=18),  # 19
    dict(tag="td", role="presentation", parent=19),  # 20
    dict(tag="a", role="link", text="Home", parent=20, operable=True),  # 21
)


@pytest.mark.parametrize(("node", "said", "where"), [
    (4, "row", 'of role "row"'),  # a text in a row's cell is that row's
    (5, "heading", 'of role "heading"'),
    (8, "icon", 'an icon "trash"'),  # a control named by its picture alone
    (10, "notification", 'of role "alert"'),
    (10, "message", 'of role "alert"'),
    (10, "error", 'of role "alert"'),
    (16, "column", 'of role "columnheader"'),
])
def test_a_kind_the_accessibility_tree_gives_the_element_or_what_it_stands_in_is_said_so(node, said, where) -> None:
    assert said_so(TABLE, TABLE.node(node), said) == where


@pytest.mark.parametrize(("node", "said"), [
    (5, "row"),  # a heading is in no row
    (16, "row"),  # nor is a column's header
    (4, "table"),  # a text in a table is no table ('in the table' is a place, not what a text is)
    (7, "dialog"),
    (7, "icon"),  # a button named by its words is no icon
    (4, "heading"),
    (17, "error"),  # a control inside an alert is no error
    (21, "row"),  # a table that only lays out the page has no rows
    (14, "file"),  # no word and no role says so
])
def test_a_kind_nothing_on_the_page_gives_is_not_said_so(node, said) -> None:
    assert said_so(TABLE, TABLE.node(node), said) is None


def test_what_a_part_closed_by_its_button_is_said_to_be_is_read_on_the_box_of_its_title() -> None:
    # 'Close the "Welcome back!" message': the Close button of the box holding that text; the box is the message
    snap = page(
        dict(tag="div", role="status", children=[2]),  # 1
        dict(tag="div", parent=1, children=[3, 4]),  # 2: the box of the title
        dict(tag="button", role="button", aria_label="Close", parent=2, operable=True),  # 3
        dict(tag="b", text="Welcome back!", parent=2),  # 4
        dict(tag="div", children=[6, 7]),  # 5: a box that is no message
        dict(tag="button", role="button", aria_label="Close", parent=5, operable=True),  # 6
        dict(tag="b", text="Tip of the day", parent=5),  # 7
    )
    box = anchor_holder(snap, snap.node(3), "Welcome  back!")
    assert box is not None and box.id == 2
    assert said_so(snap, box, "message") == 'of role "status"'
    assert said_so(snap, snap.node(3), "message") is None  # the button itself is no message
    assert anchor_holder(snap, snap.node(3), "come") is None  # whole words only: no "come" in "Welcome"
    tip = anchor_holder(snap, snap.node(6), "tip of the day")
    assert tip is not None and tip.id == 5 and said_so(snap, tip, "message") is None


def test_a_text_set_as_a_heading_is_what_heading_says() -> None:
    snap = page(dict(tag="span", text="Files", looks=["heading"]), dict(tag="span", text="Budget"))
    assert said_so(snap, snap.node(1), "heading") == 'looking like a "heading"'
    assert said_so(snap, snap.node(2), "heading") is None
