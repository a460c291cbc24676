"""Scripts installed in every page the agent drives, and in every page of the generated suite (no browser here,
so the emitters can read them too)."""

from __future__ import annotations

from importlib import resources

# Counts fetch/XHR in flight and notes DOM changes: a caller waits until the page is quiet, or for its next
# change, instead of sleeping (see settle.js).
SETTLE_SCRIPT = resources.files("workers.agent.execution").joinpath("settle.js").read_text(encoding="utf-8")
