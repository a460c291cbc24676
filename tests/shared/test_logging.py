"""Logging set-up: lines go to the standard error of the moment."""

from __future__ import annotations

import io

from shared.logging import configure_logging, log
from shared.settings import Settings


def test_a_line_goes_to_the_stderr_of_the_moment_not_to_a_replaced_and_closed_one(monkeypatch):
    first = io.StringIO()
    monkeypatch.setattr("sys.stderr", first)  # as a test's captured output is, while configure_logging runs
    configure_logging(Settings())
    first.close()
    second = io.StringIO()
    monkeypatch.setattr("sys.stderr", second)
    log.warning("delivery.send_failed", event_id="evt_1")
    assert "delivery.send_failed" in second.getvalue() and "event_id=evt_1" in second.getvalue()
