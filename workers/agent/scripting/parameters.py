"""Input values and expected strings of a scenario's kept operations become Scenario Outline parameters."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass, field

from shared.records import Operation
from shared.scenarios import PLACEHOLDER
from workers.agent.actions import action
from workers.agent.actions.naming import (
    CONTAINER_WORDS,
    context_name,
    holds_value,
    page_field_label,
    record_text,
    tester_name,
)


@dataclass(frozen=True)
class Parameter:
    name: str  # Examples column and <placeholder>
    value: str  # the value the agent used (first data row's, when it came from data)
    column: bool = False  # named after a data column / Operation.param
    template: str | None = None  # Operation.template: each data row's value is rendered from it

    def row_value(self, row: dict[str, str]) -> str:
        """Its value in one Examples row."""
        if self.column and self.name in row:
            return row[self.name]
        if self.template is not None:
            return PLACEHOLDER.sub(lambda m: row.get(m[1], m[0]), self.template)
        return self.value


@dataclass
class Parameters:
    """The parameters of one scenario: by position in the kept-operations list, and in order of first use."""

    by_op: dict[int, str] = field(default_factory=dict)
    # By position: the parameter carrying the record its locator finds the element by (see record_text).
    by_record: dict[int, str] = field(default_factory=dict)
    params: list[Parameter] = field(default_factory=list)
    examples: list[dict[str, str]] = field(default_factory=list)

    @property
    def names(self) -> list[str]:
        return [p.name for p in self.params]


def kept_operations(operations: Sequence[Operation]) -> list[Operation]:
    """Failed and redundant operations are dropped."""
    return [op for op in operations if op.ok and not op.redundant]


def camel_case(text: str) -> str:
    """ "Last name" -> "lastName", "e-mail address:" -> "eMailAddress", "first_name" -> "firstName"."""
    text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    words = re.findall(r"[A-Z]+(?![a-z])|[A-Za-z][a-z0-9]*|[0-9]+[a-z]*", re.sub(r"[^A-Za-z0-9]+", " ", text))
    words = [w for w in words if w]
    if not words:
        return ""
    head = words[0].lower()
    tail = "".join(w[:1].upper() + w[1:].lower() for w in words[1:])
    name = head + tail
    return f"p{name}" if name[0].isdigit() else name


def field_name(op: Operation) -> str:
    """The field's name as a camelCase identifier: the tester's words for it where the step says them (see
    naming.tester_name), its label, aria-label, placeholder, context, name or id; else 'value'."""
    target = op.target
    if target is not None:
        for text in (tester_name(op, page_field_label(op)), target.label, target.aria_label, target.placeholder,
                     context_name(target.context), target.name_attr, target.id_attr):
            name = camel_case(text or "")
            if name:
                return name
    if op.locator is not None and op.locator.strategy in ("label", "role", "name", "testid"):
        name = camel_case(op.locator.value)
        if name:
            return name
    return "value"


def _unique(base: str, taken: set[str]) -> str:
    if base not in taken:
        return base
    number = 2
    while f"{base}{number}" in taken:
        number += 1
    return f"{base}{number}"


# Words around a quoted value that say nothing of what it is: articles, verbs of showing, linking words.
_NOT_WHAT = frozenset("""a an the this that these those its it their his her my your our some any i we you they
is are was were be been being reads read says say said shows show shown displays display displayed appears appear
contains contain containing with of as to in into on at by for from and or then now still should must will can
equals equal reading saying showing named called titled labelled labeled see sees seen visible present listed
includes include including becomes become has have changes change changed disappears disappear
page screen site app application user new following text value word words string verify check ensure confirm
assert expect make sure click type enter look wait find search open select choose press go navigate until
till unless while when after before if whether so both either all only also just not no never again there""".split())
_WORD = re.compile(r"[A-Za-z][A-Za-z-]*")
_NAMED_PARTS = frozenset("column field cell box input".split())  # never "row": a row's name is its record
# Verbs between what a value is called and the value: 'the title reads "X"'
_SHOWING = frozenset("""is are was were be been being reads read says say said shows show shown displays display
displayed appears appear contains contain containing includes include including lists list becomes become has have
changes change changed equals equal reading saying showing named called titled labelled labeled to as of with
now still should must will can""".split())
# What a value said before its kind is: '"Saved" toast is shown'
_UI_NOUNS = frozenset("""message toast banner notice notification alert error warning heading title label link button
status badge tooltip tab option caption hint""".split())


def said_what(value: str, sentence: str) -> str:
    """What the tester's sentence calls a quoted value, as camelCase: 'the message "Saved" appears' -> "message";
    'the article title reads "X"' -> "articleTitle"; '"Saved" toast is shown' -> "toast"; "" when it calls it
    nothing ('the page shows "X"')."""
    found = re.search(r"[\"“”']" + re.escape(value) + r"[\"“”']", sentence, re.IGNORECASE)
    if not found or not value.strip():  # unquoted, where its words begin is a guess
        return ""
    segments = re.split(r"[\"“”,.;:]", sentence[: found.start()])
    before = segments[-1].split()
    while before and before[-1].lower() in _SHOWING:
        before.pop()  # "reads", "shows", "is"
    words: list[str] = []
    while before and _WORD.fullmatch(before[-1]) and before[-1].lower() not in _NOT_WHAT and len(words) < 2:
        words.insert(0, before.pop())
    if len(words) == 1 and not before and words[0].lower() in _NAMED_PARTS and len(segments) >= 3 \
            and segments[-2].strip():
        words = [segments[-2]]  # 'the "Name" column shows "Bob"': what the column is called
    if not words:
        after = re.split(r"[\"“”,.;:]", sentence[found.end():])[0].split()
        if after and after[0].lower() in _UI_NOUNS:  # '"Saved" toast is shown'
            words = [after[0]]
    return camel_case(" ".join(words))


def _named_for_what(base: str, op: Operation, sentences: Sequence[str]) -> str:
    """A text parameter's name from what the sentence calls it: expectedText -> expectedMessage, absentText ->
    absentError; base unchanged when the sentence calls it nothing."""
    if not base.endswith("Text") or op.value is None or not 0 <= op.step_index < len(sentences):
        return base
    what = said_what(op.template or op.value, sentences[op.step_index])
    if not what or what.lower() == "text":
        return base
    return base[: -len("Text")] + what[:1].upper() + what[1:]


def parameterise(operations: Sequence[Operation], data: Sequence[dict[str, str]] = (),
                 sentences: Sequence[str] = ()) -> Parameters:
    """Name a parameter for every fill/select value and every expected string of the (kept) operations.

    Operation.param names the data column a value came from; that column's parameter is used only by the
    operations naming it. A literal value (no param) reuses an earlier literal parameter of equal value, never
    a column's: the column takes other values in other rows, which the literal does not. A value with a
    placeholder inside (Operation.template) is a parameter whose rows are rendered from that wording, shared
    only with the operations of the same wording.
    goto paths, pressed keys and click targets stay literal and get no parameter, except a record's data the
    locator finds the element by (see record_text): a row's text always becomes a parameter (a literal
    parameter, or the column of equal value); a target named by a value the scenario uses elsewhere (a link
    "George Franklin" that a later check expects) takes that value's parameter, so each Examples row opens its own;
    one whose name holds such a value ("Betty Davis" after a search for "Davis") gets a parameter of its own.
    Each value the tester typed or chose is a column of its own, even when two are equal (a user name and a
    password both "demo"); a check of an equal value takes the first of them. A parameter is named for what it
    holds: a field's value by the field's name in the step (field_name), an expected text by what the step's
    sentence calls it (`sentences`, by step index: 'the message "Saved" appears' -> <expectedMessage>).
    """
    result = Parameters()
    by_name: dict[str, Parameter] = {}
    by_value: dict[str, str] = {}  # literal (non-column) parameters only
    by_template: dict[str, str] = {}
    # Generated names keep clear of data columns, which may be used further on.
    reserved = {op.param for op in operations if op.param} | {key for row in data for key in row}

    def add(name: str, value: str, column: bool, template: str | None = None) -> str:
        param = Parameter(name=name, value=value, column=column, template=template)
        by_name[name] = param
        result.params.append(param)
        if template is not None:
            by_template.setdefault(template, name)
        elif not column:
            by_value.setdefault(value, name)
        return name

    for position, op in enumerate(operations):
        if not action(op.kind).valued or op.value is None:
            continue
        value = op.value
        if op.param:
            name = op.param if op.param in by_name else add(op.param, value, True)
        elif op.template is not None and op.template in by_template:
            name = by_template[op.template]
        elif op.template is None and value in by_value and action(op.kind).is_assertion:
            name = by_value[value]  # a check of a value typed (or checked) before
        else:
            if action(op.kind).param_name:
                base = _named_for_what(action(op.kind).param_name, op, sentences)
            elif op.kind == "assert_value":
                base = field_name(op) + "Shown" if field_name(op) != "value" else "expectedValue"
            else:
                base = field_name(op)
            name = add(_unique(base, set(by_name) | reserved), value, False, op.template)
        result.by_op[position] = name

    values = {}
    for param in result.params:
        if param.template is None:
            values.setdefault(param.value, param.name)
    for position, op in enumerate(operations):
        record = record_text(op)
        if record is None:
            continue
        text, anchored = record
        if text in values:
            result.by_record[position] = values[text]
            continue
        if anchored and op.locator is not None and op.locator.within is not None:
            base = camel_case(CONTAINER_WORDS.get(op.locator.within.css, "item")) + "Text"  # rowText
        elif holds_value(text, values):  # "Betty Davis" after a search for "Davis"
            base = camel_case(context_name(op.target.context if op.target else None)) or "target"
        else:
            continue
        values[text] = result.by_record[position] = add(_unique(base, set(by_name) | reserved), text, False)

    rows = list(data) or [{}]
    for row in rows:
        result.examples.append({p.name: p.row_value(row) for p in result.params})
    if not result.params:
        result.examples = []
    return result
