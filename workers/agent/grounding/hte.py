"""HTE: hierarchical tree exploration over a PageSnapshot.

``ground(intent, snapshot)`` starts at the root and, at each level, asks a *chooser* to rank the
child regions of the current node; it descends into them best first, and backtracks into the next
one when a region is exhausted.  A node is reported (a ``Candidate`` with its root-to-node path)
when it is a candidate (a leaf, an operable element, or an element with text; never the root) and
its leaf score is at least ``THRESHOLD`` (0.5, see ``scoring``).  An operable inner node (say a
clickable card) is ranked among its own children by its leaf score.

The result is therefore every acceptable node, in descent order, best first; empty when nothing
is acceptable.

Chooser
    ``Chooser = Callable[[Intent, PageSnapshot, int, list[int]], list[tuple[int, float]]]``:
    given the parent and its children, return ``(child_id, score)`` pairs, best first; children it
    leaves out are not explored.  The default, ``text_chooser``, scores each child with
    ``scoring.score_region`` and leaves out regions below the threshold.  A model-based chooser
    plugs in here.

Tie-break rule (deterministic), for regions and for leaves alike:
    1. higher score (rounded to 6 decimals);
    2. then an exact match (the node's best own field equals the target phrase);
    3. then the element higher on the page: smaller bbox y, then smaller bbox x;
    4. then document order (smaller node id).
    A region is compared through its best leaf (its exact flag, position and id) with the region's
    own score in step 1.
"""

from __future__ import annotations

from collections.abc import Callable

from shared.records import Candidate, Intent, PageSnapshot

from .scoring import THRESHOLD, LeafScore, best_leaf, is_candidate, leaf_details, region_bonus, tie_key

__all__ = ["ground", "text_chooser", "Chooser", "THRESHOLD"]

Chooser = Callable[[Intent, PageSnapshot, int, list[int]], list[tuple[int, float]]]


def _make_text_chooser(cache: dict[int, LeafScore], threshold: float) -> Chooser:
    def choose(intent: Intent, snap: PageSnapshot, parent: int, children: list[int]) -> list[tuple[int, float]]:
        keyed = []
        for cid in children:
            s, leaf = best_leaf(intent, snap, cid, cache)
            if leaf is None:
                continue
            if snap.nodes[cid].children:
                s = round(min(1.0, s + region_bonus(intent, snap, cid, leaf)), 6)
            if s < threshold:
                continue
            lnode = snap.nodes[leaf]
            keyed.append((tie_key(s, cache[leaf].exact, lnode), cid, s))
        keyed.sort()
        return [(cid, s) for _, cid, s in keyed]

    return choose


def text_chooser(intent: Intent, snap: PageSnapshot, parent: int, children: list[int]) -> list[tuple[int, float]]:
    """Default chooser: rank child regions by text similarity (``score_region``), drop those below THRESHOLD."""
    return _make_text_chooser({}, THRESHOLD)(intent, snap, parent, children)


def ground(
    intent: Intent,
    snap: PageSnapshot,
    chooser: Chooser | None = None,
    threshold: float = THRESHOLD,
) -> list[Candidate]:
    """Acceptable nodes for the intent's target, in HTE descent order (best first)."""
    if not snap.nodes:
        return []
    cache: dict[int, LeafScore] = {}
    choose = chooser or _make_text_chooser(cache, threshold)
    out: list[Candidate] = []
    seen: set[int] = set()

    def leaf(nid: int) -> LeafScore:
        ls = cache.get(nid)
        if ls is None:
            ls = cache[nid] = leaf_details(intent, snap.nodes[nid])
        return ls

    def emit(nid: int, s: float, path: list[int]) -> None:
        if nid not in seen:
            seen.add(nid)
            out.append(Candidate(node_id=nid, score=s, path=path))

    # iterative DFS with an explicit stack of ordered entries: ("leaf"|"region", node id, path)
    stack: list[tuple[str, int, list[int], float]] = [("region", snap.root, [snap.root], 0.0)]
    while stack:
        what, nid, path, s = stack.pop()
        if what == "leaf":
            emit(nid, s, path)
            continue
        node = snap.nodes[nid]
        if not node.children:
            if is_candidate(node, snap.root):
                ls = leaf(nid)
                if ls.score >= threshold:
                    emit(nid, ls.score, path)
            continue
        entries: list[tuple[str, int, float]] = [
            ("region", cid, cs) for cid, cs in choose(intent, snap, nid, list(node.children))
        ]
        if nid != snap.root and is_candidate(node, snap.root):
            ls = leaf(nid)
            if ls.score >= threshold:
                # the node itself competes with its children (chooser order kept); on equal score it comes first
                at = next((i for i, e in enumerate(entries) if round(e[2], 6) <= ls.score), len(entries))
                entries.insert(at, ("leaf", nid, ls.score))
        for what2, cid, cs in reversed(entries):
            stack.append((what2, cid, path if what2 == "leaf" else path + [cid], cs))
    return out
