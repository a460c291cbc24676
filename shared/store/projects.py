"""Projects and their API keys (only a key's hash is stored)."""

from __future__ import annotations

import hashlib
import re
import secrets

from sqlmodel import Session, select

from shared.models import (
    Project,
)
from shared.store.sessions import API_KEY_PREFIX


def hash_key(api_key: str) -> str:
    return hashlib.sha256(api_key.encode()).hexdigest()


def create_project(session: Session, **fields: object) -> tuple[Project, str]:
    """A new project and its API key (returned once; only its hash is stored)."""
    api_key = API_KEY_PREFIX + secrets.token_urlsafe(32)
    project = Project(api_key_hash=hash_key(api_key), **fields)
    session.add(project)
    session.commit()
    session.refresh(project)
    return project, api_key


def project_by_hash(session: Session, key_hash: str) -> Project | None:
    return session.exec(select(Project).where(Project.api_key_hash == key_hash)).first()


def project_id_by_hash(session: Session, key_hash: str) -> int | None:
    return session.exec(select(Project.id).where(Project.api_key_hash == key_hash)).first()


def registry_project(project: Project) -> str:
    """The project's name in the step registry (1-100 of A-Z a-z 0-9 _ . -), unique by id."""
    slug = re.sub(r"[^A-Za-z0-9_.-]+", "-", project.name).strip("-.")[:80] or "project"
    return f"{slug}-{project.id}"
