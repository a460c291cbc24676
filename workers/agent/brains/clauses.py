"""A step's sentence into clauses, one operation or check each: where a new clause starts (a verb of an operation,
the builtin ones and those every action kind declares), one verb said once for two objects ('Select A from X and B
from Y'), and the words around a clause that say nothing to do ('again', 'in order to open it')."""

from __future__ import annotations

import re
from functools import lru_cache

from workers.agent.actions import all_actions

VERBS = (
    "click", "tap", "press", "push", "hit", "type", "enter", "input", "write", "fill", "set", "clear",
    "select", "choose", "pick", "check", "uncheck", "tick", "untick", "go", "navigate", "open", "visit",
    "browse", "verify", "confirm", "ensure", "expect", "assert", "see", "submit", "search", "scroll",
    "drag", "complete", "look", "observe", "inspect", "examine", "replace", "overwrite",
)  # fmt: skip


@lru_cache(maxsize=1)
def verbs() -> frozenset[str]:
    """The verbs that start an operation: these, and those each action kind declares (`Action.verbs`)."""
    return frozenset(VERBS).union(*(a.verbs for a in all_actions()))


@lru_cache(maxsize=1)
def _split() -> re.Pattern[str]:
    verb_ahead = (
        r"(?=(?:(?:i|we|the\s+user)\s+(?:should\s+|must\s+|then\s+)?)?"
        # (never a field named Type, then its value: 'and Type to "enhancement"')
        # (never an item's capitalised name and its count in a list: '..., Search 2 and Growth 1')
        r"(?!type\s+(?:to|=)\s+\x01)(?!(?-i:[A-Z])[a-z]+\s+\d[\d.,]*(?:\s*,|\s+and\s|\s*$))(?:(?:" + "|".join(sorted(verbs())) + r")(?:s|es)?|make\s+sure)\b|the\s+(?:page|screen)\b|"
        # 'and its rows are ...': a possessive subject and its verb
        r"(?:its|their)\s+\w+(?:\s+\w+)?\s+(?:is|are|shows?|reads?|lists?|says?|has|have|contains?)\b|"
        r"(?:delete|remove|erase)\s+(?:all\s+(?:of\s+)?)?the\s+(?:existing\s+|current\s+|old\s+|whole\s+)?"
        r"(?:text|query|content|contents|value|code)\b)"
    )
    return re.compile(
        r"\s*;\s*|,?\s+and\s+then\s+|,?\s+then\s+|,\s*then\s+"  # always a new clause
        r"|(?:,\s*and|\s+and|,)\s+" + verb_ahead,  # a new clause when a verb follows
        re.I,
    )


_LOOSE_SPLIT = re.compile(r",\s*and\s+|\s+and\s+|,\s+|,(?!\d)", re.I)  # (never the comma of 1,200)


def split_clauses(masked: str) -> list[str]:
    """One step's (masked) text into clauses, one operation or check each."""
    return [part.strip() for part in _split().split(masked) if part and part.strip()]


# One verb for two objects, each with its own place: 'Select A from the X dropdown and B from the Y dropdown',
# 'Type Billing into the Name field and alice in the Owner field'. The second part says no verb of its own.
_PLACING = {"from": "from", "into": "in", "in": "in", "on": "in", "to": "to", "as": "as", "for": "for"}


@lru_cache(maxsize=1)
def _gapped() -> re.Pattern[str]:
    prep = r"(?:from|into|in|on|to|as|for)"
    no_verb = r"(?!(?:" + "|".join(sorted(verbs())) + r")(?:s|es)?\b)"
    return re.compile(
        rf"(?P<verb>(?:select|choose|pick|type|enter|write|input|fill\s+in|set|put|add)\s+)(?P<a>\x01\d+\x02)\s+"
        rf"(?P<p1>{prep})\s+(?P<b>[^\x01,]+?)(?:,\s*and|\s+and|,)\s+{no_verb}(?P<c>\x01\d+\x02)\s+(?P<p2>{prep})\s+"
        rf"(?P<d>[^\x01,]+)",
        re.I)


# One verb for several quoted elements that share a place: 'Untick "Wiki changes" and "Tickets" in the options box'.
# 'Untick the "draft", "archived" and "deleted" checkboxes': the kind said once, in the plural, is each one's.
_LISTED = re.compile(r"(?P<verb>(?:click|double-click|tick|check|untick|uncheck|mark|unmark)\s+(?:on\s+)?)(?:the\s+)?"
                     r"(?P<objs>\x01\d+\x02(?:(?:\s*,\s*and|\s*,|\s+and)\s+\x01\d+\x02)+)"
                     r"(?:\s+(?P<kind>checkboxes|check\s+boxes|boxes|buttons|links|tabs|options|toggles|switches|"
                     r"radio\s+buttons))?"
                     r"(?P<rest>\s+(?:in|on|under|within|inside|from|at|below|beneath)\s+.+)?", re.I)
_ONE_OF = {"checkboxes": "checkbox", "check boxes": "checkbox", "boxes": "box", "buttons": "button", "links": "link",
           "tabs": "tab", "options": "option", "toggles": "toggle", "switches": "switch",
           "radio buttons": "radio button"}


# One "fill in" for several fields, each with its quoted value: 'Fill in "Your name" with "Sam" and "Email" with "s@x"'.
_FIELD_WITH = r"(?:(?!\bwith\b)[^,\x01]|\x01\d+\x02)+?\s+with\s+\x01\d+\x02"
_AND = r"(?:\s*,\s*and|\s*,|\s+and)\s+"
_FILLED = re.compile(rf"(?P<verb>(?:fill\s+in|fill\s+out|fill|populate|complete)\s+)"
                     rf"(?P<pairs>{_FIELD_WITH}(?:{_AND}{_FIELD_WITH})+)", re.I)


# One form filled with several labelled values: 'Fill in the registration form with name "Alice" and email "a@b.c"',
# '... with "alice@example.com" as Email and "wonderland" as Password'.
_LABELLED = r"(?:(?:the\s+)?[A-Za-z][\w-]*(?:\s+[A-Za-z][\w-]*){0,2}\s*:?\s+\x01\d+\x02|\x01\d+\x02\s+as\s+(?:the\s+)?" \
            r"[A-Za-z][\w-]*(?:\s+[A-Za-z][\w-]*){0,2}?)"
_FORM_FILLED = re.compile(rf"(?:fill(?:\s+in|\s+out)?|complete|populate)\s+(?:the\s+|a\s+)?(?:[\w-]+\s+|\x01\d+\x02\s+){{0,3}}?"
                          rf"form\s+(?:with|using)\s+(?P<pairs>{_LABELLED}(?:{_AND}{_LABELLED})+)", re.I)
_PAIR = re.compile(r"(?:the\s+)?(?P<label>[A-Za-z][\w\s-]*?)\s*:?\s+(?P<v>\x01\d+\x02)|(?P<v2>\x01\d+\x02)\s+as\s+(?:the\s+)?"
                   r"(?P<label2>.+)", re.I)


def ungap(clause: str) -> list[str]:
    """A clause of one verb and two objects, each with its place, into two clauses; one verb for several quoted
    elements sharing a place, into one clause each; one "fill in" for several fields, into one clause each; else the
    clause alone."""
    listed = _LISTED.fullmatch(clause.strip())
    if listed:
        kind = f" {_ONE_OF[' '.join(listed['kind'].lower().split())]}" if listed["kind"] else ""
        the = "the " if kind else ""
        return [f"{listed['verb']}{the}{obj}{kind}{listed['rest'] or ''}"
                for obj in re.findall("\x01\\d+\x02", listed["objs"])]
    form = _FORM_FILLED.fullmatch(clause.strip())
    if form:
        pairs = [_PAIR.fullmatch(p.strip()) for p in re.split(_AND, form["pairs"])]
        if all(pairs):
            return [f"fill in {p['label'] or p['label2']} with {p['v'] or p['v2']}" for p in pairs if p]
    filled = _FILLED.fullmatch(clause.strip())
    if filled:
        return [f"{filled['verb']}{pair}" for pair in re.split(rf"(?<=\x02){_AND}", filled["pairs"])]
    m = _gapped().fullmatch(clause.strip())
    if not m or _PLACING[m["p1"].lower()] != _PLACING[m["p2"].lower()]:
        return [clause]
    verb = m["verb"]
    return [f"{verb}{m['a']} {m['p1']} {m['b']}", f"{verb}{m['c']} {m['p2']} {m['d']}"]


def loose_split(masked: str) -> list[str]:
    """Every top-level 'and' and comma: the fallback when a clause as a whole is not understood."""
    return [part.strip() for part in _LOOSE_SPLIT.split(masked) if part and part.strip()]


_LEAD = re.compile(
    r"^(?:(?:given|when|then|and|but|also|next|finally|afterwards|after\s+that|now)\b\s*,?\s*)+", re.I
)
_SUBJECT = re.compile(
    r"^(?:please\s+)?(?:(?:i|we|the\s+user)\s+(?:(?:should|must|can|will|then|also|now)\s+)*)?(?:please\s+)?", re.I
)


# What a person is told not to do, which is nothing to do: 'Type "queue" without pressing Enter'.
_NOT_DONE = re.compile(r",?\s+without\s+(?:pressing|hitting|using|typing)\s+(?:the\s+)?(?:enter|return)(?:\s+key)?"
                       r"(?:\s+or\s+submitting(?:\s+(?:it|the\s+form|the\s+search))?)?$|"
                       r",?\s+without\s+submitting(?:\s+(?:it|the\s+form|the\s+search))?$", re.I)


# Why the tester does it, which is not a thing to do: 'Click the "Modify Ticket" heading to unfold it'.
_PURPOSE = re.compile(r",?\s+(?:in\s+order\s+)?to\s+(?:unfold|expand|open|collapse|fold|show|reveal|hide|close|see|"
                      r"display|view|sort|focus|activate|edit|start\s+editing|leave|exit|dismiss|finish|confirm|save|"
                      r"apply|return\s+to|go\s+back\s+to|get\s+back\s+to|continue|proceed|cancel)\s+(?:it|them|"
                      r"(?:its|the|this|that|by|more|changes?|editing)\b(?![^\x01]*\s(?:and|then)\s)[^\x01]*)$", re.I)
# How a part is opened, said after it: 'Expand the "Columns" section by clicking its title' (its title is what is named)
_BY_ITS_TITLE = re.compile(r",?\s+by\s+clicking(?:\s+on)?\s+(?:its|the)\s+(?:title|heading|header|label|name|legend)$", re.I)
# 'Click the "votes" column header again', 'Open the main menu again': a named element clicked once more is that element
_ONCE_MORE = re.compile(r"(?<=\S)\s+(?:again|once\s+more|one\s+(?:more|last)\s+time|a\s+(?:second|third|final|last)\s+"
                        r"time)$", re.I)


def normalise(clause: str) -> str:
    """Drop Gherkin keywords, a subject ('I', 'the user'), 'please', a final stop, what is not to be done;
    'clicks' -> 'click'."""
    clause = clause.strip().rstrip(".!").strip()
    clause = _BY_ITS_TITLE.sub("", _PURPOSE.sub("", _NOT_DONE.sub("", clause)))
    if ("\x01" in clause or re.search(r"\b(?:the|its|that|this)\s", clause, re.I)) and not re.match(
            r"(?:type|enter|input|write|fill|put|key)\b", clause, re.I):  # ('Enter the password again': its confirmation)
        clause = _ONCE_MORE.sub("", clause)  # (a bare 'Click Try again' may name a "Try again" button)
    clause = _LEAD.sub("", clause)
    clause = _SUBJECT.sub("", clause)
    first, _, rest = clause.partition(" ")
    low = first.lower()
    if low not in verbs():
        for suffix in ("es", "s"):
            if low.endswith(suffix) and low[: -len(suffix)] in verbs():
                clause = f"{first[: -len(suffix)]} {rest}".strip()
                break
    return clause
