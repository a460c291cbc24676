"""The page as a tree of visible, operable or readable elements (HTE's tree).

`snapshot(page)` runs ``dom.js`` once in the main frame and once in every reachable same-origin
child frame (recursively), stitches the frames together (an ``<iframe>`` node's children are the
nodes of its document, with boxes moved by the iframe's content offset), then

* prunes elements that are neither operable nor readable and hold no kept element;
* collapses single-child chains: a non-operable element without its own text and with exactly
  one child is replaced by that child.  The root is kept, and so are ``<form>`` elements (since
  ``Node.form`` refers to them), ``<iframe>`` elements and each frame's root.

Both are done per frame inside ``dom.js`` (so the common case costs one evaluate per frame); here
they only remove iframes whose document kept nothing (or was cross-origin) and any chain this
leaves, and then one more evaluate re-aligns that frame's ``window.__stepforge_nodes``.

Node ids are positions in ``PageSnapshot.nodes`` (pre-order, frames spliced in at their iframe).

Each frame's window keeps ``window.__stepforge_nodes``: after the snapshot it holds exactly that
frame's nodes in snapshot order, so node ``i`` is found again as the k-th node of its frame
(`element_handle`).  Only the latest snapshot of a page can be resolved this way.
"""

from __future__ import annotations

import json
import weakref
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

from playwright.sync_api import ElementHandle, Frame, Page
from playwright.sync_api import Error as PlaywrightError

from shared.records import Node, PageSnapshot

from .ids import stable_id

__all__ = ["snapshot", "element_handle", "frame_for", "StaleSnapshotError", "dom_script"]

# Elements never collapsed even with a single child (other records point at them).
_NO_COLLAPSE_TAGS = frozenset({"form"})

_COMPACT_JS = (
    "(keep) => { const a = window.__stepforge_nodes || [];"
    " window.__stepforge_nodes = JSON.parse(keep).map((i) => a[i]); }"
)
_HANDLE_JS = """([i, tag]) => {
  const a = window.__stepforge_nodes;
  const el = a ? a[i] : null;
  return el && el.isConnected && el.localName === tag ? el : null;
}"""


class StaleSnapshotError(RuntimeError):
    """The node can no longer be found: the page changed or was snapshotted again."""


@lru_cache(maxsize=1)
def dom_script() -> str:
    return (Path(__file__).with_name("dom.js")).read_text(encoding="utf-8")


@dataclass(eq=False)
class _Raw:
    rec: dict[str, Any]
    frame_key: int
    local: int
    chain: tuple[str, ...]
    dx: float
    dy: float
    shadow: bool
    kids: list[_Raw] = field(default_factory=list)


def _evaluate(frame: Frame) -> dict[str, Any] | None:
    try:
        raw = frame.evaluate(_wrapped_script())
    except Exception:  # detached, navigating, cross-origin oddities: skip the frame
        return None
    return json.loads(raw) if raw else None


@lru_cache(maxsize=1)
def _wrapped_script() -> str:
    # One JSON string crosses the protocol much faster than a deep object graph.
    return f"() => {{ const r = ({dom_script().strip()})(); return r ? JSON.stringify(r) : null; }}"


def _raws(res: dict[str, Any], frame_key: int, chain: tuple[str, ...], dx: float, dy: float) -> list[_Raw]:
    raws: list[_Raw] = []
    for i, rec in enumerate(res["nodes"]):
        r = _Raw(rec=rec, frame_key=frame_key, local=i, chain=chain, dx=dx, dy=dy, shadow=bool(rec.get("shadow")))
        raws.append(r)
        p = rec.get("p")
        if p is not None:
            raws[p].kids.append(r)
    return raws


def _prune(r: _Raw) -> bool:
    r.kids = [k for k in r.kids if _prune(k)]
    rec = r.rec
    return bool(r.kids) or bool(rec.get("vis") and (rec.get("op") or rec.get("rd") or rec.get("pt")))


def _collapse(r: _Raw, is_root: bool) -> _Raw:
    # dom.js already collapsed each frame; this only catches chains left by iframes pruned here.
    r.kids = [_collapse(k, False) for k in r.kids]
    rec = r.rec
    if (
        not is_root
        and r.rec.get("p") is not None  # a frame's root stays: it is the region of its iframe
        and rec.get("tag") not in ("iframe", "frame")
        and len(r.kids) == 1
        and not rec.get("op")
        and not rec.get("rd")
        and not rec.get("pt")  # a part of the page named by what it is (the header) stays a place
        and rec.get("role") != "heading"  # a heading holding only its link stays what 'the heading' says
        and rec.get("tag") not in _NO_COLLAPSE_TAGS
    ):
        return r.kids[0]
    return r


_CDP: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def _ask_chromium_for_names(page: Page, records: list[dict]) -> None:
    """Chromium's own accessible name (its accessibility tree, through CDP) for the main frame's elements that only
    a picture names (dom.js flags them `ax`: an SVG <title>, an image's alt, in the element or in its label)."""
    wanted = [i for i, rec in enumerate(records) if rec.get("ax")]
    if not wanted:
        return
    try:
        session = _CDP.get(page)
        if session is None:
            session = _CDP[page] = page.context.new_cdp_session(page)
        for i in wanted:
            found = session.send("Runtime.evaluate", {"expression": f"window.__stepforge_nodes[{i}]",
                                                      "objectGroup": "stepforge-names"})
            object_id = found.get("result", {}).get("objectId")
            if not object_id:
                continue
            tree = session.send("Accessibility.getPartialAXTree", {"objectId": object_id, "fetchRelatives": False})
            name = next((n.get("name", {}).get("value") for n in tree.get("nodes", []) if not n.get("ignored")), None)
            if name and name.strip():
                records[i]["a11y_name"] = " ".join(name.split())[:200]
        session.send("Runtime.releaseObjectGroup", {"objectGroup": "stepforge-names"})
    except PlaywrightError:
        return  # a page that went away, or a browser without CDP: grounding goes on with the names it has


def snapshot(page: Page) -> PageSnapshot:
    """Walk the page (main frame, same-origin frames, open shadow roots) into a pruned tree."""
    main = page.main_frame
    res = _evaluate(main)
    frames: list[Frame] = [main]
    walked: list[int] = [len(res["nodes"]) if res and res.get("nodes") else 0]
    if not res or not res.get("nodes"):
        return PageSnapshot(url=page.url, title=_title(page), nodes=[], root=0,
                            state=tuple(res["state"]) if res and res.get("state") else None,
                            change_mark=res.get("mark") if res else None)
    _ask_chromium_for_names(page, res["nodes"])
    main_raws = _raws(res, 0, (), 0.0, 0.0)
    queue: list[tuple[Frame, list[_Raw]]] = [(main, main_raws)]
    while queue:
        frame, raws = queue.pop(0)
        for child in frame.child_frames:
            cres = _evaluate(child)
            if not cres or cres.get("frame_index") is None or not cres.get("nodes"):
                continue
            fi = cres["frame_index"]
            if not (0 <= fi < len(raws)):
                continue
            host = raws[fi]
            hrec = host.rec
            if hrec.get("tag") not in ("iframe", "frame") or not hrec.get("fsel"):
                continue
            key = len(frames)
            frames.append(child)
            walked.append(len(cres["nodes"]))
            chain = host.chain + (hrec["fsel"],)
            dx = host.dx + float(hrec.get("fx") or 0.0)
            dy = host.dy + float(hrec.get("fy") or 0.0)
            craws = _raws(cres, key, chain, dx, dy)
            host.kids.append(craws[0])
            queue.append((child, craws))

    root = main_raws[0]
    _prune(root)
    root = _collapse(root, True)

    # flatten in pre-order
    order: list[tuple[_Raw, int | None]] = []
    stack: list[tuple[_Raw, int | None]] = [(root, None)]
    while stack:
        r, parent = stack.pop()
        order.append((r, parent))
        my_id = len(order) - 1
        for k in reversed(r.kids):
            stack.append((k, my_id))
    gid: dict[tuple[int, int], int] = {(r.frame_key, r.local): i for i, (r, _) in enumerate(order)}

    nodes: list[Node] = []
    children: list[list[int]] = [[] for _ in order]
    for i, (_, parent) in enumerate(order):
        if parent is not None:
            children[parent].append(i)
    per_frame: dict[int, list[int]] = {}
    for i, (r, parent) in enumerate(order):
        rec = r.rec
        per_frame.setdefault(r.frame_key, []).append(r.local)
        x, y, w, h = rec.get("bbox") or (0.0, 0.0, 0.0, 0.0)
        form = rec.get("form")
        nodes.append(
            Node(
                id=i,
                parent=parent,
                children=children[i],
                tag=rec["tag"],
                role=rec.get("role"),
                operable=bool(rec.get("op")),
                text=rec.get("text") or "",
                label=rec.get("label"),
                aria_label=rec.get("aria_label"),
                placeholder=rec.get("placeholder"),
                title=rec.get("title"),
                name_attr=rec.get("name_attr"),
                id_attr=stable_id(rec.get("id_attr")),  # a generated id names nothing
                testid=rec.get("testid"),
                icon=rec.get("icon"),
                class_words=rec.get("cw"),
                own_class_words=rec.get("kw"),
                a11y_name=rec.get("a11y_name"),
                line=rec.get("line"),
                box_title=rec.get("box_title"),
                typeahead=bool(rec.get("typeahead")),
                focused=bool(rec.get("focused")),
                selected=bool(rec.get("selected")),
                looks=rec.get("looks") or [],
                value=rec.get("value"),
                input_type=rec.get("input_type"),
                options=rec.get("options") or [],
                checked=rec.get("checked"),
                required=bool(rec.get("required")),
                pattern=rec.get("pattern"),
                minlength=rec.get("minlength"),
                maxlength=rec.get("maxlength"),
                min=rec.get("min"),
                max=rec.get("max"),
                form=gid.get((r.frame_key, form)) if form is not None else None,
                context=rec.get("context"),
                form_title=rec.get("form_title"),
                frame=list(r.chain),
                shadow=r.shadow,
                xpath=rec.get("xpath") or "",
                bbox=(x + r.dx, y + r.dy, w, h),
            )
        )

    # make each frame's window.__stepforge_nodes hold exactly its nodes, in snapshot order
    for key, frame in enumerate(frames):
        keep = per_frame.get(key, [])
        if keep == list(range(walked[key])):
            continue
        try:
            frame.evaluate(_COMPACT_JS, json.dumps(keep))
        except Exception:
            pass
    return PageSnapshot(url=page.url, title=res.get("title") or "", nodes=nodes, root=0,
                        state=tuple(res["state"]) if res.get("state") else None, change_mark=res.get("mark"))


def _title(page: Page) -> str:
    try:
        return page.title()
    except Exception:
        return ""


def frame_for(page: Page, chain: list[str]) -> Frame:
    """The Playwright Frame reached through a chain of iframe selectors (outermost first)."""
    frame = page.main_frame
    for sel in chain:
        handle = frame.query_selector(sel)
        sub = handle.content_frame() if handle else None
        if handle:
            handle.dispose()
        if sub is None:
            raise StaleSnapshotError(f"frame {sel!r} not found")
        frame = sub
    return frame


def element_handle(page: Page, snap: PageSnapshot, node_id: int) -> ElementHandle:
    """The live element of node ``node_id`` of the page's latest snapshot."""
    node = snap.nodes[node_id]
    rank = sum(1 for n in snap.nodes[:node_id] if n.frame == node.frame)
    frame = frame_for(page, node.frame)
    handle = frame.evaluate_handle(_HANDLE_JS, [rank, node.tag])
    el = handle.as_element()
    if el is None:
        handle.dispose()
        raise StaleSnapshotError(f"node {node_id} <{node.tag}> is no longer in the page")
    return el
