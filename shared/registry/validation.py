"""Input checks shared by the HTTP routes and the in-process registry. Each names the field it rejects."""

from __future__ import annotations

import re

from shared.step_registry import origin_of

PROJECT_RE = re.compile(r"[A-Za-z0-9_.-]{1,100}")
SIGNATURE_RE = re.compile(r"[0-9a-f]{16,64}")
# A canonical origin: lower-case http(s)://host[:port], the host of letters, digits, dots and hyphens, no default
# port. The OpenAPI document states it as this pattern (pydantic's regex engine has no look-ahead, so it is
# checked here).
PORT_PATTERN = r"(?:[1-9][0-9]{0,3}|[1-5][0-9]{4}|6[0-4][0-9]{3}|65[0-4][0-9]{2}|655[0-2][0-9]|6553[0-5])"
ORIGIN_PATTERN = (rf"^(?:http://[a-z0-9.-]+(?::(?!80$){PORT_PATTERN})?"
                  rf"|https://[a-z0-9.-]+(?::(?!443$){PORT_PATTERN})?)$")
ORIGIN_RE = re.compile(ORIGIN_PATTERN)
MAX_LOOKUP = 1000
MAX_REGISTER = 500
MAX_PATTERN = 4000
MAX_CODE = 200_000


class ServiceError(Exception):
    status = 400

    def __init__(self, detail: str) -> None:
        super().__init__(detail)
        self.detail = detail


class InvalidInput(ServiceError):
    status = 422

    def __init__(self, field: str, message: str) -> None:
        super().__init__(f"{field}: {message}")
        self.field = field


class Conflict(InvalidInput):
    """Two parts of the request disagree (a key and its definition, one signature with two definitions): a
    contradiction no schema can describe, so not a 422."""

    status = 409


class NotFound(ServiceError):
    status = 404


def _show(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 80 else text[:77] + "..."


def check_origin(origin: object, field: str = "origin") -> str:
    if not isinstance(origin, str):
        raise InvalidInput(field, f"must be a string, got {_show(origin)}")
    try:
        canonical = origin_of(origin)
    except ValueError:
        raise InvalidInput(field, f"{_show(origin)} is not an http(s) origin (scheme://host[:port])") from None
    if canonical != origin:
        raise InvalidInput(field, f"{_show(origin)} is not a canonical origin: use {canonical!r} "
                                  "(lower-case scheme://host[:port], no default port, path, query or trailing slash)")
    if not ORIGIN_RE.fullmatch(origin):
        raise InvalidInput(field, f"{_show(origin)} is not an http(s) origin: its host may hold only letters, digits, "
                                  "dots and hyphens")
    return origin


def check_project(project: object, field: str = "project") -> str:
    if not isinstance(project, str) or not PROJECT_RE.fullmatch(project):
        raise InvalidInput(field, f"{_show(project)} is not a project name (1-100 characters of A-Z a-z 0-9 _ . -)")
    return project


def check_signature(signature: object, field: str = "signature") -> str:
    if not isinstance(signature, str) or not SIGNATURE_RE.fullmatch(signature):
        raise InvalidInput(field, f"{_show(signature)} is not a signature (16-64 lower-case hex characters)")
    return signature
