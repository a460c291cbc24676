"""A small OpenAI-compatible chat completions server for tests, scripted reply by reply.

    with FakeOpenAI() as server:
        server.script(reply({"ok": True}), status(429, retry_after="0"), reply("```json\\n{}\\n```"))
        client = ModelClient(server.base_url, "key", "fake-model")

Every request body is kept in ``server.requests`` (parsed JSON) for assertions. When the
script runs dry the server asks its responder, if the test set one, else answers 500 "script
exhausted", so a test never hangs:

    server.respond_with(lambda body: reply(answer_for(prompt_text(body))))

A responder is the test's script written as a function of the prompt (say, "pick the child whose
summary names the target"); it returns an item like ``reply(...)`` or ``status(...)``.
"""

from __future__ import annotations

import json
import threading
import time
from collections import deque
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


def reply(content: Any, *, prompt_tokens: int = 10, completion_tokens: int = 5, delay: float = 0.0) -> dict:
    """An assistant message: a dict/list is sent as its JSON text, a str as is."""
    text = content if isinstance(content, str) else json.dumps(content)
    return {"kind": "reply", "content": text, "usage": (prompt_tokens, completion_tokens), "delay": delay}


def status(code: int, message: str = "scripted error", *, retry_after: str | None = None, delay: float = 0.0) -> dict:
    headers = {"Retry-After": retry_after} if retry_after is not None else {}
    return {"kind": "status", "status": code, "message": message, "headers": headers, "delay": delay}


def format_unsupported() -> dict:
    """What a server without structured output says about response_format."""
    return status(400, "Invalid parameter: 'response_format' of type 'json_schema' is not supported with this model.")


def like_llama_cpp(answer: Callable[[dict[str, Any]], dict]) -> Callable[[dict[str, Any]], dict]:
    """A responder that answers as llama-cpp-python's server (llama_cpp.server 0.3) does what it cannot do: a
    response_format of type json_schema is a 500 naming it (json_object, with its own "schema" key, is fine), and a
    message content given as a list of parts is a 500 from a text-only model's chat template; else `answer`."""

    def respond(body: dict[str, Any]) -> dict:
        form = (body.get("response_format") or {}).get("type")
        if form not in (None, "text", "json_object"):
            return status(500, f'response_format type must be one of "text" or "json_object", but got: {form}')
        if any(isinstance(m.get("content"), list) for m in body.get("messages", [])):
            return status(500, "can only concatenate str (not \"list\") to str")
        return answer(body)

    return respond


def delay(seconds: float, then: dict | None = None) -> dict:
    """Wait before answering (to make the client time out); answers `then` (default: a reply {})."""
    item = dict(then or reply({}))
    item["delay"] = seconds
    return item


class FakeOpenAI:
    def __init__(self) -> None:
        self._queue: deque[dict] = deque()
        self._responder: Callable[[dict[str, Any]], dict] | None = None
        self._lock = threading.Lock()
        self.requests: list[dict[str, Any]] = []
        self.headers: list[dict[str, str]] = []
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)

    @property
    def base_url(self) -> str:
        host, port = self._server.server_address[:2]
        return f"http://{host}:{port}/v1"

    def script(self, *items: dict) -> None:
        with self._lock:
            self._queue.extend(items)

    def respond_with(self, responder: Callable[[dict[str, Any]], dict] | None) -> None:
        """Answer with ``responder(request_body)`` whenever the scripted queue is empty."""
        with self._lock:
            self._responder = responder

    @property
    def remaining(self) -> int:
        with self._lock:
            return len(self._queue)

    def start(self) -> FakeOpenAI:
        self._thread.start()
        return self

    def stop(self) -> None:
        self._server.shutdown()
        self._server.server_close()

    def __enter__(self) -> FakeOpenAI:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    # --- the HTTP side --------------------------------------------------------------------

    def _next(self, body: dict, headers: dict[str, str]) -> dict:
        with self._lock:
            self.requests.append(body)
            self.headers.append(headers)
            if self._queue:
                return self._queue.popleft()
            responder = self._responder
        if responder is not None:
            try:
                return responder(body)
            except Exception as exc:  # a broken test script shows up as an answer, not a hung client
                return status(500, f"responder failed: {type(exc).__name__}: {exc}")
        return status(500, "script exhausted")

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        fake = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"
            # Answer at once: with Nagle's algorithm every reply waits ~40 ms for a delayed ACK on loopback.
            disable_nagle_algorithm = True

            def log_message(self, *args: object) -> None:  # quiet
                pass

            def do_POST(self) -> None:  # noqa: N802
                length = int(self.headers.get("Content-Length") or 0)
                raw = self.rfile.read(length)
                if self.path.rstrip("/") not in ("/v1/chat/completions", "/chat/completions"):
                    self._send(404, {"error": {"message": f"no route {self.path}"}})
                    return
                try:
                    body = json.loads(raw or b"{}")
                except ValueError:
                    self._send(400, {"error": {"message": "body is not JSON"}})
                    return
                item = fake._next(body, {k.lower(): v for k, v in self.headers.items()})
                if item.get("delay"):
                    time.sleep(item["delay"])
                if item["kind"] == "status":
                    self._send(
                        item["status"],
                        {"error": {"message": item["message"], "type": "scripted", "code": item["status"]}},
                        item["headers"],
                    )
                    return
                prompt, completion = item["usage"]
                self._send(
                    200,
                    {
                        "id": f"chatcmpl-{len(fake.requests)}",
                        "object": "chat.completion",
                        "created": int(time.time()),
                        "model": body.get("model", "fake"),
                        "choices": [
                            {
                                "index": 0,
                                "message": {"role": "assistant", "content": item["content"]},
                                "finish_reason": "stop",
                            }
                        ],
                        "usage": {
                            "prompt_tokens": prompt,
                            "completion_tokens": completion,
                            "total_tokens": prompt + completion,
                        },
                    },
                )

            def _send(self, code: int, payload: dict, headers: dict[str, str] | None = None) -> None:
                data = json.dumps(payload).encode()
                try:
                    self.send_response(code)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(data)))
                    for key, value in (headers or {}).items():
                        self.send_header(key, value)
                    self.end_headers()
                    self.wfile.write(data)
                except (BrokenPipeError, ConnectionResetError):
                    pass  # the client gave up (timeout test)

        return Handler


def prompt_text(body: dict[str, Any]) -> str:
    """All text of a request's messages (system and user), joined by newlines."""
    parts: list[str] = []
    for message in body.get("messages", []):
        content = message.get("content")
        if isinstance(content, str):
            parts.append(content)
        elif isinstance(content, list):
            parts.extend(c.get("text", "") for c in content if c.get("type") == "text")
    return "\n".join(parts)


def prompt_images(body: dict[str, Any]) -> list[bytes]:
    """The images of a request's messages, decoded from their data URLs."""
    import base64

    images: list[bytes] = []
    for message in body.get("messages", []):
        content = message.get("content")
        if isinstance(content, list):
            for c in content:
                if c.get("type") == "image_url":
                    url = c["image_url"]["url"]
                    images.append(base64.b64decode(url.split(",", 1)[1]))
    return images


def schema_name(body: dict[str, Any]) -> str | None:
    """The JSON schema name the request asked for (structured output), if any."""
    fmt = body.get("response_format") or {}
    return (fmt.get("json_schema") or {}).get("name")
