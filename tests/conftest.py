"""Shared fixtures: real services started once per session; and the two markers of the slow tiers.

`pytest -m "not e2e and not service"` is the fast tier for development (well under a minute): what drives a real
Chromium or cucumber-js is marked e2e, what needs PostgreSQL, Redis, an S3 server or service processes is marked
service, here by folder. `.ci/run` runs everything.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, sync_playwright

from shared.settings import CHROMIUM_ARGS, get_settings


@pytest.fixture(scope="session")
def browser() -> Browser:
    settings = get_settings()
    with sync_playwright() as pw:
        browser = pw.chromium.launch(
            executable_path=settings.browser_path, headless=True, args=list(CHROMIUM_ARGS)
        )
        yield browser
        browser.close()


@pytest.fixture
def page(browser: Browser) -> Page:
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    yield page
    context.close()


@pytest.fixture(scope="session", autouse=True)
def registry_database(tmp_path_factory: pytest.TempPathFactory) -> str:
    """Runs under test keep their steps in a registry of the session's own, never the user's."""
    url = f"sqlite:///{tmp_path_factory.mktemp('registry') / 'stepforge.db'}"
    previous = os.environ.get("STEPFORGE_DATABASE_URL")
    os.environ["STEPFORGE_DATABASE_URL"] = url
    yield url
    if previous is None:
        os.environ.pop("STEPFORGE_DATABASE_URL", None)
    else:
        os.environ["STEPFORGE_DATABASE_URL"] = previous


@pytest.fixture(scope="session")
def s3_endpoint() -> str:
    """http://127.0.0.1:<free port> of a real S3-compatible server (moto in server mode); the stores under
    test talk to it over HTTP, from this process or from the processes the tests start."""
    from moto.server import ThreadedMotoServer

    server = ThreadedMotoServer(ip_address="127.0.0.1", port=0, verbose=False)  # port 0: the OS picks a free one
    server.start()
    host, port = server.get_host_and_port()
    yield f"http://{host}:{port}"
    server.stop()


TESTS = Path(__file__).resolve().parent
SERVICE = ("service/", "faults/", "registry/", "shared/test_s3_artifacts.py")
BROWSER = ("e2e/", "agent/verify/", "agent/execution/", "agent/grounding/test_grounding.py",
           "agent/grounding/test_model_hte.py", "agent/grounding/test_places.py", "agent/grounding/test_som.py",
           "security/", "apps/", "workers/test_pool.py", "agent/scripting/test_model_writer.py", "agent/test_real_page_patterns.py")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Markers by folder."""
    for item in items:
        where = Path(str(item.fspath)).resolve().relative_to(TESTS).as_posix()
        if where.startswith(SERVICE):
            item.add_marker(pytest.mark.service)
        if where.startswith(BROWSER):
            item.add_marker(pytest.mark.e2e)
