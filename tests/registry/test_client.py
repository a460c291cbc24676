"""HttpStepRegistry: retries with backoff on 5xx/429 and connection errors, not on 4xx; clear RegistryError."""

from __future__ import annotations

import json
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from shared.step_registry import RegistryError
from shared.step_registry.http import HttpStepRegistry
from tests.http_site import POLL_S
from tests.registry.helpers import free_port, new_step

pytestmark = pytest.mark.service  # its tier (tests/conftest.py)

ORIGIN = "http://app.test"
SIGNATURE = "0123456789abcdef"


class Scripted:
    """A tiny real HTTP server answering each request with the next (status, body) of a script."""

    def __init__(self, script: list[tuple[int, dict]]) -> None:
        self.script = list(script)
        self.requests: list[tuple[str, str, dict]] = []
        owner = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802
                length = int(self.headers.get("Content-Length", 0))
                owner.requests.append((self.path, self.headers.get("Authorization"), json.loads(self.rfile.read(length))))
                status, body = owner.script.pop(0) if len(owner.script) > 1 else owner.script[0]
                data = json.dumps(body).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def log_message(self, *_args) -> None:  # noqa: ANN002
                pass

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}"
        self.thread = threading.Thread(target=self.httpd.serve_forever, kwargs={"poll_interval": POLL_S}, daemon=True)

    def __enter__(self) -> Scripted:
        self.thread.start()
        return self

    def __exit__(self, *_exc: object) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


def registered() -> dict:
    step = new_step(SIGNATURE)
    return {"steps": {SIGNATURE: {"id": 7, "origin": ORIGIN, "signature": SIGNATURE, "version": 1,
                                  "supersedes": None, "definition": step.definition.model_dump(mode="json"),
                                  "code": step.code, "created_by": "p", "usage": {"p": 1}}}}


def test_two_503_then_success_is_retried() -> None:
    with Scripted([(503, {"detail": "database unavailable"}), (503, {"detail": "database unavailable"}),
                   (200, registered())]) as server:
        registry = HttpStepRegistry(server.url, "secret-token", timeout_s=2, retries=3)
        found = registry.register("p", ORIGIN, [new_step(SIGNATURE)])
    assert found[SIGNATURE].id == 7
    assert len(server.requests) == 3
    path, auth, body = server.requests[-1]
    assert path == "/v1/steps" and auth == "Bearer secret-token"
    assert body["steps"][0]["signature"] == SIGNATURE and body["project"] == "p"


def test_429_is_retried_and_persistent_5xx_gives_registry_error() -> None:
    with Scripted([(429, {"detail": "slow down"}), (200, registered())]) as server:
        assert HttpStepRegistry(server.url, "t", timeout_s=2, retries=1).lookup(ORIGIN, [SIGNATURE])
    with Scripted([(500, {"detail": "boom"})]) as server:
        with pytest.raises(RegistryError, match=r"after 3 attempt\(s\): 500 boom"):
            HttpStepRegistry(server.url, "t", timeout_s=2, retries=2).lookup(ORIGIN, [SIGNATURE])
        assert len(server.requests) == 3


def test_4xx_is_not_retried() -> None:
    with Scripted([(401, {"detail": "missing or wrong service token"})]) as server:
        with pytest.raises(RegistryError, match="401 missing or wrong service token"):
            HttpStepRegistry(server.url, "bad", retries=3).lookup(ORIGIN, [SIGNATURE])
        assert len(server.requests) == 1


def test_dead_port_raises_registry_error_within_the_budget() -> None:
    port = free_port()  # nothing listens there
    registry = HttpStepRegistry(f"http://127.0.0.1:{port}", "t", timeout_s=1, retries=3)
    started = time.monotonic()
    with pytest.raises(RegistryError, match=r"step registry unavailable: POST .*/v1/steps/lookup failed after 4"):
        registry.lookup(ORIGIN, [SIGNATURE])
    assert time.monotonic() - started < 1 * (3 + 1)


def test_unresponsive_server_times_out_within_the_budget() -> None:
    import socket

    with socket.socket() as listener:  # accepts connections, never answers
        listener.bind(("127.0.0.1", 0))
        listener.listen(16)
        registry = HttpStepRegistry(f"http://127.0.0.1:{listener.getsockname()[1]}", "t", timeout_s=0.3, retries=2)
        started = time.monotonic()
        with pytest.raises(RegistryError, match="ReadTimeout"):
            registry.lookup(ORIGIN, [SIGNATURE])
        assert time.monotonic() - started < 0.3 * 3 + 0.5


def test_bad_base_url_is_refused() -> None:
    with pytest.raises(RegistryError, match="not an http"):
        HttpStepRegistry("127.0.0.1:9", "t")
