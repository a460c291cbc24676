"""One Chromium, launched lazily, handing every scenario a fresh context with its own trace."""

from __future__ import annotations

import contextlib
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from playwright.sync_api import Browser, BrowserContext, Dialog, Page, Playwright, Route, sync_playwright
from playwright.sync_api import Error as PlaywrightError

from shared.egress import GuardSession, egress_guard
from shared.settings import CHROMIUM_ARGS, Settings
from shared.urls import NO_EGRESS, TargetPolicy, application_hosts, is_third_party, url_host
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
    refused: list[str] = field(default_factory=list)  # requests the egress guard refused (kept for the run)
    unreachable: list[str] = field(default_factory=list)  # servers the egress guard could not reach (kept for the run)
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


class ThirdPartyGuard:
    """A resource from a host outside the application's (see shared.urls.application_hosts) that has not answered
    within timeout_ms (its name's resolution included) is aborted, and its host is cut off for the rest of the
    session: a stylesheet from an unreachable CDN blocks rendering, and must not do so on every page. Whether a
    request may go out at all is the egress guard's to say (shared/egress.py), for these fetches too."""

    def __init__(self, events: PageEvents, app_hosts: frozenset[str], timeout_ms: int,
                 stalled_hosts: set[str] | None = None) -> None:
        self.events = events
        self.app_hosts = app_hosts
        self.timeout_ms = timeout_ms
        self.stalled_hosts = stalled_hosts if stalled_hosts is not None else set()

    def __call__(self, route: Route) -> None:
        request = route.request
        with contextlib.suppress(PlaywrightError):
            if request.is_navigation_request() or not is_third_party(request.url, self.app_hosts):
                route.continue_()
                return
            host = url_host(request.url)
            if host in self.stalled_hosts:
                route.abort("timedout")
                return
            try:
                response = route.fetch(timeout=self.timeout_ms)
            except PlaywrightError as exc:
                if "Timeout" in str(exc) or "timed out" in str(exc).lower():
                    self.stalled_hosts.add(host)
                    self.events.stalled.append(f"{request.url} (no answer within {self.timeout_ms / 1000:g} s)")
                    route.abort("timedout")
                else:
                    route.abort("failed")
                return
            route.fulfill(response=response)


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
        # The browser's own traffic (component updates, account lookups) goes to a guard session that lets
        # nothing out; each context gets a session applying the target policy (see new_context).
        self._background: GuardSession | None = None
        # Third-party hosts that stalled once: their later requests are aborted at once (see ThirdPartyGuard).
        self.stalled_hosts: set[str] = set()

    def browser(self) -> Browser:
        if self._browser is None or not self._browser.is_connected():
            self._browser = self.launch()
        return self._browser

    def launch(self) -> Browser:
        """A new Chromium on this session's Playwright (started on first use); the caller decides when it closes."""
        if self._playwright is None:
            self._playwright = sync_playwright().start()
        path = self.settings.generation_browser
        if not Path(path).exists():
            raise BrowserUnavailableError(
                f"Chromium not found at {path}; install it (apt-get install chromium) or set STEPFORGE_BROWSER_PATH "
                "(STEPFORGE_GENERATION_BROWSER_PATH for generation alone)"
            )
        if self._background is None:
            self._background = egress_guard().open(NO_EGRESS)
        try:
            return self._playwright.chromium.launch(
                executable_path=path, headless=self.settings.headless, args=list(CHROMIUM_ARGS),
                proxy=self._background.playwright_proxy,
            )
        except PlaywrightError as exc:
            raise BrowserUnavailableError(f"Chromium at {path} did not start: {first_line(str(exc))}") from None

    def new_context(self, events: PageEvents, *, traced: bool, app_url: str | None = None) -> BrowserContext:
        """A fresh context as a scenario gets it: viewport, timeouts, its own egress guard session (what it
        refuses goes to events), the settle script, tracing when asked. app_url names the application (its host on
        any port); other hosts are third parties. The caller closes it; its guard session closes with it."""
        guard = egress_guard()
        session = guard.open(TargetPolicy.of(self.settings), events.refused, events.unreachable)
        try:
            context = self.browser().new_context(
                viewport={"width": self.settings.viewport_width, "height": self.settings.viewport_height},
                proxy=session.playwright_proxy,
            )
        except BaseException:
            guard.close(session)
            raise
        context.on("close", lambda _: guard.close(session))
        context.set_default_timeout(self.settings.action_timeout_ms)
        context.set_default_navigation_timeout(self.settings.navigation_timeout_ms)
        if self.settings.allow_private_targets:
            # Everything goes through the egress guard on loopback, which already decides which addresses a page
            # may reach: Chromium's Local Network Access check must not refuse a page's fetch to an API on another
            # local port.
            with contextlib.suppress(PlaywrightError):  # a Chromium too old to know the permission has no check
                context.grant_permissions(["local-network-access"])
            # A copy button (navigator.clipboard) works as it does for a person, and as in the suite's context.
            with contextlib.suppress(PlaywrightError):
                context.grant_permissions(["clipboard-read", "clipboard-write"])
        context.add_init_script(script=SETTLE_SCRIPT)
        if traced:
            context.tracing.start(screenshots=self.settings.trace_screenshots, snapshots=True)
        if app_url and self.settings.third_party_timeout_ms > 0:
            context.route("**/*", ThirdPartyGuard(events, application_hosts(app_url),
                                                  self.settings.third_party_timeout_ms, self.stalled_hosts))
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
        if self._background is not None:
            egress_guard().close(self._background)
            self._background = None

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
