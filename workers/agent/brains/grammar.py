"""Sentence rules of the builtin brain: one table of verb patterns, tried in order.

Each rule is a regular expression over one normalised, quote-masked clause and a handler that
turns the match into `Op`s (concrete intents) or a `Macro` (a high-level intent that needs the
page: fill a form, submit a form, search). A handler returns None to let later rules try, or
raises `Unsupported` to refuse with a reason.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from shared.records import ActionKind

from .phrases import (
    NotUnderstood,
    Op,
    Sentence,
    Unsupported,
    describes_value,
    is_description,
    is_location,
    literal_value,
    loose_split,
    normalise,
    parse_key,
    split_clauses,
    split_role,
    target_phrase,
    value_phrase,
)

K = ActionKind


@dataclass
class Macro:
    """A high-level intent, expanded against the page snapshot (see `forms.py`)."""

    name: str  # "fill_form", "submit_form", "search"
    subject: str = ""  # words naming the form or what is searched for: "owner", "owners"
    value: str | None = None  # the search text
    clause: str = ""  # the clause as written, for messages


Item = Op | Macro
Handler = Callable[[re.Match[str], Sentence], "list[Item] | None"]


# --- assertions -----------------------------------------------------------------------

_VISIBLE = r"(?:shown|displayed|visible|present|listed|rendered|on\s+(?:the\s+)?(?:page|screen))"
_WHERE = r"(?:\s+(?:on|in)\s+(?:the\s+)?(?:page|screen|list|table|results(?:\s+(?:list|table))?|search\s+results))?"
_NEGATIVE = re.compile(
    r"\b(?:not|no|nothing|none|nobody|no\s+longer|isn't|aren't|doesn't|don't|never|hidden|invisible|"
    r"disappears?|disappeared|absent|gone|missing|removed|deleted)\b",
    re.I,
)
# words that make an unquoted expected value a description of a check rather than the value itself
_VALUE_QUALIFIER = re.compile(
    r"\b(?:shown|displayed|visible|present|listed|rendered|highlighted|selected|checked|enabled|disabled|"
    r"focused|sorted|greyed|grayed|bold|underlined|shows?|displays?|contains?|appears?|equals?|or|than|within|"
    r"between|greater|less|more|fewer|least|most|before|after|above|below|until|seconds?|minutes?|"
    r"(?:in|on|at|inside|under|from|to)\s+(?:the|a|an)|in\s+(?:red|green|blue|black|white|gr[ae]y|orange|yellow|"
    r"bold|italics?))\b",
    re.I,
)
# a statement's subject that names no element: "there is ...", "it is ...", "this is ..."
_PRONOUN = re.compile(
    r"(?:there|here|it|this|that|these|those|they|he|she|we|you|i|something|anything|nothing|everything|"
    r"someone|everyone|all|each|every|one)\b",
    re.I,
)
_SEVERAL = re.compile(rf"\s(?:is|are)\s+{_VISIBLE}\b.*\s", re.I)
_TEXT_PREFIX = re.compile(r"^(?:the\s+)?(?:text|message|words?|label|heading|title|phrase)\s+(?=\S)", re.I)
_STATES = {
    "loaded", "open", "opened", "closed", "empty", "blank", "enabled", "disabled", "selected", "checked",
    "unchecked", "visible", "hidden", "correct", "incorrect", "valid", "invalid", "updated", "saved",
    "successful", "ok", "fine", "working", "right", "wrong", "displayed", "shown", "present", "ready",
    "filled", "changed", "unchanged", "clickable", "focused", "active", "done", "complete", "completed",
}  # fmt: skip
_PAGE_PROPERTY = re.compile(r"(?:(?:page|window|tab|browser|document)\s+)(?:title|url|address)|url|address\s+bar", re.I)
_PAGE_LIKE = re.compile(r"(?:^|\s)(?:page|screen|form|dialog|window|site|app|application|view)$", re.I)


def _texts(x: str, s: Sentence) -> list[Op]:
    """Expected texts: 'A' / 'A' and 'B' / A (unquoted, literal)."""
    x = _TEXT_PREFIX.sub("", x.strip())
    if _NEGATIVE.search(x):
        raise Unsupported(_ABSENCE)
    if _SEVERAL.search(x):
        raise Unsupported("it holds several checks")  # "A is shown and B is shown": split by the caller
    listed = s.token_list(x)
    if listed is not None:
        if not all(t.strip() for t in listed):
            raise Unsupported("an expected text is empty")
        return [Op(K.assert_text, value=t) for t in listed]
    if s.has_token(x):
        raise Unsupported(f"cannot tell which text to look for in {s.show(x)!r}; quote each text on its own")
    if is_description(x) or _PRONOUN.fullmatch(x):
        raise Unsupported(
            f"{s.show(x)!r} describes something instead of giving the text to look for; quote the text, "
            "e.g. Verify 'Order saved' is shown"
        )
    text = s.unmask(x)
    if not text:
        raise Unsupported("it names no text to look for")
    return [Op(K.assert_text, value=text)]


_ABSENCE = (
    "checking that something is absent is not supported (quote the expected text if words such as "
    "'no' or 'not' are part of it)"
)


def _value_check(t: str, v: str, s: Sentence) -> list[Op]:
    masked_target, role = split_role(t)
    target = s.unmask(masked_target)
    if not target:
        raise Unsupported("it names no element whose value to check")
    if re.search(r"\bor\b", masked_target, re.I):
        raise Unsupported(f"{s.show(t)!r} names more than one element; check one element per sentence")
    if _PRONOUN.match(masked_target):
        raise Unsupported(
            f"{s.show(t)!r} names no element; checking a state of the page is not supported, "
            "only that a text is shown or that a named element shows a value"
        )
    if s.is_quoted(masked_target) and role is None:
        raise Unsupported(
            f"{s.show(t)} is a quoted text, not an element with a value; write Verify {s.show(t)} is shown "
            "to look for the text, or name the element, e.g. Verify the Email field shows user@example.com"
        )
    if _PAGE_PROPERTY.fullmatch(target):
        raise Unsupported("checking the page's title or address is not supported; check a text on the page")
    if _PAGE_LIKE.search(target) or target.lower() in {"page", "screen", "it", "everything", "all", "result"}:
        raise Unsupported(f"{s.show(t)!r} is not an element with a value; quote the text to look for instead")
    if not s.is_quoted(v):
        if v.strip().lower() in _STATES:
            raise Unsupported(f"{v.strip()!r} is a state, not a value the builtin brain can check")
        if is_description(v) or s.has_token(v):
            raise Unsupported(f"{s.show(v)!r} is not a literal value; quote the expected value")
        if _VALUE_QUALIFIER.search(v):
            raise Unsupported(
                f"{s.show(v)!r} is not a single literal value (only that an element shows exactly one value can "
                "be checked); quote the expected value if these words are the value"
            )
    value = value_phrase(s, v)
    return [Op(K.assert_value, target=target, role_hint=role, value=value)]


def _in_field(m: re.Match[str], s: Sentence) -> list[Op]:
    """'"Alice" is shown in the Name field': the value of that field (a field only, else other rules try)."""
    masked_target, role = split_role(m["t"])
    x = m["x"].strip()
    if role not in ("field", "dropdown") or not masked_target or s.has_token(masked_target):
        return []
    if s.has_token(x) and not s.is_quoted(x):
        raise Unsupported(f"{s.show(x)!r}: a field shows one value; check one value per field", final=True)
    if re.search(r"\b(?:and|or)\b|,", masked_target, re.I):
        raise Unsupported(f"{s.show(m['t'])!r} names several fields; check one field per sentence", final=True)
    return _value_check(m["t"], x, s)


def _qualified(m: re.Match[str], s: Sentence) -> list[Op]:
    """'X is shown at the top / in red / within 2 seconds': more than "it is shown"."""
    q = m["q"].strip()
    if re.match(r"(?:and|,|&)", q, re.I):
        return []  # several checks: split by the caller
    raise Unsupported(
        f"{s.show(q)!r}: only that a text is shown can be checked, not where, how, when or how often; "
        f"write Verify {s.show(m['x'].strip())} {'are' if len(s.token_list(m['x']) or []) > 1 else 'is'} shown"
    )


def _page_state(m: re.Match[str], s: Sentence) -> list[Op]:
    raise Unsupported(
        f"{s.show(m['x'])!r} describes a state of the page, not a text to look for; checking that a page has "
        "loaded or changed is not supported (quote the text if it is one)"
    )


_PAGE = r"(?:the\s+)?(?:\w+\s+)?(?:page|screen|window|site|browser|form|app|application)"
_STATEMENTS: list[tuple[re.Pattern[str], Callable[[re.Match[str], Sentence], list[Op]]]] = [
    # the page has loaded / has finished loading / has been updated: a state, not a text
    (re.compile(
        rf"{_PAGE}\s+(?:should\s+|must\s+|will\s+)?(?:now\s+)?(?:has|have)(?:\s+(?:now|been|finished|completed|"
        r"stopped|started|successfully|fully))*\s+(?P<x>[a-z]+(?:ed|en|ing))", re.I),
     _page_state),
    # the page shows X / the screen contains the text 'X'
    (re.compile(
        r"(?:the\s+)?(?:page|screen|window|site|browser|results?|response)\s+(?:should\s+|must\s+|will\s+)?(?:now\s+)?"
        r"(?:shows?|displays?|contains?|includes?|has|have|lists?|says?|reads?)\s+(?P<x>.+)", re.I),
     lambda m, s: _texts(m["x"], s)),
    # X is shown / 'A' and 'B' are displayed on the page
    (re.compile(
        rf"(?P<x>.+?)\s+(?:is|are|should\s+be|must\s+be|will\s+be|gets?|becomes?)\s+(?:now\s+|still\s+|also\s+)?"
        rf"{_VISIBLE}{_WHERE}", re.I),
     lambda m, s: _texts(m["x"], s)),
    # 'Alice' is shown in the Name field: that field's value
    (re.compile(
        r"(?P<x>.+?)\s+(?:is|are|should\s+be|must\s+be|will\s+be)\s+"
        r"(?:shown\s+|displayed\s+|entered\s+|filled\s+in\s+)?"
        r"(?:in|inside|within)\s+(?P<t>.+)", re.I),
     _in_field),
    # X is shown at the top / in red / within 2 seconds
    (re.compile(
        rf"(?P<x>.+?)\s+(?:is|are|should\s+be|must\s+be|will\s+be|gets?|becomes?)\s+(?:now\s+|still\s+|also\s+)?"
        rf"{_VISIBLE}\s+(?P<q>.+)", re.I),
     _qualified),
    # X appears / X shows up
    (re.compile(
        r"(?P<x>.+?)\s+(?:should\s+|must\s+|will\s+)?(?:appears?|shows?\s+up|exists?)(?:\s+on\s+(?:the\s+)?(?:page|screen))?",
        re.I),
     lambda m, s: _texts(m["x"], s)),
    # the text 'X'
    (re.compile(r"(?:the\s+)?(?:text|message)\s+(?P<x>\S.*)", re.I), lambda m, s: _texts(m["x"], s)),
    # 'A' / 'A' and 'B'
    (re.compile("(?P<x>\x01.*\x02)"), lambda m, s: _texts(m["x"], s) if s.token_list(m["x"]) else []),
    # shows X (the subject left out, as in an expected cell)
    (re.compile(r"(?:it\s+)?(?:should\s+)?(?:shows?|displays?|lists?)\s+(?P<x>.+)", re.I),
     lambda m, s: _texts(m["x"], s)),
    # the value of T is V
    (re.compile(
        r"(?:the\s+)?value\s+(?:of|in)\s+(?:the\s+)?(?P<t>.+?)\s+(?:is|equals?|should\s+be|must\s+be|=)\s+(?P<v>.+)",
        re.I),
     lambda m, s: _value_check(m["t"], m["v"], s)),
    # T shows V / T contains V / T is V / T has value V
    (re.compile(
        r"(?P<t>.+?)\s+(?:should\s+|must\s+|will\s+)?(?:shows?|contains?|displays?|reads?|equals?|is|"
        r"has\s+(?:the\s+)?value(?:\s+of)?|should\s+be|must\s+be|be)\s+(?P<v>.+)", re.I),
     lambda m, s: _value_check(m["t"], m["v"], s)),
]  # fmt: skip


def statement(masked: str, s: Sentence) -> list[Op]:
    """A checkable statement ('X is shown', 'the Email field shows user@example.com') into assertions."""
    masked = masked.strip()
    if _NEGATIVE.search(masked):
        raise Unsupported(_ABSENCE)
    for pattern, handler in _STATEMENTS:
        m = pattern.fullmatch(masked)
        if m:
            ops = handler(m, s)
            if ops:
                return ops
    raise NotUnderstood(
        "it states nothing the builtin brain can check (write e.g. \"'Order saved' is shown\" "
        "or 'the Email field shows user@example.com')"
    )


# --- rule handlers ---------------------------------------------------------------------


def _expect(m: re.Match[str], s: Sentence) -> list[Item]:
    b = m["b"].strip()
    verb, _, rest = b.partition(" ")
    conjugated = {"be": "is", "have": "has", "contain": "contains", "show": "shows", "display": "displays",
                  "appear": "appears", "equal": "equals", "read": "reads", "include": "includes"}  # fmt: skip
    return list(statement(f"{m['a']} {conjugated.get(verb.lower(), verb)} {rest}".strip(), s))


def _verify(m: re.Match[str], s: Sentence) -> list[Item]:
    return list(statement(m["s"], s))


def _see(m: re.Match[str], s: Sentence) -> list[Item]:
    try:
        return list(statement(m["s"], s))
    except NotUnderstood:
        return list(_texts(m["s"], s))


_SUBMIT_NOISE = re.compile(
    r"\b(?:leaving\s+(?:it|them|everything|all(?:\s+the)?\s+fields?|the\s+fields?)\s+(?:empty|blank)|"
    r"without\s+(?:filling|entering|typing)(?:\s+(?:it|them|anything|any\s+values?|in\s+anything))?(?:\s+(?:in|out))?|"
    r"with(?:out)?\s+(?:any\s+|no\s+)?(?:empty\s+|blank\s+)?(?:data|values?|input|fields?)|"
    r"as\s+is|unchanged|empty|blank|the|it|form|button|now|again|once\s+more)\b",
    re.I,
)  # fmt: skip


def _submit(m: re.Match[str], s: Sentence) -> list[Item]:
    subject = " ".join(_SUBMIT_NOISE.sub(" ", s.unmask(m["rest"] or "")).split())
    return [Macro("submit_form", subject=subject)]


def _search(m: re.Match[str], s: Sentence) -> list[Item]:
    rest = m["rest"].strip()
    named = re.fullmatch(
        r"(?P<subj>.*?)\s*\b(?:named|called|with\s+(?:the\s+)?(?:last\s+)?name|matching|containing|like)\s+(?P<v>.+)",
        rest,
        re.I,
    )
    if named:
        subject, value = named["subj"], named["v"]
    else:
        quoted = re.fullmatch("(?P<subj>.*?)\\s*(?P<v>\x01\\d+\x02)", rest)
        subject, value = (quoted["subj"], quoted["v"]) if quoted else ("", rest)
    value_text = literal_value(s, value, what="search text")
    if not value_text:
        raise Unsupported("it does not say what to search for")
    return [Macro("search", subject=s.unmask(subject), value=value_text)]


def _fill_form_with(m: re.Match[str], s: Sentence) -> list[Item] | None:
    """'Fill in the form with invalid values': only valid values are invented; others must be written."""
    v = m["v"].strip()
    if re.fullmatch(_DATA_WORDS, v, re.I):
        return _fill_form(m, s)
    if not (describes_value(s, v) or re.search(r"\b(?:values?|data|input|entries|ones)$", v, re.I)):
        return None  # "Fill Details with Foo": a field named like a form, left to the typing rule
    raise Unsupported(
        f"{s.show(v)!r} describes values instead of giving them; only 'Fill in the form with valid values' "
        'invents values: type each one, e.g. Type "x@" into Email'
    )


def _fill_form(m: re.Match[str], s: Sentence) -> list[Item]:
    words = re.sub(r"\b(?:all|the|of|required|empty|remaining|other|in|out|entire|whole)\b", " ", m["name"] or "", flags=re.I)
    return [Macro("fill_form", subject=" ".join(s.unmask(words).split()))]


_HISTORY = "history navigation (back, forward, the previous page) is not supported; name the link to click instead"
_VAGUE_PLACE = re.compile(
    r"(?:(?:the|a|an|this|that|some|any|my|your|our)\s+)?(?P<w>previous|prior|last|next|same|other|original|earlier|"
    r"former|another|new|different|some|any|a|an)\b",
    re.I,
)


def _go(m: re.Match[str], s: Sentence, *, verb: str = "go") -> list[Item]:
    x = m["x"].strip()
    place = s.unmask(x)
    if is_location(place):
        return [Op(K.goto, value=place)]
    vague = _VAGUE_PLACE.match(x)
    if vague and not s.is_quoted(x):
        if vague["w"].lower() in ("previous", "prior", "last", "earlier", "former", "original"):
            raise Unsupported(_HISTORY)
        raise Unsupported(
            f"{s.show(x)!r} names no particular page or element; name the link or page, e.g. Go to the Contact page"
        )
    page = re.fullmatch(r"(?:the\s+)?(?P<n>.+?)\s*(?:web\s*)?(?:page|screen|tab|view)", x, re.I)
    thing = re.fullmatch(r"(?:the\s+)?(?P<n>.+?)\s+(?:form|dialog|panel|window)", x, re.I)
    if page:
        name = s.unmask(page["n"])
    elif verb == "open" and thing:  # "Open the Add Owner form": a click on what opens it
        return [Op(K.click, target=s.unmask(thing["n"]))]
    elif verb == "open":
        target, role = target_phrase(s, x)
        return [Op(K.click, target=target, role_hint=role)]
    else:
        name = s.unmask(re.sub(r"^the\s+", "", x, flags=re.I))
    if name.lower() in {"homepage", "home page"}:
        name = "home"
    if not name:
        raise Unsupported("it names no page")
    return [Op(K.click, target=name, role_hint="link")]


def _press(m: re.Match[str], s: Sentence) -> list[Item] | None:
    key = parse_key(s.unmask(m["k"]))
    if key is None:
        return None  # "Press the Submit button": a click, left to the click rule
    if m["t"]:
        target, role = target_phrase(s, m["t"], "field")
        return [Op(K.press, target=target, role_hint=role, value=key)]
    return [Op(K.press, value=key)]


def _fill(m: re.Match[str], s: Sentence) -> list[Item]:
    target, role = target_phrase(s, m["t"], "field")
    if role == "dropdown":  # "Set the Type dropdown to dog"
        return [Op(K.select, target=target, role_hint=role, value=literal_value(s, m["v"], option=True, what="option"))]
    return [Op(K.fill, target=target, role_hint=role, value=literal_value(s, m["v"]))]


def _type_nowhere(m: re.Match[str], s: Sentence) -> list[Item]:
    raise Unsupported('it does not say which field to type into; write e.g. Type "Alice" into the Name field')


def _clear(m: re.Match[str], s: Sentence) -> list[Item]:
    target, role = target_phrase(s, m["t"], "field")
    if role in ("checkbox", "radio"):
        return [Op(K.uncheck, target=target, role_hint=role)]
    return [Op(K.fill, target=target, role_hint=role, value="")]


def _select(m: re.Match[str], s: Sentence) -> list[Item]:
    target, role = target_phrase(s, m["t"], "dropdown")
    value = literal_value(s, m["v"], option=True, what="option")
    if not value:
        raise Unsupported("it names no option to select")
    return [Op(K.select, target=target, role_hint=role, value=value)]


def _select_alone(m: re.Match[str], s: Sentence) -> list[Item]:
    target, role = target_phrase(s, m["t"])
    if role in ("checkbox", "radio"):
        return [Op(K.check, target=target, role_hint=role)]
    return [Op(K.click, target=target, role_hint=role)]


def _toggle(kind: ActionKind) -> Handler:
    def handler(m: re.Match[str], s: Sentence) -> list[Item]:
        if kind is K.check:
            try:  # "Check the Email field shows user@example.com": a check of the page, not a checkbox
                return list(statement(m["t"], s))
            except Unsupported:
                pass
        target, role = target_phrase(s, m["t"])
        return [Op(kind, target=target, role_hint="radio" if role == "radio" else "checkbox")]

    return handler


def _click(m: re.Match[str], s: Sentence) -> list[Item]:
    target, role = target_phrase(s, m["t"])
    return [Op(K.click, target=target, role_hint=role)]


def _refuse(reason: str) -> Handler:
    def handler(m: re.Match[str], s: Sentence) -> list[Item]:
        raise Unsupported(reason)

    return handler


_FORM_WORDS = r"(?:form|fields|details|information|info)"
_DATA_WORDS = (
    r"(?:(?:valid|sample|test|dummy|random|some|realistic|correct|proper|appropriate|plausible|good|fake)\s+)*"
    r"(?:values|data|details|information|info|input|entries)"
)

RULES: list[tuple[str, Handler]] = [
    # refusals first, so that no later rule half-understands them
    (r"(?:double|right)[\s-]?click.*", _refuse("double and right clicks are not supported")),
    (r"scroll.*", _refuse("scrolling is not an operation the builtin brain records (elements are scrolled to when used)")),
    (r"drag.*", _refuse("dragging is not supported")),
    (r"(?:hover|mouse\s+over|move\s+the\s+mouse).*", _refuse("hovering is not supported")),
    (r"(?:upload|attach).*", _refuse("file upload is not supported")),
    (r"wait.*", _refuse("waiting is not an operation (every operation waits for the page by itself)")),
    (r"(?:refresh|reload).*", _refuse("reloading the page is not supported")),
    (r"(?:go|navigate|head|get|step|move|return|come|browse)\s+(?:back|forward|backwards?|forwards?)\b.*",
     _refuse(_HISTORY)),
    (r"(?:back|return)", _refuse(_HISTORY)),
    (r"(?:click|press|hit|tap|use)\s+(?:on\s+)?(?:the\s+)?browser['’]?s?\s+(?:back|forward)\b.*", _refuse(_HISTORY)),
    (r"(?:switch|close)\b.*", _refuse("switching or closing windows, tabs or frames is not supported")),
    (r"(?:open|launch|create|start)\s+(?:a|an|another|the)?\s*(?:new|second|other|private|incognito)?\s*"
     r"(?:browser\s+)?(?:tab|window|browser|incognito\s+window)\b.*",
     _refuse("opening tabs or windows is not supported")),
    # assertions
    (r"expect\s+(?P<a>.+?)\s+to\s+(?P<b>.+)", _expect),
    (r"(?:verify|confirm|ensure|assert|validate|make\s+sure)\s+(?:that\s+|whether\s+|if\s+)?(?P<s>.+)", _verify),
    (r"check\s+(?:that|whether|if)\s+(?P<s>.+)", _verify),
    (r"(?:should\s+|can\s+)?see\s+(?:that\s+)?(?P<s>.+)", _see),
    # high-level intents, expanded against the page
    (r"submit(?P<rest>\s.*)?", _submit),
    (r"search\s+(?:for\s+)?(?P<rest>.+)", _search),
    (rf"(?:fill(?:\s+in|\s+out)?|complete|populate)\s+(?P<name>.*?)\s*{_FORM_WORDS}", _fill_form),
    (rf"(?:fill(?:\s+in|\s+out)?|complete|populate)\s+(?P<name>.*?)\s*{_FORM_WORDS}\s+(?:with|using)\s+(?P<v>.+)",
     _fill_form_with),  # fmt: skip
    # navigation
    (r"(?:go|navigate|browse|head|proceed|return)\s+to\s+(?P<x>.+)", _go),
    (r"(?:open|launch)\s+(?P<x>.+)", lambda m, s: _go(m, s, verb="open")),
    (r"(?:visit|load)\s+(?P<x>.+)", _go),
    (r"(?:am|are|is|be)\s+on\s+(?P<x>.+)", _go),
    # keys (before clicks: "Press Enter" is a key, "Press the Submit button" a click)
    (r"(?:press|hit|push)\s+(?:the\s+)?(?P<k>.+?)(?:\s+key)?"
     r"(?:\s+(?:in|on|into|inside|within)\s+(?P<t>.+))?", _press),  # fmt: skip
    # typing
    (r"(?:type|enter|input|write|put|key\s+in)\s+(?P<v>.+?)\s+(?:into|in\s+to|in|inside|on)\s+(?P<t>.+)", _fill),
    (r"(?:type|enter|input|write|put)\s+(?P<v>.+?)\s+as\s+(?P<t>.+)", _fill),
    (r"(?:fill(?:\s+in|\s+out)?|populate|complete)\s+(?P<t>.+?)\s+with\s+(?P<v>.+)", _fill),
    (r"(?:set|change)\s+(?P<t>.+?)\s+(?:to|=)\s+(?P<v>.+)", _fill),
    (r"(?:type|enter|input|write)\s+(?P<v>.+)", _type_nowhere),
    # options and toggles
    (r"(?:select|choose|pick)\s+(?P<v>.+?)\s+(?:from|in|on|for|within|inside)\s+(?P<t>.+)", _select),
    (r"(?:select|choose|pick)\s+(?P<v>.+?)\s+as\s+(?P<t>.+)", _select),
    (r"(?:uncheck|untick|deselect|unselect|un-check|un-tick)\s+(?P<t>.+)", _toggle(K.uncheck)),
    (r"(?:clear|empty|erase)\s+(?P<t>.+)", _clear),
    (r"(?:check|tick|mark)\s+(?P<t>.+)", _toggle(K.check)),
    (r"(?:select|choose|pick)\s+(?P<t>.+)", _select_alone),
    # clicks
    (r"(?:click|tap|press|push|hit|activate|follow)(?:\s+on)?\s+(?P<t>.+)", _click),
    (r"(?:click|tap|press|push|hit)", _refuse("it names nothing to click")),
]
_COMPILED = [(re.compile(pattern, re.I | re.S), handler) for pattern, handler in RULES]


def parse_clause(masked: str, s: Sentence, *, expected: bool = False) -> list[Item]:
    """One clause into operations; raises `Unsupported`."""
    clause = normalise(masked)
    if not clause:
        raise Unsupported("it is empty")
    for pattern, handler in _COMPILED:
        m = pattern.fullmatch(clause)
        if m:
            items = handler(m, s)
            if items is not None:
                return items
    try:  # no verb: a bare statement such as "the page contains X" or "X is displayed"
        return list(statement(clause, s))
    except NotUnderstood:
        if expected:
            raise
        raise NotUnderstood(
            "no rule understands it: it is neither a known operation (click, type, select, check, press, "
            "go to, search, fill in the form, submit) nor a check such as \"'Order saved' is shown\""
        ) from None


def parse_text(text: str, *, expected: bool = False) -> list[tuple[str, list[Item]]]:
    """A step's action (or expected cell) into (clause as written, items) pairs.

    Raises `Unsupported` whose `clause` is the clause that could not be understood.
    """
    s = Sentence(text)
    if not s.masked:
        raise Unsupported("it is empty")
    out: list[tuple[str, list[Item]]] = []
    clauses = split_clauses(s.masked)
    for clause in clauses:
        try:
            items = _parse_checked(clause, s, expected)
        except Unsupported as exc:
            pieces = loose_split(clause)
            try:
                if len(pieces) < 2 or exc.final:
                    raise exc
                items = [item for piece in pieces for item in _parse_checked(piece, s, expected)]
            except Unsupported:
                raise type(exc)(exc.reason, clause=s.show(clause) if len(clauses) > 1 else None) from None
        for item in items:
            if isinstance(item, Macro):
                item.clause = s.show(clause)
        out.append((s.show(clause), items))
    return out


def _parse_checked(clause: str, s: Sentence, expected: bool) -> list[Item]:
    items = parse_clause(clause, s, expected=expected)
    if expected and not all(isinstance(i, Op) and i.kind.is_assertion for i in items):
        raise Unsupported("an expected result must be something to check, not an operation")
    return items
