"""The Alembic migrations: they build exactly the tables of shared/models.py, on PostgreSQL and on SQLite."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from alembic import command

from shared.migrate import alembic_config, main

pytestmark = pytest.mark.service  # its tier (tests/conftest.py)


def test_the_migrated_postgresql_schema_matches_the_models(service_db):
    command.check(alembic_config(service_db))  # raises when autogenerate would find a difference


def test_migrations_run_up_down_and_up_on_sqlite(tmp_path: Path):
    url = f"sqlite:///{tmp_path / 'service.db'}"
    assert main(["upgrade", "--url", url]) == 0
    command.check(alembic_config(url))
    assert main(["downgrade", "base", "--url", url]) == 0
    assert main(["upgrade", "--url", url]) == 0
    with sqlite3.connect(tmp_path / "service.db") as db:
        tables = {row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    assert {"project", "scenario", "batch", "job", "outbox", "webhook_delivery", "alembic_version"} <= tables


def test_revision_0002_keeps_the_artifacts_of_jobs_finished_before_it(tmp_path: Path):
    """Jobs finished under 0001 wrote straight under their artifact_prefix: that stays their listing; rows that
    exist count as sent when they were created (the sweep does not send them all again at once)."""
    url = f"sqlite:///{tmp_path / 'service.db'}"
    assert main(["upgrade", "0001", "--url", url]) == 0
    with sqlite3.connect(tmp_path / "service.db") as db:
        db.execute("INSERT INTO project (id, name, api_key_hash, base_url, default_brain, default_grounding, "
                   "created_at) VALUES (1, 'p', 'h', 'http://a', 'builtin', 'hte', '2026-01-01 00:00:00')")
        db.execute("INSERT INTO scenario (id, project_id, external_id, version, definition, created_at) "
                   "VALUES (1, 1, 'S-1', 1, '{}', '2026-01-01 00:00:00')")
        db.execute("INSERT INTO batch (id, project_id, idempotency_key, request_hash, kind, state, base_url, brain, "
                   "grounding, jobs_total, jobs_passed, jobs_failed, created_at) "
                   "VALUES (1, 1, 'k', 'h', 'on_demand', 'running', 'http://a', 'builtin', 'hte', 2, 1, 0, "
                   "'2026-01-01 00:00:00')")
        for job_id, state in ((1, "passed"), (2, "queued")):
            db.execute("INSERT INTO job (id, batch_id, project_id, scenario_id, external_id, scenario_version, state, "
                       "attempt, artifact_prefix, created_at) VALUES (?, 1, 1, 1, 'S-1', 1, ?, 1, ?, "
                       "'2026-01-01 00:00:00')", (job_id, state, f"projects/1/batches/1/jobs/{job_id}/"))
    assert main(["upgrade", "--url", url]) == 0
    with sqlite3.connect(tmp_path / "service.db") as db:
        rows = db.execute("SELECT id, result_prefix, sent_at FROM job ORDER BY id").fetchall()
    assert rows == [(1, "projects/1/batches/1/jobs/1/", "2026-01-01 00:00:00"), (2, None, "2026-01-01 00:00:00")]
