"""Who is looking at the dashboard: a sign-in with a project's API key becomes a session (shared/store/ui_sessions)
whose token the browser keeps in an HTTP-only, SameSite=Lax cookie scoped to /ui/. A session may hold several
projects (each signed in with its own key); a project outside it is a 404, as another project's ids are on /v1.

Every form carries a CSRF token: the session's own once signed in; before that (the sign-in form) a random value
also set as a cookie, which the form must repeat (double submit). A form whose token does not match is a 403.
"""

from __future__ import annotations

import contextlib
import secrets
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Annotated
from urllib.parse import quote, urlsplit

from fastapi import Depends, Request, Response
from sqlmodel import Session

from api.deps import ApiError, Services, ServicesDep, not_found
from shared.models import Project
from shared.store import find_ui_session

SESSION_COOKIE = "stepforge_session"
SIGN_IN_COOKIE = "stepforge_sign_in"  # the sign-in form's CSRF value, before there is a session
COOKIE_PATH = "/ui"


class SignInNeeded(Exception):
    """The page needs a signed-in session: the browser is sent to the sign-in form, and back here after it."""

    def __init__(self, back_to: str) -> None:
        super().__init__(back_to)
        self.back_to = back_to


@dataclass(frozen=True)
class Viewer:
    """A signed-in browser: its token (the cookie), its projects and its CSRF token."""

    token: str
    project_ids: tuple[int, ...]
    csrf_token: str

    def caller(self, services: Services, project_id: int) -> ProjectCaller:
        """The project's data as the /v1 routes read it, when this session holds it (else a 404)."""
        if project_id not in self.project_ids:
            raise not_found(f"project {project_id}")
        return ProjectCaller(services, project_id)

    def check_csrf(self, token: str | None) -> None:
        if not token or not secrets.compare_digest(token.encode(), self.csrf_token.encode()):
            raise ApiError(403, "csrf: the form is out of date or was not sent by the dashboard; reload the page")


class ProjectCaller:
    """The /v1 routes' Caller for a project of a signed-in session: the dashboard's downloads and acceptance call the
    same route functions the API serves (one implementation), with the project chosen by the session, not a key."""

    def __init__(self, services: Services, project_id: int) -> None:
        self.services = services
        self.project_id = project_id

    @contextlib.contextmanager
    def project_session(self, *, read_only: bool = False) -> Iterator[tuple[Project, Session]]:
        with self.services.session(read_only=read_only) as session:
            project = session.get(Project, self.project_id)
            if project is None:
                raise not_found(f"project {self.project_id}")
            yield project, session

    @contextlib.contextmanager
    def project_id_session(self, *, read_only: bool = False) -> Iterator[tuple[int, Session]]:
        with self.services.session(read_only=read_only) as session:
            yield self.project_id, session


def signed_in(request: Request, services: ServicesDep) -> Viewer:
    """The request's session; a browser without one is sent to sign in (SignInNeeded)."""
    token = request.cookies.get(SESSION_COOKIE)
    if token:
        with services.session(read_only=True) as session:
            row = find_ui_session(session, token)
        if row is not None:
            return Viewer(token=token, project_ids=tuple(row.project_ids), csrf_token=row.csrf_token)
    raise SignInNeeded(back_to_after_sign_in(request))


def back_to_after_sign_in(request: Request) -> str:
    """The page to come back to: this one; for a form sent once the session had ended (a POST), the page the form
    was on (its Referer, when it is one of the dashboard's), since the form's own URL takes no GET."""
    if request.method == "GET":
        return request.url.path + (f"?{request.url.query}" if request.url.query else "")
    referer = urlsplit(request.headers.get("referer", ""))
    same_site = referer.netloc == request.url.netloc
    return safe_back_to(referer.path + (f"?{referer.query}" if referer.query else "")) if same_site else "/ui/"


ViewerDep = Annotated[Viewer, Depends(signed_in)]


def optional_viewer(request: Request, services: Services) -> Viewer | None:
    try:
        return signed_in(request, services)
    except SignInNeeded:
        return None


def secure(request: Request, services: Services) -> bool:
    configured = services.settings.ui_secure_cookie
    return request.url.scheme == "https" if configured is None else configured


def set_session_cookie(response: Response, request: Request, services: Services, token: str) -> None:
    response.set_cookie(SESSION_COOKIE, token, max_age=int(services.settings.ui_session_hours * 3600),
                        path=COOKIE_PATH, httponly=True, samesite="lax", secure=secure(request, services))
    response.delete_cookie(SIGN_IN_COOKIE, path=COOKIE_PATH)


def clear_session_cookie(response: Response) -> None:
    response.delete_cookie(SESSION_COOKIE, path=COOKIE_PATH, httponly=True, samesite="lax")


def sign_in_token(request: Request) -> str:
    """The sign-in form's CSRF value: the browser's, or a new one (set as a cookie by sign_in_cookie)."""
    return request.cookies.get(SIGN_IN_COOKIE) or secrets.token_urlsafe(32)


def set_sign_in_cookie(response: Response, request: Request, services: Services, token: str) -> None:
    response.set_cookie(SIGN_IN_COOKIE, token, max_age=3600, path=COOKIE_PATH, httponly=True, samesite="strict",
                        secure=secure(request, services))


def check_sign_in_token(request: Request, token: str | None) -> None:
    expected = request.cookies.get(SIGN_IN_COOKIE)
    if not token or not expected or not secrets.compare_digest(token.encode(), expected.encode()):
        raise ApiError(403, "csrf: the sign-in form is out of date (or cookies are off); reload it and sign in again")


def safe_back_to(value: str | None) -> str:
    """Where to go after signing in: a dashboard page only (never another site)."""
    if value and value.startswith("/ui/") and not value.startswith("//") and "\\" not in value:
        return value
    return "/ui/"


def sign_in_url(back_to: str) -> str:
    return f"/ui/sign-in?next={quote(back_to, safe='/')}"
