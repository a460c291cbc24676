"""GET /healthz."""

from __future__ import annotations

from sqlalchemy import text

from api import schemas
from api.deps import (
    ServicesDep,
)
from api.routes.common import ERRORS, health_router


@health_router.get("/healthz", response_model=schemas.Health, responses={503: ERRORS[503]})
def healthz(services: ServicesDep) -> schemas.Health:
    with services.session(read_only=True) as session:
        session.execute(text("SELECT 1"))
        return schemas.Health(status="ok", database="ok")
