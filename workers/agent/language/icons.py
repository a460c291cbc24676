"""The words people say for an icon-only control: the picture they see ("the gear", "the trash can", "the ×")
for a control that its page names by its purpose ("Settings", "Delete", "Close"), and the purpose for a control
named only by its picture (an icon class "fa-cog").

A control named by a purpose word gets the group's picture words; one named by a picture word or showing a glyph of
the group, the picture and the purpose words. Never one purpose for another ("Remove" is not "Delete"), and only short
names count: "Close account" is not a close icon.
"""

from __future__ import annotations

import re
from functools import lru_cache

from shared.records import Node

# (purposes, pictures, glyphs), phrases separated by commas: each group is one icon as its page names it and as
# people describe it.
_GROUPS: tuple[tuple[str, str, str], ...] = (
    ("settings, preferences, options, configure, configuration", "gear, cog, cogwheel, wrench", "⚙"),
    ("menu, main menu, navigation", "hamburger, burger, bars, three lines, three line, three horizontal lines, "
     "horizontal lines", "☰≡"),
    ("close, dismiss, clear", "x, cross, times", "×✕✖✗╳"),
    ("delete, remove, discard", "trash, trashcan, trash can, bin, garbage, wastebasket", "🗑"),
    ("edit, modify, rename", "pencil, pen", "✎✏✐"),
    ("add, new, create", "plus", "+＋➕"),
    ("more, more actions", "dots, ellipsis, kebab, meatball, three dots, three dot, vertical dots, three vertical dots, "
     "horizontal dots, three horizontal dots", "⋮⋯…"),
    ("search, find", "magnifier, magnifying glass, loupe", "🔍"),
    ("info, information, about", "i", "ℹ"),
    ("copy, duplicate", "clipboard", "⧉"),
    ("refresh, reload", "circular arrows", "⟳↻"),
    ("help", "question mark", "?"),
    ("theme", "sun, moon", "☀☾"),
    ("filter", "funnel", ""),
    ("expand, collapse", "arrow, caret, chevron, triangle, angle", "▶▸►▼▾›⌄"),
)
# A control whose names say only that it opens a menu ("dropdown menu") may be drawn as any picture of a menu's opener.
_OPENS_MENU = {"menu": frozenset({"menu", "settings", "more", "expand"})}
# An icon's name is one word, or one with a word that says no more ("Open settings", "Close dialog"); "Close
# account" and "Settings for the Payments team" are not icons' names.
_FILLER = frozenset("open show toggle icon button btn menu dialog notification message panel window sidebar navigation "
                    "header toolbar tooltip nav the this".split())


def _phrases(text: str) -> list[tuple[str, ...]]:
    return [tuple(p.split()) for p in text.split(",") if p.strip()]


def _said(phrases: list[tuple[str, ...]], words: set[str]) -> bool:
    """One of the phrases names the control; a one-letter picture ("x", "i") never does: it is a letter's name too."""
    return any(set(p) <= words for p in phrases if len(" ".join(p)) > 1)


_PICTURE_WORDS = frozenset(" ".join(p) for _, picture, _ in _GROUPS for p in _phrases(picture))


@lru_cache(maxsize=4096)
def _synonyms(names: tuple[str, ...]) -> tuple[str, ...]:
    words: set[str] = set()
    glyphs = ""
    for name in names:
        found = re.findall(r"[a-z]+", name.lower())
        if len([w for w in found if w not in _FILLER]) <= 1:
            words.update(found)
        if len(name.strip()) <= 2:
            glyphs += name.strip()
    out: list[str] = []
    for purpose, picture, marks in _GROUPS:
        purposes, pictures = _phrases(purpose), _phrases(picture)
        shown = any(g in marks for g in glyphs)
        pictured = _said(pictures, words)
        given = (pictures if shown or pictured or _said(purposes, words) else []) + \
                (purposes if shown or pictured else [])
        out.extend(" ".join(p) for p in given if not set(p) <= words and " ".join(p) not in out)
    return tuple(out)


def icon_words(n: Node) -> tuple[str, ...]:
    """Other words for the icon a control shows, one word each (empty for a control with a longer name)."""
    if not n.operable:
        return ()
    names = tuple(t for t in (n.aria_label, n.title, n.a11y_name, n.text) if t)
    if any(re.search(r"[^\W\d_]", t) for t in names):
        # A control its page names in words is named by those words, and by what its icon shows: a picture's words
        # ("three dots") never name a control whose own name is another word ("More") unless it shows those dots
        # (its icon's class words, "fa-ellipsis-v"); other words for the same picture ("cog" for a gear) do.
        shown = tuple((n.icon or "").split()) + tuple(t.strip() for t in names if len(t.strip()) <= 2)
        return tuple(w for w in _synonyms(shown) if w in _PICTURE_WORDS) if shown else ()
    names += tuple((n.icon or "").split())  # an icon's class words, each a name of its own ("menu-toggle bars")
    if not (n.text or n.aria_label or n.title):  # nothing else names it: its test id or id ("header--button-settings")
        names += tuple(re.sub(r"([a-z0-9])([A-Z])", r"\1 \2", t).replace("-", " ").replace("_", " ")
                       for t in (n.testid, n.id_attr) if t)
    return _synonyms(names) if names else ()


# Words that say how an icon looks, not what it is: "the small gear", "the grey trash can".
_LOOKS = frozenset("small little tiny big large round grey gray blue red green black white dark light".split())
_LOOK_WORDS = re.compile(rf"\b(?:{'|'.join(sorted(_LOOKS))})\b", re.I)


def pictured(target: str) -> str | None:
    """The purpose of the icon a target names by its picture, its glyph or its purpose, saying nothing else ("small
    gear" -> settings, "copy", "+" -> add, "trash can" -> delete); None for any other target."""
    glyph = glyph_purpose(_LOOK_WORDS.sub(" ", target))  # "the small ×"
    if glyph:
        return glyph
    words = tuple(w for w in re.findall(r"[a-z]+", target.lower()) if w not in _FILLER and w not in _LOOKS)
    return next((purpose.split(",")[0] for purpose, picture, _ in _GROUPS
                 for p in _phrases(purpose) + _phrases(picture) if len(" ".join(p)) > 1 and tuple(p) == words), None)


def named_purpose(n: Node) -> str | None:
    """The icon purpose any of a control's names gives it ("Delete", "Open settings", "Permalink: Installation"
    gives none, its class words "fa-trash" delete), if any; "other" for a name of several words that says none."""
    words: set[str] = set()
    for name in (n.aria_label, n.title, n.a11y_name, n.icon):
        words.update(re.findall(r"[a-z]+", (name or "").lower()))
    found = next((purpose.split(",")[0] for purpose, picture, _ in _GROUPS
                  if _said(_phrases(purpose) + _phrases(picture), words)), None)
    return found


def fits_picture(n: Node, purpose: str) -> bool:
    """A control's own names give it no purpose other than the pictured one's ("dropdown menu" opens a menu, which a
    gear or three dots may draw)."""
    named = named_purpose(n)
    return named in (None, purpose) or purpose in _OPENS_MENU.get(named or "", ())


def glyph_purpose(text: str) -> str | None:
    """'close' for a target that is only a glyph ("the × button"), else None."""
    mark = text.strip()
    if not mark or len(mark) > 2 or re.search(r"\w", mark):
        return None
    return next((purpose.split(",")[0] for purpose, _, marks in _GROUPS if mark in marks), None)
