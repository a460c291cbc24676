"""Shared pieces of the model-based grounders (``model_hte`` and ``som``).

Eligibility
    The elements a grounder may answer with.  ``click``, ``fill``, ``select``, ``check``,
    ``uncheck`` and ``press``: operable elements only.  ``assert_value`` (and ``assert_text`` /
    ``goto``, should they ever be grounded): every candidate of ``scoring.is_candidate`` (leaves,
    operable elements, text-bearing elements), since a value can be shown by plain text.  The root
    is never eligible.

Summaries (what the model reads about a node)
    ``describe(node)``: one element, ``kind "name"`` plus placeholder, options, checked state,
    current value and context (``near "…"``), each part clipped.  ``summarize(intent, snap, id)``:
    a leaf is described; a region is ``<tag> role #id "name"``, its headings (heading, legend,
    caption; 2 at most) and up to ``MAX_ITEMS`` of its eligible elements, described without value
    and context (so filling a field leaves its region's summary, and cache key, as it was).  When a
    region holds more, the ones kept are those with the best text score for the intent
    (``scoring.leaf_details``), shown in document order with ``+N more``.  A summary is at most
    ``MAX_SUMMARY`` characters.

Pictures
    ``picture_of(view)`` decodes the view's one full-page screenshot (taken once by ``PageView``).
    Node boxes are viewport coordinates: a box maps onto the picture at ``(x + scrollX, y +
    scrollY) * devicePixelRatio``, rounded, clamped to the picture.  A region whose own box is empty
    (say a container of floats) uses the union of its descendants' boxes.  A crop with no area left
    is sent as a small grey placeholder (so the pictures stay one per listed item, in order) and the
    prompt says so.  Crops with a side over ``max_side`` (1536 px) are scaled down, keeping the
    aspect ratio.  Every Pillow failure (empty or corrupt screenshot, an image too large to decode)
    becomes a ``ScreenshotError``: a ``ModelError``, so the scenario run turns it into an ``error``
    verdict like any other failure of model-based grounding.

Replies
    Both grounders ask for ``CHOICE_SCHEMA``: ``{"choice": int | null, "ranked": [int], "reason":
    str}`` (strict-compatible).  ``read_choice`` turns it into 0-based positions, choice first: a
    null choice, or a number outside 1..n, means "none" (no re-ask: a model that miscounts rarely
    does better on a second try, and a call is what the grounders save).  ``ranked`` numbers out
    of range or repeated are dropped.  ``ranked_candidates`` gives the answers distinct scores
    1.0, 0.9, 0.8, … (never a tie: the caller refuses ties between differently named elements).
"""

from __future__ import annotations

import hashlib
import io
import json
import math
from collections import OrderedDict
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass
from typing import Any

from PIL import Image, ImageDraw, ImageFont
from playwright.sync_api import Error as PlaywrightError

from shared.records import Candidate, Intent, Node, PageSnapshot
from workers.agent.actions import action
from workers.agent.execution.view import PageView
from workers.agent.model.errors import ModelError

from .scoring import is_buttonish, is_candidate, is_textbox, leaf_details, tie_key

__all__ = [
    "CHOICE_SCHEMA",
    "DecisionCache",
    "GroundingStats",
    "MAX_ITEMS",
    "MAX_SUMMARY",
    "MAX_SIDE",
    "Picture",
    "ScreenshotError",
    "blank_png",
    "describe",
    "eligible",
    "eligible_counts",
    "intent_lines",
    "path_to",
    "picture_of",
    "ranked_candidates",
    "read_choice",
    "region_box",
    "summarize",
]

MAX_ITEMS = 6  # eligible elements listed in a region's summary
MAX_SUMMARY = 400  # characters of one summary
MAX_FIELD = 60  # characters of one name, placeholder, context
MAX_SIDE = 1536  # longest side of a crop sent to the model

CHOICE_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "choice": {"type": ["integer", "null"]},
        "ranked": {"type": "array", "items": {"type": "integer"}},
        "reason": {"type": "string"},
    },
    "required": ["choice", "ranked", "reason"],
    "additionalProperties": False,
}



class ScreenshotError(ModelError):
    """The page screenshot is missing, empty or cannot be decoded; grounding by pictures cannot go on."""


@dataclass
class GroundingStats:
    """What a model-based grounder spent, and what it saved (for the benchmark)."""

    locates: int = 0
    calls: int = 0  # ask_json requests made (the client's own retries and re-asks are in client.usage())
    images: int = 0  # pictures sent with those calls
    cache_hits: int = 0  # decisions answered from the decision cache
    chain_skips: int = 0  # levels with a single child passed without a call
    single_skips: int = 0  # levels where only one child holds an eligible element, passed without a call
    direct_picks: int = 0  # subtrees with exactly one eligible element, taken without a call

    @property
    def saved(self) -> int:
        """Decisions made without a model call."""
        return self.cache_hits + self.chain_skips + self.single_skips + self.direct_picks

    def as_dict(self) -> dict[str, int]:
        return {**asdict(self), "saved": self.saved}


# --- eligibility --------------------------------------------------------------------------


def eligible(intent: Intent, node: Node, root: int = 0) -> bool:
    """Can this node be the answer for the intent (see the module docstring)?"""
    if node.id == root:
        return False
    if action(intent.kind).reads:
        return is_candidate(node, root)
    return node.operable


def eligible_counts(intent: Intent, snap: PageSnapshot) -> tuple[list[bool], list[int], list[int | None]]:
    """(eligible per node, eligible nodes per subtree, the only eligible node of subtrees holding one)."""
    n = len(snap.nodes)
    flags = [False] * n
    counts = [0] * n
    only: list[int | None] = [None] * n
    for node in reversed(snap.nodes):  # ids are pre-order positions: children come after their parent
        e = eligible(intent, node, snap.root)
        flags[node.id] = e
        c = int(e) + sum(counts[k] for k in node.children)
        counts[node.id] = c
        if c == 1:
            only[node.id] = node.id if e else next(only[k] for k in node.children if counts[k] == 1)
    return flags, counts, only


def path_to(snap: PageSnapshot, node_id: int, start: int | None = None) -> list[int]:
    """Node ids from ``start`` (default: the root) down to ``node_id``, both included."""
    start = snap.root if start is None else start
    out = [node_id]
    while out[-1] != start:
        parent = snap.nodes[out[-1]].parent
        if parent is None:
            break
        out.append(parent)
    return out[::-1]


# --- summaries ----------------------------------------------------------------------------


def _clip(text: str | None, limit: int = MAX_FIELD) -> str:
    text = " ".join((text or "").split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _q(text: str | None, limit: int = MAX_FIELD) -> str:
    return '"' + _clip(text, limit).replace('"', "'") + '"'


def _name(n: Node) -> str | None:
    if n.label or n.aria_label:
        return n.label or n.aria_label
    if n.text:
        return n.text
    if n.title:
        return n.title
    if is_buttonish(n) and n.tag == "input" and n.value:
        return n.value
    return None


_PLAIN_TYPES = frozenset({"text", "checkbox", "radio", "button", "submit", "reset"})


def _kind(n: Node) -> str:
    kind = n.role or n.tag
    if n.tag == "input" and n.input_type and n.input_type not in _PLAIN_TYPES:
        kind += f"[{n.input_type}]"
    return kind


def describe(n: Node, context: bool = True) -> str:
    """One element in a few words: ``textbox "Last name" placeholder "…" near "Owner"``.

    Without ``context`` (the items of a region's summary) the context and the current value of a
    text field are left out, so filling a field does not change its region's summary (nor its cache key).
    """
    bits = [_kind(n)]
    name = _name(n)
    if name:
        bits.append(_q(name))
    if n.placeholder and n.placeholder != name:
        bits.append("placeholder " + _q(n.placeholder))
    if not name and not n.placeholder:
        ident = n.testid or n.name_attr or n.id_attr
        if ident:
            bits.append("id " + _q(ident, 40))
    if n.options:
        shown = ", ".join(_clip(o, 20) for o in n.options[:5])
        bits.append(f"options: {shown}" + (f", +{len(n.options) - 5} more" if len(n.options) > 5 else ""))
    if n.checked is not None:
        bits.append("checked" if n.checked else "unchecked")
    if context and n.value and is_textbox(n):
        bits.append("value " + _q(n.value, 40))
    if context and n.context:
        bits.append("near " + _q(n.context))
    return " ".join(bits)


def _region_head(n: Node) -> str:
    bits = [f"<{n.tag}>"]
    if n.role and n.role != n.tag:
        bits.append(n.role)
    if n.id_attr and len(n.id_attr) <= 40:
        bits.append("#" + n.id_attr)
    name = n.aria_label or n.label or n.title
    if name:
        bits.append(_q(name))
    if n.text and n.operable:
        bits.append(_q(n.text))
    return " ".join(bits)


def _is_heading(n: Node) -> bool:
    return bool(n.text) and (
        n.role == "heading" or n.tag in ("legend", "caption", "h1", "h2", "h3", "h4", "h5", "h6")
    )


def _descendants(snap: PageSnapshot, node_id: int) -> Iterable[Node]:
    """Descendants in document order."""
    stack = list(reversed(snap.nodes[node_id].children))
    while stack:
        n = snap.nodes[stack.pop()]
        yield n
        stack.extend(reversed(n.children))


def summarize(
    intent: Intent, snap: PageSnapshot, node_id: int, scores: dict[int, float] | None = None,
    max_items: int = MAX_ITEMS,
) -> str:
    """What the model reads about a node: an element is described, a region listed (module docstring)."""
    node = snap.nodes[node_id]
    if not node.children:
        return _clip(describe(node), MAX_SUMMARY)
    scores = {} if scores is None else scores
    headings: list[str] = []
    items: list[Node] = []
    for d in _descendants(snap, node_id):
        if _is_heading(d) and len(headings) < 2:
            headings.append(_q(d.text, 40))
        if eligible(intent, d, snap.root):
            items.append(d)
    parts = [_region_head(node)]
    if headings:
        parts.append("titled " + ", ".join(headings))
    if items:
        kept = items
        if len(items) > max_items:
            def key(d: Node) -> tuple:
                s = scores.get(d.id)
                if s is None:
                    s = scores[d.id] = leaf_details(intent, d).score
                return tie_key(s, False, d)

            best = {d.id for d in sorted(items, key=key)[:max_items]}
            kept = [d for d in items if d.id in best]
        shown = "; ".join(describe(d, context=False) for d in kept)
        more = f"; +{len(items) - len(kept)} more" if len(items) > len(kept) else ""
        parts.append(f"holds {len(items)}: {shown}{more}")
    return _clip(" — ".join(parts), MAX_SUMMARY)


def intent_lines(intent: Intent) -> list[str]:
    """The intent as the prompts state it."""
    lines = [
        f"Step: {intent.description}",
        f"Action: {intent.kind}",
        f"Target: {intent.target if intent.target else '(not named; find it by the action and value)'}",
    ]
    if intent.role_hint:
        lines.append(f"Role hint: {intent.role_hint}")
    lines.append(f"Value: {_q(intent.value, 200) if intent.value is not None else '(none)'}")
    return lines


# --- replies ------------------------------------------------------------------------------


def read_choice(reply: dict[str, Any], n: int) -> list[int]:
    """0-based positions, the choice first then the valid ranked ones; [] for none (see module docstring)."""

    def number(v: Any) -> int | None:
        if isinstance(v, bool) or not isinstance(v, int) or not 1 <= v <= n:
            return None
        return v - 1

    first = number(reply.get("choice"))
    if first is None:
        return []
    out = [first]
    for v in reply.get("ranked") or []:
        i = number(v)
        if i is not None and i not in out:
            out.append(i)
    return out


def ranked_candidates(snap: PageSnapshot, ids: Sequence[int], paths: Sequence[list[int]] | None = None,
                      limit: int = 5) -> list[Candidate]:
    """Candidates with distinct decreasing scores 1.0, 0.9, …, at most ``limit`` (and 10)."""
    out: list[Candidate] = []
    seen: set[int] = set()
    for i, nid in enumerate(ids):
        if nid in seen or len(out) >= min(limit, 10):
            continue
        seen.add(nid)
        path = paths[i] if paths is not None else path_to(snap, nid)
        out.append(Candidate(node_id=nid, score=round(1.0 - 0.1 * len(out), 6), path=path))
    return out


# --- pictures -----------------------------------------------------------------------------


def _area(b: tuple[float, float, float, float]) -> float:
    return max(0.0, b[2]) * max(0.0, b[3])


def region_box(snap: PageSnapshot, node_id: int) -> tuple[float, float, float, float]:
    """The node's box; for a node whose own box is empty, the union of its descendants' boxes."""
    node = snap.nodes[node_id]
    if _area(node.bbox) > 0 or not node.children:
        return node.bbox
    boxes = [d.bbox for d in _descendants(snap, node_id) if _area(d.bbox) > 0]
    if not boxes:
        return node.bbox
    x0 = min(b[0] for b in boxes)
    y0 = min(b[1] for b in boxes)
    x1 = max(b[0] + b[2] for b in boxes)
    y1 = max(b[1] + b[3] for b in boxes)
    return (x0, y0, x1 - x0, y1 - y0)


def _png(img: Image.Image) -> bytes:
    buf = io.BytesIO()
    img.save(buf, format="PNG", compress_level=1)  # fast; a model is billed by pixels, not bytes
    return buf.getvalue()


_BLANK: bytes | None = None


def blank_png() -> bytes:
    """The placeholder for an item with no picture: 8x8 light grey."""
    global _BLANK
    if _BLANK is None:
        _BLANK = _png(Image.new("RGB", (8, 8), (220, 220, 220)))
    return _BLANK


_COLORS = [(230, 25, 75), (0, 130, 200), (60, 180, 75), (245, 130, 48), (145, 30, 180), (0, 128, 128),
           (240, 50, 230), (128, 0, 0), (0, 0, 128), (128, 128, 0)]


def _font(size: int) -> ImageFont.ImageFont | ImageFont.FreeTypeFont:
    try:
        return ImageFont.load_default(size=size)
    except TypeError:  # Pillow < 10.1: the fixed bitmap font
        return ImageFont.load_default()


class Picture:
    """The page screenshot, decoded once, with the mapping from node boxes onto it."""

    def __init__(self, png: bytes | None, scroll: tuple[float, float] = (0.0, 0.0), scale: float = 1.0,
                 max_side: int = MAX_SIDE) -> None:
        if not png:
            raise ScreenshotError("the page screenshot is empty: cannot cut pictures for grounding")
        try:
            img = Image.open(io.BytesIO(png))
            img.load()
            if img.mode not in ("RGB", "RGBA"):
                img = img.convert("RGB")
        except (OSError, ValueError, SyntaxError, Image.DecompressionBombError) as exc:
            raise ScreenshotError(f"the page screenshot cannot be decoded ({type(exc).__name__}: {exc})") from None
        if img.width <= 0 or img.height <= 0:
            raise ScreenshotError("the page screenshot has no pixels")
        self.image = img
        self.scroll = (float(scroll[0]), float(scroll[1]))
        self.scale = float(scale) if scale and scale > 0 else 1.0
        self.max_side = max_side

    @property
    def size(self) -> tuple[int, int]:
        return self.image.size

    def box(self, bbox: tuple[float, float, float, float]) -> tuple[int, int, int, int] | None:
        """The pixel box (left, top, right, bottom) of a viewport box, clamped; None when nothing is left."""
        x, y, w, h = bbox
        if not (w > 0 and h > 0) or not all(math.isfinite(v) for v in bbox):
            return None
        sx, sy = self.scroll
        k = self.scale
        width, height = self.image.size
        left = max(0, min(width, round((x + sx) * k)))
        top = max(0, min(height, round((y + sy) * k)))
        right = max(0, min(width, round((x + sx + w) * k)))
        bottom = max(0, min(height, round((y + sy + h) * k)))
        if right <= left or bottom <= top:
            return None
        return (left, top, right, bottom)

    def crop(self, bbox: tuple[float, float, float, float]) -> bytes | None:
        """The PNG of a box, scaled down past ``max_side``; None when the box has no area on the picture."""
        box = self.box(bbox)
        if box is None:
            return None
        try:
            img = self.image.crop(box)
            if max(img.size) > self.max_side:
                img.thumbnail((self.max_side, self.max_side))
            return _png(img)
        except (OSError, ValueError) as exc:
            raise ScreenshotError(f"could not cut a picture from the page screenshot: {exc}") from None

    def marked(self, marks: Sequence[tuple[int, tuple[int, int, int, int]]]) -> bytes:
        """The whole picture with a numbered box drawn for each (number, pixel box); same size."""
        try:
            img = self.image.copy()
            draw = ImageDraw.Draw(img)
            font = _font(max(12, round(13 * self.scale)))
            width = max(2, round(2 * self.scale))
            for number, (left, top, right, bottom) in marks:
                color = _COLORS[(number - 1) % len(_COLORS)]
                draw.rectangle((left, top, right - 1, bottom - 1), outline=color, width=width)
                label = str(number)
                tl, tt, tr, tb = draw.textbbox((0, 0), label, font=font)
                lw, lh = tr - tl + 6, tb - tt + 4
                # the number sits just above the box's top-left corner, or inside it when there is no room
                ly = top - lh if top - lh >= 0 else top
                lx = min(left, max(0, img.width - lw))
                draw.rectangle((lx, ly, lx + lw, ly + lh), fill=color)
                draw.text((lx + 3 - tl, ly + 2 - tt), label, fill=(255, 255, 255), font=font)
            return _png(img)
        except (OSError, ValueError) as exc:
            raise ScreenshotError(f"could not draw the marks on the page screenshot: {exc}") from None


def _device_scale(view: PageView) -> float:
    try:
        value = view.page.evaluate("() => window.devicePixelRatio || 1")
        return float(value) if value else 1.0
    except (PlaywrightError, TypeError, ValueError):
        return 1.0


def picture_of(view: PageView, max_side: int = MAX_SIDE) -> Picture:
    """The view's one full-page screenshot, decoded, with its scroll offset and device scale."""
    try:
        png = view.screenshot()
    except PlaywrightError as exc:
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise ScreenshotError(f"could not take the page screenshot: {first}") from None
    return Picture(png, view.scroll, _device_scale(view), max_side=max_side)


# --- remembered decisions ------------------------------------------------------------------


class DecisionCache:
    """The model's answers by question: the same question about the same page region costs no call.

    Least recently used answers are dropped past ``size``; ``enabled=False`` remembers nothing."""

    def __init__(self, size: int, enabled: bool = True) -> None:
        self.size = size
        self.enabled = enabled
        self._answers: OrderedDict[str, list[int]] = OrderedDict()

    @staticmethod
    def key(intent: Intent, *question: object) -> str:
        """A hash of the intent (kind, target, value, role hint) and what the model was shown."""
        parts = [intent.kind, intent.target, intent.value, intent.role_hint, *question]
        return hashlib.sha256(json.dumps(parts, ensure_ascii=False).encode("utf-8")).hexdigest()

    def get(self, key: str) -> list[int] | None:
        found = self._answers.get(key) if self.enabled else None
        if found is not None:
            self._answers.move_to_end(key)
        return found

    def put(self, key: str, answer: list[int]) -> None:
        if not self.enabled:
            return
        self._answers[key] = list(answer)
        self._answers.move_to_end(key)
        while len(self._answers) > self.size:
            self._answers.popitem(last=False)

    def clear(self) -> None:
        self._answers.clear()
