"""Pictures of the page (PNG): the one kept after each operation and the whole page a model is shown.

Chromium encodes them itself. Asked to favour speed over size (DevTools' Page.captureScreenshot with
optimizeForSpeed, which Playwright's page.screenshot does not pass), it spends about 40% less CPU on a picture for a
file about a third larger: on 2026-12-04, a PetClinic list at 1280x800 took 47 against 79 CPU-ms (browser and
driver) and 89 against 67 KB. A generation takes one after every operation. Each page gets one DevTools session,
opened on its first picture; a page it cannot be had for (not Chromium's) is pictured by Playwright.

A picture has a time limit, as Playwright's own page.screenshot has: DevTools answers a capture only once the
renderer has composited a frame, and a renderer that never does (its main thread kept busy; or, seen twice under
load, an idle renderer whose compositing stopped, for reasons not known) would otherwise hold the generation
forever. Past the limit the capture fails with Playwright's TimeoutError; a healthy one takes well under 100 ms. A
page whose window picture timed out once is not pictured again, so that each later operation does not wait out the
limit as well, should its renderer not recover.
"""

from __future__ import annotations

import base64
import math
from weakref import WeakKeyDictionary, WeakSet

from playwright.sync_api import CDPSession, Page
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

CAPTURE_TIMEOUT_MS = 20_000

_sessions: WeakKeyDictionary[Page, CDPSession | None] = WeakKeyDictionary()
_stalled: WeakSet[Page] = WeakSet()


def _session(page: Page) -> CDPSession | None:
    if page not in _sessions:
        try:
            _sessions[page] = page.context.new_cdp_session(page)
        except Exception:  # noqa: BLE001 - a browser without DevTools sessions: Playwright's own pictures
            _sessions[page] = None
    return _sessions[page]


def _capture(session: CDPSession, timeout_ms: float, **params: object) -> bytes:
    shot = session.send("Page.captureScreenshot", {"format": "png", "optimizeForSpeed": True, **params},
                        timeout=timeout_ms)
    return base64.b64decode(shot["data"])


def viewport_png(page: Page, timeout_ms: float = CAPTURE_TIMEOUT_MS) -> bytes:
    """What the window shows."""
    if page in _stalled:
        raise PlaywrightTimeoutError("not pictured: an earlier picture of this page did not come within its limit")
    session = _session(page)
    try:
        return _capture(session, timeout_ms) if session is not None else page.screenshot(timeout=timeout_ms)
    except PlaywrightTimeoutError:
        _stalled.add(page)
        raise


def full_page_png(page: Page, timeout_ms: float = CAPTURE_TIMEOUT_MS) -> bytes:
    """The whole page, from its top left corner, beyond the window too (as page.screenshot(full_page=True))."""
    session = _session(page)
    if session is None:
        return page.screenshot(full_page=True, timeout=timeout_ms)
    metrics = session.send("Page.getLayoutMetrics", timeout=timeout_ms)
    content, window = metrics["cssContentSize"], metrics["cssLayoutViewport"]
    width = math.ceil(max(content["width"], window["clientWidth"]))
    height = math.ceil(max(content["height"], window["clientHeight"]))
    return _capture(session, timeout_ms, captureBeyondViewport=True,
                    clip={"x": 0, "y": 0, "width": width, "height": height, "scale": 1})
