"""High-level intents expanded against the page: fill a form, submit a form, search.

Forms are the `<form>` elements of the snapshot (controls grouped by `Node.form`); controls
outside any form make one more, unnamed group. Everything is read from generic node fields:
no rule knows any particular application.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from shared.records import Node, PageSnapshot
from workers.agent.language.phrases import Op, Unsupported

from .values import control_words, is_placeholder_option, option_for, value_for, words

_NOT_FILLABLE = {"hidden", "submit", "button", "reset", "image", "file"}
_TEXT_INPUTS = {None, "", "text", "search"}
_SEARCH_WORDS = {"search", "find", "filter", "lookup", "query", "look"}


@dataclass
class Form:
    key: int | None  # node id of the <form>, None for controls outside any form
    node: Node | None
    controls: list[Node] = field(default_factory=list)
    buttons: list[Node] = field(default_factory=list)

    def words(self) -> set[str]:
        parts: list[str | None] = []
        if self.node:
            n = self.node
            parts += [n.context, n.aria_label, n.title, n.name_attr, n.id_attr, n.label]
        parts += [c.context for c in self.controls] + [b.text or b.value for b in self.buttons]
        return {_stem(w) for w in words(*parts)}

    def heading(self) -> str:
        if self.node and self.node.context:
            return self.node.context
        return next((c.context for c in self.controls if c.context), "")

    def empty_controls(self) -> list[Node]:
        """Controls still waiting for a value (an unticked optional checkbox is not waiting)."""
        return [c for c in self.controls if is_empty(c) and (_kind(c) != "checkbox" or c.required)]


def _stem(word: str) -> str:
    return word[:-1] if len(word) > 3 and word.endswith("s") and not word.endswith("ss") else word


def _kind(node: Node) -> str:
    if node.tag == "select" or node.input_type == "select":
        return "select"
    if node.tag == "textarea" or node.input_type == "textarea":
        return "textarea"
    return (node.input_type or "text").lower()


def is_control(node: Node) -> bool:
    return node.operable and node.tag in ("input", "select", "textarea") and _kind(node) not in _NOT_FILLABLE


def is_button(node: Node) -> bool:
    if not node.operable:
        return False
    if node.tag == "input":
        return (node.input_type or "").lower() in ("submit", "image", "button")
    return node.tag == "button" or node.role == "button"


def is_empty(node: Node) -> bool:
    kind = _kind(node)
    if kind in ("checkbox", "radio"):
        return not node.checked
    if kind == "select":
        return node.value in (None, "") or is_placeholder_option(node.value)
    return node.value in (None, "")


def name_of(node: Node) -> str:
    """The words grounding can find the control by: its label, else aria-label, placeholder, ..."""
    for text in (node.label, node.aria_label, node.placeholder, node.title, node.name_attr, node.id_attr):
        if text and text.strip():
            return re.sub(r"[\s:*]+$", "", text.strip()) or text.strip()
    return ""


def forms_of(snapshot: PageSnapshot) -> list[Form]:
    forms: dict[int | None, Form] = {}
    for node in snapshot.nodes:
        if node.tag == "form":
            forms.setdefault(node.id, Form(node.id, node))
    for node in snapshot.nodes:
        if is_control(node) or is_button(node):
            form = forms.setdefault(node.form, Form(node.form, None))
            (form.controls if is_control(node) else form.buttons).append(node)
    return [f for f in forms.values() if f.controls or f.buttons]


_UNNAMING = {"form", "page", "the", "field", "fields", "this", "new", "a", "an", "that", "current", "main", "my"}


def _named(forms: list[Form], subject: str) -> list[Form]:
    """The forms sharing the most words with `subject` ('owner', 'search'); all of them when it names
    nothing. Raises `Unsupported` when it names a form no form on the page matches."""
    wanted = {_stem(w) for w in words(subject)} - _UNNAMING
    if not wanted or not forms:
        return forms
    best = max(len(wanted & f.words()) for f in forms)
    if best == 0:
        raise Unsupported(f"the page has no form matching {subject!r} (no form's heading, name or buttons say so)")
    return [f for f in forms if len(wanted & f.words()) == best]


def _choose(forms: list[Form], subject: str, weight) -> Form | None:
    """The form named by `subject` (most shared words), then the highest `weight`, then the first."""
    named = _named(forms, subject)
    if not named:
        return None
    return max(enumerate(named), key=lambda t: (weight(t[1]), -t[0]))[1]


def submit_button(form: Form) -> Node | None:
    explicit = [b for b in form.buttons if (b.input_type or "").lower() in ("submit", "image")]
    plain = [b for b in form.buttons if (b.input_type or "").lower() not in ("button", "reset")]
    if form.key is None:
        return explicit[0] if explicit else None  # outside a form only an explicit submit button counts
    return (explicit or plain or [None])[0]


def _button_name(node: Node) -> str:
    return (node.text or node.value or node.aria_label or node.title or "").strip()


def _submit_ops(form: Form, focus: Node | None) -> list[Op]:
    button = submit_button(form)
    if button is not None and _button_name(button):
        return [Op("click", target=_button_name(button), role_hint="button")]
    typed = focus or next((c for c in form.controls if _kind(c) in _TEXT_INPUTS | {"email", "tel", "password"}), None)
    if typed is not None and name_of(typed):
        return [Op("press", target=name_of(typed), role_hint="field", value="Enter")]
    raise Unsupported("the form has no submit button to click and no field to press Enter in")


# --- the macros ----------------------------------------------------------------------------


def fill_form(snapshot: PageSnapshot, subject: str) -> tuple[Form, list[Op]]:
    """One fill/select/check per empty control of the relevant form, in document order."""
    named = _named(forms_of(snapshot), subject)
    forms = [f for f in named if f.empty_controls()]
    form = _choose(forms, "", lambda f: len(f.empty_controls()))
    if form is None:
        if subject and named:
            raise Unsupported(f"the {subject} form has no empty field to fill in")
        raise Unsupported("the page has no form with an empty field to fill in")
    ops: list[Op] = []
    radio_groups: set[str] = set()
    for node in form.controls:
        kind = _kind(node)
        target = name_of(node)
        if not target or not is_empty(node):
            continue
        if kind == "checkbox":
            if node.required:
                ops.append(Op("check", target=target, role_hint="checkbox"))
        elif kind == "radio":
            group = node.name_attr or target
            if group in radio_groups or _radio_group_checked(form, node):
                continue
            radio_groups.add(group)
            ops.append(Op("check", target=target, role_hint="radio"))
        elif kind == "select":
            option = option_for(node)
            if option is not None:
                ops.append(Op("select", target=target, role_hint="dropdown", value=option))
        else:
            ops.append(Op("fill", target=target, role_hint="field", value=value_for(node, form.heading())))
    if not ops:
        raise Unsupported("the form has no empty field the builtin brain can fill in")
    return form, ops


def _radio_group_checked(form: Form, radio: Node) -> bool:
    return bool(radio.name_attr) and any(
        c.checked for c in form.controls if _kind(c) == "radio" and c.name_attr == radio.name_attr
    )


def submit_form(snapshot: PageSnapshot, subject: str, current: Form | None) -> tuple[Form, list[Op]]:
    """A click on the submit button of the form just filled, else the named form, else the main one."""
    form = current
    if form is None or subject:
        forms = [f for f in forms_of(snapshot) if f.key is not None or submit_button(f)]
        form = _choose(forms, subject, lambda f: len(f.controls))
    if form is None:
        raise Unsupported("the page has no form to submit")
    return form, _submit_ops(form, None)


def named_so(form: Form, subject: str) -> str:
    """The words a step named the form by when the form's own words (heading, name, labels, buttons) hold every one of
    them ('owner' for "Add Owner"), else "": words it was chosen by, not words it only shared most of."""
    wanted = [w for w in words(subject) if _stem(w) not in _UNNAMING and w.lower() not in _UNNAMING]
    return " ".join(wanted) if wanted and {_stem(w) for w in wanted} <= form.words() else ""


def searches(form: Form) -> bool:
    """The form is a search: a search field, or words that say so (a "Find Owners" form)."""
    return any(_is_search_like(c) for c in form.controls) or bool(_SEARCH_WORDS & form.words())


def _is_search_like(node: Node) -> bool:
    return (node.input_type or "").lower() == "search" or node.role == "searchbox" or "search" in control_words(node)


def search(snapshot: PageSnapshot, value: str, subject: str) -> tuple[Form, list[Op]]:
    """Type `value` into the search field and submit its form (or press Enter)."""
    forms = forms_of(snapshot)
    pairs = [(f, c) for f in forms for c in f.controls if _is_search_like(c)]
    if not pairs:
        single = [(f, texts[0]) for f in forms if len(texts := [c for c in f.controls if _is_text(c)]) == 1]
        pairs = single
    if not pairs:
        raise Unsupported("the page has no search field (nor a form with a single text field)")
    if len(pairs) > 1:
        # the subject's words ("owners") and search words, matched against each form and field
        wanted = {_stem(w) for w in words(subject)} | _SEARCH_WORDS

        def score(pair: tuple[Form, Node]) -> int:
            return len(wanted & (pair[0].words() | {_stem(w) for w in control_words(pair[1])}))

        ranked = sorted(pairs, key=score, reverse=True)
        if score(ranked[0]) == score(ranked[1]):
            names = ", ".join(repr(name_of(c)) for _, c in pairs)
            raise Unsupported(f"several fields could be the search field ({names}); name the field instead")
        pairs = ranked[:1]
    form, control = pairs[0]
    target = name_of(control)
    if not target:
        raise Unsupported("the search field has no label, placeholder or name to find it by")
    fill = Op("fill", target=target, role_hint="field", value=value)
    button = submit_button(form)
    if button is not None and _button_name(button):
        return form, [fill, Op("click", target=_button_name(button), role_hint="button")]
    return form, [fill, Op("press", target=target, role_hint="field", value="Enter")]


_SIGN_IN_WORDS = re.compile(r"\b(?:sign|log)\s*(?:in|on)\b|\blogin\b|\bcontinue\b|\bsubmit\b|\benter\b", re.I)


def sign_in(snapshot: PageSnapshot, user: str, password: str) -> tuple[Form, list[Op]]:
    """Type the user name (when given) into the field before the password field, the password into it, then
    submit: the sign-in form's button, else a Sign in / Log in button on the page, else Enter in the password."""
    candidates = [f for f in forms_of(snapshot) if any(_kind(c) == "password" for c in f.controls)]
    if not candidates:
        raise Unsupported("the page has no password field to sign in with")
    form = max(enumerate(candidates), key=lambda t: (bool(_SIGN_IN_WORDS.search(" ".join(t[1].words()))), -t[0]))[1]
    secret = next(c for c in form.controls if _kind(c) == "password")
    ops: list[Op] = []
    if user:
        before = [c for c in form.controls if c.id < secret.id and _kind(c) in _TEXT_INPUTS | {"email", "tel"}]
        if not before or not name_of(before[-1]):
            raise Unsupported("the sign-in form has no user name field before its password field")
        ops.append(Op("fill", target=name_of(before[-1]), role_hint="field", value=user))
    if not name_of(secret):
        raise Unsupported("the password field has no label, placeholder or name to find it by")
    ops.append(Op("fill", target=name_of(secret), role_hint="field", value=password))
    button = submit_button(form)
    if button is None or not _button_name(button):
        button = next((b for b in snapshot.nodes if is_button(b) and _SIGN_IN_WORDS.search(_button_name(b))), None)
    if button is not None and _button_name(button):
        return form, ops + [Op("click", target=_button_name(button), role_hint="button")]
    return form, ops + [Op("press", target=name_of(secret), role_hint="field", value="Enter")]


def _is_text(node: Node) -> bool:
    return node.tag == "input" and (node.input_type or "").lower() in _TEXT_INPUTS
