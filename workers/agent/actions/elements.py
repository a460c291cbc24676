"""What kind of element a page node is, from the snapshot alone (kinds use these to say what they may target)."""

from __future__ import annotations

from shared.records import Node

TEXT_TYPES = frozenset(
    {"", "text", "email", "password", "search", "tel", "url", "number"}
    | {"date", "time", "datetime-local", "month", "week"}
)
BUTTON_TYPES = frozenset({"button", "submit", "reset", "image"})


def is_textbox(n: Node) -> bool:
    if n.tag == "textarea":
        return True
    if n.tag == "input":
        return (n.input_type or "text") in TEXT_TYPES
    return n.role in ("textbox", "searchbox", "spinbutton", "combobox") and n.tag != "select"


def is_combo(n: Node) -> bool:
    return n.tag == "select" or n.role in ("combobox", "listbox")


def is_native_select(n: Node) -> bool:
    return n.tag == "select"


def is_checkable(n: Node) -> bool:
    if n.tag == "input" and n.input_type in ("checkbox", "radio"):
        return True
    return n.role in ("checkbox", "radio", "switch", "menuitemcheckbox", "menuitemradio")


def is_file_input(n: Node) -> bool:
    return n.tag == "input" and n.input_type == "file"


def is_buttonish(n: Node) -> bool:
    return n.role == "button" or n.tag == "button" or (n.tag == "input" and n.input_type in BUTTON_TYPES)


def is_headerish(n: Node) -> bool:
    if n.role in ("columnheader", "rowheader", "heading", "term"):
        return True
    return n.tag in ("label", "legend", "caption", "th", "dt")
