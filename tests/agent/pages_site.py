"""Scenarios run against small pages served for one test: each test's page reproduces one widget pattern."""

from __future__ import annotations

import atexit
import queue
import threading
from collections.abc import Callable
from concurrent.futures import Future
from pathlib import Path
from typing import TypeVar

from shared.artifacts.local import LocalArtifactStore
from shared.records import RunRecord
from shared.scenarios import Scenario, ScenarioFile
from shared.settings import Settings
from tests.http_site import SiteHandler, serve
from workers.agent.choice import Agent
from workers.agent.execution.browser import BrowserSession
from workers.agent.pipeline import GenerationResult, generate_suite
from workers.agent.scenario_run import run_scenario

T = TypeVar("T")


def fulfil(done: Future[T], work: Callable[[], T]) -> None:
    """Run work, handing its result or its error to whoever waits on `done` (in another thread)."""
    try:
        done.set_result(work())
    except BaseException as exc:  # noqa: BLE001 - handed to the waiting thread
        done.set_exception(exc)


def in_thread(work: Callable[[], T]) -> T:
    """Run browser work in a thread of its own: the test session's sync Playwright may hold the main thread."""
    done: Future[T] = Future()
    threading.Thread(target=fulfil, args=(done, work)).start()
    return done.result(timeout=180)


def serve_page(html: str) -> tuple[str, Callable[[], None]]:
    """A site serving `html` at every path: (base URL, stop)."""
    body = html.encode()

    class Page(SiteHandler):
        def do_GET(self) -> None:  # noqa: N802
            self.send(body)

    return serve(Page)


class PageBrowsers:
    """One browser per settings for every test of the process, all driven from one thread of its own (sync
    Playwright is bound to the thread that started it, and the test session's may hold the main thread). Each
    scenario still gets a fresh context; only the launch is shared (about 0.6 s a test). Closed at exit."""

    def __init__(self) -> None:
        self._work: queue.Queue[Callable[[], None]] = queue.Queue()
        self._sessions: dict[str, BrowserSession] = {}  # touched from that thread only
        threading.Thread(target=self._serve, name="page-browsers", daemon=True).start()
        atexit.register(self.close)

    def _serve(self) -> None:
        while True:
            self._work.get()()

    def _call(self, work: Callable[[], T], timeout: float) -> T:
        done: Future[T] = Future()
        self._work.put(lambda: fulfil(done, work))
        return done.result(timeout=timeout)

    def run(self, settings: Settings, work: Callable[[BrowserSession], T]) -> T:
        def in_browser_thread() -> T:
            key = settings.model_dump_json(exclude=NOT_THE_BROWSER_S)
            session = self._sessions.get(key)
            if session is None:
                session = self._sessions[key] = BrowserSession(settings)
            session.stalled_hosts.clear()  # a host stalled for one test is not cut off for the next
            return work(session)

        return self._call(in_browser_thread, timeout=180)

    def close(self) -> None:
        def close_all() -> None:
            for session in self._sessions.values():
                session.close()
            self._sessions.clear()

        self._call(close_all, timeout=60)


# Settings of the run, not of its browser: runs differing only in these share one.
NOT_THE_BROWSER_S = {"partial_readings", "max_operations", "wait_timeout_ms", "expected_reader"}
BROWSERS = PageBrowsers()


def generate_on_page(html: str, steps: list, tmp_path: Path, settings: Settings | None = None) -> GenerationResult:
    """Generate, verify by a cucumber-js replay and write the suite of one scenario against a site serving `html`."""
    site, stop = serve_page(html)
    scenarios = ScenarioFile(scenarios=[Scenario(id="T-1", title="t", steps=steps)])
    settings = settings or Settings()
    try:
        return BROWSERS.run(settings, lambda session: generate_suite(
            scenarios, base_url=site, out_dir=tmp_path / "suite", settings=settings,
            store=LocalArtifactStore(tmp_path / "artifacts"), register_steps=False, session=session))
    finally:
        stop()


def run_on_page(html: str, steps: list, tmp_path: Path, settings: Settings | None = None) -> RunRecord:
    """Generate one scenario (builtin brain) against a site serving `html` at /."""
    site, stop = serve_page(html)
    settings = settings or Settings()
    scenario = Scenario(id="T-1", title="t", steps=steps)
    try:
        return BROWSERS.run(settings, lambda session: run_scenario(
            scenario, Agent(expected_reader=settings.expected_reader).brain_for(scenario), session, base_url=site,
            settings=settings, store=LocalArtifactStore(tmp_path)))
    finally:
        stop()


def done(record: RunRecord) -> list[str]:
    """The operations recorded as done, as '<description> -> <target words>'."""
    return [f"{op.description} -> {(op.target.text or op.target.aria_label or op.target.label or op.target.title or '') if op.target else ''}"
            for op in record.operations if op.ok]


def assert_passed(record: RunRecord) -> None:
    """The scenario generated and verified; else the verdict and every operation done, to read."""
    assert record.verdict is not None and record.verdict.status == "passed", (record.verdict, done(record))


def assert_green(result: GenerationResult) -> None:
    """The one scenario generated, verified and replayed green by cucumber-js."""
    outcome = result.outcomes[0]
    assert outcome.verdict.status == "passed", (outcome.verdict, done(outcome.record))
    assert outcome.replay is not None and outcome.replay.passed, outcome.replay


def passes_whole_and_replays(html: str, steps: list, tmp_path: Path, settings: Settings) -> RunRecord:
    """The scenario passes with every word of every step used, and its generated suite replays green."""
    record = run_on_page(html, steps, tmp_path, settings)
    assert_passed(record)
    assert not [r.unused for r in record.readings if r.unused], record.readings
    assert_green(generate_on_page(html, steps, tmp_path / "suite", settings))
    return record


def replays_and_catches(html: str, steps: list, wrong: list, tmp_path: Path, settings: Settings) -> None:
    """The scenario's generated suite replays green, and the same scenario with a wrong expected result fails at step 1
    on that expectation."""
    assert_green(generate_on_page(html, steps, tmp_path, settings))
    assert_failed_at(run_on_page(html, wrong, tmp_path / "wrong", settings), 1, "expectation")


def assert_stopped_before_clicking(record: RunRecord) -> None:
    """The scenario failed at its first step's action, and nothing was clicked: a place not found never widens."""
    assert_failed_at(record, 1, "action")
    assert not [o for o in record.operations if o.kind == "click" and o.ok], done(record)


def assert_failed_at(record: RunRecord, step: int, kind: str) -> None:
    """The scenario failed at that step (1-based), with that kind of failure; else the verdict and what was done."""
    assert record.verdict is not None and record.verdict.status == "failed", done(record)
    assert record.verdict.step == step and record.verdict.kind == kind, record.verdict
