"""An expected result the rules do not read, read as its claims.

Each clause of the result claims that the texts it quotes (and the numbers it writes with three digits or more, or
with decimals) are shown, or, after a negation, are not, inside the part of the page a title it names heads ('in the
"Reviews" list', 'under Unpaid'). Nothing else is read: every other word has to be accounted for by the
whole-sentence check (`coverage.py`), which the brain runs on this reading before it is used, so a result that says
more than its texts and places ("in bold", "grouped by", "sorted") is refused naming those words, never checked in
part.

    'The review "Great value" by "Sam" appears in the "Reviews" list'
        -> "Great value" under "Reviews", "Sam" under "Reviews"
    '"Inbox" is still listed, but "Drafts" and "Spam" are not'
        -> "Inbox" shown; "Drafts" not shown; "Spam" not shown
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from workers.agent.language.phrases import TOKEN, Sentence

# A clause starts after these, when what follows says something of its own (a verb or a negation): 'A is shown and B
# is not', 'A is listed; B is gone', 'A is listed, but B is not'.
_BOUNDARY = re.compile(r"(\s*;\s*|,?\s+but\s+|,\s*and\s+|\s+and\s+|,\s+)", re.I)
_SAYS = re.compile(r"\b(?:is|are|was|were|be|shows?|appears?|lists?|listed|displays?|displayed|reads?|says?|contains?|"
                   r"includes?|has|have|remains?|stays?|gone|disappears?|visible|present|missing|absent|hidden|removed|"
                   r"deleted)\b|n't\b", re.I)
NEGATION = re.compile(r"\b(?:not|no|never|none|nor|neither|gone|disappears?|disappeared|vanish(?:es|ed)?|hidden|absent|"
                      r"missing|removed|deleted)\b|n't\b", re.I)
# 'and "News" is not': the predicate of the clause before it, denied
_ELLIPTIC = re.compile(r"\s*(?:\x01\d+\x02(?:\s*(?:,|and)\s*\x01\d+\x02)*)\s+(?:is|are|was|were|does|do|did|has|have)"
                       r"(?:\s+not|n't)\s*", re.I)
# alternatives and conditions: which texts must be shown is not said ('"Gone" is shown or not')
_ALTERNATIVE = re.compile(r"\b(?:or|either|whether|if|unless|maybe|perhaps|might|may|sometimes)\b", re.I)
# a place named by its title: quoted, or in capitalised words followed by the kind of part it is
_KINDS = r"(?:list|section|panel|box|group|table|tab|column|card|menu|sidebar|area|page|dialog|tree|pane|block|view)"
_PLACE = re.compile(rf"\b(?:in|under|inside|within|below|beneath|on|from)\s+(?:the\s+)?(?:(?P<quoted>\x01\d+\x02)"
                    rf"(?:\s+{_KINDS})?|(?P<words>(?-i:[A-Z][\w-]*)(?:\s+(?-i:[A-Z][\w-]*)){{0,2}})\s+{_KINDS}\b)", re.I)
_NUMBER = re.compile(r"(?<![\w.,])(?:\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+\.\d+|\d{3,})(?![\w,]*\d)")


@dataclass(frozen=True)
class Claim:
    """One text said to be shown (or not), and the titled part of the page it is said of (None: the page)."""

    text: str
    shown: bool
    place: str | None = None


def clauses(masked: str) -> list[str] | None:
    """The masked result split where each part says something of its own; names alone ('"A", "B"') go with the part
    after them ('"A", "B" and "C" are not shown' is one clause). None when names alone stand before a 'but' ('"A"
    but not "B" is shown': which is said of which is not read here)."""
    parts = _BOUNDARY.split(masked)
    pieces, boundaries = parts[0::2], parts[1::2] + [""]
    out: list[str] = []
    waiting: list[str] = []
    for piece, boundary in zip(pieces, boundaries, strict=True):
        if not piece.strip():
            continue
        if not _SAYS.search(piece):
            if "but" in boundary.lower() or NEGATION.search(piece):
                return None  # '"A" but not "B" is shown', '"A" is shown, not "B"': which is denied is not read here
            waiting.append(piece)
            continue
        out.append(" and ".join([*waiting, piece]))
        waiting = []
    if waiting:
        if not out:
            return []  # nothing is said of them
        out[-1] = " and ".join([out[-1], *waiting])
    return out


def read_claims(text: str) -> list[Claim]:
    """The claims of an expected result; empty when it quotes no text and writes no number, or when its polarity is
    not read exactly here (a denial of a denial: '"A" is no longer in "X" and "B" is not')."""
    s = Sentence(text)
    out: list[Claim] = []
    said = clauses(s.masked)
    if said is None or _ALTERNATIVE.search(s.masked):
        return []
    before: tuple[bool, str | None] | None = None  # the clause before: its polarity and its place
    for clause in said:
        if _ELLIPTIC.fullmatch(clause):
            if before is None or not before[0]:
                return []  # nothing to deny, or a denial of a denial
            shown, place, outside = False, before[1], clause
        else:
            found = _PLACE.search(clause)
            place = None
            if found:
                place = s.tokens[int(TOKEN.fullmatch(found["quoted"])[1])] if found["quoted"] else found["words"]
            outside = clause[:found.start()] + clause[found.end():] if found else clause
            denials = len(NEGATION.findall(TOKEN.sub(" ", outside)))  # (never a word of a title or a quoted text)
            if denials > 1:
                return []  # 'is not missing', 'not hidden but still there': a denial of a denial
            shown = denials == 0
        texts = [s.tokens[int(n)] for n in TOKEN.findall(outside)]
        texts += _NUMBER.findall(TOKEN.sub(" ", outside))
        out += [Claim(t, shown, place) for t in texts if t.strip()]
        before = (shown, place)
    return out
