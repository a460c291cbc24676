"""Artifact routes answer an impossible key with 404 or 422, never 500, and list download URLs, never paths."""

from __future__ import annotations

import pytest

from shared.store import claim_job, engine_for
from tests.service.conftest import new_job
from workers.service.scenario_job import claim_store

pytestmark = pytest.mark.service  # its tier (tests/conftest.py)

RUN = "OWN-1/attempt-1/run.json"


@pytest.fixture(scope="module")
def job(client, settings, petclinic):
    project, batch_id, job_id = new_job(client, settings, petclinic)
    claim = claim_job(engine_for(settings.database_url), job_id, "worker-a", lease_s=60)
    claim_store(client.app.state.services.store(), claim).put_bytes(RUN, b"{}", "application/json")
    return project, f"/v1/batches/{batch_id}/jobs/{job_id}/artifacts"


@pytest.mark.parametrize(("key", "status"), [
    ("OWN-1", 404),  # a folder
    ("OWN-1/attempt-1", 404),
    (RUN + "/deeper", 404),  # a path through a file
    ("k" * 5000, 422),
    ("x/" + "y" * 300, 422),
])
def test_an_impossible_key_is_a_clear_4xx(client, job, key, status):
    project, route = job
    response = client.get(f"{route}/{key}", headers=project.headers)
    assert response.status_code == status, response.text
    assert "detail" in response.json() or "error" in response.json()


def test_the_listing_gives_download_urls_never_server_paths(client, job):
    project, route = job
    listed = client.get(route, headers=project.headers).json()
    urls = [artifact["url"] for artifact in listed["artifacts"]]
    assert urls and all(url.startswith(("http://", "https://", "/v1/")) for url in urls), urls
    assert not any("file:" in url for url in urls)
