"""The grounding interface: from an intent's target phrase to ranked candidate elements of the page.

    Grounder.locate(intent, view) -> list[Candidate], best first; empty when nothing fits.

`TextGrounder` is HTE with the text chooser (offline, the builtin brain's grounding). The openai
brain uses `model_hte.ModelHteGrounder` or `som.SomGrounder`, picked per job (`grounding: hte|som`).
"""

from __future__ import annotations

from typing import Protocol, runtime_checkable

from shared.records import Candidate, Intent
from workers.agent.execution.view import PageView

from .hte import ground


@runtime_checkable
class Grounder(Protocol):
    name: str

    def locate(self, intent: Intent, view: PageView) -> list[Candidate]:
        """Candidates for `intent.target` on the page of `view`, best first."""
        ...


class TextGrounder:
    """HTE descent ranked by text similarity; needs no screenshot."""

    name = "text"

    def locate(self, intent: Intent, view: PageView) -> list[Candidate]:
        return ground(intent, view.snapshot)
