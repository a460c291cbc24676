"""The egress guard: every connection a browser or HTTP client opens on a customer's behalf goes through here.

A small forward proxy on loopback, run by one thread of the process. Each guarded run (a generation's browser
context, a replay's scenario, a webhook delivery) opens a GuardSession: its own listening port, the target
policy it applies, and the list of what it refused. For every request it is asked to forward (CONNECT for
https and WebSockets, absolute-form for plain http) it resolves the host once, judges every address with the
policy (shared/urls.py) and connects to one of the addresses it judged, so a DNS answer that changes between
the check and the connection (rebinding) cannot move it. A redirect is a new request, so every hop is checked.
No connection is opened for a refused request: its CONNECT is answered 403, a plain-http request's connection
is closed unanswered, so the browser sees a network error where the page would have been (never a page of the
proxy's that a scenario could take for the application's). The session records why, as it records a server that
could not be reached.

Chromium is pointed here with Playwright's `proxy` option and the bypass rule `<-loopback>` (without it,
Chromium sends loopback and link-local addresses around any proxy); HTTP clients with httpx's `proxy`.

A plain-http request is forwarded with `Connection: close` and its connection closed after the answer: the
proxy parses only request heads, never bodies, and the browser opens a new connection for its next request.
"""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import os
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field

from shared.urls import DEFAULT_PORTS, TargetPolicy, UnsafeTargetError, parse_target_url

HEAD_LIMIT = 64 * 1024
HEAD_TIMEOUT_S = 30.0
CONNECT_TIMEOUT_S = 15.0
# Chromium's rule that sends loopback and link-local hosts through the proxy too.
BYPASS_NONE = "<-loopback>"
_HOP_BY_HOP = {"connection", "keep-alive", "proxy-connection", "proxy-authorization", "proxy-authenticate", "te",
               "trailer", "upgrade"}


class ProxyRequestError(Exception):
    """A request the proxy cannot forward (not a proxy request, or a malformed one): answered 400."""


@dataclass
class GuardSession:
    """One guarded run's port on the proxy: point a browser or client at `url`. `refused` lists what the policy
    stopped, `unreachable` the servers that could not be reached, each as "<what was asked>: <why>"."""

    policy: TargetPolicy
    refused: list[str] = field(default_factory=list)
    unreachable: list[str] = field(default_factory=list)
    url: str = ""
    _server: asyncio.base_events.Server | None = None
    _tasks: set[asyncio.Task] = field(default_factory=set)

    @property
    def playwright_proxy(self) -> dict[str, str]:
        """The `proxy` option of Playwright's launch or new_context."""
        return {"server": self.url, "bypass": BYPASS_NONE}

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        task = asyncio.current_task()
        if task is not None:
            self._tasks.add(task)
        try:
            await self._forward(reader, writer)
        except (ConnectionError, asyncio.IncompleteReadError, asyncio.LimitOverrunError, TimeoutError,
                asyncio.CancelledError):
            pass  # the client left, sent no request in time, or the session closed
        except ProxyRequestError as exc:
            await _answer(writer, 400, "Bad Request", f"stepforge's egress guard: {exc}")
        finally:
            writer.close()
            if task is not None:
                self._tasks.discard(task)

    async def _forward(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), HEAD_TIMEOUT_S)
        request_line, *header_lines = head[:-4].decode("latin-1").split("\r\n")
        method, target, version = _request_line(request_line)
        what = f"{method} {_shown(target)}"
        try:
            host, port = _authority(target) if method == "CONNECT" else _host_port(target)
            addresses = await asyncio.get_running_loop().run_in_executor(None, self.policy.addresses, host, port)
        except UnsafeTargetError as exc:
            self.refused.append(f"{what}: {exc}")
            if method == "CONNECT":
                await _answer(writer, 403, "Forbidden", f"stepforge refused this request: {exc}")
            return
        try:
            upstream_reader, upstream_writer = await _connect(addresses, port)
        except OSError as exc:
            self.unreachable.append(f"{what}: {_connect_error(exc, host, port)}")
            if method == "CONNECT":
                await _answer(writer, 502, "Bad Gateway", f"stepforge could not reach {host}:{port}")
            return
        try:
            if method == "CONNECT":
                writer.write(b"HTTP/1.1 200 Connection established\r\n\r\n")
                await _tunnel(reader, writer, upstream_reader, upstream_writer)
            else:
                upstream_writer.write(_origin_form_head(method, target, version, header_lines))
                await _exchange(reader, writer, upstream_reader, upstream_writer, header_lines)
        finally:
            upstream_writer.close()

    async def _close(self) -> None:
        if self._server is not None:
            self._server.close()
        for task in list(self._tasks):
            task.cancel()


def _request_line(line: str) -> tuple[str, str, str]:
    parts = line.split(" ")
    if len(parts) != 3 or not parts[2].startswith("HTTP/"):
        raise ProxyRequestError(f"not an HTTP request line: {line[:100]!r}")
    return parts[0].upper(), parts[1], parts[2]


def _authority(target: str) -> tuple[str, int]:
    host, sep, port = target.rpartition(":")
    if not sep or not port.isdigit() or not host:
        raise ProxyRequestError(f"CONNECT needs host:port, not {target[:100]!r}")
    host = host[1:-1] if host.startswith("[") and host.endswith("]") else host
    number = int(port)
    if not 0 < number < 65536:
        raise ProxyRequestError(f"CONNECT to port {port}")
    try:
        ipaddress.ip_address(host)
    except ValueError:
        parse_target_url(f"https://{host}:{number}/")  # a name the URL parser reads as it is written
    return host, number


def _host_port(target: str) -> tuple[str, int]:
    if not target.lower().startswith(("http://", "https://")):
        raise ProxyRequestError(f"a proxy forwards absolute http URLs, not {target[:100]!r}")
    parsed = parse_target_url(target)
    return parsed.host, parsed.port


def _shown(url: str) -> str:
    """A URL without its query (which may hold tokens), for the refusal record."""
    return url.split("?", 1)[0].split("#", 1)[0]


def _origin_form_head(method: str, target: str, version: str, header_lines: list[str]) -> bytes:
    parsed = parse_target_url(target)
    rest = target.split("//", 1)[1]
    slash = min((i for i in (rest.find("/"), rest.find("?")) if i >= 0), default=-1)
    path = rest[slash:] if slash >= 0 else "/"
    path = path if path.startswith("/") else "/" + path
    lines = [f"{method} {path.split('#', 1)[0]} {version}"]
    has_host = False
    for line in header_lines:
        name = line.split(":", 1)[0].strip().lower()
        if name in _HOP_BY_HOP:
            continue
        has_host = has_host or name == "host"
        lines.append(line)
    if not has_host:
        default = DEFAULT_PORTS[parsed.scheme] == parsed.port
        lines.append(f"Host: {parsed.host}" + ("" if default else f":{parsed.port}"))
    lines.append("Connection: close")
    return ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1")


def _connect_error(exc: OSError, host: str, port: int) -> str:
    if isinstance(exc, ConnectionRefusedError):
        return f"refused the connection (nothing listens on {host}:{port})"
    if isinstance(exc, TimeoutError):
        return f"{host}:{port} did not answer within {CONNECT_TIMEOUT_S:g} s"
    return f"{host}:{port} cannot be reached ({exc.strerror or exc})"


async def _connect(addresses: list[str], port: int) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    error: OSError | None = None
    for address in addresses:
        try:
            return await asyncio.wait_for(asyncio.open_connection(address, port), CONNECT_TIMEOUT_S)
        except OSError as exc:
            error = exc
    raise error or ConnectionError("no address")


async def _copy(source: asyncio.StreamReader, sink: asyncio.StreamWriter) -> None:
    with contextlib.suppress(ConnectionError):
        while chunk := await source.read(65536):
            sink.write(chunk)
            await sink.drain()
    with contextlib.suppress(OSError, RuntimeError):
        if sink.can_write_eof():
            sink.write_eof()


async def _tunnel(reader: asyncio.StreamReader, writer: asyncio.StreamWriter,
                  upstream_reader: asyncio.StreamReader, upstream_writer: asyncio.StreamWriter) -> None:
    """A CONNECT tunnel (TLS, a WebSocket): bytes both ways until the server's side ends or the client leaves."""
    upload = asyncio.ensure_future(_copy(reader, upstream_writer))
    download = asyncio.ensure_future(_copy(upstream_reader, writer))
    try:
        await asyncio.wait({upload, download}, return_when=asyncio.FIRST_COMPLETED)
        if not download.done():  # the client finished sending; the answer may still be coming
            await download
    finally:
        upload.cancel()
        download.cancel()


async def _exchange(reader: asyncio.StreamReader, writer: asyncio.StreamWriter,
                    upstream_reader: asyncio.StreamReader, upstream_writer: asyncio.StreamWriter,
                    header_lines: list[str]) -> None:
    """One plain-http request (its head already sent) and its answer. The request's body is forwarded as long as
    its Content-Length says (or up to its last chunk), never a byte more; the answer's head says `Connection:
    close` whatever the server said; and the exchange ends when the server's answer ends or the client closes or
    sends anything else: a second request never rides a connection judged for the first."""
    headers = {line.split(":", 1)[0].strip().lower(): line.split(":", 1)[-1].strip() for line in header_lines}
    length = headers.get("content-length", "0")
    if "chunked" in headers.get("transfer-encoding", "").lower():
        body = await reader.readuntil(b"\r\n0\r\n\r\n")
    elif length.isdigit():
        body = await reader.readexactly(int(length))
    else:
        raise ProxyRequestError(f"Content-Length {length[:20]!r}")
    upstream_writer.write(body)
    await upstream_writer.drain()

    async def answer() -> None:
        with contextlib.suppress(asyncio.IncompleteReadError, asyncio.LimitOverrunError):
            writer.write(_closing_head(await upstream_reader.readuntil(b"\r\n\r\n")))
            await _copy(upstream_reader, writer)

    download = asyncio.ensure_future(answer())
    client_done = asyncio.ensure_future(reader.read(1))  # the client closing, or sending what it must not
    try:
        await asyncio.wait({download, client_done}, return_when=asyncio.FIRST_COMPLETED)
    finally:
        download.cancel()
        client_done.cancel()


def _closing_head(head: bytes) -> bytes:
    """An answer's head saying the connection closes after it."""
    status, *lines = head[:-4].split(b"\r\n")
    kept = [line for line in lines if line.split(b":", 1)[0].strip().lower() not in (b"connection", b"keep-alive",
                                                                                      b"proxy-connection")]
    return b"\r\n".join([status, *kept, b"Connection: close", b"Proxy-Connection: close"]) + b"\r\n\r\n"


async def _answer(writer: asyncio.StreamWriter, status: int, reason: str, text: str) -> None:
    body = (text + "\n").encode()
    headers = [f"HTTP/1.1 {status} {reason}", "Content-Type: text/plain; charset=utf-8",
               f"Content-Length: {len(body)}", "Connection: close"]
    with contextlib.suppress(ConnectionError, RuntimeError):
        writer.write(("\r\n".join(headers) + "\r\n\r\n").encode("latin-1", "replace") + body)
        await writer.drain()


class EgressGuard:
    """The process's proxy thread; sessions open and close on it."""

    def __init__(self) -> None:
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, name="stepforge-egress-guard", daemon=True)
        self._thread.start()

    def open(self, policy: TargetPolicy, refused: list[str] | None = None,
             unreachable: list[str] | None = None) -> GuardSession:
        """A new session; it records into the lists given (a run's own), else into lists of its own."""
        session = GuardSession(policy, refused if refused is not None else [],
                               unreachable if unreachable is not None else [])

        async def start() -> None:
            session._server = await asyncio.start_server(session._serve, "127.0.0.1", 0, limit=HEAD_LIMIT)
            port = session._server.sockets[0].getsockname()[1]
            session.url = f"http://127.0.0.1:{port}"

        asyncio.run_coroutine_threadsafe(start(), self._loop).result()
        return session

    def close(self, session: GuardSession) -> None:
        with contextlib.suppress(RuntimeError):
            asyncio.run_coroutine_threadsafe(session._close(), self._loop).result(timeout=10)


_guard: EgressGuard | None = None
_guard_pid = 0
_guard_lock = threading.Lock()


def egress_guard() -> EgressGuard:
    """The process's guard, started on first use (again in a forked child: threads do not survive a fork)."""
    global _guard, _guard_pid
    with _guard_lock:
        if _guard is None or _guard_pid != os.getpid():
            _guard, _guard_pid = EgressGuard(), os.getpid()
        return _guard


@contextlib.contextmanager
def guarded(policy: TargetPolicy, refused: list[str] | None = None,
            unreachable: list[str] | None = None) -> Iterator[GuardSession]:
    """A guard session for the block; its port closes when the block ends."""
    guard = egress_guard()
    session = guard.open(policy, refused, unreachable)
    try:
        yield session
    finally:
        guard.close(session)
