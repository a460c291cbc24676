"""A part of the page named by what it is, shown or gone: "The palette on the left disappears", "the dialog closes",
"the page stays on the sign-in form", "The form is gone". One kind per outcome (kinds/assert_part_shown,
assert_part_gone); this module is what they share: the sentences, and the part as a step says it.

The part is a kind of element (a form, a dialog, a menu, a palette, a sidebar, a panel, ...), maybe with the words of
its name ("sign-in", "Edit user") and the side of the window it stands on. settle.js `part` finds it the same way in
generation and in the suite: the outermost visible element of that kind, by tag or role, else by the last word of an
id or class; a form drawn without <form> is the smallest box holding a text field and a button; when several fit, the one
holding the keyboard focus. The one found is marked (data-stepforge-part), so that "... is gone" waits for that very
element to go. A part can only be seen to go when it was seen before: the step's sentence that says it goes is checked
after its operations, and the part is found, shown, before them (the brain puts that check first).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass

from workers.agent.actions.base import Rule
from workers.agent.language.phrases import TOKEN, Op, Unsupported

# What a tester calls a part of the page -> what settle.js `part` looks for.
NOUNS = {"form": "form", "dialog": "dialog", "dialog box": "dialog", "modal": "dialog", "popup": "dialog",
         "pop-up": "dialog", "menu": "menu", "submenu": "menu", "sub-menu": "menu", "palette": "palette",
         "panel": "panel", "side panel": "panel", "sidebar": "sidebar", "side bar": "sidebar", "tray": "tray",
         "drawer": "drawer", "toolbar": "toolbar", "popover": "popover", "tooltip": "tooltip", "overlay": "overlay",
         "navigation": "navigation", "table": "table", "tree": "tree"}  # fmt: skip
_NOUN = "|".join(sorted((n.replace(" ", r"\s+") for n in NOUNS), key=len, reverse=True))
# Words before the noun that do not name it: which one it is, said otherwise.
_NOT_NAMES = r"(?!(?:new|same|whole|entire|small|little|big|large|open|current|previous|other|this|that)\b)"
_NAME = rf"(?P<name>\x01\d+\x02|{_NOT_NAMES}[A-Za-z][\w-]*(?:\s+{_NOT_NAMES}[A-Za-z][\w-]*){{0,2}})"
PART = (rf"(?:the|a|an|its)\s+(?:{_NAME}\s+)?(?P<noun>{_NOUN})"
        r"(?:\s+(?:on|at)\s+the\s+(?P<side>left|right|top|bottom)(?:\s+(?:hand\s+)?side)?)?")
_AGAIN = r"(?:\s+again)?"
SHOWN = (rf"{PART}\s+(?:is\s+|are\s+)?(?:still\s+|now\s+)?(?:shown|displayed|visible|open|opened|there|back){_AGAIN}",
         rf"{PART}\s+(?:opens|appears|pops\s+up|shows\s+up|stays\s+open|remains\s+open|stays|remains){_AGAIN}",
         rf"(?:the\s+)?(?:page|screen|app|application)\s+(?:stays|remains|is\s+still)\s+on\s+{PART}")
GONE = (rf"{PART}\s+(?:closes|is\s+closed|has\s+closed|disappears|has\s+disappeared|vanishes|goes\s+away|is\s+gone|"
        r"is\s+hidden|is\s+dismissed|is\s+no\s+longer\s+(?:shown|displayed|visible|open))",)

@dataclass(frozen=True)
class Part:
    noun: str  # a key of settle.js PART_CSS, or a word of an id or class ("palette")
    words: str  # words of its name ("" when none is said)
    side: str  # left, right, top, bottom, or ""
    said: str  # as the step says it: 'sign-in form', '"Edit user" dialog', 'palette on the left'

    @property
    def key(self) -> str:
        """What marks it in the page (data-stepforge-part)."""
        return re.sub(r"[^a-z0-9]+", "-", self.said.lower()).strip("-")


def part_of(said: str) -> Part:
    """The part a step's words name ('sign-in form', '"Edit user" dialog', 'palette on the left')."""
    m = re.fullmatch(PART, f"the {said}", re.I | re.S)
    if m is None:
        raise Unsupported(f"{said!r} is not a part of the page (a form, a dialog, a menu, a panel, ...)")
    words = (m["name"] or "").strip('"')
    return Part(NOUNS[" ".join(m["noun"].lower().split())], words, (m["side"] or "").lower(), said)


def _said(m: re.Match[str], s) -> str:
    name = m["name"]
    if name and TOKEN.fullmatch(name):
        name = '"' + s.tokens[int(TOKEN.fullmatch(name)[1])] + '"'
    noun = " ".join(m["noun"].lower().split())
    return " ".join(w for w in (name, noun, f"on the {m['side'].lower()}" if m["side"] else "") if w)


def statements(kind: str, patterns: tuple[str, ...], orders: tuple[int, ...], quoted: bool = True) -> tuple[Rule, ...]:
    """The sentences of a kind, at each order: a part gone is said with a negation ('disappears') or without one
    ('closes'), and the brain tries the statements of absence only for a sentence that denies. quoted: also a part
    named by a quoted text (else that is left to the text checks: 'the "Edit user" dialog is shown')."""
    def read(m, s):
        if not quoted and m["name"] and TOKEN.fullmatch(m["name"]):
            return None
        return [Op(kind, value=_said(m, s))]
    return tuple(Rule(pattern, read, order) for pattern in patterns for order in orders)


def part_javascript(part: Part) -> str:
    """The arguments of the suite's expectPart: noun, words, side and key, as JavaScript strings."""
    return ", ".join(json.dumps(v) for v in (part.noun, part.words, part.side, part.key))
