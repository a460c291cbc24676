"""Registry fixtures: a PostgreSQL database per test session (created and dropped here), SQLite files, and
the real application served by uvicorn on a free port.

STEPFORGE_TEST_DATABASE_URL names the admin connection (default postgresql+psycopg://postgres@127.0.0.1:5432/
postgres). PostgreSQL being unreachable FAILS the PostgreSQL tests: CI starts it.
"""

from __future__ import annotations

import os
import uuid

import pytest
from sqlalchemy import create_engine, text

from api.registry.app import create_app
from api.registry.settings import RegistrySettings
from shared.db import create_database, drop_database, normalize_url
from tests.registry.helpers import TOKEN, ServerThread

ADMIN_URL = os.environ.get("STEPFORGE_TEST_DATABASE_URL", "postgresql+psycopg://postgres@127.0.0.1:5432/postgres")


@pytest.fixture(scope="session")
def pg_url() -> str:
    engine = create_engine(normalize_url(ADMIN_URL), connect_args={"connect_timeout": 5})
    try:
        with engine.connect() as conn:
            conn.execute(text("SELECT 1"))
    except Exception as error:  # noqa: BLE001
        pytest.fail(
            f"PostgreSQL is not reachable at STEPFORGE_TEST_DATABASE_URL={ADMIN_URL!r}: "
            f"{str(error).splitlines()[0]} -- start PostgreSQL (CI does) or point the variable at one",
            pytrace=False,
        )
    finally:
        engine.dispose()
    name = f"stepforge_test_{uuid.uuid4().hex[:12]}"
    url = create_database(ADMIN_URL, name)
    yield url
    drop_database(ADMIN_URL, name)


@pytest.fixture(scope="session")
def server(pg_url: str):
    settings = RegistrySettings(database_url=pg_url, token=TOKEN, max_body_bytes=2 * 1024 * 1024)
    with ServerThread(create_app(settings)) as running:
        yield running


@pytest.fixture
def origin() -> str:
    """A fresh origin per test, so tests sharing the session database do not see each other's steps."""
    return f"http://app-{uuid.uuid4().hex[:8]}.test:8080"


@pytest.fixture
def sig():
    """Fresh random signatures."""
    return lambda: uuid.uuid4().hex[:16]
