"""The egress guard's third-party timer: a host other than the application's that takes the connection but does
not answer in time is cut off for the run, on every session that shares the timer; the application's hosts and
plain-http navigations are never timed."""

from __future__ import annotations

import socket
import time

import pytest

from shared.egress import ThirdPartyTimer, guarded
from shared.urls import TargetPolicy, application_hosts
from tests.apps.silent_host import start_silent_host

POLICY = TargetPolicy(allow_private=True)
TIMEOUT_S = 0.3
APP = "http://127.0.0.1:8080/"


@pytest.fixture
def silent():
    """A host that is not the application's: it takes connections and never answers."""
    url, stop = start_silent_host("127.0.0.2")
    yield url
    stop()


def exchange(guard_url: str, data: bytes, then: bytes = b"", wait_s: float = 5.0) -> tuple[bytes, float]:
    """Send data (and, once a CONNECT is established, `then`) on one connection to the guard: what came back
    until the guard closed it (or wait_s passed), and how long that took."""
    host, port = guard_url.removeprefix("http://").split(":")
    started = time.monotonic()
    received = b""
    with socket.create_connection((host, int(port)), timeout=wait_s) as sock:
        sock.sendall(data)
        try:
            while chunk := sock.recv(65536):
                received += chunk
                if then and received.endswith(b"\r\n\r\n"):
                    sock.sendall(then)
                    then = b""
        except (TimeoutError, ConnectionResetError):
            pass
    return received, time.monotonic() - started


def test_a_silent_third_party_host_is_cut_off_after_its_first_request(silent):
    timer = ThirdPartyTimer(application_hosts(APP), TIMEOUT_S)
    with guarded(POLICY, third_party=timer) as first, guarded(POLICY, third_party=timer) as second:
        answer, seconds = exchange(first.url, f"GET {silent}/theme.css HTTP/1.1\r\nHost: x\r\n\r\n".encode())
        assert answer == b"" and TIMEOUT_S <= seconds < 3, (answer, seconds)  # closed unanswered, at its time
        # The run's other sessions know it too: the next request is not forwarded, and ends at once.
        again, seconds = exchange(second.url, f"GET {silent}/app.js HTTP/1.1\r\nHost: x\r\n\r\n".encode())
        assert again == b"" and seconds < TIMEOUT_S
    assert first.stalled == [f"GET {silent}/theme.css: no answer within {TIMEOUT_S:g} s; 127.0.0.2 is cut off for "
                             "this run"]
    assert second.stalled == [] and timer.stalled == {"127.0.0.2"}
    assert first.unreachable == first.refused == []


def test_a_tunnel_whose_server_does_not_answer_the_handshake_is_closed_and_its_host_cut_off(silent):
    host_port = silent.removeprefix("http://")
    timer = ThirdPartyTimer(application_hosts(APP), TIMEOUT_S)
    with guarded(POLICY, third_party=timer) as guard:
        answer, seconds = exchange(guard.url, f"CONNECT {host_port} HTTP/1.1\r\n\r\n".encode(),
                                   then=b"\x16\x03\x01 a TLS hello")
        assert answer == b"HTTP/1.1 200 Connection established\r\n\r\n" and seconds < 3
        refused, _ = exchange(guard.url, f"CONNECT {host_port} HTTP/1.1\r\n\r\n".encode())
    assert refused.startswith(b"HTTP/1.1 504 Gateway Timeout") and b"127.0.0.2" in refused
    assert guard.stalled == [f"CONNECT {host_port}: no answer within {TIMEOUT_S:g} s; 127.0.0.2 is cut off for this "
                             "run"]


def test_the_applications_hosts_and_navigations_are_never_timed(silent):
    timer = ThirdPartyTimer(application_hosts(APP), TIMEOUT_S)
    app_host, stop_app = start_silent_host("127.0.0.1")
    try:
        with guarded(POLICY, third_party=timer) as guard:
            for request in (f"GET {app_host}/slow-api HTTP/1.1\r\nHost: x\r\n\r\n",
                            f"GET {silent}/login HTTP/1.1\r\nHost: x\r\nUpgrade-Insecure-Requests: 1\r\n\r\n"):
                answer, seconds = exchange(guard.url, request.encode(), wait_s=4 * TIMEOUT_S)
                assert answer == b"" and seconds >= 4 * TIMEOUT_S * 0.9, request  # still waiting for its answer
    finally:
        stop_app()
    assert guard.stalled == [] and timer.stalled == set()
