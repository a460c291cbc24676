"""Deterministic text-similarity scoring of page nodes against an intent's target phrase.

Tokens
    lowercase; camelCase / snake_case / kebab-case split (``lastName`` -> ``last name``);
    punctuation stripped; light stemming (plural ``s``/``es``/``ies``, ``ing``, ``ed``); stopwords
    and role words (``field``, ``button``, ``link``, ...) dropped.  Token similarity: equal 1.0,
    prefix 0.8 / substring 0.75 (shorter at least half the longer, 3+ letters), one edit 0.8 (5+
    letters); adjacent tokens also match their concatenation (``last name`` ~ ``lastname``).

Head and qualifier
    The target phrase is split at its first preposition that has words on both sides:
    ``"Edit link for George Franklin"`` -> head ``edit``, qualifier ``george franklin``.
    Head tokens are looked for in the node's *own* fields (label, aria-label, placeholder, visible
    text, title, button value, testid; name/id at 0.8) and count only half when found in the node's
    context (heading, legend, caption, row/column headers), so context alone never satisfies the
    head ("billing zip" still finds Zip under the legend "Billing address"); qualifier tokens count
    fully from own fields or context.  For ``assert_value`` the element is named by its label or row header, so context
    parts count as own fields and the node's own text counts 0.7.

Score (leaf), in [0, 1]
    ``raw = 0.52*coverage + 0.20*head_coverage + 0.15*precision + 0.08*exact + 0.05*literal``
    where coverage is over all target tokens, precision is the share of the best own field's tokens
    that the target covers, exact is 1 when that field's stemmed tokens equal the head, literal is 1
    when an own field reads exactly the target phrase (case and punctuation aside, no stemming).  Option bonus for select
    intents (+0.1 when an option matches ``intent.value``).  The result is multiplied by the action
    compatibility (fill -> textbox-like, select -> combobox/listbox, check -> checkbox/radio/switch,
    click -> operable, else 0 or a penalty) and the role-hint compatibility.

Acceptance (THRESHOLD)
    A node is acceptable when ``score >= THRESHOLD`` (0.5).  The coverage gate guarantees that any
    node with ``coverage < 2/3`` or ``head_coverage < 2/3`` is halved and so stays below 0.5:
    "Delete Owner" never matches "Add Owner" (coverage 1/2). So is a short name (up to four words) that has a word
    of its own where a short target has another: "Archive selected items" never matches "Remove selected items"
    (coverage 2/3, but a word swapped, not left out).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache

from shared.records import Intent, Node, PageSnapshot
from workers.agent.actions import action
from workers.agent.actions.elements import is_buttonish, is_checkable, is_combo, is_file_input, is_textbox
from workers.agent.language.icons import glyph_purpose, icon_words

__all__ = [
    "THRESHOLD",
    "MIN_COVERAGE",
    "tokenize",
    "score",
    "score_region",
    "leaf_details",
    "LeafScore",
    "is_candidate",
]

THRESHOLD = 0.5
MIN_COVERAGE = 2 / 3
_EPS = 1e-9

STOPWORDS = frozenset(
    "the a an in into on of to for with at by from and or is are its it this that named called "
    "labeled labelled titled which whose there".split()
)
ROLE_WORDS = frozenset(
    "field button link box input dropdown menu checkbox tab page section textbox textfield combobox "
    "select radio row form".split()
)
_VALUE = ("value",)  # "the value dropdown": the one holding the value, unless one is named so
PREPOSITIONS = ("for", "in", "inside", "within", "under", "of", "near", "beside", "next", "at", "on", "from")

_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])")
_WORD = re.compile(r"[^\W_]+", re.UNICODE)
_APOS = re.compile(r"['\u2019]s\b|['\u2019]")


def _stem(w: str) -> str:
    if len(w) > 4 and w.endswith("ies"):
        return w[:-3] + "y"
    if len(w) > 4 and w.endswith(("ches", "shes", "sses", "xes", "zes")):
        return w[:-2]
    if len(w) > 3 and w.endswith("s") and not w.endswith(("ss", "us", "is")):
        return w[:-1]
    if len(w) > 5 and w.endswith("ing"):
        return w[:-3]
    if len(w) > 4 and w.endswith("ed") and not w.endswith("eed"):
        return w[:-2]
    return w


@lru_cache(maxsize=8192)
def _words(text: str) -> tuple[str, ...]:
    text = _APOS.sub("", text)  # owner's -> owner, don't -> dont
    return tuple(_WORD.findall(_CAMEL.sub(" ", text).lower()))


@lru_cache(maxsize=8192)
def tokenize(text: str | None, drop_roles: bool = True) -> tuple[str, ...]:
    """Content tokens of a phrase (stopwords and, by default, role words dropped; stemmed)."""
    if not text:
        return ()
    out = []
    for w in _words(text):
        if w in STOPWORDS or (drop_roles and w in ROLE_WORDS):
            continue
        out.append(_stem(w))
    return tuple(out)


def name_tokens(text: str | None) -> tuple[str, ...]:
    """A name's content tokens; a name of role words only keeps them ("Menu"), and one of stopwords only keeps
    those ("And", "Or": two dropdowns a query builder names by the word that joins its filters)."""
    return tokenize(text) or tokenize(text, drop_roles=False) or tuple(_stem(w) for w in _words(text or ""))


def _split_target(text: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """(head tokens, qualifier tokens) of a target phrase."""
    words = _words(text)
    for i, w in enumerate(words):
        if w in PREPOSITIONS and 0 < i < len(words) - 1:
            head = tokenize(" ".join(words[:i]))
            qual = tokenize(" ".join(words[i + 1 :]))
            if head and qual:
                return head, qual
    return name_tokens(text) or tokenize(glyph_purpose(text), drop_roles=False), ()


@lru_cache(maxsize=65536)
def _sim(a: str, b: str) -> float:
    if a == b:
        return 1.0
    la, lb = len(a), len(b)
    short, long_ = (a, b) if la <= lb else (b, a)
    ls, ll = len(short), len(long_)
    if ls >= 3 and ls * 2 >= ll:
        if long_.startswith(short):
            return 0.8
        if short in long_ and ls >= 4:
            return 0.75
    if ls >= 5 and ll - ls <= 1 and _one_edit(short, long_):
        return 0.8
    return 0.0


def _one_edit(a: str, b: str) -> bool:
    if len(a) == len(b):
        return sum(x != y for x, y in zip(a, b)) == 1
    i = 0
    while i < len(a) and a[i] == b[i]:
        i += 1
    return a[i:] == b[i + 1 :]


def _field_sim(tok: str, field: tuple[str, ...], joined: frozenset[str]) -> float:
    best = 0.0
    for f in field:
        s = _sim(tok, f)
        if s > best:
            best = s
            if s == 1.0:
                return 1.0
    if tok in joined:
        return 1.0
    return best


def _pairs(toks: tuple[str, ...]) -> frozenset[str]:
    return frozenset(toks[i] + toks[i + 1] for i in range(len(toks) - 1))


# --- node categories ---------------------------------------------------------------

def is_candidate(n: Node, root: int = 0) -> bool:
    """Nodes that can be the answer: leaves, operable elements, elements with text."""
    return n.id != root and (not n.children or n.operable or bool(n.text))


def _action_compat(kind: str, n: Node) -> float:
    return action(kind).eligible(n)


_HINTS: dict[str, str] = {
    "button": "button", "btn": "button", "submit": "button",
    "link": "link", "hyperlink": "link",
    "field": "field", "textbox": "field", "input": "field", "textfield": "field",
    "textarea": "field", "box": "field", "searchbox": "field",
    "dropdown": "dropdown", "select": "dropdown", "combobox": "dropdown", "listbox": "dropdown",
    "menu": "dropdown",
    "checkbox": "checkbox", "radio": "checkbox", "toggle": "checkbox", "switch": "checkbox",
    "tab": "tab",
}


def _hint(intent: Intent) -> str | None:
    if intent.role_hint:
        h = intent.role_hint.strip().lower().replace(" ", "")
        for key in (h, h.replace("-", "")):
            if key in _HINTS:
                return _HINTS[key]
        if h.endswith("field") or h.endswith("box"):
            return "field"
        return None
    if intent.target:
        hint = None
        for w in _words(intent.target):
            if w in _HINTS and w in ROLE_WORDS:
                hint = _HINTS[w]
        return hint
    return None


def _hint_for(intent: Intent, n: Node) -> str | None:
    """The kind of element the target's words ask for, unless the element's own name holds that word: a button
    named "Account menu" is what "Account menu" names, whatever a menu is."""
    hint = _hint(intent)
    if hint is None or intent.role_hint or not intent.target:
        return hint
    name = " ".join(_words(" ".join(t for t in (n.label, n.aria_label, n.title, n.a11y_name, n.placeholder, n.text)
                                    if t)))
    said = [w for w in _words(intent.target) if w in _HINTS and w in ROLE_WORDS]
    return None if any(re.search(rf"\b{w}\b", name) for w in said) else hint


def _hint_compat(hint: str | None, n: Node) -> float:
    if hint is None:
        return 1.0
    if hint == "button":
        if is_buttonish(n):
            return 1.0
        if n.role == "link":
            return 0.9
        return 0.8 if n.operable else 0.3
    if hint == "link":
        if n.role == "link":
            return 1.0
        if is_buttonish(n):
            return 0.9
        return 0.8 if n.operable else 0.3
    if hint == "field":
        if is_textbox(n) or is_file_input(n):
            return 1.0
        return 0.8 if is_combo(n) else 0.3
    if hint == "dropdown":
        if is_combo(n):
            return 1.0
        # a dropdown drawn without a <select>: a button or link showing its current value opens its options
        return 0.7 if is_buttonish(n) or n.role == "link" else 0.6 if is_textbox(n) else 0.3
    if hint == "checkbox":
        return 1.0 if is_checkable(n) else 0.3
    if hint == "tab":
        return 1.0 if n.role == "tab" else 0.8
    return 1.0


# --- fields ---------------------------------------------------------------------------


def _names_nothing(label: str | None) -> bool:
    """No label, or one that is a hint rather than a name: a sentence ('You may use WikiFormatting here.')."""
    words = (label or "").split()
    return not words or len(words) >= 4 or words[-1].endswith(".")


def _editor(n: Node) -> bool:
    """A text area or a rich-text editor (an element drawn as a text box that is no <input>)."""
    return n.input_type == "textarea" or (n.role == "textbox" and n.tag != "input")


def _own_fields(intent: Intent, n: Node) -> list[tuple[float, str]]:
    """(weight, text) of the fields that name the node itself."""
    fields: list[tuple[float, str | None]] = [
        (1.0, n.label),
        (1.0, n.aria_label),
        (0.95, n.placeholder),
        (0.9, n.title),
        (0.9, n.testid),
        (0.8, n.name_attr),
        (0.8, n.id_attr),
        (1.0, n.a11y_name),
        (0.9, n.icon),
        (0.95, n.line),
        (0.9, n.box_title),
    ]
    fields.extend((0.85, word) for word in icon_words(n))
    if (action(intent.kind).field or _hint(intent) == "field") and is_textbox(n) and not (
            n.label or n.aria_label or n.placeholder or n.title or n.a11y_name):
        fields.append((0.9, n.form_title))  # a field nothing names, in a form titled "Search": the Search field
    if (action(intent.kind).field or _hint(intent) == "field") and _editor(n) and _context_parts(n) \
            and _names_nothing(n.label or n.aria_label):
        # a text area or editor is titled by the heading or legend over it ("Add Comment"), whatever hint its label
        # gives ("You may use WikiFormatting here."): two under one title tie, and the step says which
        fields.append((0.9, _context_parts(n)[0]))
    if intent.kind == "assert_value":
        fields.append((0.7, n.text))
        for part in _context_parts(n):
            fields.append((1.0, part))
    else:
        fields.append((1.0, n.text))
    if is_buttonish(n) and n.tag == "input":
        fields.append((1.0, n.value))
    if is_combo(n) and _hint(intent) == "dropdown":
        fields.append((0.9, n.value))  # 'the dropdown showing "Everything"': the option it shows
    return [(w, t) for w, t in fields if t]


def _context_parts(n: Node) -> list[str]:
    return [p for p in (n.context or "").split(" / ") if p.strip()]


@dataclass(frozen=True)
class LeafScore:
    score: float
    coverage: float
    head_coverage: float
    precision: float
    exact: bool


def _norm_value(s: str | None) -> str:
    return " ".join((s or "").lower().split())


def _option_match(intent: Intent, n: Node) -> float:
    """1.0 when an option equals intent.value, 0.7 when its tokens all match, else 0."""
    if not intent.value or not n.options:
        return 0.0
    want = _norm_value(intent.value)
    if any(_norm_value(o) == want for o in n.options):
        return 1.0
    wt = tokenize(intent.value, drop_roles=False)
    if wt and any(set(wt) <= set(tokenize(o, drop_roles=False)) for o in n.options):
        return 0.7
    return 0.0


def _token_credit(target: tuple[str, ...], tpairs: list[tuple[str, int]], toks: tuple[str, ...],
                  joined: frozenset[str]) -> list[float]:
    """How well one field covers each target token; a field word made of two adjacent target tokens
    ("lastname" for "last name") covers both."""
    fset = set(toks)
    per = [_field_sim(t, toks, joined) for t in target]
    for pair, i in tpairs:
        if pair in fset:
            per[i] = per[i + 1] = 1.0
    return per


def _literal(text: str | None) -> str:
    return " ".join(re.sub(r"[^\w\s]", " ", (text or "").lower()).split())


def leaf_details(intent: Intent, node: Node) -> LeafScore:
    """The score of one node with its parts (see the module docstring)."""
    kind = intent.kind
    compat = _action_compat(kind, node) * _hint_compat(_hint_for(intent, node), node)
    if compat <= 0.0:
        return LeafScore(0.0, 0.0, 0.0, 0.0, False)
    head, qual = _split_target(intent.target or "")
    # "Select Cats from the dropdown", "pick Cats in the value dropdown" (of a row whose other dropdown holds
    # "is" / "is not"): the dropdown that offers the option; one labelled "Value" still wins by its name.
    by_options = None
    if kind == "select" and is_combo(node) and (not head or (head == _VALUE and not qual)):
        om = _option_match(intent, node)
        by_options = LeafScore(round(0.8 * om * compat, 6), om, om, 0.0, False)
    if not head and kind == "select" and not (intent.target or "").strip() and intent.value and not is_combo(node):
        # 'Select "Backend"' with no dropdown said: the dropdowns offer it (above), else the element of that name
        return leaf_details(intent.model_copy(update={"kind": "click", "target": intent.value}), node)
    if not head:  # a target of signs only ('the dropdown showing "---------"'): a field that says exactly that
        signs = " ".join((intent.target or "").split())
        if signs and any(" ".join(text.split()) == signs for _, text in _own_fields(intent, node)):
            return LeafScore(round(compat, 6), 1.0, 1.0, 1.0, True)
        return by_options or LeafScore(0.0, 0.0, 0.0, 0.0, False)

    own = []
    for w, text in _own_fields(intent, node):
        toks = name_tokens(text)
        if toks:
            own.append((w, toks, _pairs(toks)))
    ctx = []
    if kind != "assert_value":
        for part in _context_parts(node):
            toks = tokenize(part)
            if toks:
                ctx.append((toks, _pairs(toks)))

    target = head + qual
    tpairs = [(target[i] + target[i + 1], i) for i in range(len(target) - 1)]
    # per-token credit from own fields, remembering which field gave most to the head
    own_credit = [0.0] * len(target)
    field_head_sum = [0.0] * len(own)
    for fi, (w, toks, joined) in enumerate(own):
        for i, s in enumerate(_token_credit(target, tpairs, toks, joined)):
            if s * w > own_credit[i]:
                own_credit[i] = s * w
            if i < len(head):
                field_head_sum[fi] += s * w
    credit = list(own_credit)
    for toks, joined in ctx:
        for i, s in enumerate(_token_credit(target, tpairs, toks, joined)):
            c = s * (0.5 if i < len(head) else 1.0)
            if c > credit[i]:
                credit[i] = c

    n_head = len(head)
    head_cov = sum(credit[:n_head]) / n_head  # context counts half for head tokens: never enough alone
    coverage = sum(credit) / len(target)

    precision = 0.0
    exact = False
    swapped = False
    if own:
        best = max(range(len(own)), key=lambda i: (field_head_sum[i], -len(own[i][1])))
        _, btoks, _ = own[best]
        if field_head_sum[best] > 0:
            matched = sum(1 for f in btoks if any(_sim(f, t) >= 0.7 for t in target))
            precision = matched / len(btoks)
            exact = sorted(btoks) == sorted(head) or sorted(btoks) == sorted(target)
            # A short name with a word of its own where the target has another ("Remove selected items" for
            # "Archive selected items"): another control, not the same one said loosely.
            # (the head only: words of the place after it, "from the Files list", are not the control's name)
            unmatched = [t for t in head if not any(_sim(f, t) >= 0.7 for f in btoks)]
            swapped = bool(unmatched) and matched < len(btoks) and len(btoks) <= 4 and len(head) <= 4

    # Literal: a field says exactly the target phrase, before stemming ("Find Owner" over "Find owners").
    wanted = _literal(intent.target)
    literal = bool(wanted) and any(_literal(text) == wanted for _, text in _own_fields(intent, node))
    raw = (0.52 * coverage + 0.20 * head_cov + 0.15 * precision + 0.08 * (1.0 if exact else 0.0)
           + 0.05 * (1.0 if literal else 0.0))
    gated = coverage + _EPS < MIN_COVERAGE or head_cov + _EPS < MIN_COVERAGE or swapped
    if gated:
        raw *= 0.5
    else:
        if kind == "select" and is_combo(node):
            raw += 0.1 * _option_match(intent, node)
        if action(kind).is_assertion and intent.value:
            want = _norm_value(intent.value)
            if want and want in (_norm_value(node.text), _norm_value(node.value)):
                raw += 0.05
    s = min(1.0, raw) * compat
    named = LeafScore(round(s, 6), coverage, head_cov, precision, exact)
    return by_options if by_options is not None and by_options.score > named.score else named


def score(intent: Intent, node: Node) -> float:
    """Similarity of a node (as a leaf) to the intent's target, in [0, 1]; acceptable when >= THRESHOLD."""
    return leaf_details(intent, node).score


# --- regions --------------------------------------------------------------------------


def _region_texts(snap: PageSnapshot, n: Node) -> Iterable[str]:
    for t in (n.aria_label, n.label, n.title):
        if t:
            yield t
    for cid in n.children:
        c = snap.nodes[cid]
        if c.role == "heading" or c.tag in ("legend", "caption", "h1", "h2", "h3", "h4", "h5", "h6"):
            if c.text:
                yield c.text


def region_bonus(intent: Intent, snap: PageSnapshot, node_id: int, best_leaf: int | None) -> float:
    """Up to 0.1 for target words the region's own heading/legend/caption/label names and its best leaf does not."""
    head, qual = _split_target(intent.target or "")
    target = head + qual
    if not target:
        return 0.0
    rtoks: set[str] = set()
    for t in _region_texts(snap, snap.nodes[node_id]):
        rtoks.update(tokenize(t))
    if not rtoks:
        return 0.0
    leaf_toks: set[str] = set()
    if best_leaf is not None:
        leaf = snap.nodes[best_leaf]
        for _, t in _own_fields(intent, leaf):
            leaf_toks.update(tokenize(t))
        for p in _context_parts(leaf):
            leaf_toks.update(tokenize(p))
    extra = 0
    for t in target:
        in_region = any(_sim(t, r) >= 0.7 for r in rtoks)
        in_leaf = any(_sim(t, r) >= 0.7 for r in leaf_toks)
        if in_region and not in_leaf:
            extra += 1
    return 0.1 * extra / len(target)


def best_leaf(
    intent: Intent, snap: PageSnapshot, node_id: int, cache: dict[int, LeafScore] | None = None
) -> tuple[float, int | None]:
    """(best candidate score, its node id) in the subtree of ``node_id`` (ties: tie-break key)."""
    cache = {} if cache is None else cache
    best: tuple[float, int | None] = (0.0, None)
    best_key = None
    stack = [node_id]
    while stack:
        nid = stack.pop()
        n = snap.nodes[nid]
        stack.extend(n.children)
        if not is_candidate(n, snap.root):
            continue
        ls = cache.get(nid)
        if ls is None:
            ls = cache[nid] = leaf_details(intent, n)
        key = tie_key(ls.score, ls.exact, n)
        if best_key is None or key < best_key:
            best_key, best = key, (ls.score, nid)
    return best


def tie_key(s: float, exact: bool, n: Node) -> tuple:
    """Sort key, smallest first: higher score, exact match, higher on page (y, then x), document order."""
    return (-round(s, 6), 0 if exact else 1, round(n.bbox[1], 1), round(n.bbox[0], 1), n.id)


def score_region(intent: Intent, snap: PageSnapshot, node_id: int, cache: dict[int, LeafScore] | None = None) -> float:
    """Score of an inner node: its best leaf's score plus the region bonus, capped at 1."""
    s, leaf = best_leaf(intent, snap, node_id, cache)
    if leaf is None:
        return 0.0
    return round(min(1.0, s + region_bonus(intent, snap, node_id, leaf)), 6)
