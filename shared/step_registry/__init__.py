"""The step registry as the rest of stepforge sees it, the port: one small interface, two adapters.

A step is keyed by (application origin, signature): the signature hashes its keyword and the ordered
(locator identity, action kind) pairs of its operations, input values ignored. Projects that test the
same origin share steps; other origins never see them.

- `shared.step_registry.http.HttpStepRegistry` (workers, over HTTP to the registry service, with timeouts
  and retries) and
- the in-process registry of embedded mode (`shared.registry.local.LocalStepRegistry`, SQL)
both implement `StepRegistry`; `open_step_registry(settings)` (factory.py) picks one.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol
from urllib.parse import urlsplit

from pydantic import BaseModel, Field

from shared.records import StepDefinition


class NewStep(BaseModel):
    """A step definition to register, with its JavaScript body as the suite renders it."""

    definition: StepDefinition
    code: str


class RegisteredStep(BaseModel):
    """A step as the registry holds it."""

    id: int
    origin: str
    signature: str
    version: int = 1  # a step whose wording stays but whose locators change gets the next version
    supersedes: int | None = None  # id of the previous version
    definition: StepDefinition
    code: str
    created_by: str  # project that registered it first
    usage: dict[str, int] = Field(default_factory=dict)  # project -> registrations (uses)


class RegistryError(RuntimeError):
    """The registry could not be reached or refused the request; the message says which and why."""


class StepRegistry(Protocol):
    def lookup(self, origin: str, signatures: Sequence[str]) -> dict[str, RegisteredStep]:
        """The known steps among the signatures, for this origin only (unknown ones are absent)."""
        ...

    def register(self, project: str, origin: str, steps: Sequence[NewStep]) -> dict[str, RegisteredStep]:
        """Idempotent: a signature already known returns the existing step; many callers, one step.
        Counts one use of each step by the project."""
        ...

    def steps(self, *, origin: str | None = None, project: str | None = None) -> list[RegisteredStep]:
        """An origin's steps, or the steps a project uses, with usage counts."""
        ...

    def close(self) -> None:
        """Release connections (an HTTP pool, a database engine)."""
        ...


def origin_of(url: str) -> str:
    """scheme://host[:port], lower-case: the key under which steps are shared."""
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise ValueError(f"{url!r} has no http(s) origin")
    default = {"http": 80, "https": 443}[parts.scheme]
    port = f":{parts.port}" if parts.port and parts.port != default else ""
    return f"{parts.scheme}://{parts.hostname.lower()}{port}"
