"""Engines, sessions and the rules every part of the service's data access shares."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from datetime import datetime

from sqlalchemy import update
from sqlalchemy.engine import Engine
from sqlalchemy.orm import InstrumentedAttribute
from sqlmodel import Session, col

from shared.db import make_engine
from shared.models import utcnow

API_KEY_PREFIX = "sfk_"
MAX_CLAIMS = 3  # a job started this many times without finishing (killed workers, time limits) fails
# A job or event whose message was never handed to the broker (the broker was down when its row was committed,
# or the sender died in between) is sent by the sweep once it is this old: enough for the sender to have tried.
UNSENT_GRACE_S = 30

_engines: dict[str, Engine] = {}


class Conflict(Exception):
    """The request contradicts stored state (an Idempotency-Key reused with another body)."""




def engine_for(database_url: str, *, pool_size: int = 5, max_overflow: int = 10) -> Engine:
    """One engine per URL per process (after fork, call `dispose_engines` first)."""
    if database_url not in _engines:
        _engines[database_url] = make_engine(database_url, pool_size=pool_size, max_overflow=max_overflow)
    return _engines[database_url]


def dispose_engines() -> None:
    """Forget connections inherited across fork: they belong to the parent."""
    for engine in _engines.values():
        engine.dispose(close=False)
    _engines.clear()


@contextmanager
def writing(engine: Engine) -> Iterator[Session]:
    """A session for a read-modify-write transaction (SQLite: BEGIN IMMEDIATE, so writers queue up)."""
    with Session(engine.execution_options(sqlite_immediate=True), expire_on_commit=False) as session:
        yield session


def reading(engine: Engine) -> Session:
    return Session(engine, expire_on_commit=False)


def mark_sent(session: Session, sent_at: InstrumentedAttribute, ids: Sequence, moment: datetime | None = None) -> None:
    """Record in the rows' `sent_at` column (Job.sent_at, Outbox.sent_at, Batch.suite_sent_at) that their messages
    were handed to the broker at `moment` (now); commits."""
    if ids:
        table = sent_at.class_
        session.execute(update(table).where(col(table.id).in_(list(ids))).values({sent_at.key: moment or utcnow()}))
        session.commit()
