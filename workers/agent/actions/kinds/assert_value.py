"""Check that a named element shows a value ("the Email field shows user@example.com")."""

from __future__ import annotations

import re

from workers.agent.actions.base import Action, CheckFailed, Rule
from workers.agent.actions.elements import is_checkable, is_combo, is_headerish, is_textbox
from workers.agent.actions.naming import field_label
from workers.agent.language.phrases import (
    ON_SCREEN,
    PAGE_LIKE,
    PAGE_PROPERTY,
    PART_NOUNS,
    PRONOUN,
    STATES,
    VALUE_QUALIFIER,
    Op,
    Unsupported,
    is_description,
    split_role,
    target_phrase,
    value_phrase,
)

_IN_PART = re.compile(rf"(?P<thing>(?:[Tt]he\s+)?[a-z]+(?:\s+[a-z]+)?)\s+(?:on|in|inside|within)\s+the\s+"
                      rf"(?:[a-z]+\s+)?{PART_NOUNS}")


def value_check(t: str, v: str, s) -> list[Op]:
    t = ON_SCREEN.sub("", t)  # '"To Budget" at the top of the month': where a person looks, not its name
    t = re.sub(r"\s+(?:now|still|also|again)$", "", t, flags=re.I)  # 'the search box now contains ...': when
    t = re.sub(r"\s*\((?:the\s+)?[a-z][a-z -]*\)$", "", t)  # 'the second dropdown (the operator)': a gloss
    in_part = _IN_PART.fullmatch(t)
    if in_part and split_role(in_part["thing"])[1] is None and s.is_quoted(v):
        # 'the node on the canvas reads "X"': a thing said in words, in a part of the page: the text shown, as
        # '"X" is shown on the canvas' says
        return [Op("assert_text", value=value_phrase(s, v))]
    labelled = re.fullmatch(r"(?P<l>\x01\d+\x02)\s+(?P<v>(?-i:[A-Z])[\w.'-]*(?:\s+(?-i:[A-Z])[\w.'-]*){0,3}|"
                            r"(?!(?:and|or|with|but|in|on|at|of|to|for|is|are|the|a|an|now|still|again|too|also|already|yet|anymore)\b)"
                            r"[\w.@-]+)", v.strip())
    if labelled and not PRONOUN.match(t) and not is_description(labelled["v"]):
        # 'the ticket is "Owned by" Bob Tanaka': the value beside its quoted label, on its line
        return [Op("assert_beside", target=s.unmask(labelled["l"]), value=labelled["v"].strip())]
    masked_target, role = split_role(t)
    target = s.unmask(masked_target)
    if not target:
        raise Unsupported("it names no element whose value to check")
    if role == "row":  # 'the Groceries row is budgeted 400.00': the texts of that row (brains/checks.py)
        raise Unsupported(f"{s.show(t)!r} is a row, whose texts are checked, not a value")
    if re.search(r"\bor\b", masked_target, re.I):
        raise Unsupported(f"{s.show(t)!r} names more than one element; check one element per sentence")
    if s.has_token(masked_target) and re.search(r"\b(?:has|have|shows?|lists?|contains?|displays?|says?|reads?|is|are)\b|,",
                                                 masked_target, re.I):
        raise Unsupported(f"{s.show(t)!r} is a statement of its own, not the name of an element with a value")
    if re.search(r"\b(?:closes|opens|appears|disappears|vanishes|goes|stays|remains|is|are|was|were)\s+(?:and|then)\b",
                 masked_target, re.I):
        # 'The tray closes and the node now reads "X"': a statement of its own before the element
        raise Unsupported(f"{s.show(t)!r} holds a statement of its own, not only the name of an element")
    if PRONOUN.match(masked_target):
        raise Unsupported(
            f"{s.show(t)!r} names no element; checking a state of the page is not supported, "
            "only that a text is shown or that a named element shows a value"
        )
    if s.is_quoted(masked_target) and role is None:
        raise Unsupported(
            f"{s.show(t)} is a quoted text, not an element with a value; write Verify {s.show(t)} is shown "
            "to look for the text, or name the element, e.g. Verify the Email field shows user@example.com"
        )
    if role is None and target.lower() in ("heading", "page heading") and s.is_quoted(v):
        return [Op("assert_text", value=value_phrase(s, v))]  # 'The heading is "people: 7"': a text it shows
    if PAGE_PROPERTY.fullmatch(target):
        raise Unsupported("checking the page's title or address is not supported; check a text on the page",
                          final=True)
    if PAGE_LIKE.search(target) or target.lower() in {"page", "screen", "it", "everything", "all", "result"}:
        raise Unsupported(f"{s.show(t)!r} is not an element with a value; quote the text to look for instead")
    if not s.is_quoted(v):
        if v.strip().lower() in STATES:
            raise Unsupported(f"{v.strip()!r} is a state, not a value the builtin brain can check")
        if is_description(v) or s.has_token(v):
            raise Unsupported(f"{s.show(v)!r} is not a literal value; quote the expected value")
        if VALUE_QUALIFIER.search(v):
            raise Unsupported(
                f"{s.show(v)!r} is not a single literal value (only that an element shows exactly one value can "
                "be checked); quote the expected value if these words are the value"
            )
    value = value_phrase(s, v)
    if re.match(r"(?:[Tt]he\s+)?(?:first|second|third|fourth|fifth|last|1st|2nd|3rd|4th|5th)\s+(?!name\b)[a-z]", t.strip()):
        return [Op.on("assert_value", target_phrase(s, t), value=value)]  # 'the second dropdown': by its order
    return [Op("assert_value", target=target, role_hint=role, value=value)]


def _in_field(m, s):
    """'"Alice" is shown in the Name field': the value of that field (a field only, else other rules try)."""
    masked_target, role = split_role(m["t"])
    x = m["x"].strip()
    if role == "dropdown" and not masked_target and s.is_quoted(x) and not re.search(r"\b(?:selected|chosen|picked)\b", m[0], re.I):
        return [Op("assert_text", value=s.unmask(x))]  # '"Printing" is in the dropdown': an entry the open list shows
    if role not in ("field", "dropdown") or not masked_target or s.has_token(masked_target):
        return []
    if s.has_token(x) and not s.is_quoted(x):
        raise Unsupported(f"{s.show(x)!r}: a field shows one value; check one value per field", final=True)
    if re.search(r"\b(?:and|or)\b|,", masked_target, re.I):
        raise Unsupported(f"{s.show(m['t'])!r} names several fields; check one field per sentence", final=True)
    return value_check(m["t"], x, s)


STATEMENTS = (
    # 'Alice' is shown in the Name field: that field's value
    Rule(r"(?P<x>.+?)\s+(?:is|are|should\s+be|must\s+be|will\s+be)\s+"
         r"(?:shown\s+|displayed\s+|entered\s+|filled\s+in\s+|selected\s+|chosen\s+|picked\s+)?"
         r"(?:in|inside|within)\s+(?P<t>.+)", _in_field, 130),
    # the value of T is V
    Rule(r"(?:the\s+)?value\s+(?:of|in)\s+(?:the\s+)?(?P<t>.+?)\s+(?:is|equals?|should\s+be|must\s+be|=)\s+(?P<v>.+)",
         lambda m, s: value_check(m["t"], m["v"], s), 190),
    # T shows V / T contains V / T is V / T has value V
    Rule(r"(?P<t>.+?)\s+(?:should\s+|must\s+|will\s+)?(?:shows?|contains?|displays?|reads?|equals?|is|"
         r"has\s+(?:the\s+)?value(?:\s+of)?|should\s+be|must\s+be|be)\s+(?!back\b)(?P<v>.+)",  # ('is back': shown again)
         lambda m, s: value_check(m["t"], m["v"], s), 195),
)  # fmt: skip


# 'Leave the operator on "="', 'keep the Repeat dropdown set to none': nothing to do but see that it is so
_LEFT_AS_IS = Rule(r"(?:leave|keep)\s+(?P<t>.+?)\s+(?:on|at|as|set\s+to|showing|with)\s+(?P<v>.+)",
                   lambda m, s: value_check(m["t"], m["v"], s), 622)


# 'Leave "Everything" selected in the search dropdown', 'keep Blog posts chosen as the type': that control shows it
_LEFT_SELECTED = Rule(r"(?:leave|keep)\s+(?P<v>.+?)\s+(?:selected|chosen|picked)\s+(?:in|on|for|as)\s+(?P<t>.+)",
                      lambda m, s: value_check(m["t"], m["v"], s), 621)


class AssertValue(Action):
    name = "assert_value"
    for_model = False
    rules = (_LEFT_SELECTED, _LEFT_AS_IS)
    check_name = "value"
    model_hint = "value: the named element (target) shows or holds the value"
    is_assertion = True
    valued = True
    reads = True
    statements = STATEMENTS

    def describe(self, target, role, value):
        return f"Verify the {target}{' ' + role if role else ''} shows '{value}'"

    def eligible(self, node):
        if is_textbox(node) or is_combo(node) or is_checkable(node):
            return 1.0
        if is_headerish(node):
            return 0.45
        return 1.0 if node.text else 0.5

    def read(self, target, expected):
        return shown_value(target, expected)

    def phrase(self, op, slot):
        return [f"the {field_label(op)} shows ", *slot]

    def comment(self, op, what):
        return f'Check that the "{field_label(op)}" element shows {what}'

    def brief_target(self, op):
        return field_label(op)

    def javascript(self, op, target, value):
        return f"await this.expectValue({target}, {value});"


def shown_value(target, expected: str | None = None) -> str:
    """What an element shows as its value (settle.js `shownValue`, the same in the suite's expectValue), spaces
    collapsed."""
    shown = target.evaluate("(el, wanted) => window.__stepforge ? window.__stepforge.shownValue(el, wanted) : null",
                            expected)
    if shown is None:
        raise CheckFailed("the page's scripts are not loaded")
    return " ".join(shown.split())


ACTION = AssertValue()
