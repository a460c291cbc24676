"""Bad input is a 4xx naming the field or the problem, on PostgreSQL and on SQLite: never a 503 "database
unavailable" (that is for a database that cannot be reached) and never a 500."""

from __future__ import annotations

import uuid

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import text
from sqlalchemy.exc import DataError, IntegrityError, OperationalError, ProgrammingError

from api.app import create_app
from api.deps import ServicesDep
from shared.migrate import upgrade
from tests.service.conftest import ADMIN_TOKEN, new_project

pytestmark = pytest.mark.service  # its tier (tests/conftest.py)

ADMIN = {"Authorization": f"Bearer {ADMIN_TOKEN}"}


@pytest.fixture(scope="module")
def sqlite_client(settings, tmp_path_factory):
    """The same API on SQLite (the embedded database), migrated the same way."""
    url = f"sqlite:///{tmp_path_factory.mktemp('sqlite-api') / 'service.db'}"
    upgrade(url)
    with TestClient(create_app(settings.model_copy(update={"database_url": url}))) as running:
        yield running


@pytest.fixture(params=["postgresql", "sqlite"])
def api(request, client, sqlite_client, petclinic):
    """(client, project) on each database."""
    chosen = client if request.param == "postgresql" else sqlite_client
    return chosen, new_project(chosen, petclinic)


def inline(**fields: object) -> dict:
    return {"id": "A", "title": "t", "steps": ["Go to /"], **fields}


@pytest.mark.parametrize(("body", "field"), [
    ({"scenarios": [{"external_id": "A", "version": 2**31}]},
     "scenarios[0].version: Input should be less than or equal to 2147483647"),
    ({"scenarios": [{"external_id": "A", "version": 10**20}]},
     "scenarios[0].version: Input should be less than or equal to 2147483647"),
    ({"scenarios": [{"external_id": "A\x00"}]}, "scenarios[0].external_id: may hold only letters"),
    ({"scenarios": [inline(title="a\x00b")]}, "scenarios[0].title: holds a control character (U+0000)"),
    ({"scenarios": [inline(steps=["Go to /\x00"])]}, "scenarios[0].steps[0].action: holds a control character"),
    ({"scenarios": [inline(steps=[{"action": "Go to /", "expected": "\x07"}])]},
     "scenarios[0].steps[0].expected: holds a control character (U+0007)"),
    ({"scenarios": [inline(steps=["Type <a> into Name"], data=[{"a": "x\x00"}])]},
     "scenarios[0].data: row 1, column 'a': holds a control character (U+0000)"),
    ({"scenarios": [inline()], "base_url": "http://127.0.0.1:9/\x00"}, "base_url: holds a control character"),
    ({"scenarios": [inline(steps=["Type x" * 1_000])]},
     "scenarios[0].steps[0].action: String should have at most 2000 characters"),
    ({"scenarios": [inline(steps=[{"action": "Go to /", "expected": "x" * 2001}])]},
     "scenarios[0].steps[0].expected: String should have at most 2000 characters"),
    ({"scenarios": [inline(title="t" * 501)]}, "scenarios[0].title: String should have at most 500 characters"),
    ({"scenarios": [{"id": "A", "title": "t", "text": "Go to /. " * 3000}]},
     "scenarios[0].text: String should have at most 20000 characters"),
    ({"scenarios": [inline(steps=["Type <a> into Name"], data=[{"a": "x" * 2001}])]},
     "scenarios[0].data: row 1, column 'a': longer than 2000 characters"),
    ({"scenarios": [inline(steps=["Go to /", {'Verify the page shows "Status': 'open"'}])]},
     "scenarios[0].steps[1]: the step 'Verify the page shows \"Status: open\"' holds ': ', so YAML read it as a "
     "mapping; put the whole step in quotes"),
])
def test_out_of_range_numbers_and_control_characters_in_a_batch_are_422(api, body, field):
    chosen, project = api
    response = chosen.post("/v1/batches", json=body, headers={**project.headers, "Idempotency-Key": uuid.uuid4().hex})
    assert response.status_code == 422, response.text
    assert response.json()["detail"].startswith(field), response.json()["detail"]


def test_control_characters_in_stored_strings_are_422_naming_the_field(api, petclinic):
    chosen, project = api
    cases = [
        ("POST", "/v1/projects", ADMIN, {"name": "pet\x00clinic", "base_url": petclinic},
         "name: holds a control character (U+0000)"),
        ("POST", "/v1/projects", ADMIN, {"name": "pet\nclinic", "base_url": petclinic},
         "name: holds a control character (U+000A)"),
        ("PATCH", "/v1/projects/me", project.headers, {"name": "x\x00"}, "name: holds a control character"),
        ("PATCH", "/v1/projects/me", project.headers, {"webhook_url": "http://127.0.0.1:9/\x00"},
         "webhook_url: holds a control character"),
        ("PUT", "/v1/scenarios/NUL-1", project.headers, {"title": "a\x00", "steps": ["Go to /"]},
         "title: holds a control character (U+0000)"),
        ("PUT", "/v1/scenarios/NUL-1", project.headers, {"title": "t", "text": "Go to /\x00"},
         "text: holds a control character (U+0000)"),
    ]
    for method, path, headers, body, field in cases:
        response = chosen.request(method, path, json=body, headers=headers)
        assert response.status_code == 422, (path, body, response.text)
        assert response.json()["detail"].startswith(field), response.json()["detail"]
    # A lone surrogate (valid JSON, not valid Unicode) cannot be stored either.
    response = chosen.post("/v1/projects", content=b'{"name": "x\\ud800", "base_url": "%s"}' % petclinic.encode(),
                           headers={**ADMIN, "Content-Type": "application/json"})
    assert response.status_code == 422 and response.json()["detail"].startswith("name: "), response.text
    response = chosen.post("/v1/batches", json={"scenarios": [inline()]},
                           headers={**project.headers, "Idempotency-Key": "run\x01one"})
    assert response.status_code == 422, response.text
    assert response.json()["detail"].startswith("header parameter Idempotency-Key: String should match pattern")
    response = chosen.post("/v1/webhooks/evt%00x/redeliver", headers=project.headers)
    assert response.status_code == 422 and response.json()["detail"].startswith("path parameter event_id")
    # Tabs and line breaks stay allowed in free text.
    response = chosen.put("/v1/scenarios/TEXT-1", json={"title": "t", "text": "Go to /.\n\tGo to /owners/find"},
                          headers=project.headers)
    assert response.status_code == 201, response.text
    assert chosen.get("/healthz").status_code == 200


@pytest.mark.parametrize(("body", "detail"), [
    ('{"name": "caf\xe9"}'.encode("latin-1"), "body: not valid UTF-8 (byte "),
    ('{"scenarios": [{"external_id": "A"}]}'.encode("utf-16"), "body: not UTF-8 (it is encoded as UTF-16"),
    ('{"scenarios": [{"external_id": "A"}]}'.encode("utf-16-le"), "body: not UTF-8 (it is encoded as UTF-16-LE)"),
    ('{"scenarios": [{"external_id": "A"}]}'.encode("utf-32-be"), "body: not UTF-8 (it is encoded as UTF-32-BE)"),
    (b'{"scenarios": [{"external_id": "A", "version": ' + b"9" * 5000 + b"}]}", "body: not valid JSON: Exceeds"),
    (b"[" * 3000 + b"]" * 3000, "body: not valid JSON: nested too deeply"),
])
def test_a_body_that_is_not_utf8_json_is_422_saying_so(api, body, detail):
    chosen, project = api
    response = chosen.post("/v1/batches", content=body, headers={**project.headers, "Idempotency-Key": "k",
                                                                  "Content-Type": "application/json"})
    assert response.status_code == 422, response.text
    assert response.json()["detail"].startswith(detail), response.json()["detail"]


def test_database_errors_map_to_what_they_mean(settings, tmp_path):
    """A value the database refuses is a 422, a violated constraint a 409, only an unreachable database a 503;
    the statement and its parameters never reach the answer."""
    app = create_app(settings)  # PostgreSQL: the DataError below is the server's own

    @app.get("/test/cast")
    def cast(services: ServicesDep) -> dict:
        with services.session() as session:
            session.execute(text("SELECT CAST(:value AS integer)"), {"value": "secret-value"})
        return {}

    def raiser(error: Exception):
        def route() -> dict:
            raise error
        return route

    orig = Exception("duplicate key value violates unique constraint \"uq_x\"\nDETAIL: Key (k)=(secret) exists")
    app.get("/test/integrity")(raiser(IntegrityError("INSERT secret", {"k": "secret"}, orig)))
    app.get("/test/operational")(raiser(OperationalError("SELECT 1", {}, Exception("connection refused"))))
    app.get("/test/programming")(raiser(ProgrammingError("SELECT x", {}, Exception("no such column"))))
    app.get("/test/data")(raiser(DataError("UPDATE t", {"v": 2**40}, Exception("integer out of range"))))
    with TestClient(app) as running:
        response = running.get("/test/cast")
        assert response.status_code == 422, response.text
        assert "invalid input syntax for type integer" in response.json()["detail"]
        assert "SELECT" not in response.json()["detail"]
        response = running.get("/test/data")
        assert response.status_code == 422 and "integer out of range" in response.json()["detail"]
        response = running.get("/test/integrity")
        assert response.status_code == 409 and "uq_x" in response.json()["detail"]
        assert "secret" not in response.json()["detail"]
        assert running.get("/test/operational").status_code == 503
        assert running.get("/test/programming").status_code == 500
