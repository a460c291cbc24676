"""HTE grounding with a model as the chooser: descend the page tree, one level at a time.

``ModelHteGrounder(client).locate(intent, view)`` starts at the root of the pruned tree
(``tree.snapshot``).  At each level the model gets the level's *options* — the children that hold
at least one eligible element (``crops.eligible``), plus the node itself when it is eligible and
not the root (a clickable card competes with its own children) — each as a numbered DOM summary
(``crops.summarize``) and one picture cut from the page's ONE screenshot (``PageView.screenshot``,
taken only when a call is actually needed), in the same order.  It answers
``{"choice": n | null, "ranked": [n, ...], "reason": "..."}`` (``crops.CHOICE_SCHEMA``, phase
``grounding_hte``).  A chosen region is descended into; a chosen element (a leaf, or the node
itself) is the target.  When a region yields nothing, the next ranked option of the level above
is tried (backtracking); ``choice: null`` (or a number out of range) means none here.  Only the
options the model named are explored.  When nothing is left at the root the result is ``[]``.

The result: the target first (score 1.0), then the other *elements* the model ranked at that
same level, after it, with scores 0.9, 0.8, … (at most ``max_alternatives`` more).  The caller
uses them when the first one fails.

Call cutting (each switchable, all on by default, for the benchmark):

``skip_chains``
    A level with a single child (and no competing eligible node itself) is passed without a call.
``skip_single``
    A level where only one child holds eligible elements is passed without a call, and a subtree
    holding exactly one eligible element yields it at once.  (At the root this means a page with a
    single eligible element returns it without asking; the model never judged it.)
``batch``
    All options of a level go in one call, ``max_per_call`` (20) at most; more are asked in chunks
    and the chunks' choices compared in one more call (a small tournament).  Off: one call per
    option ("does this part hold the target?"), the options that say yes kept in document order.
``cache``
    A decision is kept under a hash of (action kind, target phrase, value, role hint, the parent's
    summary and the numbered option summaries), as positions, so the same page region asked again (recovery
    re-grounding, the same form on another run) costs no call.  LRU, ``cache_size`` entries, one
    cache per grounder (a grounder lives for one job).

``stats`` (``crops.GroundingStats``) counts locates, calls, pictures sent, cache hits and the three
kinds of skipped decisions.  ``max_calls`` (40) caps the calls of one ``locate``: past it, the
descent stops exploring (and may return ``[]``).

Errors: the client's ``ModelError`` types propagate; a screenshot that cannot be decoded raises
``crops.ScreenshotError`` (also a ``ModelError``).
"""

from __future__ import annotations

from shared.records import Candidate, Intent, PageSnapshot
from workers.agent.execution.view import PageView
from workers.agent.model.client import ModelClient

from .crops import (
    CHOICE_SCHEMA,
    MAX_SIDE,
    DecisionCache,
    GroundingStats,
    Picture,
    blank_png,
    describe,
    eligible_counts,
    intent_lines,
    path_to,
    picture_of,
    ranked_candidates,
    read_choice,
    region_box,
    summarize,
)

__all__ = ["ModelHteGrounder", "PHASE", "SYSTEM"]

PHASE = "grounding_hte"
SCHEMA_NAME = "hte_choice"

SYSTEM = (
    "You find the element of a web page that a test step acts on. The page is shown one region at a "
    "time: a numbered list of the region's parts, each with a short description of what it holds, and "
    "one picture per part, in the same order as the list. A part is either a region holding the listed "
    "elements or a single element. Choose the part that holds the target element, or is the target "
    "element. If no part holds it, answer choice null. In ranked put the other parts that might hold "
    "it, best first (not the choice; may be empty). Reply with one JSON object: "
    '{"choice": <number or null>, "ranked": [<numbers>], "reason": "<a few words>"}.'
)


class ModelHteGrounder:
    """HTE descent where a model picks the child at each level (see the module docstring)."""

    name = "hte"

    def __init__(
        self,
        client: ModelClient,
        *,
        skip_chains: bool = True,
        skip_single: bool = True,
        batch: bool = True,
        cache: bool = True,
        max_per_call: int = 20,
        max_alternatives: int = 4,
        max_calls: int = 40,
        cache_size: int = 2048,
        max_side: int = MAX_SIDE,
    ) -> None:
        if max_per_call < 2:
            raise ValueError("max_per_call must be at least 2")
        self.client = client
        self.skip_chains = skip_chains
        self.skip_single = skip_single
        self.batch = batch
        self.max_per_call = max_per_call
        self.max_alternatives = max_alternatives
        self.max_calls = max_calls
        self.max_side = max_side
        self.stats = GroundingStats()
        self.decisions = DecisionCache(cache_size, enabled=cache)

    def locate(self, intent: Intent, view: PageView) -> list[Candidate]:
        self.stats.locates += 1
        snap = view.snapshot
        if not snap.nodes:
            return []
        return _Descent(self, intent, view).run()

    def clear_cache(self) -> None:
        self.decisions.clear()


class _Descent:
    """One locate: the eligibility counts, the lazily taken picture, the calls made."""

    def __init__(self, grounder: ModelHteGrounder, intent: Intent, view: PageView) -> None:
        self.g = grounder
        self.intent = intent
        self.view = view
        self.snap: PageSnapshot = view.snapshot
        self.flags, self.counts, self.only = eligible_counts(intent, self.snap)
        self.scores: dict[int, float] = {}
        self.summaries: dict[int, str] = {}
        self.calls = 0
        self.judged = False  # the model (or its cached decision) has chosen at some level of this descent
        self._picture: Picture | None = None

    def run(self) -> list[Candidate]:
        root = self.snap.root
        if self.counts[root] == 0:
            return []
        return self.descend(root, [root]) or []

    # --- the walk ------------------------------------------------------------------------

    def options(self, nid: int) -> list[int]:
        node = self.snap.nodes[nid]
        opts = [nid] if nid != self.snap.root and node.children and self.flags[nid] else []
        return opts + [c for c in node.children if self.counts[c] > 0]

    def terminal(self, nid: int, opt: int) -> bool:
        return opt == nid or not self.snap.nodes[opt].children

    def descend(self, nid: int, path: list[int]) -> list[Candidate] | None:
        g, snap = self.g, self.snap
        node = snap.nodes[nid]
        if g.skip_single and self.counts[nid] == 1:
            target = self.only[nid]
            assert target is not None
            if not self.judged:
                # The model has not looked at this page yet: the lone element may not be the target at
                # all (the page lacks it). One question settles it; a guess never does.
                parent = snap.nodes[target].parent
                if not self.ask(parent if parent is not None else nid, [target], [0]):
                    return None
            g.stats.direct_picks += 1
            return [Candidate(node_id=target, score=1.0, path=path + path_to(snap, target, nid)[1:])]
        options = self.options(nid)
        if not options:
            return None
        if len(options) == 1 and len(node.children) == 1 and options[0] != nid and g.skip_chains:
            g.stats.chain_skips += 1
            order = [0]
        elif len(options) == 1 and len(node.children) > 1 and g.skip_single:
            g.stats.single_skips += 1
            order = [0]
        else:
            order = self.decide(nid, options, list(range(len(options))))
        for pos, i in enumerate(order):
            opt = options[i]
            if self.terminal(nid, opt):
                picks = [options[j] for j in order[pos:] if self.terminal(nid, options[j])]
                paths = [path if p == nid else path + [p] for p in picks]
                return ranked_candidates(snap, picks, paths, limit=1 + g.max_alternatives)
            found = self.descend(opt, path + [opt])
            if found:
                return found
        return None

    def decide(self, nid: int, options: list[int], idxs: list[int]) -> list[int]:
        """Positions into ``options``, best first; [] for none. Chunks and tournament when needed."""
        size = self.g.max_per_call if self.g.batch else 1
        if len(idxs) <= size:
            return self.ask(nid, options, idxs)
        results = [self.ask(nid, options, idxs[i : i + size]) for i in range(0, len(idxs), size)]
        winners = [r[0] for r in results if r]
        if not self.g.batch or len(winners) <= 1:
            final = winners
        else:
            final = self.decide(nid, options, winners)
        out: list[int] = []
        for i in final + winners + [i for r in results for i in r[1:]]:
            if i not in out:
                out.append(i)
        return out

    # --- one question --------------------------------------------------------------------

    def summary(self, nid: int) -> str:
        s = self.summaries.get(nid)
        if s is None:
            s = self.summaries[nid] = summarize(self.intent, self.snap, nid, self.scores)
        return s

    def option_line(self, nid: int, opt: int) -> str:
        if opt == nid:
            return "element: this region itself — " + describe(self.snap.nodes[opt])
        kind = "region" if self.snap.nodes[opt].children else "element"
        return f"{kind}: {self.summary(opt)}"

    def picture(self) -> Picture:
        if self._picture is None:
            self._picture = picture_of(self.view, self.g.max_side)
        return self._picture

    def ask(self, nid: int, options: list[int], idxs: list[int]) -> list[int]:
        g = self.g
        self.judged = True
        lines = [self.option_line(nid, options[i]) for i in idxs]
        where = "the whole page" if nid == self.snap.root else self.summary(nid)
        key = DecisionCache.key(self.intent, where, lines)
        local = g.decisions.get(key)
        if local is not None:
            g.stats.cache_hits += 1
        else:
            if self.calls >= g.max_calls:
                return []
            picture = self.picture()
            images: list[bytes] = []
            numbered: list[str] = []
            for k, (i, line) in enumerate(zip(idxs, lines), start=1):
                crop = picture.crop(region_box(self.snap, options[i]))
                if crop is None:
                    crop = blank_png()
                    line += " (no picture: zero size or outside the screenshot)"
                images.append(crop)
                numbered.append(f"[{k}] {line}")
            text = "\n".join(self.prompt(nid, where, numbered, idxs, options))
            self.calls += 1
            g.stats.calls += 1
            g.stats.images += len(images)
            reply = g.client.ask_json(PHASE, SYSTEM, text, images, schema=CHOICE_SCHEMA, schema_name=SCHEMA_NAME)
            local = read_choice(reply, len(idxs))
            g.decisions.put(key, local)
        return [idxs[j] for j in local if j < len(idxs)]

    def prompt(self, nid: int, where: str, numbered: list[str], idxs: list[int], options: list[int]) -> list[str]:
        page = self.snap
        lines = intent_lines(self.intent)
        lines.append("")
        lines.append(f"Page: {page.title or '(untitled)'} — {page.url}")
        lines.append(f"Looking inside: {where}")
        all_leaves = all(self.terminal(nid, options[i]) for i in idxs)
        n = len(idxs)
        if n == 1:
            lines.append("One part, with its picture:")
        else:
            lines.append(f"Its {n} parts, one picture each in this order:")
        lines.extend(numbered)
        lines.append("")
        if n == 1:
            lines.append("Does this part hold the target element, or is it the target? choice 1 for yes, null for no.")
        elif all_leaves:
            lines.append(f"Each part is one element: which one (1-{n}) is the target? null if none is.")
        else:
            lines.append(f"Which part (1-{n}) holds the target element, or is it? null if none does.")
        return lines
