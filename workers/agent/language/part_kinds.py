"""The parts of a page a person names by what they are ("the sidebar", "the dialog"), and how a page draws each: the
ARIA roles and the tags. Grounding finds a target's place by them (grounding/places.py); the checks of a text inside
such a part find the part by them (actions/placed.py)."""

from __future__ import annotations

# Parts of a page a person names by what they are rather than by a title they show: the ARIA roles and the tags that
# draw each. Only the words here name a part; any other description that the page does not show is a place not found.
PARTS: dict[str, tuple[frozenset[str], frozenset[str]]] = {
    words: (frozenset(roles.split()), frozenset(tags.split())) for words, roles, tags in (
        ("progress bar", "progressbar meter", "progress meter"),
        ("toolbar", "toolbar", ""),
        ("sidebar", "complementary", "aside"),
        ("header", "banner", "header"),
        ("footer", "contentinfo", "footer"),
        ("navigation", "navigation", "nav"),
        ("navigation bar", "navigation", "nav"),
        ("menu bar", "menubar", ""),
        ("dialog", "dialog alertdialog", "dialog"),
        ("modal", "dialog alertdialog", "dialog"),
        ("table", "table grid", "table"),
        ("tab bar", "tablist", ""),
        ("search form", "search", "search"),
        ("form", "form", "form"),
    )
}
