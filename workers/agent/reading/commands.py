"""An action sentence read as its commands by a grammar (`commands.lark`), with the same lexicon and parser as the
claims of an expected result (claims.py): what to do, to which element (its name, its kind, its order), with which
value, and where (inside a part of the page, in the row of a text).

    'Click "Checking" in the sidebar'                       -> click "Checking", inside the sidebar
    'Untick the "draft", "archived" and "deleted" checkboxes' -> uncheck each, as a checkbox
    'In the "Add account" dialog, type "Cash" into Name and click Create'
                                                            -> fill Name with "Cash" and click Create, both under
                                                               "Add account"
    'Click the Delete button for "Alice"'                   -> click Delete (a button) in the row of "Alice"

Every word has its place or the sentence has no reading here; a sentence read two ways that mean different things has
none either. The brain reads action sentences by this grammar first with Settings.expected_reader "grammar", and by
its phrase rules when it has no reading (brains/builtin.py).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from functools import lru_cache
from pathlib import Path

from lark import Lark, Token, Tree

from .claims import (LEXICON, NAMING, Span, Word, _NoReading, _span, _tokens, _whole, _Words, lexicon, one_meaning,
                     written)

# The words of doing, and of where an element is, over the claims' lexicon (whose other classes have no place here)
TABLE: dict[str, str] = LEXICON | {word: kind for kind, words in {
    "CLICK": "click tap hit open follow",
    "MOVE": "go switch navigate",  # 'Go to the Settings tab': to what is clicked
    "TO": "to",
    "CLEAR": "clear",
    "CLOSE": "close dismiss",  # 'Close the dialog': its close control
    "PRESS": "press push",
    "HOVER": "hover",
    "TICK": "tick check",
    "UNTICK": "untick uncheck",
    "TYPE": "type enter input write",
    "FILL": "fill",
    "SELECT": "select choose pick",
    "INTO": "into",
    "AS": "as",
    "OF": "of",
    "FOR": "for",
    "ORD": "first second third fourth fifth last",
    "PREP": "in inside within on over",
    "UNDER": "under",
    "AT": "at",
    "CORNER": "top bottom left right upper lower left-hand right-hand",
    "CORNERNOUN": "corner side",
    "IT": "it",
}.items() for word in words.split()}
# several elements of a kind ('the "A" and "B" checkboxes')
TABLE |= {plural: kind for word, kind in LEXICON.items() if kind in ("ELEMENT", "KIND")
          for plural in (word + "s", word + "es")}
ORDINALS = {"first": 0, "second": 1, "third": 2, "fourth": 3, "fifth": 4, "last": -1}
_ROWS = frozenset("row line entry item record card".split())
_SINGULAR = {plural: word for word, kind in LEXICON.items() if kind in ("ELEMENT", "KIND")
             for plural in (word + "s", word + "es")}
_CHECKABLE = frozenset("checkbox box toggle radio option".split())
# what 'Select the "X" ...' ticks by itself (an option is left to the rules: it may be one of a list)
_CHOSEN = frozenset({"radio", "radio button", "checkbox"})
_BESIDE = frozenset({"next to", "beside"})
_CORNER_WORDS = {"top": "top", "upper": "top", "bottom": "bottom", "lower": "bottom", "left": "left",
                 "left-hand": "left", "right": "right", "right-hand": "right"}
# a command's place, as read
_PLACES = frozenset({"inside", "inside_of", "row_of", "stacked", "under", "in_under", "corner"})
# commands whose verb a tester says once for two elements ('Click "A", then the "B" button')
_SAID_AGAIN = frozenset({"click", "press", "check", "uncheck"})  # (never a hover: 'then "Sign out"' is clicked)
_STACKED = {"above": "above", "below": "below", "beneath": "below", "underneath": "below"}  # ('over' is 'in' here)


@dataclass(frozen=True)
class Where:
    """Where an element is: in the row, card or line holding a text (anchor), under a title (section), or inside a
    part named by what it is (part: 'sidebar', 'main menu')."""

    anchor: str | None = None
    section: str | None = None
    part: str | None = None
    kind: str | None = None  # what the section's title heads ('dialog' in 'in the "Add account" dialog')
    # 'below the table', 'above the "Notes" field': the element stands on that side ("above", "below") of the
    # landmark (a part said by what it is, or a text with or without its kind), which is held in `anchor`
    side: str | None = None
    # 'at the top right (of the sidebar)': that corner or side of the part (in `part`) or of the page
    corner: str | None = None
    span: Span | None = field(default=None, compare=False)


@dataclass(frozen=True)
class Command:
    """One thing to do: its verb (click, press, hover, check, uncheck, fill, select, clear, type_here: typing into the
    field in use), the element's name and kind as
    said ('Save', 'button'), its order among its kind (0-based, -1 the last), a value typed or chosen, and where."""

    verb: str
    target: str | None
    kind: str | None = None
    ordinal: int | None = None
    value: str | None = None
    where: Where = Where()
    span: Span = field(default=(0, 0), compare=False)
    said_as: str | None = None  # words that say what the element is ('file' in 'the "Budget" file')

    def said(self) -> str:
        what = " ".join(filter(None, (f"the {_ORDER[self.ordinal]}" if self.ordinal is not None else None,
                                      repr(self.target) if self.target else None, self.kind))) or "?"
        where = (f' at the {self.where.corner}' + (f' of the {self.where.part}' if self.where.part else '')
                 if self.where.corner else
                 f' next to {self.where.anchor!r}' if self.where.side == "beside" else
                 f' {self.where.side} {self.where.anchor!r}' if self.where.side else
                 f' in the row of {self.where.anchor!r}' if self.where.anchor else
                 f' under {self.where.section!r}' + (f' inside the {self.where.part}' if self.where.part else '')
                 if self.where.section else
                 f' inside the {self.where.part}' if self.where.part else "")
        if self.where.section and (self.where.anchor or self.where.corner):  # a title said before another place
            where += f" under {self.where.section!r}"
        value = f" with {self.value!r}" if self.value is not None else ""
        said_as = f" (said to be a {self.said_as})" if self.said_as else ""
        return f"{self.verb} {what}{said_as}{value}{where} ({self.span[0]}-{self.span[1]})"


_ORDER = {v: k for k, v in ORDINALS.items()}


@dataclass(frozen=True)
class Commands:
    """The commands of a sentence, or why it has none."""

    commands: tuple[Command, ...] = ()
    refusal: str | None = None


@lru_cache(maxsize=1)
def _parser() -> Lark:
    return Lark(Path(__file__).with_name("commands.lark").read_text(), parser="earley", lexer=_Words,
                ambiguity="explicit")


# 'type: select a from b', 'add the line: || a || b ||': after a verb of typing and a colon, the rest of the sentence is
# what is typed, as if quoted
_TYPED_AFTER_COLON = re.compile(r"\b(?:type|enter|write|input)\s*:\s*(?P<typed>\S.*?)\s*$", re.I)
# words after which a sentence may go on with another command, or name a field: the typed text's end is not said then
_MORE_TO_DO = re.compile(r"(?i)(?:\b(?:and|then)\b|[,;]\s*)\s*(?:then\s+)?(?:press|click|tap|hit|type|enter|select|"
                         r"choose|pick|tick|untick|check|uncheck|go|open|submit|save|clear|fill)\b|\b(?:into|in\s+the)\b")


def read(sentence: str) -> Commands:
    """The commands of an action sentence, or why this grammar has none."""
    words = lexicon(sentence, TABLE)
    typed = _TYPED_AFTER_COLON.search(sentence)
    if typed is not None and _MORE_TO_DO.search(typed["typed"]):
        typed = None  # 'type: hello and press Enter': where the text ends is not said (quote it)
    if typed is not None and not any(w.kind == "Q" and w.span[0] >= typed.start() for w in words):
        start = typed.start("typed")
        words = [w for w in words if w.span[1] <= start and not (w.kind == "COLON" and w.span[0] >= typed.start())]
        words.append(Word("Q", typed["typed"], typed.span("typed")))
    if not words:
        return Commands(refusal="it says nothing")
    meaning = one_meaning(_parser(), words, sentence, _commands, ends="what to do",
                          unread="what to do, to what or where", quote="name")
    if isinstance(meaning, str):
        return Commands(refusal=meaning)
    return Commands(commands=meaning)


def _text(tree: Tree | Token, words: list[Word], sentence: str) -> tuple[str, Span]:
    """A name or a value as written: a quoted text without its quotes, else the words it spans."""
    return written(_tokens(tree), words, sentence)


def _said(tree: Tree, kinds: tuple[str, ...], words: list[Word]) -> str | None:
    found = [words[int(t)].text.lower() for t in _tokens(tree) if t.type in kinds]
    return " ".join(found) or None


def _target(tree: Tree, words: list[Word], sentence: str) -> tuple[str | None, str | None, int | None]:
    """(name, kind, ordinal) of a target subtree."""
    kind_tree = next((c for c in tree.children if isinstance(c, Tree) and c.data == "kind"), None)
    kind = _said(kind_tree, ("ELEMENT", "KIND", "LIST"), words) if kind_tree is not None else None
    if kind is not None:  # 'the "A" and "B" checkboxes': each a checkbox
        kind = " ".join(_SINGULAR.get(w, w) for w in kind.split())
    ordinal = next((ORDINALS[words[int(t)].text.lower()] for t in tree.children
                    if isinstance(t, Token) and t.type == "ORD"), None)
    if tree.data in ("named", "said_named"):
        named = next(c for c in tree.children if isinstance(c, Tree) and c.data == "named")
        return _text(named, words, sentence)[0], kind, ordinal
    if tree.data == "field":
        return _target(tree.children[0], words, sentence)
    if tree.data in ("described", "label"):  # 'the close button', 'as the summary': the words name it
        low = [t for t in tree.children if isinstance(t, Token) and t.type == "LOW"]
        return written(low, words, sentence)[0], kind, ordinal
    return None, kind, ordinal


def _part_words(part: Tree, words: list[Word]) -> str:
    """A part said by what it is, in its words: 'right sidebar', 'search form'."""
    return _said(part, ("LOW", "CORNER", "KIND", "LIST"), words) or ""


def _where(tree: Tree | None, words: list[Word], sentence: str) -> Where:
    if tree is None:
        return Where()
    span = _span(words, _tokens(tree))
    if tree.data == "stacked":  # 'below the table', 'above the "Notes" field'
        near = next(words[int(t)].text.lower() for t in tree.children if isinstance(t, Token) and t.type == "NEAR")
        side = _STACKED.get(" ".join(near.split()))
        if side is None:  # 'next to': the row or line of a text (row_of), never a part's side
            raise _NoReading(f"{_whole(sentence)!r}: an element {near} a part is not found by this reading")
        landmark = tree.children[-1]
        if landmark.data == "part":
            words_said = _said(landmark, ("LOW", "KIND", "LIST", "ELEMENT"), words)
        else:  # 'the "Notes" field', 'the Recent orders table': the title, and the kind it is (places.landmarks)
            kind = _said(landmark, ("KIND", "LIST", "ELEMENT"), words)
            title = written([t for t in _tokens(landmark) if t.type in NAMING], words, sentence)[0]
            words_said = f"{title} {kind}" if kind else title
        return Where(anchor=words_said, side=side, span=span)
    if tree.data == "corner":  # 'at the top right', 'in the upper left corner of the sidebar'
        said = [_CORNER_WORDS[words[int(t)].text.lower()] for t in tree.children
                if isinstance(t, Token) and t.type == "CORNER"]
        if len(said) == 2 and (said[0] not in ("top", "bottom") or said[1] not in ("left", "right")):
            raise _NoReading(f"{_whole(sentence)!r}: {' '.join(said)} is no corner")
        return Where(part=_said(tree, ("LOW", "KIND", "LIST"), words), corner=" ".join(said), span=span)
    if tree.data == "in_under":  # 'in the sidebar under Site': under Site, inside the sidebar
        part, holder = [c for c in tree.children if isinstance(c, Tree)]
        tree = Tree("under", [holder, part])
    if tree.data in ("under", "lead_under"):  # 'under "Queries"': the title above it; 'under the progress bar'
        holder, *inside = [c for c in tree.children if isinstance(c, Tree)]
        if inside:  # 'Under Categories in the right sidebar, ...': under that title, inside that part
            if holder.data == "part":
                raise _NoReading(f"{_whole(sentence)!r}: a part under a part is not read")
            return replace(_where(Tree(tree.data, [holder]), words, sentence), part=_part_words(inside[0], words),
                           span=span)
        if holder.data == "named":  # 'Under Queries, ...'
            return Where(section=_text(holder, words, sentence)[0], span=span)
        if holder.data == "part":
            return Where(section=_part_words(holder, words), span=span)
        title = written([t for t in _tokens(holder) if t.type in NAMING], words, sentence)[0]
        return Where(section=title, kind=_said(holder, ("KIND", "LIST"), words), span=span)
    if tree.data in ("inside_of", "lead_of"):  # 'in the Archive section of the sidebar': that title, in that part
        holder, part = [c for c in tree.children if isinstance(c, Tree)]
        inside = _where(Tree("inside", [holder]), words, sentence)
        if inside.section is None or inside.part is not None:
            raise _NoReading(f"{_whole(sentence)!r}: only a titled part is read inside another part")
        return replace(inside, part=_part_words(part, words), span=span)
    if tree.data in ("row_of", "lead_row"):
        near = next((words[int(t)].text.lower() for t in tree.children if isinstance(t, Token) and t.type == "NEAR"),
                    None)
        if near is not None and " ".join(near.split()) not in _BESIDE:
            raise _NoReading(f"{_whole(sentence)!r}: an element {near} another is not found by this reading")
        named = next((c for c in tree.children if isinstance(c, Tree) and c.data == "named"), None)
        side = "beside" if near is not None else None  # said 'next to' or 'beside': so described
        if named is None:  # 'next to it': the element said before it (brains/builtin.py _pronoun_placed)
            return Where(anchor="it", side=side, span=span)
        return Where(anchor=_text(named, words, sentence)[0], side=side, span=span)
    holder = [c for c in tree.children if isinstance(c, Tree)][-1]
    kind = _said(holder, ("KIND", "LIST"), words)
    said = [words[int(t)].text.lower() for t in _tokens(holder)]
    if holder.data == "part" and len(said) == 2 and said[0] in ("that", "this") and said[1] in _ROWS:
        return Where(anchor="that", span=span)  # 'in that row': the row said before (brains/builtin.py)
    if holder.data == "part":
        return Where(part=_part_words(holder, words), span=span)
    title = written([t for t in _tokens(holder) if t.type in NAMING], words, sentence)[0]
    if kind in _ROWS:  # 'in the "Alice" row': the row holding the text
        return Where(anchor=title, span=span)
    return Where(section=title, kind=kind, span=span)


def _closing_control(elements: list[Tree], closed: Tree, words: list[Word], sentence: str,
                     ) -> tuple[str | None, str | None, int | None]:
    """What closes a part: the control said after 'with' ('with its × button'), else a Close button."""
    said = [e for e in elements if e is not closed]
    return _target(said[0], words, sentence) if said else ("Close", "button", None)


def _commands(tree: Tree, words: list[Word], sentence: str) -> list[Command]:
    lead = next((c for c in tree.children if isinstance(c, Tree) and c.data.startswith("lead")), None)
    everywhere = _where(lead, words, sentence) if lead is not None else Where()
    out: list[Command] = []
    verb, placed = None, False  # the command before: its verb, and whether it had a place of its own
    for command in (c for c in tree.children if isinstance(c, Tree) and not c.data.startswith("lead")):
        if command.data == "again":  # 'Click "A" in the sidebar, then the "B" button'
            if verb not in _SAID_AGAIN:
                raise _NoReading(f"{_whole(sentence)!r}: what to do with an element said after another command is "
                                 "not said")
            if words[int(_tokens(command)[0])].kind != "DET":  # 'Click "A" in the sidebar, "B" and "C"': where?
                raise _NoReading(f"{_whole(sentence)!r}: an element said after a placed one is read only with 'the'")
            if not placed:  # 'Click "A" and "B" in the sidebar', 'Untick "A", "B" and "C" checkboxes': one command
                raise _NoReading(f"{_whole(sentence)!r}: a verb said once for two elements is read only when the "
                                 "first has a place of its own")
            command = Tree(verb, command.children)
        verb = command.data
        placed = any(isinstance(c, Tree) and c.data in _PLACES for c in command.children)
        subtrees = [c for c in command.children if isinstance(c, Tree)]
        if command.data == "fill_pairs":  # 'Fill in Username alice and Password secret'
            for pair in subtrees:
                label = written([t for t in pair.children if isinstance(t, Token)], words, sentence)[0]
                value = _text(pair.children[-1], words, sentence)[0]
                out.append(Command("fill", label, None, None, value, everywhere, _span(words, _tokens(pair))))
            continue
        place = next((c for c in subtrees if c.data in _PLACES), None)
        where = _where(place, words, sentence) if place is not None else everywhere
        if place is not None and lead is not None:
            # 'In the "Edit node" tray, click the "Run" button below the property list': under the title, and there
            if everywhere.section is None or everywhere.part or where.section or where.part:
                raise _NoReading(f"{_whole(sentence)!r}: an element placed twice")
            where = replace(where, section=everywhere.section, kind=everywhere.kind)
        value_tree = next((c for c in subtrees if c.data == "value"), None)
        value = _text(value_tree, words, sentence)[0] if value_tree is not None else None
        targets = next((c for c in subtrees if c.data == "targets"), None)
        elements = [c for c in targets.children if isinstance(c, Tree)] if targets is not None else \
            [c for c in subtrees if c.data in ("named", "said_named", "described", "kind_only", "field", "label")]
        span = _span(words, _tokens(command))
        if command.data in ("fill", "select") and place is None and any(e.data in ("described", "label") or (
                e.data == "field" and e.children[0].data in ("described", "label")) for e in elements):
            # 'the suggestions dropdown', 'as the summary': a field said in lower-case words, which the phrase
            # rules tell from a list that opened (a pick) and find by its label; said with a place, it is read here,
            # so that the place is kept ('into the search box at the top right')
            raise _NoReading(f"{_whole(sentence)!r}: a field said in lower-case words is not read here")
        if command.data == "move":  # 'Go to the "Settings" tab': a click on it; an address is gone to by the rules
            target, kind, ordinal = _target(elements[0], words, sentence)
            if elements[0].data != "named" or ordinal is not None:  # 'Switch to the second tab': a browser's tab
                raise _NoReading(f"{_whole(sentence)!r}: a tab or page said by its kind or order is the rules'")
            if target.startswith(("/", "<")) or "://" in target or re.fullmatch(r"[\w.-]+\.[a-z]{2,}(?:/\S*)?", target):
                raise _NoReading(f"{_whole(sentence)!r}: an address is gone to, not clicked")
            out.append(Command("click", target, kind, None, None, where, span))
            continue
        if command.data == "close_named":  # 'Close the "Welcome" notification': its Close button, in that text's box
            named = next(c for c in subtrees if c.data == "named")
            target, kind, ordinal = _closing_control(elements, named, words, sentence)
            what = next(words[int(t)].text.lower() for t in command.children
                        if isinstance(t, Token) and t.type == "LOW")
            out.append(Command("click", target, kind, ordinal, None, Where(anchor=_text(named, words, sentence)[0]),
                               span, said_as=what))
            continue
        if command.data == "close":  # 'Close the dialog with CLOSE': the control said, else its Close button, in it
            holder = next(c for c in subtrees if c.data in ("titled", "kind_titled", "part"))
            inside = _where(Tree("inside", [holder]), words, sentence)
            if inside.anchor is not None:  # a row or a record: no part that closes
                raise _NoReading(f"{_whole(sentence)!r}: only a part of the page is closed")
            target, kind, ordinal = _closing_control(elements, holder, words, sentence)
            out.append(Command("click", target, kind, ordinal, None, inside, span))
            continue
        if command.data == "type_here":  # 'type "x"': into the field in use (brains/builtin.py)
            out.append(Command("type_here", None, value=value, where=where, span=span))
            continue
        inner = [e.children[0] if e.data == "field" else e for e in elements]
        if any(e.data in ("described", "label") and _target(e, words, sentence)[2] is not None for e in inner):
            # 'the last name field': the last "name" field, or the field "last name"? never guessed
            raise _NoReading(f"{_whole(sentence)!r}: an order said before lower-case words is not read here")
        found = [_target(element, words, sentence) for element in elements]
        plural = found[-1][1] is not None and any(w.text.lower() in _SINGULAR for w in words[int(_tokens(
            elements[-1])[0]):int(_tokens(elements[-1])[-1]) + 1] if w.kind in ("ELEMENT", "KIND"))
        said_as = [_said(e, ("LOW",), words) if e.data == "said_named" else None for e in inner]
        for (name, kind, ordinal), what in zip(found, said_as, strict=True):
            if kind is None and plural:  # 'the "A", "B" and "C" checkboxes': each of that kind
                kind = found[-1][1]
            if command.data in ("check", "uncheck") and kind is not None and kind not in _CHECKABLE:
                raise _NoReading(f"{_whole(sentence)!r}: a {kind} is not ticked or unticked")
            if command.data == "choose" and kind not in _CHOSEN:  # 'Select "Backend"': from which list is not said
                raise _NoReading(f"{_whole(sentence)!r}: a {kind or 'text'} selected alone is left to the rules")
            out.append(Command(command.data, name, kind, ordinal, value, where, span, said_as=what))
    return out
