"""Versioned scenarios: a changed definition is stored as the scenario's next version."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from sqlalchemy import and_, func, update
from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, col, select

from shared.models import (
    Scenario,
    as_utc,
    utcnow,
)
from shared.scenarios import Scenario as ScenarioDefinition
from shared.scenarios import natural_key
from shared.store.sessions import Conflict


def definition_of(scenario: ScenarioDefinition) -> dict:
    """The stored definition: the scenario as it was given, without its id (the external id is a column). A
    scenario given as `text` is stored as its text alone: its steps are derived from it again when it is read."""
    return scenario.model_dump(mode="json", exclude={"id", "steps"} if scenario.text else {"id"})


def scenario_from_row(row: Scenario) -> ScenarioDefinition:
    definition = dict(row.definition)
    if definition.get("text"):
        definition.pop("steps", None)  # stored beside its text by earlier versions: derived, not given
    return ScenarioDefinition.model_validate({**definition, "id": row.external_id})


def latest_scenario(session: Session, project_id: int, external_id: str, version: int | None = None) -> Scenario | None:
    query = select(Scenario).where(Scenario.project_id == project_id, Scenario.external_id == external_id)
    if version is not None:
        return session.exec(query.where(Scenario.version == version)).first()
    return session.exec(query.order_by(col(Scenario.version).desc()).limit(1)).first()


def upsert_scenario(session: Session, project_id: int, scenario: ScenarioDefinition) -> tuple[Scenario, bool]:
    """The scenario's latest version when its definition is unchanged, else a new version; (row, created).

    Flushes, does not commit. Two writers of one external id at once: the unique (project, external id, version)
    makes one of them retry on the next version number.
    """
    definition = definition_of(scenario)
    for _ in range(5):
        latest = latest_scenario(session, project_id, scenario.id)
        if latest is not None and latest.definition == definition and latest.deleted_at is None:
            return latest, False
        row = Scenario(project_id=project_id, external_id=scenario.id, definition=definition,
                       version=(latest.version + 1) if latest else 1)
        try:
            with session.begin_nested():
                session.add(row)
        except IntegrityError:
            continue
        return row, True
    raise Conflict(f"scenario {scenario.id!r} is being changed by several requests at once; try again")


def upsert_scenarios(session: Session, project_id: int, scenarios: Sequence[ScenarioDefinition]) -> list[Scenario]:
    """`upsert_scenario` for many at once (a batch of a thousand): one query for their latest versions, one
    insert of the new ones. Flushes, does not commit. When another writer adds a version meanwhile, the
    scenarios are upserted one by one instead."""
    ids = [scenario.id for scenario in scenarios]
    latest = {row.external_id: row for row in latest_scenarios(session, project_id, ids, include_deleted=True)} \
        if ids else {}
    rows: list[Scenario] = []
    fresh: list[Scenario] = []
    for scenario in scenarios:
        definition = definition_of(scenario)
        known = latest.get(scenario.id)
        if known is not None and known.definition == definition and known.deleted_at is None:
            rows.append(known)
            continue
        row = Scenario(project_id=project_id, external_id=scenario.id, definition=definition,
                       version=(known.version + 1) if known else 1)
        rows.append(row)
        fresh.append(row)
    if not fresh:
        return rows
    try:
        with session.begin_nested():
            session.add_all(fresh)
    except IntegrityError:
        return [upsert_scenario(session, project_id, scenario)[0] for scenario in scenarios]
    return rows


def latest_scenarios(session: Session, project_id: int, external_ids: Sequence[str] | None = None, *,
                     include_deleted: bool = False) -> list[Scenario]:
    """Every scenario's latest version (or those of `external_ids`), in natural order of their ids (OWN-2 before
    OWN-10); deleted scenarios only with include_deleted."""
    newest = select(Scenario.external_id, func.max(Scenario.version).label("version")).where(
        Scenario.project_id == project_id
    )
    if external_ids is not None:
        newest = newest.where(col(Scenario.external_id).in_(list(external_ids)))
    newest = newest.group_by(Scenario.external_id).subquery()
    query = (
        select(Scenario)
        .join(newest, and_(Scenario.external_id == newest.c.external_id, Scenario.version == newest.c.version))
        .where(Scenario.project_id == project_id)
    )
    if not include_deleted:
        query = query.where(col(Scenario.deleted_at).is_(None))
    return sorted(session.exec(query).all(), key=lambda row: natural_key(row.external_id))


def scenario_page(session: Session, project_id: int, limit: int, after: str | None = None
                  ) -> tuple[list[Scenario], bool]:
    """A page of the project's scenarios (latest versions, deleted ones left out) in natural order of their ids, ties
    broken by the id itself (OWN-2, own-2 and OWN-02 read alike): the `limit` after `after`, and whether more
    follow. Only the ids are read for the whole project; the definitions, for the page's scenarios only."""
    newest = select(Scenario.external_id, func.max(Scenario.version).label("version")).where(
        Scenario.project_id == project_id).group_by(Scenario.external_id).subquery()
    live = select(Scenario.external_id).join(newest, and_(Scenario.external_id == newest.c.external_id,
                                                          Scenario.version == newest.c.version)).where(
        Scenario.project_id == project_id, col(Scenario.deleted_at).is_(None))
    order = sorted(session.exec(live).all(), key=lambda external_id: (natural_key(external_id), external_id))
    if after is not None:
        cursor = (natural_key(after), after)
        order = [external_id for external_id in order if (natural_key(external_id), external_id) > cursor]
    page = order[:limit]
    rows = {row.external_id: row for row in latest_scenarios(session, project_id, page)} if page else {}
    return [rows[external_id] for external_id in page if external_id in rows], len(order) > limit


def delete_scenario(session: Session, project_id: int, external_id: str) -> bool:
    """Mark the scenario deleted (its latest version); False when there is none, or it is deleted already.
    Commits."""
    newest = (select(func.max(Scenario.version)).where(Scenario.project_id == project_id,
                                                      Scenario.external_id == external_id).scalar_subquery())
    # One statement: a version a PUT adds meanwhile is the latest one, and this deletes nothing (a 404).
    deleted = session.execute(update(Scenario).where(
        Scenario.project_id == project_id, Scenario.external_id == external_id, Scenario.version == newest,
        col(Scenario.deleted_at).is_(None)).values(deleted_at=utcnow())).rowcount
    session.commit()
    return bool(deleted)


def deleted_scenarios(session: Session, project_id: int, external_ids: Sequence[str], before: datetime) -> list[str]:
    """Those of `external_ids` whose latest version was deleted before `before`, in natural order."""
    rows = latest_scenarios(session, project_id, external_ids, include_deleted=True)
    gone = [row.external_id for row in rows if row.deleted_at is not None and as_utc(row.deleted_at) <= as_utc(before)]
    return sorted(gone, key=natural_key)
