"""The step registry's FastAPI application: create_app(settings).

Every /v1 route requires `Authorization: Bearer <service token>`; /healthz does not. Errors are JSON
`{"detail": "<field>: <what is wrong>"}` with a 4xx status (401, 404, 413, 422), or 503 when the database
cannot be reached.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable
from contextlib import asynccontextmanager
from typing import Annotated, Any

from fastapi import APIRouter, Depends, FastAPI, HTTPException, Path, Query, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from pydantic import AfterValidator, BaseModel, Field
from sqlalchemy.exc import SQLAlchemyError

from api.http import BodyLimit, answer_405_with_every_method, validation_response
from api.registry.settings import RegistrySettings
from shared.db import make_engine
from shared.records import StepDefinition
from shared.registry.service import MAX_PAGE, RegistryService
from shared.registry.validation import (
    MAX_CODE,
    MAX_LOOKUP,
    MAX_PATTERN,
    MAX_REGISTER,
    ORIGIN_PATTERN,
    PROJECT_RE,
    SIGNATURE_RE,
    Conflict,
    ServiceError,
    check_origin,
    check_project,
    check_signature,
)
from shared.step_registry import NewStep, RegisteredStep

# Each pattern says in the OpenAPI document exactly what its check accepts.
Origin = Annotated[str, Field(json_schema_extra={"pattern": ORIGIN_PATTERN}),  # the check below enforces it
                   AfterValidator(lambda v: _field_check(check_origin, v))]
Project = Annotated[str, Field(pattern=rf"^{PROJECT_RE.pattern}$"),
                    AfterValidator(lambda v: _field_check(check_project, v))]
Signature = Annotated[str, Field(pattern=rf"^{SIGNATURE_RE.pattern}$"),
                      AfterValidator(lambda v: _field_check(check_signature, v))]
# Ids are PostgreSQL integers.
MAX_ID = 2**31 - 1


def _field_check(check: Callable[[str], str], value: str) -> str:
    try:
        return check(value)
    except ServiceError as error:  # InvalidInput: pydantic adds the field's location itself
        raise ValueError(error.detail.split(": ", 1)[-1]) from None


# --- request and response bodies ------------------------------------------------------------


class LookupRequest(BaseModel):
    origin: Origin = Field(description="The application's origin, scheme://host[:port], lower-case.")
    signatures: list[Signature] = Field(max_length=MAX_LOOKUP, description=f"At most {MAX_LOOKUP}.")


class StepDefinitionIn(StepDefinition):
    pattern: str = Field(max_length=MAX_PATTERN)
    signature: Signature


class NewStepIn(NewStep):
    definition: StepDefinitionIn
    code: str = Field(max_length=MAX_CODE)
    signature: Signature | None = Field(
        default=None, description="The step's key; when given it must equal definition.signature."
    )


class RegisterRequest(BaseModel):
    project: Project
    origin: Origin
    steps: list[NewStepIn] = Field(max_length=MAX_REGISTER, description=f"At most {MAX_REGISTER}.")


class StepsBySignature(BaseModel):
    steps: dict[str, RegisteredStep] = Field(description="signature -> step; unknown signatures are absent")


class StepList(BaseModel):
    steps: list[RegisteredStep]
    next_after: int | None = Field(default=None, description="Pass as `after` to get the next page; null at the end.")


class Use(BaseModel):
    project: str
    uses: int


class StepUsers(BaseModel):
    step_id: int
    origin: str
    signature: str
    version: int
    superseded_by: list[int] = Field(default_factory=list)
    users: list[Use]


class Health(BaseModel):
    status: str
    database: str


class ErrorBody(BaseModel):
    detail: str


ERRORS: dict[int | str, dict[str, Any]] = {
    400: {"model": ErrorBody, "description": "The body cannot be parsed"},
    401: {"model": ErrorBody, "description": "Missing or wrong service token"},
    413: {"model": ErrorBody, "description": "Request body too large"},
    422: {"model": ErrorBody, "description": "Invalid input; the detail names the field"},
    503: {"model": ErrorBody, "description": "Database unavailable"},
}


# --- the application ---------------------------------------------------------------------------


def create_app(settings: RegistrySettings) -> FastAPI:
    service = RegistryService(
        make_engine(settings.database_url, pool_size=settings.pool_size, max_overflow=settings.max_overflow)
    )
    service.create_tables()
    token = settings.token.get_secret_value().encode()

    @asynccontextmanager
    async def lifespan(_app: FastAPI):  # noqa: ANN202
        yield
        service.close()

    app = FastAPI(
        title="stepforge step registry",
        version="1",
        description="Step definitions keyed by (origin, signature), shared by the projects testing an origin.",
        lifespan=lifespan,
    )
    app.state.service = service
    app.add_middleware(BodyLimit, max_bytes=settings.max_body_bytes)

    bearer = HTTPBearer(auto_error=False, description="The service token")

    def authenticated(credentials: HTTPAuthorizationCredentials | None = Depends(bearer)) -> None:  # noqa: B008
        if credentials is None or credentials.scheme.lower() != "bearer" or not secrets.compare_digest(
            credentials.credentials.encode(), token
        ):
            raise HTTPException(401, "missing or wrong service token (Authorization: Bearer <token>)",
                                headers={"WWW-Authenticate": "Bearer"})

    answer_405_with_every_method(app)

    @app.exception_handler(RequestValidationError)
    async def invalid(_request: Request, error: RequestValidationError) -> JSONResponse:
        return validation_response(error)

    @app.exception_handler(ServiceError)
    async def refused(_request: Request, error: ServiceError) -> JSONResponse:
        return JSONResponse({"detail": error.detail}, status_code=error.status)

    @app.exception_handler(SQLAlchemyError)
    async def database(_request: Request, error: SQLAlchemyError) -> JSONResponse:
        reason = str(getattr(error, "orig", None) or error).strip().splitlines()
        return JSONResponse({"detail": f"database unavailable: {reason[0] if reason else type(error).__name__}"},
                            status_code=503)

    @app.get("/healthz", response_model=Health, tags=["health"], responses={503: ERRORS[503]})
    def healthz() -> Health:
        service.ping()
        return Health(status="ok", database="ok")

    v1 = APIRouter(prefix="/v1", dependencies=[Depends(authenticated)], responses=ERRORS, tags=["steps"])

    @v1.post("/steps/lookup", response_model=StepsBySignature, summary="The known steps among the signatures")
    def lookup(body: LookupRequest) -> StepsBySignature:
        return StepsBySignature(steps=service.lookup(body.origin, body.signatures))

    @v1.post("/steps", response_model=StepsBySignature,
             summary="Register steps (idempotent); counts one use of each by the project",
             responses={409: {"model": ErrorBody, "description": "A step's key differs from its definition's "
                                                                 "signature, or one signature has two definitions"}})
    def register(body: RegisterRequest) -> StepsBySignature:
        for i, step in enumerate(body.steps):
            if step.signature is not None and step.signature != step.definition.signature:
                raise Conflict(f"steps[{i}].definition.signature",
                               f"{step.definition.signature!r} differs from the key steps[{i}].signature "
                               f"{step.signature!r}")
        steps = [NewStep(definition=s.definition, code=s.code) for s in body.steps]
        return StepsBySignature(steps=service.register(body.project, body.origin, steps))

    @v1.get("/steps/{step_id:int}", response_model=RegisteredStep, summary="One step",
            responses={404: {"model": ErrorBody}})
    def step(step_id: Annotated[int, Path(ge=1, le=MAX_ID)]) -> RegisteredStep:
        return service.step(step_id)

    @v1.get("/steps/{step_id:int}/users", response_model=StepUsers, summary="The projects using one step version",
            responses={404: {"model": ErrorBody}})
    def users(step_id: Annotated[int, Path(ge=1, le=MAX_ID)]) -> StepUsers:
        found = service.step(step_id)
        return StepUsers(
            step_id=found.id, origin=found.origin, signature=found.signature, version=found.version,
            superseded_by=service.superseded_by(step_id),
            users=[Use(project=p, uses=n) for p, n in service.users(step_id).items()],
        )

    @v1.get("/origins/steps", response_model=StepList, summary="An origin's steps, with usage counts")
    def origin_steps(
        origin: Annotated[Origin, Query()],
        after: Annotated[int, Query(ge=0, le=MAX_ID, description="Only steps with a greater id")] = 0,
        limit: Annotated[int, Query(ge=1, le=MAX_PAGE)] = 1000,
    ) -> StepList:
        found = service.origin_steps(origin, after=after, limit=limit)
        return StepList(steps=found, next_after=found[-1].id if len(found) == limit else None)

    @v1.get("/projects/{project}/steps", response_model=StepList, summary="The steps a project uses",
            responses={404: {"model": ErrorBody, "description": "Unknown project"}})
    def project_steps(
        project: Annotated[Project, Path()],
        origin: Annotated[Origin | None, Query()] = None,
        after: Annotated[int, Query(ge=0, le=MAX_ID)] = 0,
        limit: Annotated[int, Query(ge=1, le=MAX_PAGE)] = 1000,
    ) -> StepList:
        found = service.project_steps(project, origin=origin, after=after, limit=limit)
        return StepList(steps=found, next_after=found[-1].id if len(found) == limit else None)

    app.include_router(v1)
    _document_no_nul(app)
    return app


NO_NUL_PATTERN = r"^[^\x00]*$"


def _document_no_nul(app: FastAPI) -> None:
    """PostgreSQL stores no NUL character, so a step holding one is a 422: every string of the OpenAPI document
    without a pattern of its own says so."""
    generate = app.openapi

    def mark(node: Any) -> None:
        if isinstance(node, dict):
            if node.get("type") == "string" and "pattern" not in node and "enum" not in node and "const" not in node:
                node["pattern"] = NO_NUL_PATTERN
            for value in node.values():
                mark(value)
        elif isinstance(node, list):
            for value in node:
                mark(value)

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is None:
            mark(generate()["components"]["schemas"])
        return app.openapi_schema

    app.openapi = openapi  # type: ignore[method-assign]
