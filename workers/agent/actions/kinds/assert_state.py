"""Check that a named element is in a state: "the Import button is disabled", "the "Remember me" checkbox is
ticked", "the Notes field is empty", "the "Advanced" section is collapsed".

The states are those a person sees on a control, each with its opposite (settle.js `states` reads them the same
way in generation and in the suite): disabled / enabled, checked / unchecked, selected / unselected, empty /
filled, expanded / collapsed. A wrapper drawn over an invisible input (a custom checkbox, a label) is read through
the one input it holds.
"""

from __future__ import annotations

import re

from workers.agent.actions.base import Action, Rule
from workers.agent.actions.elements import is_checkable, is_textbox
from workers.agent.actions.naming import element_name, field_label, noun, the_element, the_field
from workers.agent.language.phrases import PAGE_LIKE, PRONOUN, TOKEN, Op, Unsupported, target_phrase

# The words a tester writes for a state -> the state settle.js reads.
STATE_WORDS = {
    "disabled": "disabled", "greyed out": "disabled", "grayed out": "disabled", "inactive": "disabled",
    "enabled": "enabled",
    "checked": "checked", "ticked": "checked", "unchecked": "unchecked", "unticked": "unchecked",
    "selected": "selected", "chosen": "selected", "deselected": "unselected", "unselected": "unselected",
    "empty": "empty", "blank": "empty",
    "expanded": "expanded", "unfolded": "expanded", "collapsed": "collapsed", "folded": "collapsed",
    "active": "selected",  # of a tab only (state_check)
}  # fmt: skip
# An element said to be there ('with a "Sign in" button', brains/checks.py): visible; never a word of STATE.
OPPOSITE = {"visible": "hidden", "hidden": "visible", "disabled": "enabled", "enabled": "disabled",
            "checked": "unchecked", "unchecked": "checked", "selected": "unselected", "unselected": "selected", "empty": "filled", "filled": "empty",
            "expanded": "collapsed", "collapsed": "expanded"}  # fmt: skip

STATE = "(?:" + "|".join(sorted((w.replace(" ", r"\s+") for w in STATE_WORDS), key=len, reverse=True)) + ")"
_BE = r"(?:is|are|should\s+be|must\s+be|will\s+be|remains?|stays?|becomes?|gets?)"
_DEFAULT = r"(?:\s+by\s+default|\s+initially|\s+at\s+first)?"  # 'the "Readme" tab is selected by default'
_NOT = r"(?:is|are|should|must|will)\s*(?:n['’]t|\s+not|\s+no\s+longer)(?:\s+be)?"


def state_check(t: str, word: str, s, negated: bool = False) -> list[Op]:
    state = STATE_WORDS[" ".join(word.lower().split())]
    if negated:
        state = OPPOSITE[state]
    listed = re.fullmatch(r"(?:both\s+|all\s+of\s+|all\s+)?(?:the\s+)?(?P<l>\x01\d+\x02(?:(?:\s*,\s*|\s+and\s+|,\s*and\s+)"
                          r"\x01\d+\x02)+)(?:\s+(?P<kind>checkbox(?:es)?|options|switch(?:es)?|boxes|buttons|tabs))?",
                          t.strip(), re.I)
    if listed:  # 'Both "Show palette" and "Show sidebar" are ticked': each of them
        return [op for n in TOKEN.findall(listed["l"]) for op in state_check(f"\x01{n}\x02", word, s, negated)]
    if PRONOUN.fullmatch(t.strip()) or not t.strip():
        raise Unsupported(f"{s.show(t)!r} names no element; name the element that is {word}")
    target = target_phrase(s, t)
    if not target.name and target.role is None:
        raise Unsupported(f"{s.show(t)!r} names no element; name the element that is {word}")
    if target.name and PAGE_LIKE.search(target.name) and target.role is None:
        raise Unsupported(f"{s.show(t)!r} is not an element with a state; name the control that is {word}")
    if re.match(r"(?:if|when|whenever|once|until|unless|after|before|wait|while)\b", t.strip(), re.I):
        raise Unsupported(f"{s.show(t)!r} is a condition or a wait, not an element whose state to check")
    if re.search(r"\b(?:and|or|both|all|every|each|neither|nor|none|no|never)\b|,", s.show(t), re.I):
        raise Unsupported(f"{s.show(t)!r} names more than one element; check one element's state per sentence")
    if word.lower() == "active" and target.role != "tab":
        raise Unsupported(f"{s.show(t)!r} is active: say enabled, selected or ticked (active is a tab's word)")
    op = Op.on("assert_state", target, value=state)
    if state in ("checked", "unchecked") and op.role_hint == "field":
        op.role_hint = "checkbox"  # 'the "Terms" box is ticked': a box that ticks is a checkbox
    return [op]


STATEMENTS = (
    # the Save button is not disabled / the box is no longer ticked: the opposite state
    Rule(rf"(?P<t>.+?)\s+{_NOT}\s+(?:now\s+|still\s+)?(?P<st>{STATE}){_DEFAULT}",
         lambda m, s: state_check(m["t"], m["st"], s, negated=True), 80),
    # the Import button is disabled / the "Remember me" checkbox is ticked / the Notes field is empty
    Rule(rf"(?P<t>.+?)\s+{_BE}\s+(?:now\s+|still\s+|also\s+)?(?P<st>{STATE}){_DEFAULT}",
         lambda m, s: state_check(m["t"], m["st"], s), 185),
)  # fmt: skip


# 'Keep "Blog posts" selected', 'leave the "Notify me" box ticked': nothing to do but see that it is so
# ('Leave the Name empty' is said to make it so: clear.py)
_LEFT_IN_STATE = Rule(rf"(?:leave|keep)\s+(?P<t>.+?)\s+(?!empty|blank)(?P<st>{STATE})",
                      lambda m, s: state_check(m["t"], m["st"], s), 623)


class AssertState(Action):
    name = "assert_state"
    for_model = False
    is_assertion = True
    literal = True
    reads = True
    rules = (_LEFT_IN_STATE,)
    statements = STATEMENTS

    def describe(self, target, role, value):
        return f"Verify the {target + ' ' if target else ''}{role or 'element'} is {value}"

    def eligible(self, node):
        if node.operable or is_textbox(node) or is_checkable(node):
            return 1.0
        return 0.5

    def read(self, target, expected: str) -> str:
        """The expected state when the element is in it; else the states it is in."""
        found = target.evaluate("el => window.__stepforge ? window.__stepforge.states(el) : null")
        if not found:
            return "unreadable"
        if expected in ("enabled", "disabled") and "checkable" in found:
            # "dark mode is enabled" of a switch: on, or not greyed out? The tester must say which.
            return f"a checkbox or switch, which is {'checked' if 'checked' in found else 'unchecked'} (say ticked or " \
                   "unticked, or greyed out)"
        if expected in found:
            return expected
        return OPPOSITE[expected] if OPPOSITE.get(expected) in found else f"neither {expected} nor {OPPOSITE[expected]}"

    def reads_nothing(self, reading):
        return reading == "unreadable" or reading.startswith("neither ")

    def phrase(self, op, slot):
        return [f"{_the(op)} is {op.value}"]

    def comment(self, op, what):
        return f"Check that {the_field(op, noun(op) or 'element')} is {op.value}"

    def brief_target(self, op):
        return _name(op)

    def javascript(self, op, target, value):
        return f'await this.expectState({target}, "{op.value}");'


def _name(op) -> str:
    return field_label(op) if noun(op) in ("field", "dropdown", "checkbox", "radio button", "switch") else element_name(op)


def _the(op) -> str:
    return the_element(op, noun(op) or "element", _name(op))


ACTION = AssertState()
