"""The pictures generation keeps: what the window shows after an operation, and the whole page for a model."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from workers.agent.execution.pictures import full_page_png, viewport_png

pytestmark = pytest.mark.e2e  # its tier (tests/conftest.py)

# A red band at the top, a blue one 2,000 px further down: below the 800 px window.
LONG_PAGE = """<!doctype html><html><body style="margin: 0">
<div style="height: 100px; background: rgb(255, 0, 0)"></div>
<div style="height: 2000px"></div>
<div style="height: 100px; background: rgb(0, 0, 255)"></div>
</body></html>"""


def picture(png: bytes) -> Image.Image:
    assert png.startswith(b"\x89PNG\r\n\x1a\n")
    return Image.open(io.BytesIO(png)).convert("RGB")


def test_the_window_s_picture_is_what_the_window_shows_where_it_is_scrolled(page):
    page.set_content(LONG_PAGE)
    top = picture(viewport_png(page))
    assert top.size == (1280, 800)
    assert top.getpixel((640, 50)) == (255, 0, 0)
    page.evaluate("window.scrollTo(0, document.body.scrollHeight)")
    bottom = picture(viewport_png(page))
    assert bottom.size == (1280, 800)
    assert bottom.getpixel((640, 750)) == (0, 0, 255) and bottom.getpixel((640, 50)) != (255, 0, 0)


def test_the_whole_page_s_picture_reaches_beyond_the_window_from_its_top(page):
    page.set_content(LONG_PAGE)
    page.evaluate("window.scrollTo(0, 500)")
    whole = picture(full_page_png(page))
    assert whole.size == (1280, 2200)
    assert whole.getpixel((640, 50)) == (255, 0, 0)
    assert whole.getpixel((640, 2150)) == (0, 0, 255)
    assert picture(viewport_png(page)).size == (1280, 800)  # the window is as it was


def test_a_page_shorter_than_the_window_is_pictured_window_high(page):
    page.set_content("<!doctype html><p>short</p>")
    assert picture(full_page_png(page)).size == (1280, 800)


def test_a_closed_page_s_picture_fails_with_playwright_s_error(page):
    from playwright.sync_api import Error

    viewport_png(page)
    page.close()
    with pytest.raises(Error):
        viewport_png(page)


@pytest.mark.parametrize("take", [viewport_png, full_page_png])
def test_a_renderer_that_composites_no_frame_fails_the_picture_at_its_time_limit(page, take):
    """DevTools answers a capture once a frame is composited: a main thread kept busy composites none. Without a
    time limit the picture (and the generation) would wait as long as the page keeps it busy."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

    page.set_content("<!doctype html><p>busy</p>")
    viewport_png(page)  # the page's DevTools session is open before its main thread is taken
    page.evaluate("setTimeout(() => { const end = Date.now() + 15000; while (Date.now() < end) {} }, 0)")
    with pytest.raises(PlaywrightTimeoutError, match="Timeout 1000ms exceeded"):
        take(page, timeout_ms=1000)


def test_a_page_whose_window_picture_timed_out_is_not_pictured_again(page):
    from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

    page.set_content("<!doctype html><p>busy</p>")
    viewport_png(page)
    page.evaluate("setTimeout(() => { const end = Date.now() + 15000; while (Date.now() < end) {} }, 0)")
    with pytest.raises(PlaywrightTimeoutError, match="Timeout 1000ms exceeded"):
        viewport_png(page, timeout_ms=1000)
    with pytest.raises(PlaywrightTimeoutError, match="an earlier picture of this page did not come"):
        viewport_png(page, timeout_ms=60_000)  # at once, not after the page's 14 s of work
