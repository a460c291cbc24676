"""Expected results that describe the page in a tester's words, checked text by text.

'The suggestions list "Starbucks" and "Shell Gas Station" and do not list "Whole Foods"',
'"Cash Wallet" is no longer listed under "On budget" and "All accounts" shows 29,379.48',
'The page of ticket "#13" opens with the title "Album export stops at 500 photos" and the status "new enhancement"':
each part of the statement says that its quoted texts (and the long numbers it writes) are shown, or, after a
negation, that they are not; a text placed by a preposition ('under "On budget"') is a part of the page that is
shown either way.

Only what such checks can check is taken. A word that says more than "shown" or "not shown" (an order, a state, a
count, a look: "first", "disabled", "in bold", "every row") makes the statement refused as a whole; so does a
negation with no text of its own to be absent. Words that only name what a text is ("the status", "the
comment", "the file") or where it is ("the sidebar", "the dialog") are read past.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from workers.agent.actions.kinds.assert_in_row import LABELLED_NUMBER, ROW_NUMBER, number_in_row
from workers.agent.actions.kinds.assert_state import STATE_WORDS
from workers.agent.language.phrases import PART_NOUNS, PICKS, SAYS_MORE, TOKEN, Op, Sentence, Unsupported, split_role

# Predicates that say a text is shown, and negations that say it is not.
_SHOWN = re.compile(
    r"\b(?:is|are|was|were|be|been|shows?|shown|showing|lists?|listed|listing|displays?|displayed|reads?|reading|says?|"
    r"saying|contains?|containing|includes?|including|has|have|having|appears?|opens?|opened|offers?|mentions?|"
    r"suggest(?:s|ed)?|visible|present|remains?|stays?|labell?ed|titled|named|called|with|back)\b", re.I)
_NEGATION = re.compile(r"\b(?:not|no|neither|nor|never|none|hidden|gone|disappears?|disappeared|removed|deleted|absent|"
                       r"missing|longer)\b|n't\b", re.I)

# Where on the page: more than "shown", but a text not shown anywhere is not shown there either.
_POSITION = frozenset("above below beneath underneath before after between next left right top bottom".split())

# Words that only say that a text is shown, or where: the parts of a page, the kinds of elements.
_GLUE = frozenset("""a an the its their this that these those with and or of in on at to for from by as which
    showing shown show shows reading reads read labelled labeled titled named called saying says say containing
    contains listing lists list has have having is are be being opens open opened appears appear displayed display
    displays visible now still also both new again any more longer anymore offers offer mentions mention suggested
    suggests suggest includes include including present remains remain stays stay do does not no neither nor
    dialog modal popup pop-up window page screen panel section box card tab tabs button buttons link links field
    fields column columns row rows item items entry entries option options menu list node nodes tooltip notification
    message toast banner heading headings title header label labels text texts value values tree sidebar table
    chip chips badge lines line area part view form results result suggestions suggestion under in inside
    within among any more back""".split())

_NUMBER = re.compile(r"(?<![\w.,])[-+]?\d+(?:,\d{3})*(?:\.\d+)?%?(?![\w])")
_MIN_DIGITS = 3  # "29,379.48", "250.00", "500" are texts a tester reads; "7" is on every page
_PLACE = re.compile(r"\b(?P<prep>under|in|inside|within|from|on|beneath|below|above|beside|next\s+to)\s+"
                    r"(?:the\s+)?(?:[\w-]+\s+){0,2}?$", re.I)
_PARTS = re.compile(r"\s*;\s*|,\s*(?:and|but|while)\s+|\s+(?:and|but|while|whereas|along\s+with|as\s+well\s+as)\s+|,\s+", re.I)
_ALTERNATIVES = re.compile(r"\b(?:or|either|whether)\b", re.I)
_IN_ORDER = re.compile(r"\b(?:in\s+(?:that|this|the\s+same|alphabetical|reverse|this)\s+order|ordered|order\s+of)\b", re.I)
# A part of the page named by unquoted words and what it is, one of the kinds that hold a page's parts (never a column,
# a section or a list, which tell records apart): 'in the Filters box', 'in the Details panel'
_NAMED_PART = re.compile(r"\b(?:in|inside|within|on|under|from)\s+(?:the\s+)?(?:[A-Za-z][\w-]*\s+){0,3}?"
                         rf"{PART_NOUNS}\b", re.I)
_KIND_WORDS = 3  # words just before a text that name what it is: 'the group heading "Everyday Spending"'


# A field's name that holds an order word ('first name "Walter"', 'the First name field'): no pick.
FIELD_NAMES = re.compile(r"\b(?:first|last|middle)\s+name(?=\s+\x01|\s+(?:field|box|input|column)\b)", re.I)


def described_checks(masked: str, s: Sentence, statement: Callable[[str], list[Op]] | None = None) -> list[Op]:
    """assert_text / assert_absent operations for a describing statement; raises `Unsupported` when it says more
    than which texts are shown and which are not. statement: the checks of a part with a predicate of its own
    that says more ('"(8)" is shown next to the heading'), by the rules of whole statements."""
    picked = PICKS.search(TOKEN.sub(" ", FIELD_NAMES.sub("name", masked)))
    if picked:
        raise Unsupported(f"{picked[0]!r} in {s.show(masked)!r}: which part of the page shows a text cannot be "
                          "checked here, only that the page shows it")
    if _ALTERNATIVES.search(TOKEN.sub(" ", masked)):
        raise Unsupported(f"{s.show(masked)!r} names alternatives ('or'); say which text is shown")
    if _IN_ORDER.search(TOKEN.sub(" ", masked)):
        raise Unsupported(f"{s.show(masked)!r}: an order of texts cannot be checked here, only that each is shown")
    masked = _named_row(masked, s)
    masked = _named_subjects(masked, s)
    masked = _named_kinds(masked, s)
    numbers, masked = _labelled_numbers(masked, s)
    values, masked = _field_values(masked.strip().rstrip("."), s)
    values = numbers + values
    elements, masked = _elements(masked, s)
    values += elements
    states, masked = _listed_states(masked, s)
    values += states
    if not re.search(r"\bfrom\b", TOKEN.sub(" ", masked), re.I):  # 'changed from "A" to "B"' says more
        masked = _CHANGED_TO.sub("now read", masked)
    # the parts, and the sentence each is in: a part goes with a predicate of its own sentence only (a ';' ends one)
    sentences = [[p for p in _PARTS.split(whole) if p and p.strip()] for whole in masked.split(";")]
    parts = [p for sentence in sentences for p in sentence]
    sentence_of = [n for n, sentence in enumerate(sentences) for _ in sentence]
    texts_in = [_texts(p, s) for p in parts]
    if values and not any(texts_in):
        _refuse_more(masked, s, True)
        return values
    if not any(texts_in):
        raise Unsupported(f"cannot tell which text to look for in {s.show(masked)!r}; quote each text on its own")
    # A part with no predicate of its own ('"Savings"' in '"Checking", "Savings" and "Cash" are listed') goes with
    # the part that has one: the next one when that one names its texts first, else the one before.
    own_polarity: list[bool | None] = [shown_said(p) for p in parts]
    polarity = list(own_polarity)
    went_with: dict[int, int] = {}  # a part with no predicate -> the part whose predicate it goes with
    for i, p in enumerate(parts):
        if polarity[i] is not None:
            continue
        after = next((j for j in range(i + 1, len(parts)) if polarity[j] is not None
                      and sentence_of[j] == sentence_of[i]), None)
        before = next((j for j in range(i - 1, -1, -1) if polarity[j] is not None
                       and sentence_of[j] == sentence_of[i]), None)
        subject_first = after is not None and texts_in[after] and texts_in[after][0][1] < _predicate_at(parts[after])
        pick = after if subject_first or before is None else before
        if pick is None:
            raise Unsupported(f"{s.show(masked)!r} does not say whether the texts are shown")
        if polarity[pick] is False and (pick == before or not texts_in[pick]
                                        or _negation_at(parts[pick]) < texts_in[pick][0][1]):
            raise Unsupported(f"{s.show(p)!r} has no verb of its own beside a negation; say whether it is shown")
        polarity[i] = polarity[pick]
        went_with[i] = pick
    ops: list[Op] = []
    row: str | None = None  # the key of the row the statement describes, while its parts go on describing it
    carried: list[str] = []  # the texts the part before was about
    for i, (p, shown, found, own) in enumerate(zip(parts, polarity, texts_in, own_polarity, strict=True)):
        numbered = _WITH_NUMBER.fullmatch(p.strip())
        said = next((j for j in range(i - 1, -1, -1) if own_polarity[j] is not None), None)  # the statement before
        subject = texts_in[said][0] if said is not None and texts_in[said] else None
        if numbered and shown and subject is not None and subject[1] <= 1 and not subject[2] and _long(numbered["n"]):
            # '"Car Repairs" is listed in "Savings Goals", with 0.00 budgeted': the number is in its row
            ops.append(Op("assert_in_row", target=subject[0], value=numbered["n"]))
            continue
        introduced = ROW.search(p)
        if introduced or own is not None:
            row = s.tokens[int(introduced["a"] or introduced["b"])] if introduced else None
        try:
            _refuse_more(p, s, bool(shown), in_row=row is not None)
        except Unsupported:
            whole = _own_statement(p, s, statement) if own is not None and (row is None or introduced) else None
            if whole is None:
                raise
            ops += whole
            continue
        subjects = [t for t, _, placed in found if not placed]
        places = [t for t, _, placed in found if placed]
        cells = [t for t, _, _ in found if t != row] if row is not None else []
        if cells or (introduced and None in _later_polarities(parts, p)):
            if not shown:
                raise Unsupported(f"{s.show(p)!r}: a text gone from one row cannot be checked, only a text gone "
                                  "from the whole page")
            ops += [Op("assert_in_row", target=row, value=t) for t in cells]
            continue  # a row said alone ('a "Pay rent" row is listed'): its text is shown, or not, as any other
        # '"Draft", "Sent" and "Archive" are listed under "X"': a part with no predicate is where its partner is
        titled = _titled_in(parts, i if i not in went_with or places else went_with[i], polarity, own_polarity, s)
        if titled is not None and not subjects and own is not None:
            subjects = carried  # '"Tips" is in "Chosen" and no longer in "Available"': the texts said before
        carried = [t for j, k in went_with.items() if k == i for t, _, placed in texts_in[j] if not placed] + subjects
        if titled is not None and subjects:  # '"Tips" is now in "Chosen categories"', '... no longer under "X"'
            ops += [Op("assert_in_section" if shown else "assert_not_in_section", target=titled, value=t)
                    for t in subjects]
            continue
        if not shown and not subjects:
            raise Unsupported(f"{s.show(p)!r}: cannot tell which text must be absent (quote it, e.g. "
                              "'Water the plants' is not shown)")
        if not shown and _negated_after(p, found):
            raise Unsupported(f"{s.show(p)!r}: cannot tell which of its texts must be absent; say each on its own")
        if not shown and places:
            raise Unsupported(f"{s.show(p)!r}: a text gone from one part of the page only cannot be checked, only a "
                              "text gone from the whole page")
        ops += [Op("assert_text" if shown else "assert_absent", value=t) for t in subjects]
        ops += [Op("assert_text", value=t) for t in places]
    ops += values
    seen: set[tuple[str, str | None, str | None]] = set()
    return [op for op in ops if (op.kind, op.value, op.target) not in seen
            and not seen.add((op.kind, op.value, op.target))]


# 'with 0.00 budgeted' after a part that starts with its subject text: a number of that text's row
_WITH_NUMBER = re.compile(r"with\s+(?P<n>[-+]?\d[\d,]*(?:\.\d+)?%?)(?:\s+[a-z][\w-]*)?", re.I)


# A row an expected result describes by a text it holds: 'a "Starbucks" row with ...', 'the row of "Groceries"
# shows ...', 'the "Everyday Spending" group row shows ...'; the texts said with it, there and in the parts after it
# that have no verb of their own, are in it.
ROW = re.compile(r"\x01(?P<a>\d+)\x02\s+(?:[a-z][\w-]*\s+)?(?:row|entry|line|record)\b|"
                  r"\b(?:row|entry|line|record)\s+(?:(?:of|for|with)\s+)?\x01(?P<b>\d+)\x02", re.I)


# 'Groceries shows 450.00 budgeted and a balance of 615.70': a name said unquoted, then the numbers its row shows
_NAMED_ROW = re.compile(r"(?P<name>(?!(?:The|A|An|It|Its|This|That|These|Those|Their|Each|Every|All|Both|Neither|"
                        r"None|No|Only)\b)[A-Z][\w-]*(?:\s+[A-Z][\w-]*){0,2})\s+(?=(?:shows|has|reads)\s)")


def _named_row(masked: str, s: Sentence) -> str:
    """'Groceries shows 450.00 ...' -> 'the "Groceries" row shows 450.00 ...' when what it shows is long numbers."""
    m = _NAMED_ROW.match(masked.strip())
    if not m:
        return masked
    rest = masked.strip()[m.end():]
    first = re.split(r"\s*;\s*|,\s*(?:and|but)\s+|\s+(?:and|but)\s+(?=\x01)", rest)[0]
    if TOKEN.search(first) or not (any(_long(n) for n in _NUMBER.findall(first)) or LABELLED_NUMBER.search(first)):
        return masked
    s.tokens.append(m["name"])
    return f"the \x01{len(s.tokens) - 1}\x02 row {rest}"


def _labelled_numbers(masked: str, s: Sentence) -> tuple[list[Op], str]:
    """assert_in_row operations for numbers said with their label of a quoted row, and the statement without them."""
    ops: list[Op] = []

    def take(m: re.Match[str]) -> str:
        ops.append(number_in_row(m, s))
        return m["subject"] + (m["verb"] or " is shown")
    return ops, ROW_NUMBER.sub(take, masked)


# 'Brokerage is listed under "Off budget"', '..., and Cash Wallet is gone': a part's subject said in capitalised words
# (never after an article or a word that picks: 'The panel shows ...') is the text it is about, as if quoted; read
# past, the part would check less than it says
_NAMED_SUBJECT = re.compile(r"(?:^|(?<=,\s)|(?<=\band\s)|(?<=\bbut\s)|(?<=\bwhile\s)|(?<=\x02\s))"
                            r"(?P<name>(?!(?:The|A|An|It|Its|This|That|These|Those|Their|There|Each|Every|All|Both|"
                            r"Neither|None|No|Only|Then|Now|I|We|You)\b)[A-Z][\w'&.-]*(?:\s+[A-Z][\w'&.-]*){0,3}"
                            # ('Study Rooms and Library Cards appear ...': several)
                            r"(?:(?:\s*,\s*|\s+and\s+|,\s*and\s+)[A-Z][\w'&.-]*(?:\s+[A-Z][\w'&.-]*){0,3})*)"
                            r"(?=\s+(?:is|are|was|were|appears?|shows?\s+up|remains?|stays?|has\s+been|have\s+been)\b)")


# 'with Username and Password fields', 'the Groceries row': names in capitals before the kind of element they name are
# the texts a person reads on them, as if quoted (several of a kind, or a row; 'the Name field', 'in the Component
# column' are a field's and a column's names, which other readings take)
_NAME = r"(?!(?:The|A|An|It|Its|This|That|These|Those|Their|Each|Every|All|Both|No|Only)\b)[A-Z][\w.'-]*"
_NAMES = rf"{_NAME}(?:\s+{_NAME}){{0,2}}"
_NAMED_KIND_WORDS = re.compile(rf"(?<![\w\x01\x02])(?P<names>{_NAMES}(?:(?:\s*,\s*|\s+and\s+|,\s*and\s+){_NAMES})+)\s+"
                               r"(?=(?:tabs|fields|buttons|sections|links|columns|headings|checkboxes|boxes|options)\b)|"
                               rf"(?<![\w\x01\x02])(?P<row>{_NAMES})\s+(?=row\b)")


def _named_kinds(masked: str, s: Sentence) -> str:
    if _NEGATION.search(TOKEN.sub(" ", masked)) or re.search(r"\bmissing\b", masked, re.I):
        return masked  # ('with Edit and Delete buttons missing': which are gone is said after them)

    return _NAMED_KIND_WORDS.sub(lambda m: _quoted_names(m["names"] or m["row"], s) + " ", masked)


def _named_subjects(masked: str, s: Sentence) -> str:
    return _NAMED_SUBJECT.sub(lambda m: _quoted_names(m["name"], s), masked)


def _quoted_names(names: str, s: Sentence) -> str:
    """'Study Rooms and Library Cards' -> each name as a quoted text, the words between them kept."""
    parts = re.split(r"(\s*,\s*and\s+|\s*,\s*|\s+and\s+)", names)
    return "".join(p if i % 2 else s.quote(p) for i, p in enumerate(parts))


def _own_statement(part: str, s: Sentence, statement: Callable[[str], list[Op]] | None) -> list[Op] | None:
    """The checks of a part read as a whole statement, when each checks a text the part quotes, or the state of an
    element it quotes ('Four modules are listed' is a count, not the text "Four modules")."""
    if statement is None:
        return None
    quoted = {s.tokens[int(n)] for n in TOKEN.findall(part)}
    try:
        ops = statement(part)
    except Unsupported:
        return None
    # a state of an element it quotes ('the "Orders" entry is collapsed') is checked on that element
    return ops if ops and all(op.value in quoted or (op.kind == "assert_state" and op.target in quoted)
                              for op in ops) else None


def _later_polarities(parts: list[str], part: str) -> list[bool | None]:
    at = parts.index(part)
    later = []
    for p in parts[at + 1:]:
        own = shown_said(p)
        if own is not None:
            break
        later.append(own)
    return later


# What a form control holds, said with its label: '"Wake up" in the Name field', 'a Repeat dropdown set to "none"'.
_LABEL_WORD = r"(?!(?:and|with|an?|the|its|or|shows?|is|are|opens?|has|have|of|in|on|to|set)\b)[\w-]+"
_LABEL = rf"(?<![\w-])(?P<label>{_LABEL_WORD}(?:\s+{_LABEL_WORD}){{0,2}}?)"
_CONTROL = r"(?P<role>field|box|dropdown|select|input|text\s*area|text\s*box)"
_VALUE_IN = re.compile(rf"\x01(?P<v>\d+)\x02\s+in\s+(?:the|its)\s+{_LABEL}\s+{_CONTROL}", re.I)
# 'with the name "Alice" filled in': the Name field holds it
_VALUE_FILLED = re.compile(rf"(?:an?\s+|the\s+|its\s+)?{_LABEL}\s+\x01(?P<v>\d+)\x02\s+(?:already\s+)?(?:filled\s+in|entered|"
                           r"pre-?filled|typed\s+in)", re.I)
_VALUE_SET = re.compile(rf"(?:an?\s+|the\s+|its\s+)?{_LABEL}\s+{_CONTROL}\s+"
                        rf"(?:set\s+to|showing|shows|reads|holding|holds|containing|contains)\s+\x01(?P<v>\d+)\x02", re.I)


# A control said to be there, by its name and kind, maybe with its state: 'with a Password field and a "Sign in"
# button', 'an empty "Notes" text area', 'a disabled "Import" button'.
_ELEMENT = re.compile(r"\b(?:[Aa]|[Aa]n|[Tt]he|[Ii]ts)\s+(?:(?P<st>empty|disabled|enabled|ticked|unticked|checked|"
                      r"unchecked|greyed\s+out)\s+)?(?P<name>\x01\d+\x02|[A-Z][\w-]*(?:\s+[A-Z][\w-]*){0,2})?\s*"
                      r"(?P<role>text\s*area|text\s*box|field|button|link|checkbox|check\s*box|dropdown)\b")
# Words that say what the quoted text next to them is: the title of the page, of a dialog, a heading.
_NAMED_KIND = re.compile(r"\b(?:heading|title|titled|dialog|modal|page|tab|tray|window|panel|form|section|named|called|"
                         r"labell?ed|header|message|banner|menu)\s*(?:reads|says|of)?\s*$", re.I)
_TITLE_AFTER = re.compile(r"\s*(?:dialog|modal|page|tab|tray|window|panel|form|section|heading|menu)\b", re.I)


def _elements(masked: str, s: Sentence) -> tuple[list[Op], str]:
    """assert_state operations for the controls a statement says are there (visible, or in the state it says), and
    the statement without them; none in a statement that denies (which element is gone is not said plainly)."""
    if _NEGATION.search(TOKEN.sub(" ", masked)) or ROW.search(masked):
        return [], masked
    rest = _ELEMENT.sub(" ", masked)
    if any(not _NAMED_KIND.search(rest[max(0, m.start() - 40): m.start()]) and not _KIND_AFTER.match(rest[m.end():])
           and not _TITLE_AFTER.match(rest[m.end():]) for m in TOKEN.finditer(rest)):
        return [], masked  # '"Alice" is listed with a disabled "Remove" button': which row's button is not said
    ops: list[Op] = []

    def take(m: re.Match[str]) -> str:
        if not m["name"]:
            return m[0]  # 'a field', 'an empty text area': which one is not said
        before = masked[: m.start()].rstrip().lower()
        if before and not (before.endswith((",", " and", " with")) or re.search(_SHOWN.pattern + r"$", before)):
            return m[0]  # 'listed in the Assignee dropdown', 'under the Email field': a place, not a control said there
        name = s.tokens[int(m["name"][1:-1])] if m["name"] and m["name"].startswith("\x01") else m["name"]
        state = STATE_WORDS[" ".join(m["st"].lower().split())] if m["st"] else "visible"
        ops.append(Op("assert_state", target=name, role_hint=split_role(m["role"])[1], value=state))
        return " "
    return ops, " ".join(_ELEMENT.sub(take, masked).split())


# 'The commands change to "A" and "B"', 'the button turns into "Saved"': the texts now shown.
_CHANGED_TO = re.compile(r"\b(?:changes?|changed|switch(?:es|ed)?|turns?|turned)\s+(?:to|into)\b", re.I)
# '"Show palette" and "Show sidebar" (both ticked)': the state of each quoted element listed before it.
_STATES = '|'.join(sorted((w.replace(" ", r"\s+") for w in STATE_WORDS), key=len, reverse=True))
_LISTED_STATE = re.compile(r"(?P<list>\x01\d+\x02(?:\s*(?:,|,?\s+and)\s*\x01\d+\x02)*)\s*\(\s*(?:both|all|each|all\s+of\s+them)?"
                           rf"\s*(?P<st>{_STATES})\s*\)|"
                           # 'opens with "current flow" chosen and "selected nodes" greyed out', '... both ticked'
                           r"(?P<list2>\x01\d+\x02(?:\s*(?:,|,?\s+and)\s*\x01\d+\x02)*)\s+(?:both\s+|all\s+|each\s+)?"
                           rf"(?P<st2>{_STATES})(?=\s*(?:$|,|;|\s+and\s|\s+but\s))", re.I)


def _listed_states(masked: str, s: Sentence) -> tuple[list[Op], str]:
    """assert_state operations for quoted elements a parenthesis gives a state, and the statement with the texts kept
    (they are shown too) and the parenthesis gone."""
    ops: list[Op] = []

    def take(m: re.Match[str]) -> str:
        state = STATE_WORDS[" ".join((m["st"] or m["st2"]).lower().split())]
        listed = m["list"] or m["list2"]
        ops.extend(Op("assert_state", target=s.tokens[int(n)], value=state) for n in TOKEN.findall(listed))
        return listed
    return ops, _LISTED_STATE.sub(take, masked)


def _field_values(masked: str, s: Sentence) -> tuple[list[Op], str]:
    """assert_value operations for the values the statement says controls hold, and the statement without them."""
    ops: list[Op] = []

    def take(m: re.Match[str]) -> str:
        role = "dropdown" if m["role"].lower() in ("dropdown", "select") else "field"
        ops.append(Op("assert_value", target=m["label"].strip(), role_hint=role, value=s.tokens[int(m["v"])]))
        return " "

    def take_filled(m: re.Match[str]) -> str:
        ops.append(Op("assert_value", target=m["label"].strip(), role_hint="field", value=s.tokens[int(m["v"])]))
        return " "
    masked = _VALUE_FILLED.sub(lambda m: take_filled(m), _VALUE_SET.sub(take, _VALUE_IN.sub(take, masked)))
    return ops, re.sub(r"\s+(?:and|with)\s*(?=$|,)|,\s*(?=$|,)", "", " ".join(masked.split())).strip()


def _texts(part: str, s: Sentence) -> list[tuple[str, int, bool]]:
    """(text, position, placed) of each quoted text and long number of a part; placed: after a place's preposition."""
    found = []
    for m in TOKEN.finditer(part):
        found.append((s.tokens[int(m[1])], m.start(), bool(_PLACE.search(part[: m.start()]))))
    for m in _NUMBER.finditer(TOKEN.sub(lambda t: " " * len(t[0]), part)):
        if _long(m[0]):
            found.append((m[0], m.start(), bool(_PLACE.search(part[: m.start()]))))
    if any(not t.strip() for t, _, _ in found):
        raise Unsupported("an expected text is empty")
    return sorted(found, key=lambda f: f[1])


_KIND_AFTER = re.compile(r"\s*(?:column|tab|badge|field|button|link|page|cell|dropdown|chip|header|row|cart|"
                         r"dialog|window|menu|tooltip|message|notification|banner|input|filter)s?\b", re.I)
# A part that says no more than "is not": the predicate of the part before, denied.
ELLIPTIC = re.compile(r"^(?:\s*\x01\d+\x02\s*(?:,|and)?)+\s*(?:is|are|was|were|does|do|did|has|have)(?:\s+not|n't)"
                       r"(?:\s+(?:listed|shown|displayed|there|any\s+more|anymore))?\s*$", re.I)
# The prepositions that put a text in the part of the page a quoted title heads ("from" only for a text gone:
# 'removed from "Favourites"', never 'changed from "Bob" to "Carol"').
_IN_TITLED = frozenset(("under", "in", "inside", "within", "among"))


def _titled_in(parts: list[str], i: int, polarity: list[bool | None], own_polarity: list[bool | None],
               s: Sentence) -> str | None:
    """The title of the part of the page parts[i] puts its texts in; "is not" after a part that said where
    ('"docs" is listed under "Labels" and "wontfix" is not') is there too."""
    titled = _titled_place(parts[i], s, bool(polarity[i]))
    if titled is None and ELLIPTIC.search(parts[i]):
        said = next((j for j in range(i - 1, -1, -1) if own_polarity[j] is not None), None)
        if said is not None and polarity[said] is not True:
            raise Unsupported(f"{s.show(parts[i])!r} denies a denial; say where the text is, or that it is not shown")
        titled = _titled_place(parts[said], s, True) if said is not None else None
    return titled


def _titled_place(part: str, s: Sentence, shown: bool) -> str | None:
    """The one quoted text of the part that a text is said to be in or under ('listed under "On budget"'), else
    None (no such place, several, or a place beside, above or below)."""
    places = [(m, _PLACE.search(part[: m.start()])) for m in TOKEN.finditer(part)]
    places = [(m, p) for m, p in places if p]
    if len(places) != 1 or places[0][1]["prep"].lower() not in (_IN_TITLED if shown else _IN_TITLED | {"from"}):
        return None
    if _KIND_AFTER.match(part[places[0][0].end():]):
        return None  # 'in the "Owner" column', 'in the "Settings" tab': a column, a tab, a field is not titled so
    return s.tokens[int(places[0][0][1])]


def _negation_at(part: str) -> int:
    found = _NEGATION.search(TOKEN.sub(lambda t: " " * len(t[0]), part))
    return found.start() if found else len(part)


def _negated_after(part: str, found: list[tuple[str, int, bool]]) -> bool:
    """A negation with texts on both sides of it ('"Alice" no longer has role "Admin"'), or before its texts and its
    verb ('not "Bob" is shown'): which text is absent is not said plainly."""
    negation = _negation_at(part)
    if negation == len(part) or not found:
        return False
    before = [f for f in found if f[1] < negation]
    after = [f for f in found if f[1] > negation and not f[2]]
    return bool(after) and (bool(before) or _predicate_at(part) > after[0][1])


def _long(number: str) -> bool:
    return len(re.sub(r"\D", "", number)) >= _MIN_DIGITS


def shown_said(part: str) -> bool | None:
    """True: its texts are shown; False: they are not; None: the part says neither (a list's item)."""
    bare = TOKEN.sub(" ", part)
    if _NEGATION.search(bare):
        return False
    return True if _SHOWN.search(bare) else None


def _predicate_at(part: str) -> int:
    found = _SHOWN.search(TOKEN.sub(lambda t: " " * len(t[0]), part))
    return found.start() if found else len(part)


def _refuse_more(part: str, s: Sentence, shown: bool, in_row: bool = False) -> None:
    """Every word is glue, a negation, names the part of the page the part is about (its subject) or the kind of
    the text right after it; none says more (a place may, when the texts must not be shown at all)."""
    bare = _NUMBER.sub(lambda m: " \x03 " if _long(m[0]) else " number ",
                       TOKEN.sub(" \x00 ", FIELD_NAMES.sub("name", part)))
    bare = re.sub(r"\bone\s+of\b", " among ", bare, flags=re.I)
    if in_row:  # 'the row for "#3" shows "Documentation" in the Component column': a cell of that row
        bare = re.sub(r"\b(?:in|under)\s+(?:the|its)\s+(?:[\w-]+\s+){1,2}column\b", " ", bare, flags=re.I)
    if shown:  # 'appears in the Filters box': where a shown text is, named by unquoted words, is read past
        bare = _NAMED_PART.sub(" ", bare)
    words = ["\x00" if w == "\x03" else w for w in re.findall(r"[A-Za-z][A-Za-z'-]*|\x00|\x03", bare.lower())]
    after_number = {i + 1 for i, w in enumerate(re.findall(r"[A-Za-z][A-Za-z'-]*|\x00|\x03", bare)) if w == "\x03"}
    for i, word in enumerate(words):
        if word == "\x00" or (not shown and word in _POSITION):
            continue
        if word in _POSITION and i < _first_predicate(words):
            continue  # where the subject is, to look at it: 'the panel on the right shows ...'
        if word in SAYS_MORE or word in _POSITION:
            raise Unsupported(f"{word!r} in {s.show(part)!r}: only which texts are shown, or not, can be checked "
                              "here, not an order, a place, a state, a count or a look")
        if in_row and i in after_number:
            continue  # what a row's number is, said after it: '400.00 budgeted'

        if word in _GLUE or _SHOWN.fullmatch(word) or _NEGATION.fullmatch(word) or word.endswith("n't"):
            continue
        if "\x00" in words[i + 1: i + 1 + _KIND_WORDS] or i < _first_predicate(words):
            continue  # names what the next text is, or the part of the page the statement is about
        raise Unsupported(f"{word!r} in {s.show(part)!r}: it says more than which texts are shown")


def _first_predicate(words: list[str]) -> int:
    """Where the part's predicate is; 0 when it has none (its words name no subject)."""
    return next((i for i, w in enumerate(words) if w != "\x00" and (_SHOWN.fullmatch(w) or _NEGATION.fullmatch(w))),
                0)
