"""What the page says an element is, against the words a tester said it is: 'the "Household Budget" file', 'the chip
"tiny-logger"', 'the assignee "Ivan Petrov"', 'the file "Budget" is listed'.

Such words name no element (no role is a file, and a row or an icon is found by its words); they say what the element
or text is. They are used only when the page says so too, in words a person reads, words a page's author wrote for it
(every word said, by its stem: "files" says "file") or the roles it gave it:

- its title: the heading, legend, caption or row and column headers nearest it (`Node.context`), else the title its
  own box starts with, else its form's title;
- its classes: the class and id words of the element and of its `ANCESTORS` nearest ancestors ("MuiChip-root" says
  chip);
- its role in the accessibility tree, or that of an element it stands just inside (`KIND_ROLES`, with how far up for
  each word: 'the "Renew" row' is a text in a row's cell, 'the message "Saved"' a text in an alert or status region),
  or what its look alone says it is (`Node.looks`: a text set as a heading), and for an icon, a control named by its
  picture alone.

Never its own words: those are its name, which the whole-sentence check already reads ('the milestone heading
"Milestone: 1.0"'), and for a text checked as shown they are the text itself ('Budget files' says no file is named
"Budget"). A text checked as shown is found as the element whose own words are that text, whole.

Found, the operation says where (`said_so`), and the whole-sentence check (reading/coverage.py) sees the words used;
not found, they stay unused and the step is a partial reading: never a reason to take another element.
"""

from __future__ import annotations

import re

from shared.records import Node, PageSnapshot
from shared.words import words_pattern
from workers.agent.grounding.places import text_of
from workers.agent.language.roles import KIND_ROLES
from workers.agent.reading.coverage import stem

ANCESTORS = 2  # how many boxes around an element its classes are read in (a link's list item, and its list)

_PIECES = re.compile(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])|\d+")  # words of a class or id: "MuiChip-root" -> Mui Chip root


def _stems(text: str | None) -> set[str]:
    return {stem(w) for w in _PIECES.findall(text or "")}


def said_so(page: PageSnapshot, node: Node, said_as: str) -> str | None:
    """Where the page says the node is what `said_as` says ('file': 'under "Files"'), or None when it does not say
    every word of it."""
    wanted = [stem(w) for w in re.findall(r"[^\W\d_]+", said_as)]
    if not wanted:
        return None
    chain = [node]  # the element and the elements holding it, nearest first, as far up as any source reads
    while len(chain) <= _REACH and chain[-1].parent is not None:
        chain.append(page.node(chain[-1].parent))
    sources = [
        ("under", next((t for t in (node.context, node.box_title, node.form_title) if t), None)),
        ("of class", " ".join(filter(None, (w for box in chain[:ANCESTORS + 1]
                                            for w in (box.class_words, box.own_class_words, box.id_attr))))),
    ]
    said = []
    for word in wanted:
        where = next(((how, text) for how, text in sources if text and word in _stems(text)), None) \
            or _role_of(chain, word)
        if where is None:
            return None
        if where not in said:
            said.append(where)
    return ", ".join(f'{how} "{" ".join(text.split())[:60]}"' for how, text in said)


def anchor_holder(page: PageSnapshot, node: Node, anchor: str) -> Node | None:
    """The nearest element holding the node whose text holds the anchor's words ('the Close button in the row of
    "Welcome"': the box of "Welcome"), what words said of the anchored text are said of; None when none does."""
    words = words_pattern(anchor)
    holder = page.node(node.parent) if node.parent is not None and anchor.split() else None
    memo: dict[int, str] = {}  # each element's text, read once as the walk goes up
    while holder is not None:
        if words.search(text_of(page, holder.id, memo)):  # all it shows, as grounding found the anchor by
            return holder
        holder = page.node(holder.parent) if holder.parent is not None else None
    return None


def showing(page: PageSnapshot, text: str) -> list[Node]:
    """The elements whose own words are the text, whole (case and spaces aside): where a text checked as shown is, in
    the page's order."""
    wanted = " ".join(text.split()).lower()
    return [n for n in page.nodes if wanted and " ".join(n.text.split()).lower() == wanted]


_KIND_OF_STEM = {stem(word): said for word, said in KIND_ROLES.items()}
_REACH = max(ANCESTORS, *(up for _, up in KIND_ROLES.values()))
# the words said of a text in a region (an alert or a status), never of a control inside it
_SAID_OF_TEXT = {stem(word) for word, (roles, _) in KIND_ROLES.items() if "alert" in roles}


def _role_of(chain: list[Node], word: str) -> tuple[str, str] | None:
    """('of role', "row") when the element, or one holding it near enough (`KIND_ROLES`), has a role the kind word (a
    stem) is said of: its role, or its tag where it has none. An icon: a control named by its picture alone, or a
    picture itself; a row never a header row's cell; a message never a control inside it."""
    roles, up = _KIND_OF_STEM.get(word, (None, 0))
    if roles is None:
        return None
    if word == stem("icon") and chain[0].icon:
        return "an icon", chain[0].icon
    if word in _SAID_OF_TEXT and chain[0].operable:
        return None  # ('the error "Retry"': the Retry button of an alert is no error)
    for box in chain[:up + 1]:
        said = box.role or box.tag
        if word == stem("row") and said in ("columnheader", "th"):
            return None
        if said and said.lower() in roles:
            return "of role", said
        look = next((look for look in box.looks if look in roles), None)
        if look is not None:  # a heading by its look alone (a large <span> over a list)
            return "looking like a", look
    return None
