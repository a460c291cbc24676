"""The egress guard: every connection a browser or HTTP client opens on a customer's behalf goes through here.

A small forward proxy on loopback, run by one thread of the process. Each guarded run (a generation's browser
context, a replay's scenario, a webhook delivery) opens a GuardSession: its own listening port, the target
policy it applies, and the lists of what it refused and what it could not reach. For every request it is asked
to forward (CONNECT for https and WebSockets, absolute-form for plain http) it resolves the host once, judges
every address with the policy (shared/urls.py) and connects to one of the addresses it judged, so a DNS answer
that changes between the check and the connection (rebinding) cannot move it. A redirect is a new request, so
every hop is checked.

No connection is opened for a refused request: its CONNECT is answered 403, a plain-http request's connection
is closed unanswered, so the browser sees a network error where the page would have been (never a page of the
proxy's that a scenario could take for the application's). Records read "<request>: <why>"; the request is shown
without its query or user-info, which may hold tokens.

Chromium is pointed here with Playwright's `proxy` option and the bypass rule `<-loopback>` (without it,
Chromium sends loopback and link-local addresses around any proxy); HTTP clients with httpx's `proxy`.

A plain-http request is forwarded with its Host from the URL that was judged, its body by its Content-Length and
never a byte more, and `Connection: close` both ways: a second request never rides a connection judged for the
first. A hand-written proxy rather than a library: the ones on PyPI run their own processes or threads per
connection and resolve a host again after any hook has judged it.

A session given a ThirdPartyTimer also times the hosts that are not the application's (a CDN, web fonts): one whose
name does not resolve, or which does not take the connection (all its addresses together), within the timer's time,
or which does not answer a plain-http request's head within it, is cut off for the rest of the run, as a replay's
browser would otherwise wait for a stylesheet that never comes. A plain-http navigation is never timed. A CONNECT
tunnel (https, a WebSocket) is timed up to its connection only: the guard sees nothing inside it, and cannot tell a
page's navigation (a slow sign-in page of another host) from a stylesheet there.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import ipaddress
import os
import re
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field

from shared.urls import (
    DEFAULT_PORTS,
    TargetPolicy,
    TargetURL,
    UnresolvableHostError,
    UnsafeTargetError,
    parse_target_url,
)

HEAD_LIMIT = 64 * 1024
HEAD_TIMEOUT_S = 30.0
BODY_TIMEOUT_S = 30.0  # between two pieces of a request's body
RESOLVE_TIMEOUT_S = 10.0
CONNECT_TIMEOUT_S = 15.0
# Chromium's rule that sends loopback and link-local hosts through the proxy too.
BYPASS_NONE = "<-loopback>"
_HOP_BY_HOP = {"connection", "keep-alive", "proxy-connection", "proxy-authorization", "proxy-authenticate", "te",
               "trailer", "upgrade", "host"}
_DIGITS = re.compile(r"[0-9]{1,15}")
# Name resolution has no timeout of its own; a pool of its own keeps slow names from holding other work.
_RESOLVER = concurrent.futures.ThreadPoolExecutor(max_workers=8, thread_name_prefix="stepforge-egress-resolve")


class ProxyRequestError(Exception):
    """A request the proxy will not forward as it is (not a proxy request, a malformed or ambiguous one)."""

    def __init__(self, message: str, status: int = 400, reason: str = "Bad Request") -> None:
        super().__init__(message)
        self.status, self.reason = status, reason


def reason_of(record: str) -> str:
    """The "why" of a "<request>: <why>" record."""
    return record.split(": ", 1)[-1]


def first_and_count(records: list[str]) -> str:
    """The first record, and how many more there are: "<request>: <why> and 2 more"."""
    return records[0] + (f" and {len(records) - 1} more" if len(records) > 1 else "")


@dataclass
class ThirdPartyTimer:
    """The hosts of one run that are not the application's (app_hosts, see shared.urls.application_hosts) get
    timeout_s to take a connection and to answer; `stalled` holds those cut off, shared by the run's sessions."""

    app_hosts: frozenset[str]
    timeout_s: float
    stalled: set[str] = field(default_factory=set)

    def times(self, host: str) -> bool:
        return _host_key(host) not in self.app_hosts

    def stalls(self, host: str) -> bool:
        return _host_key(host) in self.stalled


def _host_key(host: str) -> str:
    return host.lower().strip("[]")


@dataclass
class GuardSession:
    """One guarded run's port on the proxy: point a browser or client at `url`. `refused` lists what the policy
    stopped, `unreachable` the servers that could not be reached (a closed port, a name that does not resolve),
    `stalled` the other hosts its third-party timer cut off."""

    policy: TargetPolicy
    refused: list[str] = field(default_factory=list)
    unreachable: list[str] = field(default_factory=list)
    third_party: ThirdPartyTimer | None = None
    stalled: list[str] = field(default_factory=list)
    url: str = ""
    _stalls_named: set[str] = field(default_factory=set)
    _server: asyncio.base_events.Server | None = None
    _tasks: set[asyncio.Task] = field(default_factory=set)
    _closed: bool = False

    @property
    def playwright_proxy(self) -> dict[str, str]:
        """The `proxy` option of Playwright's launch or new_context."""
        return {"server": self.url, "bypass": BYPASS_NONE}

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        task = asyncio.current_task()
        if self._closed or task is None:
            writer.close()
            return
        self._tasks.add(task)
        try:
            await self._forward(reader, writer)
        except (ConnectionError, asyncio.IncompleteReadError, asyncio.LimitOverrunError, TimeoutError,
                asyncio.CancelledError):
            pass  # the client left, sent no request in time, or the session closed
        except ProxyRequestError as exc:
            await _answer(writer, exc.status, exc.reason, f"stepforge's egress guard: {exc}")
        finally:
            writer.close()
            self._tasks.discard(task)

    async def _forward(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), HEAD_TIMEOUT_S)
        request_line, *header_lines = head[:-4].decode("latin-1").split("\r\n")
        method, target, version = _request_line(request_line)
        what = f"{method} {_shown(target)}"
        parsed: TargetURL | None = None
        length = 0
        timer: ThirdPartyTimer | None = None
        try:
            if method == "CONNECT":
                host, port = _authority(target)
            else:
                parsed = _absolute(target)
                host, port = parsed.host, parsed.port
                length = _body_length(header_lines)
            if self.third_party and self.third_party.times(host) and not (parsed and _navigation(header_lines)):
                timer = self.third_party
                if timer.stalls(host):
                    return await self._stalled(writer, method, host, f"{what}: {host} was cut off earlier in this "
                                                                     f"run (no answer within {timer.timeout_s:g} s)")
            addresses = await asyncio.wait_for(
                asyncio.get_running_loop().run_in_executor(_RESOLVER, self.policy.addresses, host, port),
                min(timer.timeout_s, RESOLVE_TIMEOUT_S) if timer else RESOLVE_TIMEOUT_S)
        except TimeoutError:
            if timer:
                return await self._cut_off(writer, method, host, what)
            return await self._unreachable(writer, method, f"{what}: host {host!r} did not resolve within "
                                                           f"{RESOLVE_TIMEOUT_S:g} s")
        except UnresolvableHostError as exc:
            return await self._unreachable(writer, method, f"{what}: {exc}")
        except UnsafeTargetError as exc:
            self.refused.append(f"{what}: {exc}")
            if method == "CONNECT":
                await _answer(writer, 403, "Forbidden", f"stepforge refused this request: {exc}")
            return None
        try:
            connecting = _connect(addresses, port)
            upstream_reader, upstream_writer = await (asyncio.wait_for(connecting, timer.timeout_s) if timer
                                                      else connecting)
        except OSError as exc:
            if timer and isinstance(exc, TimeoutError):
                return await self._cut_off(writer, method, host, what)
            return await self._unreachable(writer, method, f"{what}: {_connect_error(exc, host, port)}")
        try:
            if parsed is None:
                writer.write(b"HTTP/1.1 200 Connection established\r\n\r\n")
                await _tunnel(reader, writer, upstream_reader, upstream_writer)
            else:
                upstream_writer.write(_origin_form_head(method, parsed, version, header_lines))
                answered = await _exchange(reader, writer, upstream_reader, upstream_writer, length,
                                           timer.timeout_s if timer else None)
                if not answered and timer:
                    await self._cut_off(writer, method, host, what)
        finally:
            upstream_writer.close()

    async def _unreachable(self, writer: asyncio.StreamWriter, method: str, record: str) -> None:
        """Record a server that cannot be reached; a CONNECT hears 502, a plain request a closed connection."""
        self.unreachable.append(record)
        if method == "CONNECT":
            await _answer(writer, 502, "Bad Gateway", f"stepforge could not reach it: {reason_of(record)}")

    async def _cut_off(self, writer: asyncio.StreamWriter, method: str, host: str, what: str) -> None:
        """The host did not answer in time: cut off for the run, on every session of its timer."""
        assert self.third_party is not None
        self.third_party.stalled.add(_host_key(host))
        await self._stalled(writer, method, host, f"{what}: no answer within {self.third_party.timeout_s:g} s; {host} "
                                                  "is cut off for this run")

    async def _stalled(self, writer: asyncio.StreamWriter, method: str, host: str, record: str) -> None:
        """A request to a host cut off, named once per session in `stalled`; a CONNECT hears 504, a plain request a
        closed connection."""
        if _host_key(host) not in self._stalls_named:
            self._stalls_named.add(_host_key(host))
            self.stalled.append(record)
        if method == "CONNECT":
            await _answer(writer, 504, "Gateway Timeout", f"stepforge cut {host} off for this run: it did not answer "
                                                           f"within {self.third_party.timeout_s:g} s")

    async def _close(self) -> None:
        self._closed = True
        if self._server is not None:
            self._server.close()
        tasks = list(self._tasks)
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)


def _request_line(line: str) -> tuple[str, str, str]:
    parts = line.split(" ")
    if len(parts) != 3 or not parts[2].startswith("HTTP/"):
        raise ProxyRequestError(f"not an HTTP request line: {line[:100]!r}")
    return parts[0].upper(), parts[1], parts[2]


def _authority(target: str) -> tuple[str, int]:
    host, sep, port = target.rpartition(":")
    if not sep or not host or not _DIGITS.fullmatch(port) or not 0 < int(port) < 65536:
        raise ProxyRequestError(f"CONNECT needs host:port, not {target[:100]!r}")
    host = host[1:-1] if host.startswith("[") and host.endswith("]") else host
    try:
        ipaddress.ip_address(host)
    except ValueError:
        try:
            parse_target_url(f"https://{host}:{port}/")  # a name the URL parser reads as it is written
        except UnsafeTargetError as exc:
            raise ProxyRequestError(f"CONNECT to {target[:100]!r}: {exc}") from None
    return host, int(port)


def _absolute(target: str) -> TargetURL:
    if not target.lower().startswith(("http://", "https://")):
        raise ProxyRequestError(f"a proxy forwards absolute http URLs, not {target[:100]!r}")
    return parse_target_url(target)


def _navigation(header_lines: list[str]) -> bool:
    """Whether a plain-http request loads a document (Chromium says so on navigations only)."""
    for line in header_lines:
        name, _, value = line.partition(":")
        name, value = name.strip().lower(), value.strip().lower()
        if (name, value) in (("upgrade-insecure-requests", "1"), ("sec-fetch-mode", "navigate")):
            return True
    return False


def _body_length(header_lines: list[str]) -> int:
    """The request body's length, from its one Content-Length; a chunked or ambiguous body is refused."""
    lengths = []
    for line in header_lines:
        name, _, value = line.partition(":")
        name = name.strip().lower()
        if name == "transfer-encoding":
            raise ProxyRequestError("a body of unknown length (Transfer-Encoding) is not forwarded; send its "
                                    "Content-Length", 411, "Length Required")
        if name == "content-length":
            lengths.append(value.strip())
    if not lengths:
        return 0
    if len(set(lengths)) > 1 or not _DIGITS.fullmatch(lengths[0]):
        raise ProxyRequestError(f"Content-Length {', '.join(lengths)[:40]!r}")
    return int(lengths[0])


_USER_INFO = re.compile(r"(?<=//)[^/?#@]*@")


def _shown(url: str) -> str:
    """A URL without its query, fragment or user-info (which may hold tokens), for the records."""
    return _USER_INFO.sub("", url.split("?", 1)[0].split("#", 1)[0])[:300]


def _origin_form_head(method: str, target: TargetURL, version: str, header_lines: list[str]) -> bytes:
    """The request as the server gets it: its path, Host from the URL that was judged, no hop-by-hop headers."""
    host = f"[{target.host}]" if ":" in target.host else target.host
    lines = [f"{method} {target.path} {version}",
             f"Host: {host}" + ("" if DEFAULT_PORTS[target.scheme] == target.port else f":{target.port}")]
    lines += [line for line in header_lines if line.split(":", 1)[0].strip().lower() not in _HOP_BY_HOP]
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
                    upstream_reader: asyncio.StreamReader, upstream_writer: asyncio.StreamWriter, length: int,
                    answer_within: float | None = None) -> bool:
    """One plain-http request (its head already on its way) and its answer: the body as long as its length, the
    answer's head saying `Connection: close`, and the end when the server's answer ends or the client closes or
    sends anything more (a second request never rides this connection). False when the answer's head did not come
    within answer_within (then the connection closes unanswered)."""
    left = length
    while left:
        piece = await asyncio.wait_for(reader.read(min(left, 65536)), BODY_TIMEOUT_S)
        if not piece:
            return True  # the client gave up in the middle of its body
        upstream_writer.write(piece)
        await upstream_writer.drain()
        left -= len(piece)
    answered = True

    async def answer() -> None:
        nonlocal answered
        with contextlib.suppress(asyncio.IncompleteReadError, asyncio.LimitOverrunError):
            try:
                head = await asyncio.wait_for(upstream_reader.readuntil(b"\r\n\r\n"), answer_within)
            except TimeoutError:
                answered = False
                return
            writer.write(_closing_head(head))
            await _copy(upstream_reader, writer)

    async def client_sends_more() -> None:
        if not await reader.read(1):  # a half-close: done sending, still reading the answer
            await asyncio.Event().wait()

    download = asyncio.ensure_future(answer())
    more = asyncio.ensure_future(client_sends_more())
    try:
        await asyncio.wait({download, more}, return_when=asyncio.FIRST_COMPLETED)
    finally:
        download.cancel()
        more.cancel()
    return answered


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
             unreachable: list[str] | None = None, third_party: ThirdPartyTimer | None = None) -> GuardSession:
        """A new session; it records into the lists given (a run's own), else into lists of its own; with a
        third-party timer, it times the hosts that are not the application's (see the module's docstring)."""
        session = GuardSession(policy, refused if refused is not None else [],
                               unreachable if unreachable is not None else [], third_party)

        async def start() -> None:
            session._server = await asyncio.start_server(session._serve, "127.0.0.1", 0, limit=HEAD_LIMIT)
            port = session._server.sockets[0].getsockname()[1]
            session.url = f"http://127.0.0.1:{port}"

        asyncio.run_coroutine_threadsafe(start(), self._loop).result()
        return session

    def close(self, session: GuardSession) -> None:
        with contextlib.suppress(RuntimeError, concurrent.futures.TimeoutError):
            asyncio.run_coroutine_threadsafe(session._close(), self._loop).result(timeout=10)


_guard: EgressGuard | None = None
_guard_lock = threading.Lock()


def _forget_after_fork() -> None:
    """A forked child has neither the guard's thread nor a usable copy of its loop: it starts its own."""
    global _guard, _guard_lock
    _guard, _guard_lock = None, threading.Lock()


os.register_at_fork(after_in_child=_forget_after_fork)


def egress_guard() -> EgressGuard:
    """The process's guard, started on first use."""
    global _guard
    with _guard_lock:
        if _guard is None:
            _guard = EgressGuard()
        return _guard


@contextlib.contextmanager
def guarded(policy: TargetPolicy, refused: list[str] | None = None, unreachable: list[str] | None = None,
            third_party: ThirdPartyTimer | None = None) -> Iterator[GuardSession]:
    """A guard session for the block; its port closes when the block ends."""
    guard = egress_guard()
    session = guard.open(policy, refused, unreachable, third_party)
    try:
        yield session
    finally:
        guard.close(session)
