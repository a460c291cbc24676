"""What the API's routes depend on: the shared services, a database session, the caller's project or the admin
token, and ApiError (a 4xx with a detail naming the field)."""

from __future__ import annotations

import contextlib
import secrets
import threading
from collections.abc import Iterator
from typing import Annotated

import cachetools
from fastapi import Depends, Path, Request
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from sqlmodel import Session

from shared.artifacts import ArtifactStore, open_artifact_store
from shared.job_queue import make_celery, send_events, send_suites
from shared.models import Project
from shared.service_settings import ServiceSettings
from shared.store import engine_for, hash_key, project_by_hash, project_id_by_hash
from shared.urls import TargetPolicy, UnsafeTargetError

KEYS_REMEMBERED = 10_000
KEY_REMEMBERED_S = 60


class ApiError(Exception):
    def __init__(self, status: int, detail: str, headers: dict[str, str] | None = None) -> None:
        super().__init__(detail)
        self.status, self.detail, self.headers = status, detail, headers


def not_found(what: str) -> ApiError:
    return ApiError(404, f"{what} not found")


class Services:
    """What the routes share: the settings, the database engine, the task sender, and (made on first use) the
    artifact store and the step registry."""

    def __init__(self, settings: ServiceSettings) -> None:
        self.settings = settings
        self.engine = engine_for(settings.database_url, pool_size=settings.db_pool_size,
                                 max_overflow=settings.db_max_overflow)
        # Reads without BEGIN/ROLLBACK: each statement sees the latest committed rows (two round trips less).
        self.reading_engine = self.engine.execution_options(isolation_level="AUTOCOMMIT")
        self.celery = make_celery(settings)
        # Which project each API key (by hash) belongs to, remembered for a minute: a key is made with its project
        # and never changes, so this only spares the polling routes their key lookup. Wrong keys are not kept.
        self._key_projects: cachetools.TTLCache[str, int] = cachetools.TTLCache(maxsize=KEYS_REMEMBERED,
                                                                                ttl=KEY_REMEMBERED_S)
        self._key_lock = threading.Lock()
        self._store: ArtifactStore | None = None

    def session(self, *, read_only: bool = False) -> Session:
        """A session for one request's work; read_only: autocommit, for routes that only read."""
        return Session(self.reading_engine if read_only else self.engine, expire_on_commit=False)

    def remembered_project(self, key_hash: str) -> int | None:
        with self._key_lock:
            return self._key_projects.get(key_hash)

    def remember_project(self, key_hash: str, project_id: int) -> None:
        with self._key_lock:
            self._key_projects[key_hash] = project_id

    def store(self) -> ArtifactStore:
        if self._store is None:
            self._store = open_artifact_store(self.settings)
        return self._store

    def send_suites(self, session: Session, batch_ids: list[int]) -> int:
        """Send the build of finished batches' suites: one connection, one try, STEPFORGE_ENQUEUE_BUDGET_S for them
        all, so a broker that is down never holds the request; what is not sent stays unsent and beat's sweep sends
        it. How many were sent."""
        return send_suites(self.celery, session, batch_ids, budget_s=self.settings.enqueue_budget_s)

    def send_events(self, session: Session, event_ids: list[str]) -> int:
        """Send committed webhook events, as send_suites sends."""
        return send_events(self.celery, session, event_ids, budget_s=self.settings.enqueue_budget_s)

    def check_url(self, field: str, url: str) -> str:
        try:
            return TargetPolicy.of(self.settings).check_url(url)
        except UnsafeTargetError as error:
            raise ApiError(422, f"{field}: {error}") from None

    def check_brain(self, brain: str | None) -> None:
        if brain == "openai" and not self.settings.model_base_url:
            raise ApiError(422, "brain: the openai brain needs a model endpoint on the service "
                                "(STEPFORGE_MODEL_BASE_URL); use builtin")

    def check_reset(self, reset_url: str | None, reset_command: str | None) -> None:
        """A project resets by a request or by a named command, not both; the name is one the operator
        configured."""
        if reset_url and reset_command:
            raise ApiError(422, "reset_url: give reset_url or reset_command, not both")
        if reset_url:
            self.check_url("reset_url", reset_url)
        if reset_command and reset_command not in self.settings.reset_commands:
            known = ", ".join(sorted(self.settings.reset_commands)) or "none"
            raise ApiError(422, f"reset_command: no reset command named {reset_command!r} is configured on the "
                                f"service (STEPFORGE_RESET_COMMANDS names: {known})")

    def check_step_writer(self, field: str, step_writer: str | None) -> None:
        if step_writer == "model" and not self.settings.model_base_url:
            raise ApiError(422, f"{field}: the model step writer needs a model endpoint on the service "
                                "(STEPFORGE_MODEL_BASE_URL); use builtin")

    def close(self) -> None:
        """Nothing of the API's own to close (engines are shared per URL)."""


# Dependencies that do no I/O are async: FastAPI runs a sync dependency in a pool thread of its own, and a request
# whose key check, route and session clean-up each took a thread hop paid for three of them.


async def get_services(request: Request) -> Services:
    return request.app.state.services


ServicesDep = Annotated[Services, Depends(get_services)]
bearer = HTTPBearer(auto_error=False, description="The project's API key (the admin token for POST /v1/projects)")
Credentials = Annotated[HTTPAuthorizationCredentials | None, Depends(bearer)]


class Caller:
    """The request's API key, not yet checked. A route checks it with ``project_session()``, in the route's own
    thread and on the session it then uses: one pool thread and one database connection per request, never a
    connection held while the request waits for a thread."""

    def __init__(self, services: Services, credentials: HTTPAuthorizationCredentials | None) -> None:
        self.services = services
        self.credentials = credentials

    @contextlib.contextmanager
    def project_session(self, *, read_only: bool = False) -> Iterator[tuple[Project, Session]]:
        """The key's project and a session (read_only: autocommit, see Services.session); 401 for a wrong key."""
        with self.services.session(read_only=read_only) as session:
            key_hash = self._key_hash()
            known = self.services.remembered_project(key_hash)
            project = session.get(Project, known) if known is not None else project_by_hash(session, key_hash)
            if project is None:
                raise self._unauthorized()
            self.services.remember_project(key_hash, project.id)
            yield project, session

    @contextlib.contextmanager
    def project_id_session(self, *, read_only: bool = False) -> Iterator[tuple[int, Session]]:
        """As project_session, for routes that need only the project's id: no query for a key seen lately."""
        with self.services.session(read_only=read_only) as session:
            key_hash = self._key_hash()
            project_id = self.services.remembered_project(key_hash)
            if project_id is None:
                project_id = project_id_by_hash(session, key_hash)
                if project_id is None:
                    raise self._unauthorized()
                self.services.remember_project(key_hash, project_id)
            yield project_id, session

    def _key_hash(self) -> str:
        if self.credentials is None:
            raise self._unauthorized()
        return hash_key(self.credentials.credentials)

    @staticmethod
    def _unauthorized() -> ApiError:
        return ApiError(401, "missing or wrong API key (Authorization: Bearer <api key>)",
                        {"WWW-Authenticate": "Bearer"})


async def get_caller(services: ServicesDep, credentials: Credentials) -> Caller:
    return Caller(services, credentials)


CallerDep = Annotated[Caller, Depends(get_caller)]


async def require_admin(credentials: Credentials, services: ServicesDep) -> None:
    token = services.settings.admin_token
    if token is None:
        raise ApiError(401, "project creation is disabled: STEPFORGE_ADMIN_TOKEN is not set")
    if credentials is None or not secrets.compare_digest(credentials.credentials.encode(),
                                                         token.get_secret_value().encode()):
        raise ApiError(401, "missing or wrong admin token (Authorization: Bearer <admin token>)",
                       {"WWW-Authenticate": "Bearer"})


IdPath = Annotated[int, Path(ge=1, le=2**31 - 1)]
# Stored or looked up in text columns: no control characters (PostgreSQL refuses NUL), no surrogates.
EventIdPath = Annotated[str, Path(max_length=64, pattern=r"^[A-Za-z0-9_]+$")]
