"""HTTP pieces both FastAPI apps use (the service API and the step registry): a request body size limit, 422
answers whose detail names each bad field ("scenarios[0].title: ..."), and 405 answers whose Allow header lists
every method the path takes."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Collection, MutableMapping
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exception_handlers import http_exception_handler
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.routing import compile_path


def field_name(loc: tuple | list, ignore: Collection[str] = ()) -> str:
    """("body", "scenarios", 0, "title") -> "scenarios[0].title"; headers and paths say which. Parts in `ignore`
    (tags of tagged unions) and validator frames ("function-after...") are left out when `ignore` is given."""
    parts = [p for p in loc if p not in ignore and not str(p).startswith("function-")] if ignore else list(loc)
    if parts and parts[0] == "body":
        parts = parts[1:]
    elif parts and parts[0] in ("query", "path", "header") and len(parts) > 1:
        parts = [f"{parts[0]} parameter {parts[1]}"] + parts[2:]
    name = ""
    for part in parts:
        name += f"[{part}]" if isinstance(part, int) else ("." if name else "") + str(part)
    return name or "body"


def validation_response(error: RequestValidationError, ignore: Collection[str] = (),
                        shown: int | None = None) -> JSONResponse:
    """422 with every problem (field, message, type) and a detail naming the first `shown` of them (all: None)."""
    problems = [
        {"field": field_name(e.get("loc", ()), ignore), "message": str(e.get("msg", "")).removeprefix("Value error, "),
         "type": e.get("type", "")}
        for e in error.errors()
    ]
    detail = "; ".join(f"{p['field']}: {p['message']}" for p in problems[:shown]) or "invalid request"
    return JSONResponse({"detail": detail, "errors": problems}, status_code=422)


# --- 405 --------------------------------------------------------------------------------------------------------


def allowed_methods(app: FastAPI, path: str) -> list[str]:
    """Every method the app's OpenAPI document gives the path (Starlette's own 405 names only the first route that
    matched it): the Allow header and the document agree. A path the document names as such (/v1/steps/lookup)
    is that path only, not also an instance of a template beside it (/v1/steps/{step_id}), as OpenAPI reads it."""
    patterns = getattr(app.state, "allow_patterns", None)
    if patterns is None:
        patterns = [(compile_path(template)[0], "{" in template, sorted(method.upper() for method in operations))
                    for template, operations in app.openapi().get("paths", {}).items()]
        app.state.allow_patterns = patterns
    matches = [(templated, allowed) for regex, templated, allowed in patterns if regex.match(path)]
    if any(not templated for templated, _ in matches):
        matches = [(templated, allowed) for templated, allowed in matches if not templated]
    return sorted({method for _, allowed in matches for method in allowed})


def answer_405_with_every_method(app: FastAPI) -> None:
    """A 405's Allow header lists every method the path takes; other HTTP errors are answered as FastAPI does."""
    app.add_exception_handler(StarletteHTTPException, http_error)


async def http_error(request: Request, error: StarletteHTTPException) -> Response:
    """An HTTP error as JSON; a 405 naming every method the path takes (its Allow header too)."""
    if error.status_code != 405:
        return await http_exception_handler(request, error)
    allowed = allowed_methods(request.app, request.url.path) or [
        m.strip() for m in (error.headers or {}).get("Allow", "").split(",") if m.strip()]
    return JSONResponse({"detail": f"method {request.method} not allowed here; allowed: {', '.join(allowed)}"},
                        status_code=405, headers={**(error.headers or {}), "Allow": ", ".join(allowed)})


# --- body size limit ----------------------------------------------------------------------------

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]


class BodyLimit:
    """413 for a request body over max_bytes, by Content-Length or as it streams in."""

    def __init__(self, app: Callable, max_bytes: int) -> None:
        self.app = app
        self.max_bytes = max_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = dict(scope.get("headers") or [])
        length = headers.get(b"content-length")
        if length is not None:
            try:
                too_big = int(length) > self.max_bytes
            except ValueError:
                await self._reply(send, 400, "invalid Content-Length header")
                return
            if too_big:
                await self._drain(receive)
                await self._reply(send, 413, f"request body of {int(length)} bytes exceeds the limit of "
                                             f"{self.max_bytes} bytes")
                return
            await self.app(scope, receive, send)
            return
        # No Content-Length (chunked): buffer up to the limit, then replay.
        chunks: list[bytes] = []
        size = 0
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                return
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > self.max_bytes:
                if message.get("more_body", False):
                    await self._drain(receive)
                await self._reply(send, 413, f"request body exceeds the limit of {self.max_bytes} bytes")
                return
            chunks.append(chunk)
            if not message.get("more_body", False):
                break
        body = b"".join(chunks)
        sent = False

        async def replay() -> Message:
            nonlocal sent
            if not sent:
                sent = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        await self.app(scope, replay, send)

    async def _drain(self, receive: Receive) -> None:
        """Read (and drop) the rest of the body, up to a bound, so that the client sees the 413 rather than a
        connection reset in the middle of its upload."""
        seen = 0
        while seen <= 16 * self.max_bytes:
            message = await receive()
            if message["type"] != "http.request":
                return
            seen += len(message.get("body", b""))
            if not message.get("more_body", False):
                return

    @staticmethod
    async def _reply(send: Send, status: int, detail: str) -> None:
        response = JSONResponse({"detail": detail}, status_code=status)
        await send({"type": "http.response.start", "status": status, "headers": response.raw_headers})
        await send({"type": "http.response.body", "body": response.body})
