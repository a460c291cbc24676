"""The browser never follows a redirect, frame or image to an address the target policy refuses."""

from __future__ import annotations

import socket
import time

import pytest
from playwright.sync_api import Error as PlaywrightError

from shared.settings import Settings
from tests.http_site import SiteHandler, serve
from workers.agent.execution.browser import PageEvents, RequestGuard
from workers.agent.execution.executor import ActionFailed, open_url


class Site(SiteHandler):
    def do_GET(self) -> None:  # noqa: N802
        if self.path == "/to-metadata":
            self.send_response(302)
            self.send_header("Location", "http://169.254.169.254/latest/meta-data/")
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        body = b"<h1>Home</h1><img src='http://169.254.169.254/latest/meta-data/iam.png'>"
        self.send(body)


@pytest.fixture(scope="module")
def site():
    url, stop = serve(Site)
    yield url
    stop()


def guarded(page, allow_private: bool) -> PageEvents:
    events = PageEvents()
    page.context.route("**/*", RequestGuard(allow_private, events))
    return events


def test_a_redirect_to_a_metadata_address_is_stopped(page, site):
    events = guarded(page, allow_private=True)
    with pytest.raises(ActionFailed, match="led to an address the target policy refuses"):
        open_url(page, f"{site}/to-metadata", Settings(allow_private_targets=True))
    assert any("169.254.169.254 is a link-local or reserved address" in r for r in events.refused)


def test_a_page_cannot_load_a_refused_resource_but_still_loads(page, site):
    events = guarded(page, allow_private=True)
    assert open_url(page, f"{site}/", Settings(allow_private_targets=True)) == 200
    assert page.inner_text("h1") == "Home"
    assert events.refused and "169.254.169.254" in events.refused[0]
    assert any(e.startswith("request refused:") for e in events.page_errors)


def test_private_targets_are_refused_inside_the_browser_too_when_not_allowed(page, site):
    events = guarded(page, allow_private=False)
    with pytest.raises(PlaywrightError, match="ERR_BLOCKED_BY_CLIENT"):
        page.goto(site)  # even a direct navigation the executor did not check
    assert "private or loopback address" in events.refused[0]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def test_a_refused_connection_fails_at_once_and_says_so(page):
    """Refused, unresolvable and silent servers are told apart; the first fails in well under the load timeout."""
    guarded(page, allow_private=True)
    port = free_port()
    settings = Settings(allow_private_targets=True, navigation_timeout_ms=15000)
    page.context.set_default_navigation_timeout(settings.navigation_timeout_ms)
    started = time.monotonic()
    with pytest.raises(ActionFailed) as refused:
        open_url(page, f"http://127.0.0.1:{port}/", settings)
    assert str(refused.value) == f"http://127.0.0.1:{port}/ refused the connection (nothing listens on 127.0.0.1:{port})"
    assert time.monotonic() - started < 10  # the load timeout is 15 s: it did not wait for it
    with pytest.raises(ActionFailed, match="does not resolve"):
        open_url(page, "http://no-such-host.invalid/", settings)


def test_a_server_that_never_answers_is_a_timeout(page):
    guarded(page, allow_private=True)
    silent = socket.socket()
    silent.bind(("127.0.0.1", 0))
    silent.listen(5)  # accepts connections, never answers
    try:
        settings = Settings(allow_private_targets=True, navigation_timeout_ms=1500)
        page.context.set_default_navigation_timeout(settings.navigation_timeout_ms)
        url = f"http://127.0.0.1:{silent.getsockname()[1]}/"
        with pytest.raises(ActionFailed, match=r"did not load within 1\.5 s \(the server did not answer\)"):
            open_url(page, url, settings)
    finally:
        silent.close()
