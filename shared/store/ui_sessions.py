"""Dashboard sign-ins: a session per browser, holding the projects whose API keys were given in it (only the
token's hash is stored; the browser keeps the token in an HTTP-only cookie)."""

from __future__ import annotations

import secrets
from datetime import timedelta

from sqlalchemy import delete
from sqlmodel import Session, col

from shared.models import UiSession, as_utc, utcnow
from shared.store.projects import hash_key


def open_ui_session(session: Session, project_id: int, *, hours: float, token: str | None = None
                    ) -> tuple[UiSession, str]:
    """Sign a project in: a new session (a new token and CSRF token, whatever the browser sent) holding this project
    and, when `token` is the browser's live session, that session's projects too, which it replaces (its token opens
    nothing any more: a token planted in a browser before its sign-in never gains the projects signed in after).
    Expired sessions are deleted on the way."""
    now = utcnow()
    session.exec(delete(UiSession).where(col(UiSession.expires_at) < now))  # type: ignore[call-overload]
    earlier = find_ui_session(session, token) if token else None
    projects = [*earlier.project_ids] if earlier is not None else []
    if earlier is not None:
        session.delete(earlier)
    new_token = secrets.token_urlsafe(32)
    row = UiSession(id=hash_key(new_token), project_ids=[*projects, project_id] if project_id not in projects
                    else projects, csrf_token=secrets.token_urlsafe(32), expires_at=now + timedelta(hours=hours))
    session.add(row)
    session.commit()
    session.refresh(row)
    return row, new_token


def find_ui_session(session: Session, token: str) -> UiSession | None:
    """The signed-in session of this token; None when there is none or it expired."""
    row = session.get(UiSession, hash_key(token))
    if row is None or as_utc(row.expires_at) <= utcnow():
        return None
    return row


def close_ui_session(session: Session, token: str) -> None:
    """Sign out: the token opens nothing from now on."""
    session.exec(delete(UiSession).where(col(UiSession.id) == hash_key(token)))  # type: ignore[call-overload]
    session.commit()
