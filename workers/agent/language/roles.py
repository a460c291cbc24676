"""The kinds of element testers name by a word ('the "Renew" row', 'the error "Bad"'), and the roles (or tags) of the
accessibility tree that say an element is one: read by grounding/what_it_is.py, which uses such a word only when the
element, or one holding it, has that role."""

from __future__ import annotations

# What the accessibility tree says an element is, for the words testers use (the role, else the tag): an element is
# said to be one when it has that role or lies inside an element that has (a cell's text is in the row; a field is in
# the dialog); an icon also when the control is named by its picture alone (Node.icon)
KIND_ROLES: dict[str, frozenset[str]] = {word: frozenset(roles.split()) for words, roles in (
    ("row", "row tr"),
    ("entry item record line", "row tr listitem li treeitem option menuitem"),
    ("cell", "cell gridcell td"),
    ("header", "columnheader rowheader th"),
    ("column", "columnheader th cell gridcell td"),
    ("heading", "heading h1 h2 h3 h4 h5 h6"),
    ("icon", "img svg"),
    ("tab", "tab"),
    ("button", "button"),
    ("link", "link"),
    ("dialog modal popup", "dialog alertdialog"),
    ("table grid", "table grid treegrid"),
    ("list", "list listbox ul ol"),
    ("menu", "menu menubar menuitem"),
    ("tree", "tree treeitem treegrid"),
    ("sidebar", "complementary aside"),
    ("navigation", "navigation nav"),
    ("toolbar", "toolbar"),
    ("footer", "contentinfo footer"),
    ("notification message error alert toast warning", "alert status log alertdialog"),
) for word in words.split()}
