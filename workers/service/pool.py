"""The browser each worker process owns: one Chromium, launched lazily after fork, a fresh context per job.

A job leases the browser with ``pool.session()``; what it gets is a BrowserSession (``tab(trace_path=...)``
gives a fresh context with its own trace) that never launches or closes the browser itself. Between jobs
the pool recycles the browser (closes it; the next job launches a new one):

- ``jobs``: it has served ``max_jobs`` jobs (STEPFORGE_POOL_MAX_JOBS);
- ``memory``: after a job, the memory of its whole process tree (main process, zygotes, renderers, GPU and
  utility processes) exceeds ``max_rss_mb`` (STEPFORGE_POOL_MAX_RSS_MB). Celery's
  ``worker_max_memory_per_child`` sees only the Python child, never Chromium. The tree is measured as summed
  PSS (shared pages divided among the processes sharing them) where the kernel reports it: summed RSS
  counts shared pages once per process and overstates a near-empty browser 2-3x (560-880 MB RSS against
  160-350 MB PSS here). Summed RSS is read after every job; PSS (slower to read) only when the RSS is over
  the limit, and it decides then; summed RSS is the fallback where PSS cannot be read;
- ``disconnected``: the browser crashed or its connection closed. Found before a job, the job simply gets a
  new browser; found during or at the end of a job, that job fails with BrowserCrashedError;
- ``fork``: the pool is used in a process other than the one that launched its browser. The inherited
  handles belong to the parent; they are set aside untouched and the child launches its own Chromium.

How the Celery worker uses it (prefork pool; Playwright's sync API is bound to the thread that started it,
so not with ``--pool threads``)::

    from celery.signals import worker_process_init, worker_process_shutdown

    pool: BrowserPool | None = None

    @worker_process_init.connect
    def _make_pool(**_):
        global pool
        pool = BrowserPool(get_settings())  # launches nothing: init handlers are killed after 4 s

    @worker_process_shutdown.connect
    def _close_pool(**_):
        if pool is not None:
            pool.close()

    # in a task (the agent's jobs take it as their `session`)
    with pool.session() as session:
        ...  # session.tab(trace_path=...) as with a BrowserSession; BrowserCrashedError if Chromium dies meanwhile
"""

from __future__ import annotations

import contextlib
import os
import time
from collections.abc import Iterator
from dataclasses import dataclass, field

import psutil
from playwright.sync_api import Browser

from shared.lifetime import descendants
from shared.logging import log
from shared.settings import Settings
from workers.agent.execution.browser import BrowserCrashedError, BrowserSession

RECYCLE_REASONS = ("jobs", "memory", "disconnected", "fork")

# Handles inherited across fork: kept referenced so that no finaliser ever runs on them in the child (closing an
# inherited Playwright transport could signal the parent's driver); they are never used.
_INHERITED: list[object] = []


@dataclass
class PoolStats:
    """Plain data about one process's pool."""

    pid: int
    browser_pid: int | None
    jobs_current_browser: int
    jobs_total: int
    launches: int
    recycles: dict[str, int]
    last_tree_rss_mb: float | None
    last_tree_pss_mb: float | None
    last_tree_processes: int | None
    max_jobs: int
    max_rss_mb: float


class PooledSession(BrowserSession):
    """One job's view of the pool's browser: BrowserSession's tab(), without launching or closing anything."""

    def __init__(self, pool: BrowserPool, browser: Browser) -> None:
        super().__init__(pool.settings)
        self._pool = pool
        self._leased = browser
        self.active = True

    def browser(self) -> Browser:
        if not self.active:
            raise RuntimeError("this browser lease has ended; take a new one with pool.session()")
        if not self._pool._alive():
            raise BrowserCrashedError(self._pool._crash_message())
        return self._leased

    def launch(self) -> Browser:
        raise RuntimeError("a pooled session does not launch browsers; the pool does")

    def close(self) -> None:
        """The pool owns the browser: leaving a `with session:` block closes nothing."""


@dataclass
class _Counters:
    launches: int = 0
    jobs_total: int = 0
    recycles: dict[str, int] = field(default_factory=lambda: dict.fromkeys(RECYCLE_REASONS, 0))
    last_tree_rss_mb: float | None = None
    last_tree_pss_mb: float | None = None
    last_tree_processes: int | None = None


class BrowserPool:
    """One per worker process. Construction launches nothing, so it is safe before fork."""

    def __init__(self, settings: Settings, *, max_jobs: int | None = None, max_rss_mb: float | None = None) -> None:
        self.settings = settings
        self.max_jobs = max_jobs if max_jobs is not None else settings.pool_max_jobs
        self.max_rss_mb = max_rss_mb if max_rss_mb is not None else settings.pool_max_rss_mb
        if self.max_jobs < 1 or self.max_rss_mb <= 0:
            raise ValueError("max_jobs must be at least 1 and max_rss_mb positive")
        self._launcher = BrowserSession(settings)  # starts Playwright on first launch, stops it on close
        self._owner_pid: int | None = None  # the process that started Playwright and launched the browser
        self._browser: Browser | None = None
        self._main: psutil.Process | None = None  # Chromium's main process
        self._tree: list[psutil.Process] = []  # its process tree when last seen, to reap what a crash leaves
        self._disconnected = False
        self._jobs = 0
        self._lease: PooledSession | None = None
        self._closed = False
        self._counters = _Counters()
        self._last_crash = ""

    # --- what workers call ---

    @contextlib.contextmanager
    def session(self) -> Iterator[BrowserSession]:
        """Lease the browser for one job; a browser that crashed during the job raises BrowserCrashedError here."""
        self._check_fork()
        if self._closed:
            raise RuntimeError("the browser pool is closed")
        if self._lease is not None:
            raise RuntimeError("the browser pool serves one job at a time")
        if self._browser is not None and not self._alive():
            self._recycle("disconnected")
        if self._browser is None:
            self._launch()
        assert self._browser is not None
        lease = PooledSession(self, self._browser)
        self._lease = lease
        try:
            yield lease
        except Exception as exc:
            if self._end_job():
                raise BrowserCrashedError(self._last_crash) from exc
            raise
        except BaseException:
            self._end_job()
            raise
        else:
            if self._end_job():
                raise BrowserCrashedError(self._last_crash)

    lease = session

    def stats(self) -> PoolStats:
        self._check_fork()
        c = self._counters
        return PoolStats(
            pid=os.getpid(),
            browser_pid=self._main.pid if self._main is not None and self._browser is not None else None,
            jobs_current_browser=self._jobs,
            jobs_total=c.jobs_total,
            launches=c.launches,
            recycles=dict(c.recycles),
            last_tree_rss_mb=c.last_tree_rss_mb,
            last_tree_pss_mb=c.last_tree_pss_mb,
            last_tree_processes=c.last_tree_processes,
            max_jobs=self.max_jobs,
            max_rss_mb=self.max_rss_mb,
        )

    def close(self) -> None:
        """Close the browser and Playwright (worker_process_shutdown); safe to call twice, and in a forked child."""
        self._check_fork()
        if self._browser is not None:
            self._close_browser()
            log.info("browser_pool.closed", pid=os.getpid(), jobs_total=self._counters.jobs_total,
                     launches=self._counters.launches)
        with contextlib.suppress(Exception):  # a driver that already died must not fail the worker's shutdown
            self._launcher.close()
        self._owner_pid = None
        self._closed = True

    # --- launch, watch, recycle ---

    def _launch(self) -> None:
        started = time.perf_counter()
        self._owner_pid = os.getpid()
        before = {proc.pid for proc in descendants()}
        try:
            browser = self._launcher.launch()
        except Exception:
            # The driver may be the broken part: the next job starts Playwright afresh.
            with contextlib.suppress(Exception):
                self._launcher.close()
            self._launcher = BrowserSession(self.settings)
            raise
        self._browser = browser
        self._disconnected = False
        self._jobs = 0
        browser.on("disconnected", lambda _: self._mark_disconnected(browser))
        self._main = _find_main_process(before)
        self._tree = self._current_tree()
        self._counters.launches += 1
        log.info("browser_pool.launched", pid=os.getpid(), browser_pid=self._main.pid if self._main else None,
                 launches=self._counters.launches, launch_ms=round((time.perf_counter() - started) * 1000))
        if self._main is None:
            log.warning("browser_pool.no_process", detail="Chromium's process was not found; memory is not watched")

    def _mark_disconnected(self, browser: Browser) -> None:
        if browser is self._browser:
            self._disconnected = True

    def _alive(self) -> bool:
        """Playwright learns of a crash only while it runs a call; the process table knows at once."""
        if self._browser is None or self._disconnected or not self._browser.is_connected():
            return False
        if self._main is None:
            return True
        try:
            return self._main.is_running() and self._main.status() != psutil.STATUS_ZOMBIE
        except psutil.Error:
            return False

    def _crash_message(self) -> str:
        pid = self._main.pid if self._main is not None else "?"
        return (f"Chromium (pid {pid}) crashed or disconnected during this job; "
                f"the pool gives the next job a new browser")

    def _end_job(self) -> bool:
        """Count the job, then recycle if due; True when the browser died under the job."""
        if self._lease is not None:
            self._lease.active = False
        self._lease = None
        self._jobs += 1
        self._counters.jobs_total += 1
        if not self._alive():
            self._last_crash = self._crash_message()
            self._recycle("disconnected")
            return True
        self._measure()
        if self._jobs >= self.max_jobs:
            self._recycle("jobs")
        elif (used := self._counters.last_tree_pss_mb or self._counters.last_tree_rss_mb) is not None \
                and used > self.max_rss_mb:
            self._recycle("memory")
        return False

    def _measure(self) -> None:
        """Summed RSS of the tree (cheap: /proc/<pid>/statm); PSS only when the RSS is over the limit. PSS is never
        above RSS, so an RSS under the limit settles it, and reading every process's smaps (20-40 ms for a
        browser's tree here) is left for the jobs that may be over it."""
        self._tree = self._current_tree()
        rss = 0
        alive = []
        for proc in self._tree:
            with contextlib.suppress(psutil.Error):  # a renderer that ended while we looked
                rss += proc.memory_info().rss
                alive.append(proc)
        if not alive:
            return
        self._counters.last_tree_rss_mb = round(rss / 2**20, 1)
        self._counters.last_tree_processes = len(alive)
        self._counters.last_tree_pss_mb = None
        if rss / 2**20 > self.max_rss_mb:
            pss = 0
            for proc in alive:
                with contextlib.suppress(psutil.Error):
                    pss += getattr(proc.memory_full_info(), "pss", 0)
            self._counters.last_tree_pss_mb = round(pss / 2**20, 1) if pss else None

    def _current_tree(self) -> list[psutil.Process]:
        if self._main is None:
            return []
        if not self._main.is_running():
            return list(self._tree)
        return [self._main, *descendants(self._main)]

    def _recycle(self, reason: str) -> None:
        self._counters.recycles[reason] += 1
        fields = dict(pid=os.getpid(), reason=reason, browser_pid=self._main.pid if self._main else None,
                      jobs=self._jobs, tree_rss_mb=self._counters.last_tree_rss_mb)
        if reason == "disconnected":
            log.warning("browser_pool.recycled", **fields)
        else:
            log.info("browser_pool.recycled", **fields)
        self._close_browser()

    def _close_browser(self) -> None:
        if self._alive():
            self._tree = self._current_tree()
        browser, self._browser = self._browser, None
        if browser is not None:
            with contextlib.suppress(Exception):
                browser.close()
        _reap(self._tree)
        self._main = None
        self._tree = []
        self._jobs = 0
        self._disconnected = False

    def _check_fork(self) -> None:
        if self._owner_pid is None or self._owner_pid == os.getpid():
            return
        parent = self._owner_pid
        _INHERITED.append((self._launcher, self._browser, self._main, self._tree))
        self._launcher = BrowserSession(self.settings)
        self._owner_pid = None
        self._browser = None
        self._main = None
        self._tree = []
        self._disconnected = False
        self._jobs = 0
        self._lease = None
        self._counters = _Counters()
        self._counters.recycles["fork"] = 1
        log.info("browser_pool.fork_detected", pid=os.getpid(), parent_pid=parent)


def _find_main_process(before: set[int]) -> psutil.Process | None:
    """The Chromium this launch started: a new descendant on Playwright's pipe that is not a --type= child."""
    found = []
    for proc in descendants():
        if proc.pid in before:
            continue
        with contextlib.suppress(psutil.Error):
            cmdline = proc.cmdline()
            if "--remote-debugging-pipe" in cmdline and not any(arg.startswith("--type=") for arg in cmdline):
                found.append(proc)
    return max(found, key=lambda proc: proc.create_time(), default=None)


def _reap(tree: list[psutil.Process]) -> None:
    """Kill what is left of a browser's tree (a crashed main leaves renderers behind for a moment)."""
    survivors = _running(tree, timeout=1.0)
    for proc in survivors:
        with contextlib.suppress(psutil.Error):
            proc.kill()  # psutil refuses if the pid was reused by another process
    _running(survivors, timeout=2.0)


def _running(procs: list[psutil.Process], timeout: float) -> list[psutil.Process]:
    """Those still running after up to `timeout` s; a zombie counts as gone (whoever adopted it may never reap it)."""
    deadline = time.monotonic() + timeout
    while True:
        left = []
        for proc in procs:
            with contextlib.suppress(psutil.Error):
                if proc.is_running() and proc.status() != psutil.STATUS_ZOMBIE:
                    left.append(proc)
        if not left or time.monotonic() >= deadline:
            return left
        procs = left
        time.sleep(0.05)
