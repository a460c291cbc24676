"""A local stand-in for a test-management system's API (the real TestRail or Xray cannot be reached here): it
answers the calls stepforge makes as those APIs document them and records every request.

- POST /index.php?/api/v2/add_results_for_cases/<run_id>  (TestRail; HTTP basic user:key)  -> the results, 200
- POST /rest/raven/1.0/import/execution/cucumber           (Xray Server/DC; Bearer token)   -> the execution, 200
- POST /api/v2/authenticate                                 (Xray Cloud; client id/secret)  -> "<token>", 200
- POST /api/v2/import/execution/cucumber                    (Xray Cloud; Bearer <token>)    -> the execution, 200

Wrong credentials get 401; `answer_with` makes every call answer a status of the test's choosing. start() may be
called after the port was chosen: until then nothing listens there (an outage)."""

from __future__ import annotations

import base64
import json
import re
import socket
import threading
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from tests.http_site import POLL_S


@dataclass
class Recorded:
    method: str
    path: str
    headers: dict[str, str]
    body: bytes

    def json(self):
        return json.loads(self.body)


@dataclass
class Recorder:
    user: str = "qa@example.com"
    key: str = "testrail-api-key"
    token: str = "xray-server-token"
    client_id: str = "client-id"
    client_secret: str = "client-secret"
    answer_with: int | None = None
    port: int = 0
    received: list[Recorded] = field(default_factory=list)
    _server: ThreadingHTTPServer | None = None

    def __post_init__(self) -> None:
        if not self.port:
            with socket.socket() as probe:
                probe.bind(("127.0.0.1", 0))
                self.port = probe.getsockname()[1]

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def calls(self, pattern: str) -> list[Recorded]:
        return [r for r in self.received if re.search(pattern, r.path)]

    def start(self) -> Recorder:
        recorder = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802
                body = self.rfile.read(int(self.headers.get("content-length") or 0))
                recorder.received.append(Recorded("POST", self.path, {k.lower(): v for k, v in self.headers.items()},
                                                  body))
                status, answer = recorder.answer(self.path, self.headers.get("authorization") or "", body)
                data = json.dumps(answer).encode()
                self.send_response(status)
                self.send_header("content-type", "application/json")
                self.send_header("content-length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def log_message(self, *_args: object) -> None:
                pass

        self._server = ThreadingHTTPServer(("127.0.0.1", self.port), Handler)
        threading.Thread(target=self._server.serve_forever, kwargs={"poll_interval": POLL_S}, daemon=True).start()
        return self

    def stop(self) -> None:
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
            self._server = None

    def answer(self, path: str, authorization: str, body: bytes) -> tuple[int, object]:
        if self.answer_with is not None:
            return self.answer_with, {"error": f"answering {self.answer_with} as told"}
        basic = "Basic " + base64.b64encode(f"{self.user}:{self.key}".encode()).decode()
        if found := re.fullmatch(r"/index\.php\?/api/v2/add_results_for_cases/(\d+)", path):
            if authorization != basic:
                return 401, {"error": "Authentication failed: invalid or missing user/password or session cookie."}
            results = json.loads(body)["results"]
            return 200, [{"id": n, "test_id": r["case_id"], "status_id": r["status_id"], "run_id": int(found[1])}
                         for n, r in enumerate(results, start=1)]
        if path == "/api/v2/authenticate":
            sent = json.loads(body)
            if (sent.get("client_id"), sent.get("client_secret")) != (self.client_id, self.client_secret):
                return 401, {"error": "Authentication failed. Invalid client credentials!"}
            return 200, "cloud-token-" + "x" * 600  # Xray's tokens are long JWTs
        if path in ("/rest/raven/1.0/import/execution/cucumber", "/api/v2/import/execution/cucumber"):
            wanted = self.token if path.startswith("/rest") else "cloud-token-" + "x" * 600
            if authorization != f"Bearer {wanted}":
                return 401, {"error": "Authentication failed"}
            json.loads(body)
            return 200, {"testExecIssue": {"id": "10000", "key": "PC-100"}}
        return 404, {"error": f"no route {path}"}
