"""Targets named by their place: grounding's candidates kept to what the sentence's place allows.

A place is always found before anything is looked for in it, and nothing is ever taken outside it: a quoted or
titled place by its text; a place described in lower-case words the page shows nowhere ("under the progress bar",
"in the sidebar") by the part of the page those words name (`PARTS`: its ARIA role or its tag), when the page has
exactly one such part. A place found nowhere leaves no candidate, and the step fails naming it (`missing_place`):
it never widens to the page.

    anchor   "Delete next to Alice", "the checkbox of Water the plants": the candidate's nearest container whose
             text holds the anchor must be the closest of all candidates' (the row of Alice, not the table)
    section  "python under Trending topics", "the Name field in the Billing section": a heading, legend,
             caption or label above the candidate names the section
    ordinal  "the second Delete button": among the best candidates, in reading order

A target with no name ("the second field under Profile", "the checkbox of X") starts from every element that
fits the action and the role hint.
"""

from __future__ import annotations

import re

from shared.records import Candidate, Intent, Node, PageSnapshot
from shared.scenarios import list_items
from shared.words import words_pattern
from workers.agent.language.icons import fits_picture, named_purpose, pictured
from workers.agent.language.part_kinds import CLASS_NAMES, PARTS
from workers.agent.language.phrases import ARTICLE
from workers.agent.reading.coverage import stem

from .scoring import _action_compat, _hint, _hint_compat, is_candidate


def narrow(intent: Intent, snap: PageSnapshot, candidates: list[Candidate]) -> list[Candidate]:
    """The candidates the intent's place allows, best first (all of them when it names no place)."""
    if intent.anchor is None and intent.section is None and intent.ordinal is None and intent.corner is None:
        return candidates
    if not (intent.target or "").strip():
        candidates = _by_role(intent, snap)
    if intent.corner:  # '"Sign out" in the upper right', 'a gear icon in the bottom left corner of the panel'
        candidates = _in_corner(snap, candidates, intent.corner, intent.anchor)
    elif intent.anchor and intent.side in _STACKED:  # 'the "Export" button below the table'
        candidates = _stacked(snap, candidates, intent.anchor, intent.side, intent.section)
    elif intent.anchor and _DESCRIBED.fullmatch(intent.anchor) and (not _shown(snap, intent.anchor)
                                                                     or parts(snap, intent.anchor)):
        # "the checkbox in the toolbar": inside that part, even where a text shows its word ("Toggle sidebar")
        candidates = _in_part(snap, candidates, intent.anchor, below=False)
    elif intent.anchor:
        near = _nearest_to(snap, candidates, _shown_part(snap, intent.anchor), _lateral(intent.side))
        candidates = near or _pictured_by_place(intent, snap)
    if intent.section:
        # A part titled so holds the element before a heading or column header it is merely read under: "Open in
        # the status facet" is the facet's, not a cell of the status column.
        if _DESCRIBED.fullmatch(intent.section) and not _shown(snap, intent.section):
            candidates = _in_part(snap, candidates, intent.section, below=True)  # "under the progress bar"
        else:
            candidates = [c for c in candidates if _under(snap, snap.node(c.node_id), intent.section, by_context=False)] \
                or [c for c in candidates if _under(snap, snap.node(c.node_id), intent.section)] \
                or _on_chosen_view(snap, candidates, intent.section)
    if intent.ordinal is not None and candidates:
        top = round(candidates[0].score, 6)
        tied = sorted((c for c in candidates if round(c.score, 6) == top), key=lambda c: _reading(snap.node(c.node_id)))
        index = intent.ordinal
        return [tied[index]] if -len(tied) <= index < len(tied) else []
    return candidates


def _shown(snap: PageSnapshot, words: str) -> bool:
    """Some element of the page shows or is named by the words."""
    pattern = words_pattern(words)
    return any(pattern.search(t) for n in snap.nodes for t in (n.text, n.aria_label, n.label, n.title, n.placeholder)
               if t)


_DESCRIBED = re.compile(r"[a-z]+(?:[ -][a-z]+)*")  # "progress bar", "options": a description in words, not a title
# 'the new Component filter row': a title said among words that describe it
_TITLED_RUN = re.compile(r"(?<![\w-])[A-Z0-9][\w-]*(?:\s+[A-Z0-9][\w-]*)*")


def _shown_part(snap: PageSnapshot, anchor: str) -> str:
    """The anchor as the page shows it: all its words, or, when the page shows them nowhere, its one run of
    capitalised words among lower-case ones that describe it ("new Component filter" -> "Component")."""
    runs = _TITLED_RUN.findall(anchor)
    if len(runs) != 1 or runs[0] == anchor.strip() or _shown(snap, anchor) or not _shown(snap, runs[0]):
        return anchor
    return runs[0]


def names_nothing(intent: Intent, snap: PageSnapshot) -> bool:
    """A value check's element said in lower-case words of no kind that the page shows nowhere ("the counter", "the
    total"): the words only say what the text is, as in 'the counter reads "4 / 4"'."""
    words = (intent.target or "").split()
    return intent.kind == "assert_value" and intent.role_hint is None and 0 < len(words) <= 2 \
        and _DESCRIBED.fullmatch(intent.target or "") is not None and not _ORDERED.search(intent.target or "") \
        and len((intent.value or "").strip()) >= 4 and not _shown(snap, intent.target or "")


# Words that pick or place the element rather than say what it is ('the first total', 'the old price')
_ORDERED = re.compile(r"\b(?:first|second|third|fourth|fifth|last|next|previous|old|new|top|bottom|left|right|"
                      r"other|same|current)\b")
def parts(snap: PageSnapshot, words: str) -> list[Node]:
    """The visible parts of the page the words name by what they are (`PARTS`), else by what they look like
    (`_looking`), outermost first."""
    said = " ".join(ARTICLE.sub("", words.strip()).lower().split())
    wanted = PARTS.get(said)
    found = _looking(snap, said)
    if wanted is not None:
        roles, tags = wanted
        found += [n for n in snap.nodes if (n.role in roles or n.tag in tags) and n.bbox[2] > 0 and n.bbox[3] > 0
                  and n not in found]
    if not found and said == "table":  # a table drawn with boxes: its lines of cells in columns
        found = drawn_tables(snap)
    if not found and said in CLASS_NAMES:  # a sidebar drawn as a <div class="sidebar">: the page's own word for it
        found = [n for n in snap.nodes if n.bbox[2] > 0 and n.bbox[3] > 0 and any(
            re.search(rf"(?<!\S){name}(?!\S)", n.class_words or "") for name in CLASS_NAMES[said])]
    placed = _POSITIONED.fullmatch(said)
    if not found and placed:  # 'the top navigation bar': a navigation bar standing at the top of the page
        found = [n for n in parts(snap, placed["part"])
                 if _in_corner(snap, [Candidate(node_id=n.id, score=1.0)], _CORNER_OF[placed["at"]], None)]
    side = _SIDE.fullmatch(said)
    if not found and (said == "sidebar" or side):  # 'the right-hand panel': the column on that edge
        found = _side_columns(snap, side["side"] if side else None)
    return [n for n in found if not any(o.id != n.id and _holds(snap, o, n) for o in found)]


def drawn_tables(snap: PageSnapshot) -> list[Node]:
    """Tables drawn with boxes, no <table> nor table role: the smallest box holding two lines of cells in the same
    columns, one right under the other (a line: a box of at least TABLE_CELLS children side by side, left to right at
    one height; the next line under it: the nearest line below that it overlaps side to side; in the same columns:
    each cell of the line with fewer, as it may leave empty cells out, overlapping side to side a cell of the other,
    in order). A heading line and its first row make one, and the rows under them; a toolbar over a heading line in
    other columns does not, nor lines whose smallest common box is the page, its body or a whole form."""
    lines = [(node, cells) for node in snap.nodes if (cells := _cells_in_line(snap, node))]
    tables: dict[int, Node] = {}
    for upper, above in lines:
        ux, uy, uw, uh = upper.bbox
        under = [(lower, below) for lower, below in lines if lower.bbox[1] >= uy + uh - OVERLAP_PX
                 and lower.bbox[0] < ux + uw and ux < lower.bbox[0] + lower.bbox[2]]
        if not under:
            continue
        lower, below = min(under, key=lambda line: line[0].bbox[1])
        if _same_columns(above, below):
            holder = _holding_both(snap, upper, lower)
            if holder is not None and not _whole(snap, holder.id):  # a nav bar over cards is no table of the page
                tables[holder.id] = holder
    return list(tables.values())


def _same_columns(one: list[tuple[float, float, float, float]], other: list[tuple[float, float, float, float]]) -> bool:
    """Each cell of the line with fewer overlaps side to side a cell of the other, in order."""
    fewer, more = sorted((one, other), key=len)
    cells = iter(more)
    return all(any(a[0] < b[0] + b[2] and b[0] < a[0] + a[2] for b in cells) for a in fewer)


TABLE_CELLS = 3  # the fewest cells of a line of a table drawn with boxes


def _cells_in_line(snap: PageSnapshot, node: Node) -> list[tuple[float, float, float, float]]:
    """The boxes of a node's children when they stand in one line, side by side left to right and at one height (each
    overlapping the first top to bottom), at least TABLE_CELLS of them; else none."""
    boxes = [b for b in (snap.node(c).bbox for c in node.children) if b[2] > 0 and b[3] > 0]
    if len(boxes) < TABLE_CELLS:
        return []
    first = boxes[0]
    for before, box in zip(boxes, boxes[1:]):
        if box[0] < before[0] + before[2] - OVERLAP_PX or not (box[1] < first[1] + first[3] and first[1] < box[1]
                                                                + box[3]):
            return []
    return boxes


def _holding_both(snap: PageSnapshot, one: Node, other: Node) -> Node | None:
    """The smallest box holding both nodes (None when they share none: in other frames' trees)."""
    chain = set()
    node: Node | None = one
    while node is not None:
        chain.add(node.id)
        node = snap.node(node.parent) if node.parent is not None else None
    node = other
    while node is not None and node.id not in chain:
        node = snap.node(node.parent) if node.parent is not None else None
    return node


# a part said with where on the page it stands: 'the top navigation bar', 'the bottom toolbar'
# ('left' and 'right' before a part are a side column's: _SIDE)
_POSITIONED = re.compile(r"(?P<at>top|bottom|upper|lower)\s+(?P<part>.+)")
_CORNER_OF = {"top": "top", "upper": "top", "bottom": "bottom", "lower": "bottom"}


# a part said by the side of the page it stands on: 'the right-hand panel', 'the left menu', 'the left sidebar'
_SIDE = re.compile(r"(?P<side>left|right)(?:-hand|\s+hand)?(?:\s+side)?\s+(?:panel|pane|sidebar|side\s?bar|column|menu|"
                   r"navigation|nav)")


def _side_columns(snap: PageSnapshot, side: str | None = None) -> list[Node]:
    """A sidebar drawn with no tag, role or class word for it: a column standing on the left or right edge of the page,
    at least SIDE_HEIGHT of its height; or a part said by its side (side: 'left', 'right'), in the outer tenth of
    that side and not crossing the middle. Either at most SIDE_WIDTH of the page's width, holding something to click."""
    page = snap.node(snap.root).bbox if snap.nodes else (0.0, 0.0, 0.0, 0.0)
    width, height = page[2], page[3]
    if width <= 0 or height <= 0:
        return []
    out = []
    for node in snap.nodes:
        x, y, w, h = node.bbox
        if side is None:  # a sidebar: standing on an edge, tall
            fits = (x <= EDGE_PX or x + w >= page[0] + width - EDGE_PX) and h >= SIDE_HEIGHT * height
        else:  # 'the right-hand panel': in the outer tenth of that side, not crossing the middle
            fits = x + w <= page[0] + width / 2 and x <= page[0] + width / 10 if side == "left" else \
                x >= page[0] + width / 2 and x + w >= page[0] + width * 9 / 10
        if fits and 80 <= w <= SIDE_WIDTH * width and any(n.operable and _holds(snap, node, n) for n in snap.nodes):
            out.append(node)
    return out


EDGE_PX = 8  # how near the page's edge a sidebar stands
SIDE_WIDTH, SIDE_HEIGHT = 0.35, 0.6  # a sidebar's width and height at most / at least, as parts of the page's


# The kinds of box a described place ends with, and what a box of that kind is drawn as (its tags and roles), besides
# a box whose class says the kind: "the filter row" is a <tr>, or a box of class "filter-row".
_SHAPES: dict[str, tuple[frozenset[str], frozenset[str]]] = {
    kind: (frozenset(tags.split()), frozenset(roles.split())) for kind, tags, roles in (
        ("row", "tr", "row"), ("list", "ul ol dl", "list listbox tree"), ("bar", "", ""), ("box", "", ""),
        ("area", "", ""), ("panel", "", "region tabpanel"), ("section", "section fieldset", "region group"),
        ("card", "article", "article"), ("block", "", ""), ("strip", "", ""), ("pane", "", ""), ("group", "fieldset", "group"),
    )
}


def _looking(snap: PageSnapshot, said: str) -> list[Node]:
    """A place described by its look, in words the page shows nowhere whole ("the progress bar", "the filter row",
    "the invoice card"): the boxes drawn as its kind (a bar: at least three times as wide as high) whose class or id
    words hold every other word of it, or, for a box drawn as that kind by its tag, role or class, whose titles (the
    first heading in it, the heading it stands under: `_title_words`) do, whole by stem; its kind alone ("the card"),
    where no part of that name is (`PARTS`): the boxes drawn as it. The page's own words for its boxes say where a
    place is; they never name a target."""
    words = said.split()
    if not words or words[-1] not in _SHAPES or (len(words) == 1 and said in PARTS):
        return []
    kind, marks = words[-1], words[:-1]
    tags, roles = _SHAPES[kind]
    out = []
    for node in snap.nodes:
        x, y, width, height = node.bbox
        if width <= 0 or height <= 0:
            continue
        own = set((node.class_words or "").split())
        if node.role in _HOLDING_ROLES:  # a grid or listbox is a control and a place: its classes say what it is
            own |= set((node.own_class_words or "").split())
        drawn_as = node.tag in tags or node.role in roles or kind in own
        if marks and not (own and _marked(marks, own)) and not (drawn_as and _titled(marks, _title_words(snap, node))):
            continue
        if drawn_as or (marks and ((kind == "bar" and width >= 3 * height > 0) or (not tags and not roles
                                                                                      and kind != "bar"))):
            out.append(node)
    return out


# the roles of a control that holds others, whose class words say what it is as a place's do ('react aria grid list')
_HOLDING_ROLES = frozenset({"grid", "treegrid", "listbox", "tree", "menu", "menubar", "tablist", "toolbar",
                            "radiogroup"})


def _marked(marks: list[str], own: set[str]) -> bool:
    """Every word said of a box is one of its class words, or starts or ends one (at least five letters each)."""
    return bool(own) and all(any(w == m or (min(len(w), len(m)) >= 5 and (w.startswith(m) or m.startswith(w)))
                                 for w in own) for m in marks)


def _titled(marks: list[str], title: set[str]) -> bool:
    """Every word said of a box is a word of its title, by its stem ("files" says file; "membership" is no member)."""
    stems = {stem(w) for w in title}
    return bool(stems) and all(stem(m) in stems for m in marks)


def _title_words(snap: PageSnapshot, node: Node) -> set[str]:
    """The words of a box's titles: the first heading (by role or look) among its elements, in reading order, and the
    heading it stands under (`Node.context`: "Files" over a list of files)."""
    words = set(re.findall(r"[a-z0-9]+", (node.context or "").lower()))
    stack = list(reversed(node.children))
    while stack:
        inner = snap.node(stack.pop())
        if inner.role == "heading" or "heading" in inner.looks:
            return words | set(re.findall(r"[a-z0-9]+", inner.text.lower()))
        stack.extend(reversed(inner.children))
    return words


def _in_part(snap: PageSnapshot, candidates: list[Candidate], words: str, below: bool) -> list[Candidate]:
    """The candidates inside the one part the words name; below (a section): when none is inside and the part holds no
    control of its own (a bar), those just under it, within NEAR_PX and across its width (the link under a progress
    bar). Several parts of that kind: the one part where the target is. None when the page has no such part, or
    several hold it."""
    found = [in_part for part in parts(snap, words) if (in_part := _in_one_part(snap, candidates, part, below))]
    return found[0] if len(found) == 1 else []


def _in_one_part(snap: PageSnapshot, candidates: list[Candidate], part: Node, below: bool) -> list[Candidate]:
    inside = [c for c in candidates if _holds(snap, part, snap.node(c.node_id))]
    if inside or not below or any(n.operable and _holds(snap, part, n) for n in snap.nodes):
        return inside
    x, y, width, height = part.bbox
    out = []
    for candidate in candidates:
        bx, by, bw, _ = snap.node(candidate.node_id).bbox
        if 0 <= by - (y + height) <= NEAR_PX and bx < x + width and x < bx + bw:
            out.append(candidate)
    return out


def missing_place(intent: Intent, snap: PageSnapshot) -> str | None:
    """'place "progress bar" not found': the place a target was said to be in, when the page shows it nowhere (no
    text of it, and not exactly one part of the page its words name); None when it is there, or none was said."""
    if intent.corner and intent.anchor:  # 'at the top right of the sidebar': that part, once
        if len(parts(snap, intent.anchor)) == 0:
            return f"place {intent.anchor!r} not found"
        return None
    if intent.anchor and intent.side in _STACKED:  # 'below the table': exactly one landmark
        found = _landmarks_under(snap, intent.anchor, intent.section)
        if len(found) != 1:
            return f"place {intent.anchor!r} not found" + (f" (the page has {len(found)} it names)" if found else "")
        return missing_place(intent.model_copy(update={"anchor": None}), snap)
    for place in (intent.anchor, intent.section):
        if not place or _shown(snap, place) or _shown(snap, _shown_part(snap, place)):
            continue
        found = parts(snap, place) if _DESCRIBED.fullmatch(place) else []
        if len(found) != 1:
            several = f" (the page has {len(found)} parts it names)" if found else ""
            return f"place {place!r} not found{several}"
    return None


def listed_texts(intent: Intent) -> list[str]:
    """The texts of a value that lists three or more ('Open 7, Closed 4 and In progress 3'), each on its own; the
    value whole otherwise, or when it is an Examples column's."""
    value = intent.value or ""
    return [value] if intent.param or intent.template else list_items(value)


def one_per_element(snap: PageSnapshot, candidates: list[Candidate]) -> list[Candidate]:
    """Best candidates that hold one another are one element on screen, not a choice: a grid that fits only through
    the one card it holds is that card. Of a tied holder and held, the held one stays unless only the holder is
    operable (a clickable card over its own title)."""
    if len(candidates) < 2:
        return candidates
    top = round(candidates[0].score, 6)
    tied = [snap.node(c.node_id) for c in candidates if round(c.score, 6) == top]
    dropped: set[int] = set()
    for outer in tied:
        for inner in tied:
            if outer.id != inner.id and _holds(snap, outer, inner):
                dropped.add(inner.id if outer.operable and not inner.operable else outer.id)
    return [c for c in candidates if c.node_id not in dropped]


def to_the_words(intent: Intent, snap: PageSnapshot, candidates: list[Candidate]) -> list[Candidate]:
    """A box of no role whose text merely holds the named words among many others (a diagram's canvas holding every
    node's label) is not the named element: the one element inside it that shows the words whole (the outermost such)
    is, and takes the action (a double-click on a diagram's node lands on the node, or fails saying what covers it,
    never on the middle of the canvas); with two such elements inside it, neither is said, and the box is dropped."""
    wanted = _words_of(intent.target)
    if not wanted or not candidates:
        return candidates
    out: list[Candidate] = []
    for candidate in candidates:
        box = snap.node(candidate.node_id)
        said = _words_of(box.text)
        if box.role or not box.operable or said == wanted or len(said) < 3 * len(wanted) \
                or any(_words_of(t) == wanted for t in (box.label, box.aria_label, box.title, box.a11y_name)):
            out.append(candidate)
            continue
        showing = [n for n in snap.nodes if n.id != box.id and _words_of(n.text) == wanted and _holds(snap, box, n)]
        # the outermost element that shows just these words: the whole node or card, not the label inside it
        inner = [n for n in showing if not any(o.id != n.id and _holds(snap, o, n) for o in showing)]
        if len(inner) == 1:
            out.append(Candidate(node_id=inner[0].id, score=candidate.score))
        elif not inner:
            out.append(candidate)
    return out


_WORD = re.compile(r"\w+")


def _words_of(text: str | None) -> str:
    """A text's words, lower-case, one space apart: what "shows the words whole" compares."""
    return " ".join(_WORD.findall((text or "").lower()))


def _holds(snap: PageSnapshot, outer: Node, inner: Node) -> bool:
    parent = inner.parent
    while parent is not None:
        if parent == outer.id:
            return True
        parent = snap.node(parent).parent
    return False


def _by_role(intent: Intent, snap: PageSnapshot) -> list[Candidate]:
    hint = _hint(intent)
    out = []
    for node in snap.nodes:
        if not is_candidate(node, snap.root) or not node.operable:
            continue
        fit = _action_compat(intent.kind, node) * _hint_compat(hint, node)
        if fit >= 0.9:
            out.append(Candidate(node_id=node.id, score=round(fit, 6)))
    return sorted(out, key=lambda c: (-c.score, _reading(snap.node(c.node_id))))


NEAR_PX = 150.0  # how far from its anchor's text, edge to edge, an element still reads as "next to" it


def _nearest_to(snap: PageSnapshot, candidates: list[Candidate], anchor: str,
                side: str | None = None, nearest_only: bool = True) -> list[Candidate]:
    """Candidates in the smallest container holding the anchor text (the row, list item or card of "Alice", not the
    list or the table: a "Mark all" checkbox above the list is never "the checkbox of Pay rent").

    A container that holds several candidates (a flat grid), or that is the whole form or page, does not say which
    one is meant: then only the candidates nearest the anchor's own text on screen are kept, none when none is near
    it."""
    pattern = words_pattern(anchor)
    texts: dict[int, str] = {}
    holders: dict[int, list[Candidate]] = {}
    for candidate in candidates:
        node = snap.node(candidate.node_id)
        if pattern.search(text_of(snap, node.id, texts)):
            continue  # the anchor names the row; the target is something else in it
        parent = node.parent
        while parent is not None:
            holder = snap.node(parent)
            if pattern.search(text_of(snap, parent, texts)) or pattern.search(holder.aria_label or ""):
                holders.setdefault(parent, []).append(candidate)
                break
            parent = holder.parent
    if not holders:
        return []
    smallest = min(holders, key=lambda h: (len(text_of(snap, h, texts)), -_depth(snap, h)))
    inside = holders[smallest]
    marks = _anchor_boxes(snap, smallest, pattern, texts)
    if side is not None:  # "to the right of X": only what starts past X's right edge (or ends before its left)
        inside = [c for c in inside if marks and any(_on_side(snap.node(c.node_id).bbox, box, side) for box in marks)]
    if len(inside) == 1 and not _whole(snap, smallest) and (
            _record(snap.node(smallest)) or not marks or any(_beside(snap.node(inside[0].node_id).bbox, box)
                                                             for box in marks)):
        return inside
    if not marks or not inside:
        return inside
    distance = {c.node_id: min(_gap(snap.node(c.node_id).bbox, box) for box in marks) for c in inside}
    nearest = min(distance.values())
    if nearest > NEAR_PX:
        return []
    if not nearest_only:  # every one the place holds, for the caller to find the one it wants alone
        return inside
    # Alike elements at alike distances (a row's two icons) stay for the ordinal or the tie-break to settle.
    return sorted((c for c in inside if distance[c.node_id] <= nearest + 1.0), key=lambda c: distance[c.node_id])


PAGE_SCREEN_PX = 800.0  # "the top right" of the page is a corner of its first screen, "the bottom" of its last


def _extent(snap: PageSnapshot) -> tuple[float, float, float, float]:
    """The page's box: from its top left corner to the right and bottom edges of what it shows (a page whose body is
    a fixed frame draws its root smaller than its contents)."""
    boxes = [n.bbox for n in snap.nodes if n.bbox[2] > 0 and n.bbox[3] > 0]
    if not boxes:
        return 0.0, 0.0, 0.0, 0.0
    return 0.0, 0.0, max(b[0] + b[2] for b in boxes), max(b[1] + b[3] for b in boxes)


def _in_corner(snap: PageSnapshot, candidates: list[Candidate], corner: str, part: str | None) -> list[Candidate]:
    """The candidates whose middle is in that corner or side of the part (said by what it is: the one holding them)
    or, with no part, of the page (its first PAGE_SCREEN_PX for "top", its last for "bottom"): "top" the upper third,
    "bottom" the lower third, "left" and "right" that half; a corner both; the middle always inside the part, whose
    top and bottom reach CORNER_BAND_PX over and under it (the search box of a table's toolbar is at its top right);
    of a bar (three times as wide as high, at most 96 px high) only the side counts, of a column (three times as high
    as wide, at most 400 px wide) only the top or bottom. The best named first, and of those the nearest to the
    corner."""
    if part is not None:
        regions = [p for p in parts(snap, part) if any(_at_part(snap, p, c, corner) for c in candidates)]
        if len(regions) != 1:
            return []
        x, y, w, h = regions[0].bbox
        candidates = [c for c in candidates if _at_part(snap, regions[0], c, corner)]
        band = CORNER_BAND_PX  # a toolbar's control over the part, or under it, stands at its top or bottom too
    else:  # the page: its first screen for "top", its last for "bottom", all of it for a side
        band = 0.0
        x, y, w, h = _extent(snap)
        if "top" in corner:
            h = min(h, PAGE_SCREEN_PX)
        elif "bottom" in corner:
            y, h = y + max(0.0, h - PAGE_SCREEN_PX), min(h, PAGE_SCREEN_PX)
    if w <= 0 or h <= 0:
        return []
    words = corner.split()
    if part is not None and w >= 3 * h and h <= 2 * CORNER_BAND_PX:  # a bar (the header): its top right is its right
        words = [word for word in words if word not in ("top", "bottom")] or words  # end, all of its height
    elif part is not None and h >= 3 * w and w <= 2 * BAR_WIDTH_PX:  # a column (a sidebar): its top left is its top
        words = [word for word in words if word not in ("left", "right")] or words
    out = []
    for candidate in candidates:
        bx, by, bw, bh = snap.node(candidate.node_id).bbox
        cx, cy = bx + bw / 2, by + bh / 2
        fits = x <= cx <= x + w and y - band <= cy <= y + h + band and all(
            {"top": cy <= y + h / 3, "bottom": cy >= y + 2 * h / 3, "left": cx <= x + w / 2,
             "right": cx >= x + w / 2}[word] for word in words)
        if fits:
            far = ((cy - y if "top" in words else y + h - cy if "bottom" in words else 0.0) ** 2
                   + (cx - x if "left" in words else x + w - cx if "right" in words else 0.0) ** 2) ** 0.5
            out.append((far, candidate))
    return [c for _, c in sorted(out, key=lambda fc: (-round(fc[1].score, 6), fc[0]))]


_STACKED = frozenset({"above", "below"})
CORNER_BAND_PX = 48.0  # how far over or under a part its top or bottom reaches (a toolbar's height)
BAR_WIDTH_PX = 200.0  # half the width of a column whose corners are only its top and bottom (a side menu)


def _at_part(snap: PageSnapshot, part: Node, candidate: Candidate, corner: str) -> bool:
    """In the part, or, for its top or bottom, in the band of CORNER_BAND_PX right over or under it and in no
    landmark the part is not in (a toolbar over a table, never the page's header over it)."""
    node = snap.node(candidate.node_id)
    if _holds(snap, part, node):
        return True
    x, y, w, h = part.bbox
    bx, by, bw, bh = node.bbox
    cx, cy = bx + bw / 2, by + bh / 2
    banded = x <= cx <= x + w and (("top" in corner and y - CORNER_BAND_PX <= cy <= y)
                                   or ("bottom" in corner and y + h <= cy <= y + h + CORNER_BAND_PX))
    if not banded:
        return False
    # the part's own toolbar, never a control of a landmark the part is not in (the page's header over a table)
    parent = node.parent
    while parent is not None:
        holder = snap.node(parent)
        if (holder.tag in _LANDMARK_TAGS or holder.role in _LANDMARK_ROLES) and not _holds(snap, holder, part):
            return False
        parent = holder.parent
    return True


# the parts of a page that hold their own controls: their tags and roles (part_kinds.PARTS)
_LANDMARK_TAGS = frozenset().union(*(PARTS[k][1] for k in ("header", "footer", "navigation", "sidebar", "dialog")))
_LANDMARK_ROLES = frozenset().union(*(PARTS[k][0] for k in ("header", "footer", "navigation", "sidebar", "dialog")))


def _lateral(side: str | None) -> str | None:
    """The side of its anchor a target is said to be on, for `_nearest_to`: "left" or "right" ("beside": either)."""
    return side if side in ("left", "right") else None
OVERLAP_PX = 2.0  # how far a box may reach past its landmark's edge and still stand above or below it


def _stacked(snap: PageSnapshot, candidates: list[Candidate], landmark: str, side: str,
             section: str | None = None) -> list[Candidate]:
    """'the "Export" button below the table', 'the Save link above "Notes"': the candidates standing wholly above or
    below the landmark (its top past the landmark's bottom, or its bottom before the landmark's top, OVERLAP_PX
    allowed) and overlapping it side to side: the best named first, and of those the nearest (alike ones at alike
    distances stay for the ordinal or the tie-break). The landmark is found by `landmarks`; none or several
    found: no candidate (the place is missing, or not one)."""
    found = _landmarks_under(snap, landmark, section)
    if len(found) != 1:  # none, or several: which one is not said (missing_place names it)
        return []
    mx, my, mw, mh = found[0].bbox
    distance: dict[int, float] = {}
    for candidate in candidates:
        x, y, w, h = snap.node(candidate.node_id).bbox
        gap = y - (my + mh) if side == "below" else my - (y + h)
        if gap >= -OVERLAP_PX and x < mx + mw and mx < x + w:
            distance[candidate.node_id] = gap
    if not distance:
        return []
    # the best named first (a nearer "Export all" is not "Export"); of those, the nearest (alike ones at alike distances
    # stay for the ordinal or the tie-break)
    standing = [c for c in candidates if c.node_id in distance]
    top = max(round(c.score, 6) for c in standing)
    nearest = min(distance[c.node_id] for c in standing if round(c.score, 6) == top)
    return sorted((c for c in standing if round(c.score, 6) < top or distance[c.node_id] <= nearest + 1.0),
                  key=lambda c: (-round(c.score, 6), distance[c.node_id]))


def _landmarks_under(snap: PageSnapshot, words: str, section: str | None) -> list[Node]:
    """The landmarks the words name (`landmarks`); of several, those under the section said, if one is ('In the "Edit
    node" tray, click Run below the list': the tray's list)."""
    found = landmarks(snap, words)
    if section is not None and len(found) > 1:
        found = [mark for mark in found if _under(snap, mark, section, by_context=False)]
    return found


def landmarks(snap: PageSnapshot, words: str) -> list[Node]:
    """What a target is placed above or below, when the page shows none of the words whole: the parts they name by what
    they are ("table"; "transaction table", a description ending in a kind: the page's one part of that kind), or the
    elements of a kind a title names ("Notes field": a field labelled Notes; "Recent orders table": a table under
    that title); else the innermost elements whose text, name or placeholder holds the words."""
    said = ARTICLE.sub("", words.strip())
    titled = _TITLED_KIND.fullmatch(said)
    if _DESCRIBED.fullmatch(said) and not _shown(snap, said):
        found = parts(snap, said)
        if not found and titled is not None:  # 'the transaction table': the page's one table, its words a description
            found = parts(snap, titled["kind"])
            found = found if len(found) == 1 else []
        return found
    if titled and not _shown(snap, said):  # 'the "Notes" field', 'the Recent orders table': that kind, so titled
        title = words_pattern(titled["title"])
        kind = titled["kind"].lower()
        of_kind = [n for n in snap.nodes if n.input_type or n.role in _FIELD_ROLES] if kind in _FIELDS else \
            parts(snap, kind)
        return [n for n in of_kind
                if any(title.search(t or "") for t in (n.label, n.aria_label, _placeholder(n), n.title))
                or _under(snap, n, titled["title"])]
    pattern = words_pattern(said)
    texts: dict[int, str] = {}
    found = [snap.node(b) for b in _innermost(snap, snap.root, pattern, texts)] if snap.nodes else []
    return [n for n in found if n.bbox[2] > 0 and n.bbox[3] > 0]


_FIELDS = frozenset({"field", "box", "input"})
_FIELD_ROLES = frozenset({"textbox", "searchbox", "combobox"})
# a landmark said by its title and its kind ('the "Notes" field', 'the Recent orders table')
_TITLED_KIND = re.compile(r"(?P<title>.+?)\s+(?P<kind>" + "|".join(sorted({*PARTS, *_FIELDS}, key=len, reverse=True))
                          + ")", re.I)


def _innermost(snap: PageSnapshot, holder: int, pattern: re.Pattern[str], texts: dict[int, str]) -> list[int]:
    """The innermost elements under `holder` whose text, name or placeholder holds the words."""
    out = []
    stack = [holder]
    while stack:
        node = snap.node(stack.pop())
        inner = [c for c in node.children if pattern.search(text_of(snap, c, texts))]
        if inner:
            stack.extend(inner)
        elif any(pattern.search(t or "") for t in (node.text, node.aria_label, _placeholder(node))):
            out.append(node.id)
    return out


def _on_side(box: tuple[float, float, float, float], mark: tuple[float, float, float, float], side: str) -> bool:
    """Past the middle of the anchor's box on that side: beyond its edge, or inside its end (a field's × clear link
    drawn over its right end)."""
    if side == "right":
        return box[0] >= mark[0] + mark[2] / 2
    return box[0] + box[2] <= mark[0] + mark[2] / 2


def _pictured_by_place(intent: Intent, snap: PageSnapshot) -> list[Candidate]:
    """An icon named by its picture that nothing on the page names ('the gear icon to the right of "Installation"':
    an unnamed SVG): the one control without a text at that place, when the place leaves exactly one and its own
    name, if any, gives it no other purpose."""
    purpose = pictured(intent.target or "")
    if purpose is None:
        return []
    # a link only when its own names give it that purpose (a search box's "fa-times" clear link), never a heading's
    # unnamed permalink
    icons = [Candidate(node_id=n.id, score=0.5) for n in snap.nodes
             if n.operable and not n.text and not n.label and n.role in ("button", "link", None)
             and (n.tag != "a" or named_purpose(n) == purpose)
             and is_candidate(n, snap.root) and _action_compat(intent.kind, n) > 0 and fits_picture(n, purpose)]
    near = _nearest_to(snap, icons, intent.anchor, _lateral(intent.side), nearest_only=False)
    return near if len(near) == 1 else []


def _whole(snap: PageSnapshot, node_id: int) -> bool:
    """The page or a whole form: holding a text says nothing about being next to it."""
    node = snap.node(node_id)
    return node_id == snap.root or node.tag in ("body", "html", "form", "main") or node.role in ("main", "form")


def _depth(snap: PageSnapshot, node_id: int) -> int:
    depth, parent = 0, snap.node(node_id).parent
    while parent is not None:
        depth, parent = depth + 1, snap.node(parent).parent
    return depth


def _anchor_boxes(snap: PageSnapshot, holder: int, pattern: re.Pattern[str], texts: dict[int, str],
                  ) -> list[tuple[float, float, float, float]]:
    """The boxes of the innermost elements under `holder` whose text holds the anchor."""
    return [snap.node(n).bbox for n in _innermost(snap, holder, pattern, texts) if n != holder]


def _record(node: Node) -> bool:
    """A container that holds one record (a table row, a list item, an article): all of it is the record's."""
    return node.tag in ("tr", "li", "article") or node.role in ("row", "listitem", "article", "option")


def _beside(box: tuple[float, float, float, float], mark: tuple[float, float, float, float]) -> bool:
    """On the text's line, or within NEAR_PX of it: a wrapper holding both says no more than that."""
    same_line = box[1] < mark[1] + mark[3] and mark[1] < box[1] + box[3]
    return same_line or _gap(box, mark) <= NEAR_PX


def _gap(a: tuple[float, float, float, float], b: tuple[float, float, float, float]) -> float:
    """The distance between two boxes' edges (0 when they touch or overlap)."""
    dx = max(0.0, max(a[0], b[0]) - min(a[0] + a[2], b[0] + b[2]))
    dy = max(0.0, max(a[1], b[1]) - min(a[1] + a[3], b[1] + b[3]))
    return (dx * dx + dy * dy) ** 0.5


def _placeholder(node: Node) -> str | None:
    return node.placeholder if node.tag in ("input", "textarea") else None


def text_of(snap: PageSnapshot, node_id: int, memo: dict[int, str]) -> str:
    """All the text a node shows: its own and its descendants' (the snapshot keeps a container's own text only)."""
    if node_id not in memo:
        node = snap.node(node_id)
        parts = [node.text] if node.text else []
        if _placeholder(node):
            parts.append(_placeholder(node))  # what a field is called by: 'the × at the right end of the "filter" box'
        parts += [text_of(snap, child, memo) for child in node.children]
        memo[node_id] = " ".join(p for p in parts if p)
    return memo[node_id]


def _under(snap: PageSnapshot, node: Node, section: str, by_context: bool = True) -> bool:
    """A heading, legend, caption or label of the node's context or of a container around it names the section
    (by_context False: a container around it only, not a heading or column header the node is read under)."""
    pattern = words_pattern(section)
    if by_context and pattern.search(node.context or ""):
        return True
    parent = node.parent
    while parent is not None:
        holder = snap.node(parent)
        if pattern.search(holder.aria_label or "") or pattern.search(holder.label or ""):
            return True
        if holder.children and _led_by(pattern, _own_words(snap, holder)):
            return True  # a list led by its own title: "Suggested facets: a, b, c"
        for child in holder.children:
            c = snap.node(child)
            if (c.role == "heading" or c.tag in ("legend", "caption")) and pattern.fullmatch((c.text or "").strip()):
                return True
            if child < node.id and (_title_like(snap, c, pattern) or _list_toggle(snap, holder, c, node, pattern)):
                return True
        parent = holder.parent
    return False


def _list_toggle(snap: PageSnapshot, holder: Node, title: Node, node: Node, pattern: re.Pattern[str]) -> bool:
    """A link or button titling the list right after it, which holds the node (a side menu's group: "Site" over its
    Sites, Redirects and Settings), its text the section's."""
    if not title.operable or not pattern.fullmatch((title.text or "").strip()):
        return False
    after = next((snap.node(child) for child in holder.children if child > title.id), None)  # the list right after it
    return after is not None and (after.tag in ("ul", "ol") or after.role in _LISTS) and _holds(snap, after, node)


_LISTS = frozenset({"list", "menu", "group", "tree"})


def _on_chosen_view(snap: PageSnapshot, candidates: list[Candidate], section: str) -> list[Candidate]:
    """'the "Wake up" node on the "Home Automation" flow': a section named by the chosen tab (or menu entry: the view
    the page shows now) holds what the page shows outside it; one of that name not chosen holds nothing."""
    pattern = words_pattern(section)
    chosen = [n for n in snap.nodes if n.selected and n.text and pattern.fullmatch(n.text.strip())]
    return [c for c in candidates if chosen and not any(_holds(snap, n, snap.node(c.node_id)) or n.id == c.node_id
                                                        for n in chosen)]


def _led_by(pattern: re.Pattern[str], own: str) -> bool:
    """The words are the whole of a holder's own text, or its start before a colon ("Suggested facets: a, b (date)")."""
    if pattern.fullmatch(_LIST_PUNCTUATION.sub("", own)):
        return True
    led = pattern.match(own.lstrip())
    return led is not None and own.lstrip()[led.end():].lstrip().startswith(":")


_LIST_PUNCTUATION = re.compile(r"^[\s:,;|·•]+|[\s:,;|·•]+$")  # what is left of "Label: a, b" without a and b


def _own_words(snap: PageSnapshot, node: Node) -> str:
    """The node's text without its children's: "Suggested facets: status, project" -> "Suggested facets: , "."""
    text = " ".join((node.text or "").split())
    memo: dict[int, str] = {}
    for child in node.children:
        # a child read with no words of its own (a list) holds its children's: "Ticket System" over its sub-list
        words = " ".join((snap.node(child).text or text_of(snap, child, memo)).split())
        if words:
            text = text.replace(words, " ", 1)
    return " ".join(text.split())


def _title_like(snap: PageSnapshot, node: Node, pattern: re.Pattern[str]) -> bool:
    """A text that titles what follows it without being a heading: a sidebar box's title, a styled p or div, a card
    header, a "Label:" before a list. It is read-only, holds nothing operable but glyphs (a ✖ that clears it), and
    its text is the section's, a count after it aside ("project_id 5")."""
    if node.operable or any(_worded(snap, c) for c in node.children):
        return False
    text = " ".join(text_of(snap, node.id, {}).split()).rstrip(":").strip()
    found = pattern.match(text) if text else None
    return found is not None and _NO_WORDS.fullmatch(text[found.end():]) is not None  # "project_id 5 ✖": a count


_NO_WORDS = re.compile(r"[\W\d_]*")


def _worded(snap: PageSnapshot, node_id: int) -> bool:
    """An operable element with words of its own (a link "Edit"), not a glyph (a "✖" that clears the section)."""
    node = snap.node(node_id)
    return node.operable and _NO_WORDS.fullmatch(node.text or "") is None


def _reading(node: Node) -> tuple[float, float, int]:
    return round(node.bbox[1], 1), round(node.bbox[0], 1), node.id
