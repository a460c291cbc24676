"""Pages that change without a page load, APIs on another local port, and third-party hosts that never answer.

Each test drives a BrowserSession as generation does, in a thread of its own: the test session's own sync
Playwright may already run in the main thread.
"""

from __future__ import annotations

import json
import time
from typing import TypeVar

import pytest

from shared.artifacts.local import LocalArtifactStore
from shared.records import RunRecord
from shared.scenarios import Scenario
from shared.settings import Settings
from tests.agent.pages_site import in_thread
from tests.apps.silent_host import start_silent_host
from tests.http_site import SiteHandler, serve
from workers.agent.brains.builtin import BuiltinBrain
from workers.agent.execution.browser import BrowserSession
from workers.agent.execution.executor import perform, settle, wait_for_change
from workers.agent.grounding.tree import snapshot
from workers.agent.scenario_run import run_scenario

pytestmark = pytest.mark.e2e  # its tier (tests/conftest.py)

T = TypeVar("T")
API_DELAY_S = 0.6


class Api(SiteHandler):
    """A JSON API on its own port: answers after a delay, with CORS for any origin (preflight included)."""

    def cors(self) -> dict[str, str]:
        return {"Access-Control-Allow-Origin": self.headers.get("Origin") or "*",
                "Access-Control-Allow-Headers": "authorization, content-type"}

    def do_OPTIONS(self) -> None:  # noqa: N802
        self.send(b"", 204, headers=self.cors())

    def do_POST(self) -> None:  # noqa: N802
        time.sleep(API_DELAY_S)  # the server's own latency, the thing the agent must wait for
        if self.path != "/slow-body":
            self.send(json.dumps({"saved": True}), content_type="application/json", headers=self.cors())
            return
        # The headers now, the body later: fetch() resolves at the headers, the page's json() at the body.
        data = json.dumps({"saved": True}).encode()
        self.send_response(200)
        for name, value in {**self.cors(), "Content-Type": "application/json", "Content-Length": str(len(data))}.items():
            self.send_header(name, value)
        self.end_headers()
        self.wfile.flush()
        time.sleep(API_DELAY_S)
        self.wfile.write(data)


def page_handler(api: str, stylesheet: str | None) -> type[SiteHandler]:
    link = f"<link rel='stylesheet' href='{stylesheet}'>" if stylesheet else ""
    body = f"""<!doctype html><html><head>{link}</head><body>
      <button id="save">Save</button><button id="save-slow">Save slowly</button><div id="out"></div>
      <script>
        for (const [button, path] of [["save", "/save"], ["save-slow", "/slow-body"]])
        document.getElementById(button).addEventListener("click", async () => {{
          const answer = await fetch("{api}" + path, {{ method: "POST",
            headers: {{ "Authorization": "Bearer t", "Content-Type": "application/json" }}, body: "{{}}" }});
          const data = await answer.json();
          document.getElementById("out").textContent = data.saved ? "Saved" : "Not saved";
        }});
      </script></body></html>""".encode()

    class Page(SiteHandler):
        def do_GET(self) -> None:  # noqa: N802
            self.send(body)

    return Page


@pytest.fixture(scope="module")
def silent_host():
    url, stop = start_silent_host()
    yield url
    stop()


@pytest.fixture(scope="module")
def app(silent_host):
    api, stop_api = serve(Api)
    # The page names its API as localhost, itself as 127.0.0.1: two origins of one machine.
    api = api.replace("127.0.0.1", "localhost")
    site, stop_site = serve(page_handler(api, f"{silent_host}/theme.css"))
    yield site
    stop_site()
    stop_api()


def test_a_click_that_posts_to_an_api_on_another_port_settles_once_the_page_is_swapped(app):
    settings = Settings(third_party_timeout_ms=800)

    def work() -> tuple[str, list[str], list[str]]:
        with BrowserSession(settings) as session, session.tab(app_url=app) as tab:
            perform(tab.page, None, "goto", "/", app, settings)
            perform(tab.page, tab.page.locator("#save"), "click", None, app, settings)
            # Read at once, as generation reads the page after an operation: the answer came 0.6 s later.
            return tab.page.inner_text("#out"), tab.events.page_errors, tab.events.stalled

    out, errors, stalled = in_thread(work)
    # The page fetched localhost:<api port>, every request through the egress guard on loopback: Chromium's Local
    # Network Access check would refuse it ("Failed to fetch") unless the context may reach local addresses.
    assert out == "Saved", errors
    assert stalled and "theme.css" in stalled[0]


def test_a_request_still_in_flight_when_the_settle_window_ends_is_waited_for(app):
    # The API answers 0.6 s late, three times the settle window: its answer is what the next step acts on.
    settings = Settings(third_party_timeout_ms=800, settle_timeout_ms=200)

    def work() -> tuple[str, int]:
        with BrowserSession(settings) as session, session.tab(app_url=app) as tab:
            perform(tab.page, None, "goto", "/", app, settings)
            perform(tab.page, tab.page.locator("#save"), "click", None, app, settings)
            return tab.page.inner_text("#out"), tab.page.evaluate("window.__stepforge.pending()")

    out, pending = in_thread(work)
    assert (out, pending) == ("Saved", 0)


def test_a_request_is_in_flight_until_its_body_has_arrived_not_only_its_headers(app):
    # fetch() resolves at the headers; what the page does with the answer waits for the body, 0.6 s later.
    settings = Settings(third_party_timeout_ms=800)

    def work() -> str:
        with BrowserSession(settings) as session, session.tab(app_url=app) as tab:
            perform(tab.page, None, "goto", "/", app, settings)
            perform(tab.page, tab.page.locator("#save-slow"), "click", None, app, settings)
            return tab.page.inner_text("#out")

    assert in_thread(work) == "Saved"


def test_a_stalled_third_party_host_is_cut_off_after_its_first_request(app):
    settings = Settings(third_party_timeout_ms=500)

    def work() -> tuple[list[str], list[float]]:
        with BrowserSession(settings) as session:
            seconds = []
            stalled: list[str] = []
            for _ in range(2):
                with session.tab(app_url=app) as tab:
                    started = time.monotonic()
                    perform(tab.page, None, "goto", "/", app, settings)
                    seconds.append(time.monotonic() - started)
                    stalled += tab.events.stalled
            return stalled, seconds

    stalled, seconds = in_thread(work)
    assert len(stalled) == 1 and "no answer within 0.5 s" in stalled[0], stalled  # the second load aborts at once
    assert seconds[0] < settings.navigation_timeout_ms / 1000  # loaded: the stylesheet did not hold the page


def test_third_party_timeout_zero_leaves_other_hosts_alone(app):
    # Off: the stalled stylesheet holds the load event; the page still renders what it has.
    settings = Settings(third_party_timeout_ms=0, settle_timeout_ms=300)

    def work() -> list[str]:
        with BrowserSession(settings) as session, session.tab(app_url=app) as tab:
            tab.page.goto(app, wait_until="commit")
            settle(tab.page, settings)
            return tab.events.stalled

    assert in_thread(work) == []


def test_waiting_for_a_quiet_page_returns_at_once_when_nothing_is_pending(app):
    settings = Settings(third_party_timeout_ms=300, settle_timeout_ms=5_000, settle_quiet_ms=50)

    def work() -> tuple[bool, bool]:
        with BrowserSession(settings) as session, session.tab(app_url=app) as tab:
            perform(tab.page, None, "goto", "/", app, settings)
            quiet = settle(tab.page, settings)
            tab.page.click("#save")
            # A request in flight: the page is not quiet within a window shorter than the API's latency.
            busy = settle(tab.page, settings, time.monotonic() + API_DELAY_S / 3)
            return quiet, busy

    quiet, busy = in_thread(work)
    assert quiet is True
    assert busy is False


class Wizard(SiteHandler):
    """Start shows Continue 0.7 s later from a timer (no request the page could be seen waiting for)."""

    def do_GET(self) -> None:  # noqa: N802
        body = b"""<!doctype html><html><body><button id="start">Start</button><div id="next"></div><script>
          document.getElementById("start").onclick = () => setTimeout(() => {
            document.getElementById("next").innerHTML = '<button onclick="this.outerHTML=\\'<p>Finished</p>\\'">Continue</button>';
          }, 700);
        </script></body></html>"""
        self.send(body)


def test_grounding_looks_again_when_the_page_changes_until_the_target_appears(tmp_path):
    site, stop = serve(Wizard)
    settings = Settings()
    scenario = Scenario(id="WIZ", title="t", steps=["Click Start", "Click Continue", "Verify 'Finished' is shown"])

    def work() -> RunRecord:
        with BrowserSession(settings) as session:
            return run_scenario(scenario, BuiltinBrain(), session, base_url=site, settings=settings,
                                store=LocalArtifactStore(tmp_path))

    try:
        record = in_thread(work)
    finally:
        stop()
    assert record.verdict is not None and record.verdict.status == "passed", record.verdict
    click = next(op for op in record.operations if op.description == "Click Continue")
    assert click.ok and click.locator is not None and click.locator.value == "Continue"


class Rows(SiteHandler):
    """A list whose rows a script may add at any moment (as a page does while it is being read)."""

    def do_GET(self) -> None:  # noqa: N802
        self.send(b"<!doctype html><html><body><ul id='rows'><li>First</li></ul></body></html>")


def test_a_change_made_while_the_page_was_being_read_is_not_waited_for_again():
    site, stop = serve(Rows)
    settings = Settings(settle_quiet_ms=50)

    def work() -> tuple[bool, bool]:
        with BrowserSession(settings) as session, session.tab(app_url=site) as tab:
            perform(tab.page, None, "goto", "/", site, settings)
            read = snapshot(tab.page)
            # The row lands after the walk, while the rest of the snapshot is still taken: the page makes no
            # change after it, so only the change mark tells that the page is no longer what was read.
            tab.page.evaluate("() => document.getElementById('rows').insertAdjacentHTML('beforeend', '<li>Second</li>')")
            seen = wait_for_change(tab.page, settings, time.monotonic() + 1.5, read.change_mark)
            # With nothing changed since a mark, the wait still ends at its deadline with False.
            still = wait_for_change(tab.page, settings, time.monotonic() + 0.3, snapshot(tab.page).change_mark)
            return seen, still

    try:
        seen, still = in_thread(work)
    finally:
        stop()
    assert seen is True
    assert still is False


class Served(SiteHandler):
    """/whole: a long page served whole, no script; /scripted: the same, and a DOMContentLoaded handler adds a row."""

    def do_GET(self) -> None:  # noqa: N802
        rows = "".join(f"<li>Row {n}</li>" for n in range(2000))
        script = ("<script>document.addEventListener('DOMContentLoaded', () => document.getElementById('rows')"
                  ".insertAdjacentHTML('beforeend', '<li>Added</li>'))</script>") if self.path == "/scripted" else ""
        self.send(f"<!doctype html><html><body><ul id='rows'>{rows}</ul>{script}</body></html>")


def test_what_the_parser_inserts_is_the_page_s_first_view_and_a_script_s_change_starts_the_quiet_window():
    site, stop = serve(Served)
    # A quiet window far longer than the wait: quiet means "no change at all that the window must outlast".
    settings = Settings(settle_quiet_ms=60_000, settle_timeout_ms=300)

    def work() -> tuple[bool, bool]:
        with BrowserSession(settings) as session, session.tab(app_url=site) as tab:
            verdicts = []
            for path in ("/whole", "/scripted"):
                perform(tab.page, None, "goto", path, site, settings)
                verdicts.append(tab.page.evaluate("() => window.__stepforge.settle(60000, 300)"))
            return tuple(verdicts)

    try:
        whole, scripted = in_thread(work)
    finally:
        stop()
    assert whole is True  # loaded, nothing in flight, no change since parsing ended: quiet at once
    assert scripted is False  # the handler's row is a change: the page is not quiet until the window has passed
