"""Plausible, deterministic values for form controls, from their type, names and constraints.

`value_for(node, context)` answers the text to type into a text-like control; `option_for(node)`
the option to select. Nothing here knows any particular application: the rules read the
control's type and the words of its label, aria-label, placeholder, name and id (and, for a bare
"name", the words around the form).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable

from shared.records import Node

# --- words ---------------------------------------------------------------------------


def words(*texts: str | None) -> list[str]:
    """'lastName', 'owner.last_name', 'Last Name *' -> ['last', 'name', ...], lower case."""
    out: list[str] = []
    for text in texts:
        if not text:
            continue
        spaced = re.sub(r"(?<=[a-z0-9])(?=[A-Z])", " ", text)
        out.extend(w for w in re.split(r"[^a-z0-9]+", spaced.lower()) if w)
    return out


def control_words(node: Node) -> list[str]:
    return words(node.label, node.aria_label, node.placeholder, node.title, node.name_attr, node.id_attr)


# --- options --------------------------------------------------------------------------


def is_placeholder_option(label: str | None) -> bool:
    """'', '-- choose --', 'Select a type', 'Choose...', 'Please select' are not real choices."""
    text = (label or "").strip().lower()
    return not text or text.startswith(("-", "select", "choose", "please", "pick", "(none")) or text in {"none", "..."}


def option_for(node: Node) -> str | None:
    """The first option that is not a placeholder."""
    return next((o for o in node.options if not is_placeholder_option(o)), None)


# --- constraints -------------------------------------------------------------------------


def _fits(value: str, node: Node) -> bool:
    if node.maxlength is not None and node.maxlength >= 0 and len(value) > node.maxlength:
        return False
    if node.minlength is not None and len(value) < node.minlength:
        return False
    if node.pattern:
        try:
            return re.fullmatch(f"(?:{node.pattern})", value) is not None
        except re.error:
            return True  # a JavaScript-only pattern: cannot check it here
    return True


def _adjust_length(value: str, node: Node) -> str:
    if node.maxlength is not None and node.maxlength >= 0:
        value = value[: node.maxlength]
    if node.minlength is not None and len(value) < node.minlength:
        filler = value or "x"
        while len(value) < node.minlength:
            value += filler[len(value) % len(filler)]
    return value


def fit(candidates: Iterable[str], node: Node) -> str:
    """The first candidate meeting maxlength, minlength and pattern; else one built from the pattern;
    else the first candidate cut or padded to length."""
    candidates = list(candidates)
    for value in candidates:
        if _fits(value, node):
            return value
    for value in candidates:
        adjusted = _adjust_length(value, node)
        if _fits(adjusted, node):
            return adjusted
    if node.pattern:
        sample = sample_from_pattern(node.pattern)
        if sample is not None and _fits(sample, node):
            return sample
    return _adjust_length(candidates[0], node)


_DIGITS = "5550100123"
_LETTERS = "sample"


def sample_from_pattern(pattern: str) -> str | None:
    """A string matching a simple pattern: literals, \\d \\w . and [classes] with quantifiers.

    Groups and alternation are beyond it (answers None).
    """
    pattern = pattern.strip()
    pattern = pattern[1:] if pattern.startswith("^") else pattern
    pattern = pattern[:-1] if pattern.endswith("$") and not pattern.endswith("\\$") else pattern
    out: list[str] = []
    digits = 0  # digits continue one sequence across atoms: \d{3}-\d{3}-\d{4} -> 555-010-0123
    i = 0
    while i < len(pattern):
        c = pattern[i]
        if c in "()|":
            return None
        if c == "\\" and i + 1 < len(pattern):
            esc = pattern[i + 1]
            pick = {"d": "digit", "w": "letter", "s": " "}.get(esc, esc)
            i += 2
        elif c == "[":
            end = pattern.find("]", i + 2)
            if end < 0:
                return None
            body = pattern[i + 1 : end]
            if body.startswith("^"):
                return None
            pick = "digit" if ("0-9" in body or "\\d" in body) else "upper" if "A-Z" in body and "a-z" not in body else (
                "letter" if ("a-z" in body or "A-Z" in body or "\\w" in body) else body[0]
            )
            i = end + 1
        elif c == ".":
            pick, i = "letter", i + 1
        else:
            pick, i = c, i + 1
        low, high = 1, 1
        q = re.match(r"\{(\d+)(,(\d*))?\}|[?*+]", pattern[i:])
        if q:
            i += q.end()
            if q[0] == "?" or q[0] == "*":
                low, high = 0, 1 if q[0] == "?" else 8
            elif q[0] == "+":
                low, high = 1, 8
            else:
                low = int(q[1])
                high = low if q[2] is None else (int(q[3]) if q[3] else max(low, 8))
        count = max(low, min(high, 10))
        for n in range(count):
            if pick == "digit":
                out.append(_DIGITS[digits % len(_DIGITS)])
                digits += 1
            elif pick == "letter":
                out.append(_LETTERS[n % len(_LETTERS)])
            elif pick == "upper":
                out.append(_LETTERS[n % len(_LETTERS)].upper())
            else:
                out.append(pick)
    return "".join(out)


# --- numbers and dates ------------------------------------------------------------------------


def _number(text: str | None) -> float | None:
    try:
        return float(text) if text not in (None, "") else None
    except ValueError:
        return None


def _clamp_number(default: float, node: Node) -> str:
    low, high = _number(node.min), _number(node.max)
    value = default
    if low is not None and value < low:
        value = low
    if high is not None and value > high:
        value = high
    return str(int(value)) if float(value).is_integer() else str(value)


def _clamp_iso(default: str, node: Node) -> str:
    """ISO dates and times compare as text; keep the default inside [min, max]."""
    if node.min and default < node.min:
        return node.min
    if node.max and default > node.max:
        return node.max
    return default


# --- the rules ----------------------------------------------------------------------------

_PERSON = {"owner", "user", "customer", "person", "contact", "client", "employee", "member", "author",
           "student", "patient", "account", "profile", "your", "full", "applicant", "guest", "buyer"}  # fmt: skip
_ANIMAL = {"pet", "animal", "dog", "cat", "puppy", "kitten", "horse", "bird"}
_THING = {"product", "item", "article", "book", "model"}
_ORGANISATION = {"company", "organisation", "organization", "business", "firm", "employer"}


def _name(own: set[str], around: set[str]) -> list[str]:
    if own & _PERSON:
        return ["Jane Doe"]
    if own & _ANIMAL or (around & _ANIMAL and not around & _PERSON):
        return ["Buddy"]
    if own & _THING or (around & _THING and not around & _PERSON):
        return ["Sample item"]
    if own & _ORGANISATION or (around & _ORGANISATION and not around & _PERSON):
        return ["Acme Inc"]
    return ["Jane Doe"]


Rule = tuple[Callable[[str, set[str]], bool], Callable[[Node, set[str], set[str]], list[str]]]


def _has(*tokens: str) -> Callable[[str, set[str]], bool]:
    return lambda kind, own: bool(own & set(tokens))


def _typed(*kinds: str) -> Callable[[str, set[str]], bool]:
    return lambda kind, own: kind in kinds


def _either(a: Callable[[str, set[str]], bool], b: Callable[[str, set[str]], bool]) -> Callable[[str, set[str]], bool]:
    return lambda kind, own: a(kind, own) or b(kind, own)


def _const(*values: str) -> Callable[[Node, set[str], set[str]], list[str]]:
    return lambda node, own, around: list(values)


_PHONES = ["5550100123", "555-010-0123", "(555) 010-0123", "+15550100123", "555 010 0123", "5550100"]

RULES: list[Rule] = [
    (_either(_typed("email"), _has("email", "mail")), _const("user@example.com")),
    (_either(_typed("tel"), _has("tel", "phone", "telephone", "mobile", "cell", "fax")), _const(*_PHONES)),
    (_either(_typed("url"), _has("url", "website", "homepage", "web")), _const("https://example.com")),
    (_either(_typed("password"), _has("password", "passwd", "pwd", "passphrase")), _const("Secret123!")),
    (_typed("datetime-local"), lambda n, o, a: [_clamp_iso("2020-01-15T10:30", n)]),
    (_typed("time"), lambda n, o, a: [_clamp_iso("10:30", n)]),
    (_typed("month"), lambda n, o, a: [_clamp_iso("2020-01", n)]),
    (_typed("week"), lambda n, o, a: [_clamp_iso("2020-W03", n)]),
    (_typed("color"), _const("#336699")),
    (_either(_typed("date"), _has("date", "birthday", "dob", "birthdate")), lambda n, o, a: [_clamp_iso("2020-01-15", n)]),
    (_either(_typed("number", "range"), _has("age", "quantity", "qty", "count", "amount", "price", "year", "years")),
     lambda n, o, a: [_clamp_number(30 if "age" in o else 2020 if "year" in o else 10 if o & {"price", "amount"} else 1, n)]),
    (_has("zip", "postal", "postcode", "zipcode"), _const("12345")),
    (_has("city", "town"), _const("Springfield")),
    (_has("state", "province", "region", "county"), _const("Oregon")),
    (_has("country"), _const("United States")),
    (_has("address", "street", "addr"), _const("12 Main Street")),
    (lambda k, o: bool(o & {"first", "given", "forename", "firstname"}), _const("Jane")),
    (lambda k, o: bool(o & {"last", "surname", "family", "lastname"}), _const("Doe")),
    (_has("username", "login", "user", "nickname"), _const("jane.doe")),
    (_has(*_ORGANISATION), _const("Acme Inc")),
    (_has("title", "subject", "headline"), _const("Sample title")),
    (_has("name"), lambda n, own, around: _name(own, around)),
    (_has("description", "comment", "comments", "notes", "note", "message", "remarks", "details", "bio", "about",
          "summary", "feedback", "reason"), _const("Sample description")),  # fmt: skip
    (_typed("search"), _const("sample")),
]


def value_for(node: Node, context: str = "") -> str:
    """Text to type into a text-like control. `context`: words around it (form heading and the like)."""
    kind = (node.input_type or ("textarea" if node.tag == "textarea" else "text")).lower()
    if node.role == "spinbutton" and kind == "text":
        kind = "number"
    own = set(control_words(node))
    around = set(words(context, node.context))
    for applies, produce in RULES:
        if applies(kind, own):
            return fit(produce(node, own, around), node)
    return fit(["Sample text"], node)
