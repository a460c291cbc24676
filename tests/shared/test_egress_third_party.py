"""The egress guard's third-party timer: a host other than the application's that does not resolve, take the
connection or (plain http) answer in time is cut off for the run, on every session that shares the timer, and each
session names it once; the application's hosts, plain-http navigations and what goes on inside a tunnel are never
timed."""

from __future__ import annotations

import asyncio
import socket
import threading
import time
from http.server import ThreadingHTTPServer

import pytest

import shared.egress
from shared.egress import ThirdPartyTimer, guarded
from shared.urls import TargetPolicy, application_hosts
from tests.apps.silent_host import start_silent_host
from tests.http_site import POLL_S
from tests.shared.test_egress import Echo

POLICY = TargetPolicy(allow_private=True)
TIMEOUT_S = 0.3
APP = "http://127.0.0.1:8080/"


@pytest.fixture
def silent():
    """A host that is not the application's: it takes connections and never answers."""
    url, stop = start_silent_host("127.0.0.2")
    yield url
    stop()


def timer() -> ThirdPartyTimer:
    return ThirdPartyTimer(application_hosts(APP), TIMEOUT_S)


def exchange(guard_url: str, data: bytes, wait_s: float = 5.0) -> tuple[bytes, float]:
    """Send data on one connection to the guard: what came back until the guard closed it (or wait_s passed), and
    how long that took."""
    host, port = guard_url.removeprefix("http://").split(":")
    started = time.monotonic()
    received = b""
    with socket.create_connection((host, int(port)), timeout=wait_s) as sock:
        sock.sendall(data)
        try:
            while chunk := sock.recv(65536):
                received += chunk
        except (TimeoutError, ConnectionResetError):
            pass
    return received, time.monotonic() - started


def test_a_silent_third_party_host_is_cut_off_after_its_first_request(silent):
    shared_timer = timer()
    with guarded(POLICY, third_party=shared_timer) as first, guarded(POLICY, third_party=shared_timer) as second:
        answer, seconds = exchange(first.url, f"GET {silent}/theme.css HTTP/1.1\r\nHost: x\r\n\r\n".encode())
        assert answer == b"" and TIMEOUT_S <= seconds < 3, (answer, seconds)  # closed unanswered, at its time
        # The run's other sessions know it too: the next requests are not forwarded, and end at once.
        for name in ("app.js", "font.woff"):
            again, seconds = exchange(second.url, f"GET {silent}/{name} HTTP/1.1\r\nHost: x\r\n\r\n".encode())
            assert again == b"" and seconds < TIMEOUT_S
    assert first.stalled == [f"GET {silent}/theme.css: no answer within {TIMEOUT_S:g} s; 127.0.0.2 is cut off for "
                             "this run"]
    # Each session names it once, so a scenario that fails later says what its pages went without.
    assert second.stalled == [f"GET {silent}/app.js: 127.0.0.2 was cut off earlier in this run (no answer within "
                              f"{TIMEOUT_S:g} s)"]
    assert shared_timer.stalled == {"127.0.0.2"} and first.unreachable == first.refused == []


def test_a_third_party_host_that_answers_is_forwarded_as_any_other():
    httpd = ThreadingHTTPServer(("127.0.0.2", 0), Echo)
    threading.Thread(target=httpd.serve_forever, kwargs={"poll_interval": POLL_S}, daemon=True).start()
    cdn = f"http://127.0.0.2:{httpd.server_port}"
    try:
        with guarded(POLICY, third_party=(shared_timer := timer())) as guard:
            answer, _ = exchange(guard.url, f"POST {cdn}/p HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\nhello"
                                 .encode())
    finally:
        httpd.shutdown()
        httpd.server_close()
    assert answer.startswith(b"HTTP/1.1 200") and answer.endswith(b"\r\n\r\nhello")
    assert guard.stalled == [] and shared_timer.stalled == set()


def test_a_host_whose_connection_does_not_come_in_time_is_cut_off_and_its_tunnels_hear_504(monkeypatch, silent):
    """A CDN behind a firewall that drops packets: the connection never comes (the guard's connect is held here)."""
    connect = shared.egress._connect

    async def dropped(addresses: list[str], port: int):
        if addresses == ["127.0.0.2"]:
            await asyncio.Event().wait()
        return await connect(addresses, port)

    monkeypatch.setattr(shared.egress, "_connect", dropped)
    host_port = silent.removeprefix("http://")
    with guarded(POLICY, third_party=timer()) as guard:
        answer, seconds = exchange(guard.url, f"CONNECT {host_port} HTTP/1.1\r\n\r\n".encode())
        assert answer.startswith(b"HTTP/1.1 504 Gateway Timeout") and TIMEOUT_S <= seconds < 3, (answer, seconds)
        again, seconds = exchange(guard.url, f"CONNECT {host_port} HTTP/1.1\r\n\r\n".encode())
        assert again.startswith(b"HTTP/1.1 504") and seconds < TIMEOUT_S
    assert guard.stalled == [f"CONNECT {host_port}: no answer within {TIMEOUT_S:g} s; 127.0.0.2 is cut off for this "
                             "run"]


def test_a_name_that_does_not_resolve_in_time_is_cut_off():
    class SlowNames(TargetPolicy):
        def addresses(self, host: str, port: int) -> list[str]:
            if host == "cdn.example":
                threading.Event().wait(4 * TIMEOUT_S)  # a name server that does not answer in time
            return super().addresses("127.0.0.2", port)

    with guarded(SlowNames(allow_private=True), third_party=timer()) as guard:
        answer, seconds = exchange(guard.url, b"GET http://cdn.example/a.css HTTP/1.1\r\nHost: x\r\n\r\n")
    assert answer == b"" and seconds < 3 * TIMEOUT_S
    assert guard.stalled == [f"GET http://cdn.example/a.css: no answer within {TIMEOUT_S:g} s; cdn.example is cut off "
                             "for this run"] and guard.unreachable == []


def test_the_applications_hosts_navigations_and_tunnels_are_never_timed(silent):
    app_host, stop_app = start_silent_host("127.0.0.1")
    try:
        with guarded(POLICY, third_party=(shared_timer := timer())) as guard:
            for request in (f"GET {app_host}/slow-api HTTP/1.1\r\nHost: x\r\n\r\n",
                            f"GET {silent}/login HTTP/1.1\r\nHost: x\r\nUpgrade-Insecure-Requests: 1\r\n\r\n",
                            # an https sign-in page of another host: its handshake is the tunnel's, not timed
                            f"CONNECT {silent.removeprefix('http://')} HTTP/1.1\r\n\r\n\x16\x03\x01 hello"):
                answer, seconds = exchange(guard.url, request.encode(), wait_s=4 * TIMEOUT_S)
                assert answer in (b"", b"HTTP/1.1 200 Connection established\r\n\r\n"), request
                assert seconds >= 4 * TIMEOUT_S * 0.9, request  # still waiting for its answer
    finally:
        stop_app()
    assert guard.stalled == [] and shared_timer.stalled == set()
