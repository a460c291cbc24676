"""The service API (FastAPI): projects and their keys, versioned scenarios, batches, progress, artifacts, the
suite zip, what changed, webhooks. `uvicorn api.app:app` (settings from STEPFORGE_* variables), or
`create_app(settings)`.

Every /v1 route takes `Authorization: Bearer <project API key>` and sees only that project's data (another
project's ids are 404); POST /v1/projects takes the admin token instead. Errors are JSON {"detail": "<field>:
<what is wrong>"} with 401, 404, 409, 413 or 422, or 503 when the database or the artifact store cannot be
reached; never a 500 for bad input. Bad input is refused at validation (bounded integers, no control characters
in stored strings, a body that is not UTF-8 JSON); a database error that still comes from a value (DataError) is
a 422, a constraint violation (IntegrityError) a 409, and only a connection problem (OperationalError) a 503.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Callable, Coroutine
from contextlib import asynccontextmanager
from typing import Annotated, Any

from fastapi import APIRouter, BackgroundTasks, Depends, FastAPI, Header, Path, Request, Response
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from fastapi.routing import APIRoute
from pydantic import ValidationError
from sqlalchemy import Row, text
from sqlalchemy.exc import (
    DataError,
    DisconnectionError,
    IntegrityError,
    InterfaceError,
    OperationalError,
    SQLAlchemyError,
)
from sqlalchemy.exc import TimeoutError as PoolTimeoutError
from sqlmodel import Session
from starlette.exceptions import HTTPException as StarletteHTTPException

from api import schemas
from api.changes import changes
from api.deps import (
    ApiError,
    CallerDep,
    EventIdPath,
    IdPath,
    Services,
    ServicesDep,
    not_found,
    require_admin,
)
from api.http import BodyLimit, answer_405_with_every_method, field_name, validation_response
from shared.artifacts import ArtifactNotFoundError, ArtifactStoreError, check_key
from shared.logging import configure_logging, log
from shared.models import JOB_STATES, Batch, Job, Project
from shared.models import Scenario as ScenarioRow
from shared.scenarios import ID_PATTERN
from shared.scenarios import Scenario as ScenarioDefinition
from shared.service_settings import ServiceSettings, get_service_settings
from shared.store import (
    Conflict,
    batch_by_key,
    batch_prefix,
    create_batch,
    create_project,
    deliveries_of,
    events_of_batch,
    find_batch,
    find_event,
    job_artifacts_prefix,
    jobs_of,
    latest_scenario,
    latest_scenarios,
    queued_job_ids,
    read_batch_progress,
    reopen_event,
    request_hash,
    upsert_scenario,
    upsert_scenarios,
)
from shared.webhooks import new_secret

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


health = APIRouter(tags=["health"])
v1 = APIRouter(prefix="/v1", responses=ERRORS, route_class=JsonBodyRoute)


@health.get("/healthz", response_model=schemas.Health, responses={503: ERRORS[503]})
def healthz(services: ServicesDep) -> schemas.Health:
    with services.session(read_only=True) as session:
        session.execute(text("SELECT 1"))
        return schemas.Health(status="ok", database="ok")


# --- projects -------------------------------------------------------------------------------------------------


@v1.post("/projects", response_model=schemas.ProjectCreated, status_code=201, tags=["projects"],
         dependencies=[Depends(require_admin)], summary="Create a project (admin token); its API key is shown once")
def create_project_route(body: schemas.ProjectCreate, services: ServicesDep) -> schemas.ProjectCreated:
    with services.session() as session:
        services.check_url("base_url", body.base_url)
        if body.webhook_url:
            services.check_url("webhook_url", body.webhook_url)
        services.check_brain(body.default_brain)
        secret = new_secret()
        project, api_key = create_project(session, webhook_secret=secret, **body.model_dump())
        log.info("project.created", project_id=project.id)
        return schemas.ProjectCreated(project=public(project), api_key=api_key, webhook_secret=secret)


@v1.get("/projects/me", response_model=schemas.ProjectPublic, tags=["projects"], summary="The key's project")
def my_project(caller: CallerDep) -> schemas.ProjectPublic:
    with caller.project_session(read_only=True) as (project, _):
        return public(project)


@v1.patch("/projects/me", response_model=schemas.ProjectUpdated, tags=["projects"],
          summary="Change the project's settings; rotate its webhook secret")
def update_project(body: schemas.ProjectUpdate, caller: CallerDep, services: ServicesDep) -> schemas.ProjectUpdated:
    with caller.project_session() as (project, session):
        updates = body.model_dump(exclude_unset=True, exclude={"rotate_webhook_secret"})
        if updates.get("base_url"):
            services.check_url("base_url", updates["base_url"])
        if updates.get("webhook_url"):
            services.check_url("webhook_url", updates["webhook_url"])
        services.check_brain(updates.get("default_brain"))
        for field, value in updates.items():
            setattr(project, field, value)
        if "webhook_url" in updates:  # a webhook disabled by a 410 Gone is enabled again by setting its URL
            project.webhook_disabled_at = project.webhook_disabled_reason = None
        secret = new_secret() if body.rotate_webhook_secret else None
        if secret:
            project.webhook_secret = secret
        session.add(project)
        session.commit()
        return schemas.ProjectUpdated(project=public(project), webhook_secret=secret)


# --- scenarios ------------------------------------------------------------------------------------------------


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


# --- batches --------------------------------------------------------------------------------------------------


@v1.post("/batches", response_model=schemas.BatchAccepted, status_code=202, tags=["batches"],
         summary="Submit scenarios; answers at once with the batch id (the same Idempotency-Key: the same batch)",
         responses={409: {"model": schemas.ErrorBody, "description": "Two items name one scenario, or the "
                                                                     "Idempotency-Key was used for another request"}})
def submit_batch(body: schemas.BatchCreate, caller: CallerDep, services: ServicesDep,
                 response: Response, idempotency_key: IdempotencyKey, background: BackgroundTasks
                 ) -> schemas.BatchAccepted:
    with caller.project_session() as (project, session):
        limit = services.settings.max_batch_scenarios
        if len(body.scenarios) > limit:
            raise ApiError(422, f"scenarios: {len(body.scenarios)} scenarios exceed the limit of {limit} per batch")
        fingerprint = request_hash(body.model_dump(mode="json"))
        existing = batch_by_key(session, project.id, idempotency_key)
        if existing is not None:
            if existing.request_hash != fingerprint:
                raise Conflict(f"Idempotency-Key {idempotency_key!r} was used for batch {existing.id} with another request")
            return accepted(existing, response, replayed=True)
        base_url = services.check_url("base_url", body.base_url) if body.base_url else project.base_url
        services.check_brain(body.brain)
        rows = scenario_rows(session, project, body.scenarios)
        batch, created = create_batch(session, project, idempotency_key=idempotency_key, fingerprint=fingerprint,
                                      scenarios=rows, base_url=base_url, brain=body.brain or project.default_brain,
                                      grounding=body.grounding or project.default_grounding)
        if created:
            background.add_task(start, services, batch.id)
        return accepted(batch, response, replayed=not created)


def scenario_rows(session: Session, project: Project, items: list) -> list[ScenarioRow]:
    """The stored scenario version of each item: inline ones upserted (all at once), references looked up."""
    inline = [item for item in items if not isinstance(item, schemas.ScenarioRef)]
    upserted = iter(upsert_scenarios(session, project.id, inline))
    rows, seen = [], set()
    for i, item in enumerate(items):
        if isinstance(item, schemas.ScenarioRef):
            row = latest_scenario(session, project.id, item.external_id, item.version)
            if row is None:
                version = f" version {item.version}" if item.version else ""
                raise ApiError(404, f"scenarios[{i}].external_id: no scenario {item.external_id!r}{version} "
                                    "in this project")
        else:
            row = next(upserted)
        if row.external_id in seen:
            raise ApiError(409, f"scenarios[{i}]: scenario {row.external_id!r} appears twice in the batch")
        seen.add(row.external_id)
        rows.append(row)
    return rows


@v1.post("/projects/me/regenerate", response_model=schemas.BatchAccepted, status_code=202, tags=["batches"],
         summary="Regenerate the project's whole suite (every scenario's latest version) as a new batch",
         responses={409: {"model": schemas.ErrorBody, "description": "The project has no scenarios yet"}})
def regenerate(caller: CallerDep, services: ServicesDep, response: Response,
               background: BackgroundTasks, body: schemas.RegenerateRequest | None = None,
               idempotency_key: Annotated[str | None, Header(alias="Idempotency-Key", min_length=1, max_length=200,
                                                             pattern=IDEMPOTENCY_KEY_PATTERN)] = None
               ) -> schemas.BatchAccepted:
    with caller.project_session() as (project, session):
        body = body or schemas.RegenerateRequest()
        scenarios = latest_scenarios(session, project.id)
        if not scenarios:
            raise ApiError(409, "project: has no scenarios yet; store some with PUT /v1/scenarios/{external_id}")
        base_url = services.check_url("base_url", body.base_url) if body.base_url else project.base_url
        services.check_brain(body.brain)
        batch, created = create_batch(
            session, project, idempotency_key=idempotency_key or f"regenerate-{uuid.uuid4().hex}",
            fingerprint=request_hash({"regenerate": body.model_dump(mode="json")}), scenarios=scenarios,
            base_url=base_url, brain=body.brain or project.default_brain,
            grounding=body.grounding or project.default_grounding, kind="regenerate",
        )
        if created:
            background.add_task(start, services, batch.id)
        return accepted(batch, response, replayed=not created)


@v1.get("/batches/{batch_id}", response_model=schemas.BatchProgress, tags=["batches"],
        summary="Progress: jobs per state, each job's verdict, timings and model usage")
def batch_progress(batch_id: IdPath, caller: CallerDep) -> schemas.BatchProgress:
    with caller.project_id_session(read_only=True) as (project_id, session):
        found = read_batch_progress(session, project_id, batch_id)
    if found is None:
        raise not_found(f"batch {batch_id}")
    batch, jobs = found
    counts = dict.fromkeys(JOB_STATES, 0)
    for job in jobs:
        counts[job.state] = counts.get(job.state, 0) + 1
    return schemas.BatchProgress(**batch, counts=counts, model_usage=usage_total(jobs),
                                 jobs=[job_view(job) for job in jobs], links=links(batch["id"]))


@v1.get("/batches/{batch_id}/jobs/{job_id}/artifacts", response_model=schemas.ArtifactList, tags=["artifacts"],
        summary="A job's artifacts (screenshots, trace, run record, replay, suite files) with download URLs")
def job_artifacts(batch_id: IdPath, job_id: IdPath, caller: CallerDep, services: ServicesDep) -> schemas.ArtifactList:
    with caller.project_id_session(read_only=True) as (project_id, session):
        job = own_job(session, project_id, batch_id, job_id)
    store = services.store()  # the database connection is back in the pool while the store answers
    prefix = job_artifacts_prefix(job)
    listed = [
        schemas.ArtifactView(key=info.key.removeprefix(prefix), size=info.size, url=store.presigned_url(info.key))
        for info in store.list(prefix)
    ]
    return schemas.ArtifactList(batch_id=batch_id, job_id=job_id, prefix=prefix, artifacts=listed)


@v1.get("/batches/{batch_id}/jobs/{job_id}/artifacts/{key:path}", tags=["artifacts"], response_class=Response,
        summary="One artifact's bytes, through the API (for stores without presigned URLs)")
def job_artifact(batch_id: IdPath, job_id: IdPath, key: ArtifactKey, caller: CallerDep,
                 services: ServicesDep) -> Response:
    with caller.project_id_session(read_only=True) as (project_id, session):
        job = own_job(session, project_id, batch_id, job_id)
    try:
        data = services.store().get_bytes(job_artifacts_prefix(job) + check_key(key))
    except ArtifactNotFoundError:
        raise not_found(f"artifact {key!r}") from None
    except ValueError as error:
        raise ApiError(422, f"path parameter key: {error}") from None
    return Response(data, media_type=_media_type(key))


@v1.get("/batches/{batch_id}/suite.zip", tags=["batches"], response_class=Response,
        responses={200: {"content": {"application/zip": {}}},
                   409: {"model": schemas.ErrorBody, "description": "The batch or its suite is not finished yet"}},
        summary="The batch's suite, built and replayed as a whole: unzip, cd suite, npm install && npx cucumber-js")
def batch_suite(batch_id: IdPath, caller: CallerDep, services: ServicesDep) -> Response:
    with caller.project_id_session(read_only=True) as (project_id, session):
        batch = own_batch(session, project_id, batch_id)
    if batch.state != "finished":
        raise ApiError(409, f"batch {batch_id} is {batch.state}; its suite is ready when it has finished")
    if batch.suite_state == "empty":
        raise not_found(f"suite of batch {batch_id} (no scenario passed)")
    if batch.suite_state != "ready":
        raise ApiError(409, f"the suite of batch {batch_id} is being built and replayed; ask again in a moment",
                       headers={"Retry-After": "5"})
    data = services.store().get_bytes(batch_prefix(batch.project_id, batch.id) + "suite.zip")
    return Response(data, media_type="application/zip",
                    headers={"Content-Disposition": f'attachment; filename="batch-{batch_id}-suite.zip"'})


@v1.get("/batches/{batch_id}/changes", response_model=schemas.Changes, tags=["batches"],
        summary="What changed since the previous batch: verdicts and step locators")
def batch_changes(batch_id: IdPath, caller: CallerDep) -> schemas.Changes:
    with caller.project_id_session(read_only=True) as (project_id, session):
        batch = own_batch(session, project_id, batch_id)
        previous = jobs_of(session, batch.previous_batch_id) if batch.previous_batch_id else []
        report = changes(previous, jobs_of(session, batch.id))
        return schemas.Changes(batch_id=batch.id, previous_batch_id=batch.previous_batch_id, **report)


# --- webhooks -------------------------------------------------------------------------------------------------


@v1.get("/batches/{batch_id}/webhooks", response_model=schemas.WebhookLog, tags=["webhooks"],
        summary="The batch's events and every delivery attempt")
def webhook_log(batch_id: IdPath, caller: CallerDep) -> schemas.WebhookLog:
    with caller.project_id_session(read_only=True) as (project_id, session):
        batch = own_batch(session, project_id, batch_id)
        events = [
            schemas.EventView(id=event.id, type=event.type, created_at=event.created_at, delivered_at=event.delivered_at,
                              gave_up_at=event.gave_up_at, payload=event.payload,
                              deliveries=[schemas.DeliveryView.model_validate(d, from_attributes=True)
                                          for d in deliveries_of(session, event.id)])
            for event in events_of_batch(session, batch.id)
        ]
        return schemas.WebhookLog(batch_id=batch.id, events=events)


@v1.post("/webhooks/{event_id}/redeliver", response_model=schemas.RedeliveryAccepted, status_code=202,
         tags=["webhooks"], summary="Send an event again, even one delivered before")
def redeliver(event_id: EventIdPath, caller: CallerDep, services: ServicesDep) -> schemas.RedeliveryAccepted:
    with caller.project_id_session() as (project_id, session):
        event = find_event(session, project_id, event_id)
        if event is None:
            raise not_found(f"event {event_id!r}")
        reopen_event(session, event)
        sent = services.send_events(session, [event.id])
        return schemas.RedeliveryAccepted(event_id=event.id, queued=bool(sent))


# --- helpers --------------------------------------------------------------------------------------------------


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


def start(services: Services, batch_id: int) -> None:
    """Send the batch's jobs once the 202 is on its way (a background task of the request): after the commit,
    so no worker looks for a row that is not there yet, within STEPFORGE_BATCH_SEND_BUDGET_S. Whatever the broker did not
    take, or a process that died before sending, is left to beat's sweep (jobs never sent go after 30 s)."""
    with services.session() as session:
        job_ids = queued_job_ids(session, batch_id)
        sent = services.send_jobs(session, job_ids, budget_s=services.settings.batch_send_budget_s)
    log.info("batch.sent", batch_id=batch_id, jobs=len(job_ids), sent=sent, left_for_the_sweep=len(job_ids) - sent)


def accepted(batch: Batch, response: Response, replayed: bool) -> schemas.BatchAccepted:
    if replayed:
        response.headers["Idempotent-Replayed"] = "true"
    return schemas.BatchAccepted(id=batch.id, kind=batch.kind, state=batch.state, jobs_total=batch.jobs_total,
                                 idempotency_key=batch.idempotency_key, links=links(batch.id))


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
        model_usage=job.model_usage, started_at=job.started_at, finished_at=job.finished_at,
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
            "feature": "text/plain", "js": "text/javascript"}.get(suffix, "application/octet-stream")


# --- the application and its errors ---------------------------------------------------------------------------

UNION_TAGS = {"inline", "ref", "sentence", "pair"}


def create_app(settings: ServiceSettings | None = None) -> FastAPI:
    settings = settings or get_service_settings()
    configure_logging(settings)
    services = Services(settings)

    @asynccontextmanager
    async def lifespan(_app: FastAPI):
        yield
        services.close()

    app = FastAPI(
        title="stepforge",
        version="1",
        description="Turns plain-language test scenarios into verified cucumber-js + Playwright suites. Submit a "
                    "batch, follow its progress, download the suite; a signed webhook says when it is done.",
        lifespan=lifespan,
    )
    app.state.services = services
    app.add_middleware(BodyLimit, max_bytes=settings.max_body_bytes)
    _error_handlers(app)
    app.include_router(health)
    app.include_router(v1)
    _document_limits(app, settings)
    return app


def _document_limits(app: FastAPI, settings: ServiceSettings) -> None:
    """The OpenAPI document states this deployment's batch size limit (a bigger batch is a 422)."""
    generate = app.openapi

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is None:
            document = generate()
            scenarios = document["components"]["schemas"]["BatchCreate"]["properties"]["scenarios"]
            scenarios["maxItems"] = settings.max_batch_scenarios
        return app.openapi_schema

    app.openapi = openapi  # type: ignore[method-assign]


def _error_handlers(app: FastAPI) -> None:
    answer_405_with_every_method(app)

    @app.exception_handler(RequestValidationError)
    async def invalid(_request: Request, error: RequestValidationError) -> JSONResponse:
        return validation_response(error, UNION_TAGS, shown=5)

    @app.exception_handler(ApiError)
    async def refused(_request: Request, error: ApiError) -> JSONResponse:
        return JSONResponse({"detail": error.detail}, status_code=error.status, headers=error.headers)

    @app.exception_handler(Conflict)
    async def conflict(_request: Request, error: Conflict) -> JSONResponse:
        return JSONResponse({"detail": str(error)}, status_code=409)

    @app.exception_handler(SQLAlchemyError)
    async def database(_request: Request, error: SQLAlchemyError) -> JSONResponse:
        status, detail = database_problem(error)
        if status >= 500:
            log.warning("api.database_error", status=status, kind=type(error).__name__, error=_driver_message(error))
        return JSONResponse({"detail": detail}, status_code=status)

    @app.exception_handler(ArtifactStoreError)
    async def storage(_request: Request, error: ArtifactStoreError) -> JSONResponse:
        log.warning("api.artifact_store_error", error=str(error))
        return JSONResponse({"detail": f"artifact store unavailable: {error}"}, status_code=503)


def _driver_message(error: SQLAlchemyError) -> str:
    """The database's own first line (never the statement or its parameters, which str(error) includes)."""
    original = getattr(error, "orig", None)
    text_ = str(original if original is not None else type(error).__name__)
    return (text_.strip().splitlines() or [type(error).__name__])[0][:300]


def database_problem(error: SQLAlchemyError) -> tuple[int, str]:
    """The answer to a database error: only a database that cannot be reached (or a connection pool that is full)
    is a 503; a value the database refuses is a 422 and a violated constraint a 409, each naming the problem; any
    other error is a bug (500)."""
    if isinstance(error, DataError):
        return 422, f"input: a value is out of range or not valid for the database ({_driver_message(error)})"
    if isinstance(error, IntegrityError):
        return 409, f"the request conflicts with stored data ({_driver_message(error)}); check it and try again"
    if isinstance(error, OperationalError | InterfaceError | DisconnectionError | PoolTimeoutError):
        return 503, "database unavailable; try again"
    return 500, "internal error (database)"


def __getattr__(name: str) -> FastAPI:
    """`api.app:app` for uvicorn, made on first access (importing this module starts nothing)."""
    if name == "app":
        globals()["app"] = made = create_app()
        return made
    raise AttributeError(name)
