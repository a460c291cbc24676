"""The egress guard as a proxy: it forwards what the policy allows, refuses the rest before any connection and
says why, tunnels CONNECT, and never lets a second request ride a connection judged for the first."""

from __future__ import annotations

import ipaddress
import socket
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import httpx
import pytest

from shared.egress import guarded
from shared.urls import NO_EGRESS, TargetPolicy
from tests.http_site import POLL_S

REFUSED = TargetPolicy(allow_private=True, refused_networks=(ipaddress.ip_network("127.0.0.2/32"),))


class Echo(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"  # keep-alive unless told otherwise

    def do_GET(self) -> None:  # noqa: N802
        self.answer(f"{self.command} {self.path} host={self.headers['Host']}".encode())

    def do_POST(self) -> None:  # noqa: N802
        self.answer(self.rfile.read(int(self.headers["Content-Length"])))

    def answer(self, body: bytes) -> None:
        self.send_response(200)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Connection", "keep-alive")
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture(scope="module")
def server():
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), Echo)
    threading.Thread(target=httpd.serve_forever, kwargs={"poll_interval": POLL_S}, daemon=True).start()
    yield f"http://127.0.0.1:{httpd.server_port}"
    httpd.shutdown()


@pytest.fixture
def listener():
    """A listener on the refused address that counts the connections it accepts."""
    sock = socket.socket()
    sock.bind(("127.0.0.2", 0))
    sock.listen(8)
    accepted: list[object] = []

    def accept() -> None:
        while True:
            try:
                accepted.append(sock.accept()[0].close())
            except OSError:
                return

    threading.Thread(target=accept, daemon=True).start()
    yield sock.getsockname()[1], accepted
    sock.close()


def test_allowed_requests_are_forwarded_with_their_bodies(server):
    with guarded(REFUSED) as guard, httpx.Client(proxy=guard.url, trust_env=False) as client:
        assert client.get(f"{server}/a?b=1").text == f"GET /a?b=1 host={server.removeprefix('http://')}"
        assert client.post(f"{server}/p", content=b"x" * 200_000).content == b"x" * 200_000
    assert guard.refused == [] and guard.unreachable == []


def test_a_refused_address_gets_no_connection_and_the_reason_is_kept(listener):
    port, accepted = listener
    with guarded(REFUSED) as guard, httpx.Client(proxy=guard.url, trust_env=False) as client:
        with pytest.raises(httpx.RemoteProtocolError):
            client.get(f"http://127.0.0.2:{port}/secret?token=abc")
        with pytest.raises(httpx.ProxyError, match="403"):
            client.get(f"https://127.0.0.2:{port}/")  # https goes through CONNECT
    assert guard.refused == [
        f"GET http://127.0.0.2:{port}/secret: 127.0.0.2 is in a refused network (127.0.0.2/32, STEPFORGE_REFUSED_NETWORKS)",
        f"CONNECT 127.0.0.2:{port}: 127.0.0.2 is in a refused network (127.0.0.2/32, STEPFORGE_REFUSED_NETWORKS)",
    ]
    assert accepted == []


def test_no_egress_refuses_everything(server):
    with guarded(NO_EGRESS) as guard, httpx.Client(proxy=guard.url, trust_env=False) as client:
        with pytest.raises(httpx.RemoteProtocolError):
            client.get(server)
    assert "never leaves" in guard.refused[0]


def test_a_name_that_does_not_resolve_is_unreachable_not_refused():
    with guarded(REFUSED) as guard, httpx.Client(proxy=guard.url, trust_env=False) as client:
        with pytest.raises(httpx.RemoteProtocolError):
            client.get("http://no-such-host.invalid/x?token=secret")
    assert guard.refused == []
    assert guard.unreachable == ["GET http://no-such-host.invalid/x: host 'no-such-host.invalid' does not resolve"]


def test_records_never_show_a_query_or_user_info(listener):
    port, _ = listener
    with guarded(REFUSED) as guard:
        raw(guard.url, f"GET http://127.1:{port}/x?token=secret HTTP/1.1\r\n\r\n".encode())
        raw(guard.url, f"GET http://u:pw@127.0.0.2:{port}/y?token=secret HTTP/1.1\r\n\r\n".encode())
    assert guard.refused and not any("secret" in r or "pw" in r for r in guard.refused), guard.refused


def test_an_unreachable_server_is_told_apart_from_a_refused_one():
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    with guarded(REFUSED) as guard, httpx.Client(proxy=guard.url, trust_env=False) as client:
        with pytest.raises(httpx.RemoteProtocolError):
            client.get(f"http://127.0.0.1:{port}/")
    assert guard.refused == []
    assert guard.unreachable == [f"GET http://127.0.0.1:{port}/: refused the connection (nothing listens on "
                                 f"127.0.0.1:{port})"]


def raw(guard_url: str, data: bytes, until: bytes | None = None) -> bytes:
    """What the guard answers on one connection: until it closes it, or until `until` arrives."""
    host, port = guard_url.removeprefix("http://").split(":")
    with socket.create_connection((host, int(port)), timeout=10) as sock:
        sock.sendall(data)
        received = b""
        while (until is None or until not in received) and (chunk := sock.recv(65536)):
            received += chunk
    return received


def test_an_answer_says_the_connection_closes_whatever_the_server_said(server):
    """...and the server gets the Host of the URL that was judged, never one the client wrote."""
    host = server.removeprefix("http://")
    with guarded(REFUSED) as guard:
        answer = raw(guard.url, f"GET {server}/first HTTP/1.1\r\nHost: internal.svc\r\n\r\n".encode(),
                     until=host.encode())
    head, _, body = answer.partition(b"\r\n\r\n")
    assert b"Connection: close" in head and b"keep-alive" not in head.lower()  # the server said keep-alive
    assert body == f"GET /first host={host}".encode()


def test_a_client_done_sending_still_gets_its_answer(server):
    with guarded(REFUSED) as guard:
        proxy_host, proxy_port = guard.url.removeprefix("http://").split(":")
        with socket.create_connection((proxy_host, int(proxy_port)), timeout=10) as sock:
            sock.sendall(f"POST {server}/p HTTP/1.1\r\nContent-Length: 5\r\n\r\nhello".encode())
            sock.shutdown(socket.SHUT_WR)  # a half-close: done sending
            received = b""
            while not received.endswith(b"hello") and (chunk := sock.recv(65536)):
                received += chunk
    assert received.startswith(b"HTTP/1.1 200") and received.endswith(b"\r\n\r\nhello")


@pytest.mark.parametrize(("headers", "status"), [
    ("Transfer-Encoding: chunked\r\n", b"411"),
    ("Content-Length: 5\r\nContent-Length: 6\r\n", b"400"),
    ("Content-Length: \u00b2\r\n", b"400"),  # a digit to str.isdigit, no number
])
def test_a_body_of_unknown_or_ambiguous_length_is_refused_before_any_connection(server, headers, status):
    with guarded(REFUSED) as guard:
        answer = raw(guard.url, f"POST {server}/p HTTP/1.1\r\n{headers}\r\nhello".encode("utf-8"))
    assert answer.startswith(b"HTTP/1.1 " + status), answer


def test_a_second_request_never_rides_the_first_ones_connection(server, listener):
    """A request sent down a connection judged for another ends it: it reaches neither its own address nor the
    first request's server."""
    port, accepted = listener
    with guarded(REFUSED) as guard:
        answer = raw(guard.url, f"GET {server}/first HTTP/1.1\r\nHost: x\r\n\r\n"
                                f"GET http://127.0.0.2:{port}/second HTTP/1.1\r\nHost: y\r\n\r\n".encode())
    assert b"second" not in answer and b"127.0.0.2" not in answer
    assert accepted == []


def test_connect_tunnels_to_an_allowed_server(server):
    host_port = server.removeprefix("http://")
    with guarded(REFUSED) as guard:
        answer = raw(guard.url, f"CONNECT {host_port} HTTP/1.1\r\n\r\nGET /t HTTP/1.1\r\nHost: {host_port}\r\n"
                                "\r\n".encode(), until=b"host=" + host_port.encode())
    assert answer.startswith(b"HTTP/1.1 200 Connection established\r\n\r\nHTTP/1.1 200")
    assert answer.endswith(f"GET /t host={host_port}".encode())


@pytest.mark.parametrize("request_line", [b"GET / HTTP/1.1", b"NONSENSE", b"CONNECT nohostport HTTP/1.1",
                                          "CONNECT 127.0.0.1:8\u00b20 HTTP/1.1".encode()])
def test_what_is_no_proxy_request_is_a_400(request_line):
    with guarded(REFUSED) as guard:
        answer = raw(guard.url, request_line + b"\r\n\r\n")
    assert answer.startswith(b"HTTP/1.1 400 Bad Request")
