"""Alembic environment: the service's metadata (shared/models.py), the URL from STEPFORGE_DATABASE_URL unless the
caller (shared/migrate.py) set sqlalchemy.url, and on PostgreSQL an advisory lock so that several processes
starting at once migrate one after the other."""

from __future__ import annotations

from alembic import context
from sqlalchemy import text

from shared.db import make_engine, normalize_url
from shared.models import metadata
from shared.settings import Settings

MIGRATION_LOCK = 0x5F3E0001  # pg_advisory_lock key held while migrating

config = context.config


def ours(obj, name, type_, reflected, compare_to) -> bool:
    """Only the service's tables: the step registry keeps its own tables in the same database."""
    table = name if type_ == "table" else getattr(getattr(obj, "table", None), "name", None)
    return table is None or table in metadata.tables


def database_url() -> str:
    return normalize_url(config.get_main_option("sqlalchemy.url") or Settings().database_url)


def run_offline() -> None:
    context.configure(url=database_url(), target_metadata=metadata, literal_binds=True, include_object=ours,
                      render_as_batch=database_url().startswith("sqlite"))
    with context.begin_transaction():
        context.run_migrations()


def run_online() -> None:
    engine = make_engine(database_url(), pool_size=1, max_overflow=0)
    try:
        with engine.connect() as connection:
            postgres = connection.dialect.name == "postgresql"
            if postgres:
                connection.execute(text("SELECT pg_advisory_lock(:key)"), {"key": MIGRATION_LOCK})
                connection.commit()
            try:
                context.configure(connection=connection, target_metadata=metadata, include_object=ours,
                                  render_as_batch=connection.dialect.name == "sqlite", compare_type=True)
                with context.begin_transaction():
                    context.run_migrations()
            finally:
                if postgres:
                    connection.execute(text("SELECT pg_advisory_unlock(:key)"), {"key": MIGRATION_LOCK})
                    connection.commit()
    finally:
        engine.dispose()


if context.is_offline_mode():
    run_offline()
else:
    run_online()
