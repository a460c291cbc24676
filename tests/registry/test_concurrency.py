"""Many workers registering one signature at once: exactly one row, one id for every caller, uses per project."""

from __future__ import annotations

import multiprocessing
from concurrent.futures import ThreadPoolExecutor
from threading import Barrier

import pytest
from sqlalchemy import func, select

from shared.db import make_engine
from shared.registry.models import step_table, usage_table
from shared.step_registry.http import HttpStepRegistry
from tests.registry.helpers import TOKEN, new_step, register_in_process

pytestmark = pytest.mark.service  # its tier (tests/conftest.py)


def _rows(database_url: str, origin: str, signature: str) -> tuple[int, dict[str, int]]:
    engine = make_engine(database_url)
    try:
        with engine.connect() as conn:
            count = conn.execute(select(func.count()).select_from(step_table).where(
                step_table.c.origin == origin, step_table.c.signature == signature)).scalar_one()
            usage = dict(conn.execute(
                select(usage_table.c.project, usage_table.c.uses)
                .join(step_table, step_table.c.id == usage_table.c.step_id)
                .where(step_table.c.origin == origin, step_table.c.signature == signature)
            ).all())
    finally:
        engine.dispose()
    return count, usage


def test_sixteen_threads_over_http_make_one_step(server, pg_url, origin, sig) -> None:
    signature = sig()
    barrier = Barrier(16)

    def work(i: int) -> int:
        with HttpStepRegistry(server.url, TOKEN) as registry:
            barrier.wait(timeout=30)
            return registry.register(f"project-{i % 2}", origin, [new_step(signature)])[signature].id

    with ThreadPoolExecutor(16) as pool:
        ids = list(pool.map(work, range(16)))
    assert len(set(ids)) == 1
    assert _rows(pg_url, origin, signature) == (1, {"project-0": 8, "project-1": 8})
    with HttpStepRegistry(server.url, TOKEN) as registry:
        step = registry.lookup(origin, [signature])[signature]
    assert step.id == ids[0] and step.usage == {"project-0": 8, "project-1": 8}


def _four_processes(database_url: str, origin: str, signature: str) -> list[int]:
    ctx = multiprocessing.get_context("spawn")
    barrier = ctx.Barrier(4)
    results = ctx.Queue()
    processes = [
        ctx.Process(target=register_in_process,
                    args=(database_url, f"project-{i % 2}", origin, signature, barrier, results))
        for i in range(4)
    ]
    for process in processes:
        process.start()
    outcomes = [results.get(timeout=90) for _ in processes]
    for process in processes:
        process.join(timeout=30)
        assert process.exitcode == 0
    errors = [detail for status, detail in outcomes if status != "ok"]
    assert not errors, errors
    return [detail for _, detail in outcomes]


def test_four_processes_on_postgresql_make_one_step(pg_url, origin, sig) -> None:
    signature = sig()
    ids = _four_processes(pg_url, origin, signature)
    assert len(set(ids)) == 1
    assert _rows(pg_url, origin, signature) == (1, {"project-0": 2, "project-1": 2})


def test_four_processes_on_one_sqlite_file_make_one_step(tmp_path, origin, sig) -> None:
    url = f"sqlite:///{tmp_path / 'registry.sqlite3'}"  # a new file: the processes also race to create tables
    signature = sig()
    ids = _four_processes(url, origin, signature)
    assert len(set(ids)) == 1
    assert _rows(url, origin, signature) == (1, {"project-0": 2, "project-1": 2})
