"""Checks that a text is shown above, below or beside a part of the page ("The error "Wrong password" is shown above
the form", "'(8 matches)' is shown next to the "Custom Query" heading"). One kind per relation (kinds/assert_above,
assert_below, assert_beside); this module is what they share.

The part is a kind of element (the form, the table, the list, a heading, a button, a field), a text, or both (the
"Custom Query" heading); its locator is the operation's, so the generated suite finds it as generation did. The
geometry is settle.js's `placed`, the same in generation and in the suite: some element showing the text, above,
below or on the line of (within 150 px) some element of the part, waited for as the page changes.
"""

from __future__ import annotations

import re

from workers.agent.actions.base import Action, CheckFailed, Rule
from workers.agent.language.part_kinds import CLASS_NAMES, PARTS
from workers.agent.language.phrases import PICKS, TOKEN, Op, Unsupported

# The kinds of part a person places a text by: their CSS, or their ARIA role when they are named by a text.
_PART_CSS = {
    "form": "form, [role=form]",
    "table": "table, [role=table], [role=grid]",
    "list": "ul, ol, [role=list], [role=listbox]",
    "field": "input, textarea, [role=textbox], [role=searchbox], [role=combobox]",
    "heading": "h1, h2, h3, h4, h5, h6, [role=heading]",
    "button": "button, [role=button], input[type=submit], input[type=button]",
}
# and the parts named by what they are ("the sidebar", "the dialog"): their ARIA roles and tags (grounding/places.py)
_PART_CSS |= {kind: ", ".join([*sorted(tags), *(f"[role={r}]" for r in sorted(roles))])
              for kind, (roles, tags) in PARTS.items() if kind not in _PART_CSS}
_PART_CSS |= {"grid": _PART_CSS["table"], "tree": "[role=tree]", "menu": "[role=menu], [role=menubar]",
              # what a dropdown opens: its list of options or its menu ('A dropdown opens with A and B')
              "dropdown": "[role=listbox], [role=menu], .dropdown-menu",
              # controls a text is said to be ('the tabs "A" and "B"', 'a "Sign in" link')
              "tab": "[role=tab]", "link": "a[href], [role=link]"}
# and parts drawn as boxes whose class or id says what they are (part_kinds.CLASS_NAMES, as whole class names)
for _kind in ("sidebar", "header", "footer", "toolbar", "menu"):
    _PART_CSS[_kind] += ", " + ", ".join([f"#{_kind}", *(f"[class~={name.replace(' ', '-')}]"
                                                          for name in CLASS_NAMES[_kind])])
PART_KINDS = frozenset(_PART_CSS)  # the kinds of part a text is placed inside by what they are
# a text "in the header" may be in the page's banner or in a heading, which people call a header too ("the ticket
# header reads ..."): both are looked in, by the checks of a text inside a part (a text above or below the header is
# placed by the banner alone)
_INSIDE_CSS = _PART_CSS | {"header": _PART_CSS["header"] + ", " + _PART_CSS["heading"]}
_PART_ROLE = {"heading": "heading", "button": "button", "link": "link", "tab": "tab"}
_PART_NOUNS = {"form": "form", "table": "table", "grid": "table", "list": "list", "field": "field", "box": "field",
               "search box": "field", "text box": "field", "input": "field", "heading": "heading", "title": "heading",
               "button": "button", "link": "link", "tab": "tab"}
_SHOWN = r"(?:(?:is|are|should\s+be|must\s+be|will\s+be)\s+(?:now\s+|still\s+|also\s+)?(?:shown|displayed|visible|listed|written|printed)|" \
         r"(?:now\s+)?(?:appears?|shows?\s+up))"
# "is in "Chosen categories"": being in a part is its own "shown"
SHOWN_OR_IN = (r"(?:is|are|should\s+be|will\s+be)(?:\s+(?:now|still|also))?"
               r"(?:\s+(?:shown|displayed|visible|listed|written|printed|offered|suggested))?")
_SUBJECT = (r"(?:the\s+)?(?:(?:text|message|error|notice|warning|heading|label|title|count|total|link|button|description|"
            r"caption|subtitle|tagline|hint|note|summary|status)\s+)?")
# Quoted texts listed: '"A"', '"A", "B" and "C"'
TEXTS = r"\x01\d+\x02(?:(?:\s*,\s*|\s+and\s+|,\s*and\s+)\x01\d+\x02)*"


def shows_statement(relation_words: str, kind: str, order: int = 135) -> Rule:
    """'(The entry opens and) shows "A" and "B" beneath "Orders"': the texts said after the verb, placed by the part."""
    def read(m, s):
        if m["subj"] and PICKS.search(m["subj"]):
            raise Unsupported(f"{s.show(m['subj'])!r}: which part of the page shows the text cannot be checked here")
        target, role = _part(m["y"], s)
        return [Op(kind, target=target, role_hint=role, value=s.tokens[int(n)]) for n in TOKEN.findall(m["x"])]
    # the subject: a few words naming a part of the page, which may say it opened first ('The entry opens and')
    return Rule(rf"(?P<subj>(?:the\s+|a\s+|an\s+)?(?:[a-z-]+\s+){{0,3}}?(?:(?:opens|expands|unfolds|appears|updates|"
                rf"changes|now)\s+(?:and\s+)?)?)(?:shows?|lists?|displays?)\s+"
                rf"(?P<x>{TEXTS})\s+"
                rf"(?:just\s+|right\s+|directly\s+)?(?:{relation_words})\s+(?P<y>(?:the\s+)?\x01\d+\x02)", read, order)


def statement(relation_words: str, kind: str, part: str = r".+", order: int = 135, shown: str = "",
              after: str = "") -> Rule:
    """'X is shown <relation> <part>' ('X' and 'Y' are ...: each), before the rule that refuses a qualified 'is shown'.
    part: what the part may be said as (any part by default); shown: how "is shown" may be said; after: words that
    may follow the part and say only what kind of part it is ('the "Savings Goals" group')."""
    def read(m, s):
        target, role = _part(m["y"], s)
        return [Op(kind, target=target, role_hint=role, value=s.tokens[int(n)]) for n in TOKEN.findall(m["x"])]
    return Rule(rf"{_SUBJECT}(?P<x>{TEXTS})\s+{shown or _SHOWN}\s+(?:just\s+|right\s+|directly\s+)?(?:{relation_words})\s+"
                rf"(?P<y>{part}){after}", read, order)


def placed_role(kind: str | None) -> str | None:
    """The kind of part a text is placed by, from the word that says it ('box': a field); raises `Unsupported` for a
    word that names no such part."""
    if kind is None:
        return None
    role = _PART_NOUNS.get(kind) or (kind if kind in PART_KINDS else None)
    if role is None:
        raise Unsupported(f"a {kind} is not a part of the page a text can be placed by")
    return role


def _part(words: str, s) -> tuple[str | None, str | None]:
    """(the part's text, the kind of part) from 'the form', 'the "Custom Query" heading', 'the heading "X"', '"X"'."""
    words = re.sub(r"^(?:the|a|an|its)\s+", "", words.strip(), flags=re.I)
    named = re.fullmatch(r"(?P<name>[A-Za-z][\w-]*(?:\s+[A-Za-z][\w-]*){0,2})\s+(?P<noun>field|box|button|heading|tab|link)",
                         words)
    if named and named["name"].lower() not in _PART_NOUNS and named["name"].lower() not in ("search", "text"):
        return named["name"], _PART_NOUNS[named["noun"].lower()]  # 'the Password field': a part named by its words
    if re.fullmatch(r"[A-Z][\w-]*(?:\s+[A-Z][\w-]*){0,2}", words) and words.lower() not in _PART_NOUNS:
        return words, None  # 'under Validation': a title in capitalised words, as a quoted text
    quoted = TOKEN.findall(words)
    noun = " ".join(TOKEN.sub(" ", words).lower().split())
    kind = _PART_NOUNS.get(noun) if noun else None
    if len(quoted) > 1 or (noun and kind is None):
        raise Unsupported(f"{s.show(words)!r} is not a part of the page a text can be placed by (a form, a table, a "
                          "list, a heading, a button, a field, or a quoted text)")
    text = s.tokens[int(quoted[0])] if quoted else None
    if text is None and kind is None:
        raise Unsupported("it does not say what the text is placed by")
    return text, kind


class Placed(Action):
    """A text shown in a place: the kinds differ by their relation only."""

    relation = ""  # "above", "below", "beside", "row", "section": settle.js placed()'s word
    words = ""  # how a step says it: "above", "below", "next to"
    absent = False  # the text must not be shown there (and the part must be)
    for_model = False
    is_assertion = True
    grounded = False
    valued = True
    param_name = "expectedText"

    def describe(self, target, role, value):
        return f"Verify '{value}' is {'not ' if self.absent else ''}shown {self.words} {_said(target, role)}"

    def page_locator(self, intent):
        from shared.records import Locator

        role, text = intent.role_hint, intent.target
        if role == "described":  # 'the status facet': every word in the class or id of the box
            return Locator(strategy="css", value=described_css(text or ""))
        if text and role in _PART_ROLE:
            return Locator(strategy="role", role=_PART_ROLE[role], value=text, exact=False)
        if text:
            return Locator(strategy="text", value=text, exact=False)
        if role in _PART_CSS:
            return Locator(strategy="css", value=(_INSIDE_CSS if self.relation == "inside" else _PART_CSS)[role])
        raise Unsupported("it does not say what the text is placed by")

    def check(self, act):
        text = act.value or ""
        if act.target is None or not text:
            raise CheckFailed("nothing to place the text by")
        timeout = act.settings.assertion_timeout_ms
        try:
            act.target.filter(visible=True).first.wait_for(state="visible", timeout=timeout)
        except Exception:
            raise CheckFailed("the page does not show the part the text is placed by") from None
        if not act.target.evaluate_all(
                "(els, [t, r, ms, no]) => window.__stepforge ? window.__stepforge.placed(els, t, r, ms, no) : false",
                [text, self.relation, timeout, self.absent]):
            raise CheckFailed(f'the page {"still shows" if self.absent else "does not show"} "{text}" {self.words} it')

    @property
    def shows(self) -> str:
        return "does not show" if self.absent else "shows"

    def phrase(self, op, slot):
        return [f"the page {self.shows} ", *slot, f" {self.words} {_part_words(op)}"]

    def comment(self, op, what):
        return f"Check that the page {self.shows} {what} {self.words} {_part_words(op)}"

    def javascript(self, op, target, value):
        absent = ", true" if self.absent else ""
        return f'await this.expectPlaced({value}, "{self.relation}", {target}{absent});'


def described_css(words: str) -> str:
    """The boxes whose class or id holds each word ('status facet': class "facet-info facet-status"), as CSS."""
    found = re.findall(r"[a-z0-9]+", words.lower())
    if not found:
        raise Unsupported("it does not say what the part is")
    return "".join(f'*:is([class*="{w}" i], [id*="{w}" i])' if n == 0 else f':is([class*="{w}" i], [id*="{w}" i])'
                   for n, w in enumerate(found))


def _said(text: str | None, role: str | None) -> str:
    if role == "described":
        return f"the {text}"
    if text and role:
        return f'the "{text}" {role}'
    return f'"{text}"' if text else f"the {role}"


def _part_words(op) -> str:
    locator = op.locator
    if locator is None:
        return "it"
    if locator.strategy == "css" and locator.value.startswith("*:is("):  # a part described by its class words
        return "the " + " ".join(re.findall(r'\[class\*="([a-z0-9]+)" i\]', locator.value))
    if locator.strategy == "css":
        kind = next((k for parts in (_PART_CSS, _INSIDE_CSS) for k, css in parts.items() if css == locator.value),
                    "part")
        return f"the {kind}"
    if locator.strategy == "role":
        return f'the "{locator.value}" {locator.role}'
    return f'"{locator.value}"'
