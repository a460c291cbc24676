"""The worker's browser pool, against real Chromium.

Each test runs its pool in a fresh process (multiprocessing, spawn), as a Celery prefork child would own it.
Not a thread of pytest's process: that process may already hold the session-scoped Chromium of
tests/conftest.py among its descendants (it would blur "no Chromium before the first job" and the process-tree
accounting), and kill -9 and fork are safer far from pytest's own threads. A fresh process per test also makes
any leftover Chromium attributable to the test that left it.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
import time
import traceback
import zipfile
from pathlib import Path

import psutil
import pytest

from shared.lifetime import descendants
from shared.settings import Settings
from workers.service.pool import BrowserCrashedError, BrowserPool

pytestmark = pytest.mark.e2e  # its tier (tests/conftest.py)

PAGE_URL = "http://pool.test/"


# --- helpers: run a scenario in a fresh process, and account for every Chromium process it saw ---

def _trampoline(conn, scenario, args) -> None:
    try:
        conn.send(("ok", scenario(*args)))
    except BaseException:
        conn.send(("error", traceback.format_exc()))
    finally:
        conn.close()


def in_fresh_process(scenario, *args, timeout: float = 60.0) -> dict:
    ctx = multiprocessing.get_context("spawn")
    receiver, sender = ctx.Pipe(duplex=False)
    proc = ctx.Process(target=_trampoline, args=(sender, scenario, args))
    proc.start()
    sender.close()
    try:
        if not receiver.poll(timeout):
            pytest.fail(f"{scenario.__name__} did not finish in {timeout} s")
        status, value = receiver.recv()
    finally:
        proc.join(10)
        if proc.is_alive():
            proc.kill()
            proc.join()
    if status == "error":
        pytest.fail(f"{scenario.__name__} failed in its process:\n{value}", pytrace=False)
    assert not still_running(value["seen"], timeout=5), "Chromium processes outlived the pool's process"
    return value


def browser_tree(pid: int | None) -> set[tuple[int, float]]:
    """(pid, start time) of a browser's main process and all its descendants."""
    if pid is None:
        return set()
    main = psutil.Process(pid)
    return {(p.pid, p.create_time()) for p in [main, *descendants(main)]}


def still_running(seen: set[tuple[int, float]], timeout: float) -> list[int]:
    """Pids from `seen` still running after up to `timeout` s; zombies are gone (no init reaps them here)."""
    deadline = time.monotonic() + timeout
    while True:
        left = []
        for pid, started in seen:
            try:
                proc = psutil.Process(pid)
                if proc.create_time() == started and proc.status() != psutil.STATUS_ZOMBIE:
                    left.append(pid)
            except psutil.Error:
                pass
        if not left or time.monotonic() >= deadline:
            return left
        time.sleep(0.05)


def chromium_descendants() -> list[int]:
    found = []
    for proc in psutil.Process().children(recursive=True):
        try:
            if "chrom" in proc.name().lower() or "--remote-debugging-pipe" in proc.cmdline():
                found.append(proc.pid)
        except psutil.Error:
            pass
    return found


def visit(session, trace_path: Path | None = None) -> dict:
    """One job's work: open a page on a routed origin, report what storage it found, then leave some behind."""
    with session.tab(trace_path=trace_path) as tab:
        tab.context.route(PAGE_URL + "**", lambda route: route.fulfill(body="<h1>pool</h1>", content_type="text/html"))
        tab.page.goto(PAGE_URL)
        found = tab.page.evaluate("() => ({cookie: document.cookie, stored: localStorage.getItem('job')})")
        tab.page.evaluate("() => { document.cookie = 'job=1; max-age=3600'; localStorage.setItem('job', '1') }")
        return found


def closed(pool: BrowserPool, seen: set) -> dict:
    pool.close()
    pool.close()  # twice is fine
    left = still_running(seen, timeout=5)
    assert not left, f"Chromium processes left after close(): {left}"
    return {"seen": seen}


# --- scenarios (run in the fresh process) ---

def lazy_then_fresh_context_and_trace(tmp: str) -> dict:
    pool = BrowserPool(Settings(), max_jobs=10)
    assert chromium_descendants() == [], "nothing may run before the first job"
    before = pool.stats()
    assert (before.launches, before.browser_pid, before.jobs_total) == (0, None, 0)
    seen: set = set()
    found = []
    for job in (1, 2):
        with pool.session() as session:
            with session:  # pipeline-style use: leaving it must not close the pool's browser
                found.append(visit(session, trace_path=Path(tmp) / f"job-{job}" / "trace.zip"))
            seen |= browser_tree(pool.stats().browser_pid)
    after = pool.stats()
    assert after.launches == 1 and after.jobs_current_browser == 2 and after.jobs_total == 2
    assert after.browser_pid is not None and after.last_tree_rss_mb > 0 and after.last_tree_processes >= 2
    return {**closed(pool, seen), "found": found}


def recycle_after_max_jobs() -> dict:
    from structlog.testing import capture_logs

    pool = BrowserPool(Settings(), max_jobs=2)
    seen: set = set()
    pids = []
    with capture_logs() as logs:
        for _ in range(3):
            with pool.session() as session:
                visit(session)
                pids.append(pool.stats().browser_pid)
                seen |= browser_tree(pids[-1])
    stats = pool.stats()
    assert not still_running({item for item in seen if item[0] == pids[0]}, timeout=5), "the old browser lives on"
    events = [(entry["event"], entry.get("reason")) for entry in logs]
    return {**closed(pool, seen), "pids": pids, "launches": stats.launches, "recycles": stats.recycles,
            "jobs_current_browser": stats.jobs_current_browser, "events": events}


def crash_between_and_during_jobs() -> dict:
    pool = BrowserPool(Settings())
    seen: set = set()
    pids = []
    outcomes = []

    with pool.session() as session:
        visit(session)
        pids.append(pool.stats().browser_pid)
        seen |= browser_tree(pids[-1])
    os.kill(pids[-1], signal.SIGKILL)  # between jobs: nobody sees it, the next job gets a new browser
    assert not still_running({item for item in seen if item[0] == pids[-1]}, timeout=5)

    with pool.session() as session:
        visit(session)
        pids.append(pool.stats().browser_pid)
        seen |= browser_tree(pids[-1])
    outcomes.append(("between", pool.stats().recycles["disconnected"]))

    # During a job, whose code swallows the error as scenario_run's broad handlers would: the lease still fails.
    job_saw = None
    try:
        with pool.session() as session:
            os.kill(pids[-1], signal.SIGKILL)
            time.sleep(0.2)
            try:
                visit(session)
            except Exception as exc:
                job_saw = type(exc).__name__
    except BrowserCrashedError as exc:
        outcomes.append(("during", str(exc)))
    stats = pool.stats()
    assert stats.browser_pid is None, "the crashed browser was dropped at once; the next job launches anew"
    return {**closed(pool, seen), "pids": pids, "outcomes": outcomes, "job_saw": job_saw,
            "launches": stats.launches, "recycles": stats.recycles, "jobs_total": stats.jobs_total}


def memory_recycle() -> dict:
    pool = BrowserPool(Settings(), max_rss_mb=1)
    seen: set = set()
    pids = []
    with pool.session() as session:
        visit(session)
        pids.append(pool.stats().browser_pid)
        seen |= browser_tree(pids[-1])
    stats = pool.stats()
    assert stats.browser_pid is None, "a browser over the limit is closed right after the job"
    assert not still_running(seen, timeout=5), "the recycled browser's processes live on"
    return {**closed(pool, seen), "pids": pids, "rss": stats.last_tree_rss_mb, "pss": stats.last_tree_pss_mb,
            "processes": stats.last_tree_processes, "launches": stats.launches, "recycles": stats.recycles}


def _forked_child(pool: BrowserPool, conn) -> None:
    try:
        with pool.session() as session:
            found = visit(session)
            stats = pool.stats()
            tree = browser_tree(stats.browser_pid)
        pool.close()
        conn.send({"pid": os.getpid(), "stats": stats, "found": found, "tree": tree,
                   "left": still_running(tree, timeout=5)})
    except BaseException:
        conn.send({"error": traceback.format_exc()})
    finally:
        conn.close()


def fork_after_first_job() -> dict:
    pool = BrowserPool(Settings())
    with pool.session() as session:
        visit(session)
    parent_browser = pool.stats().browser_pid
    seen = browser_tree(parent_browser)

    ctx = multiprocessing.get_context("fork")
    receiver, sender = ctx.Pipe(duplex=False)
    child = ctx.Process(target=_forked_child, args=(pool, sender))  # fork: the child inherits this very pool
    child.start()
    sender.close()
    assert receiver.poll(40), "the forked child did not answer"
    report = receiver.recv()
    child.join(10)
    assert "error" not in report, report.get("error")

    with pool.session() as session:  # the parent's browser survived the child's launch and close
        parent_found = visit(session)
        after = pool.stats()
    return {**closed(pool, seen | report["tree"]), "parent_pid": os.getpid(), "parent_browser": parent_browser,
            "child": report, "child_exit": child.exitcode, "parent_after": after, "parent_found": parent_found}


# --- tests ---

def test_nothing_runs_before_the_first_job_and_every_job_gets_a_fresh_context_and_trace(tmp_path: Path) -> None:
    result = in_fresh_process(lazy_then_fresh_context_and_trace, str(tmp_path))

    first, second = result["found"]
    assert first == {"cookie": "", "stored": None}
    assert second == {"cookie": "", "stored": None}, "job 2 saw job 1's cookie or localStorage"
    for job in (1, 2):
        trace = tmp_path / f"job-{job}" / "trace.zip"
        assert zipfile.is_zipfile(trace), f"no trace for job {job}"
        assert any(name.endswith(".trace") for name in zipfile.ZipFile(trace).namelist())


def test_browser_is_recycled_after_max_jobs() -> None:
    result = in_fresh_process(recycle_after_max_jobs)

    first, second, third = result["pids"]
    assert first == second != third
    assert result["launches"] == 2
    assert result["recycles"] == {"jobs": 1, "memory": 0, "disconnected": 0, "fork": 0}
    assert result["jobs_current_browser"] == 1
    assert result["events"] == [("browser_pool.launched", None), ("browser_pool.recycled", "jobs"),
                                ("browser_pool.launched", None)]


def test_a_crashed_browser_is_replaced_and_the_job_that_saw_it_gets_a_clear_error() -> None:
    result = in_fresh_process(crash_between_and_during_jobs)

    first, second = result["pids"]
    assert first != second
    assert result["outcomes"][0] == ("between", 1)
    kind, message = result["outcomes"][1]
    assert kind == "during" and f"Chromium (pid {second}) crashed or disconnected during this job" in message
    assert result["job_saw"] == "BrowserCrashedError"
    assert result["launches"] == 2
    assert result["recycles"]["disconnected"] == 2
    assert result["jobs_total"] == 3


def test_browser_is_recycled_when_its_process_tree_outgrows_the_memory_limit() -> None:
    result = in_fresh_process(memory_recycle)

    assert result["rss"] > 1 and result["processes"] >= 2  # main, zygotes, renderers...
    assert result["pss"] is None or result["pss"] <= result["rss"]
    assert result["launches"] == 1
    assert result["recycles"] == {"jobs": 0, "memory": 1, "disconnected": 0, "fork": 0}


def test_a_forked_child_launches_its_own_browser_and_leaves_the_parents_alone() -> None:
    result = in_fresh_process(fork_after_first_job)

    child = result["child"]
    assert result["child_exit"] == 0
    assert child["pid"] != result["parent_pid"]
    assert child["stats"].browser_pid not in (None, result["parent_browser"])
    assert (child["stats"].launches, child["stats"].recycles["fork"]) == (1, 1)
    assert child["found"] == {"cookie": "", "stored": None}
    assert child["left"] == []
    parent = result["parent_after"]
    assert parent.browser_pid == result["parent_browser"] and parent.launches == 1
    assert result["parent_found"] == {"cookie": "", "stored": None}


def test_a_pool_that_never_ran_a_job_closes_quietly() -> None:
    pool = BrowserPool(Settings(pool_max_jobs=7, pool_max_rss_mb=300))
    assert (pool.max_jobs, pool.max_rss_mb) == (7, 300)
    pool.close()
    pool.close()
    with pytest.raises(RuntimeError, match="closed"):
        with pool.session():
            pass

