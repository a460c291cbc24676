"""Every request a customer's page makes, in generation and in both replays, goes through the egress guard: a
page reaching for a refused address in every way a page can, and redirects leading there after 1 to 3 hops,
open no connection to it, and each refusal is recorded with its reason."""

from __future__ import annotations

import contextlib
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from playwright.sync_api import Error as PlaywrightError

from shared.records import RunRecord
from shared.settings import Settings
from tests.agent.pages_site import in_thread
from workers.agent.execution.browser import BrowserSession
from workers.agent.execution.executor import ActionFailed, open_url

from .hostile import PAGE_ATTEMPTS, REFUSED_NETWORK

pytestmark = pytest.mark.e2e  # its tier (tests/conftest.py)

ROOT = Path(__file__).resolve().parents[2]


def settings() -> Settings:
    return Settings(allow_private_targets=True, refused_networks=(REFUSED_NETWORK,))


def test_every_kind_of_request_of_a_page_is_refused_before_any_connection(site, listener):
    """img, fetch, iframe, WebSocket, EventSource, a form's post, a meta refresh and window.open: each ends (the
    page sees it fail), each is refused by the guard with its reason, and the listener saw no connection; WebRTC
    sends it no UDP (its STUN requests would go around any proxy)."""

    def work() -> tuple[str, list[str]]:
        with BrowserSession(settings()) as session, session.tab(app_url=site) as tab:
            with tab.context.expect_page() as popup:
                assert open_url(tab.page, f"{site}/", session.settings, tab.events) == 200
            popup.value.wait_for_load_state()
            ending = list(PAGE_ATTEMPTS[:-2])
            try:
                tab.page.wait_for_function(f"{ending}.every(k => window.__ended.has(k))")
            except PlaywrightError:  # say which of the page's requests never ended
                pending = tab.page.evaluate(f"{ending}.filter(k => !window.__ended.has(k))")
                raise AssertionError(f"these requests of the page never ended: {pending}") from None
            with contextlib.suppress(PlaywrightError):  # ICE gathering that asks a STUN server takes long
                tab.page.wait_for_function("window.__ended.has('webrtc')")
            return tab.page.inner_text("h1"), list(tab.events.refused)

    heading, refused = in_thread(work)
    assert heading == "Welcome"  # the page itself still works
    address = listener.origin.removeprefix("http://")
    ours = [r for r in refused if address in r or "[::ffff:7f00:2]" in r]
    # Chromium tunnels some requests (CONNECT host:port, the path unseen) and sends others whole.
    for attempt in ("hop", "frame", "form", "refresh", "popup"):  # hop: the redirected image's last hop
        assert any(f"{address}/{attempt}:" in r for r in ours), (attempt, refused)
    assert len(ours) >= len(PAGE_ATTEMPTS) - 1  # all but WebRTC, which never reaches the proxy
    assert all("is in a refused network (127.0.0.2/32" in r for r in ours)
    assert any("::ffff:7f00:2 (that is 127.0.0.2) is in a refused network" in r for r in ours), refused
    assert listener.accepted == []
    assert listener.datagrams == []  # WebRTC's STUN over UDP, which no proxy carries


def test_a_redirect_chain_to_a_refused_address_is_stopped_at_its_last_hop(site, listener):
    def work() -> list[str]:
        failures = []
        with BrowserSession(settings()) as session:
            for hops in (1, 2, 3):
                with session.tab(app_url=site) as tab:
                    try:
                        open_url(tab.page, f"{site}/hops/{hops}", session.settings, tab.events)
                    except ActionFailed as exc:
                        failures.append(str(exc))
        return failures

    failures = in_thread(work)
    assert len(failures) == 3
    for hops, failure in zip((1, 2, 3), failures, strict=True):
        assert failure.startswith(f"{site}/hops/{hops} led to an address the target policy refuses (GET "
                                  f"{listener.origin}/hop: 127.0.0.2 is in a refused network"), failure
    assert listener.accepted == []


def test_the_browsers_own_traffic_never_leaves(site):
    """What the browser sends outside the scenario's context (component updates, account lookups: whatever a
    context without a guard session of its own would send) goes to a guard session that lets nothing out."""

    def work() -> tuple[str, list[str]]:
        with BrowserSession(settings()) as session:
            page = session.browser().new_page()  # a context of the launch's own settings, no session of its own
            try:
                page.goto(f"{site}/plain")
                outcome = "loaded"
            except PlaywrightError as exc:
                outcome = str(exc)
            finally:
                page.context.close()
            return outcome, list(session._background.refused)

    outcome, refused = in_thread(work)
    assert "ERR_EMPTY_RESPONSE" in outcome
    assert any(f"GET {site}/plain: a request outside any page" in r and "never leaves" in r for r in refused), refused


def cli(*args: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "workers.cli", *args], cwd=ROOT, capture_output=True, text=True,
                          env={**os.environ, **env}, timeout=600)


@pytest.fixture(scope="module")
def scenarios(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("hostile") / "hostile.yaml"
    path.write_text(
        "scenarios:\n"
        "  - id: HOST-1\n    title: The welcome page greets\n    start: /\n"
        "    steps:\n      - action: Look at the page\n        expected: Welcome is shown\n"
    )
    return path


@pytest.mark.parametrize("suite_format", ["cucumber-js", "playwright-bdd"])
def test_generation_and_its_replay_refuse_the_page_requests_and_record_them(site, listener, scenarios, tmp_path,
                                                                           suite_format):
    """The CLI's generation and its replay (cucumber-js, or Playwright's runner for playwright-bdd) each run the
    page behind the guard: the run record and the replay's result list what was refused; nothing connected."""
    env = {"STEPFORGE_ALLOW_PRIVATE_TARGETS": "true", "STEPFORGE_REFUSED_NETWORKS": json.dumps([REFUSED_NETWORK])}
    done = cli("generate", str(scenarios), "--base-url", site, "--out", str(tmp_path / "suite"),
               "--artifacts", str(tmp_path / "artifacts"), "--format", suite_format, env=env)
    assert done.returncode == 0, done.stdout + done.stderr
    runs = sorted((tmp_path / "artifacts").rglob("run.json"))
    assert runs
    record = RunRecord.model_validate_json(runs[-1].read_text())
    assert record.verdict is not None and record.verdict.status == "passed"
    assert any("/frame: 127.0.0.2 is in a refused network" in r for r in record.refused_requests), record.refused_requests
    assert listener.accepted == [] and listener.datagrams == []
    assert record.replay is not None and record.replay.passed
    assert any("127.0.0.2 is in a refused network" in r for r in record.replay.refused), record.replay


def test_a_step_that_fails_because_a_request_was_refused_says_so(site, listener, tmp_path):
    path = tmp_path / "secret.yaml"
    path.write_text(
        "scenarios:\n"
        "  - id: SEC-1\n    title: The secret page shows its data\n    start: /secret\n"
        "    steps:\n      - action: Look at the page\n        expected: Classified data is shown\n"
    )
    env = {"STEPFORGE_ALLOW_PRIVATE_TARGETS": "true", "STEPFORGE_REFUSED_NETWORKS": json.dumps([REFUSED_NETWORK]),
           "STEPFORGE_MAX_ATTEMPTS": "1"}
    done = cli("generate", str(path), "--base-url", site, "--out", str(tmp_path / "suite"),
               "--artifacts", str(tmp_path / "artifacts"), env=env)
    assert done.returncode == 1, done.stdout + done.stderr
    record = RunRecord.model_validate_json(next((tmp_path / "artifacts").rglob("run.json")).read_text())
    assert record.verdict is not None and record.verdict.status == "failed"
    assert "the target policy refused a request of the page" in record.verdict.reason, record.verdict.reason
    assert "127.0.0.2 is in a refused network" in record.verdict.reason
    assert listener.accepted == []
