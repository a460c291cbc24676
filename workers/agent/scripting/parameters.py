"""Input values and expected strings of a scenario's kept operations become Scenario Outline parameters."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass, field

from shared.records import Operation
from shared.scenarios import PLACEHOLDER
from workers.agent.actions import action
from workers.agent.actions.naming import CONTAINER_WORDS, context_name, holds_value, record_text


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
    """The field's name as a camelCase identifier: label, aria-label, placeholder, name, id, context; else 'value'."""
    target = op.target
    if target is not None:
        for text in (target.label, target.aria_label, target.placeholder, target.name_attr, target.id_attr,
                     context_name(target.context)):
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


def parameterise(operations: Sequence[Operation], data: Sequence[dict[str, str]] = ()) -> Parameters:
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
        elif op.template is None and value in by_value:
            name = by_value[value]
        else:
            if action(op.kind).param_name:
                base = action(op.kind).param_name
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
