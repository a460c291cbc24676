"""A renderer that dies under a scenario is the machine's failure: the scenario runs again on a fresh context, and
no verdict blames the application for it.

The crash is real: the renderer processes of the session's own Chromium (listed by Chromium itself, through
CDP's SystemInfo.getProcessInfo) are SIGKILLed between two steps, as an out-of-memory killer would.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TypeVar

import pytest

from shared.artifacts.local import LocalArtifactStore
from shared.scenarios import Scenario, parse_scenarios
from shared.settings import Settings
from tests.http_site import SiteHandler, serve
from workers.agent import pipeline
from workers.agent.brains.builtin import BuiltinBrain
from workers.agent.choice import Agent
from workers.agent.execution.browser import BrowserSession, RendererCrashedError, Tab
from workers.agent.scenario_run import run_scenario

pytestmark = pytest.mark.e2e  # its tier (tests/conftest.py)

T = TypeVar("T")


class Counter(SiteHandler):
    def do_GET(self) -> None:  # noqa: N802
        self.send("""<!doctype html><html><body><h1>Counter</h1><button id="add">Add one</button>
          <p id="total">Total: 0</p><script>
          let total = 0;
          document.getElementById("add").onclick = () => {
            total += 1; document.getElementById("total").textContent = "Total: " + total; };
          </script></body></html>""")


class WatchedSession(BrowserSession):
    """A BrowserSession that remembers the tab the scenario drives, so the test can kill its renderer."""

    current: Tab | None = None

    @contextlib.contextmanager
    def tab(self, trace_path: Path | None = None, app_url: str | None = None) -> Iterator[Tab]:
        with super().tab(trace_path, app_url) as tab:
            self.current = tab
            yield tab


def kill_renderers(session: WatchedSession) -> int:
    info = session.browser().new_browser_cdp_session().send("SystemInfo.getProcessInfo")
    pids = [int(process["id"]) for process in info["processInfo"] if process["type"] == "renderer"]
    for pid in pids:
        os.kill(pid, signal.SIGKILL)
    return len(pids)


class CrashingBrain(BuiltinBrain):
    """The builtin brain, but before deciding the second step it kills the renderers (while crashes remain)."""

    def __init__(self, session: WatchedSession, crashes: list[int]) -> None:
        super().__init__()
        self.session, self.crashes = session, crashes

    def decide(self, step, step_index, snapshot, history, **kwargs):  # noqa: ANN001, ANN201
        if step_index == 1 and self.crashes[0] > 0:
            self.crashes[0] -= 1
            assert kill_renderers(self.session) > 0
        return super().decide(step, step_index, snapshot, history, **kwargs)


class CrashingAgent(Agent):
    def __init__(self, session: WatchedSession, crashes: int) -> None:
        super().__init__()
        self.session, self.crashes = session, [crashes]

    def brain_for(self, scenario: Scenario) -> BuiltinBrain:
        return CrashingBrain(self.session, self.crashes)


STEPS = ["Click Add one", "Click Add one", "Verify 'Total: 2' is shown"]


def in_thread(work: Callable[[], T]) -> T:
    """Sync Playwright may already run in the test session's main thread."""
    box: dict[str, object] = {}

    def target() -> None:
        try:
            box["value"] = work()
        except BaseException as exc:  # noqa: BLE001 - handed to the test
            box["error"] = exc

    thread = threading.Thread(target=target)
    thread.start()
    thread.join(timeout=240)
    if "error" in box:
        raise box["error"]  # type: ignore[misc]
    return box["value"]  # type: ignore[return-value]


@pytest.fixture
def site() -> Iterator[str]:
    url, stop = serve(Counter)
    yield url
    stop()


def test_a_step_failed_by_a_killed_renderer_raises_a_crash_not_a_verdict(site: str, tmp_path: Path) -> None:
    settings = Settings()
    scenario = Scenario(id="CRASH", title="t", steps=STEPS)

    def work() -> None:
        with WatchedSession(settings) as session:
            run_scenario(scenario, CrashingBrain(session, [1]), session, base_url=site, settings=settings,
                         store=LocalArtifactStore(tmp_path))

    with pytest.raises(RendererCrashedError, match=r"the browser's renderer crashed on http://127\.0\.0\.1"):
        in_thread(work)


def generate(site: str, tmp_path: Path, crashes: int) -> pipeline.GenerationResult:
    scenarios = parse_scenarios(json.dumps({"scenarios": [{"id": "COUNT", "title": "Count twice", "steps": STEPS}]}),
                                "s.json")
    settings = Settings()

    def work() -> pipeline.GenerationResult:
        with WatchedSession(settings) as session:
            return pipeline.generate_suite(scenarios, base_url=site, out_dir=tmp_path / "suite", settings=settings,
                                           store=LocalArtifactStore(tmp_path / "artifacts"), session=session,
                                           agent=CrashingAgent(session, crashes))

    return in_thread(work)


def test_a_scenario_whose_renderer_crashed_runs_again_on_a_fresh_context_and_passes(site: str, tmp_path: Path) -> None:
    result = generate(site, tmp_path, crashes=1)
    (outcome,) = result.outcomes
    assert outcome.verdict.status == "passed", outcome.verdict
    assert (tmp_path / "suite/features").is_dir()


def test_a_renderer_that_keeps_crashing_ends_the_run_as_a_crash_never_as_the_applications_failure(
        site: str, tmp_path: Path) -> None:
    with pytest.raises(RendererCrashedError):
        generate(site, tmp_path, crashes=pipeline.RENDERER_CRASH_RETRIES + 1)
    assert not (tmp_path / "suite").exists()
