"""Versioned scenarios: PUT stores a changed definition as the next version; GET lists the latest versions a page
at a time, or reads one (any version); DELETE takes a scenario out of the project's regenerations (its versions and
their jobs stay)."""

from __future__ import annotations

from typing import Annotated
from urllib.parse import urlencode

from fastapi import Path, Query, Response

from api import schemas
from api.deps import (
    ApiError,
    CallerDep,
)
from api.routes.common import v1, validated_scenario
from shared.models import Scenario
from shared.scenarios import ID_PATTERN
from shared.store import (
    delete_scenario,
    latest_scenario,
    scenario_page,
    upsert_scenario,
)

ExternalIdPath = Annotated[str, Path(max_length=200, json_schema_extra={"pattern": ID_PATTERN})]
PAGE_MAX = 500


def _stored(row: Scenario, latest: int) -> schemas.StoredScenario:
    return schemas.StoredScenario(external_id=row.external_id, version=row.version, latest_version=latest,
                                  created_at=row.created_at, definition=row.definition)


@v1.get("/scenarios", response_model=schemas.ScenarioPage, tags=["scenarios"],
        summary="List the project's scenarios (latest versions), a page at a time")
def list_scenarios(caller: CallerDep,
                   limit: Annotated[int, Query(ge=1, le=PAGE_MAX, description="Scenarios per page")] = 100,
                   after: Annotated[str | None, Query(max_length=200, pattern=ID_PATTERN,
                                                      description="Start after this id (the previous page's last)")
                                    ] = None) -> schemas.ScenarioPage:
    with caller.project_session() as (project, session):
        page, more = scenario_page(session, project.id, limit, after)
        return schemas.ScenarioPage(
            scenarios=[_stored(row, row.version) for row in page],
            next=f"/v1/scenarios?{urlencode({'limit': limit, 'after': page[-1].external_id})}" if more else None)


@v1.get("/scenarios/{external_id}", response_model=schemas.StoredScenario, tags=["scenarios"],
        responses={404: {"model": schemas.ErrorBody, "description": "No such scenario or version, or it was "
                                                                    "deleted"}},
        summary="Read a scenario: its latest version, or the version asked for")
def read_scenario(external_id: ExternalIdPath, caller: CallerDep,
                  version: Annotated[int | None, Query(ge=1, le=schemas.INT4_MAX)] = None) -> schemas.StoredScenario:
    with caller.project_session() as (project, session):
        latest = latest_scenario(session, project.id, external_id)
        if latest is None:
            raise ApiError(404, f"no scenario {external_id!r} in this project")
        if latest.deleted_at is not None:
            raise ApiError(404, f"scenario {external_id!r} was deleted (PUT it again to store a new version)")
        row = latest if version is None else latest_scenario(session, project.id, external_id, version)
        if row is None:
            raise ApiError(404, f"scenario {external_id!r} has no version {version} (its latest is "
                                f"{latest.version})")
        return _stored(row, latest.version)


@v1.put("/scenarios/{external_id}", response_model=schemas.ScenarioPublic, tags=["scenarios"],
        responses={201: {"model": schemas.ScenarioPublic, "description": "A new version was stored"}},
        summary="Store a scenario; a changed definition becomes its next version (200 when unchanged)")
def put_scenario(external_id: ExternalIdPath, body: schemas.ScenarioBody,
                 caller: CallerDep, response: Response) -> schemas.ScenarioPublic:
    with caller.project_session() as (project, session):
        scenario = validated_scenario({**body.model_dump(exclude_unset=True), "id": external_id})
        row, created = upsert_scenario(session, project.id, scenario)
        session.commit()
        response.status_code = 201 if created else 200
        return schemas.ScenarioPublic(external_id=row.external_id, version=row.version, created=created,
                                      definition=row.definition)


@v1.delete("/scenarios/{external_id}", status_code=204, response_class=Response, tags=["scenarios"],
           responses={404: {"model": schemas.ErrorBody, "description": "No such scenario, or deleted already"}},
           summary="Delete a scenario: it leaves the project's regenerations and is reported as removed")
def remove_scenario(external_id: ExternalIdPath, caller: CallerDep) -> Response:
    with caller.project_session() as (project, session):
        if not delete_scenario(session, project.id, external_id):
            raise ApiError(404, f"no scenario {external_id!r} in this project (or it was deleted already)")
    return Response(status_code=204)
