"""Shared fixtures: real services started once per session."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, Page, sync_playwright

from shared.settings import CHROMIUM_ARGS, get_settings


@pytest.fixture(scope="session")
def browser() -> Browser:
    settings = get_settings()
    with sync_playwright() as pw:
        browser = pw.chromium.launch(
            executable_path=settings.browser_path, headless=True, args=list(CHROMIUM_ARGS)
        )
        yield browser
        browser.close()


@pytest.fixture
def page(browser: Browser) -> Page:
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    yield page
    context.close()
