"""Finding a recorded element again on today's page, by what it is rather than by its old locator.

A drifted step's element is the one whose tag, role and input type are the recorded element's and whose own words
(its accessible name, else its icon, else its text) are the recorded ones; when several are, the one in the same
surroundings (the nearest heading, legend, caption, row) and frame. Anything less than exactly one is not found:
an element whose words changed is the application's change, never healed into another element.
"""

from __future__ import annotations

from shared.records import Node, PageSnapshot
from workers.agent.grounding.locators import accessible_names


def own_words(node: Node) -> str | None:
    """What names the element to a user: its first accessible name, else its icon's words, else its text."""
    names = accessible_names(node)
    if names:
        return names[0].lower()
    if node.icon:
        return f"icon:{node.icon.lower()}"
    text = " ".join(node.text.split())
    return text.lower() or None


def find_again(snapshot: PageSnapshot, recorded: Node) -> list[int]:
    """Ids of the snapshot's nodes that are the recorded element (see the module's doc); more than one when even
    its surroundings do not tell them apart."""
    words = own_words(recorded)
    if words is None:
        return []
    same = [node.id for node in snapshot.nodes
            if (node.tag, node.role, node.input_type) == (recorded.tag, recorded.role, recorded.input_type)
            and own_words(node) == words]
    for narrower in (lambda node: node.context == recorded.context, lambda node: node.frame == recorded.frame):
        if len(same) <= 1:
            break
        kept = [node_id for node_id in same if narrower(snapshot.nodes[node_id])]
        same = kept or same
    return same
