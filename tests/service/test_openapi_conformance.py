"""The service API's OpenAPI document and what the API accepts agree: schemathesis, with every check, against the
API served by uvicorn on loopback, authenticated as a project (tests/conformance.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from api.app import create_app
from tests.conformance import failures, schemathesis
from tests.registry.helpers import ServerThread
from tests.service.conftest import new_project

pytestmark = pytest.mark.service  # its tier (tests/conftest.py)


def test_the_service_api_accepts_what_its_openapi_document_allows(settings, client, petclinic, tmp_path: Path) -> None:
    project = new_project(client, petclinic)
    # No worker takes these jobs; the openai brain may be chosen (its endpoint is not called by the API).
    own = settings.model_copy(update={"queue": f"{settings.queue}-schemathesis",
                                      "model_base_url": "http://127.0.0.1:9/v1"})
    with ServerThread(create_app(own)) as server:
        run = schemathesis(server.url, project.api_key, tmp_path)
    assert run.returncode == 0, failures(run)
