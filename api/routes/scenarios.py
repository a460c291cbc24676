"""Versioned scenarios: PUT stores a changed definition as the next version; DELETE takes a scenario out of the
project's regenerations (its versions and their jobs stay)."""

from __future__ import annotations

from typing import Annotated

from fastapi import Path, Response

from api import schemas
from api.deps import (
    ApiError,
    CallerDep,
)
from api.routes.common import v1, validated_scenario
from shared.scenarios import ID_PATTERN
from shared.store import (
    delete_scenario,
    upsert_scenario,
)

ExternalIdPath = Annotated[str, Path(max_length=200, json_schema_extra={"pattern": ID_PATTERN})]


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
