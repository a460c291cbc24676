"""Every word of a step accounted for, checked from outside the reader.

The checker sees only three things: the sentence the tester wrote, the operations the step carried out (each said in
words: its description, the words it named its element by, its value, and whether it was a check) and fixed,
versioned lists of words that carry no meaning of their own. It never sees how the sentence was read. A word of the
sentence that no executed operation used, and that is on no list, means the step did less than the sentence said: the
run records the words it did not use ('read only part of the sentence: "bottom left corner of the card" is not
used') and, with `partial_readings="fail"`, fails the step there.

What counts as used:

- a quoted text or an Examples value: some operation's words hold it whole, as words ("Unpaid" never holds "Paid");
  a number whole ("12.50" is never "50.12"); a value or name an operation used, written unquoted: all its words, at
  one place it is written as the operation says it (case and all), never elsewhere;
- any other word: some operation's words hold it, as its stem ("rows" used by "row"), or another word of its group
  (`SAME`: a "box" the step typed into as a "field"); a word of absence ("not", "gone", "no longer") only by what an
  operation says of itself, or a verb of closing said as a command's verb by a click on an element of that very name
  ('Close the dialog' done as a click on "Close"), never by a text it looked for ('"Not found" is shown' denies
  nothing), but for one inside a value written unquoted, at its place ('the status changes to Closed');
- 'sign in' / 'log in' by a step that typed into a password field and then did something (a click, Enter);
- 'leaving it empty', 'without filling it in' by a step that did something and typed or chose nothing;
- 'titled', 'named', 'called', 'headed' after a part or page and before a quoted title, by an operation whose words hold
  both ('a dialog titled "Login"');
- `DOING` (click, type, select...) once the step did something, `SEEING` (verify, shown, listed...) once it checked
  something, `ANY_OPERATION` (words that join, the page) once it did either; `IGNORABLE` (articles, courtesy) always.

Negations, places, orders, counts, looks and states are on no list: each is used only when an operation said it. The
check is of words, not of which verb went with which object: 'Click "A" and then "B"' done as a click on A and a
check of B uses every word (the reading keeps the verb with its objects: brains/grammar.py).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import lru_cache

import snowballstemmer

from shared.scenarios import PLACEHOLDER
from workers.agent.language.phrases import QUOTE  # what a quoted text is, as every reader of a sentence sees it
from workers.agent.reading.claims import CLOSE_MARKS

# Raised whenever a word is added to or taken from a list below: findings of two versions are not comparable.
VERSION = 20

# Words that carry no meaning a step could fail to use: articles, courtesy, sequence, manner of success.
IGNORABLE = frozenset("""
a an the please kindly then now also just simply again once successfully correctly properly immediately
finally afterwards so
""".split())

# Words that join the words that say what, name who does it, or the whole page or screen (where every step acts unless
# it says a part): used by any operation.
ANY_OPERATION = frozenset("""
i you we user tester is are was were be been being am should must will would can could may might shall does do did
has have had get gets got it its it's this that these those there here which who whom whose what
page screen window
and or but with in into on onto from to of for at by as via using use
""".split())

# Verbs of doing: used only by an operation that did something (a click, a typing, a choice), never by a check.
DOING = frozenset("""
click clicks clicked clicking press pressed presses pressing tap tapped hit push choose chose choosing select
selecting selects pick picked picks type typed types typing enter entered enters entering fill filled fills filling
input write writes wrote written put set sets change changes changed replace replaced go goes went navigate
navigates visit visits open opens follow follows take takes taken make check checks switch switches clear clears
dismiss dismisses
""".split())

# Verbs of seeing: used only by a check.
SEEING = frozenset("""
make sure ensure verify verifies verified confirm confirms check checks see sees seen saw look looks looking observe
notice expect expected find finds found locate locates show shows shown showing display displays displayed
displaying appear appears appeared appearing visible present listed list lists contain contains containing include
includes including read reads say says said state states exist exists remain remains still opens opened load
loads loaded open stay stays offer offers offered offering listing report reports reported return returns returned give
gives become becomes became text texts wording land lands landed results result query output
""".split())

# What an element shows after the step, said with 'to' ('changes to Closed', 'is set to "High"'): used by a check
_BECOMING = re.compile(r"(?i)(?<![\w'’])(?:changes|changed|change|updated|set|switched|switches|turns|turned)\s+to"
                       r"(?![\w'’])")

# Words of one meaning for what a step names ("the Description box" typed into as "the Description field").
SAME: tuple[frozenset[str], ...] = tuple(frozenset(group.split()) for group in (
    "field box input textbox textarea area entry editor",
    "dropdown select combobox combo picker drop-down drop list suggestions suggestion",
    "checkbox tickbox box check tick",
    "button btn",
    "link hyperlink",
    "tick check checked ticked",
    "untick uncheck unchecked unticked",
    "heading header title headline",
    "message notice notification alert banner toast",
    "dialog confirmation prompt",
    "option choice item entry",
    "above over", "below beneath underneath under", "beside next", "indented nested",
    # what is no longer there, said many ways: used only by an operation that says something is not there
    "not no longer anymore never isn't aren't wasn't weren't doesn't don't didn't won't gone disappear disappears "
    "disappeared "
    "vanish vanishes vanished hidden absent missing closes closed removed",
))

# Names of a kind of control said in two words, the first saying it ('the "reassign to" radio button' clicked as a
# radio): one piece of the sentence, used when its first word is.
COMPOUNDS = frozenset(f"{kind} button{s}" for kind in ("radio", "toggle", "option") for s in ("", "s"))
_COMPOUND = re.compile(r"(?i)(?<![\w'’])(?:" + "|".join(c.replace(" ", r"\s+") for c in sorted(COMPOUNDS))
                       + r")(?![\w'’])")

# A state a person sees on a control, as testers write it (the words of each), and its opposite. A state said with its
# denial ('is not ticked', "isn't selected", 'is no longer greyed out') is one piece of the sentence, used by a check
# that says the opposite state; a state said alone, by a check that says it.
STATES: dict[str, tuple[str, ...]] = {
    "disabled": ("disabled", "greyed out", "grayed out", "inactive"), "enabled": ("enabled",),
    "checked": ("checked", "ticked"), "unchecked": ("unchecked", "unticked"),
    "selected": ("selected", "chosen"), "unselected": ("unselected", "deselected"),
    "expanded": ("expanded", "unfolded"), "collapsed": ("collapsed", "folded"),
    "empty": ("empty", "blank"), "filled": ("filled",),
}
_OPPOSITE = {"disabled": "enabled", "checked": "unchecked", "selected": "unselected", "expanded": "collapsed",
             "empty": "filled"}
_OPPOSITE |= {b: a for a, b in _OPPOSITE.items()}
_STATE_OF = {said: state for state, words in STATES.items() for said in words}
_STATE_WORDS = "|".join(sorted((w.replace(" ", r"\s+") for w in _STATE_OF), key=len, reverse=True))
_STATE_SAID = re.compile(rf"(?i)(?<![\w'’])(?P<denied>(?:not|never|no\s+longer|[a-z]+n['’]t)\s+(?:be\s+)?)?"
                         rf"(?P<state>{_STATE_WORDS})(?![\w'’])")
_STATE_IN = re.compile(rf"(?i)(?<![\w'’])(?:{_STATE_WORDS})(?![\w'’])")

# signing in, said as a tester says it: used by a step that typed into a password field
_SIGNING_IN = re.compile(r"(?i)(?<![\w'’])(?:(?:sign|log)(?:s|ged|ging|ning|ed)?\s*(?:in|on)|login)(?![\w'’])")
_SECRET = re.compile(r"(?i)pass(?:word|code|phrase)|\bpin\b")
# a form left as it is, said of what the step does not do ('Submit the form leaving it empty'): used by a step that did
# something and typed, chose, ticked or cleared nothing
_LEFT_EMPTY = re.compile(r"(?i)(?<![\w'’])(?:(?:leaving|leave|left)\s+(?:it|them|everything|(?:all\s+)?(?:the\s+)?"
                         r"(?:fields?|form|boxes))\s+(?:empty|blank)|without\s+(?:filling|entering|typing)"
                         r"(?:\s+(?:it|them|anything|in\s+anything))?(?:\s+(?:in|out))?)(?![\w'’])")
_KEYS_PRESSED = frozenset("enter return tab escape esc space".split())
# the kinds of operation that put something into a form (Done.fills)
FILLING = frozenset("fill type select choose pick check uncheck clear upload".split())
# verbs of closing, used by a click on an element of that very name said where a command's verb stands
_CLOSING = frozenset("close hide remove dismiss".split())
# a part or page said with its title after it ('a dialog titled "Login"'): the word is used when an operation's words
# hold both the part and the title (never 'The page is titled "Report"' checked as a text anywhere)
_TITLED = re.compile(r"(?i)(?<![\w'’])(?P<kind>[^\W\d_]+)\s+(?P<word>titled|entitled|named|called|headed)\s+")
# where a command's verb stands: the sentence's start, or after 'and', 'then' or a comma
_COMMANDING = re.compile(r"(?i)(?:^|[,;]|\band|\bthen)\s*(?:then\s+)?$")
_ANY_MORE = re.compile(r"(?i)(?<![\w'’])any\s+more(?![\w'’])")
_STEMMER = snowballstemmer.stemmer("english")
_ABSENCE = frozenset(_STEMMER.stemWord(w) for w in SAME[-1])  # the stems of the words of absence
_WORD = re.compile(r"\d+(?:[.,:/]\d+)*|[^\W\d_]+(?:'[^\W_]+)?")  # a number whole: 12.50 is never 50.12


@dataclass(frozen=True)
class Done:
    """One operation a step carried out, as the checker sees it: its words."""

    description: str
    said: str | None = None  # the words it named its element by
    value: str | None = None
    checks: bool = False  # a check (something seen), not something done
    fills: bool = False  # it put something into a form: typed, chose, ticked, unticked, cleared, uploaded

    def words(self) -> str:
        return " ".join(t for t in (self.description, self.said, self.value) if t)


@dataclass(frozen=True)
class Coverage:
    """What of a sentence the step's operations used."""

    sentence: str
    unused: tuple[str, ...]  # the runs of the sentence's words that nothing used, in the sentence's order
    version: int = VERSION

    @property
    def whole(self) -> bool:
        return not self.unused

    def reason(self) -> str:
        named = ", ".join(f'"{run}"' for run in self.unused)
        verb = "is" if len(self.unused) == 1 else "are"
        return f"read only part of the sentence: {named} {verb} not used"


@lru_cache(maxsize=8192)
def stem(word: str) -> str:
    return _STEMMER.stemWord(word.lower().replace("’", "'").removesuffix("'s"))


def _group_of(word: str) -> frozenset[str]:
    found = {w for group in SAME if word in group for w in group}
    return frozenset(stem(w) for w in found | {word})


def _fold(text: str) -> str:
    return " ".join(text.replace("’", "'").split()).lower()


def substitute(sentence: str, row: Mapping[str, str]) -> str:
    """The sentence with each `<column>` the data row has replaced by the row's value (as the step ran it)."""
    return PLACEHOLDER.sub(lambda m: row.get(m[1], m[0]), sentence)


def _frame(done: Done) -> str:
    """What an operation says of itself, its quoted texts and its values left out: 'Verify 'Not found' is shown' says
    no denial."""
    text = QUOTE.sub(" ", done.description)
    for said in (done.value, done.said):
        if said:
            text = text.replace(said, " ")
    return text


def _holds(used: str, text: str) -> bool:
    """The used words hold the text whole, as words: "Unpaid" does not hold "Paid"."""
    return re.search(rf"(?<!\w){re.escape(text)}(?!\w)", used) is not None


def account(sentence: str, done: Iterable[Done]) -> Coverage:
    """Which words of the sentence no operation used (see the module's docstring)."""
    done = list(done)
    used_text = _fold(" ".join(d.words() for d in done))
    used_stems = {stem(w) for w in _WORD.findall(used_text)}
    framed = {stem(w) for d in done for w in _WORD.findall(_fold(_frame(d)))}
    # the names of the elements acted on, whole: 'Close the dialog' done as a click on "Close" (never 'Tick "Closed"
    # and close the filters', nor a denial: 'Click "Not now", and not "Upgrade"')
    acted = {_fold(d.said) for d in done if not d.checks and d.said}
    acted |= {"close"} if acted & CLOSE_MARKS else set()  # a control marked × closes what it is in
    did, saw = any(not d.checks for d in done), any(d.checks for d in done)
    # pieces: (start, end, used) over the sentence, quoted texts whole
    pieces: list[tuple[int, int, bool | None]] = []  # None: a word that neither needs using nor breaks a run
    for quoted in QUOTE.finditer(sentence):
        text = next(g for g in quoted.groups() if g is not None)
        pieces.append((quoted.start(), quoted.end(), not _fold(text) or _holds(used_text, _fold(text))))
    # a value or name an operation used, written unquoted in the sentence as the operation says it (case and all): one
    # place it is written, used whole, its words of absence too ('lists Closed 32 and Won't fix 12', 'the status
    # changes to Closed'); another place the same words are written is not ('Tick Hidden and verify "A" is hidden')
    for said in (t.strip() for d in done for t in (d.value, d.said) if t and t.strip()):
        for found in re.finditer(rf"(?<![\w'’]){re.escape(said)}(?![\w'’])", sentence):
            if not any(start < found.end() and found.start() < end for start, end, _ in pieces):
                pieces.append((found.start(), found.end(), True))
                break
    typed = any(d.fills or not d.checks and d.value and d.value.strip().lower() not in _KEYS_PRESSED for d in done)
    for left in _LEFT_EMPTY.finditer(sentence):
        if not any(start < left.end() and left.start() < end for start, end, _ in pieces):
            pieces.append((left.start(), left.end(), did and not typed))
    # the states the checks say of their elements (a quoted text looked for, or an element's name, says none)
    checked_states = {_STATE_OF[" ".join(m[0].lower().split())] for d in done if d.checks
                      for m in _STATE_IN.finditer(QUOTE.sub(" ", d.description).replace(d.said or "\0", " "))}
    for said in _STATE_SAID.finditer(sentence):
        if any(start <= said.start() < end for start, end, _ in pieces):
            continue
        state = _STATE_OF[" ".join(said["state"].lower().split())]
        pieces.append((said.start(), said.end(),
                       (_OPPOSITE.get(state) if said["denied"] else state) in checked_states))
    for becoming in _BECOMING.finditer(sentence):
        if saw and not any(start <= becoming.start() < end for start, end, _ in pieces):
            pieces.append((becoming.start(), becoming.end(), None))
    # a password typed, then something done that sends it (a click, Enter)
    secret = next((n for n, d in enumerate(done) if not d.checks and d.value and _SECRET.search(d.said or "")), None)
    typed_secret = secret is not None and any(not d.checks for d in done[secret + 1:])
    for signing in _SIGNING_IN.finditer(sentence):  # 'Sign in as "admin"': done by typing a password
        if not any(start <= signing.start() < end for start, end, _ in pieces):
            pieces.append((signing.start(), signing.end(), typed_secret))
    for titled in _TITLED.finditer(sentence):
        title = next((q for q in QUOTE.finditer(sentence) if q.start() == titled.end()), None)
        kind = titled["kind"].lower()
        if title is None or kind in ANY_OPERATION - {"page", "screen", "window"}:
            continue  # ('is titled'): left to the words' own lists, where it is on none
        text = _fold(next(g for g in title.groups() if g is not None))
        pieces.append((titled.start("word"), titled.end("word"),
                       bool(_group_of(kind) & used_stems) and _holds(used_text, text)))
    for again in _ANY_MORE.finditer(sentence):  # 'any more': one word of absence, as 'anymore'
        if not any(start <= again.start() < end for start, end, _ in pieces):
            pieces.append((again.start(), again.end(), bool(_group_of("anymore") & framed)))
    for compound in _COMPOUND.finditer(sentence):
        if not any(start <= compound.start() < end for start, end, _ in pieces):
            first = compound[0].split()[0].lower()
            pieces.append((compound.start(), compound.end(), bool(_group_of(first) & used_stems)))
    for word in _WORD.finditer(sentence):
        if any(start <= word.start() < end for start, end, _ in pieces):
            continue
        lowered = word[0].lower()
        if lowered in IGNORABLE or (done and lowered in ANY_OPERATION) or (did and lowered in DOING) \
                or (saw and lowered in SEEING):
            pieces.append((word.start(), word.end(), None))
            continue
        if lowered in _CLOSING and lowered in acted and _COMMANDING.search(sentence[:word.start()]):
            pieces.append((word.start(), word.end(), True))  # 'Close the dialog': the element "Close" clicked
            continue
        group = _group_of(lowered)
        # a word of absence is used only by what an operation says of itself, never by a text it looked for
        pieces.append((word.start(), word.end(), bool(group & (framed if group & _ABSENCE else used_stems))))
    pieces.sort()
    runs: list[str] = []
    start = end = None
    for piece_start, piece_end, used in pieces + [(len(sentence), len(sentence), True)]:
        if used is False:
            start = piece_start if start is None else start
            end = piece_end
        elif used is True and start is not None:
            runs.append(" ".join(sentence[start:end].split()))
            start = end = None
    return Coverage(sentence=" ".join(sentence.split()), unused=tuple(runs))


def step_coverage(action: str, expected: str | None, done: list[Done], row: Mapping[str, str]
                  ) -> list[tuple[str, str, Coverage]]:
    """Each sentence of a step (its action, then its expected result) with what it is called in a message ("" or
    "expected result ") and its coverage by what was done; an expected result is used only by checks (what the action
    did never stands for what it was to show)."""
    return [(said, sentence, account(substitute(sentence, row), [d for d in done if d.checks or not said]))
            for said, sentence in (("", action), ("expected result ", expected)) if sentence]
