"""An expected result, or a check said as a step ('Verify the sidebar lists A'), read as its claims by a grammar
(`claims.lark`): by the builtin brain after its phrase rules refuse one, or before them (Settings.expected_reader).

A claim is one text said to be shown, or not, and where: on the page, in the part of the page a title heads ('in the
"Reviews" list', 'in the Unpaid section'), in the row of a text ('the "Fuel" row shows 1,250.00'), inside a part
named by what it is ('in the sidebar', 'in the table'), or above, below or beside a part ('"Saved" appears below the
form'). A text is quoted, an Examples value, a long number, a short number with the words after it ('8 matches'), or
a name written unquoted in capitalised words inside a sentence ('lists Apples, Pears and Plums'; at its start, a name
of one word is not told from a word that says what something is: 'Errors are gone' has no reading). Other claims say
that a control is in a state ('the "Save" button is greyed out'), that an element shows a value ('the Priority is
minor'), that the page is one named ('the Roadmap page opens'), or that a part opens or closes ('the dialog closes').

How: each word is first given its class by a small lexicon (quoted texts and numbers are slots; an unknown capitalised
word is a word of a name), then a general parser (Lark's Earley, explicit ambiguity) returns every reading the grammar
allows. A sentence with a word the grammar has no place for is no reading, naming the word; one read two ways that
mean different things is no reading either. Every claim keeps the character spans it came from, so what was read can
be shown and checked against the sentence. Whether every word was used is still checked from outside, on the
operations the claims become (`coverage.py`): a word read as what a text is ('the review "Great value"') is kept in
the claim but checked by no operation, so the step is refused naming it.

    'The "Great value" review and Free Shipping appear in the "Reviews" list'
        -> "Great value" under "Reviews" (said to be a review), "Free Shipping" under "Reviews"
    '"Inbox" is still listed, but "Drafts" and "Spam" are not'
        -> "Inbox" shown; "Drafts" not shown; "Spam" not shown
    'The Fruits list shows Apples, Pears and Plums'
        -> "Apples", "Pears", "Plums" under "Fruits"

Polarity is exact: a predicate holds at most one denial, a denial with nothing of its own to deny ('"A" is listed,
not "B"') or of a denial ('is not missing') has no reading, and alternatives and possibilities ('or', 'may', 'can')
have none either; nor have words that say more than which texts are shown where ('just', 'first', 'by', 'bold'), a
pronoun ('it', 'nothing') or a mark other than a list's commas and a sentence's end ('?', '(').
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from lark import Lark, Token, Tree
from lark.exceptions import UnexpectedInput
from lark.lexer import Lexer
from lark.visitors import CollapseAmbiguities

from shared.scenarios import PLACEHOLDER
from workers.agent.language.phrases import QUOTE

Span = tuple[int, int]

# What each known word is. Any other word is a word of a name when it is capitalised (CAP), else an unknown word
# (LOW), which the grammar takes only as what a text is ('the review "Great value"').
LEXICON: dict[str, str] = {word: kind for kind, words in {
    "DET": "the a an this that these those",
    "POSS": "its their his her your my our",
    "BE": "is are was were be been am",
    "AUX": "does do did",
    "MODAL": "should must will",
    "NEG": "not never",
    "STILL": "still anymore",
    "SHOWN": "shown listed displayed visible present included offered",
    "LISTS": "lists",  # said of a part, never of one element's value
    "SHOWV": "show shows displays display contains contain includes include reads read says say mentions "
             "mention reports report returns return gives give",
    # what an action brought back, said as the subject: the page it shows them on ('the query returns 9 rows')
    "RESULTS": "results result query output",
    # 'there is "A"', 'there is no "A" row'
    "THERE": "there",
    # what an element shows or is after the step ('the status changes to Closed', 'the button becomes enabled'; the
    # lexicon joins 'changes to', 'is set to', 'turns to' into one)
    "BECOME": "becomes become became",
    "APPEAR": "appear appears appeared exist exists remain remains",
    "VANISH": "disappear disappears disappeared vanish vanishes vanished",
    "ABSENT": "gone hidden missing absent removed",
    "PREP": "in inside within on",
    "FROM": "from",
    "LIST": "list",
    "KIND": "table section panel sidebar menu dialog tab column card box group tree area pane block view heading "
            "header footer toolbar grid modal navigation form row line entry item record bar tray drawer popover popup "
            "palette",
    "PAGE": "page screen window",
    # how many records a part shows ('lists two posts: A and B'; a number in digits is SHORT)
    "COUNT": "two three four five six seven eight nine ten eleven twelve",
    "EXACTLY": "exactly",
    # 'listed under "Queries"': in the part a title heads; 'under the table': below a part said by its kind
    "UNDER": "under",
    # a row said by its order ('the first row is "A"'); read nowhere else
    "ORD": "first second third fourth fifth last",
    # what a part holds ('the table has a "Someday" row')
    "HAS": "has have",
    # a part or page said with its title after it ('a dialog titled "Configuration"')
    "TITLED": "titled entitled headed named called",
    # kinds of control a text may be said to be, never words of a name ('a Password field')
    "ELEMENT": "field button link checkbox dropdown drop-down icon input option toggle radio textbox textarea editor "
               "chip badge label",
    "AND": "and",
    "BUT": "but while whereas",
    "SEEING": "verify check ensure confirm",  # a check said as one ('Verify "A" is listed')
    "WITH": "with",
    # a part or a page that opens, stays open or closes, and what it opens showing
    "OPENS": "opens open opened loads loaded",
    "STAY": "stays stay",
    "CLOSES": "closes close closed",
    "SHOWING": "showing listing displaying saying holding containing offering",
    # states a person sees on a control (actions/kinds/assert_state.py reads them)
    "STATE": "disabled enabled checked unchecked ticked unticked selected deselected unselected expanded collapsed "
             "empty",
    # who a text is by, shown in the same record ('the review "Great value" by "Sam"')
    "BY": "by",
    # where a text is beside a part ('next to' is one word: NEAR)
    "NEAR": "above over below beneath underneath beside",
    # words that say more than which texts are shown where, or that a text may not be: never read here
    # ('under' too: below a part, a child in a tree or a part's content, which the phrase rules tell apart)
    "MORE": "or either whether if unless may might maybe perhaps can could would only just simply once all both each "
            "every some any none no nor neither newest oldest top bottom left right "
            "next before after between bold italic sorted ordered grouped "
            "without it they them nothing everything something anything "
            "other others",
}.items() for word in words.split()}
# several of a kind ('the tabs "A" and "B"'), each of that kind ("lists" is a verb)
PLURALS = {plural: word for word, kind in LEXICON.items() if kind in ("ELEMENT", "KIND") and word != "list"
           for plural in (word + "s", word + "es")}
LEXICON |= {plural: LEXICON[word] for plural, word in PLURALS.items()}
# parts whose claims are checked in the record that holds the title, not in the part a title heads
_ROW_KINDS = frozenset("row line entry item record".split())
_CONTRACTED = {"isn't": "is", "aren't": "are", "wasn't": "was", "weren't": "were", "doesn't": "does",
               "don't": "do", "didn't": "did", "won't": "will", "shouldn't": "should", "mustn't": "must"}
# words that say nothing a check could miss, skipped when written in lower case ('is now shown', 'then')
_SKIPPED = frozenset("please kindly then now also again successfully correctly properly immediately finally "
                     "afterwards so".split())
_WORD = re.compile(r"\d+(?:[.,:/]\d+)*%?|[^\W\d_][\w'’-]*|[^\w\s]")
# a run of letters and digits joined by '.', '_', '@', '/' or '-' (never '+': 'Ctrl+1' is a key), ending on a letter
# or digit: 'lead_id', 'elif.yilmaz@bugline.test', '@acme/icons', 'v2.3.0', '2.0.0-beta.1' (one with a '.', '_', '@'
# or '/' or a digit, and a letter: never a plain hyphenated word, 'sign-up', nor a number but a version, '1.2.0')
_IDENTIFIER = re.compile(r"(?<![\w@./+-])@?[^\W_][\w]*(?:[._@/-][\w]+)+(?![\w@/+-]|\.\w)")
_VERSION = re.compile(r"\d+(?:\.\d+){2,}")  # '1.2.0'
_LONG_NUMBER = re.compile(r"\d{1,3}(?:,\d{3})+(?:\.\d+)?%?|\d+\.\d+%?|\d{3,}%?")
# words that say how a text looks, never which part of the page holds it ('in red colour', 'in upper case')
_LOOKS = frozenset("""red green blue grey gray yellow orange black white purple pink brown colour color colours colors
    font fonts case bold italic underlined large small big tiny upper lower capital capitals size style""".split())
# verbs that with 'to' say what an element shows now ('changes to', 'is set to')
_BECOMING = frozenset("changes changed change updated set switched switches turns turned".split())
_RECORDS = frozenset("row rows item items entry entries record records result results line lines".split())
_COUNTED = re.compile(r"\(\d+\)")
# marks a control shows for closing or removing, each a name whole ('its × button')
CLOSE_MARKS = frozenset("× ✖ ✕ ✗".split())
# the words before 'it' that place a text beside the element the step named ('under it': below it)
_BESIDE_IT = frozenset({"under", "below", "beneath", "underneath", "above", "beside", "next to"})
# the page's own heading or title, as said ('the page heading', "the page's title", 'the main heading'): the kind of
# claim each is (meanings.py: the main heading alone, or the browser's title or the main heading)
_PAGE_OWN = frozenset({"page", "page's", "screen", "screen's", "main"})
_HEADINGS = {"heading": "main heading", "header": "main heading", "headline": "main heading", "title": "title"}
_PUNCTUATION = {",": "COMMA", ";": "SEMI", ":": "COLON", ".": "STOP", "!": "STOP", "(": "LPAREN", ")": "RPAREN"}


IT = "\x00it"  # a claim's place said as 'it': the element the step's action named (brains/builtin.py resolves it)


@dataclass(frozen=True)
class Claim:
    """One text said to be shown (or not), and where: in the part a title heads (place), of the kind said (kind:
    "list", "row"), or inside any part of a kind (kind alone: "sidebar"); neither: anywhere on the page.

    Or one element said to be in a state (state: 'disabled', 'ticked'; text: the element's name; shown False: not in
    it), or the value one element shows (kind "value"; place: the element's name or label; text: the value)."""

    text: str
    shown: bool
    place: str | None = None
    kind: str | None = None
    said_as: str | None = None  # words that say what the text is ('review', 'button')
    span: Span = field(default=(0, 0), compare=False)  # where the text is in the sentence
    place_span: Span | None = field(default=None, compare=False)
    state: str | None = None
    near: str | None = None  # 'above', 'below', 'beside': the text is there beside its place, not inside it

    def said(self) -> str:
        """The claim in words, with the characters of the sentence it came from: '"Kiwi" not shown, inside the
        sidebar (text 0-6, place 29-40)'."""
        spans = f"text {self.span[0]}-{self.span[1]}" + (
            f", place {self.place_span[0]}-{self.place_span[1]}" if self.place_span else "")
        said_as = f" {self.said_as}" if self.said_as else ""
        if self.state is not None:
            return f"the{said_as} {self.text!r} {'is' if self.shown else 'is not'} {self.state} ({spans})"
        if self.kind == "page":
            return f"the page is {self.text!r} ({spans})"
        if self.kind in ("main heading", "title"):
            return f"the page's {self.kind} shows {self.text!r} ({spans})"
        if self.kind == "part":
            return f"the {self.text} {'is shown' if self.shown else 'is gone'} ({spans})"
        if self.kind == "row at":
            return f"the {self.place} row shows {self.text!r} ({spans})"
        if self.kind == "count":
            return f"the list holding {self.text!r} has {self.place} ({spans})"
        if self.kind == "value":
            return f"the{said_as} {self.place!r} shows the value {self.text!r} ({spans})"
        if self.near is not None:
            part = f"the {self.place!r} {self.kind}" if self.place and self.kind else repr(self.place) \
                if self.place else f"the {self.kind}"
            return f"{self.text!r} {'shown' if self.shown else 'not shown'} {self.near} {part} ({spans})"
        where = (f"in the row of {self.place!r}" if self.kind == "row" else
                 f"under {self.place!r}" + (f" ({self.kind})" if self.kind else "") if self.place else
                 f"inside the {self.kind}" if self.kind else "on the page")
        said_as = f" (said to be a {self.said_as})" if self.said_as else ""
        return f"{self.text!r}{said_as} {'shown' if self.shown else 'not shown'}, {where} ({spans})"


@dataclass(frozen=True)
class Reading:
    """The claims of a sentence, or why it has none."""

    claims: tuple[Claim, ...] = ()
    refusal: str | None = None


@dataclass(frozen=True)
class Word:
    kind: str
    text: str
    span: Span


def lexicon(sentence: str, table: dict[str, str] | None = None) -> list[Word]:
    """The sentence's words, each with its class (`table`: LEXICON by default); quoted texts and Examples values
    whole (Q)."""
    table = LEXICON if table is None else table
    slots = [(m.start(), m.end(), next(g for g in m.groups() if g is not None)) for m in QUOTE.finditer(sentence)]
    slots += [(m.start(), m.end(), m[0]) for m in PLACEHOLDER.finditer(sentence)
              if not any(s <= m.start() < e for s, e, _ in slots)]
    # identifiers written unquoted are texts whole: an address, a file or package name, a version ('v2.3.0')
    slots += [(m.start(), m.end(), m[0]) for m in _IDENTIFIER.finditer(sentence)
              if not any(s <= m.start() < e for s, e, _ in slots) and len(m[0]) >= 4 and (
                  re.search(r"[._@/]|\d", m[0]) and re.search(r"[^\W\d_]", m[0]) or _VERSION.fullmatch(m[0]))]
    # a mark a control shows for closing or removing is its name ('its × button', 'the ✖ next to "Won't fix"')
    slots += [(m.start(), m.end(), m[0]) for m in re.finditer(rf"(?<!\S)[{''.join(CLOSE_MARKS)}](?!\S)", sentence)
              if not any(s <= m.start() < e for s, e, _ in slots)]
    # a number said with '#' is a text whole: a ticket's or an issue's ('#13')
    slots += [(m.start(), m.end(), m[0]) for m in re.finditer(r"(?<![\w#])#\d+\b", sentence)
              if not any(s <= m.start() < e for s, e, _ in slots)]
    words = [Word("Q", text, (start, end)) for start, end, text in slots]
    starts = True  # the next word starts a sentence (its capital says nothing)
    first: list[int] = []  # words that start a sentence, capitalised and unknown: a name only if one goes on after them
    for m in _WORD.finditer(sentence):
        if any(s <= m.start() < e for s, e, _ in slots):
            continue
        text, lowered = m[0], m[0].lower().replace("’", "'")
        counted = _COUNTED.match(sentence, m.start()) if text == "(" else None
        if counted and words and words[-1].kind == "CAP":  # 'Manage Milestones (4)': the count is the name's
            words.append(Word("CAP", counted[0], counted.span()))
            slots.append((*counted.span(), counted[0]))
            continue
        if not text[0].isalnum():  # punctuation: other marks ('?', '(', '#') are read by nothing
            words.append(Word(_PUNCTUATION.get(text, "MARK"), text, m.span()))
            starts = text in ".!;:"
            continue
        if lowered in _SKIPPED and (text.islower() or starts):
            continue
        if lowered == "that" and words and (words[-1].kind == "SEEING" or words[-1].kind == "AND" and any(
                w.kind == "SEEING" for w in words)):  # 'Check that "A" is listed (and that "B" is not)'
            continue
        if lowered == "sure" and words and words[-1].text.lower() == "make":  # 'Make sure "A" is listed'
            words[-1] = Word("SEEING", sentence[words[-1].span[0]:m.end()], (words[-1].span[0], m.end()))
            continue
        if lowered in _CONTRACTED and not (text[0].isupper() and not starts and _names_on(sentence, m.end(), table)):
            # "isn't": the verb, then its denial (capitalised inside a sentence with a word of a name after it, it is
            # a word of that name: "Won't fix", never "Export Doesn't appear")
            words += [Word(table[_CONTRACTED[lowered]], text, m.span()), Word("NEG", text, m.span())]
        elif lowered == "longer" and words and words[-1].text.lower() == "no":  # "no longer": one denial
            words[-1] = Word("NEG", sentence[words[-1].span[0]:m.end()], (words[-1].span[0], m.end()))
        elif lowered == "it" and words and words[-1].text.lower() in _BESIDE_IT:
            # 'under it', 'next to it': beside the element the step's action named ('under': below it)
            if words[-1].text.lower() == "under":
                words[-1] = Word("NEAR", words[-1].text, words[-1].span)
            words.append(Word("IT", text, m.span()))
        elif lowered == "to" and words and words[-1].text.lower() == "next":  # "next to": beside
            words[-1] = Word("NEAR", sentence[words[-1].span[0]:m.end()], (words[-1].span[0], m.end()))
        elif lowered == "out" and words and words[-1].text.lower() in ("greyed", "grayed"):  # one state
            words[-1] = Word("STATE", sentence[words[-1].span[0]:m.end()], (words[-1].span[0], m.end()))
        elif lowered == "to" and words and words[-1].text.lower() in _BECOMING:  # 'changes to': one verb
            words[-1] = Word("BECOME", sentence[words[-1].span[0]:m.end()], (words[-1].span[0], m.end()))
        elif lowered == "no" and len(words) > 1 and words[-1].kind == "BE" and words[-2].kind == "THERE":
            words.append(Word("NEG", text, m.span()))  # 'there is no "A" row'
        elif lowered == "more" and words and words[-1].text.lower() == "any":  # "any more"
            words[-1] = Word("STILL", sentence[words[-1].span[0]:m.end()], (words[-1].span[0], m.end()))
        elif text[0].isdigit():  # a short number says a text only with words after it ('8 matches')
            words.append(Word("NUM" if _LONG_NUMBER.fullmatch(text) else "SHORT", text, m.span()))
        elif text[0].isupper() and (not starts or words and words[-1].kind == "COLON" and lowered not in table):
            # a capital inside a sentence, or an unknown one after a colon ('two posts: Books and Events'): a word
            # of a name
            words.append(Word("CAP", text, m.span()))
        elif lowered in table:
            words.append(Word(table[lowered], text, m.span()))
        else:
            if text[0].isupper():
                first.append(len(words))
            words.append(Word("LOW", text, m.span()))
        starts = False
    for n in first:  # 'Blue Harbour is listed', 'Order 1042 is shown'; never 'Error messages are gone'
        if n + 1 < len(words) and (words[n + 1].kind in ("CAP", "NUM") or words[n + 1].text[0].isdigit()):
            words[n] = Word("CAP", words[n].text, words[n].span)
    return sorted(words, key=lambda w: w.span)


def _names_on(sentence: str, at: int, table: dict[str, str]) -> bool:
    """The word after `at` goes on with a name: capitalised, or a word the lexicon does not know ('fix')."""
    after = re.match(r"\s+([^\W\d_][\w'’-]*)", sentence[at:])
    return after is not None and (after[1][0].isupper() or after[1].lower() not in table)


class _Words(Lexer):
    """Hands the parser the words' classes; each token's value is its word's index."""

    def __init__(self, conf) -> None:
        pass

    def lex(self, data):
        for n, word in enumerate(data):
            yield Token(word.kind, str(n), start_pos=word.span[0], end_pos=word.span[1])


@lru_cache(maxsize=1)
def _parser() -> Lark:
    grammar = (Path(__file__).with_name("claims.lark")).read_text()
    return Lark(grammar, parser="earley", lexer=_Words, ambiguity="explicit")


@dataclass
class _Place:
    title: str | None
    kind: str | None
    span: Span | None
    row: bool = False  # the claims are checked in the record holding the title
    near: str | None = None  # beside the part, not inside it


def _whole(sentence: str) -> str:
    """The sentence on one line, as a refusal quotes it."""
    return " ".join(sentence.split())


# 'Look at the table', 'Check the dialog': a step that says which part of the page it looks at, and nothing more: the
# part is there (the expected result after it says what it shows)
_LOOKED_AT = re.compile(r"(?i)\s*(?:look\s+at|check|verify|inspect|examine)\s+(?P<parts>.+?)\s*\.?\s*")
# (only parts the page marks as such, by tag or role, which the suite finds the same way: a sidebar or a panel may be
# a column drawn with boxes, which settle.js `part` does not know)
_LOOKED_PART = re.compile(r"(?i)the\s+(?P<part>table|tree|menu|dialog|form)|the\s+(?:page|screen)")


def _looked_at(sentence: str) -> Reading | None:
    """The parts a step says it looks at, each said shown; None when the sentence says more than that."""
    m = _LOOKED_AT.fullmatch(sentence)
    if m is None:
        return None
    claims = []
    for piece in re.finditer(r"(?:(?<=^)|(?<=\s)and\s+|(?<=,)\s*)(?P<said>[^,]+?)(?=\s+and\s|\s*,|$)", m["parts"]):
        part = _LOOKED_PART.fullmatch(piece["said"])
        if part is None:
            return None
        if part["part"]:
            start = m.start("parts") + piece.start("said") + part.start("part")
            claims.append(Claim(" ".join(part["part"].lower().split()), True, kind="part",
                                span=(start, start + len(part["part"]))))
    return Reading(claims=tuple(claims)) if claims else None


def read(sentence: str) -> Reading:
    """The claims of an expected result, or why it has none."""
    looked = _looked_at(sentence)
    if looked is not None:
        return looked
    words = lexicon(sentence)
    if not words:
        return Reading(refusal="it says nothing")
    more = [w.text for w in words if w.kind == "MORE"]
    if more:
        return Reading(refusal=f"{', '.join(repr(m) for m in more)} in {_whole(sentence)!r} "
                               f"{'says' if len(more) == 1 else 'say'} more than which texts are shown where")
    meaning = one_meaning(_parser(), words, sentence, _claims, _agrees, ends="whether its texts are shown",
                          unread="a text shown or not shown", quote="text")
    if isinstance(meaning, str):
        return Reading(refusal=meaning)
    if not meaning:
        return Reading(refusal="it names no text to look for")
    return Reading(claims=meaning)


def _small_words_in_names(reading: Tree) -> tuple[int, int] | None:
    """How far a reading strays from the sentence's plain structure: the parts it reads as described by the page's
    classes ('the error message' as a box, where it may be a labelled element), then the words that are not words of
    names (articles, prepositions, kinds) it puts inside long names; None when a long name holds a place ('in the
    sidebar': a preposition and an article)."""
    count = 0
    described = sum(1 for tree in reading.iter_subtrees() if tree.data == "described")
    for tree in reading.iter_subtrees():
        if tree.data == "longname":
            tokens = _tokens(tree)
            if any(a.type in ("PREP", "FROM") and b.type in ("DET", "POSS") for a, b in zip(tokens, tokens[1:])):
                return None
            count += sum(1 for t in tokens if t.type not in ("CAP", "LOW", "NUM", "SHORT"))
    return described, count


def one_meaning(parser: Lark, words: list[Word], sentence: str, meaning_of, agrees=None, *, ends: str, unread: str,
                quote: str) -> tuple | str:
    """The one meaning a grammar's parser reads in the words (`meaning_of(reading, words, sentence)` of every
    reading, `agrees(reading, words)` first), or why there is none: a word it has no place for, the sentence ending
    too soon, no reading that agrees, no reading with a meaning (`_NoReading`: a structure the words allow that says
    nothing checkable), or readings that mean different things. ends, unread, quote: how the refusals say what the
    grammar reads ('whether its texts are shown', 'a text shown or not shown', 'text')."""
    try:
        tree = parser.parse(words)
    except UnexpectedInput as exc:
        at = getattr(exc, "token", None)
        if at is None or not str(at).isdigit():  # the end of the sentence
            return f"{_whole(sentence)!r} ends before it says {ends}"
        return f"{words[int(at)].text!r} in {_whole(sentence)!r} is not read as {unread}"
    readings = [r for r in CollapseAmbiguities().transform(tree) if agrees is None or agrees(r, words)]
    if not readings:  # 'Salt and Pepper is shown' is no list of two names
        return f"{_whole(sentence)!r}: a verb said of one {quote} is said of several; quote each {quote}"
    # the sentence's structure before long names; a place is never inside a name
    costs = [_small_words_in_names(r) for r in readings]
    fewest = min((cost for cost in costs if cost is not None), default=None)
    readings = [r for r, cost in zip(readings, costs) if cost is not None and cost == fewest]
    if not readings:
        return f"{_whole(sentence)!r}: a place said inside an unquoted name; quote the name"
    meanings: list[tuple] = []
    why: str | None = None  # why a reading has no meaning: the sentence's refusal when none has one
    for reading in readings:
        try:
            meaning = tuple(meaning_of(reading, words, sentence))
        except _NoReading as exc:
            why = why or str(exc)
            continue
        if meaning not in meanings:
            meanings.append(meaning)
    if not meanings:
        return why or f"{_whole(sentence)!r} has no meaning here"
    if len(meanings) > 1:
        return f"{_whole(sentence)!r} reads {len(meanings)} ways; quote each {quote}"
    return meanings[0]


def read_claims(sentence: str) -> list[Claim]:
    """The claims of an expected result; empty when it has no reading here (`read` says why)."""
    return list(read(sentence).claims)


class _NoReading(Exception):
    pass


def _clauses(tree: Tree) -> list[Tree]:
    return [c for c in tree.children if isinstance(c, Tree)]


_SAID_OF_MANY = frozenset("are were show display contain read say".split())
_SAID_OF_ONE = frozenset("is was does appears disappears vanishes remains exists isn't wasn't doesn't".split())


def _agrees(tree: Tree, words: list[Word]) -> bool:
    """No clause says a verb of one text of several texts."""
    for clause in _clauses(tree):
        if clause.data == "has_value":  # one element shows one value: 'the results show "X"' is no value
            verb = next(c for c in clause.children if isinstance(c, Token))
            if words[int(verb)].text.lower() in _SAID_OF_MANY:
                return False
        if clause.data in ("said_of", "said_with", "denied_again", "in_state", "not_in_state"):
            subject = next((c for c in clause.children if isinstance(c, Tree) and c.data == "items"), None)
            if subject is None:
                continue
            texts = sum(1 for c in subject.children if isinstance(c, Tree) and c.data == "item")
            verb = next(t for t in _tokens(clause) if t.type not in _SUBJECT_WORDS)
            if texts > 1 and words[int(verb)].text.lower().replace("’", "'") in _SAID_OF_ONE:
                return False
    return True


_SUBJECT_WORDS = frozenset("Q NUM CAP LOW DET POSS KIND LIST ELEMENT COMMA AND SEEING".split())


def _tokens(tree: Tree | Token) -> list[Token]:
    return [tree] if isinstance(tree, Token) else [t for child in tree.children for t in _tokens(child)]


def _span(words: list[Word], tokens: list[Token]) -> Span:
    return words[int(tokens[0])].span[0], words[int(tokens[-1])].span[1]


NAMING = ("Q", "CAP", "LOW", "NUM")  # the classes of the words a title or a label is written in


def written(tokens: list[Token], words: list[Word], sentence: str) -> tuple[str, Span]:
    """What the tokens say, as the sentence writes it (a quoted text without its quotes, else the words they span),
    and where."""
    at = _span(words, tokens)
    return (words[int(tokens[0])].text if tokens[0].type == "Q" else sentence[at[0]:at[1]]), at


def _texts(items: Tree, words: list[Word], sentence: str, bylines: list[tuple[str, Span, str]] | None = None,
           ) -> list[tuple[str, Span, str | None]]:
    """The texts an `items` subtree lists: (text, span, what it is said to be). A text said to be by another ('"Great
    value" by "Sam"') goes into `bylines` as (the other, its span, the text), or, where no list of them is kept, the
    sentence has no reading."""
    out = []
    every = None  # what every text of the list is said to be ('the tabs "A" and "B"')
    for item in (c for c in items.children if isinstance(c, Tree) and c.data == "item"):
        described = None
        # who it is by ('"Great value" by "Sam"'), or what a parenthesis after it says ('Backend (alice)')
        by = next((int(t) for t in item.children if isinstance(t, Token) and t.type in ("BY", "LPAREN")), None)
        if by is not None:
            if bylines is None:
                raise _NoReading(f"{_whole(sentence)!r}: what is said of a text's record is not read here")
            author = next(c for c in item.children if isinstance(c, Tree) and c.data == "aside") \
                if words[by].kind == "LPAREN" else item.children[-1]
            bylines.append((*written(_tokens(author), words, sentence), ""))
            item = Tree(item.data, [c for c in item.children if c is not author
                                    and not (isinstance(c, Token) and c.type in ("BY", "LPAREN", "RPAREN"))])
        for child in item.children:
            if isinstance(child, Token) and child.type in ("LOW", "ELEMENT") or (
                    isinstance(child, Tree) and child.data == "kind"):
                said = " ".join(words[int(t)].text for t in _tokens(child))  # 'the "Save" button'
                out[-1] = (*out[-1][:2], " ".join(filter(None, (out[-1][2], said))))
            elif isinstance(child, Tree) and child.data == "described":
                said = [words[int(t)].text for t in _tokens(child)
                        if words[int(t)].kind in ("LOW", "KIND", "LIST", "ELEMENT")]
                if said and said[-1].lower() in PLURALS:  # 'the tabs "A" and "B"': each a tab
                    said = [*said[:-1], PLURALS[said[-1].lower()]]
                    every = " ".join(said)
                described = " ".join(said) or None
            elif isinstance(child, Token) and child.type == "Q" or (
                    isinstance(child, Tree) and child.data in ("text", "name", "longname")):
                tokens = _tokens(child)
                text, at = written(tokens, words, sentence)
                if tokens[0].type == "SHORT" and words[int(tokens[1])].text.lower() in _RECORDS:
                    raise _NoReading(f"{text!r}: a count of records is not read as a text shown")
                out.append((text, at, described or every))
                described = None
        if by is not None:  # the record of the text shows who it is by
            bylines[-1] = (*bylines[-1][:2], out[-1][0])
    return out


def _place(holder: Tree | None, words: list[Word], sentence: str) -> _Place:
    if holder is None or holder.data == "page":
        return _Place(None, None, None)
    if holder.data == "it":  # the element the step's action named: 'it', resolved by the brain
        return _Place(IT, None, _span(words, _tokens(holder)))
    tokens = _tokens(holder)
    span = _span(words, tokens)
    kind = next((words[int(t)].text.lower() for t in tokens if t.type in ("KIND", "LIST", "ELEMENT")), None)
    if holder.data == "kind_alone":
        if kind in _ROW_KINDS:
            raise _NoReading(f"{sentence[span[0]:span[1]]!r}: which {kind} is not said")
        return _Place(None, kind, span)
    if holder.data == "described":  # 'the status facet': its words, as the page's classes may say them
        said = " ".join(words[int(t)].text.lower() for t in tokens if t.type != "DET")
        looks = [w for w in said.split() if w in _LOOKS]
        if looks:  # 'in red colour', 'in large font': how it looks, never a part of the page
            raise _NoReading(f"{sentence[span[0]:span[1]]!r}: {', '.join(looks)} says how a text looks, which is not "
                             "read here")
        if kind in _ROW_KINDS:
            raise _NoReading(f"{sentence[span[0]:span[1]]!r}: which {kind} is not said")
        return _Place(said, "described", span)
    title = written([t for t in tokens if t.type in NAMING], words, sentence)[0]
    # 'the "Fuel" row shows ...': the record of the text; '"Dependencies (2)" lists ...': the part it titles
    return _Place(title, kind, span, row=kind in _ROW_KINDS)


# the kinds of title a text is said to be under, in the part that title heads ('under the Comments heading')
_UNDER_TITLE = ("heading", "header", "section", "list", "box", "group", "panel", "card", "area", "block", "tab")
_NEAR = {"above": "above", "over": "above", "below": "below", "beneath": "below", "underneath": "below",
         "under": "below",
         "beside": "beside", "next to": "beside"}


def _near(predicate: Tree, anchor: Tree, words: list[Word], sentence: str) -> _Place:
    """The place beside a part a shown_near predicate says: the part (as a holder is read) and the relation."""
    said = next(words[int(t)].text.lower() for t in predicate.children
                if isinstance(t, Token) and t.type in ("NEAR", "UNDER"))
    place = _place(anchor, words, sentence)
    if place.row:
        raise _NoReading(f"{_whole(sentence)!r}: a text beside a row is not read")
    return _Place(place.title, place.kind, place.span, near=_NEAR[" ".join(said.split())])


def _claims(tree: Tree, words: list[Word], sentence: str) -> list[Claim]:
    out: list[Claim] = []
    # the clause before: its polarity, its place, and the part it said shows its texts (None: it said no part)
    before: tuple[bool, _Place, _Place | None] | None = None
    for clause in _clauses(tree):
        if clause.data in ("page_is", "page_shows"):  # the page named, then what it shows anywhere on it
            named = next(c for c in clause.children if isinstance(c, Tree) and c.data == "named_page")
            name, at = written([t for t in _tokens(named) if t.type in NAMING], words, sentence)
            out.append(Claim(name, True, kind="page", span=at))
            if clause.data == "page_shows":
                items = next(c for c in clause.children if isinstance(c, Tree) and c.data == "items")
                out += [Claim(text, True, said_as=said_as, span=span) for text, span, said_as in
                        _texts(items, words, sentence)]
                out += _counted(clause, out[-1], words, sentence)
            before = (True, _Place(None, None, None), _Place(None, None, None))
            continue
        if clause.data == "noted":  # '"Viewing posts by Emma" with two posts, A and B': each text shown
            if len(_clauses(tree)) > 1:
                raise _NoReading(f"{_whole(sentence)!r}: a result written as a note is read only alone")
            for items in (c for c in clause.children if isinstance(c, Tree) and c.data == "items"):
                out += [Claim(text, True, said_as=said_as, span=span) for text, span, said_as in
                        _texts(items, words, sentence)]
            out += _counted(clause, out[-1], words, sentence)
            before = None
            continue
        if clause.data in ("part_shown", "part_gone"):  # the part itself, as a step says it ('"Login" dialog')
            holder = next(c for c in clause.children if isinstance(c, Tree))
            if holder.data == "part":
                holder = holder.children[0]
            if holder.data == "lowpart":  # 'the login form': its words, as a part is said
                said = " ".join(words[int(t)].text.lower() for t in _tokens(holder) if t.type != "DET")
                out.append(Claim(said, clause.data == "part_shown", kind="part", span=_span(words, _tokens(holder))))
                before = None
                continue
            place = _place(holder, words, sentence)
            if place.kind is None or place.row:
                raise _NoReading(f"{_whole(sentence)!r}: only a part of the page opens or closes")
            said = " ".join(filter(None, (place.title, place.kind)))
            out.append(Claim(said, clause.data == "part_shown", kind="part", span=place.span or (0, 0)))
            before = None
            continue
        if clause.data == "heading_is":  # 'the page heading reads "Custom Query"': the page's own heading or title
            said = [words[int(t)].text.lower().replace("’", "'") for t in _tokens(clause.children[0])
                    if t.type != "DET"]
            if said[0] not in _PAGE_OWN or said[1] not in _HEADINGS:
                raise _NoReading(f"{_whole(sentence)!r}: {' '.join(said)!r} is not the page's heading or title")
            text, at = written(_tokens(clause.children[-1]), words, sentence)
            out.append(Claim(text, True, kind=_HEADINGS[said[1]], span=at, place_span=_span(
                words, _tokens(clause.children[0]))))
            before = None
            continue
        if clause.data == "label_value":  # 'Priority: minor': the element that label names shows the value
            label, label_at = written(_tokens(clause.children[0]), words, sentence)
            text, at = written(_tokens(clause.children[-1]), words, sentence)
            out.append(Claim(text, True, label, "value", span=at, place_span=label_at))
            before = None
            continue
        if clause.data == "row_at":  # 'the first row is "A"', '"A" is in the last row': the texts of that row
            row = next(c for c in clause.children if isinstance(c, Tree) and c.data == "rowat")
            said = [words[int(t)].text.lower() for t in _tokens(row) if t.type in ("ORD", "KIND")]
            if said[1] != "row":
                raise _NoReading(f"{_whole(sentence)!r}: only a table's row is said by its order")
            items = next(c for c in clause.children if isinstance(c, Tree) and c.data == "items")
            out += [Claim(text, True, said[0], "row at", said_as, span, _span(words, _tokens(row)))
                    for text, span, said_as in _texts(items, words, sentence)]
            before = None
            continue
        if clause.data == "holder_is":  # 'the heading is "people: 7"'
            place = _place(clause.children[0], words, sentence)
            if place.title is not None or place.kind not in ("heading", "header"):
                raise _NoReading(f"{_whole(sentence)!r}: only a heading is said to be a text")
            text, at = written(_tokens(clause.children[-1]), words, sentence)
            out.append(Claim(text, True, kind=place.kind, span=at, place_span=place.span))
            before = None
            continue
        if clause.data == "holder_has":  # 'the table has a "Someday" row with "alice"'
            place = _place(clause.children[0], words, sentence)
            named = next(c for c in clause.children if isinstance(c, Token) and c.type == "Q"
                         or isinstance(c, Tree) and c.data == "name")
            kind = next(words[int(c)].text.lower() for c in clause.children
                        if isinstance(c, Token) and c.type == "KIND")
            if kind not in _ROW_KINDS or place.row or place.near:
                raise _NoReading(f"{_whole(sentence)!r}: a part is said to have only a record")
            text, at = written(_tokens(named) if isinstance(named, Tree) else [named], words, sentence)
            out += [Claim(text, True, place.title, place.kind, span=at, place_span=place.span),
                    Claim(text, True, text, "row", span=at)]
            items = next((c for c in clause.children if isinstance(c, Tree) and c.data == "items"), None)
            if items is not None:
                out += [Claim(t, True, text, "row", said_as, span)
                        for t, span, said_as in _texts(items, words, sentence)]
            before = None
            continue
        if clause.data in ("in_state", "not_in_state", "has_value"):
            out += _element_claims(clause, words, sentence)
            before = None  # nothing after it is said of its place ('..., and does not list B')
            continue
        items, *withs = [c for c in clause.children if isinstance(c, Tree) and c.data == "items"]
        if clause.data in ("said_of", "said_with"):
            predicate = clause.children[1]
            shown = predicate.data == "shown"
            holder = next((c for c in predicate.children if isinstance(c, Tree) and c.data != "place"), None)
            place_tree = next((c for c in predicate.children if isinstance(c, Tree) and c.data == "place"), None)
            if place_tree is not None:
                holder = place_tree.children[1]
            place = _place(holder, words, sentence)
            if predicate.data == "shown_under" and (holder.data == "kind_alone" or place.title == IT):
                predicate = Tree("shown_near", predicate.children)  # 'under the table', 'under it': below it
            if predicate.data == "shown_under":  # 'under the Comments heading': in the part that title heads
                shown = True
                if place.kind is None:  # 'under "Our History"': a section's content, or a child in a tree (the rules')
                    raise _NoReading(f"{_whole(sentence)!r}: under a title said alone is read by the rules")
                if place.row or place.kind not in _UNDER_TITLE:
                    raise _NoReading(f"{_whole(sentence)!r}: under a {place.kind} is not read")
            if predicate.data == "shown_near":
                shown = True
                place = _near(predicate, holder, words, sentence)
                if clause.data == "said_with":
                    raise _NoReading(f"{_whole(sentence)!r}: what is said with a text placed beside a part is not "
                                     "read")
        elif clause.data in ("holder_shows", "holder_lacks"):
            shown = clause.data == "holder_shows"
            place = _place(clause.children[0], words, sentence)
        elif clause.data in ("there_is", "there_is_not"):
            shown = clause.data == "there_is"
            place_tree = next((c for c in clause.children if isinstance(c, Tree) and c.data == "place"), None)
            place = _place(place_tree.children[1] if place_tree is not None else None, words, sentence)
        elif clause.data in ("again_shows", "again_lacks"):
            if before is None or before[2] is None:
                raise _NoReading(f"{_whole(sentence)!r}: what shows them is not said")
            shown, place = clause.data == "again_shows", before[2]
        else:  # denied_again, but_not
            first = int(_tokens(clause)[0])
            if clause.data == "but_not" and (first == 0 or words[first - 1].kind != "BUT"):
                raise _NoReading(f"{_whole(sentence)!r}: a denial standing alone reaches no text")
            if before is None or not before[0]:
                raise _NoReading(f"{_whole(sentence)!r}: a denial with no statement before it to deny")
            shown, place = False, before[1]
        if place.row and not shown:
            raise _NoReading(f"{_whole(sentence)!r}: a text gone from one row cannot be checked, only a text "
                             "gone from the whole page")
        bylines: list[tuple[str, Span, str]] = []
        for text, span, said_as in _texts(items, words, sentence, bylines):
            out.append(Claim(text, shown, place.title, "row" if place.row else place.kind, said_as, span, place.span,
                             near=place.near))
        out += _counted(clause, out[-1], words, sentence)
        if bylines and (not shown or place.row or place.near):
            raise _NoReading(f"{_whole(sentence)!r}: who a text is by is read only of a text shown, in a part or on "
                             "the page")
        out += [Claim(author, True, text, "row", span=span) for author, span, text in bylines]
        if clause.data == "said_with":  # the texts said with them: shown, in their own place or in the same one
            if not shown:
                raise _NoReading(f"{_whole(sentence)!r}: what is said with a text that is gone is not read")
            own = next((c for c in clause.children if isinstance(c, Tree) and c.data == "place"), None)
            if own is not None:
                place = _place(own.children[1], words, sentence)
            for text, span, said_as in _texts(withs[0], words, sentence):
                out.append(Claim(text, True, place.title, "row" if place.row else place.kind, said_as, span,
                                 place.span))
        before = (shown, place, place if clause.data.startswith(("holder", "again")) else None)
    return out


def _counted(clause: Tree, last: Claim, words: list[Word], sentence: str) -> list[Claim]:
    """The count a clause says of the texts it lists ('lists two posts: A and B'): how many records the list holding
    the last of them has (kind "count"; place: the count as said, 'two posts'); none when it says no count."""
    count = next((c for c in clause.children if isinstance(c, Tree) and c.data == "count"), None)
    if count is None:
        return []
    said, at = written(_tokens(count), words, sentence)
    if not said.lower().endswith("s"):  # 'shows 2 unread: ...': what is counted is no records
        raise _NoReading(f"{_whole(sentence)!r}: a count is read only of records said in the plural ('two posts')")
    return [Claim(last.text, True, said.lower(), "count", span=last.span, place_span=at)]


def _element_claims(clause: Tree, words: list[Word], sentence: str) -> list[Claim]:
    """The claims of a clause about elements: each in a state, or one showing a value."""
    parts = [c for c in clause.children if isinstance(c, Tree)]
    if clause.data == "has_value":
        labelled, value = parts[0], parts[-1]
        tokens = _tokens(labelled)
        said = [words[int(t)].text.lower().replace("’", "'") for t in tokens if t.type != "DET"]
        if len(said) == 2 and said[0] in _PAGE_OWN and said[1] in _HEADINGS:  # "the page's title": no field's label
            raise _NoReading(f"{_whole(sentence)!r}: the page's heading is no field")
        kind = next((words[int(t)].text.lower() for t in tokens if t.type == "ELEMENT"), None)
        label, label_at = written([t for t in tokens if t.type in NAMING], words, sentence)
        text, at = written(_tokens(value), words, sentence)
        return [Claim(text, True, label, "value", kind, at, label_at)]
    state = " ".join(next(words[int(t)].text.lower() for t in _tokens(clause) if t.type == "STATE").split())
    shown = clause.data == "in_state"
    subject = parts[0]
    place_tree = next((c for c in parts if c.data == "place"), None)
    # 'the closed checkbox in the Status filter is not ticked': the control in that part
    place = _place(place_tree.children[1], words, sentence) if place_tree is not None else _Place(None, None, None)
    where = {"place": place.title, "kind": "row" if place.row else place.kind, "place_span": place.span}
    if subject.data == "control":
        tokens = _tokens(subject)
        named = [t for t in tokens if t.type == "LOW"]
        at = _span(words, named)
        kind = next(words[int(t)].text.lower() for t in tokens if t.type == "ELEMENT")
        return [Claim(sentence[at[0]:at[1]], shown, said_as=kind, span=at, state=state, **where)]
    return [Claim(text, shown, said_as=said_as, span=span, state=state, **where)
            for text, span, said_as in _texts(subject, words, sentence)]
