"""Versioned scenarios: PUT stores a changed definition as the next version."""

from __future__ import annotations

from typing import Annotated

from fastapi import Path, Response

from api import schemas
from api.deps import (
    CallerDep,
)
from api.routes.common import v1, validated_scenario
from shared.scenarios import ID_PATTERN
from shared.store import (
    upsert_scenario,
)


@v1.put("/scenarios/{external_id}", response_model=schemas.ScenarioPublic, tags=["scenarios"],
        responses={201: {"model": schemas.ScenarioPublic, "description": "A new version was stored"}},
        summary="Store a scenario; a changed definition becomes its next version (200 when unchanged)")
def put_scenario(external_id: Annotated[str, Path(max_length=200, json_schema_extra={"pattern": ID_PATTERN})],
                 body: schemas.ScenarioBody,
                 caller: CallerDep, response: Response) -> schemas.ScenarioPublic:
    with caller.project_session() as (project, session):
        scenario = validated_scenario({**body.model_dump(exclude_unset=True), "id": external_id})
        row, created = upsert_scenario(session, project.id, scenario)
        session.commit()
        response.status_code = 201 if created else 200
        return schemas.ScenarioPublic(external_id=row.external_id, version=row.version, created=created,
                                      definition=row.definition)
