"""A navigation the egress guard stops, or a server that cannot be reached, fails with a reason a person can act
on: the address the policy refuses, a closed port, a name that does not resolve, a server that never answers."""

from __future__ import annotations

import socket
import time

import pytest
from playwright.sync_api import Error as PlaywrightError

from shared.settings import Settings
from tests.agent.pages_site import in_thread
from tests.http_site import SiteHandler, serve
from workers.agent.execution.browser import BrowserSession, PageEvents
from workers.agent.execution.executor import ActionFailed, open_url

pytestmark = pytest.mark.e2e  # its tier (tests/conftest.py)


class Site(SiteHandler):
    def do_GET(self) -> None:  # noqa: N802
        if self.path == "/to-metadata":
            self.send(b"", status=302, headers={"Location": "http://169.254.169.254/latest/meta-data/"})
            return
        self.send(b"<h1>Home</h1><img src='http://169.254.169.254/latest/meta-data/iam.png'>")


@pytest.fixture(scope="module")
def site():
    url, stop = serve(Site)
    yield url
    stop()


SETTINGS = Settings(allow_private_targets=True, navigation_timeout_ms=15000)


def opening(url: str, settings: Settings = SETTINGS) -> tuple[str, PageEvents]:
    """Open url in a fresh session's tab, in a thread of its own; (the failure or the h1, the tab's events)."""

    def work() -> tuple[str, PageEvents]:
        with BrowserSession(settings) as session, session.tab() as tab:
            try:
                open_url(tab.page, url, settings, tab.events)
            except ActionFailed as exc:
                return f"failed: {exc}", tab.events
            tab.page.wait_for_function("[...document.images].every(i => i.complete)")
            return tab.page.inner_text("h1"), tab.events

    return in_thread(work)


def test_a_redirect_to_a_metadata_address_is_stopped(site):
    outcome, events = opening(f"{site}/to-metadata")
    assert outcome.startswith(f"failed: {site}/to-metadata led to an address the target policy refuses")
    assert any("169.254.169.254 is a cloud metadata or link-local address" in r for r in events.refused)


def test_a_page_cannot_load_a_refused_resource_but_still_loads(site):
    outcome, events = opening(f"{site}/")
    assert outcome == "Home"
    assert events.refused and "169.254.169.254" in events.refused[0]


def test_private_targets_are_refused_inside_the_browser_too_when_not_allowed(site):
    def work() -> tuple[str, list[str]]:
        with BrowserSession(Settings(allow_private_targets=False)) as session, session.tab() as tab:
            try:
                tab.page.goto(site)  # even a direct navigation the executor did not check
            except PlaywrightError as exc:
                return str(exc), tab.events.refused
            return "loaded", tab.events.refused

    error, refused = in_thread(work)
    assert "ERR_EMPTY_RESPONSE" in error
    assert "private or loopback address" in refused[0]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def test_a_refused_connection_fails_at_once_and_says_so():
    """Refused, unresolvable and silent servers are told apart; the first fails in well under the load timeout."""
    port = free_port()
    started = time.monotonic()
    outcome, _ = opening(f"http://127.0.0.1:{port}/")
    assert outcome == f"failed: http://127.0.0.1:{port}/: refused the connection (nothing listens on 127.0.0.1:{port})"
    assert time.monotonic() - started < 10  # the load timeout is 15 s: it did not wait for it
    outcome, _ = opening("http://no-such-host.invalid/")
    assert "does not resolve" in outcome


def test_a_server_that_never_answers_is_a_timeout():
    silent = socket.socket()
    silent.bind(("127.0.0.1", 0))
    silent.listen(5)  # accepts connections, never answers
    try:
        settings = Settings(allow_private_targets=True, navigation_timeout_ms=1500)
        outcome, _ = opening(f"http://127.0.0.1:{silent.getsockname()[1]}/", settings)
        assert outcome == (f"failed: http://127.0.0.1:{silent.getsockname()[1]}/ did not load within 1.5 s (the "
                           "server did not answer)")
    finally:
        silent.close()
