"""LocalStepRegistry: the StepRegistry of embedded mode, in process, over the service layer (no HTTP)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TypeVar

from sqlalchemy.exc import SQLAlchemyError

from shared.db import make_engine
from shared.registry.service import RegistryService
from shared.registry.validation import ServiceError
from shared.step_registry import NewStep, RegisteredStep, RegistryError

T = TypeVar("T")

DEFAULT_DATABASE_URL = "sqlite:///" + str(Path.home() / ".cache" / "stepforge" / "registry.sqlite3")


class LocalStepRegistry:
    """StepRegistry on a database of its own (SQLite by default; PostgreSQL works too)."""

    def __init__(self, database_url: str = DEFAULT_DATABASE_URL) -> None:
        self.database_url = database_url
        try:
            self.service = RegistryService(make_engine(database_url))
            self.service.create_tables()
        except (SQLAlchemyError, ValueError) as error:
            raise RegistryError(f"step registry database {_safe(database_url)} unusable: {_first_line(error)}") from error

    def lookup(self, origin: str, signatures: Sequence[str]) -> dict[str, RegisteredStep]:
        return self._call("lookup", lambda: self.service.lookup(origin, list(signatures)))

    def register(self, project: str, origin: str, steps: Sequence[NewStep]) -> dict[str, RegisteredStep]:
        return self._call("register", lambda: self.service.register(project, origin, list(steps)))

    def steps(self, *, origin: str | None = None, project: str | None = None) -> list[RegisteredStep]:
        if project is not None:
            return self._call("steps", lambda: self.service.project_steps(project, origin=origin))
        if origin is not None:
            return self._call("steps", lambda: self.service.origin_steps(origin))
        raise RegistryError("steps: give an origin or a project")

    def users(self, step_id: int) -> dict[str, int]:
        return self._call("users", lambda: self.service.users(step_id))

    def close(self) -> None:
        self.service.close()

    def __enter__(self) -> LocalStepRegistry:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.close()

    def _call(self, what: str, work: Callable[[], T]) -> T:
        try:
            return work()
        except ServiceError as error:
            raise RegistryError(f"step registry refused {what}: {error.detail}") from error
        except SQLAlchemyError as error:
            raise RegistryError(f"step registry {what} failed on {_safe(self.database_url)}: "
                                f"{_first_line(error)}") from error


def _first_line(error: BaseException) -> str:
    text = str(getattr(error, "orig", None) or error).strip()
    return text.splitlines()[0] if text else type(error).__name__


def _safe(url: str) -> str:
    from sqlalchemy.engine import make_url

    try:
        return make_url(url).render_as_string(hide_password=True)
    except Exception:  # noqa: BLE001
        return "(unparsable URL)"
