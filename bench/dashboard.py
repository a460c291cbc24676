"""Dashboard benchmark: `python -m bench.dashboard [--scenarios 1000] [--repeat 20] [--database-url URL]`.

Seeds a project whose nightly regeneration holds --scenarios scenarios (tests/apps/dashboard/seed.py: triage classes
mixed, an app_changed scenario with its candidate's diff) in a fresh PostgreSQL database (the admin URL given, or
STEPFORGE_BENCH_DATABASE_URL, or postgres on 127.0.0.1:5432), then asks each dashboard page --repeat times in process
(FastAPI's TestClient, a signed-in session) and prints each page's median and p95 server time against the target:
100 ms a page for a batch of 1,000 scenarios. Exit 1 when a page's median is over it (unless --figures-only).
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import sys
import tempfile
import time
import uuid
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from fastapi.testclient import TestClient  # noqa: E402
from sqlalchemy import create_engine, text  # noqa: E402

from api.app import create_app  # noqa: E402
from shared.db import create_database, drop_database, normalize_url  # noqa: E402
from shared.migrate import upgrade  # noqa: E402
from shared.service_settings import ServiceSettings  # noqa: E402
from tests.apps.dashboard.seed import seed  # noqa: E402

TARGET_MS = 100.0
ADMIN_URL = os.environ.get("STEPFORGE_BENCH_DATABASE_URL", "postgresql+psycopg://postgres@127.0.0.1:5432/postgres")


def analyze(url: str) -> None:
    """The planner's statistics of the rows just written, as autovacuum gathers them on a live database within a
    minute of a night's inserts: without them PostgreSQL plans the report's anti-joins for tables of one row."""
    engine = create_engine(normalize_url(url))
    with engine.connect() as connection:
        connection.execute(text("ANALYZE"))
        connection.commit()
    engine.dispose()


def sign_in(client: TestClient, api_key: str) -> None:
    form = client.get("/ui/sign-in").text
    csrf = re.search(r'name="csrf" value="([^"]+)"', form).group(1)
    answer = client.post("/ui/sign-in", data={"api_key": api_key, "csrf": csrf}, follow_redirects=False)
    assert answer.status_code == 303, answer.text


def timed(client: TestClient, path: str, repeat: int) -> list[float]:
    client.get(path)  # warm: templates compiled, connections opened
    spent = []
    for _ in range(repeat):
        started = time.perf_counter()
        answer = client.get(path)
        spent.append((time.perf_counter() - started) * 1000)
        assert answer.status_code == 200, (path, answer.status_code, answer.text[:300])
    return spent


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.dashboard", description=__doc__.splitlines()[0])
    parser.add_argument("--scenarios", type=int, default=1000)
    parser.add_argument("--repeat", type=int, default=20)
    parser.add_argument("--database-url", default=ADMIN_URL, help="a PostgreSQL admin URL (a database is made)")
    parser.add_argument("--figures-only", action="store_true", help="exit 0 whatever the times (a page that fails "
                                                                     "to answer still exits 1)")
    args = parser.parse_args(argv)
    name = f"stepforge_bench_dashboard_{uuid.uuid4().hex[:8]}"
    url = create_database(args.database_url, name)
    try:
        upgrade(url)
        with tempfile.TemporaryDirectory(prefix="stepforge-bench-dashboard-") as folder:
            settings = ServiceSettings(database_url=url, broker_url="memory://", artifacts_dir=Path(folder),
                                       allow_private_targets=True)
            started = time.perf_counter()
            seeded = seed(settings, scenarios=args.scenarios, with_artifacts=6)
            print(f"seeded {args.scenarios} scenarios in {time.perf_counter() - started:.1f} s")
            analyze(url)
            nightly = f"/ui/projects/{seeded.project_id}/batches/{seeded.nightly_id}"
            pages = {
                "projects": "/ui/projects",
                "project (batches)": f"/ui/projects/{seeded.project_id}",
                "batch (first page of scenarios)": nightly,
                "batch (a later page)": f"{nightly}?after={seeded.jobs['nightly/OWN-500'] if args.scenarios >= 500 else 1}",
                "batch progress": f"{nightly}/progress",
                "morning report": f"{nightly}/report",
                "scenario": f"{nightly}/scenarios/{seeded.jobs['nightly/OWN-3']}",
            }
            worst = 0.0
            with TestClient(create_app(settings)) as client:
                sign_in(client, seeded.api_key)
                print(f"{'page':34} {'median':>9} {'p95':>9}  (target {TARGET_MS:.0f} ms, {args.scenarios} scenarios)")
                for label, path in pages.items():
                    spent = sorted(timed(client, path, args.repeat))
                    median, p95 = statistics.median(spent), spent[min(len(spent) - 1, int(len(spent) * 0.95))]
                    worst = max(worst, median)
                    print(f"{label:34} {median:7.1f}ms {p95:7.1f}ms  {median / TARGET_MS:4.2f}x of target")
    finally:
        drop_database(args.database_url, name)
    target = TARGET_MS * max(1.0, args.scenarios / 1000)
    print(f"slowest page: {worst:.1f} ms median, {worst / target:.2f}x of the {target:.0f} ms target")
    return 0 if worst <= target or args.figures_only else 1


if __name__ == "__main__":
    sys.exit(main())
