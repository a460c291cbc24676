"""The dashboard driven in a real Chromium (Playwright), as a QA lead uses it the morning after a regeneration: sign
in with the project's key, open the morning report, open a failed scenario and see its screenshot timeline, accept a
regenerated script, sign out. It runs inside the regeneration test, on the batches that test generated (they are
made once: the costly part). The README's pictures of the report and the timeline are taken here, from the page,
when asked: STEPFORGE_DASHBOARD_PICTURES=docs/dashboard (a folder) retakes them; a run without it leaves them as
they are."""

from __future__ import annotations

import os
from pathlib import Path

from playwright.sync_api import Page, expect, sync_playwright

from api.app import create_app
from shared.service_settings import ServiceSettings
from tests.registry.helpers import ServerThread

PICTURES = os.environ.get("STEPFORGE_DASHBOARD_PICTURES", "")
VIEWPORT = {"width": 1366, "height": 900}  # a laptop's screen
# A picture's width once the browser has loaded it (0: it could not be loaded), waiting for its load or error event.
LOADED_WIDTH = """img => img.complete ? img.naturalWidth : new Promise(done => {
  img.addEventListener("load", () => done(img.naturalWidth)); img.addEventListener("error", () => done(0)); })"""


def picture(page: Page, name: str) -> None:
    """The viewport as the README shows it, into STEPFORGE_DASHBOARD_PICTURES when it is set."""
    if PICTURES:
        Path(PICTURES).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(PICTURES) / name), full_page=False)


def accept_in_the_dashboard(settings: ServiceSettings, api_key: str, project_id: int, batch_id: int, accepted: str,
                            failed: str) -> None:
    """In the browser: the report of `batch_id` shows `accepted` (an app_changed scenario whose regenerated script
    passed) with its diff and an Accept button, and `failed` (one whose script failed) with the step it stopped
    at; `failed`'s page has a picture after each operation; Accept makes `accepted`'s script the verified one;
    after signing out the pages ask to sign in again."""
    with ServerThread(create_app(settings)) as server, sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=settings.generation_browser, headless=True)
        page = browser.new_context(viewport=VIEWPORT).new_page()
        page.goto(f"{server.url}/ui/")
        expect(page.get_by_role("heading", name="Sign in")).to_be_visible()
        page.keyboard.press("Tab")  # from the keyboard: the skip link first, then the form
        expect(page.get_by_role("link", name="Skip to content")).to_be_focused()
        page.get_by_label("API key").fill(api_key)
        page.get_by_label("API key").press("Enter")
        expect(page.get_by_role("heading", level=1)).not_to_have_text("Sign in")
        page.get_by_role("link", name=f"Batch {batch_id}", exact=True).click()
        expect(page.get_by_role("heading", name=f"Batch {batch_id}")).to_be_visible()
        page.get_by_role("link", name="Morning report").click()

        report = page.get_by_role("main")
        expect(report.get_by_role("heading", name="Morning report")).to_be_visible()
        kept = page.locator("article", has=page.get_by_role("heading", name=accepted))
        expect(kept.get_by_role("group").or_(kept.locator("details"))).to_contain_text("+")  # the diff is shown
        expect(page.locator("article", has=page.get_by_role("heading", name=failed))).to_contain_text("Step 3")
        picture(page, "morning-report.png")

        page.locator("article", has=page.get_by_role("heading", name=failed)).get_by_role("link", name=failed).click()
        expect(page.get_by_role("heading", name="Timeline", exact=True)).to_be_visible()
        pictures = page.get_by_role("main").locator("ol.timeline img")
        expect(pictures.first).to_be_visible()
        assert pictures.count() >= 2, pictures.count()
        for index in range(pictures.count()):  # each picture loaded from the dashboard's artifact route
            pictures.nth(index).scroll_into_view_if_needed()
            width = pictures.nth(index).evaluate(LOADED_WIDTH)
            assert width > 0, (index, pictures.nth(index).get_attribute("src"))
        pictures.first.evaluate("img => img.closest('section').scrollIntoView({block: 'start'})")  # its timeline
        picture(page, "scenario-timeline.png")

        page.go_back()
        page.get_by_role("button", name=f"Accept the regenerated script for {accepted}").click()
        expect(page.locator("article", has=page.get_by_role("heading", name=accepted))).to_contain_text(
            "it is the verified script now")
        expect(page.get_by_role("button", name=f"Accept the regenerated script for {accepted}")).to_have_count(0)

        page.get_by_role("button", name="Sign out").click()
        expect(page.get_by_role("heading", name="Sign in")).to_be_visible()
        page.goto(f"{server.url}/ui/projects/{project_id}/batches/{batch_id}/report")
        expect(page.get_by_role("heading", name="Sign in")).to_be_visible()  # the session ended
        browser.close()
