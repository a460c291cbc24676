"""How a person names the element an operation works on, for step texts and comments (no browser, no page)."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Iterable, Sequence

from shared.records import Locator, Node, Operation
from shared.words import words_pattern

MAX_NAME = 60
_NAMED_BY = ("label", "role", "text")  # locator strategies whose value is a name a person reads


_COUNT_OR_STATE = re.compile(r"[\s\d.,:;()\[\]{}·•|/+#%-]*")


def said_within(name: str, said: str | None) -> str | None:
    """The tester's words for an element as its longer name shows them, when the rest of the name is a count or
    state ("Like" in "Like (3)", "Follow" in "Follow 12") or the name is longer than a step shows (a card link's
    whole text, its heading in it); else None."""
    said = " ".join((said or "").split())
    name = " ".join(name.split())
    if not said or len(said) >= len(name):
        return None
    found = words_pattern(said).search(name)
    if found is None:
        return None
    rest = name[: found.start()] + name[found.end():]
    if _COUNT_OR_STATE.fullmatch(rest) or len(name) > MAX_NAME:
        return found.group(0)
    return None


def visible(text: str | None) -> str:
    """The text without the characters nobody sees (zero-width spaces and joiners, soft hyphens, direction marks)."""
    return "".join(c for c in text or "" if unicodedata.category(c) != "Cf")


def clean(text: str | None) -> str:
    """A name as a step says it: what a person sees of it, on one line, without a trailing colon or star; cut with
    an ellipsis past MAX_NAME."""
    text = " ".join(visible(text).split())
    text = text.strip().rstrip(":*").strip()
    if len(text) > MAX_NAME:
        text = text[: MAX_NAME - 1].rstrip() + "…"
    return text


def context_name(context: str | None) -> str:
    """The innermost part of a node's context ("Owner Information › Telephone" -> "Telephone"), as a stable label
    (see stable_label: never a record's data)."""
    parts = [p.strip() for p in re.split(r"[›»>|/]", context or "") if p.strip()]
    return stable_label(parts[-1]) if parts else ""


_ORDER = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth")
CONTAINER_WORDS = {"tr": "row", '[role="row"]': "row", "li": "list item", '[role="listitem"]': "list item",
                    '[role="option"]': "option", "section": "section", "fieldset": "section", "form": "form",
                    "article": "article", "aside": "panel", "dialog": "dialog", '[role="region"]': "section",
                    '[role="group"]': "group", '[role="dialog"]': "dialog"}


# Containers that repeat once per record (a table row, a list item): their text is a record's data.
_RECORD_CONTAINERS = ("tr", '[role="row"]', "li", '[role="listitem"]', '[role="option"]')
_NAMING_STRATEGIES = ("role", "text", "title", "label")  # locators whose value is the element's name


def record_anchored(locator: Locator) -> bool:
    """The locator looks inside a row or list item found by its text (that text is the record's)."""
    return locator.within is not None and locator.within.css in _RECORD_CONTAINERS and bool(locator.within.text)


def record_text(op: Operation) -> tuple[str, bool] | None:
    """The text by which the op's locator finds its element that may be a record's data: (the row's text, True)
    when it looks inside a row or list item, else (the element's name, False) for a locator by name; None when
    it has neither. Step texts give it as a parameter, never as a literal (see scripting.parameters)."""
    locator = op.locator
    if locator is None or op.kind == "goto":
        return None
    if record_anchored(locator):
        return locator.within.text, True  # type: ignore[union-attr]
    if locator.strategy in _NAMING_STRATEGIES and locator.value:
        return locator.value, False
    return None


def the_container(op: Operation) -> str | None:
    """'the row of "Renew the SSL certificate"' when the element is the container its locator finds (a clickable
    row), else None: its own text is the whole record, not a name."""
    locator = op.locator
    if locator is None or locator.within is None or locator.value != ":scope":
        return None
    kind = CONTAINER_WORDS.get(locator.within.css, "item")
    return f'the {kind} of "{clean(locator.within.text)}"'


def own_name(op: Operation) -> str:
    """The target's own name (label, aria-label, placeholder, title, name or id), not its section's."""
    t = op.target
    if t is None:
        return ""
    return next((clean(v) for v in (t.label, t.aria_label, t.a11y_name, t.placeholder, t.title, t.name_attr,
                                    t.id_attr, t.icon)
                 if clean(v)), "")


def named_by_place(op: Operation) -> bool:
    """Nothing of its own names the element: its locator finds it by the row or section it is in."""
    return not own_name(op) and op.locator is not None and op.locator.within is not None


def _container(op: Operation) -> tuple[str, str]:
    """(its order there: "second" or "", where: 'in the row of "Alice"' / 'in the "Profile" section')."""
    locator = op.locator
    assert locator is not None and locator.within is not None
    order = _ORDER[locator.nth] if locator.nth is not None and 0 <= locator.nth < len(_ORDER) else ""
    kind = CONTAINER_WORDS.get(locator.within.css, "item")
    text = clean(locator.within.text)
    if kind in ("section", "form", "panel", "dialog", "group", "article"):
        return order, f'in the "{text}" {kind}'
    return order, f'in the {kind} of "{text}"'


def the_element(op: Operation, noun_word: str, name: str) -> str:
    """'the Email field'; for an element named only by where it is: 'the second field in the "Profile" section',
    'the checkbox in the row of "Water the plants"' (what its locator says)."""
    if named_by_place(op) or (not name and op.locator is not None and op.locator.within is not None):
        order, where_words = _container(op)
        return f"the {order + ' ' if order else ''}{noun_word} {where_words}"
    return f"the {name} {noun_word}" if name else f"the {noun_word}"


def the_field(op: Operation, noun_word: str) -> str:
    """A field as a comment describes it: 'the "Email" field in the "Sign in" section', or by its place only:
    'the checkbox in the row of "Water the plants"'."""
    if named_by_place(op):
        return the_element(op, noun_word, "")
    return f'the "{field_label(op)}" {noun_word}{where(op)}'


def placed(op: Operation) -> str:
    """' in the row of "Alice"', ' (the second) in the "Profile" section': where the locator looks, for a step's
    text; "" when the locator finds the element on the whole page."""
    if op.locator is None or op.locator.within is None:
        return ""
    order, where_words = _container(op)
    return f"{f' (the {order})' if order else ''} {where_words}"


def page_field_label(op: Operation) -> str:
    """How the page names the field an operation works on, in words a person reads there (label, aria name,
    placeholder, tooltip, the heading it sits under); never its `name` or `id` attribute, which only a locator
    reads; its kind ("text", "email") when nothing names it."""
    target = op.target
    names = () if target is None else (target.label, target.aria_label, target.a11y_name, target.placeholder,
                                        target.title, context_name(target.context))
    return _first_name(op, names, lambda t: t.input_type or t.role or t.tag, "page element")


def field_label(op: Operation) -> str:
    """How a step names the field an operation works on: the tester's words for it first (see tester_name), else
    the page's (page_field_label)."""
    page = page_field_label(op)
    return tester_name(op, page) or page


def page_element_name(op: Operation) -> str:
    """How the page names the thing clicked: its text, else its accessible name, label, value or icon; the words
    the locator finds it by inside a longer name (a count, a card's whole text: see candidate_locators)."""
    if op.locator is not None and not op.locator.exact:
        return clean(op.locator.value)
    target = op.target
    names = () if target is None else (target.text, target.aria_label, target.label, target.a11y_name, target.title,
                                        target.value, target.icon)
    return _first_name(op, names, lambda t: t.role or t.tag, "element")


def element_name(op: Operation) -> str:
    """How a step names the thing an operation works on: the tester's words for it first (see tester_name), else
    the page's (page_element_name)."""
    page = page_element_name(op)
    return tester_name(op, page) or page


# Words that point at an element without naming it: never a step's name for it.
_POINTING = frozenset("it this that these those them one here there item element thing".split())


def tester_name(op: Operation, page_name: str) -> str | None:
    """The tester's words for the element (what the step named it by), when a step should say them instead of the
    page's name: the part of a longer name they named where the rest is a count or state or the name is longer
    than a step shows (see said_within: "Like" in "Like (3)", a card link's title in its whole text), or any words
    where the page names the element by nothing a person reads (only its kind: "user name" for a field with a
    `name` attribute alone). None when the step named it by no words, by words that only point ("it", "this
    one"), by an attribute of the element, by the page's own name in another case, or by other words than the
    page's ("Save" for "Save draft", a "trash" icon the page calls "Delete": the step says what it clicks). The
    locator keeps the page's name either way, and the step's comment gives it where it differs
    (page_name_differs)."""
    said = clean(op.said)
    if not said or said.endswith("…") or not re.search(r"[^\W\d_]", said):
        return None
    if set(said.lower().split()) <= _POINTING:
        return None
    if " ".join(said.lower().split()) == " ".join(page_name.lower().split()):
        return None
    if not _named_by_words(op, page_name):
        return None if _an_attribute(op, said) else said
    names = [op.target.text, op.target.aria_label, op.target.a11y_name] if op.target else []
    return said if any(name and said_within(name, said) for name in names) else None


def _an_attribute(op: Operation, said: str) -> bool:
    """The words are one of the element's attributes only a locator reads (`name`, `id`, `data-testid`), as it is
    written ("j_username"; the tester's "user name" for a field named `__user_name` is their own words). Asked only
    where the page names the element by nothing a person reads: "Like" for a button with id "like" that shows
    "Like (3)" is the tester's word and the page's."""
    target = op.target
    return target is not None and said.lower() in {a.lower() for a in (target.name_attr, target.id_attr, target.testid)
                                                   if a}


def _named_by_words(op: Operation, page_name: str) -> bool:
    """The page's name for the element is words a person reads, not its kind (the fallback of _first_name)."""
    target = op.target
    if target is None:
        return False
    kinds = {k.lower() for k in (target.input_type, target.role, target.tag) if k}
    return page_name.lower() not in kinds


def page_name_differs(op: Operation) -> str | None:
    """The page's own name for the element, when the step names it otherwise (by the tester's words): for the
    step's comment."""
    if op.target is None or not op.said or the_container(op) is not None:
        return None  # a row clicked as a whole is named by its record (see with_records)
    page = page_field_label(op) if _is_field_kind(op) else page_element_name(op)
    said = tester_name(op, page)
    if not said or not _named_by_words(op, page):
        return None
    rest = words_pattern(said).sub("", page)
    return None if _COUNT_OR_STATE.fullmatch(rest) else page  # "Like (3)": a count, which changes, never a name


def _is_field_kind(op: Operation) -> bool:
    from workers.agent.actions import action  # the kinds import this module

    return action(op.kind).field


def _first_name(op: Operation, names: Sequence[str | None], kind: Callable[[Node], str], fallback: str) -> str:
    """The first of the target's names that says something, else the locator's text, else its kind."""
    for text in (*names, op.locator.value if op.locator and op.locator.strategy in _NAMED_BY else None):
        if clean(text):
            return clean(text)
    return kind(op.target) if op.target is not None else fallback


def noun(op: Operation) -> str:
    """The kind of element as a word ("button", "checkbox"); "" when its role says nothing."""
    role = (op.target.role if op.target else None) or (op.locator.role if op.locator else None) or ""
    return {"menuitem": "menu item", "radio": "radio button", "switch": "switch", "tab": "tab", "link": "link",
            "button": "button", "checkbox": "checkbox", "option": "option", "combobox": "dropdown",
            "listbox": "dropdown", "textbox": "field"}.get(role, "")


def where(op: Operation) -> str:
    """' in the row of "Betty Davis"' when the locator looks inside a container, else "": a comment says only what
    the locator says, so it stays true on every page that uses the step (never the heading it was recorded under)."""
    if op.locator is None or op.locator.within is None:
        return ""
    return " " + _container(op)[1]


_FOUND_BY = {"role": "by its role and name", "text": "by its text", "label": "by its label",
             "title": "by its title", "testid": "by its test id", "css": "by CSS selector", "id": "by its id",
             "name": "by its name attribute", "xpath": "by XPath"}


def found_by(op: Operation) -> str:
    """How the step's locator finds the element, for its comment: "by its role and name", "by CSS selector"."""
    locator = op.locator
    if locator is None:
        return ""
    how = _FOUND_BY.get(locator.strategy, f"by {locator.strategy}")
    if locator.strategy == "role" and not locator.value:
        how = "by its role"
    if locator.nth is not None:
        how = f"the {_ORDER[locator.nth] if 0 <= locator.nth < len(_ORDER) else f'#{locator.nth + 1}'} found {how}"
    return how


def holds_value(text: str, values: Iterable[str]) -> bool:
    """The text holds one of the values of 4 characters or more as whole words, any case: a record's data ("Betty
    Davis" holds "Davis"; a heading "Write the quarterly report" holds that task's title)."""
    return any(len(value) >= 4 and re.search(rf"(?<!\w){re.escape(value)}(?!\w)", text, re.IGNORECASE)
               for value in values)


_LABEL_VALUE = re.compile(r"^(?P<label>[^:]{1,40}):\s+\S")


def stable_label(text: str | None) -> str:
    """A heading or legend as a name that reads the same for every record: "Owner: David Schroeder" -> "Owner";
    "" for a text holding digits (an id, a date, a count) or nothing."""
    text = clean(text)
    found = _LABEL_VALUE.match(text)
    if found:
        text = found.group("label").strip()
    if not text or re.search(r"\d", text):
        return ""
    return text
