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
        ("top bar", "banner", "header"),
        ("footer", "contentinfo", "footer"),
        ("navigation", "navigation", "nav"),
        ("navigation bar", "navigation", "nav"),
        ("menu bar", "menubar", ""),
        ("dialog", "dialog alertdialog", "dialog"),
        ("modal", "dialog alertdialog", "dialog"),
        ("table", "table grid", "table"),
        ("list", "list listbox", "ul ol"),
        ("tab bar", "tablist", ""),
        ("search form", "search", "search"),
        ("form", "form", "form"),
        ("menu", "menu menubar", "menu"),
        ("main menu", "navigation menubar", "nav"),
        ("tree", "tree", ""),
        ("tree view", "tree", ""),
        ("canvas", "", "canvas"),
    )
}

# The words a page's classes and ids use for a part a person names by what it is, when no tag or role draws it (a
# <div class="side-bar">): grounding finds it by them among an element's class words (grounding/places.py), the checks
# of a text inside it by them as whole class names (actions/placed.py), and grounding/dom.js keeps such a box as a place.
CLASS_NAMES: dict[str, tuple[str, ...]] = {
    "sidebar": ("sidebar", "side bar", "sidenav", "side nav", "side panel", "sidepanel", "leftnav", "left nav"),
    "header": ("header", "navbar", "topbar", "top bar", "app bar", "appbar", "masthead"),
    "footer": ("footer",),
    "toolbar": ("toolbar", "tool bar"),
    "menu": ("menu", "dropdown menu", "context menu", "popup menu"),
    "tree": ("tree",),
    # parts a step names by what they are that no role draws (actions/parts.py NOUNS)
    "canvas": ("canvas", "workspace", "chart", "diagram"),
    "palette": ("palette",), "tray": ("tray",), "drawer": ("drawer",), "popover": ("popover",), "popup": ("popup",),
    "navigation": ("nav", "navbar", "navigation"),
    "main menu": ("mainnav", "main nav", "main menu", "mainmenu", "primary nav", "primary menu"),
}
CLASS_NAMES["top bar"] = CLASS_NAMES["header"]  # the header, said by where it stands
