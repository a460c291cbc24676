"""What the page says an element is (grounding/what_it_is.py): by the words around it, and by the accessibility tree's
roles of the element and of what holds it; never by the element's own words."""

from __future__ import annotations

from typing import Any

import pytest

from shared.records import Node, PageSnapshot
from workers.agent.grounding.what_it_is import said_so


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
    dict(tag="button", role="button", text="OK", parent=6),  # 7
    dict(tag="button", role="button", icon="trash", parent=3),  # 8
    dict(tag="div", role="alert"),  # 9
    dict(tag="p", text="Saved", parent=9),  # 10
    dict(tag="div", class_words="list"),  # 11: a box whose class only says list, far from its text
    dict(tag="div", parent=11),  # 12
    dict(tag="div", parent=12),  # 13
    dict(tag="span", text="Budget", parent=13),  # 14
)


@pytest.mark.parametrize(("node", "said", "where"), [
    (4, "row", 'of role "row"'),  # a text inside a row is in that row
    (4, "table", 'of role "table"'),
    (5, "heading", 'of role "heading"'),
    (7, "dialog", 'of role "dialog"'),
    (8, "icon", 'an icon "trash"'),  # a control named by its picture alone
    (10, "notification", 'of role "alert"'),
    (10, "message", 'of role "alert"'),
])
def test_a_kind_the_accessibility_tree_gives_the_element_or_what_holds_it_is_said_so(node, said, where) -> None:
    assert said_so(TABLE, TABLE.node(node), said) == where


@pytest.mark.parametrize(("node", "said"), [
    (5, "row"),  # a heading is in no row
    (4, "dialog"),
    (7, "icon"),  # a button named by its words is no icon
    (4, "heading"),
    (14, "file"),  # no word and no role says so
])
def test_a_kind_nothing_on_the_page_gives_is_not_said_so(node, said) -> None:
    assert said_so(TABLE, TABLE.node(node), said) is None
