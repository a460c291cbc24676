"""Authentication, project isolation and bad input on every route; none of these needs the worker."""

from __future__ import annotations

import re
import uuid

import pytest

from shared.models import Outbox
from shared.scenarios import Scenario as ScenarioDefinition
from shared.store import create_batch, engine_for, jobs_of, new_event_id, upsert_scenario, writing
from tests.service.conftest import ADMIN_TOKEN, new_project

pytestmark = pytest.mark.service  # its tier (tests/conftest.py)

# Every /v1 route with a body good enough to get past validation; {batch}, {job} and {event} are filled in.
ROUTES = [
    ("GET", "/v1/projects/me", None),
    ("PATCH", "/v1/projects/me", {"name": "renamed"}),
    ("PUT", "/v1/scenarios/AUTH-1", {"title": "t", "steps": ["Go to /"]}),
    ("GET", "/v1/scenarios", None),
    ("GET", "/v1/scenarios/AUTH-1", None),
    ("DELETE", "/v1/scenarios/AUTH-1", None),
    ("POST", "/v1/batches", {"scenarios": [{"external_id": "AUTH-1"}]}),
    ("POST", "/v1/projects/me/regenerate", None),
    ("GET", "/v1/batches/{batch}", None),
    ("GET", "/v1/batches/{batch}/jobs/{job}/artifacts", None),
    ("GET", "/v1/batches/{batch}/jobs/{job}/artifacts/report.json", None),
    ("POST", "/v1/batches/{batch}/jobs/{job}/accept", None),
    ("GET", "/v1/batches/{batch}/suite.zip", None),
    ("GET", "/v1/batches/{batch}/changes", None),
    ("GET", "/v1/batches/{batch}/webhooks", None),
    ("POST", "/v1/webhooks/{event}/redeliver", None),
    ("GET", "/v1/batches/{batch}/junit.xml", None),
    ("GET", "/v1/batches/{batch}/cucumber.json", None),
    ("POST", "/v1/imports", None),
]
ROUTE_TEMPLATES = {
    "/v1/batches/{batch}/jobs/{job}/artifacts/report.json": "/v1/batches/{batch_id}/jobs/{job_id}/artifacts/{key}",
    "/v1/scenarios/AUTH-1": "/v1/scenarios/{external_id}",
}


@pytest.fixture(scope="module")
def owner(client, petclinic):
    return new_project(client, petclinic)


@pytest.fixture(scope="module")
def stranger(client, petclinic):
    return new_project(client, petclinic)


@pytest.fixture(scope="module")
def owned(settings, owner) -> dict[str, object]:
    """A batch, a job and an event of `owner`, written directly (no job is sent to a worker)."""
    engine = engine_for(settings.database_url)
    with writing(engine) as session:
        from shared.models import Project

        project = session.get(Project, owner.id)
        row, _ = upsert_scenario(session, owner.id, ScenarioDefinition(id="OWNED-1", title="t", steps=["Go to /"]))
        batch, _ = create_batch(session, project, idempotency_key=uuid.uuid4().hex, fingerprint="f",
                                scenarios=[row], base_url=project.base_url, brain="builtin", grounding="hte")
        event = Outbox(id=new_event_id(), project_id=owner.id, batch_id=batch.id, type="batch.completed",
                       payload={"type": "batch.completed", "data": {}})
        session.add(event)
        session.commit()
        return {"batch": batch.id, "job": jobs_of(session, batch.id)[0].id, "event": event.id}


def fill(path: str, ids: dict) -> str:
    return path.format(**ids)


def test_the_table_covers_every_v1_route(client):
    paths = client.get("/openapi.json").json()["paths"]
    served = {(method.upper(), path) for path, methods in paths.items() if path.startswith("/v1") for method in methods}
    listed = {(method, ROUTE_TEMPLATES.get(path, path).replace("{batch}", "{batch_id}").replace("{job}", "{job_id}")
               .replace("{event}", "{event_id}")) for method, path, _ in ROUTES}
    assert served - {("POST", "/v1/projects")} == listed


@pytest.mark.parametrize(("method", "path", "body"), ROUTES, ids=[f"{m} {p}" for m, p, _ in ROUTES])
def test_every_route_refuses_a_missing_or_wrong_key(client, owned, method, path, body):
    for headers in ({}, {"Authorization": "Bearer sfk_not-a-key"}, {"Authorization": f"Bearer {ADMIN_TOKEN}"}):
        response = client.request(method, fill(path, owned), json=body, headers={**headers, "Idempotency-Key": "k"})
        assert response.status_code == 401, (headers, response.text)
        assert "key" in response.json()["detail"]


def test_project_creation_needs_the_admin_token(client, owner, petclinic):
    for headers in ({}, owner.headers, {"Authorization": "Bearer wrong-admin-token-000000"}):
        response = client.post("/v1/projects", json={"name": "x", "base_url": petclinic}, headers=headers)
        assert response.status_code == 401, response.text


@pytest.mark.parametrize(("method", "path", "body"), [r for r in ROUTES if "{" in r[1]],
                         ids=[f"{m} {p}" for m, p, _ in ROUTES if "{" in p])
def test_another_projects_ids_are_not_found(client, owned, stranger, method, path, body):
    response = client.request(method, fill(path, owned), json=body, headers=stranger.headers)
    assert response.status_code == 404, response.text
    missing = client.request(method, fill(path, {"batch": 2**31 - 1, "job": 2**31 - 1, "event": "evt_none"}),
                             json=body, headers=stranger.headers)
    assert missing.status_code == 404, missing.text


def test_the_owner_sees_its_batch(client, owned, owner):
    response = client.get(f"/v1/batches/{owned['batch']}", headers=owner.headers)
    assert response.status_code == 200 and response.json()["counts"]["queued"] == 1
    assert client.get(f"/v1/batches/{owned['batch']}/suite.zip", headers=owner.headers).status_code == 409


def test_polling_a_batch_costs_one_statement_once_the_key_is_known(client, owned, owner):
    """The status route is what clients poll: its batch and jobs come in one statement, and a key seen within the
    last minute needs no lookup. The answer still says the counts and every job."""
    from sqlalchemy import event

    engine = client.app.state.services.engine
    statements: list[str] = []

    def count(_conn, _cursor, statement, *_args) -> None:
        statements.append(statement)

    client.get("/v1/projects/me", headers=owner.headers)  # the key is looked up, and remembered
    event.listen(engine, "before_cursor_execute", count)
    try:
        response = client.get(f"/v1/batches/{owned['batch']}", headers=owner.headers)
    finally:
        event.remove(engine, "before_cursor_execute", count)
    assert response.status_code == 200
    assert [job["external_id"] for job in response.json()["jobs"]] == ["OWNED-1"]
    assert len(statements) == 1 and "JOIN job" in statements[0], statements


def admin() -> dict[str, str]:
    return {"Authorization": f"Bearer {ADMIN_TOKEN}"}


@pytest.mark.parametrize(("body", "field"), [
    ({"base_url": "http://127.0.0.1:9"}, "name: Field required"),
    ({"name": "x", "base_url": "ftp://example.com/"}, "base_url: 'ftp://example.com/': only http and https"),
    ({"name": "x", "base_url": "http://169.254.169.254/"}, "base_url: 'http://169.254.169.254/': 169.254.169.254 is a"),
    ({"name": "x", "base_url": "http://127.0.0.1:9", "webhook_url": "http://metadata.google.internal/"},
     "webhook_url: 'http://metadata.google.internal/': cloud metadata"),
    # URLs parsers read differently: a browser reads host 127.0.0.1 where urllib reads 8.8.8.8; user-info; port 0
    ({"name": "x", "base_url": "http://127.0.0.1\\@8.8.8.8/"}, "base_url: 'http://127.0.0.1\\\\@8.8.8.8/': holds a backslash"),
    ({"name": "x", "base_url": "http://user:pw@8.8.8.8/"}, "base_url: 'http://user:pw@8.8.8.8/': a user name or password"),
    ({"name": "x", "base_url": "http://127.0.0.1:0/"}, "base_url: 'http://127.0.0.1:0/': port 0"),
    ({"name": "x", "base_url": "http://127.0.0.1:9", "webhook_url": "http://[fd00:ec2::254]/"},
     "webhook_url: 'http://[fd00:ec2::254]/': fd00:ec2::254 is a cloud metadata"),
    ({"name": "x", "base_url": "http://100.100.100.200/"}, "base_url: 'http://100.100.100.200/': 100.100.100.200 is a cloud"),
    ({"name": "x", "base_url": "http://127.0.0.1:9", "nightly_hour_utc": 24}, "nightly_hour_utc: Input should be"),
    ({"name": "x", "base_url": "http://127.0.0.1:9", "default_brain": "gpt"}, "default_brain: Input should be"),
    ({"name": "x", "base_url": "http://127.0.0.1:9", "surprise": 1}, "surprise: Extra inputs are not permitted"),
])
def test_bad_project_input_is_422_naming_the_field(client, body, field):
    response = client.post("/v1/projects", json=body, headers=admin())
    assert response.status_code == 422, response.text
    assert response.json()["detail"].startswith(field), response.json()["detail"]


@pytest.mark.parametrize(("path", "body", "field"), [
    ("/v1/scenarios/bad%20id", {"title": "t", "steps": ["Go to /"]}, "path parameter external_id: may hold only"),
    ("/v1/scenarios/OK-1", {"steps": ["Go to /"]}, "title: Field required"),
    ("/v1/scenarios/OK-1", {"title": "t"}, "body: needs 'steps'"),
    ("/v1/scenarios/OK-1", {"title": "t", "steps": ["Type <b> into Name"], "data": [{"a": "1"}]},
     "body: steps use <b> but 'data' has no such column"),
    ("/v1/scenarios/OK-1", {"title": "t", "steps": [{"expected": "x"}]}, "steps[0].action: Field required"),
])
def test_bad_scenarios_are_422_naming_the_field(client, owner, path, body, field):
    response = client.put(path, json=body, headers=owner.headers)
    assert response.status_code == 422, response.text
    assert response.json()["detail"].startswith(field), response.json()["detail"]


def inline(scenario_id: str, **fields: object) -> dict:
    return {"id": scenario_id, "title": "t", "steps": ["Go to /"], **fields}


@pytest.mark.parametrize(("body", "headers", "field"), [
    ({"scenarios": [inline("A")]}, {}, "header parameter Idempotency-Key: Field required"),
    ({"scenarios": []}, None, "body: give either 'scenarios' (a non-empty list) or 'source'"),
    ({"scenarios": [{"id": "A", "steps": ["Go to /"]}]}, None, "scenarios[0].title: Field required"),
    ({"scenarios": [inline("A", steps=[""])]}, None, "scenarios[0].steps[0].action: String should have at least"),
    ({"scenarios": [{"external_id": "A", "version": 0}]}, None, "scenarios[0].version: Input should be greater"),
    ({"scenarios": [inline("A")], "brain": "gpt"}, None, "brain: Input should be"),
    ({"scenarios": [inline("A")], "base_url": "file:///etc/passwd"}, None, "base_url: 'file:///etc/passwd': only"),
    ({"scenarios": [inline("A")], "base_url": "http://[fe80::1]/"}, None, "base_url: 'http://[fe80::1]/': fe80::1"),
    ({"scenarios": "OWN-1"}, None, "scenarios: Input should be a valid list"),
])
def test_bad_batches_are_422_naming_the_field(client, owner, body, headers, field):
    headers = {"Idempotency-Key": uuid.uuid4().hex} if headers is None else headers
    response = client.post("/v1/batches", json=body, headers={**owner.headers, **headers})
    assert response.status_code == 422, response.text
    assert response.json()["detail"].startswith(field), response.json()["detail"]


def test_too_many_scenarios_is_422_as_the_document_says_and_too_many_bytes_413(client, owner, settings):
    too_many = {"scenarios": [{"external_id": f"S-{i}"} for i in range(settings.max_batch_scenarios + 1)]}
    response = client.post("/v1/batches", json=too_many, headers={**owner.headers, "Idempotency-Key": "big"})
    assert response.status_code == 422
    scenarios = client.get("/openapi.json").json()["components"]["schemas"]["BatchCreate"]["properties"]["scenarios"]
    assert scenarios["maxItems"] == settings.max_batch_scenarios
    assert response.json()["detail"].startswith("scenarios: 11 scenarios exceed the limit of 10")
    huge = {"scenarios": [inline("A", title="x" * settings.max_body_bytes)]}
    response = client.post("/v1/batches", json=huge, headers={**owner.headers, "Idempotency-Key": "huge"})
    assert response.status_code == 413 and "exceeds the limit" in response.json()["detail"]


def test_malformed_json_and_bad_ids_are_422_not_500(client, owner):
    response = client.post("/v1/batches", content=b'{"scenarios": [', headers={
        **owner.headers, "Idempotency-Key": "broken", "Content-Type": "application/json"})
    assert response.status_code == 422 and "JSON" in response.json()["detail"]
    response = client.get("/v1/batches/abc", headers=owner.headers)
    assert response.status_code == 422 and response.json()["detail"].startswith("path parameter batch_id")
    for field in ("name", "base_url", "default_brain", "default_grounding"):
        response = client.patch("/v1/projects/me", json={field: None}, headers=owner.headers)
        assert response.status_code == 422 and response.json()["detail"].startswith(f"{field}: "), response.text


def test_the_openapi_document_says_what_validation_refuses(client, owner):
    """A schema-valid request is never refused: optional project fields are not nullable, a title not empty."""
    schemas = client.get("/openapi.json").json()["components"]["schemas"]
    update = schemas["ProjectUpdate"]["properties"]
    for field in ("name", "base_url", "default_brain", "default_grounding"):
        assert "anyOf" not in update[field] and update[field].get("type") != "null", update[field]
    assert schemas["ScenarioBody"]["properties"]["title"]["minLength"] == 1
    response = client.put("/v1/scenarios/EMPTY-1", json={"title": "", "steps": ["Go to /"]}, headers=owner.headers)
    assert response.status_code == 422 and response.json()["detail"].startswith("title: "), response.text


def test_regenerating_a_project_without_scenarios_is_a_409_conflict(client, petclinic):
    empty = new_project(client, petclinic)
    response = client.post("/v1/projects/me/regenerate", headers=empty.headers)
    assert response.status_code == 409 and response.json()["detail"].startswith("project: has no scenarios")


def test_a_batch_naming_an_unknown_scenario_is_404_and_one_naming_a_scenario_twice_is_409(client, owner):
    """What no schema can say (the project's stored scenarios, two items naming one scenario) is not a 422."""
    answer = client.post("/v1/batches", json={"scenarios": [{"external_id": "NOPE"}]},
                         headers={**owner.headers, "Idempotency-Key": uuid.uuid4().hex})
    assert answer.status_code == 404 and answer.json()["detail"].startswith("scenarios[0].external_id: no scenario 'NOPE'")
    answer = client.post("/v1/batches", json={"scenarios": [inline("A"), inline("A")]},
                         headers={**owner.headers, "Idempotency-Key": uuid.uuid4().hex})
    assert answer.status_code == 409 and answer.json()["detail"].startswith("scenarios[1]: scenario 'A' appears twice")


def test_the_openapi_document_lists_the_routes(client):
    spec = client.get("/openapi.json").json()
    assert "/v1/batches" in spec["paths"] and "Idempotency-Key" in str(spec["paths"]["/v1/batches"]["post"])
    assert client.get("/healthz").json() == {"status": "ok", "database": "ok"}


def test_more_requests_at_once_than_database_connections_are_all_answered(settings):
    """Requests beyond the database pool wait a moment for a connection and are all answered: none may hold a
    connection while it waits for a pool thread (a burst would then starve the pool until its 30 s timeout)."""
    import asyncio
    import concurrent.futures
    import time

    import httpx

    from api.app import create_app

    # Its own URL, so its own engine: 2 connections for the API's 40 pool threads.
    small = settings.model_copy(update={"database_url": f"{settings.database_url}?application_name=burst",
                                        "db_pool_size": 1, "db_max_overflow": 1})
    app = create_app(small)

    async def burst() -> tuple[list[int], float]:
        async with app.router.lifespan_context(app):
            transport = httpx.ASGITransport(app=app)
            async with httpx.AsyncClient(transport=transport, base_url="http://api", timeout=60) as api:
                created = await api.post("/v1/projects", json={"name": "burst", "base_url": "http://127.0.0.1:9"},
                                         headers={"Authorization": f"Bearer {ADMIN_TOKEN}"})
                key = {"Authorization": f"Bearer {created.json()['api_key']}"}
                scenario = {"title": "t", "steps": ["Go to /"]}
                started = time.perf_counter()
                answers = await asyncio.gather(*(
                    api.put(f"/v1/scenarios/B-{i}", json=scenario, headers=key) if i % 3 == 0
                    else api.get("/v1/projects/me", headers=key)
                    for i in range(60)
                ))
                return [answer.status_code for answer in answers], time.perf_counter() - started

    # In a thread of its own: a session's Playwright (sync API) may already run an event loop in this one.
    with concurrent.futures.ThreadPoolExecutor(max_workers=1) as thread:
        codes, seconds = thread.submit(asyncio.run, burst()).result()
    assert sorted(set(codes)) == [200, 201] and codes.count(201) == 20, codes
    assert seconds < 20, f"60 requests on 2 connections took {seconds:.1f} s"


@pytest.mark.parametrize(("method", "path", "allowed"), [
    ("DELETE", "/v1/projects/me", "GET, PATCH"),  # two routes on one path: Starlette alone said "GET"
    ("POST", "/v1/scenarios/X", "DELETE, GET, PUT"),
    ("PUT", "/v1/batches/1", "GET"),
    ("GET", "/v1/batches", "POST"),
    ("POST", "/healthz", "GET"),
])
def test_a_405_lists_every_method_the_path_takes(client, method, path, allowed):
    response = client.request(method, path)
    assert response.status_code == 405
    assert response.headers["allow"] == allowed
    assert response.json()["detail"] == f"method {method} not allowed here; allowed: {allowed}"
    document = client.get("/openapi.json").json()["paths"]
    template = next(t for t in document if re.fullmatch(re.sub(r"\{[^}]+\}", "[^/]+", t), path))
    assert sorted(m.upper() for m in document[template]) == allowed.split(", ")  # the document agrees
