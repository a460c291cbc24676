"""The kinds of element testers name by a word ('the "Renew" row', 'the error "Bad"'), and the roles (or tags) of the
accessibility tree that say an element is one: read by grounding/what_it_is.py, which uses such a word only when the
element, or one holding it, has that role."""

from __future__ import annotations

# What the accessibility tree says an element is, for the words testers use: the roles (an explicit or implicit ARIA
# role; a tag only where the element has no role) that say it, and how many elements up from the one found (0: itself)
# the one that has it may be. An element one word is said of is that element or stands just inside it (a row's cell, a
# heading's link); a part a text is in is said of no text, so its words are not here ('in the dialog' is a place).
KIND_ROLES: dict[str, tuple[frozenset[str], int]] = {word: (frozenset(roles.split()), up) for words, roles, up in (
    ("row", "row tr", 3),
    ("entry item record line", "row tr listitem li treeitem option menuitem", 2),
    ("cell", "cell gridcell td", 1),
    ("header", "columnheader rowheader th", 1),
    ("column", "columnheader th", 1),
    ("heading", "heading h1 h2 h3 h4 h5 h6", 1),
    ("icon", "img svg", 0),
    ("tab", "tab", 2),
    ("button", "button", 2),
    ("link", "link", 2),
    ("option", "option menuitem menuitemradio menuitemcheckbox", 2),
    ("notification message toast", "alert status", 3),
    ("error warning alert", "alert alertdialog", 3),
) for word in words.split()}
