"""Check that the page shows a text ("'Order saved' is shown", "the page shows the heading X")."""

from __future__ import annotations

import re
from dataclasses import replace

from shared.scenarios import PLACEHOLDER, list_items
from workers.agent.actions.base import Action, CheckFailed, Rule
from workers.agent.language.phrases import (
    ABSENCE_UNCLEAR,
    NEGATIVE,
    PICKS,
    PRONOUN,
    SAYS_MORE,
    SEVERAL,
    SHOWN_WHERE,
    TEXT_PREFIX,
    TOKEN,
    VISIBLE,
    Op,
    Unsupported,
    is_description,
    split_role,
)
from workers.agent.language.roles import KIND_ROLES


# What a tester calls a text the page shows when saying only that it is one ('the message "Saved" is shown', 'a
# notification "Deployed" appears'): said of a text check, these words say nothing more than the text shown. (Not
# 'error' or 'warning': those say what kind of message it is, which a text check does not see.)
MESSAGES = frozenset("message notification notice toast banner text wording".split())


# a quoted text said with the kind of element it is, before or after it
_KIND_SAID = re.compile(r"(?:the|a|an)\s+(?:(?P<q>\x01\d+\x02)\s+(?P<k>[A-Za-z]+)|"
                        r"(?P<k2>[A-Za-z]+)\s+(?P<q2>\x01\d+\x02))", re.I)


def texts(x: str, s, kind: str = "assert_text") -> list[Op]:
    """Expected texts: 'A' / 'A' and 'B' / A (unquoted, literal). 'the heading A', 'the message A': what the text is
    said to be is checked where the page says so (grounding/what_it_is.py)."""
    prefix = TEXT_PREFIX.match(x.strip())
    if prefix and prefix[1].lower() in KIND_ROLES:  # ('the heading A', 'the message A')
        return _said_to_be(texts(x.strip()[prefix.end():], s, kind), prefix[1])
    kinded = _KIND_SAID.fullmatch(x.strip())
    if kinded and (kinded["k"] or kinded["k2"]).lower() in KIND_ROLES:  # 'the "Pet clinic" heading'
        return _said_to_be(texts(kinded["q"] or kinded["q2"], s, kind), kinded["k"] or kinded["k2"])
    x = TEXT_PREFIX.sub("", x.strip())
    if kind == "assert_text" and NEGATIVE.search(x):
        raise Unsupported(ABSENCE_UNCLEAR)
    if SEVERAL.search(x):
        raise Unsupported("it holds several checks")  # "A is shown and B is shown": split by the caller
    listed = s.token_list(x)
    if listed is not None:
        if not all(t.strip() for t in listed):
            raise Unsupported("an expected text is empty")
        return [Op(kind, value=t) for t in listed]
    if s.has_token(x) and kind == "assert_text":
        fields = _quoted_fields(x, s)
        if fields:
            return fields
    if s.has_token(x):
        if kind != "assert_text" and len(TOKEN.findall(x)) > 1:
            # ('"A" with "B", and "C" is not shown' denies neither "A" nor "B" alone; 'the "inject" node' is one text)
            raise Unsupported(f"{s.show(x)!r} says more than which texts are not shown; say each text not shown, "
                              "e.g. \"'Draft' and 'Spam' are not shown\"")
        described = described_texts(x, s)
        if described:
            return [Op(kind, value=t) for t in described]
        raise Unsupported(f"cannot tell which text to look for in {s.show(x)!r}; quote each text on its own")
    if re.search(r"\b(?:and|but|while)\s+(?:the|a|an|its|their)\b.*\s(?:is|are|was|were|shows?|reads?|has|have)\s", x,
                 re.I):
        raise Unsupported("it holds several checks")  # '2,875.00 and the Groceries row is budgeted 400.00': split
    if is_description(x) or PRONOUN.fullmatch(x):
        raise Unsupported(
            f"{s.show(x)!r} describes something instead of giving the text to look for; quote the text, "
            "e.g. Verify 'Order saved' is shown"
        )
    text = s.unmask(x)
    if not text:
        raise Unsupported("it names no text to look for")
    if PLACEHOLDER.search(text):
        return [Op(kind, value=text)]
    return [Op(kind, value=item) for item in list_items(text)]


# Words that only describe where the quoted texts are shown ("a dialog titled 'Login' with the tabs 'A' and 'B'"):
# the kind of element, how it names them, where it is. Any other word says more than a text check can check.
_GLUE = frozenset("""a an the its their this that these those with and or of in on at to for from by as its which
    showing shown show shows reading reads read labelled labeled titled named called saying says say containing contains
    listing lists list has have having is are be being opens open opened appears appear displayed display displays
    visible now still also both each all new
    dialog modal popup pop-up window page screen panel section box card tab tabs button buttons link links field fields
    column columns row rows item items entry entries option options menu list node nodes tooltip notification message
    toast banner heading headings title header label labels text texts value values tree sidebar table chip chips
    badge nodes called entries lines
    top bottom left right side corner above below under next beside""".split())


# 'the milestone "1.0 Alpha"': an article, a noun or two, the quoted text (never 'hidden, while "S"')
_KIND_BEFORE = re.compile(r"(?:[Tt]he|[Aa]n?)\s+(?P<words>(?:[a-z][a-z-]*\s+){1,2})(?P<text>\x01\d+\x02)")


def described_texts(x: str, s) -> list[str]:
    """The quoted texts of a statement that describes where they are shown, when every other word only says that
    (see _GLUE); [] otherwise."""
    quoted = [s.tokens[int(n)] for n in re.findall("\x01(\\d+)\x02", x)]
    # 'the milestone "1.0 Alpha"', 'the package "left-pad"': a noun of what the quoted text is, the whole subject
    kind = _KIND_BEFORE.fullmatch(x.strip())
    # ('the count "10 rows"': the noun of a text that is a count)
    if kind and not NEGATIVE.search(kind["words"]) and not any(w.lower() in SAYS_MORE - {"count"}
                                                                for w in kind["words"].split()):
        x = kind["text"]
    rest = re.sub("\x01\\d+\x02", " ", x)
    words = re.findall(r"[A-Za-z][A-Za-z'-]*", rest.lower())
    if not quoted or any(not t.strip() for t in quoted) or any(w not in _GLUE for w in words):
        return []
    return quoted


_PARTS = re.compile(r"\s*,\s*and\s+|\s*,\s*|\s+and\s+", re.I)


def _quoted_fields(x: str, s) -> list[Op]:
    """'the "filter nodes" box and the "inject" node': a field named by a quoted text is shown when the field is
    (its name may be a placeholder, no text of the page), each other part's texts as text checks; [] when no part
    names a field."""
    parts = [p for p in _PARTS.split(x) if p.strip()]
    named = [split_role(p) for p in parts]
    if not any(role in ("field", "dropdown") and s.is_quoted(name) for name, role in named) or \
            not all(re.fullmatch(r"\x01\d+\x02(?:\s+[a-z-]+)?", name) for name, _ in named):
        return []  # 'A dialog titled "Login" with a "Username" field': the texts that describe it
    ops: list[Op] = []
    for part, (name, role) in zip(parts, named):
        if role in ("field", "dropdown") and s.is_quoted(name):
            ops.append(Op("assert_state", target=s.unmask(name), role_hint=role, value="visible"))
        else:
            ops += texts(part, s)
    return ops


def _names_field(subject: str | None, s) -> bool:
    """'the City field', 'the "Notes" box': a named control, whose value is what it shows (assert_value), never a
    text anywhere on the page."""
    if not subject:
        return False
    name, role = split_role(subject)
    return role in ("field", "dropdown") and bool(name) and not PRONOUN.fullmatch(name)


def _picked(subject: str | None, s) -> bool:
    """'the first row', 'every row', 'the only entry': a subject that picks one part of many says more than "the
    page shows"; it is refused (raises), never read as a text shown anywhere."""
    if subject and PICKS.search(TOKEN.sub(" ", subject)):
        raise Unsupported(f"{s.show(subject)!r}: which part of the page shows the text cannot be checked here, only "
                          "that the page shows it")
    return False


def _qualified(m, s):
    """'X is shown at the top / in red / within 2 seconds': more than "it is shown"."""
    q = m["q"].strip()
    if re.match(r"(?:and|,|&)", q, re.I):
        return []  # several checks: split by the caller
    raise Unsupported(
        f"{s.show(q)!r}: only that a text is shown can be checked, not where, how, when or how often; "
        f"write Verify {s.show(m['x'].strip())} {'are' if len(s.token_list(m['x']) or []) > 1 else 'is'} shown"
    )


# What an expected cell says shows the text: "it", or a part of the page a person reads it in.
_SUBJECT = (r"(?:it|this|that|they|(?:the\s+)?(?:[\w-]+\s+){0,3}?(?:heading|title|header|caption|count|summary|label|"
            r"banner|message|notice|notification|toast|status|list|table|section|panel|box|dialog|line|result|results|form|"
            r"view|area))")

_TOO = r"(?:\s+(?:as\s+well|too))?"  # 'the milestone "1.0 Alpha" now appears as well'
# What a text shown is, said before or after it: 'the heading "Users"', 'the "Saved" message'
_SHOWN_KIND = (r"(?:heading|title|subtitle|header|caption|message|notice|notification|toast|banner|alert|"
               r"error|warning|text|count|total|summary|label|hint|tooltip)")


def _said_to_be(ops: list[Op], kind: str) -> list[Op]:
    """The texts' checks, with what the sentence said the text is when the page can say so too: a heading by its
    role, a message, notification or error by the alert or status region it is in (grounding/what_it_is.py)."""
    kind = kind.lower()
    if kind not in KIND_ROLES:
        return ops
    return [replace(op, said_as=op.said_as or kind) for op in ops]


STATEMENTS = (
    # the page shows X / the screen contains the text 'X' / the page shows the heading X
    Rule(r"(?:the\s+)?(?:page|screen|window|site|browser|results?|response)\s+(?:should\s+|must\s+|will\s+)?(?:now\s+)?"
         r"(?:shows?|displays?|contains?|includes?|has|have|lists?|says?|reads?|reports?|indicates?|states?|confirms?)\s+"
         r"(?P<x>.+)", lambda m, s: texts(m["x"], s), 110),
    # X is shown / 'A' and 'B' are displayed on the page
    Rule(rf"(?P<x>.+?)\s+(?:is|are|should\s+be|must\s+be|will\s+be|gets?|becomes?)\s+(?:now\s+|still\s+|also\s+)?"
         rf"{VISIBLE}{SHOWN_WHERE}{_TOO}", lambda m, s: texts(m["x"], s), 120),
    # X is shown at the top / in red / within 2 seconds
    Rule(rf"(?P<x>.+?)\s+(?:is|are|should\s+be|must\s+be|will\s+be|gets?|becomes?)\s+(?:now\s+|still\s+|also\s+)?"
         rf"{VISIBLE}\s+(?P<q>.+)", _qualified, 140),
    # 'I am taken to the "New Ticket" page': that page's title is shown
    Rule(r"(?:i\s+am|am|we\s+are|are|the\s+user\s+is|is|you\s+are|it\s+is)\s+(?:now\s+)?(?:taken|redirected|brought|sent|navigated|"
         r"returned|forwarded)\s+(?:back\s+)?to\s+(?:the\s+)?(?P<x>\x01\d+\x02)(?:\s+(?:page|screen|view|form|tab|section))?",
         lambda m, s: texts(m["x"], s), 145),
    # X appears / X shows up
    Rule(rf"(?P<x>.+?)\s+(?:should\s+|must\s+|will\s+)?(?:now\s+|also\s+)?(?:appears?|shows?\s+up|pops?\s+up|exists?){SHOWN_WHERE}{_TOO}",
         lambda m, s: texts(m["x"], s), 150),
    # the text 'X'
    Rule(r"(?:the\s+)?(?:text|message)\s+(?P<x>(?:(?!\s(?:is|are)\s)\S)(?:(?!\s(?:is|are)\s).)*)",
         lambda m, s: texts(m["x"], s), 160),
    # (Verify) the heading "X" / the error message "X" / the "Saved" notice: a text shown, named by what it is
    Rule(rf"(?:the|a|an)\s+(?:(?:page(?=\s+heading)|error|success|confirmation|warning|info|status|main|section)\s+)?"
         rf"(?P<k>{_SHOWN_KIND})\s+"
         r"(?P<x>\x01\d+\x02)|(?:the|a|an)\s+(?P<x2>\x01\d+\x02)\s+(?:(?:error|success|confirmation|warning)\s+)?"
         rf"(?P<k2>{_SHOWN_KIND})", lambda m, s: _said_to_be(texts(m["x"] or m["x2"], s), m["k"] or m["k2"]), 161),
    # '"Can adults join too?" is one of the rows': a text the list shows
    Rule(r"(?P<x>.+?)\s+(?:is|are)\s+(?:still\s+|now\s+)?(?:one\s+of|among)\s+(?:the|its|their)\s+(?:rows|entries|items|"
         r"options|results|choices|values|records|suggestions|files|lines)", lambda m, s: texts(m["x"], s), 121),
    # '..., posted by Ada Admin', 'reported by alice': who did it, a name the page shows
    Rule(r"(?:(?P<subj>\x01\d+\x02|(?:it|that|which|this)|(?:the|this|that|its|their)\s+[a-z][\w-]*(?:\s+[a-z][\w-]*)?)"
         r"\s+)?(?:(?:is|was|has\s+been|should\s+be)\s+)?(?:shown\s+as\s+)?(?:posted|written|created|reported|opened|published|"
         r"authored|submitted|added|uploaded|signed|owned)\s+by\s+"
         r"(?P<x>\x01\d+\x02|(?!(?:The|A|An)\s)[A-Z][\w.'-]*(?:\s+[A-Z][\w.'-]*){0,2}|"
         r"(?!(?:me|you|him|her|them|us|it|the|a|an|someone|anyone|default|whom)\b)[a-z][\w.-]*)",
         lambda m, s: (texts(m["subj"], s) if m["subj"] and s.is_quoted(m["subj"]) else [])
         + texts(m["x"] if s.is_quoted(m["x"]) else s.quote(m["x"]), s), 162),
    # 'A' / 'A' and 'B'
    Rule("(?P<x>\x01.*\x02)", lambda m, s: texts(m["x"], s) if s.token_list(m["x"]) else [], 170),
    # a part of the page, named any way, lists / shows / opens with the quoted texts, described only by the kind of
    # element they are ('the palette on the left lists the "inject" and "debug" nodes'): each text is shown; the
    # part's name holds no claim of its own ('"A" is the first post and the box shows "B"' is two statements)
    Rule(r"(?P<subj>(?:(?!\s(?:is|are|was|were|and|but)\s).)+?)\s+(?:now\s+|still\s+)?(?:lists?|shows?|displays?|contains?|includes?|offers?|has|have|"
         r"asks?|opens?\s+with|(?:is|are)\s+(?:now\s+)?(?:labell?ed|titled|named))\s+(?P<x>.*\x01\d+\x02.*)",
         lambda m, s: [] if _names_field(m["subj"], s) or _picked(m["subj"], s) else [
             Op("assert_text", value=t) for t in described_texts(m["x"], s)], 175),
    # shows X (the subject left out, as in an expected cell); it reads X; the heading says X; the title starts with X
    Rule(rf"(?:(?P<subj>{_SUBJECT})\s+)?(?:should\s+)?(?:now\s+|still\s+)?(?:shows?|displays?|lists?|reads?|says?|"
         r"(?:starts?|begins?)\s+with|contains?|includes?|(?:changes?|updates?|switches|turns)\s+to|becomes?|"
         r"(?:goes|go|went|comes|come|is|are)\s+back\s+to|(?:is|are|gets?)\s+replaced\s+(?:by|with))\s+"
         r"(?P<x>(?!(?:is|are|enabled|disabled|active|inactive|empty|blank|checked|unchecked|ticked|unticked|selected|"
         r"visible|hidden|expanded|collapsed|greyed|grayed|red|green)\b).+?)(?:\s+again)?",
         lambda m, s: [] if _names_field(m["subj"], s) or _picked(m["subj"], s) else _said_to_be(
             texts(m["x"], s), (m["subj"] or "").split()[-1] if m["subj"] else ""), 180),
)  # fmt: skip


class AssertText(Action):
    name = "assert_text"
    for_model = False
    check_name = "text"
    model_hint = "text: a text the page shows (value)"
    is_assertion = True
    grounded = False
    valued = True
    param_name = "expectedText"
    reads = True
    statements = STATEMENTS

    def describe(self, target, role, value):
        if role in MESSAGES:  # 'the message "Saved" is shown': a text the page shows, said to be a message
            return f"Verify the {role} '{value}' is shown"
        return f"Verify '{value}' is shown"

    def check(self, act):
        text = act.value or ""
        if not text or not act.text_shown(text, act.settings.assertion_timeout_ms):
            raise CheckFailed(f'the page does not show "{text}"')

    def phrase(self, op, slot):
        return ["the page shows ", *slot]

    def comment(self, op, what):
        return f"Check that the page shows {what}"

    def javascript(self, op, target, value):
        if target is None:
            return f"await this.expectText({value});"
        return f"await this.expectText({value}, {target});"


ACTION = AssertText()
