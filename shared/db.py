"""Small database helpers: one engine factory for PostgreSQL (psycopg 3) and SQLite, plus database
creation for tests and benchmarks.

SQLite engines run in WAL mode with a busy timeout, and a connection opened with the execution option
``sqlite_immediate=True`` starts its transactions with ``BEGIN IMMEDIATE`` so that writers (threads or
processes sharing one file) queue up instead of failing with "database is locked" halfway through.
"""

from __future__ import annotations

from pathlib import Path

from sqlalchemy import create_engine, event, text
from sqlalchemy.engine import Engine, make_url

SQLITE_BUSY_TIMEOUT_MS = 30_000


def normalize_url(url: str) -> str:
    """postgres:// and postgresql:// use psycopg 3; anything else is left alone."""
    for prefix in ("postgres://", "postgresql://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix):]
    return url


def make_engine(url: str, *, pool_size: int = 5, max_overflow: int = 10) -> Engine:
    url = normalize_url(url)
    parsed = make_url(url)
    if parsed.get_backend_name() == "sqlite":
        database = parsed.database
        if database and database != ":memory:" and not database.startswith("file:"):
            Path(database).expanduser().parent.mkdir(parents=True, exist_ok=True)
        engine = create_engine(url, connect_args={"check_same_thread": False, "timeout": SQLITE_BUSY_TIMEOUT_MS / 1000})
        _sqlite_events(engine)
        return engine
    if parsed.get_backend_name() != "postgresql":
        raise ValueError(f"unsupported database URL {parsed.render_as_string(hide_password=True)!r}: "
                         "use postgresql+psycopg://... or sqlite:///...")
    return create_engine(url, pool_size=pool_size, max_overflow=max_overflow, pool_pre_ping=True)


def _sqlite_events(engine: Engine) -> None:
    @event.listens_for(engine, "connect")
    def _connect(dbapi_connection, _record) -> None:  # noqa: ANN001
        dbapi_connection.isolation_level = None  # we emit BEGIN ourselves (see _begin)
        cursor = dbapi_connection.cursor()
        cursor.execute(f"PRAGMA busy_timeout = {SQLITE_BUSY_TIMEOUT_MS}")
        cursor.execute("PRAGMA journal_mode = WAL")
        cursor.execute("PRAGMA synchronous = NORMAL")
        cursor.execute("PRAGMA foreign_keys = ON")
        cursor.close()

    @event.listens_for(engine, "begin")
    def _begin(connection) -> None:  # noqa: ANN001
        immediate = connection.get_execution_options().get("sqlite_immediate", False)
        connection.exec_driver_sql("BEGIN IMMEDIATE" if immediate else "BEGIN")


def with_database(url: str, name: str) -> str:
    """The same server URL, another database."""
    return make_url(normalize_url(url)).set(database=name).render_as_string(hide_password=False)


def _run_as_admin(admin_url: str, name: str, statement: str) -> None:
    """A CREATE or DROP DATABASE (outside a transaction) for a name of [a-z0-9_] only."""
    if not name.replace("_", "").isalnum() or not name.islower():
        raise ValueError(f"bad database name {name!r}")
    engine = create_engine(normalize_url(admin_url), isolation_level="AUTOCOMMIT")
    try:
        with engine.connect() as conn:
            conn.execute(text(statement.format(name=name)))
    finally:
        engine.dispose()


def create_database(admin_url: str, name: str) -> str:
    """Create a PostgreSQL database and return its URL."""
    _run_as_admin(admin_url, name, 'CREATE DATABASE "{name}"')
    return with_database(admin_url, name)


def drop_database(admin_url: str, name: str) -> None:
    _run_as_admin(admin_url, name, 'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
