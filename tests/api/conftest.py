"""The fast in-process API tier: the service's routes answered by FastAPI's TestClient on SQLite (the embedded
database, migrated with the project's migrations), the jobs sent to an in-memory broker nobody consumes, the
artifacts in a local folder. For route behaviour that needs no worker, no PostgreSQL and no Redis: validation,
permissions, reads, pagination. What needs a worker or PostgreSQL's own behaviour stays in tests/service/."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from api.app import create_app
from shared.migrate import upgrade
from shared.service_settings import ServiceSettings
from tests.apps.petclinic import serve_in_thread
from tests.service.conftest import ADMIN_TOKEN, SECRETS_KEY


@pytest.fixture(scope="session")
def settings(tmp_path_factory: pytest.TempPathFactory) -> ServiceSettings:
    folder = tmp_path_factory.mktemp("api-tier")
    url = f"sqlite:///{folder / 'service.db'}"
    upgrade(url)
    return ServiceSettings(database_url=url, broker_url="memory://", admin_token=ADMIN_TOKEN,
                           allow_private_targets=True,  # the demo application is on 127.0.0.1
                           artifacts_dir=folder / "artifacts", max_batch_scenarios=10, max_body_bytes=64 * 1024,
                           secrets_key=SECRETS_KEY)


@pytest.fixture(scope="session")
def client(settings: ServiceSettings) -> TestClient:
    with TestClient(create_app(settings)) as running:
        yield running


@pytest.fixture(scope="session")
def petclinic() -> str:
    """The demo's address (served, never browsed: a project's base_url)."""
    base_url, stop = serve_in_thread()
    yield base_url
    stop()
