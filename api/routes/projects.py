"""Projects: create (admin token), read and update the key's own."""

from __future__ import annotations

from fastapi import Depends

from api import schemas
from api.deps import (
    ApiError,
    CallerDep,
    Services,
    ServicesDep,
    require_admin,
)
from api.routes.common import public, v1
from shared.logging import log
from shared.models import utcnow
from shared.store import (
    create_project,
)
from shared.secrets import SecretsKeyError, encrypt
from shared.webhooks import new_secret

NO_SECRETS_KEY = "report_to was given, but the service has no STEPFORGE_SECRETS_KEY to encrypt its secret with"


@v1.post("/projects", response_model=schemas.ProjectCreated, status_code=201, tags=["projects"],
         dependencies=[Depends(require_admin)], summary="Create a project (admin token); its API key is shown once",
         responses={503: {"model": schemas.ErrorBody, "description": NO_SECRETS_KEY}})
def create_project_route(body: schemas.ProjectCreate, services: ServicesDep) -> schemas.ProjectCreated:
    with services.session() as session:
        services.check_url("base_url", body.base_url)
        if body.webhook_url:
            services.check_url("webhook_url", body.webhook_url)
        services.check_brain(body.default_brain)
        services.check_step_writer("default_step_writer", body.default_step_writer)
        services.check_reset(body.reset_url, body.reset_command)
        secret = new_secret()
        report = report_fields(services, body.report_to)
        project, api_key = create_project(session, webhook_secret=secret, **body.model_dump(exclude={"report_to"}),
                                          **report)
        log.info("project.created", project_id=project.id)
        return schemas.ProjectCreated(project=public(project), api_key=api_key, webhook_secret=secret)


@v1.get("/projects/me", response_model=schemas.ProjectPublic, tags=["projects"], summary="The key's project")
def my_project(caller: CallerDep) -> schemas.ProjectPublic:
    with caller.project_session(read_only=True) as (project, _):
        return public(project)


@v1.patch("/projects/me", response_model=schemas.ProjectUpdated, tags=["projects"],
          summary="Change the project's settings; rotate its webhook secret",
          responses={503: {"model": schemas.ErrorBody, "description": NO_SECRETS_KEY}})
def update_project(body: schemas.ProjectUpdate, caller: CallerDep, services: ServicesDep) -> schemas.ProjectUpdated:
    with caller.project_session() as (project, session):
        updates = body.model_dump(exclude_unset=True, exclude={"rotate_webhook_secret", "report_to"})
        if "report_to" in body.model_fields_set:  # set again (or null): reporting enabled again, or stopped
            updates.update(report_fields(services, body.report_to), report_disabled_at=None,
                           report_disabled_reason=None)
        if updates.get("base_url"):
            services.check_url("base_url", updates["base_url"])
        if updates.get("webhook_url"):
            services.check_url("webhook_url", updates["webhook_url"])
        services.check_brain(updates.get("default_brain"))
        services.check_step_writer("default_step_writer", updates.get("default_step_writer"))
        services.check_reset(updates.get("reset_url"), None)
        for field, value in updates.items():
            setattr(project, field, value)
        if updates.get("reset_url"):  # a project has one reset: a request replaces the operator's command
            project.reset_command = None
        if "webhook_url" in updates:  # a webhook disabled by a 410 Gone is enabled again by setting its URL
            project.webhook_disabled_at = project.webhook_disabled_reason = None
        secret = new_secret() if body.rotate_webhook_secret else None
        if secret:
            project.webhook_secret = secret
        session.add(project)
        session.commit()
        return schemas.ProjectUpdated(project=public(project), webhook_secret=secret)


def report_fields(services: Services, report_to: schemas.ReportTo | None) -> dict:
    """The project's report_to columns: the target without its secret, and the secret encrypted (503 when the
    service has no key to encrypt it with)."""
    if report_to is None:
        return {"report_to": None, "report_secret": None}
    services.check_url("report_to.url", report_to.url)
    key = services.settings.secrets_key
    try:
        secret = encrypt(key.get_secret_value() if key else None, report_to.secret)
    except SecretsKeyError as error:
        raise ApiError(503, f"report_to: {error}; the operator sets it (see the README)") from None
    # set_at: from then on, answers 4xx count towards disabling it again (shared/store/outbox.py)
    target = {**report_to.model_dump(exclude={"secret"}, exclude_none=True), "set_at": utcnow().isoformat()}
    return {"report_to": target, "report_secret": secret}
