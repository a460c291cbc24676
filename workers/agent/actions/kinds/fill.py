"""Type a value into a text field (replacing what it holds)."""

from __future__ import annotations

import re

from workers.agent.actions.base import Action, ActionFailed, Rule, thing
from workers.agent.actions.elements import is_native_select, is_textbox
from workers.agent.actions.naming import field_label, the_element, the_field
from workers.agent.language.phrases import TOKEN, Op, Unsupported, literal_value, target_phrase

_AND = r"(?:\s*,\s*(?:and\s+)?|\s+and\s+)"  # between one field's value and the next field
# 'Set Type to "enhancement" and Priority to "minor"': one more field and its quoted value, after the first value
_PAIR_TEXT = (rf"{_AND}(?P<t>(?:the\s+)?[A-Za-z][\w-]*(?:\s+[A-Za-z][\w-]*){{0,2}}?)\s+(?:to|=|with|as|into|in)\s+"
              r"(?P<v>\x01\d+\x02)")
_PAIR = re.compile(_PAIR_TEXT)
_MORE_PAIRS = re.compile(r"(?P<v>\x01\d+\x02)(?P<more>(?:" + re.sub(r"\(\?P<\w+>", "(?:", _PAIR_TEXT) + ")+)")
# 'Fill in Username "bob" and Password "builder42"', 'Enter the name "Bob"': a field's name, then its quoted value
_LABEL = r"(?:the\s+|your\s+|a\s+)?(?!(?:the|a|an|text|value|values|word|words|string|characters|following|phrase|letters|" \
         r"number|in|into|on|at|here|there|again|only|now|slowly|quickly|below|above|it|this|that|something|anything|then|" \
         r"also|just|simply)\b)" \
         r"[A-Za-z][\w-]*(?:\s+(?!(?:and|or|then)\b)[A-Za-z][\w-]*){0,2}?"
_LABELLED = re.compile(rf"(?:{_AND}?(?P<t>{_LABEL})\s+(?P<v>\x01\d+\x02))", re.I)


# '... in "Your name" and sam@example.com in "Email"': a field, then the next value and the field it goes in
# (both fields quoted: 'Shipping and Handling' is one field's name)
_TYPED_PAIR = re.compile(r"(?P<t>\x01\d+\x02)\s+and\s+(?P<v2>\x01\d+\x02|[^\x01\s]\S*(?:\s+[^\x01\s]\S*){0,3}?)\s+"
                         r"(?:in|into)\s+(?P<t2>\x01\d+\x02(?:\s+(?:field|box))?)")


# 'Enter Payments as Name and carol as Owner': a field said in words, then the next value and its field
_WORDS_PAIR = re.compile(r"(?P<t>(?:the\s+)?[A-Za-z][\w-]*(?:\s+[A-Za-z][\w-]*){0,2}?)\s+and\s+"
                         r"(?P<v2>\x01\d+\x02|[^\x01\s]+)\s+as\s+(?P<t2>.+)", re.I)


# an unquoted value, then the next field, quoted or in capitals, and its value
_UNQUOTED_THEN_PAIR = re.compile(r"(?P<v>[^\x01]+?)(?:\s*,\s*and|\s*,|\s+and)\s+(?P<t2>(?:the\s+)?(?:\x01\d+\x02(?:\s+(?:field|box))?|"
                                 r"(?-i:[A-Z])[\w-]*(?:\s+[A-Za-z][\w-]*){0,2}?\s+(?:field|box)))\s+(?:with|to|as|=)\s+(?P<v2>.+)",
                                 re.I)


def _labelled_values(m, s):
    pairs = list(_LABELLED.finditer(m["pairs"]))
    if "".join(p[0] for p in pairs).strip() != m["pairs"].strip():
        return None
    return [op for p in pairs for op in _fill(p, s)]


def _fill(m, s):
    said_next = _UNQUOTED_THEN_PAIR.fullmatch(m["v"].strip())
    if said_next:  # 'Fill "Your name" with Tessa Tester and "Email" with tessa@example.com': each value in its field
        return _fill({"t": m["t"], "v": said_next["v"]}, s) + _fill({"t": said_next["t2"], "v": said_next["v2"]}, s)
    more = _MORE_PAIRS.fullmatch(m["v"].strip())
    if more is not None:
        return _fill({"t": m["t"], "v": more["v"]}, s) + [
            op for pair in _PAIR.finditer(more["more"]) for op in _fill(pair, s)]
    next_pair = _TYPED_PAIR.fullmatch(m["t"].strip()) or _WORDS_PAIR.fullmatch(m["t"].strip())
    if next_pair:  # 'Type Sam Reed in "Your name" and sam@example.com in "Email"': each value in its field
        return _fill({"t": next_pair["t"], "v": m["v"]}, s) + _fill({"t": next_pair["t2"], "v": next_pair["v2"]}, s)
    if len(TOKEN.findall(m["v"])) > 1 and re.search(r"[A-Za-z]", TOKEN.sub(" ", m["v"])):
        # '"Sam" and the Email field with "s@x"': more than one value, and words between them
        raise Unsupported(f"{s.show(m['v'])!r} is not one value; fill one field with one quoted value per clause")
    t = target_phrase(s, m["t"], "field")
    said = s.unmask(m["v"]).strip().lower()
    if t.role in ("checkbox", "radio") and said in ("on", "off", "checked", "unchecked", "ticked", "unticked"):
        # 'Set the "Dark mode" switch to off': a switch is turned, never typed into
        return [Op.on("check" if said in ("on", "checked", "ticked") else "uncheck", t)]
    if t.role == "dropdown":  # "Set the Type dropdown to dog"
        return [Op.on("select", t, value=literal_value(s, m["v"], option=True, what="option"))]
    return [Op.on("fill", t, value=literal_value(s, m["v"]))]


class Fill(Action):
    name = "fill"
    model_hint = "fill: type the value into the target field (replacing its text)"
    valued = True
    field = True
    rules = (
        Rule(r"(?:type|enter|input|write|put|key\s+in)\s+(?P<v>.+?)\s+(?:into|in\s+to|in|inside|on)\s+(?P<t>.+)", _fill,
             500),
        Rule(r"(?:type|enter|input|write|put)\s+(?P<v>.+?)\s+as\s+(?P<t>.+)", _fill, 501),
        Rule(r"(?:fill(?:\s+in|\s+out)?|populate|complete)\s+(?P<t>.+?)\s+with\s+(?P<v>.+)", _fill, 502),
        # 'Add the comment "Looks good"', 'leave a note "x"': a text written where that kind of text goes
        Rule(r"(?:add|leave|write|post)\s+(?:a|an|the)\s+(?P<t>(?:new\s+)?(?:comment|note|description|message|reply|"
             r"remark|summary))\s+(?:saying\s+|that\s+reads\s+|of\s+)?(?P<v>\x01\d+\x02)", _fill, 502),
        # 'Change "Ticket status by" from Component to "Priority"': the value it had is said, not checked
        Rule(r"(?:change|switch|update)\s+(?P<t>.+?)\s+from\s+(?P<old>(?:(?!\s(?:to|into)\s).)+?)\s+(?:to|into)\s+(?P<v>.+)",
             _fill, 503),
        # ('Change the dropdown next to the search box to "Blog posts"': a quoted value last is the value)
        Rule(r"(?:set|change|switch)\s+(?P<t>[^\x01]+)\s+(?:to|=)\s+(?P<v>\x01\d+\x02)", _fill, 503),
        Rule(r"(?:set|change)\s+(?P<t>.+?)\s+(?:to|=)\s+(?P<v>.+)", _fill, 503),
        # 'Replace the filter with ">=3"', 'Replace the text in the Name field with "Bob"' (never 'Replace "A" with "B"':
        # which field holds "A" is not said)
        Rule(r"(?:replace|overwrite)\s+(?:(?:the\s+)?(?:text|value|contents?|words?|query|input)\s+(?:in|of)\s+)?"
             r"(?P<t>(?!\x01\d+\x02\s+with\b)(?!(?:the\s+)?(?:old\s+|current\s+|existing\s+)?(?:text|value|word|words|entry|"
             r"number|contents?)\s+\x01)(?!(?:the\s+)?(?:old|current|existing)\s+).+?)\s+with\s+(?P<v>.+)", _fill, 620),
        Rule(rf"(?:fill(?:\s+in|\s+out)?|enter|type|input|key\s+in)\s+(?P<pairs>(?:{_LABEL})\s+\x01\d+\x02"
             rf"(?:{_AND}(?:{_LABEL})\s+\x01\d+\x02)*)", _labelled_values, 504),
    )

    def describe(self, target, role, value):
        return f"Type {value} into {thing(target, role)}"

    def eligible(self, node):
        # 'Set Type to "enhancement"': the field named so may be a native dropdown, whose option is then selected
        return 1.0 if is_textbox(node) else 0.9 if is_native_select(node) else 0.0

    def refine(self, node, intent=None):
        if is_native_select(node):
            return "select"
        # A field that reacts to keys (type-ahead, autocomplete) gets real key events, not one input event.
        return "type" if node.typeahead else self.name

    def redundant(self, node, value, current_url, base_url):
        return node is not None and (node.value or "") == (value or "") and bool(value)

    def perform(self, act):
        act.target.fill(act.value or "")
        if act.value and field_left_empty(act.target):
            # The browser dropped the text: a date, time, number or email field that takes another format.
            kind_of = act.target.get_attribute("type") or "this"
            raise ActionFailed(f'the field did not take "{act.value}": a {kind_of} field left empty '
                               "(the value's format is not one it accepts)")

    def phrase(self, op, slot):
        return ["Enter ", *slot, f" in {the_element(op, 'field', field_label(op))}"]

    def comment(self, op, what):
        return f"Type {what} into {the_field(op, 'field')}"

    def brief_target(self, op):
        return field_label(op)

    def javascript(self, op, target, value):
        return f"await {target}.fill({value});"


def field_left_empty(target) -> bool:
    try:
        return target.input_value() == ""
    except Exception:  # not a form control (contenteditable): nothing to compare
        return False


ACTION = Fill()
