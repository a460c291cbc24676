"""Text handling shared by the builtin brain's rules.

Quoted strings are masked before any rule looks at a sentence: each becomes an opaque token
(`\x01N\x02`), so no rule and no splitter ever looks inside quotes. `Sentence.unmask` restores
the quoted content (without the quotes).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field

from workers.agent.language.icons import pictured


class Unsupported(Exception):
    """A sentence (or part of one) the builtin brain will not guess at; the message says why."""

    def __init__(self, reason: str, clause: str | None = None, *, final: bool = False) -> None:
        super().__init__(reason)
        self.reason = reason
        self.clause = clause  # the clause it concerns, as written, when known
        self.final = final  # the whole clause is refused: splitting it at each 'and' would change its meaning


class NotUnderstood(Unsupported):
    """No rule matched at all (as opposed to a rule refusing for a stated reason)."""


@dataclass(frozen=True)
class Place:
    """Where a target is, as a tester says it: "Delete next to Alice" (anchor: a text of the row, list item or card
    that holds it), "the Name field under Billing" (section: a heading above it), "the second Delete button"
    (ordinal: 0-based, -1 for the last)."""

    anchor: str | None = None
    section: str | None = None
    ordinal: int | None = None
    # "right" / "left": the side of its anchor it is on ("the gear to the right of X"); "above" / "below": it stands
    # above or below the anchor ("the Export button below the table")
    side: str | None = None
    again: bool = False  # "that copy icon", "it", "the same button": the element an operation before acted on
    part: str | None = None  # what the section's title heads, as said ("dialog"), or the part the anchor names
    # "at the top right (of the card)": the corner or side of its anchor (a part said by what it is) or of the page's
    # top it stands in: "top", "bottom", "left", "right", "top left", "top right", "bottom left", "bottom right"
    corner: str | None = None
    # what the section's title heads when the part is said besides ('the Archive section of the sidebar': "section")
    heads: str | None = None


@dataclass
class Op:
    """An intent before placeholder substitution and description."""

    kind: str  # an action kind's name (workers.agent.actions)
    target: str | None = None
    role_hint: str | None = None
    value: str | None = None
    place: Place = field(default_factory=Place)
    said_as: str | None = None  # what the step said the element or text is ('file' in 'the "Budget" file')
    # the sentence's words this operation carries out as part of a whole a form does ('Search for Davis' typed into
    # the search field and submitted, 'Fill in the form with valid values'): said before its own description
    doing: str | None = None

    @classmethod
    def on(cls, kind: str, target: Target, **fields) -> Op:
        return cls(kind, target=target.name, role_hint=target.role, place=target.place,
                   **({"said_as": target.said_as} if target.said_as and "said_as" not in fields else {}), **fields)


# --- quotes ------------------------------------------------------------------------

# An opening quote starts the text or follows a space or opening punctuation; the closing
# quote ends the text or precedes a space or punctuation, so apostrophes ("owner's") are not quotes.
QUOTE = re.compile(
    r"""(?<![^\s(\[{,:;=])"""
    r"""(?:'(?P<a>.*?)'|"(?P<b>.*?)"|‘(?P<c>.*?)’|“(?P<d>.*?)”)"""
    r"""(?![^\s.,;:!?)\]}])""",
    re.S,
)
TOKEN = re.compile("\x01(\\d+)\x02")
_TOKEN_LIST = re.compile("\x01\\d+\x02(?:\\s*(?:,\\s*(?:and\\s+)?|and\\s+|&\\s*)\x01\\d+\x02)*")
ARTICLE = re.compile(r"^(?:the|a|an)\s+", re.I)


_CELL_OF_ROW = re.compile(r"(?P<name>.+?)\s+(?:in|under)\s+the\s+\S+(?:\s+\S+)?\s+column\s+(?:of|in|for)\s+(?:(?:that|this|the\s+same)\s+"
                          r"row|the\s+(?P<row>\x01\d+\x02)\s+row|the\s+row\s+(?:of|for)\s+(?P<row2>\x01\d+\x02))", re.I)
_NUMBERED = re.compile(r"(?<![\w#&/])#\d+\b")


# Words that say more than shown / not shown: an order, a count, a state, a look, a comparison.
SAYS_MORE = frozenset("""first second third fourth fifth last only every each all none empty blank disabled
    enabled ticked unticked checked unchecked selected highlighted bold italic underlined red green blue grey gray
    greyed sorted ascending descending indented collapsed expanded once twice times count exactly
    less fewer greater increased decreased dark light background icon without set focused active inactive
    open closed same different one two three four five six seven eight nine ten zero instead rather unless until
    except excluding replaced replaces replace leaving least most up""".split())
# Words that pick one part of many ('the top row', 'the latest entry', 'row 1'): more than "the page shows".
PICKS = re.compile(r"\b(?:first|second|third|fourth|fifth|last|only|every|each|all|latest|newest|oldest|"
                   r"\d+(?:st|nd|rd|th)|(?:top|bottom)\s+(?:row|entry|item|line|result|record)|"
                   r"(?:row|entry|item|line|result|record)\s+\d+)\b", re.I)


@dataclass
class Sentence:
    raw: str
    masked: str = ""
    tokens: list[str] = field(default_factory=list)
    # An expected-result cell: what it says is so ("I am on the Roadmap page") is checked, never done.
    expected: bool = False
    # How the grammar reads a checkable statement ('X is shown'), for a kind's rule that holds one ("Check the
    # Email field shows ..."): given by whoever reads the sentence, so that no kind imports a brain.
    statements: Callable[[str, Sentence], list[Op]] | None = field(default=None, repr=False, compare=False)

    def __post_init__(self) -> None:
        def keep(match: re.Match[str]) -> str:
            self.tokens.append(next(g for g in match.groups() if g is not None))
            return f"\x01{len(self.tokens) - 1}\x02"

        text = re.sub(r"\s+", " ", self.raw).strip()
        # ('ticket #13', 'issues #7 and #10': a number with its sign is a text a person reads, as if quoted)
        self.masked = _NUMBERED.sub(lambda m: self.quote(m[0]), QUOTE.sub(keep, text))

    def statement(self, masked: str) -> list[Op]:
        """The assertions a checkable statement says (see `statements`); Unsupported when it says none."""
        if self.statements is None:
            raise Unsupported(f"{self.show(masked)!r}: cannot be read as a statement here")
        return self.statements(masked, self)

    def unmask(self, text: str) -> str:
        return TOKEN.sub(lambda m: self.tokens[int(m[1])], text).strip()

    def show(self, text: str) -> str:
        """Masked text back to what the user wrote, quotes included."""
        return TOKEN.sub(lambda m: f"'{self.tokens[int(m[1])]}'", text).strip()

    def quote(self, text: str) -> str:
        """Unquoted words read as a quoted text: their token, in masked form."""
        self.tokens.append(text)
        return f"\x01{len(self.tokens) - 1}\x02"

    def is_quoted(self, text: str) -> bool:
        return TOKEN.fullmatch(text.strip()) is not None

    def token_list(self, text: str) -> list[str] | None:
        """`'A'`, `'A' and 'B'`, `'A', 'B', and 'C'` -> their contents; anything else -> None."""
        text = text.strip()
        if not _TOKEN_LIST.fullmatch(text):
            return None
        return [self.tokens[int(n)] for n in TOKEN.findall(text)]

    def has_token(self, text: str) -> bool:
        return TOKEN.search(text) is not None


# --- targets ------------------------------------------------------------------------

ROLE_NOUNS: list[tuple[str, str]] = [
    (r"radio\s*button|radio", "radio"),
    (r"check\s*box|tick\s*box|switch", "checkbox"),
    (r"drop[\s-]?down(?:\s+(?:list|menu|box))?|select(?:\s+(?:box|list|menu))?|combo\s*box|list\s*box|picker", "dropdown"),
    (r"text\s*(?:box|field|area|input)|input\s+(?:field|box)|field|input|box|(?:code\s+|text\s+|rich[\s-]text\s+)?editor",
     "field"),
    (r"button|btn", "button"),
    (r"hyperlink|link", "link"),
    (r"menu\s+item", "menuitem"),
    (r"tab", "tab"),
    (r"option", "option"),
    (r"icon|symbol|glyph", "icon"),
    (r"row|card|tile|list\s+item", "row"),
    (r"column\s+(?:header|heading|title)|header\s+cell", "header"),
]  # fmt: skip
_CONTAINERS = (
    r"section|row|table|form|panel|dialog|modal|card|area|list|header|footer|menu|sidebar|column|region|"
    r"pane|fieldset|group|page|screen|window|tab|box|facet|filter|widget|tray|toolbar|block|tile|drawer|popover|"
    r"popup|legend|summary"
)
_ORDINALS = {"first": 0, "1st": 0, "second": 1, "2nd": 1, "third": 2, "3rd": 2, "fourth": 3, "4th": 3,
             "fifth": 4, "5th": 4, "last": -1}
_ORDINAL = re.compile(r"(?P<o>" + "|".join(_ORDINALS) + r")\s+(?P<rest>.+)", re.I)
# "Delete next to Alice", "the trash icon in the row of Alice", "Edit in the Alice row": the row's own text
_ANCHORED = [
    re.compile(r"(?P<name>.+?)\s+(?:in|on|within)\s+(?:the\s+)?(?:row|line|card|entry|item|list\s+item)\s+"
               r"(?:(?:for|of|with|containing)\s+(?P<anchor>.+)|(?:named\s+|called\s+)?(?P<anchor2>\x01\d+\x02))", re.I),
    re.compile(r"(?P<name>.+?)\s+(?:in|on|within)\s+(?:the\s+)?(?P<anchor>.+?)\s+(?:row|line|card|entry|item)", re.I),
    re.compile(r"(?P<name>.+?)\s+(?:next\s+to|beside|alongside|belonging\s+to)\s+(?:the\s+)?(?P<anchor>.+)", re.I),
    # 'the text box after the operator dropdown': the one following an element said by its kind, or a quoted text
    re.compile(r"(?P<name>.+?)\s+(?:just\s+|directly\s+|immediately\s+|right\s+)?(?:after|following)\s+(?:the\s+)?"
               r"(?P<anchor>\x01\d+\x02|[^\x01]+?\s+(?:dropdown|field|box|button|link|checkbox|label|heading|icon|select))",
               re.I),
    # 'the gear icon to the right of the "Installation" heading', 'the copy icon at the end of the "npm i" line'
    re.compile(r"(?P<name>.+?)\s+(?:just\s+|directly\s+|immediately\s+)?(?:(?:to|at|on)\s+the\s+)?(?P<side>right|left)\s+of\s+"
               r"(?:the\s+)?(?P<anchor>.+?)(?:\s+(?:line|row|heading|title|label|text))?", re.I),
    # 'the small arrow in front of "Order Processing"': on its left
    re.compile(r"(?P<name>.+?)\s+(?:just\s+|directly\s+|right\s+)?(?P<front>in\s+front\s+of)\s+(?:the\s+)?"
               r"(?P<anchor>.+?)(?:\s+(?:line|row|entry|item|node|heading|title|label|text))?", re.I),
    # 'the small "×" at the right end of the "filter nodes" box': the side it says
    re.compile(r"(?P<name>.+?)\s+(?:at|on)\s+the\s+(?:(?P<edge>right|left)(?:-hand)?\s+)?(?P<end>end|start|beginning|side|edge)"
               r"\s+of\s+(?:the\s+)?(?P<anchor>\x01\d+\x02|[^\x01]+?(?=\s+(?:line|row)\b))"
               r"(?:\s+(?:line|row|entry|heading|title|label|text|box|field|input|search\s+box|bar|node|item|card))?"
               r"(?:\s+(?:in|under|within|inside|on)\s+.+)?", re.I),
]
# "the checkbox of Water the plants", "the star icon for Alice": only after a noun naming the kind of element
# (otherwise "Terms of Service" would be split)
# "of this package", "of the current page": the one the page is about; never "this row" or "this comment" (one of
# several, said before)
_THIS_ONE = re.compile(r"(?:this|that|the\s+current|current)\s+(?:page|package|project|repository|repo|site|app|"
                       r"application|document|module|library|product|account|profile|workspace)", re.I)
# lower case only: "This week" is a name
_AGAIN = re.compile(r"(?:(?:that|this|the\s+same|same)\s+(?P<rest>(?!one\b)[^\x01]+?)|it|them)(?:\s+again)?")
_LINE_SIDE = {"end": "right", "start": "left", "beginning": "left"}  # of a line, read left to right
# 'the second row (of the table)': a row by its order, as an anchor's words
_ORDINAL_ROW = re.compile(r"(?:the\s+)?(?:first|second|third|fourth|fifth|last|top|bottom|1st|2nd|3rd|4th|5th)"
                          r"(?:\s+(?:row|line|entry|item|record)(?:\s+(?:of|in)\s+the\s+\w+)?(?:\s*\([^)]*\))?)?", re.I)
_ROW_KIND = re.compile(r"(?:the\s+)?(?:first|second|third|fourth|fifth|last|selected|new|header|top|bottom|next|"
                       r"previous|empty|highlighted|current|this|that|same)\s+(?:row|line|entry|list\s+item)$", re.I)
_ROW_NOUN = re.compile(r"(?<=\S)\s+(?:row|line|entry|list\s+item)$", re.I)
_OWNED = re.compile(r"(?P<name>.+?)\s+(?:of|for)\s+(?:the\s+)?(?P<anchor>.+)", re.I)
# "python under Trending topics", "the Name field in the Billing section"
_SECTIONED = [
    re.compile(r"(?P<name>.+?)\s+(?:under|below|beneath)\s+(?:the\s+)?(?P<sec>.+?)"
               r"(?:\s+(?P<kind>heading|title|section))?", re.I),
    re.compile(rf"(?P<name>.+?)\s+(?:in|within|inside|on)\s+(?:the\s+)?(?P<sec>.+?)\s+(?P<kind>{_CONTAINERS})", re.I),
]
# The kind of part that is what a title heads, whatever the page draws around it ('the Profile section'): said of a
# section found under its title, it is what was found, and the description says it (a panel, an area, a heading: what
# the page draws, which finding a title does not see)
_TITLED_REGIONS = frozenset({"section"})
_POSITIONAL = re.compile(r"(?:any|random|another|other|some|each|every|one\s+of\s+the)", re.I)


@dataclass(frozen=True)
class Target:
    """The element a clause names: its name, a role hint from its noun, and where it is. Unpacks as
    (name, role)."""

    name: str
    role: str | None
    place: Place = Place()
    # what the clause said the element is in a word no role is looked for by ('the trash icon', 'the Alice row'):
    # used when the page says so too (grounding/what_it_is.py)
    said_as: str | None = None

    def __iter__(self):
        return iter((self.name, self.role))


def split_role(phrase: str) -> tuple[str, str | None]:
    """'the Add Owner button' -> ('Add Owner', 'button'); a phrase that is only a noun keeps it."""
    phrase = ARTICLE.sub("", phrase.strip())
    for pattern, role in ROLE_NOUNS:
        m = re.fullmatch(rf"(?P<n>.*?)\s*\b(?:{pattern})", phrase, re.I)
        if m:
            return ARTICLE.sub("", m["n"].strip()), role
    return phrase, None


# A part of the page every application has, named by what it is rather than by a title (lower case words only:
# "in the Billing panel" names a section, "in the sidebar" does not).
_LANDMARK = re.compile(
    r"\s+(?:in|on|from|inside|within|at)\s+(?:[Tt]he\s+)?(?P<part>(?:[a-z-]+\s+){0,2}?(?:sidebar|side\s?bar|header|"
    r"footer|toolbar|tool\s?bar|navigation(?:\s+(?:bar|menu|pane))?|nav(?:\s?bar)?|menu\s?bar|top\s?bar|"
    r"tree(?:\s+view)?|menu|breadcrumbs?|table|grid|list|page|screen|canvas|workspace))$|"
    # 'the Site section of the left menu', 'the "Blog posts" row of the dashboard': a part every page has
    r"\s+of\s+(?:[Tt]he\s+)?(?P<part2>(?:[a-z-]+\s+){0,2}?(?:sidebar|side\s?bar|header|footer|toolbar|navigation|menu|"
    r"page|screen|dashboard))$")
_WHOLE_PAGE = re.compile(r"(?:[a-z-]+\s+){0,2}?(?:page|screen)")


def _landmark(phrase: str) -> tuple[str, str | None]:
    """'Checking in the left sidebar' -> ('Checking', 'left sidebar'): the element's words, and the part of the page it
    was said to be in, by what the part is (grounding finds it, places.py `parts`); 'on the page' is no part."""
    m = _LANDMARK.search(phrase)
    if m is None:
        return phrase, None
    said = " ".join((m["part"] or m["part2"]).split()).lower()
    return phrase[:m.start()], None if _WHOLE_PAGE.fullmatch(said) else said

_QUOTED_IN_QUOTED = re.compile(r"(?P<name>\x01\d+\x02)(?:\s+(?P<noun>[\w-]+))?\s+(?:in|on|inside|within|of)\s+(?:the\s+)?"
                               r"(?P<sec>\x01\d+\x02)(?:\s+(?P<kind>[\w-]+))?", re.I)

# Where on the screen an element is, said after its name ('at the top right', 'in the bottom left corner of the
# sidebar'): that corner or side of the page, or of a part said by what it is (places.py `_in_corner`)
_CORNER = re.compile(r"\s+(?:at|in|on|towards?)\s+the\s+(?:very\s+|far\s+)?"
                     r"(?P<corner>(?:top|bottom|upper|lower)(?:[\s-]+(?:left|right))?|left|right)(?:[\s-]+hand)?"
                     r"(?:\s+(?:corner|side|edge))?(?:\s+of\s+(?:the\s+)?"
                     r"(?P<of>(?:[a-z-]+\s+){0,2}?(?:sidebar|side\s?bar|header|footer|toolbar|navigation(?:\s+bar)?|"
                     r"nav(?:\s?bar)?|menu\s?bar|top\s?bar|panel|card|dialog|table|list|page|screen|window)))?$", re.I)
_CORNER_WORDS = {"upper": "top", "lower": "bottom"}


def _corner(phrase: str) -> tuple[str, str | None, str | None]:
    """'the gear icon at the top right of the header' -> ('the gear icon', 'top right', 'header'): the element's words,
    the corner or side it stands in, and the part said by what it is whose corner that is (None: the page's)."""
    m = _CORNER.search(phrase)
    if m is None:
        return phrase, None, None
    corner = " ".join(_CORNER_WORDS.get(w, w) for w in re.split(r"[\s-]+", m["corner"].lower()))
    part = " ".join(m["of"].split()).lower() if m["of"] else None
    return phrase[:m.start()], corner, None if part is None or _WHOLE_PAGE.fullmatch(part) else part


# 'the "Add New" link above the transaction table': standing above a part said in lower-case words (places.py
# `_stacked`; 'below' and 'under' are read as under a title, `_SECTIONED`)
_ABOVE = re.compile(r"\s+above\s+the\s+(?P<part>[a-z][a-z-]*(?:\s+[a-z][a-z-]*){0,2})$")


# Where on the screen an element is, said after its name, in words no place is found by: it helps a person look, it
# names nothing; the whole-sentence check finds such words unused (reading/coverage.py).
_ON_SCREEN = re.compile(
    r"\s+(?:(?:at|in|on|near|towards?)\s+the\s+(?:very\s+|far\s+)?(?:top|bottom|upper|lower|left|right|middle|centre|center)"
    r"\b[^\x01]*|above\s+the\s+[^\x01]+|at\s+the\s+(?:end|bottom|top|start|beginning|foot)\s+of\s+the\s+"
    r"(?:page|list|table|form|screen|results)(?:\s+[^\x01]*)?)$", re.I)


ON_SCREEN = _ON_SCREEN


# A parenthesis after the element's words: its name ("its label is Account menu"), the icon it shows ("the ☰ icon"),
# or a hint where to look ("left of the info icon").
_ASIDE = re.compile(r"(?P<words>.*?)\s*\((?P<aside>[^()]*)\)(?P<after>\s+(?:above|below|beneath|under|next\s+to|beside|in|"
                    r"on|at|of|for|near|inside|within)\s+[^()]+)?\s*$")
_ASIDE_NAME = re.compile(r"(?:its\s+(?:label|name|title|tooltip)\s+(?:is|says|reads)|label(?:l?ed)?|named|called|titled)\s+"
                         r"(?P<name>.+)|(?:its\s+)?(?:tooltip|title)(?:\s+(?:is|says|reads))?:?\s+(?P<quoted>\x01\d+\x02)",
                         re.I)
_ASIDE_SHOWS = re.compile(r"(?:it\s+|which\s+|that\s+|the\s+one\s+(?:that\s+)?)?(?:shows|showing|reads|reading|says|is\s+set\s+to|"
                          r"set\s+to)\s+"
                          r"(?P<v>\x01\d+\x02)", re.I)
_DROPDOWN = re.compile(r"\b(?:dropdown|drop-down|select|selector|combo\s*box)\b", re.I)
# 'the action dropdown showing "---------"': a dropdown named by the option it shows
_SHOWING = re.compile(r"(?:[\w-]+\s+){0,2}?(?:dropdown|drop-down|select|selector|combo\s*box)\s+(?:that\s+|which\s+)?"
                      r"(?:shows|showing|reads|reading|set\s+to)\s+(?P<v>\x01\d+\x02)", re.I)
_ASIDE_ICON = re.compile(r"(?:the\s+|a\s+|an\s+)?(?P<icon>\S+)\s+(?:icon|symbol|sign)", re.I)


# 'the arrow whose tooltip is "Choose"', 'the icon with the title "Copy"': the element its tooltip names
_DESCRIBING = r"(?:(?!(?:of|on|in|for|at|to|from|next|beside|with|whose|and)\b)[a-z-]+\s+)"
_WHOSE_TIP = re.compile(_DESCRIBING + r"{1,4}(?:whose|with\s+(?:the|a))\s+(?:tooltip|title|hover\s+text)\s+"
                        r"(?:is\s+|says\s+|reads\s+)?(?P<quoted>\x01\d+\x02)"
                        r"(?P<rest>\s+(?:next\s+to|beside|in|on|under|within|of|for)\s+.+)?", re.I)


_WHOSE = re.compile(r",\s*(?:whose|which|that)\s+(?:[a-z-]+\s+){1,3}?(?:reads|shows|says|is)\b.*$", re.I)

# 'the main menu with the three-line icon': the element by the picture it shows
_WITH_ICON = re.compile(r"(?:[\w-]+\s+){1,3}?with\s+(?:(?:the|a|an|its)\s+(?P<icon>(?:[a-z-]+\s+){0,2}?[a-z-]+|[^\w\s\x01\x02]{1,2})\s+"
                        r"(?:icon|symbol|sign)|(?:the\s+)?(?P<drawn>(?:three|3)\s+(?:horizontal\s+|vertical\s+)?(?:lines|dots|bars)))"
                        r"(?P<rest>\s+(?:at|in|on|near|towards?)\s+the\s+.+)?", re.I)


def _aside(phrase: str) -> str:
    """'main menu (the ☰ icon)' -> '☰'; '... (its label is Account menu)' -> 'Account menu'; a hint is dropped;
    'main menu with the three-line icon' -> 'three-line icon'."""
    tip = _WHOSE_TIP.fullmatch(phrase)
    if tip:
        return tip["quoted"] + (tip["rest"] or "")
    with_icon = _WITH_ICON.fullmatch(phrase)
    if with_icon:
        return f"{with_icon['icon'] or with_icon['drawn']} icon{with_icon['rest'] or ''}"
    m = _ASIDE.fullmatch(phrase)
    if not m:
        return phrase
    aside = m["aside"].strip()
    named = _ASIDE_NAME.fullmatch(aside)
    if named:  # ('the left arrow (tooltip "Previous month") above the summary': the name, then where it is)
        return (named["name"] or named["quoted"]).strip() + (m["after"] or "")
    shows = _ASIDE_SHOWS.fullmatch(aside)
    after = m["after"] or ""
    if shows and _DROPDOWN.search(m["words"]):  # 'the dropdown next to the box (it shows "Everything")'
        return f"{shows['v']} dropdown{after}"
    icon = _ASIDE_ICON.fullmatch(aside)
    if icon and not re.search(r"\w", icon["icon"]):  # a glyph: what the page shows is that sign
        return icon["icon"] + after
    return m["words"].strip() + after


def target_phrase(sentence: Sentence, masked: str, default_role: str | None = None) -> Target:
    """The element a clause names, a role hint from its noun, and its place (see `Place`).

    'Delete next to Alice' -> Delete, anchored on a container holding "Alice"; 'the second field under Profile' ->
    a field (no name), the second under the heading "Profile"; 'the checkbox of Water the plants' -> a checkbox
    in the row of "Water the plants". Grounding looks for the name and keeps what the place allows.
    """
    phrase = re.sub(r"^(?:on|at)\s+", "", masked.strip(), flags=re.I)
    again = _AGAIN.fullmatch(phrase)
    if again:  # 'Click that copy icon' after hovering it: that element, its name checked against what was said
        name, role = split_role(again["rest"] or "")
        return Target(sentence.unmask(name), role or default_role, Place(again=True))
    phrase = _aside(ARTICLE.sub("", phrase))
    cell = _CELL_OF_ROW.fullmatch(phrase)
    if cell:  # 'Gustav Berg in the lead_id column of that row': in that row (the column helps a person look)
        name, role = split_role(cell["name"])
        row = cell["row"] or cell["row2"]
        return Target(sentence.unmask(name), role or default_role,
                      Place(anchor=sentence.unmask(row) if row else "that"))
    owner = re.match(r"(?:its|their)\s+(?=\S)", phrase, re.I)
    if owner and not sentence.is_quoted(phrase):  # 'its Edit button': the one of what was said before
        name, role = split_role(phrase[owner.end():])
        return Target(sentence.unmask(name), role or default_role, Place(anchor="it"))
    phrase = _WHOSE.sub("", phrase)  # 'the "Visa Card" account, whose balance reads -562.82': what it shows besides
    showing = _SHOWING.fullmatch(phrase)
    if showing:
        phrase = f"{showing['v']} dropdown"
    phrase, corner, cornered = _corner(phrase)  # "at the top right (of the header)": that corner of the page or part
    above = _ABOVE.search(phrase)
    if above:  # "above the transaction table": standing above that part
        phrase = phrase[:above.start()]
    phrase, landmark = _landmark(phrase)  # "in the sidebar", "from the left-hand menu": inside that part
    phrase = _ON_SCREEN.sub("", phrase)  # "at the end of the list": where a person looks, not a name
    anchor = section = side = part = region = None
    ordinal: int | None = None
    phrase_before = phrase
    both = _QUOTED_IN_QUOTED.fullmatch(phrase)
    if both:  # 'the "Wake up" node on the "Home Automation" flow': a name, and the part of the page it is in
        named = both["name"] + (" " + both["noun"] if both["noun"] and split_role(both["noun"])[1] else "")
        if re.fullmatch(r"row|line|entry|item|record", both["kind"] or "", re.I):
            phrase, anchor = named, both["sec"]  # 'the "+" toggle of the "Our History" row': in that row
        else:
            phrase, section = named, both["sec"]
    elif not sentence.is_quoted(phrase):
        for pattern in _ANCHORED:
            m = pattern.fullmatch(phrase)
            if m:
                phrase, anchor = m["name"], m["anchor"] or m.groupdict().get("anchor2")
                if _ORDINAL_ROW.fullmatch(anchor.strip()):
                    raise Unsupported(f"{sentence.show(anchor)!r}: a row said by its order is not found for an action; "
                                      'name the row by a text it shows, e.g. Click "Edit" in the row of "Alice"')
                said = m.groupdict()
                side = ((said.get("side") or said.get("edge") or "").lower()
                        or _LINE_SIDE.get((said.get("end") or "").lower()) or ("left" if said.get("front") else None))
                break
        else:
            m = _OWNED.fullmatch(phrase)
            if m and (split_role(m["name"])[1] is not None or sentence.is_quoted(m["anchor"].strip())):
                # "the value dropdown of the Component row": the row's text is "Component"
                phrase, anchor = m["name"], m["anchor"]
                if not _ROW_KIND.match(anchor.strip()):
                    anchor = _ROW_NOUN.sub("", anchor.strip()) or anchor
        if anchor and _THIS_ONE.fullmatch(anchor.strip()):
            anchor = side = None  # "the Dependencies tab of this package": the one on the page, no place
        if anchor and not sentence.has_token(anchor) and re.search(r"\b(?:next\s+to|beside|alongside)\s", phrase_before, re.I):
            # 'next to the search box': the words that name that control
            named, kind = split_role(ARTICLE.sub("", anchor.strip()))
            if kind in ("field", "button", "link", "dropdown", "checkbox") and named.strip():
                anchor = named
        for pattern in _SECTIONED:
            m = pattern.fullmatch(phrase)
            if m and split_role(m["sec"])[1] not in ("field", "button", "link", "checkbox", "dropdown"):
                phrase, section = m["name"], split_role(m["sec"])[0]
                region = (m["kind"] or "").lower()
                titled = not re.fullmatch(r"(?:first|second|third|fourth|fifth|last|next|previous)", section.strip(),
                                          re.I)  # ('under the first section' names no title)
                part = region if region in _TITLED_REGIONS and titled else None
                if not anchor and re.search(r"\s(?:column\s+(?:header|heading|title)|header(?:\s+cell)?)$", m[0], re.I):
                    # 'the gear icon in the "status" column header': in that header cell, as in a row
                    anchor, section = re.sub(r"\s+column$", "", section, flags=re.I), None
                break
        phrase, inner = _landmark(ARTICLE.sub("", phrase.strip()))
        landmark = landmark or inner
        m = _ORDINAL.fullmatch(phrase)
        # "the second Delete button", "the first field"; not "the last name field" (a name that starts so)
        if m and (not split_role(m["rest"])[0] or re.match(r"[A-Z0-9\x01]", split_role(m["rest"])[0])):
            ordinal, phrase = _ORDINALS[m["o"].lower()], m["rest"]
    name, role = split_role(phrase)
    bare = ARTICLE.sub("", phrase.strip())
    noun = bare[len(name):].strip().lower() if role and bare.startswith(name) else ""  # the kind as said: "card"
    looks = re.fullmatch(r"(?:(?!(?:first|second|third|fourth|fifth|last|next|previous|other|same)\b)[a-z][\w-]*\s+){1,2}"
                         r"(?P<q>\x01\d+\x02(?:\s+[A-Za-z-]+)?)", name)
    if looks:  # 'the small "+" toggle', 'the blue "Save" button': how it looks, then its quoted name
        name = looks["q"]
    # 'the round RAW button', 'the big Save button': how it looks, then its name in capitals
    name = re.sub(r"^(?:(?:small|little|tiny|big|large|round|rounded|square|blue|red|green|grey|gray|white|black|"
                  r"yellow|orange|purple|dark|light)\s+)+(?=[A-Z])", "", name)
    if role and re.fullmatch(r"(?:(?:small|little|tiny|big|large|huge|round|rounded|square|wide|narrow|long|short|tall|"
                             r"multi-?line|blue|red|green|grey|gray|white|black|yellow|orange|purple|dark|light)\s*)+", name,
                             re.I):
        name = ""  # 'the square button left of "New order"', 'the large text area': how it looks names nothing
    kind_word = re.fullmatch(r"(\x01\d+\x02)\s+[A-Za-z-]+(?:\s+(?:file|item|entry|record|card|account|folder|project|"
                             r"package|document|category|page|post|ticket|issue|budget|list|group|node|flow|tab))?", name)
    said_as = None
    if kind_word:  # 'the "Wake up" node', 'the "Weekly report" card': the quoted name, then the kind of thing it is
        name, said_as = kind_word[1], " ".join(name[kind_word.end(1):].split()).lower()
    noun_first = re.fullmatch(_DESCRIBING + r"{0,3}(?P<noun>[a-z-]+)\s+(?P<q>\x01\d+\x02)", name) if not role else None
    if noun_first and split_role(noun_first["noun"])[1]:  # 'the calendar icon "Choose a Date"', 'the button "Save"'
        name, role = noun_first["q"], split_role(noun_first["noun"])[1]
    if role and _POSITIONAL.fullmatch(name):  # "any link", "another option": which one is a guess
        raise Unsupported(
            f"{sentence.show(masked)!r} picks an element at random; name it by its text or label, or by its order "
            "(the second Delete button)"
        )
    if not name and not role and not anchor:
        name, role = phrase, None  # "Click the button": the noun is all there is
    if role == "icon" and not sentence.is_quoted(name):  # 'the small gear icon': how big it looks names nothing
        name = re.sub(r"^(?:(?:small|little|tiny|big|large|round)\s+)+", "", name.strip(), flags=re.I) or name
    pictured_menu = re.fullmatch(r"(?P<p>[a-z][\w-]*(?:\s+[a-z][\w-]*)?)\s+menu", name.strip()) if not role else None
    if pictured_menu:
        if pictured(pictured_menu["p"]):  # 'the gear menu': the control its picture names opens it
            name = pictured_menu["p"]
    if role in ("icon", "row", "header"):
        # "the trash icon", "the Alice row", "the votes column header": the name is all a page gives; what it is, as
        # said, when the page says so too
        role, said_as = None, noun or role
    target = sentence.unmask(name)
    heads = None
    if anchor is None and above:
        anchor, side = above["part"], "above"
    elif anchor is None and (landmark or cornered):
        # 'Checking in the sidebar', 'the Site section of the left menu': inside that part, as the commands grammar
        # reads it (brains/meanings.py); under the section's title in it when one is said too
        anchor = landmark or cornered
        part, heads = anchor, (region or None) if section else None
    place = Place(
        anchor=_shown_words(sentence, ARTICLE.sub("", anchor.strip())) if anchor else None,
        section=_shown_words(sentence, section) if section else None,
        ordinal=ordinal,
        side=side if anchor else None,
        part=part if section or landmark or cornered else None,
        corner=corner,
        heads=heads,
    )
    if not target and not role and place == Place():
        raise Unsupported("it names no element")
    return Target(target, role or default_role, place, said_as if target else None)


def _shown_words(sentence: Sentence, masked: str) -> str:
    """A place's words as the page shows them: its one quoted text when it has one ('the "priority" column header'
    -> priority), else all of it."""
    quoted = TOKEN.findall(masked)
    return sentence.tokens[int(quoted[0])] if len(quoted) == 1 else sentence.unmask(masked)


def value_phrase(sentence: Sentence, masked: str, *, option: bool = False) -> str:
    """A typed value, option or expected text: quoted content as is, else the words as written."""
    text = masked.strip()
    if option and not sentence.is_quoted(text):
        text = re.sub(r"\s+(?:option|value|item)$", "", ARTICLE.sub("", text), flags=re.I)
    return sentence.unmask(text)


def is_description(text: str) -> bool:
    """'the error message', 'a confirmation': words describing something, not the literal text."""
    return re.match(r"(?:the|a|an|this|that|these|those|my|his|her|its|their|some|all|any|every|each)\s", text,
                    re.I) is not None


# Words that, leading an unquoted value, say what kind of value to invent instead of giving it:
# "an invalid email", "today's date", "something valid", "a random number", "your name".
_VAGUE_VALUE = re.compile(
    r"(?:the|a|an|this|that|these|those|my|your|our|his|her|its|their|some|any|all|every|each|"
    r"something|anything|nothing|someone|anyone|somebody|anybody|whatever|random|valid|invalid|wrong|"
    r"correct|incorrect|proper|appropriate|suitable|acceptable|unacceptable|fake|dummy|plausible|realistic|"
    r"today|tomorrow|yesterday|now|current|another|different|same|other|existing|unique|first|second|"
    r"third|last|next|previous)(?:['’]s)?(?:\s|$)",
    re.I,
)


def describes_value(sentence: Sentence, masked: str) -> bool:
    """An unquoted value that describes what to enter rather than giving it ('an invalid email',
    "today's date", 'something valid'). Quoted values are always literal."""
    text = masked.strip()
    if not text or sentence.is_quoted(text) or TOKEN.match(text):
        return False
    return _VAGUE_VALUE.match(text) is not None


def literal_value(sentence: Sentence, masked: str, *, option: bool = False, what: str = "value") -> str:
    """`value_phrase`, refusing values that describe instead of giving the text (see `describes_value`).

    Options may be written 'the Large option' (or value / item): the words inside are the option.
    """
    text = masked.strip()
    if option and not sentence.is_quoted(text):
        wrapped = re.fullmatch(r"(?:the\s+)?(?P<o>.+?)\s+(?:option|value|item|entry|choice)", text, re.I)
        if wrapped:
            text = wrapped["o"]
    if describes_value(sentence, text):
        shown = sentence.show(masked)
        if option:
            example = 'write the option as it reads, e.g. Select "Large" from Size'
        else:
            example = 'write the value itself, e.g. Type "x@" into Email'
        raise Unsupported(
            f"{shown!r} describes {'an' if what[0] in 'aeiou' else 'a'} {what} instead of giving it; {example} "
            "(quoted text is always taken literally)"
        )
    return value_phrase(sentence, text, option=option)


# --- keys ---------------------------------------------------------------------------

_KEYS = {
    "enter": "Enter", "return": "Enter", "tab": "Tab", "escape": "Escape", "esc": "Escape",
    "backspace": "Backspace", "delete": "Delete", "del": "Delete", "space": "Space", "spacebar": "Space",
    "space bar": "Space", "home": "Home", "end": "End", "insert": "Insert",
    "page up": "PageUp", "pageup": "PageUp", "pgup": "PageUp",
    "page down": "PageDown", "pagedown": "PageDown", "pgdn": "PageDown",
    **{f"f{n}": f"F{n}" for n in range(1, 13)},
}  # fmt: skip
for _d in ("up", "down", "left", "right"):
    _name = f"Arrow{_d.capitalize()}"
    _KEYS.update({_d: _name, f"arrow {_d}": _name, f"arrow{_d}": _name, f"{_d} arrow": _name})
_MODIFIERS = {
    "ctrl": "Control", "control": "Control", "shift": "Shift", "alt": "Alt", "option": "Alt",
    "meta": "Meta", "cmd": "Meta", "command": "Meta",
}  # fmt: skip


def parse_key(text: str) -> str | None:
    """'enter' -> 'Enter', 'ctrl + a' -> 'Control+A', 'arrow down' -> 'ArrowDown'; not a key -> None."""
    parts = [re.sub(r"\s+", " ", p.strip().lower()) for p in text.split("+")]
    *mods, key = parts
    if not all(m in _MODIFIERS for m in mods):
        return None
    if key in _KEYS:
        name = _KEYS[key]
    elif mods and re.fullmatch(r"[a-z0-9]", key):
        name = key.upper()
    else:
        return None
    return "+".join([_MODIFIERS[m] for m in mods] + [name])


# A menu named by the control that opens it ('the More menu', 'the "Actions" menu'), not by what it is or where: a
# dropdown drawn without a <select>, clicked open before its option is picked (kinds/choose).
NAMED_MENU = re.compile(r"(?:the\s+)?(?!(?:The|This|That|An?|Its|Their)\s+menu)(?P<name>\x01\d+\x02|(?-i:[A-Z])[\w-]*|hamburger|[☰≡⋮⋯…](?:\s+main)?)\s+menu", re.I)



def is_location(text: str) -> bool:
    """A path ('/owners/find') or an http(s) URL."""
    return re.fullmatch(r"https?://\S+|/\S*", text.strip()) is not None


# --- checks: the words of sentences that state what the page shows ---------------------------------

ABSENCE_UNCLEAR = (
    "cannot tell which text must be absent (quote the text, e.g. Verify 'Water the plants' is not shown; quote it "
    "too if words such as 'no' or 'not' are part of a text that must be shown)"
)

VISIBLE = (r"(?:shown|displayed|visible|present|listed|rendered|found|offered|"
           r"on\s+(?:the\s+|this\s+)?(?:page|screen))")
WHERE = (r"(?:\s+(?:on|in)\s+(?:the\s+|this\s+)?(?:page|screen|list|table|results(?:\s+(?:list|table))?|"
         r"search\s+results))?")
# The parts of a page that hold others (never a column, a section or a list, which tell records apart): a text shown
# "in the palette" or "in the Filters box" is shown (where it is, in unquoted words, is read past)
PART_NOUNS = (r"(?:box|panel|dialog|sidebar|tray|area|window|pane|toolbar|header|footer|palette|menu|drawer|popup|"
              r"pop-up|modal|popover|canvas|navigation|editor)")
_PLAIN = (r"(?!(?:first|second|third|fourth|fifth|last|next|previous|other|top|bottom|left|right|red|green|blue|"
          r"yellow|orange|grey|gray|dark|light|bold|new|old|same)\b)")
# Where on the screen a person looks: "in the top right corner", "on the left-hand side" (not "at the top", which
# may say the order of a list)
_SCREEN_SPOT = (r"\s+(?:at|in|on|near|towards?)\s+the\s+(?:very\s+|far\s+)?(?:(?:top|bottom|upper|lower)[\s-]+(?:left|right)"
                r"(?:[\s-]+(?:corner|side|edge))?|(?:left|right)(?:[\s-]+hand)?(?:[\s-]+(?:side|corner|edge))?|"
                r"(?:top|bottom)\s+(?:corner|cent(?:er|re)|middle)|(?:top|bottom)(?=\s+of\s+the\s+(?:screen|window)))"
                r"(?:\s+of\s+the\s+(?:page|screen|window|header|dialog))?")
SHOWN_WHERE = (rf"(?:{WHERE[:-1]}|\s+(?:in|inside|within|on)\s+(?:the\s+)?(?:{_PLAIN}[A-Za-z][\w-]*\s+){{0,2}}?"
               rf"{PART_NOUNS}|{_SCREEN_SPOT})?(?:\s+again|\s+once\s+more)?")
NEGATIVE = re.compile(
    r"\b(?:not|no|nothing|none|nobody|no\s+longer|isn't|aren't|doesn't|don't|never|hidden|invisible|"
    r"disappears?|disappeared|absent|gone|missing|removed|deleted)\b",
    re.I,
)
# words that make an unquoted expected value a description of a check rather than the value itself
VALUE_QUALIFIER = re.compile(
    r"\b(?:shown|displayed|visible|present|listed|rendered|highlighted|selected|checked|enabled|disabled|"
    r"focused|sorted|greyed|grayed|bold|underlined|shows?|displays?|contains?|appears?|equals?|or|than|within|"
    r"between|greater|less|more|fewer|least|most|before|after|above|below|until|seconds?|minutes?|"
    r"(?:in|on|at|inside|under|from|to)\s+(?:the|a|an)|in\s+(?:red|green|blue|black|white|gr[ae]y|orange|yellow|"
    r"bold|italics?))\b",
    re.I,
)
# a statement's subject that names no element: "there is ...", "it is ...", "this is ..."
PRONOUN = re.compile(
    r"(?:there|here|it|this|that|these|those|they|he|she|we|you|i|something|anything|nothing|everything|"
    r"someone|everyone|all|each|every|one)\b",
    re.I,
)
SEVERAL = re.compile(rf"\s(?:is|are)\s+{VISIBLE}\b.*\s", re.I)
TEXT_PREFIX = re.compile(r"^(?:the\s+)?(text|message|words?|label|heading|title|phrase)\s+(?=\S)", re.I)
STATES = {
    "loaded", "open", "opened", "closed", "empty", "blank", "enabled", "disabled", "selected", "checked",
    "unchecked", "visible", "hidden", "correct", "incorrect", "valid", "invalid", "updated", "saved",
    "successful", "ok", "fine", "working", "right", "wrong", "displayed", "shown", "present", "ready",
    "filled", "changed", "unchanged", "clickable", "focused", "active", "done", "complete", "completed",
}  # fmt: skip
PAGE_PROPERTY = re.compile(r"(?:(?:page|window|tab|browser|document)\s+)(?:title|url|address)|url|address\s+bar", re.I)
PAGE_LIKE = re.compile(r"(?:^|\s)(?:page|screen|form|dialog|window|site|app|application|view)$", re.I)
