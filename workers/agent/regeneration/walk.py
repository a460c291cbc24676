"""Walking a verified script's recorded operations on today's application, in the browser, with no brain.

Each recorded operation is carried out as it was, through its recorded locator. When that locator no longer finds
exactly one element, the element the operation recorded is looked for by what it is (regrounding.find_again):
found once, the operation goes on through a new locator (drift); not found, the walk stops there (the application
changed). An assertion that no longer holds stops it too, with what was expected and what the page shows. A start
page that does not load, a reset command that fails, a renderer that dies: the environment is broken and nothing
is concluded about the scenario.

    walk_script(verified, session, ...) -> Walk  (held | drifted | app_changed | environment)
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Literal

from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Locator as PlaywrightLocator
from playwright.sync_api import Page

from shared.artifacts import ArtifactStore
from shared.records import Operation, RunRecord, locator_text
from shared.settings import Settings
from shared.triage import AppChange, LocatorChange, VerifiedScript
from workers.agent.actions import CheckFailed, action
from workers.agent.execution.browser import BrowserSession, RendererCrashedError, Tab, first_line
from workers.agent.execution.executor import (
    ActionFailed,
    change_mark,
    check_page,
    perform,
    wait_for_change,
)
from workers.agent.grounding.locators import NoStableLocator, best_locator, resolve
from workers.agent.grounding.tree import StaleSnapshotError, snapshot
from workers.agent.regeneration.regrounding import find_again
from workers.agent.scenario_run import ResetFailed, run_reset_command


@dataclass
class Walk:
    outcome: Literal["held", "drifted", "app_changed", "environment"]
    record: RunRecord  # drifted: a copy whose drifted operations have their new locators; else the recorded one
    drift: list[LocatorChange] = field(default_factory=list)
    app_change: AppChange | None = None
    environment: str | None = None
    seconds: float = 0.0


class _Stop(Exception):
    def __init__(self, walk: Walk) -> None:
        super().__init__(walk.outcome)
        self.walk = walk


@dataclass
class _Walker:
    verified: VerifiedScript
    tab: Tab
    base_url: str
    settings: Settings
    store: ArtifactStore
    healed: RunRecord
    drift: list[LocatorChange] = field(default_factory=list)

    @property
    def page(self) -> Page:
        return self.tab.page

    @property
    def prefix(self) -> str:
        return f"{self.verified.scenario.id}/regeneration"

    def run(self) -> Walk:
        for operation in self.healed.operations:
            if operation.ok:  # a failed try of generation was never part of the script
                self.carry_out(operation)
        return Walk("drifted" if self.drift else "held", self.healed if self.drift else self.verified.record,
                    self.drift)

    def carry_out(self, operation: Operation) -> None:
        spec = action(operation.kind)
        if operation.step_index < 0 and operation.kind == "goto":
            try:
                perform(self.page, None, "goto", operation.value, self.base_url, self.settings, tab=self.tab)
            except ActionFailed as exc:
                self.stop_environment(f"the start page did not load: {exc}")
            return
        grounded = operation.locator is not None and operation.target is not None
        if spec.is_assertion:
            if grounded and spec.grounded:
                self.check_value(operation, self.element(operation, anchored=True))
            else:
                self.check_on_page(operation)
            return
        target = self.element(operation) if grounded else None
        try:
            perform(self.page, target, operation.kind, operation.value, self.base_url, self.settings,
                    node=operation.target, tab=self.tab)
        except ActionFailed as exc:
            self.stop_app_changed(operation, "action", f"{operation.description}: {exc}")

    def element(self, operation: Operation, anchored: bool = False) -> PlaywrightLocator:
        """The operation's element through its recorded locator, waited for as an action waits; when the locator
        finds none or several, the recorded element found again by what it is, under a new locator (drift)."""
        assert operation.locator is not None and operation.target is not None
        recorded = resolve(self.page, operation.locator)
        deadline = time.monotonic() + self.settings.action_timeout_ms / 1000
        quiet = False  # healed only on a page that has stopped changing: an element on its way is not drift
        while True:
            mark = change_mark(self.page)  # a change while the page is read counts
            found = recorded.count()
            if found == 1:
                return recorded
            if quiet:
                drifted = self.found_again(operation, anchored)
                if drifted is not None:
                    return drifted
            settled_by = min(deadline, time.monotonic() + self.settings.settle_timeout_ms / 1000)
            if not wait_for_change(self.page, self.settings, settled_by if not quiet else deadline, mark):
                if quiet:
                    break
                quiet = True  # (or out of time: one last look for the element, as it is now)
        seen = "finds nothing" if found == 0 else f"finds {found} elements"
        self.stop_app_changed(operation, "action", f"{operation.description}: its locator "
                              f"{locator_text(operation.locator)} {seen}, and no element on the page is the one it "
                              f"recorded ({_named(operation)})")
        raise AssertionError("unreachable")

    def found_again(self, operation: Operation, anchored: bool) -> PlaywrightLocator | None:
        assert operation.locator is not None and operation.target is not None
        try:
            page = snapshot(self.page)
            ids = find_again(page, operation.target)
            if len(ids) != 1:
                return None
            new = best_locator(self.page, page, ids[0], anchored=anchored)
        except (PlaywrightError, StaleSnapshotError, NoStableLocator):
            return None
        change = LocatorChange(step=operation.step_index + 1, operation=operation.index,
                               description=operation.description, before=locator_text(operation.locator),
                               after=locator_text(new))
        target = resolve(self.page, new)
        change.screenshot = self.picture(f"drift-{operation.index:03d}.png", target)
        self.drift.append(change)
        operation.locator, operation.target = new, page.node(ids[0])
        return target

    def check_on_page(self, operation: Operation) -> None:
        target = resolve(self.page, operation.locator) if operation.locator is not None else None
        try:
            check_page(self.page, operation.kind, operation.value, self.base_url, self.settings, target)
        except CheckFailed as exc:
            self.stop_app_changed(operation, "expectation", f"{operation.description}: {exc}",
                                  expected=operation.value, actual=str(exc))

    def check_value(self, operation: Operation, target: PlaywrightLocator) -> None:
        """The element shows the recorded value, polled after each change until the assertion timeout (as the
        suite's expectValue does)."""
        expected = " ".join((operation.value or "").split())
        deadline = time.monotonic() + self.settings.assertion_timeout_ms / 1000
        while True:
            mark = change_mark(self.page)
            try:
                actual = " ".join(action(operation.kind).read(target, expected).split())
            except PlaywrightError as exc:
                actual = f"(unreadable: {first_line(str(exc))})"
            if actual == expected or not wait_for_change(self.page, self.settings, deadline, mark):
                break
        if actual != expected:
            self.stop_app_changed(operation, "expectation",
                                  f'{operation.description}: it shows "{actual}", expected "{expected}"',
                                  expected=expected, actual=actual)

    def picture(self, name: str, target: PlaywrightLocator | None = None) -> str | None:
        key = f"{self.prefix}/{name}"
        try:
            data = (target.screenshot(timeout=self.settings.action_timeout_ms) if target is not None
                    else self.page.screenshot())
        except PlaywrightError:
            return None  # a page that cannot be pictured still has its triage
        self.store.put_bytes(key, data, "image/png")
        return key

    def stop_app_changed(self, operation: Operation, kind: str, reason: str, *, expected: str | None = None,
                         actual: str | None = None) -> None:
        if crash := self.tab.renderer_crash(reason):
            raise RendererCrashedError(crash)
        change = AppChange(step=operation.step_index + 1 if operation.step_index >= 0 else None, kind=kind,
                           description=operation.description, expected=expected, actual=actual, reason=reason,
                           screenshot=self.picture(f"failed-{operation.index:03d}.png"))
        raise _Stop(Walk("app_changed", self.verified.record, list(self.drift), app_change=change))

    def stop_environment(self, reason: str) -> None:
        if crash := self.tab.renderer_crash(reason):
            raise RendererCrashedError(crash)
        raise _Stop(Walk("environment", self.verified.record, environment=reason))


def _named(operation: Operation) -> str:
    node = operation.target
    assert node is not None
    words = node.label or node.aria_label or node.a11y_name or node.text or node.title or node.icon or ""
    return f"a <{node.tag}> {' '.join(words.split())[:80]!r}" if words else f"an unnamed <{node.tag}>"


def walk_script(verified: VerifiedScript, session: BrowserSession, *, base_url: str, settings: Settings,
                store: ArtifactStore, reset_command: str | None = None) -> Walk:
    """Carry the verified script's operations out on the application (see the module's doc). A renderer crash
    raises RendererCrashedError; a browser that is gone raises as the session does."""
    started = time.perf_counter()
    try:
        run_reset_command(reset_command, settings)
    except ResetFailed as exc:
        return Walk("environment", verified.record, environment=str(exc))
    healed = verified.record.model_copy(deep=True)
    with session.tab(app_url=base_url) as tab:
        walker = _Walker(verified, tab, base_url, settings, store, healed)
        try:
            walk = walker.run()
        except _Stop as stop:
            walk = stop.walk
        except PlaywrightError as exc:
            if crash := tab.renderer_crash(str(exc)):
                raise RendererCrashedError(crash) from None
            raise
    walk.seconds = round(time.perf_counter() - started, 2)
    return walk
