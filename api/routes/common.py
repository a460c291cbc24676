"""What every route module shares: the /v1 router and its JSON body handling, the error responses, the
path and header parameters, and the helpers that read a project's own rows."""

from __future__ import annotations

import json
from collections.abc import Callable, Coroutine
from typing import Annotated, Any

from fastapi import APIRouter, Header, Path, Request, Response
from fastapi.routing import APIRoute
from pydantic import ValidationError
from sqlalchemy import Row
from sqlmodel import Session
from starlette.exceptions import HTTPException as StarletteHTTPException

from api import schemas
from api.deps import (
    ApiError,
    not_found,
)
from api.http import field_name
from shared.importers import ImportReport
from shared.models import Batch, Job, Project
from shared.scenarios import Scenario as ScenarioDefinition
from shared.store import (
    find_batch,
)

ERRORS: dict[int | str, dict[str, Any]] = {
    401: {"model": schemas.ErrorBody, "description": "Missing or wrong API key"},
    404: {"model": schemas.ErrorBody, "description": "No such resource in this project"},
    413: {"model": schemas.ErrorBody, "description": "Request body or batch too large"},
    422: {"model": schemas.ErrorBody, "description": "Invalid input; the detail names the field"},
    503: {"model": schemas.ErrorBody, "description": "Database or artifact store unavailable"},
}
# Stored in a text column: printable characters only (no control characters, which PostgreSQL may refuse).
IDEMPOTENCY_KEY_PATTERN = r"^[^\x00-\x1f\x7f]+$"
# An artifact key as shared.artifacts.check_key takes it: relative, segments neither empty nor "." nor "..", no
# backslash or control character.
_SEGMENT = r"(?!\.\.?(?:/|$))[^/\\\x00-\x1f\x7f]+"
ArtifactKey = Annotated[str, Path(json_schema_extra={"pattern": rf"^(?:{_SEGMENT}/)*{_SEGMENT}$"})]
IdempotencyKey = Annotated[str, Header(alias="Idempotency-Key", min_length=1, max_length=200,
                                       pattern=IDEMPOTENCY_KEY_PATTERN,
                                       description="Same key again: the same batch, nothing new")]


UNION_TAGS = {"inline", "ref", "sentence", "pair"}


class JsonBodyRoute(APIRoute):
    """A route whose unparseable body is a 422 saying why (not UTF-8, not JSON, a number too long, nested too
    deep) instead of FastAPI's bare 400 "There was an error parsing the body"."""

    def get_route_handler(self) -> Callable[[Request], Coroutine[Any, Any, Response]]:
        handler = super().get_route_handler()

        async def route(request: Request) -> Response:
            body = await request.body()  # kept by the request: the handler reads these same bytes
            encoding = json.detect_encoding(body) if body else "utf-8"
            if encoding not in ("utf-8", "utf-8-sig"):  # json.loads would take UTF-16 and UTF-32 bytes too
                raise ApiError(422, f"body: not UTF-8 (it is encoded as {encoding.upper()}); send JSON encoded as "
                                    "UTF-8")
            try:
                return await handler(request)
            except StarletteHTTPException as error:
                if error.status_code == 400 and error.__cause__ is not None:
                    raise ApiError(422, f"body: {_unparseable(error.__cause__)}") from None
                raise

        return route


def _unparseable(cause: BaseException) -> str:
    if isinstance(cause, UnicodeDecodeError):
        return f"not valid UTF-8 (byte {cause.start}); send JSON encoded as UTF-8"
    if isinstance(cause, RecursionError):
        return "not valid JSON: nested too deeply"
    if isinstance(cause, ValueError):
        reason = (str(cause).split(";")[0].splitlines() or ["cannot be parsed"])[0]
        return f"not valid JSON: {reason}"
    return "not valid JSON (it cannot be parsed)"


health_router = APIRouter(tags=["health"])
v1 = APIRouter(prefix="/v1", responses=ERRORS, route_class=JsonBodyRoute)






def own_batch(session: Session, project_id: int, batch_id: int) -> Batch:
    batch = find_batch(session, project_id, batch_id)
    if batch is None:
        raise not_found(f"batch {batch_id}")
    return batch


def own_job(session: Session, project_id: int, batch_id: int, job_id: int) -> Job:
    own_batch(session, project_id, batch_id)
    job = session.get(Job, job_id)
    if job is None or job.batch_id != batch_id:
        raise not_found(f"job {job_id} of batch {batch_id}")
    return job


def accepted(batch: Batch, response: Response, replayed: bool, imported: ImportReport | None = None
             ) -> schemas.BatchAccepted:
    if replayed:
        response.headers["Idempotent-Replayed"] = "true"
    summary = schemas.ImportSummary.model_validate(imported.summary()) if imported is not None else None
    return schemas.BatchAccepted(id=batch.id, kind=batch.kind, state=batch.state, jobs_total=batch.jobs_total,
                                 idempotency_key=batch.idempotency_key, links=links(batch.id), imported=summary)


def validated_scenario(document: dict) -> ScenarioDefinition:
    """The scenario as the pipeline takes it; 422 naming the field (its id is the path's external_id)."""
    try:
        return ScenarioDefinition.model_validate(document)
    except ValidationError as error:
        first = error.errors()[0]
        loc = list(first["loc"])
        field = "path parameter external_id" if loc[:1] == ["id"] else field_name(loc, UNION_TAGS)
        raise ApiError(422, f"{field}: {str(first['msg']).removeprefix('Value error, ')}") from None


def public(project: Project) -> schemas.ProjectPublic:
    return schemas.ProjectPublic.model_validate(project, from_attributes=True)


def links(batch_id: int) -> schemas.Links:
    base = f"/v1/batches/{batch_id}"
    return schemas.Links(batch=base, suite=f"{base}/suite.zip", changes=f"{base}/changes", webhooks=f"{base}/webhooks")


def job_view(job: Row) -> schemas.JobView:
    """One job of the progress view (a row of JOB_PROGRESS_COLUMNS)."""
    verdict = None
    if job.state == "failed":
        verdict = schemas.JobVerdict(failed_step=job.failed_step, kind=job.failure_kind, reason=job.reason)
    return schemas.JobView(
        id=job.id, external_id=job.external_id, scenario_version=job.scenario_version, state=job.state,
        attempt=job.attempt, verdict=verdict, generation_attempts=job.generation_attempts, timings=job.timings,
        model_usage=job.model_usage, triage=job.triage, started_at=job.started_at, finished_at=job.finished_at,
    )


def usage_total(jobs: list[Row]) -> dict[str, float]:
    """Calls, tokens and cost over the batch's jobs (each job's usage["total"])."""
    total: dict[str, float] = {}
    for job in jobs:
        for name, value in ((job.model_usage or {}).get("total") or {}).items():
            if isinstance(value, int | float):
                total[name] = round(total.get(name, 0) + value, 8)
    return total


def _media_type(key: str) -> str:
    suffix = key.rsplit(".", 1)[-1].lower()
    return {"json": "application/json", "png": "image/png", "zip": "application/zip", "txt": "text/plain",
            "feature": "text/plain", "js": "text/javascript", "diff": "text/plain"}.get(suffix, "application/octet-stream")
