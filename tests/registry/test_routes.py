"""The HTTP API on the running server (PostgreSQL): sharing, versioning, listings, and clear 4xx errors."""

from __future__ import annotations

import httpx
import pytest

from shared.step_registry import RegistryError
from shared.step_registry.http import HttpStepRegistry
from tests.registry.helpers import TOKEN, new_step

pytestmark = pytest.mark.service  # its tier (tests/conftest.py)

AUTH = {"Authorization": f"Bearer {TOKEN}"}


@pytest.fixture
def client(server):
    with httpx.Client(base_url=server.url, headers=AUTH, timeout=10) as http:
        yield http


@pytest.fixture
def registry(server):
    with HttpStepRegistry(server.url, TOKEN) as reg:
        yield reg


def test_same_origin_shares_other_origin_does_not(registry, origin, sig) -> None:
    signature = sig()
    mine = registry.register("project-a", origin, [new_step(signature)])[signature]
    found = registry.lookup(origin, [signature, sig()])
    assert list(found) == [signature] and found[signature].id == mine.id
    assert found[signature].created_by == "project-a"
    assert registry.lookup(origin.replace("app-", "other-"), [signature]) == {}
    # project B reuses it: same step, both projects counted
    again = registry.register("project-b", origin, [new_step(signature)])[signature]
    assert again.id == mine.id and again.usage == {"project-a": 1, "project-b": 1}
    assert [s.id for s in registry.steps(origin=origin)] == [mine.id]
    assert [s.id for s in registry.steps(project="project-b", origin=origin)] == [mine.id]


def test_new_locator_makes_version_two_and_users_of_version_one_are_listed(registry, client, origin, sig) -> None:
    v1_sig, v2_sig = sig(), sig()
    v1 = registry.register("uses-v1", origin, [new_step(v1_sig, selector="#find")])[v1_sig]
    registry.register("also-v1", origin, [new_step(v1_sig, selector="#find")])
    v2 = registry.register("uses-v2", origin, [new_step(v2_sig, selector="#find-owner")])[v2_sig]
    assert (v1.version, v1.supersedes) == (1, None)
    assert (v2.version, v2.supersedes) == (2, v1.id)
    assert v2.definition.pattern == v1.definition.pattern
    users = client.get(f"/v1/steps/{v1.id}/users")
    assert users.status_code == 200, users.text
    body = users.json()
    assert body["version"] == 1 and body["superseded_by"] == [v2.id]
    assert body["users"] == [{"project": "also-v1", "uses": 1}, {"project": "uses-v1", "uses": 1}]
    assert registry.users(v1.id) == {"also-v1": 1, "uses-v1": 1}
    # another wording is another step, version 1
    other_sig = sig()
    other = registry.register("uses-v2", origin, [new_step(other_sig, pattern="I open {string}")])[other_sig]
    assert (other.version, other.supersedes) == (1, None)


def test_origin_and_project_listings_page_with_usage(client, origin, sig) -> None:
    signatures = sorted(sig() for _ in range(5))
    payload = {"project": "lister", "origin": origin,
               "steps": [new_step(s, pattern=f"step {i}").model_dump(mode="json") for i, s in enumerate(signatures)]}
    assert client.post("/v1/steps", json=payload).status_code == 200
    page = client.get("/v1/origins/steps", params={"origin": origin, "limit": 3}).json()
    assert len(page["steps"]) == 3 and page["next_after"] == page["steps"][-1]["id"]
    rest = client.get("/v1/origins/steps", params={"origin": origin, "after": page["next_after"]}).json()
    assert len(rest["steps"]) == 2 and rest["next_after"] is None
    assert all(s["usage"] == {"lister": 1} for s in page["steps"] + rest["steps"])
    mine = client.get("/v1/projects/lister/steps", params={"origin": origin}).json()
    assert sorted(s["signature"] for s in mine["steps"]) == signatures


def test_healthz_and_openapi(server) -> None:
    assert httpx.get(f"{server.url}/healthz").json() == {"status": "ok", "database": "ok"}
    spec = httpx.get(f"{server.url}/openapi.json").json()
    assert {"/v1/steps/lookup", "/v1/steps", "/v1/steps/{step_id}/users", "/v1/origins/steps",
            "/v1/projects/{project}/steps", "/healthz"} <= set(spec["paths"])
    assert "StepsBySignature" in spec["components"]["schemas"]


@pytest.mark.parametrize("headers", [{}, {"Authorization": "Bearer wrong-token"}, {"Authorization": "Basic eDp5"}])
def test_wrong_or_missing_token_is_401(server, headers, origin) -> None:
    for method, path, kwargs in [
        ("POST", "/v1/steps/lookup", {"json": {"origin": origin, "signatures": []}}),
        ("GET", "/v1/origins/steps", {"params": {"origin": origin}}),
        ("GET", "/v1/projects/anything/steps", {}),
        ("GET", "/v1/steps/1/users", {}),
    ]:
        response = httpx.request(method, server.url + path, headers=headers, **kwargs)
        assert response.status_code == 401, (path, response.text)
        assert "token" in response.json()["detail"]


def test_unknown_project_is_404(client) -> None:
    response = client.get("/v1/projects/never-registered-anything/steps")
    assert response.status_code == 404
    assert "never-registered-anything" in response.json()["detail"]
    assert client.get("/v1/steps/987654321/users").status_code == 404


def test_malformed_signature_is_422_naming_the_field(client, origin, sig) -> None:
    response = client.post("/v1/steps/lookup", json={"origin": origin, "signatures": [sig(), "not-hex!"]})
    assert response.status_code == 422
    assert response.json()["detail"].startswith("signatures[1]: ")
    bad = new_step("ABC").model_dump(mode="json")
    response = client.post("/v1/steps", json={"project": "p", "origin": origin, "steps": [bad]})
    assert response.status_code == 422
    assert "steps[0].definition.signature" in response.json()["detail"]


def test_signature_differing_from_its_key_is_a_409_conflict(client, origin, sig) -> None:
    step = {**new_step(sig()).model_dump(mode="json"), "signature": sig()}
    response = client.post("/v1/steps", json={"project": "p", "origin": origin, "steps": [step]})
    assert response.status_code == 409
    assert "steps[0].definition.signature" in response.json()["detail"]
    assert "differs from the key" in response.json()["detail"]


@pytest.mark.parametrize("bad", ["ftp://app.test", "app.test", "http://App.test", "http://app.test/path",
                                 "http://app.test:80", "http://app.test/", ""])
def test_bad_origin_is_422(client, bad, sig) -> None:
    response = client.post("/v1/steps/lookup", json={"origin": bad, "signatures": [sig()]})
    assert response.status_code == 422, response.text
    assert response.json()["detail"].startswith("origin: ")
    response = client.get("/v1/origins/steps", params={"origin": bad})
    assert response.status_code == 422
    assert "origin" in response.json()["detail"]


@pytest.mark.parametrize("project", ["", "has space", "x" * 101, "semi;colon"])
def test_bad_project_is_422(client, origin, sig, project) -> None:
    response = client.post("/v1/steps", json={"project": project, "origin": origin,
                                              "steps": [new_step(sig()).model_dump(mode="json")]})
    assert response.status_code == 422
    assert response.json()["detail"].startswith("project: ")


def test_too_many_signatures_or_steps_is_422(client, origin, sig) -> None:
    response = client.post("/v1/steps/lookup", json={"origin": origin, "signatures": [sig() for _ in range(1001)]})
    assert response.status_code == 422
    assert response.json()["detail"].startswith("signatures: ")
    step = new_step(sig()).model_dump(mode="json")
    response = client.post("/v1/steps", json={"project": "p", "origin": origin, "steps": [step] * 501})
    assert response.status_code == 422
    assert response.json()["detail"].startswith("steps: ")


def test_oversized_body_is_413(client, origin) -> None:
    huge = {"origin": origin, "signatures": ["a" * 64] * 40_000}  # ~2.7 MB
    response = client.post("/v1/steps/lookup", json=huge)
    assert response.status_code == 413
    assert "exceeds" in response.json()["detail"]

    def chunks():  # no Content-Length: counted as it streams
        for _ in range(30):
            yield b" " * 100_000

    response = client.post("/v1/steps/lookup", content=chunks(), headers={"Content-Type": "application/json"})
    assert response.status_code == 413


def test_malformed_json_is_422(client) -> None:
    response = client.post("/v1/steps/lookup", content=b"{not json", headers={"Content-Type": "application/json"})
    assert response.status_code == 422
    response = client.post("/v1/steps", json={"project": "p"})
    assert response.status_code == 422
    assert "origin" in response.json()["detail"] and "steps" in response.json()["detail"]


def test_http_registry_raises_registry_error_on_4xx(registry, origin) -> None:
    with pytest.raises(RegistryError, match=r"422 signatures\[0\]"):
        registry.lookup(origin, ["nope"])
    with pytest.raises(RegistryError, match="404 project 'ghost-project' is unknown"):
        registry.steps(project="ghost-project")
