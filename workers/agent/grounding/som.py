"""Set-of-Mark grounding: one marked screenshot, one numbered list, one answer.

``SomGrounder(client).locate(intent, view)`` takes the eligible elements of the page
(``crops.eligible``: operable ones for actions; also text-bearing ones for ``assert_value``) whose
box has an area on the screenshot, numbers them 1..n in document order, and draws a numbered,
coloured box over each with Pillow on a copy of the view's ONE full-page screenshot (nothing is
injected into the page, so the page and its later snapshots are untouched).  The model gets that
picture (same size as the screenshot) and the numbered list of the elements' short summaries
(``crops.describe``), and answers ``{"choice": n | null, "ranked": [...], "reason": "..."}``
(``crops.CHOICE_SCHEMA``, phase ``grounding_som``).

Marks are limited to ``max_marks`` (50): when more elements are eligible, the ones kept are those
with the best text score for the intent (``scoring.leaf_details``, ties by ``scoring.tie_key``:
higher on the page first), still numbered in document order.  An element outside the kept set
cannot be answered.

The result: the chosen element (score 1.0) then the ranked ones (0.9, 0.8, …; ``max_alternatives``
more at most).  ``choice: null`` or a number outside 1..n means none: ``[]`` (not re-asked; see
``crops.read_choice``).  No eligible element: ``[]`` without a call.  With ``cache`` (on by
default) the answer is kept under a hash of (action kind, target, value, role hint, the numbered
list), so asking again about the same page costs no call.  ``stats`` is a ``crops.GroundingStats``.

Errors: the client's ``ModelError`` types propagate; a screenshot that cannot be decoded raises
``crops.ScreenshotError`` (also a ``ModelError``).
"""

from __future__ import annotations

from shared.records import Candidate, Intent
from workers.agent.execution.view import PageView
from workers.agent.model.client import ModelClient

from .crops import (
    CHOICE_SCHEMA,
    DecisionCache,
    GroundingStats,
    describe,
    eligible,
    intent_lines,
    picture_of,
    ranked_candidates,
    read_choice,
)
from .scoring import leaf_details, tie_key

__all__ = ["SomGrounder", "PHASE", "SYSTEM", "MAX_MARKS"]

PHASE = "grounding_som"
SCHEMA_NAME = "som_choice"
MAX_MARKS = 50

SYSTEM = (
    "You find the element of a web page that a test step acts on. The picture is a screenshot of the "
    "page with numbered coloured boxes drawn around the elements the step could act on; the number of "
    "each box is written at its top-left corner, and the list gives each number with a short "
    "description of its element. Choose the number of the target element; answer choice null if no "
    "marked element is the target. In ranked put other numbers that might be it, best first (not the "
    "choice; may be empty). Reply with one JSON object: "
    '{"choice": <number or null>, "ranked": [<numbers>], "reason": "<a few words>"}.'
)


class SomGrounder:
    """Set-of-Mark: the model picks a numbered box on the marked screenshot (see the module docstring)."""

    name = "som"

    def __init__(
        self,
        client: ModelClient,
        *,
        max_marks: int = MAX_MARKS,
        max_alternatives: int = 4,
        cache: bool = True,
        cache_size: int = 512,
    ) -> None:
        if max_marks < 1:
            raise ValueError("max_marks must be at least 1")
        self.client = client
        self.max_marks = max_marks
        self.max_alternatives = max_alternatives
        self.stats = GroundingStats()
        self.answers = DecisionCache(cache_size, enabled=cache)
        # What the last locate showed the model (node ids in mark order), for logs and tests.
        self.last_marks: list[int] = []

    def locate(self, intent: Intent, view: PageView) -> list[Candidate]:
        self.stats.locates += 1
        snap = view.snapshot
        self.last_marks = []
        candidates = [n for n in snap.nodes if eligible(intent, n, snap.root)]
        if not candidates:
            return []
        picture = picture_of(view)
        boxed = [(n, box) for n in candidates if (box := picture.box(n.bbox)) is not None]
        if not boxed:
            return []
        if len(boxed) > self.max_marks:
            def key(item):
                n = item[0]
                ls = leaf_details(intent, n)
                return tie_key(ls.score, ls.exact, n)

            kept = {n.id for n, _ in sorted(boxed, key=key)[: self.max_marks]}
            boxed = [(n, box) for n, box in boxed if n.id in kept]
        self.last_marks = [n.id for n, _ in boxed]
        lines = [f"[{k}] {describe(n)}" for k, (n, _) in enumerate(boxed, start=1)]
        cache_key = DecisionCache.key(intent, lines)
        local = self.answers.get(cache_key)
        if local is not None:
            self.stats.cache_hits += 1
        else:
            image = picture.marked([(k, box) for k, (_, box) in enumerate(boxed, start=1)])
            n = len(boxed)
            text = "\n".join(
                intent_lines(intent)
                + [
                    "",
                    f"Page: {snap.title or '(untitled)'} — {snap.url}",
                    f"The {n} marked elements (numbers as in the picture):",
                    *lines,
                    "",
                    f"Which marked element (1-{n}) is the target? null if none is.",
                ]
            )
            self.stats.calls += 1
            self.stats.images += 1
            reply = self.client.ask_json(PHASE, SYSTEM, text, [image], schema=CHOICE_SCHEMA, schema_name=SCHEMA_NAME)
            local = read_choice(reply, n)
            self.answers.put(cache_key, local)
        ids = [boxed[i][0].id for i in local]
        return ranked_candidates(snap, ids, limit=1 + self.max_alternatives)

    def clear_cache(self) -> None:
        self.answers.clear()
