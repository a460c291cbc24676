"""Shared fixtures: real services started once per session; and the two markers of the slow tiers.

`pytest -m "not e2e and not service"` is the fast tier for development (well under a minute): what drives a real
Chromium or cucumber-js is marked e2e, what needs PostgreSQL, Redis, an S3 server or service processes is marked
service, each test file saying so itself (`pytestmark`). `.ci/run` runs everything.
"""

from __future__ import annotations

import contextlib
import os

import psutil
import pytest
from hypothesis import settings as hypothesis_settings
from playwright.sync_api import Browser, Page, sync_playwright

from shared.lifetime import descendants as process_descendants
from shared.settings import CHROMIUM_ARGS, get_settings

# Properties are checked by the examples they hold for, never by how fast each ran: on a busy machine a time limit
# per example would fail a property that holds (speed is measured in bench/).
hypothesis_settings.register_profile("stepforge", deadline=None)
hypothesis_settings.load_profile("stepforge")

# The Teamtasks demo answers every API call 300-1000 ms late by default; under test 150-500 ms: still late for
# every step that waits for it (a step takes a few ms), with half the waiting. `python -m bench` keeps the default.
os.environ.setdefault("TEAMTASKS_DELAY_MS", "150,500")


@pytest.fixture(scope="session")
def browser() -> Browser:
    settings = get_settings()
    with sync_playwright() as pw:
        browser = pw.chromium.launch(
            executable_path=settings.generation_browser, headless=True, args=list(CHROMIUM_ARGS)
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


# A test's tier is declared in its file (`pytestmark = pytest.mark.e2e` / `pytest.mark.service`); a test that takes
# one of these fixtures and is not so marked is a collection error, so the fast tier never starts a browser or a
# service by mistake.
TIER_FIXTURES = {
    "e2e": {"browser", "page", "reset_command", "examples_run"},
    "service": {"service_db", "broker_url", "worker", "webhook_receiver", "s3_endpoint"},
}


# The longest files (a whole demo generated, replayed or regenerated) start first, so that the processes of
# .ci/run (`--dist loadfile`) end together instead of one of them starting a long file last. The time each file
# took is printed at the end of every run (pytest_terminal_summary): the place to look when this list goes stale.
LONGEST_FILES = (
    "tests/faults/test_tm_round_trip.py",  # mostly a 2-minute outage: started first, it waits beside the rest
    "tests/e2e/test_teamtasks.py",
    "tests/e2e/test_regeneration.py",
    "tests/e2e/test_suite_ownership.py",
    "tests/service/test_regeneration.py",
    "tests/service/test_two_drivers.py",
    "tests/e2e/test_regeneration_teamtasks.py",
    "tests/faults/test_faults.py",
)


# Files of independent tests (no fixture of their own shared between them) that .ci/run hands out test by test
# instead of as one unit: a file of many small pages, each started and generated on its own, would otherwise keep
# one process busy for minutes while the other has nothing left to take.
SPLIT_FILES = ("tests/agent/test_real_page_patterns.py",)


def _file_of(nodeid: str) -> str:
    return nodeid.split("::", 1)[0]


@pytest.hookimpl(tryfirst=True)
def pytest_xdist_make_scheduler(config: pytest.Config, log):  # noqa: ANN201 (xdist's Scheduling)
    """`--dist loadfile`, except that each test of SPLIT_FILES is a unit of its own."""
    if config.getvalue("dist") != "loadfile":
        return None  # xdist's own scheduler for any other mode
    from xdist.scheduler import LoadFileScheduling

    class LoadFileSplitting(LoadFileScheduling):
        def _split_scope(self, nodeid: str) -> str:
            path = _file_of(nodeid)
            return nodeid if path in SPLIT_FILES else path

    return LoadFileSplitting(config, log)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    rank = {path: position for position, path in enumerate(LONGEST_FILES)}
    items.sort(key=lambda item: rank.get(_file_of(item.nodeid), len(rank)))  # stable: the rest keep their order
    unmarked = []
    for item in items:
        for tier, fixtures in TIER_FIXTURES.items():
            used = fixtures & set(getattr(item, "fixturenames", ()))
            if used and item.get_closest_marker(tier) is None:
                unmarked.append(f"{item.nodeid} uses {', '.join(sorted(used))} but is not marked {tier}")
    if unmarked:
        raise pytest.UsageError("tests without their tier's marker (add pytestmark to the file):\n"
                                + "\n".join(unmarked[:20]))


CPU_STARTED = pytest.StashKey[float]()


def tree_cpu_seconds(descendants: bool = True) -> float:
    """CPU seconds this process and every process under it have used so far (those that ended included, once their
    parent waited for them): what a test costs the machine, where its wall time also counts its waiting. Without
    descendants, only this process and the children it waited for (a read of its own; the walk of every process
    under it costs milliseconds)."""
    me = psutil.Process()
    total = sum(me.cpu_times()[:4])
    for child in process_descendants(me) if descendants else ():
        with contextlib.suppress(psutil.Error):  # ended meanwhile: its parent counts it from now on
            total += sum(child.cpu_times()[:4])
    return total


def _keeps_processes(item: pytest.Item) -> bool:
    """Tests of the slow tiers keep browsers, servers and workers running under the test process."""
    return any(item.get_closest_marker(tier) is not None for tier in TIER_FIXTURES)


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item: pytest.Item) -> None:
    item.stash[CPU_STARTED] = tree_cpu_seconds(_keeps_processes(item))


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo):  # noqa: ANN201 (a hook wrapper)
    """The teardown report carries the CPU seconds the test took, setup to teardown, its processes' included."""
    outcome = yield
    report = outcome.get_result()
    if call.when == "teardown" and CPU_STARTED in item.stash:
        report.user_properties.append(("cpu_s", tree_cpu_seconds(_keeps_processes(item)) - item.stash[CPU_STARTED]))


def pytest_terminal_summary(terminalreporter, exitstatus, config) -> None:  # noqa: ARG001 (pytest's signature)
    """Seconds per test file (setup, call and teardown summed) and the CPU seconds they cost, the longest first."""
    seconds: dict[str, float] = {}
    cpu: dict[str, float] = {}
    for reports in terminalreporter.stats.values():
        for report in reports:
            if isinstance(report, pytest.TestReport):
                path = _file_of(report.nodeid)
                seconds[path] = seconds.get(path, 0.0) + report.duration
                cpu[path] = cpu.get(path, 0.0) + sum(v for k, v in report.user_properties if k == "cpu_s")
    if sum(seconds.values()) < 60:
        return  # a quick run: nothing to look at
    terminalreporter.write_sep("=", "seconds per test file (the 25 longest), and the CPU seconds each used")
    for path, total in sorted(seconds.items(), key=lambda pair: -pair[1])[:25]:
        terminalreporter.write_line(f"{total:8.1f}  {cpu[path]:8.1f} cpu  {path}")
    terminalreporter.write_line(f"{sum(seconds.values()):8.1f}  {sum(cpu.values()):8.1f} cpu  all files, summed "
                                "over the processes")
    terminalreporter.write_sep("=", "CPU seconds per test file (the 15 most)")
    for path, total in sorted(cpu.items(), key=lambda pair: -pair[1])[:15]:
        terminalreporter.write_line(f"{total:8.1f} cpu  {path}")
