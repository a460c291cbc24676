"""The registry's service layer: the one place with the SQL. The HTTP routes (app.py) and the in-process
registry (local.py) both call RegistryService.

Concurrency: registration is INSERT ... ON CONFLICT (origin, signature) DO NOTHING followed by a SELECT,
so any number of workers registering the same signature end with one row and the same id. New steps of an
origin are inserted under a per-origin transaction lock (pg_advisory_xact_lock on PostgreSQL, BEGIN
IMMEDIATE on SQLite) so that version numbers of a step's wording never collide. Usage rows are upserted
(uses = uses + 1) in step id order. Deadlocks and lock timeouts are retried.
"""

from __future__ import annotations

import hashlib
import random
import time
from collections.abc import Callable, Iterable, Sequence
from typing import TypeVar

from pydantic import ValidationError
from sqlalchemy import any_, func, literal, select, text
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import DBAPIError, OperationalError

from shared.records import StepDefinition
from shared.registry.models import metadata, step_table, usage_table
from shared.registry.validation import (
    MAX_CODE,
    MAX_LOOKUP,
    MAX_PATTERN,
    MAX_REGISTER,
    Conflict,
    InvalidInput,
    NotFound,
    check_origin,
    check_project,
    check_signature,
)
from shared.step_registry import NewStep, RegisteredStep

T = TypeVar("T")

LOCK_NAMESPACE = 0x5F3E  # first key of the two-key advisory locks this service takes
RETRIES = 6
RETRYABLE_SQLSTATES = {"40001", "40P01", "55P03"}  # serialization failure, deadlock, lock not available
MAX_PAGE = 5000

S = step_table.c
U = usage_table.c


def pattern_hash(keyword: str, pattern: str) -> str:
    """Identifies the versions of a step: same keyword, same wording."""
    return hashlib.sha256(f"{keyword}\n{pattern}".encode()).hexdigest()[:32]


def _retryable(error: DBAPIError) -> bool:
    sqlstate = getattr(error.orig, "sqlstate", None)
    if sqlstate in RETRYABLE_SQLSTATES:
        return True
    return isinstance(error, OperationalError) and "database is locked" in str(error.orig)


class RegistryService:
    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self.dialect = engine.dialect.name
        self._insert = postgresql.insert if self.dialect == "postgresql" else sqlite.insert

    # --- setup ---------------------------------------------------------------------------

    def create_tables(self) -> None:
        """metadata.create_all, serialised so that several processes starting at once do not race."""
        with self._connect(write=True) as conn, conn.begin():
            if self.dialect == "postgresql":
                conn.execute(text("SELECT pg_advisory_xact_lock(:ns, 0)"), {"ns": LOCK_NAMESPACE})
            metadata.create_all(conn)
        self.analyze()

    def analyze(self) -> None:
        """Refresh the planner's statistics (PostgreSQL). Autovacuum normally does this; the service also does it
        on start, and bulk loads should call it, or lookups on a grown table may scan by origin only."""
        if self.dialect == "postgresql":
            with self.engine.connect() as conn, conn.begin():
                conn.execute(text("ANALYZE step"))
                conn.execute(text("ANALYZE step_usage"))

    def ping(self) -> None:
        with self.engine.connect() as conn:
            conn.execute(text("SELECT 1"))

    def close(self) -> None:
        self.engine.dispose()

    # --- the StepRegistry operations --------------------------------------------------------

    def lookup(self, origin: str, signatures: Sequence[str]) -> dict[str, RegisteredStep]:
        check_origin(origin)
        if len(signatures) > MAX_LOOKUP:
            raise InvalidInput("signatures", f"{len(signatures)} signatures; at most {MAX_LOOKUP} per lookup")
        for i, signature in enumerate(signatures):
            check_signature(signature, f"signatures[{i}]")
        wanted = sorted(set(signatures))
        if not wanted:
            return {}

        def run() -> dict[str, RegisteredStep]:
            with self._connect() as conn, conn.begin():
                rows = conn.execute(select(step_table).where(S.origin == origin, self._in(S.signature, wanted))).all()
                return {step.signature: step for step in self._steps(conn, rows)}

        return self._retrying(run)

    def register(self, project: str, origin: str, steps: Sequence[NewStep]) -> dict[str, RegisteredStep]:
        check_project(project)
        check_origin(origin)
        unique = self._check_new_steps(steps)
        if not unique:
            return {}
        return self._retrying(lambda: self._register(project, origin, unique))

    def origin_steps(self, origin: str, *, after: int = 0, limit: int | None = None) -> list[RegisteredStep]:
        check_origin(origin)
        query = select(step_table).where(S.origin == origin, S.id > after).order_by(S.id)
        return self._listing(query, limit)

    def project_steps(self, project: str, *, origin: str | None = None, after: int = 0,
                      limit: int | None = None) -> list[RegisteredStep]:
        check_project(project)
        if origin is not None:
            check_origin(origin)
        with self._connect() as conn:
            known = conn.execute(select(U.project).where(U.project == project).limit(1)).first()
        if known is None:
            raise NotFound(f"project {project!r} is unknown: it has registered no steps")
        query = (
            select(step_table)
            .join(usage_table, U.step_id == S.id)
            .where(U.project == project, S.id > after)
            .order_by(S.id)
        )
        if origin is not None:
            query = query.where(S.origin == origin)
        return self._listing(query, limit)

    def step(self, step_id: int) -> RegisteredStep:
        with self._connect() as conn, conn.begin():
            rows = conn.execute(select(step_table).where(S.id == step_id)).all()
            if not rows:
                raise NotFound(f"step {step_id} does not exist")
            return self._steps(conn, rows)[0]

    def users(self, step_id: int) -> dict[str, int]:
        """The projects using one step (one version), with their uses."""
        with self._connect() as conn, conn.begin():
            if conn.execute(select(S.id).where(S.id == step_id)).first() is None:
                raise NotFound(f"step {step_id} does not exist")
            rows = conn.execute(select(U.project, U.uses).where(U.step_id == step_id).order_by(U.project)).all()
        return {row.project: row.uses for row in rows}

    def superseded_by(self, step_id: int) -> list[int]:
        with self._connect() as conn:
            return list(conn.execute(select(S.id).where(S.supersedes == step_id).order_by(S.id)).scalars())

    # --- internals -----------------------------------------------------------------------

    def _in(self, column, values: list):  # noqa: ANN001, ANN202
        """column IN values: one array parameter on PostgreSQL (= ANY(:array), one plan whatever the count),
        an expanded IN list on SQLite."""
        if self.dialect == "postgresql":
            return column == any_(literal(list(values), postgresql.ARRAY(column.type)))
        return column.in_(values)

    def _connect(self, *, write: bool = False) -> Connection:
        conn = self.engine.connect()
        if write and self.dialect == "sqlite":
            conn = conn.execution_options(sqlite_immediate=True)
        return conn

    def _retrying(self, work: Callable[[], T]) -> T:
        for attempt in range(RETRIES):
            try:
                return work()
            except DBAPIError as error:
                if attempt == RETRIES - 1 or not _retryable(error):
                    raise
                time.sleep(0.01 * 2**attempt * (1 + random.random()))
        raise AssertionError("unreachable")

    @staticmethod
    def _check_new_steps(steps: Sequence[NewStep]) -> dict[str, NewStep]:
        if len(steps) > MAX_REGISTER:
            raise InvalidInput("steps", f"{len(steps)} steps; at most {MAX_REGISTER} per registration")
        unique: dict[str, NewStep] = {}
        for i, new in enumerate(steps):
            if not isinstance(new, NewStep):
                try:
                    new = NewStep.model_validate(new)
                except ValidationError as error:
                    raise InvalidInput(f"steps[{i}]", str(error).splitlines()[0]) from None
            definition = new.definition
            signature = check_signature(definition.signature, f"steps[{i}].definition.signature")
            if "\\u0000" in definition.model_dump_json() or "\x00" in new.code:
                raise InvalidInput(f"steps[{i}]", "holds a NUL character (U+0000), which cannot be stored")
            if len(definition.pattern) > MAX_PATTERN:
                raise InvalidInput(f"steps[{i}].definition.pattern", f"longer than {MAX_PATTERN} characters")
            if len(new.code) > MAX_CODE:
                raise InvalidInput(f"steps[{i}].code", f"longer than {MAX_CODE} characters")
            earlier = unique.get(signature)
            if earlier is not None and (earlier.definition != definition or earlier.code != new.code):
                raise Conflict(f"steps[{i}].definition.signature",
                               f"{signature!r} appears twice in this request with different definitions")
            unique.setdefault(signature, new)
        return unique

    def _register(self, project: str, origin: str, unique: dict[str, NewStep]) -> dict[str, RegisteredStep]:
        signatures = sorted(unique)
        with self._connect(write=True) as conn, conn.begin():
            known = set(conn.execute(
                select(S.signature).where(S.origin == origin, self._in(S.signature, signatures))
            ).scalars())
            if len(known) < len(signatures):
                if self.dialect == "postgresql":
                    conn.execute(text("SELECT pg_advisory_xact_lock(:ns, hashtext(:origin))"),
                                 {"ns": LOCK_NAMESPACE, "origin": origin})
                    known = set(conn.execute(  # others may have committed while we waited
                        select(S.signature).where(S.origin == origin, self._in(S.signature, signatures))
                    ).scalars())
                self._insert_new(conn, project, origin, [unique[s] for s in signatures if s not in known])
            rows = conn.execute(select(step_table).where(S.origin == origin, self._in(S.signature, signatures))).all()
            ids = sorted(row.id for row in rows)
            upsert = self._insert(usage_table).values([{"step_id": i, "project": project, "uses": 1} for i in ids])
            conn.execute(upsert.on_conflict_do_update(index_elements=[U.step_id, U.project],
                                                      set_={"uses": U.uses + 1}))
            return {step.signature: step for step in self._steps(conn, rows)}

    def _insert_new(self, conn: Connection, project: str, origin: str, new: list[NewStep]) -> None:
        """Insert steps not yet known, each the next version of the latest step with the same wording."""
        if not new:
            return
        groups: dict[str, list[NewStep]] = {}
        for step in new:
            groups.setdefault(pattern_hash(step.definition.keyword, step.definition.pattern), []).append(step)
        latest: dict[str, tuple[int, int]] = {}  # pattern hash -> (version, id)
        for chunk in _chunks(sorted(groups), 1000):
            rows = conn.execute(
                select(S.pattern_hash, func.max(S.version).label("version"))
                .where(S.origin == origin, self._in(S.pattern_hash, chunk))
                .group_by(S.pattern_hash)
            ).all()
            if rows:
                pairs = {(row.pattern_hash, row.version) for row in rows}
                ids = conn.execute(
                    select(S.pattern_hash, S.version, S.id)
                    .where(S.origin == origin, self._in(S.pattern_hash, [p for p, _ in pairs]))
                ).all()
                for row in ids:
                    if (row.pattern_hash, row.version) in pairs:
                        latest[row.pattern_hash] = (row.version, row.id)
        # Round r inserts the r-th new signature of every wording: usually one round.
        rounds = max(len(group) for group in groups.values())
        for r in range(rounds):
            batch = [(ph, group[r]) for ph, group in sorted(groups.items()) if len(group) > r]
            values = []
            for ph, step in batch:
                version, previous = latest.get(ph, (0, None))
                values.append({
                    "origin": origin,
                    "signature": step.definition.signature,
                    "version": version + 1,
                    "supersedes": previous,
                    "keyword": step.definition.keyword,
                    "pattern": step.definition.pattern,
                    "pattern_hash": ph,
                    "definition": step.definition.model_dump(mode="json"),
                    "code": step.code,
                    "created_by": project,
                })
            values.sort(key=lambda v: v["signature"])
            conn.execute(self._insert(step_table).on_conflict_do_nothing(index_elements=[S.origin, S.signature]),
                         values)
            if r + 1 < rounds:
                rows = conn.execute(
                    select(S.pattern_hash, S.version, S.id)
                    .where(S.origin == origin, self._in(S.signature, [v["signature"] for v in values]))
                ).all()
                for row in rows:
                    if row.version > latest.get(row.pattern_hash, (0, None))[0]:
                        latest[row.pattern_hash] = (row.version, row.id)

    def _listing(self, query, limit: int | None) -> list[RegisteredStep]:  # noqa: ANN001
        if limit is not None:
            query = query.limit(limit)
        with self._connect() as conn, conn.begin():
            return self._steps(conn, conn.execute(query).all())

    def _steps(self, conn: Connection, rows: Iterable) -> list[RegisteredStep]:
        rows = list(rows)
        usage: dict[int, dict[str, int]] = {}
        for chunk in _chunks([row.id for row in rows], 1000):
            for use in conn.execute(
                select(U.step_id, U.project, U.uses).where(self._in(U.step_id, chunk)).order_by(U.step_id, U.project)
            ):
                usage.setdefault(use.step_id, {})[use.project] = use.uses
        return [
            RegisteredStep(
                id=row.id,
                origin=row.origin,
                signature=row.signature,
                version=row.version,
                supersedes=row.supersedes,
                definition=StepDefinition.model_validate(row.definition),
                code=row.code,
                created_by=row.created_by,
                usage=usage.get(row.id, {}),
            )
            for row in rows
        ]


def _chunks(items: list, size: int) -> Iterable[list]:
    for start in range(0, len(items), size):
        yield items[start:start + size]
