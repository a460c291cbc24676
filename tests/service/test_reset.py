"""A stateful application is reset before each scenario through the service, as `--reset-command` does on the
command line: by a request a project names (an HTTP POST the worker makes, its URL checked like base_url), or by a
command the operator configured and a project names. An API client never sends a shell command."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.http_site import SiteHandler, serve
from tests.service.conftest import ADMIN_TOKEN, new_project
from tests.service.test_batches import demo_scenarios, wait_finished, wait_suite

pytestmark = pytest.mark.service  # its tier (tests/conftest.py)


@pytest.fixture(scope="module")
def reset_server() -> Iterator[tuple[str, list[str]]]:
    """POST /reset answers 204, POST /broken 500; the paths asked, in order."""
    asked: list[str] = []

    class Handler(SiteHandler):
        def do_POST(self) -> None:
            asked.append(self.path)
            self.send(b"", 204 if self.path == "/reset" else 500)

    base, stop = serve(Handler)
    yield base, asked
    stop()


def run_batch(client, project, ids: tuple[str, ...]) -> dict:
    response = client.post("/v1/batches", json={"scenarios": demo_scenarios(*ids)},
                           headers={**project.headers, "Idempotency-Key": uuid.uuid4().hex})
    assert response.status_code == 202, response.text
    wait_finished(client, project.headers, response.json()["id"])
    return wait_suite(client, project.headers, response.json()["id"])


def test_a_project_s_reset_is_a_request_or_a_configured_command_never_a_shell_command(client, petclinic,
                                                                                     reset_server):
    base, _asked = reset_server
    project = new_project(client, petclinic, reset_url=f"{base}/reset")
    assert client.get("/v1/projects/me", headers=project.headers).json()["reset_url"] == f"{base}/reset"
    refused = client.patch("/v1/projects/me", json={"reset_url": "http://169.254.169.254/reset"},
                           headers=project.headers)
    assert refused.status_code == 422 and refused.json()["detail"].startswith(
        "reset_url: 'http://169.254.169.254/reset': "), refused.text
    # A named command is the operator's to give, when the project is made (admin token); a project's own key
    # cannot choose one (it could reset another tenant's environment).
    own = client.patch("/v1/projects/me", json={"reset_command": "count"}, headers=project.headers)
    assert own.status_code == 422 and "reset_command" in own.json()["detail"], own.text
    for fields, detail in (
            ({"reset_command": "rm -rf /"}, "reset_command: String should match pattern"),
            ({"reset_command": "nosuch"},
             "reset_command: no reset command named 'nosuch' is configured on the service (STEPFORGE_RESET_COMMANDS "
             "names: count, fails)"),
            ({"reset_command": "count", "reset_url": f"{base}/reset"},
             "reset_url: give reset_url or reset_command, not both")):
        response = client.post("/v1/projects", json={"name": "p", "base_url": petclinic, **fields},
                               headers={"Authorization": f"Bearer {ADMIN_TOKEN}"})
        assert response.status_code == 422 and response.json()["detail"].startswith(detail), response.text
    named = new_project(client, petclinic, reset_command="count")
    # A project has one reset: a request set later replaces the operator's command.
    back = client.patch("/v1/projects/me", json={"reset_url": f"{base}/reset"}, headers=named.headers).json()
    assert (back["project"]["reset_url"], back["project"]["reset_command"]) == (f"{base}/reset", None)


def test_the_worker_resets_before_each_run_and_replay_by_request(client, worker, petclinic, reset_server):
    base, asked = reset_server
    project = new_project(client, petclinic, reset_url=f"{base}/reset")
    asked.clear()
    built = run_batch(client, project, ("OWN-1",))
    assert built["counts"]["passed"] == 1 and built["suite_state"] == "ready", built
    # The generation's run, its replay and the suite's combined replay: each after a reset.
    assert len(asked) >= 3 and set(asked) == {"/reset"}, asked


def test_a_reset_that_fails_fails_the_scenario_saying_so(client, worker, petclinic, reset_server):
    base, _asked = reset_server
    project = new_project(client, petclinic, reset_url=f"{base}/broken")
    built = run_batch(client, project, ("OWN-1",))
    job = built["jobs"][0]
    assert job["state"] == "failed", built
    reason = job["verdict"]["reason"]
    assert f"the reset request to {base}/broken failed: the reset request to {base}/broken answered HTTP 500" \
        in reason, job
    assert "python" not in reason and "--policy" not in reason  # the command behind it is never shown


def test_the_worker_runs_the_operator_s_named_command(client, worker, petclinic, settings):
    log = Path(settings.reset_commands["count"].split(">> ", 1)[1])
    before = len(log.read_text().splitlines()) if log.exists() else 0
    project = new_project(client, petclinic, reset_command="count")
    built = run_batch(client, project, ("OWN-1",))
    assert built["counts"]["passed"] == 1, built
    assert len(log.read_text().splitlines()) - before >= 3


def test_a_named_command_that_fails_is_named_never_shown(client, worker, petclinic):
    project = new_project(client, petclinic, reset_command="fails")
    built = run_batch(client, project, ("OWN-1",))
    reason = built["jobs"][0]["verdict"]["reason"]
    assert "the reset command 'fails' exited with 3" in reason, reason
    assert "secret-token" not in reason and "echo" not in reason
