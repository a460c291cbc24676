"""Service benchmark: `python -m bench.service [--quick] [--json]`.

Four figures of the distributed service, each against its target, all on real PostgreSQL, Redis, Chromium and
Celery (nothing mocked):

1. Enqueue: the time from sending POST /v1/batches with 1,000 inline scenarios (200 with --quick) until its 202
   arrives (target < 2 s). The API is the real application run as it is deployed, `uvicorn api.app:app` (1 worker
   process; --api-workers N for more) with its settings in STEPFORGE_* variables, on a PostgreSQL database created
   for the run (migrated with
   shared/migrate.py, dropped at the end) and a Redis database number reserved for the bench (flushed before and
   after). No Celery worker runs: the jobs only queue. A 20-job batch is sent first (it warms the API process up
   and serves figure 2); then 3 batches of 1,000 new scenarios (1 with --quick), each timed; the median counts.
   The request body is encoded before the clock starts. Checked after each: the batch's job rows (1,000, all
   queued) and the messages waiting in Redis.
2. Status latency: GET /v1/batches/{id} of the 20-job batch, open loop at 200 requests/s for 10 s (3 s with
   --quick) from an asyncio aiohttp client in this process, after 2 s of the same load not counted (every API
   process opens its database connections). Request i is due at t0 + i/200 whatever happened to the earlier ones;
   its latency runs from that due time to the end of its response, so a server (or client) that falls behind
   shows up as latency, not as fewer requests. At most 32 requests are in flight (the client's connection pool);
   a request waiting for a connection is late all the same. Requests unanswered 10 s (3 s) after the last one was
   due are cancelled and count as slower than any other ("> 10000 ms").
   Printed: p50/p99 from the due time (target p99 < 50 ms at 200 rps), the time on the wire and the wait for a
   connection, the rate answered, the API's capacity (closed loop, 8 connections, a third of the time) and,
   when 200 rps was out of reach, p50/p99 at 80% of that capacity.
   Then 64 status requests sent at once on new connections, more than the API's database connections (pool 10 +
   overflow 10): each request checks its key and does its work on one connection in one pool thread, so the
   surplus waits a moment for a connection and every request is answered 200 (checked).
3. Warm pool against cold launch (workers/service/pool.py, in a spawned child process): a job's start, the time from
   `pool.session()` until a fresh context exists as every scenario gets one (BrowserSession.new_context:
   viewport, timeouts, egress guard session, tracing started), (a) leasing the warm browser of a BrowserPool, 100 ms
   after the previous job (the real worker's browser idles longer: see part 4), and again right after the
   previous job's context closed; (b) a browser launched for the job on a pool whose Playwright already runs (a
   pool with max_jobs=1 recycles its browser after every job); (c) a new BrowserPool, Playwright's driver
   started too. Target (b)/(a) >= 10x. The job's first page, timed apart, costs the same after a warm lease as
   after a launch (a renderer process); the ratio with it counted on both sides is printed too. Medians of 10
   (5 with --quick).
4. Generation throughput: a real Celery worker (`celery -A workers.service.celery_app worker --pool=prefork
   --concurrency=N`, environment as tests/service/conftest.py sets it: its own queue, the broker, the database,
   a local artifacts folder, private targets allowed, builtin brain) against the demo app
   (tests.apps.petclinic.serve_in_thread), for N=1 then N=2, each on a fresh database (so the second run gets no
   steps the first one stored in the step registry) with its own API process. Once the worker is ready, a batch
   of K=8 demo scenarios (4 with --quick) is POSTed; the wall time runs until GET /v1/batches/{id} says
   finished (polled every 0.2 s). The scenarios are the read-only ones of examples/petclinic.yaml (no reset
   command needed; repeated under new ids when K is larger). Printed: scenarios per minute for each N and the
   ratio; linear scaling would be 2x, and 2 CPU cores run the Celery children, their Chromiums, the replays'
   cucumber-js and Chromium, the API, PostgreSQL and the demo app.
   With N=1, the project's scenarios are then regenerated (POST /v1/projects/me/regenerate) with the application
   unchanged: their verified scripts are replayed first, in one run. Printed: its wall time to finished, the jobs'
   triage classes, and generation / regeneration (builtin brain, no model latency; the 5x target against the model
   brain's generation is bench.regeneration's).
   From the worker's log and the jobs' timings: how long the browser of a worker process is idle between two
   jobs (the replay after a job's last context, then the time from "generate_job.finished" to the next
   "generate_job.claimed").

Everything is cleaned up at the end, also on an error or Ctrl-C: subprocesses stopped (their process groups
killed), databases dropped, the Redis database flushed; every process started is tagged through its
environment, and any tagged process still alive at the end (a Chromium) is killed and reported.

Settings: STEPFORGE_BENCH_DATABASE_URL (the PostgreSQL admin connection; default STEPFORGE_TEST_DATABASE_URL,
else postgresql+psycopg://postgres@127.0.0.1:5432/postgres) and STEPFORGE_BENCH_REDIS_URL (default
redis://127.0.0.1:6379/13; that database is flushed).

Output: the table (figure, value, target, PASS/FAIL) on stdout; with --json the figures as JSON on stdout and
the table on stderr. Exit status 0 unless something broke or a correctness check failed (job rows, queued
messages, a job that did not pass); a figure missing its target is reported as FAIL in the table, not as an error.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import multiprocessing
import os
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

ADMIN_URL = os.environ.get("STEPFORGE_BENCH_DATABASE_URL") or os.environ.get(
    "STEPFORGE_TEST_DATABASE_URL", "postgresql+psycopg://postgres@127.0.0.1:5432/postgres")
REDIS_URL = os.environ.get("STEPFORGE_BENCH_REDIS_URL", "redis://127.0.0.1:6379/13")
ADMIN_TOKEN = "bench-admin-token-" + uuid.uuid4().hex
TAG_VAR = "STEPFORGE_BENCH_SERVICE_TAG"

# Targets.
ENQUEUE_TARGET_S = 2.0
STATUS_RATE = 200.0
STATUS_P99_TARGET_MS = 50.0
POOL_RATIO_TARGET = 10.0

STATUS_BATCH_JOBS = 20
# The pause before each warm job start of the pool figure. In the real worker the browser is idle longer between a
# job's last context and the next job's first: a passing job replays its suite in cucumber-js (its own browser)
# after its last context closed, then the worker finishes the job, acknowledges its message and claims the next
# (part 4 measures both). A job that failed before its replay is followed at once: the back-to-back figure.
BETWEEN_JOBS_S = 0.1
STATUS_WARMUP_S = 2.0
CAPACITY_CONNECTIONS = 8
# The open-loop client keeps at most this many requests in flight (its connection pool).
STATUS_CONNECTIONS = 32
OVERLOAD_CONNECTIONS = 64
REQUEST_TIMEOUT_S = 30
# The demo scenarios that change no data (no reset command needed), in the order they are taken.
READ_ONLY = ("OWN-1", "OWN-2", "VET-20", "PET-15", "OWN-3", "OWN-5", "OWN-11", "ERR-21", "OWN-4")
API_START_TIMEOUT_S = 30
WORKER_START_TIMEOUT_S = 60
BATCH_TIMEOUT_S = 600


@dataclass
class Plan:
    enqueue_scenarios: int
    enqueue_runs: int
    status_seconds: float
    pool_samples: int
    generation_scenarios: int
    api_workers: int = 1
    worker_counts: tuple[int, ...] = (1, 2)

    @classmethod
    def make(cls, quick: bool, api_workers: int) -> Plan:
        if quick:
            return cls(enqueue_scenarios=200, enqueue_runs=1, status_seconds=3, pool_samples=5, generation_scenarios=4,
                       api_workers=api_workers)
        return cls(enqueue_scenarios=1000, enqueue_runs=3, status_seconds=10, pool_samples=10, generation_scenarios=8,
                   api_workers=api_workers)


@dataclass
class Row:
    figure: str
    value: str
    target: str
    result: str  # PASS, FAIL, OK (a check that held), INFO (no target)


@dataclass
class Report:
    rows: list[Row] = field(default_factory=list)
    figures: dict[str, Any] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)

    def add(self, figure: str, value: str, target: str = "", result: str = "INFO") -> None:
        self.rows.append(Row(figure, value, target, result))

    def check(self, figure: str, value: str, target: str, ok: bool) -> None:
        self.add(figure, value, target, "OK" if ok else "FAIL")
        if not ok:
            self.problems.append(f"{figure}: {value} (expected {target})")


def say(message: str) -> None:
    print(f"[bench.service {time.strftime('%H:%M:%S')}] {message}", file=sys.stderr, flush=True)


def verdict(ok: bool) -> str:
    return "PASS" if ok else "FAIL"


def ms(seconds: float) -> float:
    return round(seconds * 1000, 2)


def percentile(samples: list[float], q: float) -> float:
    """Nearest-rank percentile."""
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, max(0, int(-(-q * len(ordered) // 100)) - 1))]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


# --- resources: databases, Redis, the API process, the worker -------------------------------------------------


class Resources:
    """Everything the run creates, released in reverse order whatever happens."""

    def __init__(self, workdir: Path) -> None:
        self.workdir = workdir
        self.tag = os.environ[TAG_VAR]
        self._undo: list[tuple[str, Callable[[], None]]] = []

    def on_exit(self, what: str, action: Callable[[], None]) -> None:
        self._undo.append((what, action))

    def release(self, what: str) -> None:
        """Run one registered clean-up now (e.g. stop the API between parts)."""
        for i in range(len(self._undo) - 1, -1, -1):
            if self._undo[i][0] == what:
                _, action = self._undo.pop(i)
                action()
                return

    def close(self) -> list[str]:
        errors = []
        while self._undo:
            what, action = self._undo.pop()
            try:
                action()
            except Exception as error:  # noqa: BLE001 - clean up the rest anyway
                errors.append(f"clean-up of {what} failed: {error}")
        return errors

    # PostgreSQL

    def database(self, label: str) -> str:
        from shared.db import create_database, drop_database
        from shared.migrate import upgrade

        name = f"stepforge_bench_{label}_{uuid.uuid4().hex[:10]}"
        url = create_database(ADMIN_URL, name)
        self.on_exit(f"database {name}", lambda: drop_database(ADMIN_URL, name))
        upgrade(url)
        return url

    # Redis

    def redis(self):
        import redis

        client = redis.Redis.from_url(REDIS_URL, socket_connect_timeout=5)
        client.flushdb()

        def flush() -> None:
            client.flushdb()
            client.close()

        self.on_exit("redis", flush)
        return client

    # The API as it is deployed: `uvicorn api.app:app --workers N`, its settings in STEPFORGE_* variables.

    def api(self, name: str, workers: int = 1, **settings: Any) -> str:
        port = free_port()
        log_path = self.workdir / f"api-{name}.log"
        env = {key: value for key, value in os.environ.items() if not key.startswith("STEPFORGE_") or key == TAG_VAR}
        env.update({f"STEPFORGE_{key.upper()}": str(value).lower() if isinstance(value, bool) else str(value)
                    for key, value in settings.items()})
        env["PYTHONPATH"] = str(REPO)
        command = [sys.executable, "-m", "uvicorn", "api.app:app", "--host", "127.0.0.1", "--port", str(port),
                   "--workers", str(workers), "--log-level", "warning", "--no-access-log"]
        with log_path.open("wb") as out:
            process = subprocess.Popen(command, cwd=REPO, env=env, stdout=out, stderr=subprocess.STDOUT,
                                       stdin=subprocess.DEVNULL, start_new_session=True)
        self.on_exit(name, lambda: stop_process_group(process))
        url = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + API_START_TIMEOUT_S
        import httpx

        while True:
            with contextlib.suppress(httpx.HTTPError):
                if httpx.get(f"{url}/healthz", timeout=2).status_code == 200:
                    return url
            if process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"the API did not start on {url}; its log ends:\n{tail(log_path)}")
            time.sleep(0.1)

    # A Celery worker subprocess.

    def worker(self, name: str, concurrency: int, env: dict[str, str]) -> subprocess.Popen:
        log_path = self.workdir / f"{name}.log"
        queues = f"{env['STEPFORGE_QUEUE']},{env['STEPFORGE_WEBHOOK_QUEUE']}"  # jobs, and webhooks and the sweep
        command = [sys.executable, "-m", "celery", "-A", "workers.service.celery_app", "worker", "--pool=prefork",
                   f"--concurrency={concurrency}", "-Q", queues, "-n", f"{name}-{uuid.uuid4().hex[:6]}@%h",
                   "--loglevel=INFO", "--without-gossip", "--without-mingle", "--without-heartbeat"]
        with log_path.open("wb") as out:
            process = subprocess.Popen(command, cwd=REPO, env=env, stdout=out, stderr=subprocess.STDOUT,
                                       stdin=subprocess.DEVNULL, start_new_session=True)
        self.on_exit(name, lambda: stop_process_group(process))
        deadline = time.monotonic() + WORKER_START_TIMEOUT_S
        while " ready." not in log_path.read_text(errors="replace"):
            if process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"the Celery worker did not start; its log ends:\n{tail(log_path)}")
            time.sleep(0.2)
        return process


def tail(path: Path, chars: int = 3000) -> str:
    try:
        return path.read_text(errors="replace")[-chars:]
    except OSError:
        return "(no log)"


def stop_process_group(process: subprocess.Popen) -> None:
    """Warm shutdown (SIGTERM), then whatever is left of the process group (a worker's Chromiums included)."""
    if process.poll() is None:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            pass
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(process.pid, signal.SIGKILL)
    with contextlib.suppress(subprocess.TimeoutExpired):
        process.wait(timeout=10)


def tagged_leftovers(tag: str) -> list[str]:
    """Processes started by this run (they carry its tag in their environment) still alive: killed, and named."""
    import psutil

    me = os.getpid()
    found = []
    for proc in psutil.process_iter(["pid", "name"]):
        if proc.pid == me:
            continue
        with contextlib.suppress(psutil.Error):
            if proc.environ().get(TAG_VAR) != tag or proc.status() == psutil.STATUS_ZOMBIE:
                continue
            if proc.ppid() == me and "multiprocessing.resource_tracker" in " ".join(proc.cmdline()):
                continue  # multiprocessing's helper: it ends with this process
            found.append(proc)
    names = []
    for proc in found:
        with contextlib.suppress(psutil.Error):
            names.append(f"{proc.info['name']} ({proc.pid})")
            proc.kill()
    psutil.wait_procs(found, timeout=5)
    return names


# --- the API's client side ------------------------------------------------------------------------------------


def new_project(client, base_url: str) -> dict[str, str]:
    response = client.post("/v1/projects", json={"name": f"bench {uuid.uuid4().hex[:6]}", "base_url": base_url},
                           headers={"Authorization": f"Bearer {ADMIN_TOKEN}"})
    if response.status_code != 201:
        raise RuntimeError(f"POST /v1/projects: {response.status_code} {response.text[:300]}")
    return {"Authorization": f"Bearer {response.json()['api_key']}"}


def synthetic_scenarios(prefix: str, count: int) -> list[dict]:
    """Distinct inline scenarios shaped like the demo ones (each becomes a stored scenario and a job)."""
    return [
        {"id": f"{prefix}-{i:04d}", "title": f"Finding owner number {i}",
         "steps": ["Go to the Find Owners page", f'Type "Owner{i}" into the last name field',
                   {"action": "Click Find Owner", "expected": f'"Owner{i}" is shown'}]}
        for i in range(count)
    ]


def post_batch(client, headers: dict[str, str], scenarios: list[dict]) -> tuple[dict, float]:
    """POST /v1/batches; (the 202's body, seconds from sending the already-encoded body to the answer)."""
    content = json.dumps({"scenarios": scenarios}).encode()
    request_headers = {**headers, "Idempotency-Key": uuid.uuid4().hex, "Content-Type": "application/json"}
    started = time.perf_counter()
    response = client.post("/v1/batches", content=content, headers=request_headers)
    elapsed = time.perf_counter() - started
    if response.status_code != 202:
        raise RuntimeError(f"POST /v1/batches ({len(scenarios)} scenarios): {response.status_code} "
                           f"{response.text[:300]}")
    return response.json(), elapsed


def demo_scenarios(count: int) -> list[dict]:
    from shared.scenarios import load_scenarios

    by_id = {s.id: s for s in load_scenarios(REPO / "examples" / "petclinic.yaml").scenarios}
    chosen = []
    for i in range(count):
        scenario = by_id[READ_ONLY[i % len(READ_ONLY)]].model_dump(mode="json", exclude_none=True)
        if i >= len(READ_ONLY):
            scenario["id"] = f"{scenario['id']}-r{i // len(READ_ONLY) + 1}"
        chosen.append(scenario)
    return chosen


# --- 1 and 2: enqueue time and status latency -----------------------------------------------------------------


def bench_api(res: Resources, plan: Plan, report: Report) -> None:
    import httpx
    from sqlalchemy import text

    from shared.db import make_engine

    database_url = res.database("api")
    broker = res.redis()
    queue = f"bench-{uuid.uuid4().hex[:8]}"
    limit = max(plan.enqueue_scenarios, STATUS_BATCH_JOBS)
    url = res.api("api", workers=plan.api_workers, database_url=database_url, broker_url=REDIS_URL, queue=queue,
                  webhook_queue=f"{queue}-webhooks", admin_token=ADMIN_TOKEN,
                  allow_private_targets=True, artifacts_dir=str(res.workdir / "api-artifacts"),
                  max_batch_scenarios=limit, max_body_bytes=16 * 2**20, log_json=False)
    say(f"API at {url} ({plan.api_workers} uvicorn worker process{'es' if plan.api_workers > 1 else ''}, database {database_url.rsplit('/', 1)[-1]}, queue {queue}); no worker runs")

    with httpx.Client(base_url=url, timeout=60) as client:
        headers = new_project(client, "http://127.0.0.1:8080")
        status_batch, warm_s = post_batch(client, headers, synthetic_scenarios("STATUS", STATUS_BATCH_JOBS))
        say(f"{STATUS_BATCH_JOBS}-job batch {status_batch['id']} accepted in {ms(warm_s)} ms (warm-up)")
        times, batches = [], []
        for run in range(plan.enqueue_runs):
            accepted, elapsed = post_batch(client, headers, synthetic_scenarios(f"BULK{run}", plan.enqueue_scenarios))
            times.append(elapsed)
            batches.append(accepted["id"])
            say(f"{plan.enqueue_scenarios}-scenario batch {accepted['id']}: 202 after {elapsed:.3f} s")

    engine = make_engine(database_url, pool_size=1, max_overflow=0)
    try:
        with engine.connect() as conn:
            per_state = text("SELECT state, count(*) FROM job WHERE batch_id = :b GROUP BY state")
            rows = {batch_id: dict(conn.execute(per_state, {"b": batch_id}).all()) for batch_id in batches}
            total_jobs = conn.execute(text("SELECT count(*) FROM job")).scalar_one()
    finally:
        engine.dispose()
    # The API sends a batch's messages after its 202 (a background task): wait for them, and say how long.
    expected_messages = STATUS_BATCH_JOBS + plan.enqueue_scenarios * plan.enqueue_runs
    waited = time.perf_counter()
    while (queued_messages := broker.llen(queue)) < expected_messages and time.perf_counter() - waited < 60:
        time.sleep(0.05)
    sent_after_s = time.perf_counter() - waited

    median_s = statistics.median(times)
    n = plan.enqueue_scenarios
    report.figures["enqueue"] = {
        "scenarios": n, "runs_s": [round(t, 4) for t in times], "median_s": round(median_s, 4),
        "ms_per_scenario": round(median_s * 1000 / n, 3), "warmup_batch_ms": ms(warm_s),
        "job_rows_per_batch": {str(b): r for b, r in rows.items()}, "job_rows_total": total_jobs,
        "queued_messages": queued_messages, "target_s": ENQUEUE_TARGET_S,
    }
    runs = ", ".join(f"{t:.2f}" for t in times)
    report.add(f"enqueue {n:,}-scenario batch (POST -> 202)",
               f"{median_s:.2f} s" + (f" (median of {len(times)}: {runs})" if len(times) > 1 else ""),
               f"< {ENQUEUE_TARGET_S:g} s", verdict(median_s < ENQUEUE_TARGET_S))
    report.add("  time per scenario", f"{median_s * 1000 / n:.2f} ms")
    per_batch = sorted({sum(r.values()) for r in rows.values()})
    all_queued = all(set(r) == {"queued"} for r in rows.values())
    report.check("  job rows per batch afterwards",
                 f"{'/'.join(str(c) for c in per_batch)} ({'all queued' if all_queued else 'not all queued'}; "
                 f"{total_jobs:,} in the table)", f"= {n:,}, queued", per_batch == [n] and all_queued)
    report.check("  job messages waiting in Redis", f"{queued_messages:,} ({sent_after_s:.2f} s after the last 202)",
                 f"= {expected_messages:,}", queued_messages == expected_messages)

    capacity = asyncio.run(status_capacity(url, headers, status_batch["id"], CAPACITY_CONNECTIONS,
                                           plan.status_seconds / 3))
    say(f"status capacity (closed loop, {CAPACITY_CONNECTIONS} connections): {capacity['rps']:.0f} rps")
    # A warm-up at the same rate, not counted: every API process opens its database connections and psycopg
    # prepares its statements (the 50 requests before the capacity loop reach only some connections).
    asyncio.run(status_load(url, headers, status_batch["id"], STATUS_RATE, STATUS_WARMUP_S))
    status = asyncio.run(status_load(url, headers, status_batch["id"], STATUS_RATE, plan.status_seconds))
    say(f"status at {STATUS_RATE:g} rps: p99 {shown(status['p99_ms'], plan.status_seconds)} ms, "
        f"{status['achieved_rps']:.0f} rps answered")
    report.figures["status"] = status
    report.figures["status_capacity"] = capacity
    reached = status["achieved_rps"] >= 0.95 * STATUS_RATE
    p99_ok = status["p99_ms"] is not None and status["p99_ms"] < STATUS_P99_TARGET_MS
    drain = plan.status_seconds
    processes = f"{plan.api_workers} API process{'es' if plan.api_workers > 1 else ''}"
    report.add(f"status GET p50 / p99 ({STATUS_BATCH_JOBS}-job batch, open loop, {processes})",
               f"{shown(status['p50_ms'], drain)} / {shown(status['p99_ms'], drain)} ms; "
               f"{status['achieved_rps']:.0f} rps answered",
               f"p99 < {STATUS_P99_TARGET_MS:g} ms at {STATUS_RATE:g} rps", verdict(p99_ok and reached))
    report.add("  on the wire / waiting for a connection, p50 / p99",
               f"{shown(status['wire_p50_ms'], drain)} / {shown(status['wire_p99_ms'], drain)} ms; "
               f"{shown(status['wait_p50_ms'], drain)} / {shown(status['wait_p99_ms'], drain)} ms")
    report.add("  request rate (due / answered)",
               f"{status['due_rps']:.0f} / {status['achieved_rps']:.0f} rps; {status['unanswered']} of "
               f"{status['requests']} unanswered {drain:g} s after the last was due",
               f">= {0.95 * STATUS_RATE:g} rps", verdict(reached))
    report.add(f"  API capacity (closed loop, {CAPACITY_CONNECTIONS} connections)",
               f"{capacity['rps']:.0f} rps, p50 {capacity['p50_ms']:.1f} ms")
    errors = status["errors"] + capacity["errors"]
    if not reached and capacity["rps"] > 10:
        # The server could not keep up: the latency it gives at a rate it does sustain, for comparison.
        rate = max(5.0, 5 * ((0.8 * capacity["rps"]) // 5))
        sustained = asyncio.run(status_load(url, headers, status_batch["id"], rate, plan.status_seconds))
        report.figures["status_sustained"] = sustained
        errors += sustained["errors"]
        report.add(f"  p50 / p99 at {rate:g} rps (80% of capacity)",
                   f"{shown(sustained['p50_ms'], drain)} / {shown(sustained['p99_ms'], drain)} ms; "
                   f"{sustained['achieved_rps']:.0f} rps answered", f"p99 < {STATUS_P99_TARGET_MS:g} ms",
                   verdict(sustained["p99_ms"] is not None and sustained["p99_ms"] < STATUS_P99_TARGET_MS))
    report.check("  status answers not 200 (timeouts included)", f"{errors}", "= 0", errors == 0)
    burst = asyncio.run(status_burst(url, headers, status_batch["id"], OVERLOAD_CONNECTIONS))
    report.figures["status_overload"] = burst
    report.check(f"  {OVERLOAD_CONNECTIONS} requests at once, more than the API's database connections",
                 f"{burst['ok']} answered 200, {burst['errors']} not (codes {burst['codes']}); "
                 f"slowest {burst['max_ms']:.0f} ms", "all 200", burst["errors"] == 0)
    res.release("api")


# The load generator is aiohttp: httpx's AsyncClient spends several times more CPU per request under concurrency
# (encode/httpx#3215), and on 2 cores the client's CPU is taken from the API it measures.


def client_session(url: str, headers: dict[str, str], connections: int, timeout_s: float,
                   trace: Any = None) -> Any:
    import aiohttp

    return aiohttp.ClientSession(
        base_url=url, headers=headers, connector=aiohttp.TCPConnector(limit=connections),
        timeout=aiohttp.ClientTimeout(total=None, sock_connect=timeout_s, sock_read=timeout_s),
        trace_configs=[trace] if trace is not None else None,
    )


async def get_status(client: Any, path: str, **kwargs: Any) -> str:
    """The answer's status code, or the name of the error that stood in for it."""
    import aiohttp

    try:
        async with client.get(path, **kwargs) as response:
            await response.read()
            return str(response.status)
    except (aiohttp.ClientError, asyncio.TimeoutError) as error:
        return type(error).__name__


async def status_burst(url: str, headers: dict[str, str], batch_id: int, count: int) -> dict:
    """`count` requests sent together, each on a connection of its own."""
    path = f"/v1/batches/{batch_id}"
    async with client_session(url, headers, count, REQUEST_TIMEOUT_S + 15) as client:

        async def one() -> tuple[str, float]:
            started = time.perf_counter()
            code = await get_status(client, path)
            return code, (time.perf_counter() - started) * 1000

        answers = await asyncio.gather(*(one() for _ in range(count)))
    codes: dict[str, int] = {}
    for code, _ in answers:
        codes[code] = codes.get(code, 0) + 1
    return {"requests": count, "ok": codes.get("200", 0), "errors": count - codes.get("200", 0), "codes": codes,
            "max_ms": round(max(ms_ for _, ms_ in answers), 1)}


async def status_capacity(url: str, headers: dict[str, str], batch_id: int, connections: int,
                          seconds: float) -> dict:
    """Closed loop: `connections` clients each sending the next request when the last one is answered."""
    path = f"/v1/batches/{batch_id}"
    latencies: list[float] = []
    errors = 0
    codes: dict[str, int] = {}
    slowest = 0.0
    # The timeout is above the database pool's 30 s wait: its 503s show up instead of client timeouts.
    async with client_session(url, headers, connections, REQUEST_TIMEOUT_S + 15) as client:
        for _ in range(2 * connections):
            await get_status(client, path)
        stop = time.perf_counter() + seconds

        async def loop() -> None:
            nonlocal errors, slowest
            while time.perf_counter() < stop:
                started = time.perf_counter()
                code = await get_status(client, path)
                codes[code] = codes.get(code, 0) + 1
                slowest = max(slowest, (time.perf_counter() - started) * 1000)
                if code == "200":
                    latencies.append((time.perf_counter() - started) * 1000)
                else:
                    errors += 1

        started = time.perf_counter()
        await asyncio.gather(*(loop() for _ in range(connections)))
        elapsed = time.perf_counter() - started
    return {"connections": connections, "seconds": round(elapsed, 2), "requests": len(latencies), "errors": errors,
            "rps": round(len(latencies) / elapsed, 1), "codes": codes, "max_ms": round(slowest, 1),
            "p50_ms": round(percentile(latencies, 50), 2) if latencies else None,
            "p99_ms": round(percentile(latencies, 99), 2) if latencies else None}


async def status_load(url: str, headers: dict[str, str], batch_id: int, rate: float, seconds: float) -> dict:
    """Open loop: request i is due at t0 + i/rate whatever the earlier ones are doing; latency runs from its due
    time. Requests still unanswered `seconds` after the last one was due are cancelled and count as unanswered."""
    import aiohttp

    path = f"/v1/batches/{batch_id}"
    total = int(rate * seconds)
    dues = [0.0] * total
    wire = [0.0] * total  # when its headers went on the wire (a connection was free)
    done = [0.0] * total
    status = [""] * total

    async def headers_sent(_session: Any, context: Any, _params: Any) -> None:
        wire[context.trace_request_ctx["i"]] = time.perf_counter()

    trace = aiohttp.TraceConfig()
    trace.on_request_headers_sent.append(headers_sent)
    # At most STATUS_CONNECTIONS requests in flight (a client's connection pool); one that waits for a connection is
    # late from its due time all the same, so the wait counts in its latency.
    async with client_session(url, headers, STATUS_CONNECTIONS, REQUEST_TIMEOUT_S, trace) as client:
        for _ in range(50):  # warm-up: the API answers, a few connections are open
            if (code := await get_status(client, path, trace_request_ctx={"i": 0})) != "200":
                raise RuntimeError(f"GET {path}: {code}")

        async def one(i: int) -> None:
            status[i] = await get_status(client, path, trace_request_ctx={"i": i})
            done[i] = time.perf_counter()

        loop = asyncio.get_running_loop()
        tasks = []
        start = time.perf_counter() + 0.05
        for i in range(total):
            dues[i] = start + i / rate
            delay = dues[i] - time.perf_counter()
            if delay > 0:
                await asyncio.sleep(delay)
            tasks.append(loop.create_task(one(i)))
        _, pending = await asyncio.wait(tasks, timeout=seconds)
        for task in pending:
            task.cancel()
        await asyncio.gather(*pending, return_exceptions=True)
    answered = [i for i in range(total) if done[i] and status[i] == "200"]
    unanswered = total - sum(1 for i in range(total) if done[i])
    codes: dict[str, int] = {}
    for i in range(total):
        code = status[i] if done[i] else "unanswered"
        codes[code] = codes.get(code, 0) + 1
    # Unanswered requests are slower than any answered one: they sort last as infinity.
    from_due = [(done[i] - dues[i]) * 1000 for i in answered] + [float("inf")] * unanswered
    on_wire = [(done[i] - wire[i]) * 1000 for i in answered if wire[i]]
    waited = [(wire[i] - dues[i]) * 1000 for i in answered if wire[i]]
    last_done = max((done[i] for i in answered), default=start + 1e-9)
    window = max(dues[-1] - start, 1e-9) if total > 1 else 1.0

    def stat(values: list[float], q: float) -> float | None:
        value = percentile(values, q) if values else float("inf")
        return None if value == float("inf") else round(value, 2)

    return {
        "target_rps": rate, "seconds": seconds, "connections": STATUS_CONNECTIONS, "requests": total,
        "answered_200": len(answered), "unanswered": unanswered,
        "errors": sum(1 for i in range(total) if done[i] and status[i] != "200"), "codes": codes,
        "achieved_rps": round(len(answered) / max(last_done - start, 1e-9), 1),
        "due_rps": round((total - 1) / window, 1) if total > 1 else 0.0,
        "p50_ms": stat(from_due, 50), "p90_ms": stat(from_due, 90), "p99_ms": stat(from_due, 99),
        "max_ms": stat(from_due, 100),
        "wire_p50_ms": stat(on_wire, 50), "wire_p99_ms": stat(on_wire, 99),
        "wait_p50_ms": stat(waited, 50), "wait_p99_ms": stat(waited, 99),
        "target_p99_ms": STATUS_P99_TARGET_MS,
    }


def shown(value: float | None, drain_s: float) -> str:
    """A latency figure; None stands for "not answered within the drain time"."""
    return f"> {drain_s * 1000:.0f}" if value is None else f"{value:.1f}"


# --- 3: warm pool against cold launch -------------------------------------------------------------------------


def pool_child(samples: int, out) -> None:
    """In a spawned process (Playwright's sync API stays out of everything else): the timings of a job's start.

    A job's start is what it waits for before its first page: the pool's lease and a fresh context made as every
    scenario gets one (BrowserSession.new_context: viewport, timeouts, egress guard session, tracing on). The page that
    follows costs the same whether the browser was warm or just launched; it is timed on its own."""
    try:
        from shared.logging import configure_logging
        from shared.settings import Settings
        from workers.agent.execution.browser import PageEvents
        from workers.service.pool import BrowserPool

        settings = Settings()
        configure_logging(settings)  # warnings only

        def job_start(pool: BrowserPool) -> tuple[float, float, float]:
            """(lease + context, then the first page, then the whole lease until released)."""
            started = time.perf_counter()
            with pool.session() as session:
                context = session.new_context(PageEvents(), traced=True)
                ready = time.perf_counter()
                page = context.new_page()
                assert page.url == "about:blank"
                paged = time.perf_counter()
                context.close()
            return ready - started, paged - ready, time.perf_counter() - started

        warm_pool = BrowserPool(settings, max_jobs=10**6)
        try:
            for _ in range(2):
                job_start(warm_pool)  # launch, then one warm lease
            warm = []
            for _ in range(samples):
                time.sleep(BETWEEN_JOBS_S)  # what a worker does between two jobs (see the docstring)
                warm.append(job_start(warm_pool))
            back_to_back = [job_start(warm_pool)[0] for _ in range(samples)]
            launches_warm = warm_pool.stats().launches
        finally:
            warm_pool.close()

        cold = []  # a new BrowserPool: Playwright's driver and Chromium started
        for _ in range(samples):
            started = time.perf_counter()
            pool = BrowserPool(settings, max_jobs=10**6)
            try:
                with pool.session() as session:
                    session.new_context(PageEvents(), traced=True).close()
                    cold.append(time.perf_counter() - started)
            finally:
                pool.close()

        relaunch_pool = BrowserPool(settings, max_jobs=1)  # recycles its browser after every job
        try:
            job_start(relaunch_pool)  # starts Playwright's driver
            relaunch = [job_start(relaunch_pool)[0] for _ in range(samples)]
            launches_relaunch = relaunch_pool.stats().launches
        finally:
            relaunch_pool.close()
        out.put({"warm": [w[0] for w in warm], "page": [w[1] for w in warm], "warm_cycle": [w[2] for w in warm],
                 "back_to_back": back_to_back,
                 "cold": cold, "relaunch": relaunch, "launches_warm": launches_warm,
                 "launches_relaunch": launches_relaunch})
    except BaseException as error:  # noqa: BLE001
        out.put({"error": f"{type(error).__name__}: {error}"})


def bench_pool(plan: Plan, report: Report) -> None:
    context = multiprocessing.get_context("spawn")
    out = context.Queue()
    process = context.Process(target=pool_child, args=(plan.pool_samples, out), name="pool-bench")
    process.start()
    try:
        result = out.get(timeout=300)
    finally:
        process.join(timeout=30)
        if process.is_alive():
            process.kill()
            process.join(timeout=5)
    if "error" in result:
        raise RuntimeError(f"pool benchmark: {result['error']}")
    warm = statistics.median(result["warm"])
    page = statistics.median(result["page"])
    cold = statistics.median(result["cold"])
    relaunch = statistics.median(result["relaunch"])
    back_to_back = statistics.median(result["back_to_back"])
    report.figures["pool"] = {
        "between_jobs_s": BETWEEN_JOBS_S, "back_to_back_ms": ms(back_to_back),
        "back_to_back_samples_ms": [ms(x) for x in result["back_to_back"]],
        "samples": plan.pool_samples, "warm_ms": ms(warm), "page_ms": ms(page),
        "warm_cycle_ms": ms(statistics.median(result["warm_cycle"])), "cold_ms": ms(cold),
        "relaunch_ms": ms(relaunch), "ratio_relaunch": round(relaunch / warm, 1), "ratio_cold": round(cold / warm, 1),
        "ratio_relaunch_with_page": round((relaunch + page) / (warm + page), 1), "target_ratio": POOL_RATIO_TARGET,
        "warm_samples_ms": [ms(x) for x in result["warm"]], "page_samples_ms": [ms(x) for x in result["page"]],
        "cold_samples_ms": [ms(x) for x in result["cold"]],
        "relaunch_samples_ms": [ms(x) for x in result["relaunch"]],
        "launches_warm_pool": result["launches_warm"], "launches_relaunch_pool": result["launches_relaunch"],
    }
    k = plan.pool_samples
    report.add(f"job start, warm pool: lease + new context (median of {k})",
               f"{ms(warm):.1f} ms ({BETWEEN_JOBS_S * 1000:.0f} ms after the last job)")
    report.add("  the same, right as the last job's context closed", f"{ms(back_to_back):.1f} ms "
               f"(Chromium still tearing it down); launched / this: {relaunch / back_to_back:.1f}x")
    report.add(f"job start, browser launched for it (median of {k})", f"{ms(relaunch):.0f} ms")
    report.add("  launched / warm", f"{relaunch / warm:.1f}x", f">= {POOL_RATIO_TARGET:g}x",
               verdict(relaunch / warm >= POOL_RATIO_TARGET))
    report.add(f"job start, new BrowserPool: Playwright's driver too (median of {k})", f"{ms(cold):.0f} ms "
               f"({cold / warm:.1f}x warm)")
    report.add("the job's first page, either way (median)", f"{ms(page):.0f} ms; counted on both sides: "
               f"{(relaunch + page) / (warm + page):.1f}x")
    report.check("  launches by the warm pool", str(result["launches_warm"]), "= 1", result["launches_warm"] == 1)


# --- 4: generation throughput ---------------------------------------------------------------------------------




def worker_environment(database_url: str, queue: str, artifacts: Path) -> dict[str, str]:
    env = {key: value for key, value in os.environ.items() if not key.startswith("STEPFORGE_") or key == TAG_VAR}
    env.update(
        STEPFORGE_DATABASE_URL=database_url,
        STEPFORGE_BROKER_URL=REDIS_URL,
        STEPFORGE_QUEUE=queue,
        STEPFORGE_WEBHOOK_QUEUE=f"{queue}-webhooks",
        STEPFORGE_ALLOW_PRIVATE_TARGETS="true",
        STEPFORGE_ARTIFACTS_DIR=str(artifacts),
        STEPFORGE_BRAIN="builtin",
        STEPFORGE_LOG_JSON="true",
        PYTHONPATH=str(REPO),
    )
    return env


def run_generation(res: Resources, concurrency: int, count: int) -> dict:
    import httpx

    from tests.apps.petclinic import serve_in_thread

    name = f"w{concurrency}"
    database_url = res.database(name)
    res.redis()
    queue = f"bench-{name}-{uuid.uuid4().hex[:8]}"
    artifacts = res.workdir / f"artifacts-{name}"
    base_url, stop_app = serve_in_thread()
    res.on_exit(f"petclinic-{name}", stop_app)
    url = res.api(f"api-{name}", database_url=database_url, broker_url=REDIS_URL, queue=queue,
                  webhook_queue=f"{queue}-webhooks", admin_token=ADMIN_TOKEN, allow_private_targets=True,
                  artifacts_dir=str(artifacts), log_json=False)
    res.worker(f"worker-{name}", concurrency, worker_environment(database_url, queue, artifacts))
    scenarios = demo_scenarios(count)
    say(f"N={concurrency}: worker ready; posting {count} scenarios ({', '.join(s['id'] for s in scenarios)}) "
        f"against {base_url}")
    with httpx.Client(base_url=url, timeout=30) as client:
        headers = new_project(client, base_url)
        started = time.perf_counter()
        accepted, _ = post_batch(client, headers, scenarios)
        progress = wait_finished(client, headers, accepted["id"])
        wall = time.perf_counter() - started
        nightly = None
        if concurrency == 1:  # the same scenarios regenerated, nothing changed: their verified scripts replayed
            # As at night: the previous batch's suite long built (its whole-suite replay would hold the worker).
            deadline = time.monotonic() + BATCH_TIMEOUT_S
            while client.get(f"/v1/batches/{accepted['id']}", headers=headers).json()["suite_state"] == "building" \
                    and time.monotonic() < deadline:
                time.sleep(0.2)
            started = time.perf_counter()
            regenerated = client.post("/v1/projects/me/regenerate", headers=headers)
            regenerated.raise_for_status()
            again = wait_finished(client, headers, regenerated.json()["id"])
            nightly = {"wall_s": round(time.perf_counter() - started, 2), "counts": again["counts"],
                       "triage": {j["triage"]: sum(1 for k in again["jobs"] if k["triage"] == j["triage"])
                                  for j in again["jobs"]}}
            say(f"N=1: the same {count} scenarios regenerated in {nightly['wall_s']:.1f} s, {nightly['triage']}")
    jobs = progress["jobs"]
    job_seconds = [(datetime.fromisoformat(j["finished_at"]) - datetime.fromisoformat(j["started_at"])).total_seconds()
                   for j in jobs if j.get("started_at") and j.get("finished_at")]
    result = {
        "concurrency": concurrency, "scenarios": count, "wall_s": round(wall, 2),
        "scenarios_per_min": round(count / wall * 60, 2), "counts": progress["counts"],
        "median_job_s": round(statistics.median(job_seconds), 2) if job_seconds else None,
        # Share of the wall time the N worker processes spent inside jobs (claim to finish).
        "busy_fraction": round(sum(job_seconds) / (concurrency * wall), 2) if job_seconds else None,
        "failed": [{"id": j["external_id"], "verdict": j["verdict"]} for j in jobs if j["state"] != "passed"],
        "replay_s": [j["timings"]["replay_seconds"] for j in jobs
                     if (j.get("timings") or {}).get("replay_seconds") is not None],
    }
    result["nightly"] = nightly
    result["between_jobs_ms"] = between_jobs_ms(res.workdir / f"worker-{name}.log")
    say(f"N={concurrency}: {count} scenarios in {wall:.1f} s ({result['scenarios_per_min']:.1f}/min), "
        f"counts {progress['counts']}")
    for what in (f"worker-{name}", f"api-{name}", f"petclinic-{name}", "redis"):
        res.release(what)
    return result


def wait_finished(client, headers: dict, batch_id: int) -> dict:  # noqa: ANN001 - an httpx.Client
    deadline = time.monotonic() + BATCH_TIMEOUT_S
    while True:
        progress = client.get(f"/v1/batches/{batch_id}", headers=headers).json()
        if progress["state"] == "finished":
            return progress
        if time.monotonic() > deadline:
            raise RuntimeError(f"batch {batch_id} did not finish in {BATCH_TIMEOUT_S} s: {progress['counts']}")
        time.sleep(0.2)


def between_jobs_ms(log_path: Path) -> list[float]:
    """From a worker's log: in each pool process, the time from a job's "generate_job.finished" to the next job's
    "generate_job.claimed" (the pool's browser is idle meanwhile)."""
    last_finished: dict[str, datetime] = {}
    gaps = []
    for line in log_path.read_text(errors="replace").splitlines():
        head, _, body = line.partition("] {")
        process = head.rsplit("/", 1)[-1]
        if not body:
            continue
        with contextlib.suppress(ValueError):
            entry = json.loads("{" + body)
            moment = datetime.fromisoformat(entry["timestamp"].replace("Z", "+00:00"))
            if entry.get("event") == "generate_job.finished":
                last_finished[process] = moment
            elif entry.get("event") == "generate_job.claimed" and process in last_finished:
                gaps.append(round((moment - last_finished.pop(process)).total_seconds() * 1000, 1))
    return gaps


def bench_generation(res: Resources, plan: Plan, report: Report) -> None:
    runs = [run_generation(res, n, plan.generation_scenarios) for n in plan.worker_counts]
    report.figures["generation"] = {"runs": runs}
    for run in runs:
        report.add(f"generation, {run['concurrency']} worker process{'es' if run['concurrency'] > 1 else ''} "
                   f"({run['scenarios']} scenarios)",
                   f"{run['scenarios_per_min']:.1f} scenarios/min ({run['wall_s']:.1f} s; a job's median "
                   f"claim-to-finish {run['median_job_s']} s)")
        gaps, replays = run["between_jobs_ms"], run["replay_s"]
        if gaps and replays:
            report.add(f"  browser idle between jobs (N={run['concurrency']})",
                       f"the replay after a job's last context (median {statistics.median(replays):.1f} s), then "
                       f"{statistics.median(gaps):.0f} ms from one job's end to the next's claim",
                       f"> {BETWEEN_JOBS_S * 1000:.0f} ms (the pool figure's pause)")
        passed = run["counts"].get("passed", 0)
        report.check(f"  scenarios passed (N={run['concurrency']})", f"{passed}/{run['scenarios']}",
                     f"= {run['scenarios']}", passed == run["scenarios"])
        if run.get("nightly"):
            nightly = run["nightly"]
            speedup = run["wall_s"] / nightly["wall_s"]
            # Generation here is the builtin brain's, with no model latency: the 5x target is measured against the
            # model brain's generation by bench.regeneration.
            report.add("  the same scenarios regenerated, app unchanged (replay first)",
                       f"{nightly['wall_s']:.1f} s, {nightly['triage']}; builtin-brain generation / regeneration "
                       f"{speedup:.1f}x", "(5x: bench.regeneration)")
    if len(runs) == 2:
        ratio = runs[1]["scenarios_per_min"] / runs[0]["scenarios_per_min"]
        report.figures["generation"]["ratio"] = round(ratio, 2)
        report.add("  2 workers / 1 worker", f"{ratio:.2f}x", "2x = linear (2 cores: less expected)")


# --- the table and main ---------------------------------------------------------------------------------------


def table(report: Report) -> str:
    headers = ("figure", "value", "target", "result")
    rows = [(r.figure, r.value, r.target, r.result) for r in report.rows]
    widths = [max([len(h)] + [len(row[i]) for row in rows]) for i, h in enumerate(headers)]
    line = "  ".join("-" * w for w in widths)
    out = ["  ".join(h.ljust(w) for h, w in zip(headers, widths)), line]
    out += ["  ".join(cell.ljust(w) for cell, w in zip(row, widths)).rstrip() for row in rows]
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.service", description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true",
                        help="smaller numbers: a 200-scenario batch, 3 s of load, 5 pool samples, K=4")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON on stdout (the table on stderr)")
    parser.add_argument("--api-workers", type=int, default=1, metavar="N",
                        help="uvicorn worker processes of the API (default 1)")
    parser.add_argument("--only", choices=("api", "pool", "generation"), action="append",
                        help="run only these parts (repeatable; default all)")
    args = parser.parse_args(argv)
    if args.api_workers < 1:
        parser.error("--api-workers: at least 1")
    plan = Plan.make(args.quick, args.api_workers)
    parts = args.only or ["api", "pool", "generation"]

    os.environ[TAG_VAR] = uuid.uuid4().hex  # inherited by every process started from here on
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))  # clean up on SIGTERM as on Ctrl-C
    report = Report()
    report.figures["plan"] = asdict(plan) | {"parts": parts, "cpus": os.cpu_count()}
    started = time.perf_counter()
    failed: str | None = None
    with tempfile.TemporaryDirectory(prefix="stepforge-bench-service-") as work:
        res = Resources(Path(work))
        load = report.figures.setdefault("load_average_1min", {})
        seconds = report.figures.setdefault("part_seconds", {})
        try:
            for part, run in (("api", lambda: bench_api(res, plan, report)),
                              ("pool", lambda: bench_pool(plan, report)),
                              ("generation", lambda: bench_generation(res, plan, report))):
                if part not in parts:
                    continue
                load[part] = round(os.getloadavg()[0], 2)
                say(f"part {part} (load average {load[part]:.2f} on {os.cpu_count()} CPUs)")
                part_started = time.perf_counter()
                run()
                seconds[part] = round(time.perf_counter() - part_started, 1)
        except (Exception, KeyboardInterrupt) as error:  # noqa: BLE001 - report, clean up, exit 1
            failed = f"{type(error).__name__}: {error}"
        finally:
            cleanup_errors = res.close()
            leftovers = tagged_leftovers(os.environ[TAG_VAR])
            if failed:
                kept = Path(tempfile.gettempdir()) / f"stepforge-bench-service-logs-{os.environ[TAG_VAR][:8]}"
                with contextlib.suppress(OSError):
                    shutil.copytree(work, kept, ignore=shutil.ignore_patterns("*artifacts*"), dirs_exist_ok=True)
                    failed += f" (logs kept in {kept})"
    elapsed = time.perf_counter() - started
    report.figures["seconds"] = round(elapsed, 1)
    report.figures["cleanup"] = {"errors": cleanup_errors, "leftover_processes_killed": leftovers}
    if leftovers:
        report.problems.append(f"processes left running and killed at the end: {', '.join(leftovers)}")
    report.problems += cleanup_errors
    if failed:
        report.problems.insert(0, failed)
    report.figures["problems"] = report.problems

    parts_timed = ", ".join(f"{part} {secs:.0f} s" for part, secs in report.figures["part_seconds"].items())
    loads = ", ".join(f"{part} {value:.2f}" for part, value in report.figures["load_average_1min"].items())
    cleanup = "databases dropped, Redis flushed, subprocesses stopped, no process left"
    if leftovers or cleanup_errors:
        cleanup = "see the problems below"
    text = (f"{table(report)}\n\n{elapsed:.0f} s in all{' (--quick)' if args.quick else ''} ({parts_timed}); "
            f"load average (1 min) before each part: {loads} on {os.cpu_count()} CPUs\nclean-up: {cleanup}")
    if report.problems:
        text += "\nproblems:\n" + "\n".join(f"  - {p}" for p in report.problems)
    if args.json:
        print(text, file=sys.stderr, flush=True)
        print(json.dumps(report.figures, indent=2))
    else:
        print(text, flush=True)
    return 1 if report.problems else 0


if __name__ == "__main__":
    sys.exit(main())
