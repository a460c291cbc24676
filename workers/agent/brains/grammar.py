"""Sentence rules of the builtin brain: this module's own (refusals, checks, form macros) and each action kind's
(`Action.rules`, `Action.statements`), tried in order.

Each rule is a regular expression over one normalised, quote-masked clause and a handler that
turns the match into `Op`s (concrete intents) or a `Macro` (a high-level intent that needs the
page: fill a form, submit a form, search). A handler returns None to let later rules try, or
raises `Unsupported` to refuse with a reason.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, replace
from functools import lru_cache

from workers.agent.actions import Rule, action, all_actions
from workers.agent.actions.kinds.clear import HELD
from workers.agent.brains.clauses import loose_split, normalise, split_clauses, ungap, verbs
from workers.agent.language.counts import take_counts
from workers.agent.language.phrases import (
    ABSENCE_UNCLEAR,
    ARTICLE,
    NAMED_MENU,
    NEGATIVE,
    TOKEN,
    NotUnderstood,
    Op,
    Place,
    Sentence,
    Unsupported,
    describes_value,
    literal_value,
)

from .checks import ELLIPTIC, ROW, described_checks, shown_said


@dataclass
class Macro:
    """A high-level intent, expanded against the page snapshot (see `forms.py`)."""

    name: str  # "fill_form", "submit_form", "search", "sign_in", "type_here", "clear_here"
    subject: str = ""  # words naming the form or what is searched for: "owner", "owners"; sign_in: the user name
    value: str | None = None  # the search text; sign_in: the password
    clause: str = ""  # the clause as written, for messages


Item = Op | Macro
Handler = Callable[[re.Match[str], Sentence], "list[Item] | None"]


# --- checks ------------------------------------------------------------------------------


def _page_state(m: re.Match[str], s: Sentence) -> list[Op]:
    raise Unsupported(
        f"{s.show(m['x'])!r} describes a state of the page, not a text to look for; checking that a page has "
        "loaded or changed is not supported (quote the text if it is one)"
    )


_PAGE = r"(?:the\s+)?(?:\w+\s+)?(?:page|screen|window|site|browser|form|app|application)"
# Statements of no kind: refused with a reason, before any kind's statements are tried.
_STATEMENTS = (
    # the page has loaded / has finished loading / has been updated: a state, not a text
    Rule(rf"{_PAGE}\s+(?:should\s+|must\s+|will\s+)?(?:now\s+)?(?:has|have)(?:\s+(?:now|been|finished|completed|"
         r"stopped|started|successfully|fully))*\s+(?P<x>[a-z]+(?:ed|en|ing))", _page_state, 100),
)  # fmt: skip
# Statements below this order state that something is absent; the others that something is shown.
ABSENCE_ORDER = 100


# 'The palette is back, with the "filter nodes" box and the "inject" node visible': a statement, then what it shows
_WITH_SHOWN = re.compile(r"(?P<s>.+?),\s+with\s+(?P<w>(?:(?!\bwith\b).)+?)(?:\s+(?:visible|shown|displayed|in\s+view))?",
                         re.I | re.S)


# 'the results contain "Alpha" but not "Beta"': what is shown, then the quoted texts that are not
_BUT_NOT = re.compile(r"(?P<pos>.+?),?\s+but\s+not\s+(?P<neg>\x01\d+\x02(?:(?:\s*,\s*|\s+and\s+|\s+or\s+|\s+nor\s+)"
                      r"\x01\d+\x02)*)", re.I | re.S)


def statement(masked: str, s: Sentence) -> list[Op]:
    """A checkable statement ('X is shown', 'X is no longer listed', 'the Email field shows user@example.com')
    into assertions: every kind's statements, tried in order (those of absence when the statement denies)."""
    masked = masked.strip()
    but_not = _BUT_NOT.fullmatch(masked)
    if but_not and not NEGATIVE.search(but_not["pos"]):
        return statement(but_not["pos"], s) + [Op("assert_absent", value=s.tokens[int(n)])
                                               for n in TOKEN.findall(but_not["neg"])]
    try:
        return _statement(masked, s)
    except Unsupported as exc:
        with_shown = _WITH_SHOWN.fullmatch(masked)
        if not with_shown or not s.has_token(with_shown["w"]) or NEGATIVE.search(with_shown["w"]):
            raise
        try:
            return statement(with_shown["s"], s) + statement(f"{with_shown['w']} are shown", s)
        except Unsupported:
            raise exc from None


def _statement(masked: str, s: Sentence) -> list[Op]:
    denies = NEGATIVE.search(masked) is not None
    described: Unsupported | None = None
    if ROW.search(masked):  # 'the "Savings" row shows "500.00"': the texts of that row (see checks.py)
        try:
            return described_checks(masked, s)
        except Unsupported as exc:  # 'the "Order Processing" entry is collapsed': the entry's state
            described = exc
    for rule in _statements():
        if (rule.order < ABSENCE_ORDER) != denies:
            continue
        m = rule.compiled.fullmatch(masked)
        if m:
            ops = rule.handler(m, s)
            if ops:
                return ops
    if described is not None:
        raise described
    if denies:
        raise Unsupported(ABSENCE_UNCLEAR)
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
    except NotUnderstood:  # "I see 'Welcome'": the text itself
        return list(statement(f"{m['s']} is shown", s))


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


_CREDENTIAL = r"\x01(\d+)\x02"
_USER_WORD = r"(?:user\s*name|user|login|e-?mail(?:\s+address)?|account)"


_NOT_CREDENTIALS = frozenset("the a an and or password field box is valid invalid correct wrong his her their your my its "
                             "credentials details".split())


def _sign_in(m: re.Match[str], s: Sentence) -> list[Item]:
    """'Log in with username "admin" and password "admin123"', 'Sign in as "admin" / "admin123"', 'Log in as admin
    (password "admin123")', 'Sign in with the password "actual123"': the credentials, in the sign-in form."""
    rest = m["rest"].strip()
    pair = re.fullmatch(r"\(\s*(?P<u>[^\s()/]+)\s*/\s*(?P<p>[^\s()/]+)\s*\)", rest)
    if pair:  # 'Log in (admin / admin123)'
        rest = f"as {pair['u']} / {pair['p']}"
    alone = re.fullmatch(r"(?:with|using|\()\s*(?P<p>[^\s\x01()/,]*\d[^\s\x01()/,]*)\s*\)?", rest)
    if alone and alone["p"].lower() not in _NOT_CREDENTIALS:
        # 'Sign in with actual123', 'Log in (actual123)': one credential, the password (a form with no user name)
        return [Macro("sign_in", subject="", value=alone["p"])]
    # 'Sign in with "admin" in "Username or email:" and "admin123" in "Password:"': each value in the field it names
    typed = re.fullmatch(rf"(?:with|using)\s+{_CREDENTIAL}\s+(?:in|into)\s+(?:the\s+)?{_CREDENTIAL}(?:\s+(?:field|box))?\s*"
                         rf"(?:,\s*(?:and\s+)?|\s+and\s+){_CREDENTIAL}\s+(?:in|into)\s+(?:the\s+)?{_CREDENTIAL}"
                         r"(?:\s+(?:field|box))?", rest, re.I)
    if typed:
        return [Op("fill", target=s.tokens[int(typed[2])], role_hint="field", value=s.tokens[int(typed[1])]),
                Op("fill", target=s.tokens[int(typed[4])], role_hint="field", value=s.tokens[int(typed[3])])]
    token = lambda found: s.tokens[int(found[1])] if found else None  # noqa: E731
    password = token(re.search(rf"password\s*(?:is\s+|of\s+|=\s*|:\s*)?{_CREDENTIAL}", rest, re.I))
    user = token(re.search(rf"{_USER_WORD}\s*(?:is\s+|of\s+|=\s*|:\s*)?{_CREDENTIAL}", rest, re.I))
    quoted = [s.tokens[int(n)] for n in re.findall(_CREDENTIAL, rest)]
    if user is None and password is None and len(quoted) == 2:  # "admin" / "admin123", "admin" and "admin123"
        user, password = quoted
    elif user is None and password is None and len(quoted) == 1 and re.fullmatch(rf"(?:with|using)\s+{_CREDENTIAL}", rest):
        password = quoted[0]  # 'Sign in with "actual123"': one credential, the password (a form with no user name)
        return [Macro("sign_in", subject="", value=password)]
    elif user is None:
        named = re.match(rf"(?:(?:as|with)\s+)?(?:the\s+)?(?:{_USER_WORD}\s+)?(?:{_CREDENTIAL}|(?P<w>[\w.@+-]+))", rest, re.I)
        if named and named[1] is not None and s.tokens[int(named[1])] != password:
            user = s.tokens[int(named[1])]
        elif named and named["w"] and named["w"].lower() not in ("the", "password", "with", "using") \
                and not rest.lower().startswith("with"):  # "with valid credentials": no user name is said
            user = named["w"]
    if password is None:  # an unquoted credential is one word: 'as admin with password admin123', 'as admin / admin123'
        # ('as admin / admin123'; 'using admin and admin123': a password has a digit)
        slash = re.fullmatch(rf"(?:as|with|using)\s+(?:the\s+)?(?:{_USER_WORD}\s+)?(?P<u>[^\s\x01\x02/]+)\s*(?:/|\s+and\s+(?=\S*\d))\s*"
                             r"(?P<p>[^\s\x01\x02/]+)", rest, re.I)
        plain = re.search(r"\bpassword\s*(?:is\s+|of\s+|=\s*|:\s*)?(?P<p>[^\s\x01\x02()\"/,]+)\)?\s*$", rest, re.I)
        if slash:
            user, password = user or slash["u"], slash["p"]
        elif plain and plain["p"].lower() not in _NOT_CREDENTIALS:
            password = plain["p"]
            said = re.match(rf"(?:as|with)\s+(?:the\s+)?(?P<word>{_USER_WORD}\s+)?(?P<u>[\w.@+-]+)", rest, re.I)
            if user is None and said and (said["word"] or rest.lower().startswith("as")) \
                    and said["u"].lower() not in _NOT_CREDENTIALS:
                user = said["u"]
    if password is None:
        raise Unsupported("it does not say which password to sign in with (quote it: with password \"secret\")")
    return [Macro("sign_in", subject=user or "", value=password)]


# An unquoted text typed as it is: not one that starts as a description does ('the name Bob', 'a valid email').
_AS_IT_IS = (r"(?!(?:username|user\s*name|password|text|something|anything|value|name|email|it|them|this|that)$)"
             # (a sentence that puts values 'as' or 'into' fields says where each goes: 'Payments as Name and ...')
             r"(?:[^\x01\s]+|(?-i:[A-Z])(?![^\x01]*\s(?:as|into)\s)\S*(?:\s+[^\x01\s]+){3,})")


def _type_here(m: re.Match[str], s: Sentence) -> list[Item]:
    """'Type "queue"' with no field: into the field the step or the one before clicked or typed into."""
    return [Macro("type_here", value=literal_value(s, m["v"]))]


def _replace_here(m: re.Match[str], s: Sentence) -> list[Item]:
    return [Macro("clear_here"), Macro("type_here", value=literal_value(s, m["v"]))]


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
    if re.fullmatch(_DATA_WORDS, v, re.I):  # the values invented, as said ('with sample data')
        return [replace(macro, value=" ".join(v.split())) for macro in _fill_form(m, s)]
    if not (describes_value(s, v) or re.search(r"\b(?:values?|data|input|entries|ones)$", v, re.I)):
        return None  # "Fill Details with Foo": a field named like a form, left to the typing rule
    raise Unsupported(
        f"{s.show(v)!r} describes values instead of giving them; only 'Fill in the form with valid values' "
        'invents values: type each one, e.g. Type "x@" into Email'
    )


def _fill_form(m: re.Match[str], s: Sentence) -> list[Item]:
    words = re.sub(r"\b(?:all|the|of|required|empty|remaining|other|in|out|entire|whole)\b", " ", m["name"] or "", flags=re.I)
    return [Macro("fill_form", subject=" ".join(s.unmask(words).split()))]


def _find(m: re.Match[str], s: Sentence) -> list[Item]:
    return [Op("assert_text", value=s.tokens[int(n)]) for n in TOKEN.findall(m["x"])]


def _refuse(reason: str) -> Handler:
    def handler(m: re.Match[str], s: Sentence) -> list[Item]:
        raise Unsupported(reason)

    return handler


_FORM_WORDS = r"(?:form|fields|details|information|info)"
_DATA_WORDS = (
    r"(?:(?:valid|sample|test|dummy|random|some|realistic|correct|proper|appropriate|plausible|good|fake)\s+)*"
    r"(?:values|data|details|information|info|input|entries)"
)

# A word that is not a statement's verb: 'Check the header of the page says "X"' is a check, not an announcement
_NOT_VERB = r"(?!(?:says?|shows?|reads?|is|are|has|have|contains?|lists?|displays?|includes?)\b)"

# Sentences of no kind: refusals, checks (their statements belong to the check kinds), form macros.
_BY_DOING = {"clicking": "click", "pressing": "press", "tapping": "tap", "hitting": "hit", "choosing": "choose",
             "selecting": "select", "ticking": "tick"}


def _by_doing(m: re.Match[str], s: Sentence) -> list[Item]:
    """'Confirm by clicking "Yes, I'm sure"', 'Close the dialog by pressing Escape': what is done is the means."""
    return parse_clause(f"{_BY_DOING[m['means'].lower()]} {m['rest']}", s)


_OWN_RULES = (
    # 'Confirm by clicking "Yes, I'm sure"': the purpose, then the operation that serves it
    Rule(r"(?:confirm|cancel|save|submit|close|dismiss|apply|proceed|continue|finish|accept|reject|open|expand|collapse|"
         r"sort|delete|remove|sign\s+out|log\s+out|leave|exit|go\s+back|return)(?:\s+(?:it|them|this|that|the\s+[\w-]+"
         r"(?:\s+[\w-]+)?))?,?\s+by\s+(?P<means>clicking|pressing|tapping|hitting|choosing|selecting|ticking)\s+"
         r"(?:on\s+)?(?P<rest>.+)", _by_doing, 5),
    # 'Open the settings dialog with the gear button': the purpose, then the control that serves it
    Rule(r"(?:open|close|show|hide|expand|collapse)\s+(?:the\s+)?(?:[\w-]+\s+){0,3}?(?:dialog|menu|panel|sidebar|window|"
         r"tray|popup|pop-up|settings|palette|drawer)\s+(?:with|using|via|through)\s+(?P<rest>(?:the\s+)?[^,]+?\s+"
         r"(?:button|icon|link|toggle))", lambda m, s: parse_clause(f"click {m['rest']}", s), 6),
    # refusals first, so that no later rule half-understands them
    Rule(r"right[\s-]?click.*", _refuse("right clicks are not supported"), 0),
    Rule(r"drag.*", _refuse("dragging is not supported"), 2),
    Rule(r"(?:open|launch|create|start)\s+(?:a|an|another|the)?\s*(?:new|second|other|private|incognito)?\s*"
         r"(?:browser\s+)?(?:tab|window|browser|incognito\s+window)\b.*",
         _refuse("opening an empty tab or window is not supported (a link or button that opens one is clicked, then "
                 "'Switch to the new tab')"), 10),
    # "Check the result" with the check itself in the expected cell: announces it, does nothing
    # ("Check the issues list": a part of the page, named by up to three words, is looked at, never ticked)
    Rule(r"(?:check|verify|inspect|review|observe|look\s+at|examine|confirm)\s+(?:the\s+)?(?:results?|outcome|response|"
         r"output|page|screen|confirmation|message|effect|changes?|heading|header|title|table|list|rows?|count|summary|"
         r"caption|banner)"
         r"(?:\s+and\s+the\s+(?:first\s+)?(?:row|heading|title|table|list|count|summary))?"
         rf"(?:\s+(?:of|for|on|in)\s+(?:the\s+)?{_NOT_VERB}[\w\x01\x02-]+(?:\s+{_NOT_VERB}[\w\x01\x02-]+){{0,3}})?"
         # ('the rows that remain', 'the results that are shown')
         r"(?:\s+that\s+(?:remain|are\s+(?:left|shown|listed)|appear|show\s+up))?",
         lambda m, s: [], 99),
    Rule(r"(?:check|verify|inspect|review|observe|look\s+at|examine)\s+the\s+"
         r"(?:(?!(?:check)?box\b|option\b|radio\b)[\w\x01\x02-]+\s+){1,3}?(?:results|table|list|grid|page|screen|"
         r"heading|header|tree|panel|sidebar|section|rows|facets?|chart|footer|toolbar|breadcrumbs?|cards|navigation|"
         r"count|total|groups?|summary)"
         # ('the row count above the table': where a person looks)
         r"(?:\s+(?:above|below|under|over|beneath|beside|next\s+to|at\s+the\s+top\s+of|at\s+the\s+bottom\s+of)\s+"
         r"(?:the\s+)?[\w\x01\x02-]+(?:\s+[\w\x01\x02-]+)?)?",
         lambda m, s: [], 99),
    # "Wait for the suggestions to appear": the expected cell says what appears, and its check waits for it
    Rule(r"(?:wait\s+(?:for|until)|await)\s+(?:the|a|an)\s+(?:[a-z-]+\s+){0,2}?(?:suggestions?|results?|list|menu|dialog|"
         r"modal|popup|pop-up|panel|table|tooltip|options|notification|message|toast|tray|sidebar|rows?|data|"
         r"dropdown|search\s+results)\s+(?:to\s+(?:appear|load|open|show(?:\s+up)?|"
         r"be\s+(?:shown|displayed|visible|loaded))|appears?|loads?|opens?|(?:is|are)\s+(?:shown|displayed|visible|"
         r"loaded))", lambda m, s: [], 39),
    # 'leave "is"', 'leave "Everything" as it is': an instruction not to act, in a step that does something else
    Rule(r"(?:leave|keep)\s+\x01\d+\x02(?:\s+(?:as\s+it\s+is|unchanged|alone|as\s+is))?", lambda m, s: [], 96),
    # 'Wait for the page to reload': the checks after it wait for what they look for
    Rule(r"wait\s+(?:for|until)\s+(?:the\s+)?(?:page|screen|list|table|view)\s+(?:to\s+)?(?:re)?(?:loads?|refresh(?:es)?|"
         r"updates?|finish(?:es)?\s+loading)(?:ed)?", lambda m, s: [], 96),
    # 'Find the row for the "Billing" project', 'Locate "Rent" in the list': the texts it quotes are shown
    Rule(r"(?:find|locate|spot)\s+(?P<x>(?:the\s+(?:[\w-]+\s+){0,3}?(?:row|entry|item|record|line|card|link|button)\s+"
         r"(?:for|of|with)\s+)?(?:the\s+)?\x01\d+\x02(?:\s+[a-z][\w-]*)?)(?:\s+\([^)\x01]*\))?"
         r"(?:\s+(?:in|on|under)\s+the\s+[a-z][\w-]*(?:\s+[a-z][\w-]*){0,2})?", _find, 97),
    # "Look at the page that opens", "Read the heading above the table": verbs that only look announce a check too
    Rule(r"(?:look\s+at|read|observe|inspect|examine|view|watch|note)\s+(?:the\s+)?\S.*", lambda m, s: [], 98),
    # checks
    Rule(r"expect\s+(?P<a>.+?)\s+to\s+(?P<b>.+)", _expect, 100),
    Rule(r"(?:verify|confirm|ensure|assert|validate|make\s+sure)\s+(?:that\s+|whether\s+|if\s+)?(?P<s>.+)", _verify,
         101),
    Rule(r"check\s+(?:that|whether|if)\s+(?P<s>.+)", _verify, 102),
    # "Check the Change History says ...": a statement, not a box to tick
    Rule(r"check\s+(?P<s>(?:(?!(?:check)?box\b|option\b|radio\b)\S+\s+){1,6}?(?:says?|shows?|lists?|reads?|displays?|"
         r"contains?)\s+.+)", _verify, 102),
    Rule(r"(?:should\s+|can\s+)?see\s+(?:that\s+)?(?P<s>.+)", _see, 103),
    # high-level intents, expanded against the page
    Rule(r"submit(?P<rest>\s.*)?", _submit, 200),
    Rule(r"search\s+(?:for\s+)?(?P<rest>.+)", _search, 201),
    Rule(r"(?:sign|log)\s*(?:in|on)(?:\s+(?:to|into)\s+(?:the\s+)?[\w\s-]+?)?\s+(?P<rest>(?:as|with|using)\s.+|"
         r"\(\s*(?:the\s+)?password\s.+?\)|\(\s*[^\s()/]+(?:\s*/\s*[^\s()/]+)?\s*\))", _sign_in, 204),
    Rule(rf"(?:fill(?:\s+in|\s+out)?|complete|populate)\s+(?P<name>.*?)\s*{_FORM_WORDS}", _fill_form, 202),
    Rule(r"(?:type|enter|input|write)\s+(?P<v>\x01\d+\x02|-?\d[\d.,]*)", _type_here, 504),  # 'Type 450': a number is literal
    # 'clear the text "select * from issues"': what the field just clicked holds, said or quoted
    Rule(rf"(?:delete|remove|erase|clear)\s+{HELD}(?:\s+\x01\d+\x02)?(?:\s+(?:that\s+is\s+|which\s+is\s+)?(?:in|from|of)\s+"
         r"(?:it|there|this))?", lambda m, s: [Macro("clear_here")], 618),
    # 'Click 400.00 in the Budgeted column, replace it with "450"': the field just clicked, cleared and typed into
    Rule(r"(?:replace|overwrite)\s+(?:it|this|that|its\s+(?:value|text|contents?)|the\s+(?:value|text|amount|number|"
         r"contents?))\s+(?:with|by)\s+(?P<v>\S.*)", _replace_here, 619),
    # 'Click in the search box and type acme', 'type The share dialog is empty.': a text as it is, never one said of
    # something ('the name Bob', 'a valid email')
    Rule(rf"(?:type|enter|input|write)\s+(?P<v>{_AS_IT_IS})", _type_here, 505),
    Rule(r"(?:type|enter|input|write)\s+\S.*", _refuse('it does not say which field to type into; write e.g. Type '
                                                      '"Alice" into the Name field'), 506),
    Rule(rf"(?:fill(?:\s+in|\s+out)?|complete|populate)\s+(?P<name>.*?)\s*{_FORM_WORDS}\s+(?:with|using)\s+(?P<v>.+)",
         _fill_form_with, 203),
)  # fmt: skip


@dataclass(frozen=True)
class _Compiled:
    compiled: re.Pattern[str]
    handler: Callable
    order: int


def _compile(rules) -> list[_Compiled]:
    out = [_Compiled(re.compile(r.pattern, re.I | re.S), r.handler, r.order) for r in rules]
    return sorted(out, key=lambda r: r.order)  # stable: rules of one order keep their written order


@lru_cache(maxsize=1)
def _rules() -> list[_Compiled]:
    """Every rule: this module's and each action kind's, in order."""
    return _compile([*_OWN_RULES, *(rule for a in all_actions() for rule in a.rules)])


@lru_cache(maxsize=1)
def _statements() -> list[_Compiled]:
    return _compile([*_STATEMENTS, *(rule for a in all_actions() for rule in a.statements)])


def parse_clause(masked: str, s: Sentence, *, expected: bool = False) -> list[Item]:
    """One clause into operations; raises `Unsupported`."""
    clause = normalise(masked)
    if not clause:
        raise Unsupported("it is empty")
    for rule in _rules():
        m = rule.compiled.fullmatch(clause)
        if m:
            items = rule.handler(m, s)
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


def parse_text(text: str, *, expected: bool = False, it: str | None = None) -> list[tuple[str, list[Item]]]:
    """A step's action (or expected cell) into (clause as written, items) pairs. it: the text the step's action named
    ('Click the arrow of "Orders"'), which 'below it' / 'next to it' in the expected cell places by.

    Raises `Unsupported` whose `clause` is the clause that could not be understood.
    """
    s = Sentence(text, expected=expected, statements=statement)
    if not s.masked:
        raise Unsupported("it is empty")
    if it is not None and _PLACED_BY_IT.search(s.masked):
        s.tokens.append(it)
        s.masked = _PLACED_BY_IT.sub(lambda m: f"{m['prep']} \x01{len(s.tokens) - 1}\x02", s.masked)
    counts = take_counts(s)  # 'Four modules are listed, including "A"': counted, then read without the count
    if counts:
        return [(" ".join(text.split()), list(counts)), *_parse_sentence(s, expected)]
    return _parse_sentence(s, expected)


def _parse_sentence(s: Sentence, expected: bool) -> list[tuple[str, list[Item]]]:
    try:
        return _parse_clauses(s, expected)
    except Unsupported as exc:
        lead = _CHECK_LEAD.match(normalise(s.masked))
        if exc.final or not (expected or lead):
            raise
        try:  # a statement that describes the page: each text it quotes is shown, or not (see checks.py)
            described = described_checks(normalise(s.masked)[lead.end() if lead else 0:], s,
                                         lambda part: statement(part, s))
            return [(s.show(s.masked), list(described))]
        except Unsupported:
            raise exc from None


# 'shows "A" and "B" beneath it': a place by the element the action named
_PLACED_BY_IT = re.compile(r"\b(?P<prep>below|beneath|underneath|under|above|next\s+to|beside)\s+(?:it|that|this)\b"
                           r"(?!\s+[a-z])", re.I)


# A check said as an operation: 'Verify the ...', 'Check that ...'.
_CHECK_LEAD = re.compile(r"(?:verify|confirm|ensure|assert|validate|make\s+sure|check)\s+(?:that\s+)?", re.I)


def _parse_clauses(s: Sentence, expected: bool) -> list[tuple[str, list[Item]]]:
    out: list[tuple[str, list[Item]]] = []
    clauses = [part for clause in split_clauses(s.masked) for part in _ungapped(clause)]
    fronted: Place | None = None
    chooser: str | None = None  # 'In the "And" dropdown, choose "Component"': the dropdown the option is in
    verb: str | None = None  # the verb of the last operation, which a clause without one goes on with
    typed_into: str | None = None  # 'In the search field, type "shoes"': the field the typing after it goes into
    for position, clause in enumerate(clauses):
        item_alone = _ITEM_ALONE.fullmatch(normalise(clause))
        # ('In the "And" dropdown, pick Component': an unquoted option, chosen; a click, in a named menu only)
        option = _OPTION_ALONE.fullmatch(normalise(clause)) or (chooser is not None and item_alone and (
            NAMED_MENU.fullmatch(chooser) or item_alone["verb"].lower() in ("choose", "select", "pick")) and item_alone)
        if chooser is not None and option:
            verb = "choose" if NAMED_MENU.fullmatch(chooser) else option["verb"]  # (a click in a menu is a choice)
            clause, chooser = f"{verb} {option['v']} in {chooser}", None
        typing = _TYPING_ALONE.fullmatch(normalise(clause))
        if typed_into is not None and typing:
            value = typing["v"]
            if not s.is_quoted(value):  # 'In Description, type The dialog is empty.': the words as they are
                s.tokens.append(s.unmask(value))
                value = f"\x01{len(s.tokens) - 1}\x02"
            clause = f"{typing['verb']} {value} into {typed_into}"
        typed_into = None
        # 'Click "Account" and then "Billing"': names alone after an operation are that operation's too, never a check
        # that they are shown
        carried = None if expected or not _NAMES_ONLY.fullmatch(normalise(clause).strip()) \
            else _same_verb(verb, clause, s, expected)
        if carried is None and not expected and verb and verb.lower() == "hover" \
                and _NAMES_ONLY.fullmatch(normalise(clause).strip()):
            raise Unsupported("what to do with the names after a hover is not said (a click? say it)",
                              s.show(clause.strip()))
        try:
            items = carried or _parse_checked(clause, s, expected)
        except Unsupported as exc:
            # ("Next to ..." is read before normalise drops "Next" as a lead word)
            where = _FRONTED.fullmatch(clause.strip()) or _FRONTED.fullmatch(normalise(clause))
            where = where and {"beside": where["beside"], "place": where["place"] or where["place2"]}
            if where and where["beside"] and not s.has_token(where["place"]) \
                    and not re.fullmatch(r"[A-Z][\w-]*(?:\s+[A-Z][\w-]*){0,2}:?", where["place"].strip()):
                where = None  # 'Next to the search box, ...': a text the page shows is quoted, or capitalised
            if where and clause is not clauses[-1] and _CHOOSER.search(where["place"]):
                chooser = _POSITIONED.sub("", where["place"].strip())
                continue
            item = position < len(clauses) - 1 and _ITEM_ALONE.fullmatch(normalise(clauses[position + 1]))
            if where and item and NAMED_MENU.fullmatch(where["place"].strip()) and (
                    normalise(clause).lower().startswith("from") or item["verb"].lower() not in ("click", "tap")):
                # 'From the More menu, choose Reports': an item of that menu ('In the More menu, click Reports' is a
                # click in the menu the step before opened)
                chooser = where["place"].strip()
                continue
            place = where and where["place"].strip()
            if where and clause is not clauses[-1] and not where["beside"] and (_FIELD_PLACE.fullmatch(place) or (
                    re.match(r"in\s", normalise(clause), re.I) and re.fullmatch(r"[A-Z][\w-]*(?:\s+[A-Z][\w-]*){0,2}", place))) \
                    and _TYPING_ALONE.fullmatch(normalise(clauses[position + 1])):
                # 'In the search field, type "shoes"', 'In Description, type ...', 'In the Category cell type Rest'
                typed_into = re.sub(r"\s+cell$", "", place, flags=re.I)
                continue
            if where and clause is not clauses[-1]:
                # 'Under "Queries", click ...', 'Next to "Published from", click ...': the place of what follows
                fronted = fronted_place(where["place"], s, beside=bool(where["beside"]))
                continue
            items = None if exc.final else _same_verb(verb, clause, s, expected)
            if items is None:
                pieces = _subjects_joined(loose_split(clause)) if expected else loose_split(clause)
                try:
                    # '"docs" is listed under "Labels" and "wontfix" is not listed': the parts go together (checks.py)
                    if len(pieces) < 2 or exc.final or any(ELLIPTIC.match(p) for p in pieces[1:]):
                        raise exc
                    # (texts without a verb of their own go with another part's: only the whole is described)
                    described = expected and not ROW.search(clause) and all(
                        shown_said(p) is not None or not s.has_token(p) for p in pieces)
                    items = [item for piece in pieces for item in _piece(piece, s, expected, described)]
                except Unsupported:
                    raise type(exc)(exc.reason, clause=s.show(clause) if len(clauses) > 1 else None,
                                    final=exc.final) from None
        operations = [i for i in items if isinstance(i, Op) and action(i.kind).grounded
                      and not action(i.kind).is_assertion]
        said = normalise(clause)
        if not operations:
            verb = None
        elif _verb_first().match(said):
            verb = said.split()[0]
        for item in items:
            if isinstance(item, Macro):
                item.clause = s.show(clause)
            elif fronted is not None and isinstance(item, Op) and action(item.kind).grounded:
                item.place = Place(anchor=item.place.anchor or fronted.anchor,
                                   section=item.place.section or fronted.section, ordinal=item.place.ordinal,
                                   side=item.place.side if item.place.anchor else fronted.side)
        out.append((s.show(clause), items))
    return out


# A part that is only names (quoted, or in capitals): one of the subjects of the part after it ('"A" and "C" are hidden',
# 'Study Rooms and Library Cards appear beneath Services'), never a statement that they are shown
_NAMES_ONLY = re.compile(r"(?:the\s+)?(?:\x01\d+\x02|(?-i:[A-Z])[\w'&.-]*(?:\s+(?-i:[A-Z])[\w'&.-]*){0,3})", re.I)


def _subjects_joined(pieces: list[str]) -> list[str]:
    """(only names before the first part with a verb: after one, a name goes on with what that part said)"""
    out: list[str] = []
    waiting: list[str] = []
    for piece in pieces:
        if not out and _NAMES_ONLY.fullmatch(piece.strip()):
            waiting.append(piece.strip())
            continue
        out.append(" and ".join([*waiting, piece]) if waiting else piece)
        waiting = []
    return out + waiting


def _piece(piece: str, s: Sentence, expected: bool, described: bool) -> list[Item]:
    """One part of a clause split at its 'and's and commas; in an expected result, a part that describes the page
    ('Ticket "#13" opens') is checked text by text, as a whole statement would be (see checks.py), when it says its
    texts are shown with a verb of its own (never '"A"' of '"A" and "C" are hidden', nor a row's part).
    described: whether a part may be read so (an expected result's clause that describes no row)."""
    try:
        return _parse_checked(piece, s, expected)
    except Unsupported as exc:
        if not described or exc.final or not s.has_token(piece) or shown_said(piece) is not True:
            raise
        try:
            return list(described_checks(normalise(piece), s, lambda part: statement(part, s)))
        except Unsupported:
            raise exc from None


def _ungapped(clause: str) -> list[str]:
    bare = _FRONTED_BARE.fullmatch(clause.strip())
    if bare:
        return [bare["place"], *_ungapped(bare["rest"])]
    parts = ungap(normalise(clause))
    return parts if len(parts) > 1 else [clause]


@lru_cache(maxsize=1)
def _verb_first() -> re.Pattern[str]:
    return re.compile(r"(?:" + "|".join(sorted(verbs())) + r")(?:s|es)?\b", re.I)


# Verbs whose object is an element, which a clause naming only another element goes on with ("Type" is not: "then
# Tab" is a key, not a value), and words that make a clause a statement of its own ("then the page reloads").
# (never a hover: 'Hover over "Account", then "Sign out"' means a click on "Sign out", not a second hover)
_CARRIED = frozenset("click tap press select choose pick check tick uncheck untick open expand collapse".split())
_STATES = re.compile(r"\b(?:is|are|was|were|be|shows?|appears?|reloads?|loads?|opens|closes|changes?|becomes?|"
                     r"disappears?|updates?|displays?|contains?|has|have|says?|reads|lists|gets?|goes|stays?|"
                     r"remains?)\b", re.I)


def _same_verb(verb: str | None, clause: str, s: Sentence, expected: bool) -> list[Item] | None:
    """A clause with no verb after an operation goes on with its verb: 'Click "Blog posts" in the sidebar, then the
    "Add Blog post" button'. None when that reads no better."""
    said = normalise(clause)
    if not verb or verb.lower() not in _CARRIED or not said or _verb_first().match(said) or _STATES.search(said) \
            or NEGATIVE.search(said):  # 'Click "A" and then not "B"': what is not to be done is never done
        return None
    try:
        return _parse_checked(f"{verb} {said}", s, expected)
    except Unsupported:
        return None


# A place said before the clause it belongs to: 'Under "Queries", ...', 'In the row of "Ann Lee", ...'.
# A fronted dropdown and the option chosen in it alone
_CHOOSER = re.compile(r"\b(?:dropdown|drop-down|select|selector|combo\s*box|list\s*box)$|"
                      r"\b(?:dropdown|drop-down|select|selector|combo\s*box|list\s*box)\s+(?:below|under|above|beneath|"
                      r"next\s+to|beside|right\s+of|left\s+of)\b", re.I)
_POSITIONED = re.compile(r"\s+(?:below|under|above|beneath|next\s+to|beside|(?:to\s+the\s+)?(?:right|left)\s+of)\s+.*$",
                         re.I)
_TYPING_ALONE = re.compile(rf"(?P<verb>type|enter|write|input)\s+(?P<v>\x01\d+\x02|{_AS_IT_IS})", re.I)
# 'the search field', 'the "Title" box': a field said by its name and kind, where the typing after it goes
_FIELD_PLACE = re.compile(r"(?:the\s+)?(?:[\w-]+\s+|\x01\d+\x02\s+){1,3}?(?:field|text\s*box|text\s*field|text\s*area|"
                          r"input|search\s+box|box|cell)", re.I)
_OPTION_ALONE = re.compile(r"(?P<verb>choose|select|pick)\s+(?P<v>\x01\d+\x02)", re.I)
# An item of a menu said first, quoted or not ('From the More menu, choose Reports'), said on its own
_ITEM_ALONE = re.compile(r"(?P<verb>choose|select|pick|click|tap)\s+(?:on\s+)?(?!the\s)(?P<v>\x01\d+\x02|[A-Z][\w-]*(?:\s+[A-Za-z][\w-]*){0,3})",
                         re.I)
_FRONTED = re.compile(r"(?:in|under|within|inside|below|beneath|from|(?P<beside>next\s+to|beside))\s+(?P<place>.+)|"
                      # 'On the "Are you sure?" page, click ...': a page, screen or dialog said by its title
                      r"on\s+(?P<place2>(?:the\s+)?(?:.+?\s+(?:page|screen|view|dialog|modal|tab|form)|"
                      # 'On the "Home Automation" flow, click ...': a part of the page by its quoted title and kind
                      r"\x01\d+\x02\s+[a-z-]+))", re.I)
# 'From the actions drop-down select "Delete"': a place said first without a comma, then the operation
_FRONTED_BARE = re.compile(r"(?P<place>(?:in|from|under|within|inside|on)\s+(?:the\s+)?(?:[\w☰≡⋮⋯…-]+\s+|\x01\d+\x02\s+){0,4}?"
                           r"(?:dropdown|drop-down|select|menu|list|section|panel|box|dialog|form|page|screen|tab|"
                           r"table|sidebar|toolbar|header|footer|field|input|text\s*box|text\s*area|cell))\s+(?P<rest>(?:click|tap|press|select|choose|pick|"
                           r"type|enter|check|tick|uncheck|untick|fill)\b.*)", re.I)
_ROW_PLACE = re.compile(r"(?:the\s+)?(?:row|line|entry|item|card)\s+(?:of|for|with|containing)\s+(?P<a>.+)|"
                        r"(?:the\s+)?(?P<b>.+?)\s+(?:row|entry|item|card)", re.I)
_AREA_WORDS = re.compile(r"\s+(?:section|panel|box|area|line|list|header|heading|title|sidebar|part|block|group|"
                         r"pane|window|dialog|form|menu|tab|page|screen|view|modal)$", re.I)


def fronted_place(masked: str, s: Sentence, beside: bool = False) -> Place:
    """A fronted place into an anchor (a row, item or card, or what it is next to) or a section (a heading-like
    title); when it quotes a text, that text is what the page shows ('the row of issue 119 "Fix login"' -> "Fix
    login")."""
    masked = masked.strip()
    if re.fullmatch(r"(?:the\s+)?(?:(?:left|right|top|main)(?:-hand)?\s+)?(?:sidebar|side\s+bar|header|footer|toolbar|"
                    r"navigation(?:\s+bar)?|nav\s*bar|menu\s*bar|top\s*bar)", masked, re.I):
        return Place()  # 'In the sidebar, click More': a part every page has names no place
    if re.match(r"(?:the\s+)?(?:first|second|third|fourth|fifth|last|top|bottom)\s+(?:row|line|entry|item|record)\b",
                masked, re.I):
        raise Unsupported(f"{s.show(masked)!r}: a row said by its order is not found for an action; name the row by a "
                          'text it shows, e.g. In the row of "Alice", click "Edit"')
    quoted = TOKEN.findall(masked)
    row = _ROW_PLACE.fullmatch(masked)
    words = s.tokens[int(quoted[-1])] if quoted else None
    if beside:  # 'Next to "Published from", click the calendar icon'
        return Place(anchor=words or s.unmask(ARTICLE.sub("", masked)))
    if row:  # ('the new Component row': the row's own title, the words before it say which one)
        return Place(anchor=words or re.sub(r"^(?:(?-i:[a-z])[\w-]*\s+)+(?=(?-i:[A-Z]))", "", s.unmask(row["a"] or row["b"])))
    return Place(section=words or s.unmask(_AREA_WORDS.sub("", ARTICLE.sub("", masked))))


def _parse_checked(clause: str, s: Sentence, expected: bool) -> list[Item]:
    items = parse_clause(clause, s, expected=expected)
    if expected and not all(isinstance(i, Op) and action(i.kind).is_assertion for i in items):
        raise Unsupported("an expected result must be something to check, not an operation")
    for item in items:
        said = isinstance(item, Op) and item.target and _CLAUSE_IN_A_NAME.search(item.target)
        if said and not s.has_token(said[0]):
            # 'The dialog closes and the "Sign in" button is gone' is never the absence of a button named "dialog
            # closes and the Sign in": a name holding a statement and an 'and' is two statements, read part by part
            raise Unsupported(f"{item.target!r} holds a statement of its own, not a name")
    return items


# An element's name that holds a verb of a statement before an 'and' ('dialog closes and the Sign in')
_CLAUSE_IN_A_NAME = re.compile(r"\b(?:closes|opens|disappears|appears|changes|updates|reloads|is|are|was|were|"
                               r"shows|becomes|stays|remains|goes)\s+(?:\w+\s+)?and\b", re.I)
