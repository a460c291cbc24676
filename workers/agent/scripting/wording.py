"""A step's text as segments (literal text and argument slots): each operation said as a person says it, a form's
fields said as one fill-in of that form."""

from __future__ import annotations

import json
import re
from collections.abc import Sequence

from shared.records import Operation
from workers.agent.actions import action
from workers.agent.actions.naming import clean as _clean
from workers.agent.actions.naming import (
    element_name,
    field_label,
    found_by,
    holds_value,
    noun,
    page_name_differs,
    record_text,
    stable_label,
)
from workers.agent.scripting.writer import (
    Segment,
)


def _is_field(op: Operation) -> bool:
    return action(op.kind).field


def describe(op: Operation, arg: str | None, record_arg: str | None = None) -> str:
    """The one-line comment saying what an operation does, and how its locator finds the element; the record it
    finds it by, when an argument carries it, is named by that argument."""
    comment = action(op.kind).comment(op, arg or json.dumps(op.value or ""))
    record = record_text(op) if record_arg else None
    if record is not None:
        comment = comment.replace(f'"{_clean(record[0])}"', record_arg, 1)
    how = found_by(op) if op.kind != "goto" else ""
    page_name = page_name_differs(op) if record is None else None  # a record's name is its argument's, per row
    if page_name:  # the step says the tester's words; the locator finds the element by the page's
        how = f'{how}: "{page_name}" on the page' if how else f'"{page_name}" on the page'
    return f"{comment} ({how})" if how else comment


def _phrase(op: Operation, position: int, has_arg: bool) -> list[Segment]:
    slot: list[Segment] = [position] if has_arg else [json.dumps(op.value or "", ensure_ascii=False)]
    return action(op.kind).phrase(op, slot)


def _lower_first(segments: list[Segment]) -> list[Segment]:
    if segments and isinstance(segments[0], str) and segments[0]:
        return [segments[0][0].lower() + segments[0][1:], *segments[1:]]
    return segments


def _join(phrases: list[list[Segment]]) -> list[Segment]:
    out: list[Segment] = []
    for number, phrase in enumerate(phrases):
        if number:
            out.append(" and " if number == len(phrases) - 1 else ", ")
            phrase = _lower_first(phrase)
        out.extend(phrase)
    merged: list[Segment] = []
    for segment in out:
        if isinstance(segment, str) and merged and isinstance(merged[-1], str):
            merged[-1] += segment
        else:
            merged.append(segment)
    return merged


def _context_parts(context: str | None) -> list[str]:
    """A node's context, outermost first ("Owners / New Owner" -> ["Owners", "New Owner"])."""
    return [p.strip() for p in re.split(r"[›»>|/]", context or "") if p.strip()]


def form_name(ops: Sequence[Operation]) -> str:
    """How a person names the form the fields of these operations belong to: the form's own title (its name, legend
    or heading, or a heading just before it; "" when it has none); for records read before forms had titles, the
    innermost heading, legend or caption the fields share. As a stable label: never record data ("Owner: David
    Schroeder" -> "Owner", a heading with digits -> ""). A trailing "form" is dropped ("Add Pet Form" -> "Add Pet")."""
    fields = [op for op in ops if _is_field(op)]
    if not fields or any(op.target is None for op in fields):
        return ""
    titles = {op.target.form_title for op in fields if op.target is not None}
    if titles != {None}:  # the form's own title, never a heading elsewhere on the page
        title = titles.pop() if len(titles) == 1 else ""
        return re.sub(r"(?i)(?:^|\s+)form$", "", stable_label(title)).strip()
    common: list[str] | None = None
    for op in fields:
        parts = _context_parts(op.target.context if op.target else None)
        if common is None:
            common = parts
        else:
            length = 0
            while length < min(len(common), len(parts)) and common[length] == parts[length]:
                length += 1
            common = common[:length]
    name = stable_label(common[-1]) if common else ""
    name = re.sub(r"(?i)(?:^|\s+)form$", "", name).strip()
    return name


def _form_phrase(ops: Sequence[Operation], has_args: Sequence[bool], data: frozenset[str] = frozenset()
                 ) -> list[Segment] | None:
    """`Fill in the <form> form with "<a>" as A and "<b>" as B and submit it with "<button>"`, for operations that
    fill fields of one named form and may end with its submit; None for any other group."""
    if not ops or any(op.target is None or op.target.form is None for op in ops):
        return None
    if len({op.target.form for op in ops if op.target is not None}) != 1:
        return None
    last = ops[-1]
    submit = last if action(last.kind).submits else None
    fields = list(ops[:-1]) if submit is not None else list(ops)
    if not fields or any(not _is_field(op) for op in fields):
        return None
    if submit is None and len(fields) == 1:
        # One field alone says nothing about its form, and the same field (one locator) may sit in forms
        # of other pages that reuse this step: its plain wording stays true everywhere.
        return None
    name = form_name(fields)
    if not name or holds_value(name, data):  # a heading that names a record ("Write the quarterly report")
        return None
    items: list[list[Segment]] = []
    for position, (op, has_arg) in enumerate(zip(fields, has_args[: len(fields)], strict=True)):
        if action(op.kind).valued:
            slot: list[Segment] = [position] if has_arg else [json.dumps(op.value or "", ensure_ascii=False)]
            items.append([*slot, f" as {field_label(op)}"])
        elif op.kind == "clear":
            items.append([f"{field_label(op)} cleared"])
        else:
            items.append([f"{field_label(op)} {'checked' if op.kind == 'check' else 'unchecked'}"])
    out: list[Segment] = [f"Fill in the {name} form with "]
    for number, item in enumerate(items):
        if number:
            out.append(" and " if number == len(items) - 1 else ", ")
        out.extend(item)
    if submit is not None and submit.kind == "click":
        out.append(f' and submit it with "{element_name(submit)}"')
    elif submit is not None:
        where = f" in the {field_label(submit)} field" if submit.locator is not None else ""
        out.append(f' and submit it by pressing "{submit.value or "Enter"}"{where}')
    return _join([out])


def step_segments(ops: Sequence[Operation], has_args: Sequence[bool], data: frozenset[str] = frozenset()
                  ) -> list[Segment]:
    """A step's wording before disambiguation: the form sentence when it fits (its form named by a heading that
    holds none of the scenario's `data`), else one phrase per operation."""
    form = _form_phrase(ops, has_args, data)
    if form is not None:
        return form
    return _join([_phrase(op, i, a) for i, (op, a) in enumerate(zip(ops, has_args, strict=True))])


def with_records(segments: list[Segment], ops: Sequence[Operation], records: Sequence[str | None]
                 ) -> list[Segment]:
    """The wording with each record the step's locators find elements by (a row's text, a record's name) as an
    argument slot (len(ops) + the operation's position) instead of the quoted literal: 'Click the "<owner>" link',
    'Tick the checkbox in the row of "<row>"'."""
    out = list(segments)
    for position, (op, record) in enumerate(zip(ops, records, strict=True)):
        found = record_text(op) if record is not None else None
        if found is None:
            continue
        text, anchored = found
        slot = len(ops) + position
        # The record as the wording quotes it: cleaned or raw; for a name, the one the phrase gave the element.
        names = [text, _clean(text)] + ([] if anchored else [element_name(op), field_label(op)])
        forms = [f'"{name}"' for name in dict.fromkeys(names) if name]
        for index, segment in enumerate(out):
            quoted = next((form for form in forms if isinstance(segment, str) and form in segment), None)
            if quoted is None:
                continue
            before, after = segment.split(quoted, 1)
            if not anchored and before.endswith(("Click ", "click ", "Hover over ", "hover over ")):
                before, after = before + "the ", f" {noun(op) or 'item'}" + after  # Click the "<owner>" link
            out[index : index + 1] = [part for part in (before, slot, after) if part != ""]
            break
        else:
            out += [" (", slot, ")"]
    return out
