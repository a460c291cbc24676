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
from contextlib import asynccontextmanager
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, RedirectResponse, Response
from starlette.exceptions import HTTPException as StarletteHTTPException
from sqlalchemy.exc import (
    DataError,
    DisconnectionError,
    IntegrityError,
    InterfaceError,
    OperationalError,
    SQLAlchemyError,
)
from sqlalchemy.exc import TimeoutError as PoolTimeoutError

from api.deps import (
    ApiError,
    Services,
)
from api.http import BodyLimit, answer_405_with_every_method, http_error, validation_response
from api.routes import artifacts, batches, health, jobs, projects, scenarios, webhooks  # noqa: F401 - they register
from api.routes.common import UNION_TAGS, health_router, v1
from api.ui import error_page
from api.ui import router as dashboard
from api.ui.auth import SignInNeeded, sign_in_url
from shared.artifacts import ArtifactStoreError
from shared.logging import configure_logging, log
from shared.service_settings import ServiceSettings, get_service_settings
from shared.store import (
    Conflict,
)


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
    app.include_router(health_router)
    app.include_router(v1)
    app.include_router(dashboard)
    _document_limits(app, settings)
    return app


def _document_limits(app: FastAPI, settings: ServiceSettings) -> None:
    """The OpenAPI document states this deployment's batch size limit (a bigger batch is a 422) and the names of
    its reset commands (another name is a 422)."""
    generate = app.openapi

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is None:
            document = generate()
            schemas = document["components"]["schemas"]
            schemas["BatchCreate"]["properties"]["scenarios"]["maxItems"] = settings.max_batch_scenarios
            reset = schemas["ProjectCreate"]["properties"]["reset_command"]
            named = [{**branch, "enum": sorted(settings.reset_commands)} for branch in reset["anyOf"]
                     if branch.get("type") == "string" and settings.reset_commands]
            reset["anyOf"] = [*named, *(b for b in reset["anyOf"] if b.get("type") != "string")]
        return app.openapi_schema

    app.openapi = openapi  # type: ignore[method-assign]


def _error_handlers(app: FastAPI) -> None:
    answer_405_with_every_method(app)

    @app.exception_handler(StarletteHTTPException)
    async def http_problem(request: Request, error: StarletteHTTPException) -> Response:
        if _dashboard(request):
            return error_page(request, error.status_code, str(error.detail))
        return await http_error(request, error)

    @app.exception_handler(RequestValidationError)
    async def invalid(request: Request, error: RequestValidationError) -> Response:
        answer = validation_response(error, UNION_TAGS, shown=5)
        if _dashboard(request):
            return error_page(request, 422, json.loads(answer.body)["detail"])
        return answer

    @app.exception_handler(ApiError)
    async def refused(request: Request, error: ApiError) -> Response:
        return _answer(request, error.status, error.detail, error.headers)

    @app.exception_handler(SignInNeeded)
    async def sign_in_first(_request: Request, error: SignInNeeded) -> Response:
        return RedirectResponse(sign_in_url(error.back_to), status_code=303)

    @app.exception_handler(Conflict)
    async def conflict(request: Request, error: Conflict) -> Response:
        return _answer(request, 409, str(error))

    @app.exception_handler(SQLAlchemyError)
    async def database(request: Request, error: SQLAlchemyError) -> Response:
        status, detail = database_problem(error)
        if status >= 500:
            log.warning("api.database_error", status=status, kind=type(error).__name__, error=_driver_message(error))
        return _answer(request, status, detail)

    @app.exception_handler(ArtifactStoreError)
    async def storage(request: Request, error: ArtifactStoreError) -> Response:
        log.warning("api.artifact_store_error", error=str(error))
        return _answer(request, 503, f"artifact store unavailable: {error}")


def _answer(request: Request, status: int, detail: str, headers: dict[str, str] | None = None) -> Response:
    """An error as the API answers it (JSON {"detail": ...}), or as a page on the dashboard."""
    if _dashboard(request):
        return error_page(request, status, detail)
    return JSONResponse({"detail": detail}, status_code=status, headers=headers)


def _dashboard(request: Request) -> bool:
    return request.url.path == "/ui" or request.url.path.startswith("/ui/")


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
