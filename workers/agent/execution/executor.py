"""Perform one operation with Playwright and summarise what it changed."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Locator as PlaywrightLocator
from playwright.sync_api import Page

from shared.egress import reason_of
from shared.records import Node, Observation, PageSnapshot
from shared.settings import Settings
from shared.urls import TargetPolicy, UnsafeTargetError
from workers.agent.actions import ActionFailed, CheckFailed, action
from workers.agent.actions.kinds.goto import absolute_url
from workers.agent.actions.shown import shown_text_pattern
from workers.agent.execution.browser import PageEvents, Tab, first_line

__all__ = ["ActionFailed", "CheckFailed", "absolute_url"]



@dataclass(frozen=True)
class PageState:
    url: str
    title: str
    elements: int
    text_length: int
    text_hash: int


_STATE_JS = """() => {
  const text = document.body ? document.body.innerText : "";
  let hash = 5381;
  for (let i = 0; i < text.length; i++) hash = ((hash * 33) ^ text.charCodeAt(i)) >>> 0;
  return [document.querySelectorAll("*").length, text.length, hash, document.title];
}"""


def page_state(page: Page) -> PageState:
    """One round trip: element count, text length and hash, title."""
    try:
        elements, text_length, text_hash, title = page.evaluate(_STATE_JS)
    except PlaywrightError:  # the page is navigating; it will be read again after it settles
        elements, text_length, text_hash, title = 0, 0, 0, ""
    return PageState(page.url, title, elements, text_length, text_hash)


def snapshot_state(snapshot: PageSnapshot) -> PageState | None:
    """The page's state as the snapshot saw it; None when the snapshot carries none."""
    if snapshot.state is None:
        return None
    return PageState(snapshot.url, snapshot.title, *snapshot.state)


_SETTLE_JS = ("([quiet, timeout, requests]) => "
              "window.__stepforge ? window.__stepforge.settle(quiet, timeout, requests) : true")
_CHANGED_JS = "([timeout, since]) => window.__stepforge ? window.__stepforge.changed(timeout, since) : false"


def settle(page: Page, settings: Settings, deadline: float | None = None) -> bool:
    """Wait until the page is quiet: any navigation loaded, then no fetch or XHR in flight and no DOM change for
    the quiet window (settle.js). Event-driven and bounded by settle_timeout_ms (or the given monotonic
    deadline), except that a request still in flight then is waited for up to action_timeout_ms: a slow API's
    answer may replace the view the next step acts on. True when the page settled in time."""
    requests_by = deadline
    if deadline is None:
        deadline = time.monotonic() + settings.settle_timeout_ms / 1000
        requests_by = time.monotonic() + max(settings.settle_timeout_ms, settings.action_timeout_ms) / 1000
    while (left := round((deadline - time.monotonic()) * 1000)) > 0:
        try:
            page.wait_for_load_state("load", timeout=left)
            requests_left = max(left, round((requests_by - time.monotonic()) * 1000))
            return bool(page.evaluate(_SETTLE_JS, [settings.settle_quiet_ms, max(1, left), requests_left]))
        except PlaywrightError:
            continue  # the document was replaced meanwhile (a navigation): wait for the new one
    return False


_MARK_JS = "() => window.__stepforge ? window.__stepforge.mark() : null"


def change_mark(page: Page) -> int | None:
    """How many changes the page has made so far (for wait_for_change's `since`); None when it is not counting."""
    try:
        mark = page.evaluate(_MARK_JS)
    except PlaywrightError:
        return None
    return mark if isinstance(mark, int) else None


def wait_for_change(page: Page, settings: Settings, deadline: float, since: int | None = None) -> bool:
    """Wait for the page's next request or DOM change, then for it to settle; False once the deadline has
    passed with no change. A navigation counts as a change. `since`: the change mark of the snapshot the caller
    read (PageSnapshot.change_mark); a change made after it, while the page was still being read, counts at once."""
    left = round((deadline - time.monotonic()) * 1000)
    if left <= 0:
        return False
    try:
        changed = bool(page.evaluate(_CHANGED_JS, [left, since]))
    except PlaywrightError:
        changed = True  # the document was replaced
    if changed:
        settle(page, settings, min(deadline, time.monotonic() + settings.settle_timeout_ms / 1000))
    return changed


def open_url(page: Page, url: str, settings: Settings, events: PageEvents | None = None) -> int | None:
    """Open a URL; the HTTP status is returned (an error page is still a page a scenario may check). events (the
    tab's) say why the egress guard stopped a navigation: a refused address, a redirect to one, a dead server."""
    try:
        TargetPolicy.of(settings).check_url(url)
    except UnsafeTargetError as exc:
        raise ActionFailed(str(exc)) from None
    refused, unreachable = (len(events.refused), len(events.unreachable)) if events else (0, 0)
    try:
        response = page.goto(url, wait_until="load")
    except PlaywrightError as exc:
        message = first_line(str(exc))
        # The guard ends a request it refused, or could not forward, without an answer (see shared/egress.py).
        guarded_end = "ERR_EMPTY_RESPONSE" in message or "ERR_TUNNEL_CONNECTION_FAILED" in message
        if guarded_end and events and events.refused[refused:]:
            message = f"{url} led to an address the target policy refuses ({events.refused[-1]})"
        elif guarded_end and events and events.unreachable[unreachable:]:
            message = f"{url}: {reason_of(events.unreachable[-1])}"
        elif "Timeout" in message or "ERR_TIMED_OUT" in message:
            message = f"{url} did not load within {settings.navigation_timeout_ms / 1000:g} s (the server did not answer)"
        raise ActionFailed(message) from None
    return response.status if response is not None else None


def is_redundant(kind: str, node: Node | None, value: str | None, current_url: str, base_url: str) -> bool:
    """An operation that would leave the page as it is: executed, kept in the record, left out of the script."""
    return action(kind).redundant(node, value, current_url, base_url)


@dataclass
class BrowserAct:
    """The executor's side of `workers.agent.actions.base.Act`: what an action kind may do to the browser."""

    tab_page: Page
    target: PlaywrightLocator | None
    node: Node | None
    value: str | None
    base_url: str
    settings: Settings
    tab: Tab | None = None
    forced: bool = False  # a pointer action was forced past a shape of the target's own widget covering it

    @property
    def page(self) -> Page:
        return self.tab.page if self.tab is not None else self.tab_page

    def open(self, url: str) -> int | None:
        status = open_url(self.page, url, self.settings, self.tab.events if self.tab is not None else None)
        settle(self.page, self.settings)  # a single-page app fetches its data after the load event
        return status

    def settle(self) -> None:
        settle(self.page, self.settings)

    def text_shown(self, text: str, timeout_ms: int) -> bool:
        return text_is_shown(self.page, text, timeout_ms)

    def text_gone(self, text: str, timeout_ms: int) -> bool:
        return text_is_gone(self.page, text, timeout_ms)

    def pointer(self, do: Callable[..., None]) -> None:
        """A click, double-click or hover on the target. Where a shape of the target's own widget lies over it (a
        diagram node's body over its label, a code editor's lines over its hidden input) Playwright refuses, though a
        person's click lands on that widget: the action is then forced at the target's centre, never when anything
        else (an overlay, another control) covers it."""
        try:
            do()
        except PlaywrightError as exc:
            if "intercepts pointer events" not in str(exc) or not self.target.evaluate(_OWN_SHAPE_JS):
                raise
            self.forced = True
            do(force=True)

    def answer_next_dialog(self, accept: bool, prompt_text: str | None) -> None:
        self._tab().events.dialog_answers.append((accept, prompt_text))

    def dialogs_seen(self) -> int:
        return self._tab().events.dialogs_answered

    def switch_tab(self, which: str) -> None:
        self._tab().switch(which, self.settings.action_timeout_ms)

    def file_path(self, name: str) -> str:
        folder = Path(self.settings.files_dir).resolve()
        path = (folder / name).resolve()
        if folder not in path.parents or not path.is_file():
            raise ActionFailed(f"no file {name!r} in the scenarios' files folder {folder} (STEPFORGE_FILES_DIR)")
        return str(path)

    def _tab(self) -> Tab:
        if self.tab is None:
            raise ActionFailed("this operation needs the scenario's tab (dialogs, tabs)")
        return self.tab


@dataclass(frozen=True)
class Performed:
    status: int | None  # a goto's HTTP status
    forced: bool = False  # see BrowserAct.pointer


_OWN_SHAPE_JS = "e => window.__stepforge ? window.__stepforge.ownShape(e) || window.__stepforge.ownEditor(e) : false"


def perform(page: Page, target: PlaywrightLocator | None, kind: str, value: str | None, base_url: str,
            settings: Settings, *, node: Node | None = None, tab: Tab | None = None) -> Performed:
    """Carry out one operation of any kind; raise ActionFailed with a one-line reason. The page is settled
    afterwards (see settle)."""
    spec = action(kind)
    act = BrowserAct(page, target, node, value, base_url, settings, tab)
    if spec.grounded and not spec.target_optional and target is None:
        raise ActionFailed(f"{kind} needs a target element")
    try:
        status = spec.perform(act)
        if status is None:
            act.settle()
    except PlaywrightError as exc:
        raise ActionFailed(first_line(str(exc))) from None
    return Performed(status, act.forced)


def check_page(page: Page, kind: str, value: str | None, base_url: str, settings: Settings,
               target: PlaywrightLocator | None = None) -> None:
    """An assertion about the whole page (a text shown or gone); CheckFailed when it does not hold in time."""
    act = BrowserAct(page, target, None, value, base_url, settings)
    try:
        action(kind).check(act)
    except PlaywrightError as exc:
        raise CheckFailed(first_line(str(exc))) from None


def observe(page: Page, before: PageState, events: PageEvents, status: int | None = None) -> Observation:
    after = page_state(page)
    happened = events.drain()
    changed = (after.elements, after.text_length, after.text_hash) != (before.elements, before.text_length, before.text_hash)
    parts: list[str] = []
    if after.url != before.url:
        parts.append(f"navigated to {urlsplit(after.url).path or '/'}" + (f" ({after.title})" if after.title else ""))
    elif changed:
        delta = after.elements - before.elements
        parts.append(f"page changed ({delta:+d} elements)" if delta else "page text changed")
    if status is not None and status >= 400:
        parts.append(f"HTTP {status}")
    parts += [f"dialog {d}" for d in happened.dialogs]
    parts += [f"new tab {u}" for u in happened.new_pages]
    parts += [f"page error {e}" for e in happened.page_errors]
    return Observation(
        url_before=before.url,
        url_after=after.url,
        title=after.title,
        dom_changed=changed or after.url != before.url,
        summary="; ".join(parts) or "no visible change",
        dialogs=happened.dialogs,
        new_pages=happened.new_pages,
        page_errors=happened.page_errors,
    )


def text_is_shown(page: Page, text: str, timeout_ms: int) -> bool:
    """The same check the generated suite makes: some visible element's text holds it as whole words, or some visible
    text field's value does (settle.js fieldShows: looked at before and after waiting for the text)."""
    return _field_shows(page, text) or _text_reaches(page, text, "visible", timeout_ms) or _field_shows(page, text)


_FIELD_SHOWS_JS = "t => window.__stepforge ? window.__stepforge.fieldShows(t) : false"


def _field_shows(page: Page, text: str) -> bool:
    try:
        return bool(page.evaluate(_FIELD_SHOWS_JS, text))
    except PlaywrightError:
        return False


def text_is_gone(page: Page, text: str, timeout_ms: int) -> bool:
    """No visible element's text holds it (waiting, up to the timeout, for the last one to go)."""
    return _text_reaches(page, text, "detached", timeout_ms)


def _text_reaches(page: Page, text: str, state: str, timeout_ms: int) -> bool:
    try:
        page.get_by_text(shown_text_pattern(text)).filter(visible=True).first.wait_for(state=state,  # type: ignore[arg-type]
                                                                                        timeout=timeout_ms)
        return True
    except PlaywrightError:
        return False
