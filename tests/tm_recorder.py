"""A local stand-in for a test-management system's API (the real TestRail or Xray cannot be reached here): it
answers the calls stepforge makes as those APIs document them and records every request.

- POST /index.php?/api/v2/add_results_for_cases/<run_id>  (TestRail; HTTP basic user:key)  -> the results, 200
- POST /rest/raven/1.0/import/execution/cucumber           (Xray Server/DC; Bearer token)   -> the execution, 200
- POST /api/v2/authenticate                                 (Xray Cloud; client id/secret)  -> "<token>", 200
- POST /api/v2/import/execution/cucumber                    (Xray Cloud; Bearer <token>)    -> the execution, 200

Each body is checked against the shape its API documents (TestRail's results: case_id, status_id 1-5, comment,
elapsed as a timespan; Xray's: Cucumber JSON, each scenario with its tags and steps with a result), and one that
is not answers 400 naming the field, as the real APIs do. Wrong credentials get 401; `answer_with` makes every call
answer a status of the test's choosing. start() may be called after the port was chosen: until then nothing
listens there (an outage)."""

from __future__ import annotations

import base64
import json
import re
import socket
import threading
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from jsonschema import Draft202012Validator

from tests.http_site import POLL_S

# add_results_for_cases: {"results": [{"case_id", "status_id", "comment", "elapsed", ...}]}, one entry per case.
TESTRAIL_RESULTS = {"type": "object", "required": ["results"], "properties": {"results": {
    "type": "array", "minItems": 1, "items": {"type": "object", "required": ["case_id", "status_id"], "properties": {
        "case_id": {"type": "integer", "minimum": 1}, "status_id": {"type": "integer", "minimum": 1, "maximum": 5},
        "comment": {"type": "string"}, "version": {"type": "string"}, "defects": {"type": "string"},
        "elapsed": {"type": "string", "pattern": r"^(\d+[wdhms]\s*)+$"}}}}}}
# Cucumber JSON as Xray's import/execution/cucumber reads it: features of scenarios, each tagged, of steps.
_STEP = {"type": "object", "required": ["keyword", "name", "result"], "properties": {
    "keyword": {"type": "string"}, "name": {"type": "string"}, "result": {
        "type": "object", "required": ["status"], "properties": {
            "status": {"enum": ["passed", "failed", "skipped", "pending", "undefined", "ambiguous"]},
            "duration": {"type": "integer", "minimum": 0}, "error_message": {"type": "string"}}}}}
CUCUMBER_JSON = {"type": "array", "items": {"type": "object", "required": ["uri", "keyword", "name", "elements"],
    "properties": {"uri": {"type": "string"}, "keyword": {"const": "Feature"}, "name": {"type": "string"},
                   "elements": {"type": "array", "items": {"type": "object", "required": [
                       "keyword", "name", "type", "tags", "steps"], "properties": {
                       "type": {"const": "scenario"}, "name": {"type": "string"},
                       "tags": {"type": "array", "items": {"type": "object", "required": ["name"], "properties": {
                           "name": {"type": "string", "pattern": "^@\\S+$"}}}},
                       "steps": {"type": "array", "minItems": 1, "items": _STEP}}}}}}}


def shape_problem(body: bytes, schema: dict) -> str | None:
    """What in the body is not the shape its API documents (its first problem, named by its path), or None."""
    try:
        document = json.loads(body)
    except ValueError as exc:
        return f"the body is not JSON: {exc}"
    for error in Draft202012Validator(schema).iter_errors(document):
        return f"Field :{'.'.join(str(p) for p in error.absolute_path) or 'body'} {error.message}"
    return None


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
            if problem := shape_problem(body, TESTRAIL_RESULTS):
                return 400, {"error": problem}
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
            if problem := shape_problem(body, CUCUMBER_JSON):
                return 400, {"error": problem}
            return 200, {"testExecIssue": {"id": "10000", "key": "PC-100"}}
        return 404, {"error": f"no route {path}"}
