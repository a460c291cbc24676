"""Each scenario's trace.zip holds its actions with the page's DOM before and after them; the filmstrip of screenshots
is left out unless asked for (STEPFORGE_TRACE_SCREENSHOTS): the run keeps a picture after every operation already."""

from __future__ import annotations

import json
import zipfile
from pathlib import Path

import pytest

from shared.settings import Settings
from tests.agent.pages_site import in_thread, serve_page
from workers.agent.execution.browser import BrowserSession

pytestmark = pytest.mark.e2e  # its tier (tests/conftest.py)

PAGE = """<!doctype html><html><body><h1>Notes</h1>
<button onclick="document.body.insertAdjacentHTML('beforeend', '<p>Saved</p>')">Save</button></body></html>"""


def trace_events(settings: Settings, folder: Path) -> set[str]:
    """The kinds of event in the trace of a tab that opened the page and clicked its button."""
    site, stop = serve_page(PAGE)
    trace = folder / "trace.zip"

    def visit() -> None:
        session = BrowserSession(settings)
        try:
            with session.tab(trace_path=trace, app_url=site) as tab:
                tab.page.goto(site)
                tab.page.get_by_role("button", name="Save").click()
                tab.page.get_by_text("Saved").wait_for()
        finally:
            session.close()

    try:
        in_thread(visit)
    finally:
        stop()
    with zipfile.ZipFile(trace) as archive:
        lines = [line for name in archive.namelist() if name.endswith(".trace")
                 for line in archive.read(name).decode().splitlines() if line.strip()]
    return {json.loads(line).get("type") for line in lines}


def test_the_trace_keeps_the_dom_of_each_action_and_no_filmstrip_by_default(tmp_path):
    kinds = trace_events(Settings(), tmp_path)
    assert {"before", "after", "frame-snapshot"} <= kinds, kinds
    assert "screencast-frame" not in kinds


def test_the_filmstrip_is_kept_when_asked_for(tmp_path):
    kinds = trace_events(Settings(trace_screenshots=True), tmp_path)
    assert {"frame-snapshot", "screencast-frame"} <= kinds, kinds
