"""One Chromium, launched lazily, handing every scenario a fresh context with its own trace."""

from __future__ import annotations

import concurrent.futures
import contextlib
import re
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urljoin, urlsplit

from playwright.sync_api import Browser, BrowserContext, Dialog, Page, Playwright, Route, sync_playwright
from playwright.sync_api import Error as PlaywrightError

from shared.settings import CHROMIUM_ARGS, Settings
from shared.urls import UnsafeTargetError, application_hosts, check_target_url, is_third_party
from workers.agent.actions.base import ActionFailed
from workers.agent.execution.page_scripts import SETTLE_SCRIPT


class BrowserUnavailableError(RuntimeError):
    """Chromium could not be started; the message says where it was looked for."""


class BrowserCrashedError(RuntimeError):
    """A pooled Chromium crashed or disconnected while a job was using it; the next job gets a new one."""


class RendererCrashedError(BrowserCrashedError):
    """The page's renderer process died under a scenario (Chromium's "Target crashed"): the machine's failure,
    never the application's. The scenario runs again on a fresh context."""


@dataclass
class PageEvents:
    """What the page did on its own between two observations."""

    dialogs: list[str] = field(default_factory=list)
    new_pages: list[str] = field(default_factory=list)
    page_errors: list[str] = field(default_factory=list)
    refused: list[str] = field(default_factory=list)  # requests the target policy stopped (kept for the run)
    stalled: list[str] = field(default_factory=list)  # third-party requests aborted unanswered (kept for the run)
    # How to answer the next dialogs, in order: (accept, prompt text). Without one, a dialog is accepted.
    dialog_answers: list[tuple[bool, str | None]] = field(default_factory=list)
    dialogs_answered: int = 0  # every dialog of the run so far
    crashed: list[str] = field(default_factory=list)  # pages whose renderer died (kept for the run)

    def drain(self) -> PageEvents:
        taken = PageEvents(list(self.dialogs), list(self.new_pages), list(self.page_errors))
        self.dialogs.clear()
        self.new_pages.clear()
        self.page_errors.clear()
        return taken


class RequestGuard:
    """Every request a page makes (navigations, frames, images, fetches) goes to an address the target policy
    allows, and so does every redirect of a page or frame: a redirect or a link cannot take the browser where
    a URL given to it could not (link-local and cloud-metadata addresses never; private and loopback ones
    when allowed). Playwright routes only the first URL of a redirect chain, so a document request is fetched
    here without following redirects, its Location checked, and the answer handed to the browser, whose next
    request is routed again. Decisions are kept per scheme, host and port: a host is resolved once per context.

    A resource from a host outside the application's (see shared.urls.application_hosts) that has not answered
    within third_party_timeout_ms (its name's resolution included) is aborted, and its host is cut off for the
    rest of the session: a stylesheet from an unreachable CDN blocks rendering, and must not do so on every page.
    """

    def __init__(self, allow_private: bool, events: PageEvents, app_hosts: frozenset[str] = frozenset(),
                 third_party_timeout_ms: int = 0, stalled_hosts: set[str] | None = None) -> None:
        self.allow_private = allow_private
        self.events = events
        self.app_hosts = app_hosts
        self.third_party_timeout_ms = third_party_timeout_ms
        self.stalled_hosts = stalled_hosts if stalled_hosts is not None else set()
        self._decided: dict[tuple[str, str], str | None] = {}

    def refusal(self, url: str, timeout_s: float | None = None) -> str | None:
        scheme, _, rest = url.partition("://")
        key = (scheme, rest.split("/", 1)[0])
        if key not in self._decided:
            try:
                if timeout_s is None:
                    check_target_url(url, allow_private=self.allow_private)
                else:  # a name server that never answers must not hold the page (nor this guard) for long
                    _RESOLVER.submit(check_target_url, url, allow_private=self.allow_private).result(timeout_s)
                self._decided[key] = None
            except UnsafeTargetError as exc:
                self._decided[key] = str(exc)
        return self._decided[key]

    def __call__(self, route: Route) -> None:
        request = route.request
        with contextlib.suppress(PlaywrightError):
            third_party = self.third_party_timeout_ms > 0 and is_third_party(request.url, self.app_hosts)
            if third_party and not request.is_navigation_request():
                self.third_party(route)
                return
            refusal = self.refusal(request.url)
            if refusal is None and request.is_navigation_request():
                try:  # no time limit of its own: the navigation's timeout governs a server that does not answer
                    response = route.fetch(max_redirects=0, timeout=0)
                except PlaywrightError as exc:  # the server cannot be reached: fail the navigation now, as it is
                    route.abort(network_error(str(exc)))
                    return
                location = response.headers.get("location")
                if 300 <= response.status < 400 and location:
                    refusal = self.refusal(urljoin(request.url, location))
                if refusal is None:
                    route.fulfill(response=response)
                    return
            if refusal is None:
                route.continue_()
                return
            self.refuse(route, refusal)

    def refuse(self, route: Route, refusal: str) -> None:
        self.events.refused.append(refusal)
        self.events.page_errors.append(f"request refused: {refusal}")
        route.abort("blockedbyclient")

    def third_party(self, route: Route) -> None:
        """A resource of another host: fetched here within the time limit and handed over, else aborted."""
        url = route.request.url
        host = (urlsplit(url).hostname or "").lower()
        if host in self.stalled_hosts:
            route.abort("timedout")
            return
        started = time.monotonic()
        limit_s = self.third_party_timeout_ms / 1000
        try:
            refusal = self.refusal(url, timeout_s=limit_s)
        except concurrent.futures.TimeoutError:
            self.stall(route, host, f"{url} (its host name did not resolve within {limit_s:g} s)")
            return
        if refusal is not None:
            self.refuse(route, refusal)
            return
        left_ms = max(1.0, self.third_party_timeout_ms - (time.monotonic() - started) * 1000)
        try:
            response = route.fetch(timeout=left_ms)
        except PlaywrightError as exc:
            if "Timeout" in str(exc) or "timed out" in str(exc).lower():
                self.stall(route, host, f"{url} (no answer within {limit_s:g} s)")
            else:
                route.abort("failed")
            return
        route.fulfill(response=response)

    def stall(self, route: Route, host: str, what: str) -> None:
        self.stalled_hosts.add(host)
        self.events.stalled.append(what)
        route.abort("timedout")


def network_error(message: str) -> str:
    """The abort code for a fetch that failed, so the page sees the error it would have seen itself: a refused
    connection, a name that does not resolve, a timeout, else a plain failure."""
    text = message.upper()
    if "ECONNREFUSED" in text:
        return "connectionrefused"
    if "ENOTFOUND" in text or "EAI_AGAIN" in text:
        return "namenotresolved"
    if "ECONNRESET" in text:
        return "connectionreset"
    if "TIMEOUT" in text or "ETIMEDOUT" in text:
        return "timedout"
    return "failed"


# Resolving a third-party host name in a thread lets the guard give up on it in time (getaddrinfo has no timeout).
_RESOLVER = concurrent.futures.ThreadPoolExecutor(max_workers=4, thread_name_prefix="stepforge-resolve")


# Playwright's words for a page whose renderer died: "Target crashed", "Navigation failed because page crashed!".
_CRASHED = re.compile(r"\b(?:Target|page) crashed\b", re.IGNORECASE)


@dataclass
class Tab:
    """The page a scenario drives, and what it emitted."""

    context: BrowserContext
    page: Page
    events: PageEvents

    def switch(self, which: str, timeout_ms: float) -> None:
        """Drive another page of the context: "new" the newest one (waiting for a popup still opening), "first"
        the page the scenario opened with, "close" closes this one and goes back to the first."""
        pages = self.context.pages
        if which == "new":
            others = [p for p in pages if p is not self.page]
            page = others[-1] if others and others[-1] is pages[-1] else None
            if page is None:
                try:
                    page = self.context.wait_for_event("page", timeout=timeout_ms)
                except PlaywrightError:
                    raise ActionFailed("no new tab or popup opened") from None
            page.wait_for_load_state("load", timeout=timeout_ms)
            self.page = page
        elif which in ("first", "close"):
            first = pages[0]
            if which == "close" and self.page is not first:
                self.page.close()
            self.page = first
            self.page.bring_to_front()
        else:
            raise ValueError(f"unknown tab {which!r}")

    def renderer_crash(self, evidence: str = "") -> str | None:
        """What says a page's renderer died during the run, else None: Playwright's crash event, or the failure
        itself ("Target crashed", "page crashed"; the event may arrive after the failed call it caused). The page
        is not asked: a page still loading would hold the question for the whole navigation timeout."""
        if not self.events.crashed and _CRASHED.search(evidence):
            self.events.crashed.append(self.page.url or "about:blank")
        if not self.events.crashed:
            return None
        return f"the browser's renderer crashed on {self.events.crashed[0]}"


class BrowserSession:
    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self._playwright: Playwright | None = None
        self._browser: Browser | None = None
        # Third-party hosts that stalled once: their later requests are aborted at once (see RequestGuard).
        self.stalled_hosts: set[str] = set()

    def browser(self) -> Browser:
        if self._browser is None or not self._browser.is_connected():
            self._browser = self.launch()
        return self._browser

    def launch(self) -> Browser:
        """A new Chromium on this session's Playwright (started on first use); the caller decides when it closes."""
        if self._playwright is None:
            self._playwright = sync_playwright().start()
        path = self.settings.browser_path
        if not Path(path).exists():
            raise BrowserUnavailableError(
                f"Chromium not found at {path}; install it (apt-get install chromium) or set STEPFORGE_BROWSER_PATH"
            )
        try:
            return self._playwright.chromium.launch(
                executable_path=path, headless=self.settings.headless, args=list(CHROMIUM_ARGS)
            )
        except PlaywrightError as exc:
            raise BrowserUnavailableError(f"Chromium at {path} did not start: {first_line(str(exc))}") from None

    def new_context(self, events: PageEvents, *, traced: bool, app_url: str | None = None) -> BrowserContext:
        """A fresh context as a scenario gets it: viewport, timeouts, the request guard, the settle script, tracing
        when asked. app_url names the application (its host on any port); other hosts are third parties. The
        caller closes it."""
        context = self.browser().new_context(
            viewport={"width": self.settings.viewport_width, "height": self.settings.viewport_height}
        )
        context.set_default_timeout(self.settings.action_timeout_ms)
        context.set_default_navigation_timeout(self.settings.navigation_timeout_ms)
        if self.settings.allow_private_targets:
            # The guard fulfils documents itself, and a fulfilled document loses its loopback address space:
            # Chromium's Local Network Access check would then refuse its fetch to an API on another local port.
            # The guard already decides which addresses a page may reach.
            with contextlib.suppress(PlaywrightError):  # a Chromium too old to know the permission has no check
                context.grant_permissions(["local-network-access"])
            # Nor does a fulfilled document get the clipboard a served one gets after a click: a copy button
            # (navigator.clipboard) works as it does for a person, and as it does in the suite's plain context.
            with contextlib.suppress(PlaywrightError):
                context.grant_permissions(["clipboard-read", "clipboard-write"])
        context.add_init_script(script=SETTLE_SCRIPT)
        if traced:
            context.tracing.start(screenshots=True, snapshots=True)
        guard = RequestGuard(self.settings.allow_private_targets, events,
                             application_hosts(app_url) if app_url else frozenset(),
                             self.settings.third_party_timeout_ms if app_url else 0, self.stalled_hosts)
        context.route("**/*", guard)
        return context

    @contextlib.contextmanager
    def tab(self, trace_path: Path | None = None, app_url: str | None = None) -> Iterator[Tab]:
        """A fresh context and page; the trace is saved when the block ends, even on error."""
        events = PageEvents()
        context = self.new_context(events, traced=trace_path is not None, app_url=app_url)

        def on_dialog(dialog: Dialog) -> None:
            accept, text = events.dialog_answers.pop(0) if events.dialog_answers else (True, None)
            events.dialogs.append(f"{dialog.type}: {dialog.message}" + ("" if accept else " (dismissed)"))
            events.dialogs_answered += 1
            with contextlib.suppress(PlaywrightError):
                if not accept:
                    dialog.dismiss()
                elif text is not None and dialog.type == "prompt":
                    dialog.accept(text)
                else:
                    dialog.accept()

        def watch(page: Page) -> None:
            page.on("dialog", on_dialog)
            page.on("pageerror", lambda error: events.page_errors.append(first_line(str(error))))
            page.on("crash", lambda crashed: events.crashed.append(crashed.url or "about:blank"))

        def on_page(new: Page) -> None:
            events.new_pages.append(new.url or "about:blank")
            watch(new)

        try:
            page = context.new_page()
            watch(page)
            context.on("page", on_page)
            yield Tab(context, page, events)
        finally:
            if trace_path is not None:
                with contextlib.suppress(PlaywrightError):
                    trace_path.parent.mkdir(parents=True, exist_ok=True)
                    context.tracing.stop(path=str(trace_path))
            with contextlib.suppress(PlaywrightError):
                context.close()

    def close(self) -> None:
        if self._browser is not None:
            with contextlib.suppress(PlaywrightError):
                self._browser.close()
            self._browser = None
        if self._playwright is not None:
            self._playwright.stop()
            self._playwright = None

    def __enter__(self) -> BrowserSession:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


_ROUTINE = ("waiting", "retrying", "attempting", "scrolling", "done scrolling", "element is visible, enabled and stable",
            "locator resolved", "navigating", "performing")


def first_line(message: str) -> str:
    """Playwright's first line says what failed; for a timeout, the call log's last telling line says why."""
    lines = [line.strip() for line in message.strip().splitlines() if line.strip()]
    head = next((line for line in lines if not line.startswith("=")), message.strip())[:300]
    if "Timeout" in head and "Call log:" in lines:
        log = [line.lstrip("-0123456789× ").strip() for line in lines[lines.index("Call log:") + 1:]]
        telling = [line for line in log if line and not line.startswith(_ROUTINE)]
        if telling:
            return f"{head} ({telling[-1][:200]})"
        if log and log[-1].startswith("waiting for locator(") and not any(x.startswith("locator resolved") for x in log):
            return f"{head} (nothing matches {log[-1].removeprefix('waiting for ')[:200]})"
    return head
