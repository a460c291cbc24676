"""Step registry benchmark: `python -m bench.registry [--steps 100000] [--calls 500]`.

Creates a dedicated PostgreSQL database (dropped at the end) on STEPFORGE_BENCH_DATABASE_URL's server
(default: STEPFORGE_TEST_DATABASE_URL, else postgresql+psycopg://postgres@127.0.0.1:5432/postgres),
bulk-inserts --steps steps, starts the real service (`python -m api.registry`) on a free port, then
measures, each over --calls calls:
  - lookup: batches of 20 signatures (15 known, 5 unknown),
  - register new: 5 signatures never seen,
  - register known: 5 signatures already registered (by another project),
through HttpStepRegistry (HTTP API) and through LocalStepRegistry (in process) on the same database, and
LocalStepRegistry on a SQLite file loaded the same way. Prints p50/p99 in ms; exit 0 unless an error.
"""

from __future__ import annotations

import argparse
import os
import random
import secrets
import signal
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Callable
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

import httpx  # noqa: E402

from shared.db import create_database, drop_database  # noqa: E402
from shared.records import Locator, ScriptOp, StepDefinition  # noqa: E402
from shared.registry.local import LocalStepRegistry  # noqa: E402
from shared.step_registry import NewStep, StepRegistry  # noqa: E402
from shared.step_registry.http import HttpStepRegistry  # noqa: E402

ORIGIN = "http://bench.test:8080"
BATCH = 500
LOOKUP_SIZE, LOOKUP_KNOWN = 20, 15
REGISTER_SIZE = 5


def make_step(n: int) -> NewStep:
    signature = f"{n:016x}"
    selector = f"#field-{n}"
    definition = StepDefinition(
        keyword=("Given", "When", "Then")[n % 3],
        pattern=f"I fill field {n} with {{string}}",
        args=["value"],
        ops=[ScriptOp(kind="fill", locator=Locator(strategy="css", value=selector), arg="value",
                      comment=f"fill {selector}")],
        signature=signature,
    )
    code = f"When('I fill field {n} with {{string}}', async function (value) {{ await this.page.locator('{selector}').fill(value); }});"
    return NewStep(definition=definition, code=code)


def load(registry: LocalStepRegistry, count: int) -> float:
    """Bulk insert through the service, refreshing planner statistics as the table grows (the test server
    runs with autovacuum off; a bulk load should ANALYZE anyway)."""
    started = time.perf_counter()
    next_analyze = 2_000
    for start in range(0, count, BATCH):
        steps = [make_step(n) for n in range(start, min(count, start + BATCH))]
        registry.register(f"loader-{(start // BATCH) % 20}", ORIGIN, steps)
        if start + BATCH >= next_analyze:
            registry.service.analyze()
            next_analyze *= 2
    registry.service.analyze()
    return time.perf_counter() - started


def percentiles(samples: list[float]) -> str:
    ordered = sorted(samples)
    p99 = ordered[min(len(ordered) - 1, max(0, round(0.99 * len(ordered) + 0.5) - 1))]
    return f"p50 {statistics.median(ordered):7.2f} ms   p99 {p99:7.2f} ms   (n={len(ordered)})"


def timed(calls: int, work: Callable[[int], None]) -> list[float]:
    work(0)  # warm-up
    samples = []
    for i in range(1, calls + 1):
        started = time.perf_counter()
        work(i)
        samples.append((time.perf_counter() - started) * 1000)
    return samples


def measure(name: str, registry: StepRegistry, loaded: int, calls: int, fresh_from: int) -> None:
    rng = random.Random(7)

    def lookup(_i: int) -> None:
        known = [f"{rng.randrange(loaded):016x}" for _ in range(LOOKUP_KNOWN)]
        unknown = [secrets.token_hex(8) for _ in range(LOOKUP_SIZE - LOOKUP_KNOWN)]
        found = registry.lookup(ORIGIN, known + unknown)
        assert len(found) == len(set(known)), (len(found), len(set(known)))

    def register_new(i: int) -> None:
        first = fresh_from + i * REGISTER_SIZE
        steps = [make_step(n) for n in range(first, first + REGISTER_SIZE)]
        assert len(registry.register("bench-new", ORIGIN, steps)) == REGISTER_SIZE

    def register_known(_i: int) -> None:
        steps = [make_step(rng.randrange(loaded)) for _ in range(REGISTER_SIZE)]
        registry.register("bench-known", ORIGIN, steps)

    print(f"{name}", flush=True)
    print(f"  {f'lookup ({LOOKUP_SIZE} signatures, {LOOKUP_KNOWN} known)':36} {percentiles(timed(calls, lookup))}")
    print(f"  {f'register new ({REGISTER_SIZE} new steps)':36} {percentiles(timed(calls, register_new))}")
    print(f"  {f'register known ({REGISTER_SIZE} known steps)':36} {percentiles(timed(calls, register_known))}")
    sys.stdout.flush()


def start_server(database_url: str, token: str) -> tuple[subprocess.Popen, str]:
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    env = {**os.environ, "STEPFORGE_REGISTRY_DATABASE_URL": database_url, "STEPFORGE_REGISTRY_TOKEN": token,
           "STEPFORGE_REGISTRY_PORT": str(port), "STEPFORGE_REGISTRY_LOG_LEVEL": "warning"}
    process = subprocess.Popen([sys.executable, "-m", "api.registry"], cwd=REPO, env=env)
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"the registry service exited with {process.returncode}")
        try:
            if httpx.get(f"{url}/healthz", timeout=1).status_code == 200:
                return process, url
        except httpx.TransportError:
            pass
        time.sleep(0.1)
    process.terminate()
    raise RuntimeError("the registry service did not become healthy within 30 s")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.registry", description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=100_000)
    parser.add_argument("--calls", type=int, default=500)
    parser.add_argument("--no-sqlite", action="store_true", help="skip LocalStepRegistry on SQLite")
    args = parser.parse_args(argv)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))  # so that the database is still dropped
    admin = os.environ.get("STEPFORGE_BENCH_DATABASE_URL") or os.environ.get(
        "STEPFORGE_TEST_DATABASE_URL", "postgresql+psycopg://postgres@127.0.0.1:5432/postgres")
    name = f"stepforge_bench_{uuid.uuid4().hex[:10]}"
    token = secrets.token_urlsafe(24)
    # Each measurement registers calls * REGISTER_SIZE fresh steps; keep them apart.
    fresh = [args.steps + k * (args.calls + 1) * REGISTER_SIZE for k in range(3)]
    try:
        database_url = create_database(admin, name)
    except Exception as error:  # noqa: BLE001
        print(f"bench.registry: cannot create a PostgreSQL database on {admin}: {error}", file=sys.stderr)
        return 1
    server = None
    try:
        with LocalStepRegistry(database_url) as local:
            seconds = load(local, args.steps)
        print(f"PostgreSQL: inserted {args.steps} steps in {seconds:.1f} s "
              f"({args.steps / seconds:,.0f} steps/s, batches of {BATCH})", flush=True)
        server, url = start_server(database_url, token)
        with HttpStepRegistry(url, token) as http:
            measure("HTTP API (HttpStepRegistry -> uvicorn -> PostgreSQL)", http, args.steps, args.calls, fresh[0])
        with LocalStepRegistry(database_url) as local:
            measure("LocalStepRegistry on PostgreSQL", local, args.steps, args.calls, fresh[1])
        if not args.no_sqlite:
            with tempfile.TemporaryDirectory() as folder:
                with LocalStepRegistry(f"sqlite:///{folder}/registry.sqlite3") as lite:
                    seconds = load(lite, args.steps)
                    print(f"SQLite: inserted {args.steps} steps in {seconds:.1f} s")
                    measure("LocalStepRegistry on SQLite", lite, args.steps, args.calls, fresh[2])
    except Exception as error:  # noqa: BLE001
        print(f"bench.registry: failed: {type(error).__name__}: {error}", file=sys.stderr)
        return 1
    finally:
        if server is not None:
            server.terminate()
            server.wait(timeout=15)
        drop_database(admin, name)
    return 0


if __name__ == "__main__":
    sys.exit(main())
