"""shared/webhooks.py against a real local HTTP receiver that verifies signatures with the `standardwebhooks` package."""

from __future__ import annotations

import base64
import json
import random
import socket
import threading
import time
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
import structlog
from standardwebhooks import Webhook
from standardwebhooks.webhooks import WebhookVerificationError as LibraryVerificationError
from structlog.testing import capture_logs

from shared import webhooks
from shared.urls import TargetPolicy
from shared.webhooks import (
    BACKOFF_S,
    DEFAULT_MAX_ATTEMPTS,
    JITTER,
    MAX_DELAY_S,
    WebhookVerificationError,
    deliver_once,
    event,
    new_secret,
    next_delay,
    parse_secret,
    sign,
    verify,
)
from tests.http_site import POLL_S

SECRET = new_secret()
SLOW_S = 1.5


# --- a real receiver ------------------------------------------------------------------------------------------


class Receiver(ThreadingHTTPServer):
    daemon_threads = True  # a handler still sleeping after the client gave up must not block shutdown

    def __init__(self) -> None:
        super().__init__(("127.0.0.1", 0), Handler)
        self.requests: list[dict] = []
        self.lock = threading.Lock()

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.server_address[1]}"

    def paths(self) -> list[str]:
        with self.lock:
            return [r["path"] for r in self.requests]


class Handler(BaseHTTPRequestHandler):
    server: Receiver

    def log_message(self, *args) -> None:  # keep test output quiet
        pass

    def do_POST(self) -> None:
        body = self.rfile.read(int(self.headers.get("content-length", 0)))
        hdrs = {k.lower(): v for k, v in self.headers.items()}
        try:
            Webhook(SECRET).verify(body, hdrs)  # the reference implementation, as a real receiver would
            verified = True
        except LibraryVerificationError:
            verified = False
        with self.server.lock:
            self.server.requests.append({"path": self.path, "headers": hdrs, "body": body, "verified": verified})

        if self.path == "/slow":
            time.sleep(SLOW_S)
        status, extra, reply = {
            "/ok": (200, {}, b'{"received":true}'),
            "/accepted": (202, {}, b""),
            "/fail": (500, {}, b"internal error"),
            "/busy": (429, {"Retry-After": "7"}, b"slow down"),
            "/gone": (410, {}, b"gone"),
            "/unauthorized": (401, {}, b"bad signature"),
            "/redirect": (302, {"Location": "/elsewhere"}, b""),
            "/big": (200, {}, b"x" * 10_000),
            "/slow": (200, {}, b"late"),
        }.get(self.path, (404, {}, b"no such path"))
        self.send_response(status)
        for name, value in extra.items():
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(reply)))
        self.end_headers()
        try:
            self.wfile.write(reply)
        except OSError:
            pass  # the client timed out and left


@pytest.fixture(scope="module")
def receiver() -> Receiver:
    server = Receiver()
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": POLL_S}, daemon=True)
    thread.start()
    yield server
    server.shutdown()
    server.server_close()


@pytest.fixture(autouse=True)
def _clear(request) -> None:
    if "receiver" in request.fixturenames:
        server = request.getfixturevalue("receiver")
        with server.lock:
            server.requests.clear()


def _deliver(url: str, **kw):
    kw.setdefault("timeout_s", 2.0)
    kw["policy"] = TargetPolicy(allow_private=kw.pop("allow_private", True))
    return deliver_once(url, SECRET, kw.pop("msg_id", "msg_test1"), {"type": "batch.completed", "data": {"n": 1}}, **kw)


# --- secrets --------------------------------------------------------------------------------------------------


def test_new_secret_is_standard_form_and_accepted_by_the_library():
    secret = new_secret()
    assert secret.startswith("whsec_")
    assert len(parse_secret(secret)) == 32
    Webhook(secret)  # the reference library accepts it
    assert new_secret() != secret


@pytest.mark.parametrize(
    ("bad", "why"),
    [
        ("", "start with 'whsec_'"),
        ("c2VjcmV0c2VjcmV0c2VjcmV0c2VjcmV0", "start with 'whsec_'"),
        ("whsec_", "24 to 64 bytes"),
        ("whsec_not*base64!", "not valid base64"),
        ("whsec_" + base64.b64encode(b"short").decode(), "24 to 64 bytes, got 5"),
        ("whsec_" + base64.b64encode(b"x" * 65).decode(), "24 to 64 bytes, got 65"),
        (None, "must be a string"),
    ],
)
def test_parse_secret_rejects_bad_input_without_echoing_it(bad, why):
    with pytest.raises(ValueError, match=why) as info:
        parse_secret(bad)
    if bad and len(bad) > 6:
        assert bad[6:] not in str(info.value)


def test_parse_secret_accepts_unpadded_base64():
    key = b"k" * 25  # base64 needs padding for this length
    unpadded = base64.b64encode(key).decode().rstrip("=")
    assert parse_secret("whsec_" + unpadded) == key


# --- signing and verification ---------------------------------------------------------------------------------


def test_our_signature_is_accepted_by_standardwebhooks():
    body = json.dumps({"type": "batch.completed", "data": {"ok": True}}).encode()
    hdrs = webhooks.headers(SECRET, "msg_abc", body)
    assert set(hdrs) == {"webhook-id", "webhook-timestamp", "webhook-signature", "content-type"}
    assert hdrs["webhook-signature"].startswith("v1,")
    assert Webhook(SECRET).verify(body, hdrs) == {"type": "batch.completed", "data": {"ok": True}}
    verify(SECRET, hdrs, body)


def test_sign_matches_the_library_byte_for_byte():
    ts = datetime(2024, 5, 1, 12, 0, 0, tzinfo=UTC)
    body = '{"a":"é"}'
    assert sign(SECRET, "msg_1", ts, body.encode()) == Webhook(SECRET).sign("msg_1", ts, body)


def test_verify_accepts_a_library_signature_and_rotated_signatures():
    body = b'{"x":1}'
    now = datetime.now(UTC)
    theirs = Webhook(SECRET).sign("msg_r", now, body.decode())
    other = sign(new_secret(), "msg_r", now, body)
    hdrs = {"Webhook-Id": "msg_r", "Webhook-Timestamp": str(int(now.timestamp())), "Webhook-Signature": f"{other} v1a,xx {theirs}"}
    verify(SECRET, hdrs, body)  # mixed-case names; one valid signature among several passes


def test_verify_rejects_tampered_body_wrong_secret_old_and_future_timestamps():
    body = b'{"batch":"b1","passed":3}'
    hdrs = webhooks.headers(SECRET, "msg_t", body)
    with pytest.raises(WebhookVerificationError, match="no matching v1 signature"):
        verify(SECRET, hdrs, b'{"batch":"b1","passed":4}')
    with pytest.raises(WebhookVerificationError, match="no matching v1 signature"):
        verify(new_secret(), hdrs, body)
    with pytest.raises(WebhookVerificationError, match="no matching v1 signature"):
        verify(SECRET, {**hdrs, "webhook-id": "msg_other"}, body)

    old = webhooks.headers(SECRET, "msg_t", body, timestamp=time.time() - 301)
    with pytest.raises(WebhookVerificationError, match="too old"):
        verify(SECRET, old, body)
    with pytest.raises(LibraryVerificationError):
        Webhook(SECRET).verify(body, old)
    verify(SECRET, old, body, tolerance_s=600)  # the window is the receiver's choice

    future = webhooks.headers(SECRET, "msg_t", body, timestamp=time.time() + 301)
    with pytest.raises(WebhookVerificationError, match="future"):
        verify(SECRET, future, body)


@pytest.mark.parametrize(
    ("change", "why"),
    [
        ({"webhook-signature": ""}, "missing header"),
        ({"webhook-timestamp": "yesterday"}, "not an integer"),
        ({"webhook-signature": "garbage-without-comma"}, "no matching"),
        ({"webhook-signature": "v1,%%%notbase64"}, "no matching"),
    ],
)
def test_verify_reports_malformed_headers_as_verification_errors(change, why):
    body = b"{}"
    hdrs = {**webhooks.headers(SECRET, "msg_m", body), **change}
    with pytest.raises(WebhookVerificationError, match=why):
        verify(SECRET, hdrs, body)


def test_event_has_standard_shape():
    payload = event("batch.completed", {"batch_id": "b1"})
    assert set(payload) == {"type", "timestamp", "data"}
    assert payload["type"] == "batch.completed" and payload["data"] == {"batch_id": "b1"}
    assert payload["timestamp"].endswith("Z")
    assert abs(datetime.fromisoformat(payload["timestamp"]) - datetime.now(UTC)) < timedelta(seconds=5)
    with pytest.raises(ValueError):
        event("", {})


# --- delivering -----------------------------------------------------------------------------------------------


def test_200_is_ok_and_the_receiver_verifies_the_signature(receiver):
    attempt = _deliver(receiver.base + "/ok")
    assert attempt.ok and attempt.status_code == 200 and attempt.error is None and not attempt.retryable
    assert attempt.response_excerpt == '{"received":true}'
    assert attempt.duration_ms >= 0 and attempt.attempted_at.tzinfo is not None
    [request] = receiver.requests
    assert request["verified"]
    assert request["headers"]["webhook-id"] == "msg_test1"
    assert request["headers"]["content-type"] == "application/json"
    assert json.loads(request["body"]) == {"type": "batch.completed", "data": {"n": 1}}
    assert attempt.model_dump(mode="json")["url"] == receiver.base + "/ok"  # serialisable for a delivery row


def test_any_2xx_is_ok(receiver):
    assert _deliver(receiver.base + "/accepted").ok


def test_500_is_not_ok_and_retryable(receiver):
    attempt = _deliver(receiver.base + "/fail")
    assert not attempt.ok and attempt.retryable
    assert attempt.status_code == 500 and attempt.error == "HTTP 500"
    assert attempt.response_excerpt == "internal error"
    assert receiver.requests[0]["verified"]


def test_429_is_retryable_and_retry_after_is_honoured(receiver):
    attempt = _deliver(receiver.base + "/busy")
    assert not attempt.ok and attempt.retryable and attempt.retry_after_s == 7
    assert next_delay(1, retry_after_s=attempt.retry_after_s) >= 7  # longer than the 5 s base
    assert next_delay(1, retry_after_s=10 * MAX_DELAY_S) == MAX_DELAY_S  # but never past the cap


def test_410_is_final_and_asks_to_disable_the_endpoint(receiver):
    attempt = _deliver(receiver.base + "/gone")
    assert not attempt.ok and not attempt.retryable and attempt.endpoint_gone
    assert "410" in attempt.error


def test_other_4xx_is_retried_like_svix(receiver):
    attempt = _deliver(receiver.base + "/unauthorized")
    assert not attempt.ok and attempt.retryable and attempt.error == "HTTP 401"


def test_response_excerpt_is_limited_to_500_bytes(receiver):
    attempt = _deliver(receiver.base + "/big")
    assert attempt.ok and attempt.response_excerpt == "x" * 500


def test_redirect_is_not_followed(receiver):
    attempt = _deliver(receiver.base + "/redirect")
    assert not attempt.ok and attempt.status_code == 302
    assert "redirect" in attempt.error and "not followed" in attempt.error
    assert receiver.paths() == ["/redirect"]  # the signed body never reached /elsewhere


def test_slow_receiver_times_out_within_the_timeout(receiver):
    started = time.monotonic()
    attempt = _deliver(receiver.base + "/slow", timeout_s=0.3)
    elapsed = time.monotonic() - started
    assert not attempt.ok and attempt.retryable and attempt.status_code is None
    assert "timed out" in attempt.error
    assert elapsed < 0.3 + 0.7
    assert attempt.duration_ms < 1000


def test_connection_refused_is_an_error_not_an_exception():
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]  # closed again: nothing listens there
    attempt = _deliver(f"http://127.0.0.1:{port}/hook")
    assert not attempt.ok and attempt.retryable and attempt.status_code is None
    assert attempt.error == "connection refused"


def test_retries_keep_the_id_and_get_a_fresh_timestamp_and_signature(receiver, monkeypatch):
    monkeypatch.setattr(webhooks, "_now", lambda: time.time() - 120)
    _deliver(receiver.base + "/fail", msg_id="msg_retry")
    monkeypatch.setattr(webhooks, "_now", time.time)
    _deliver(receiver.base + "/ok", msg_id="msg_retry")
    first, second = receiver.requests
    assert first["headers"]["webhook-id"] == second["headers"]["webhook-id"] == "msg_retry"
    assert int(second["headers"]["webhook-timestamp"]) - int(first["headers"]["webhook-timestamp"]) >= 119
    assert first["headers"]["webhook-signature"] != second["headers"]["webhook-signature"]
    assert first["body"] == second["body"]
    assert first["verified"] and second["verified"]


class _NoClient:
    def __init__(self, *args, **kwargs):
        raise AssertionError("no request may be made to a refused URL")


@pytest.mark.parametrize(
    ("url", "why"),
    [
        ("http://169.254.169.254/latest/meta-data/", "link-local"),
        ("http://metadata.google.internal/computeMetadata/v1/", "cloud metadata"),
        ("file:///etc/passwd", "only http and https"),
        ("ftp://example.com/hook", "only http and https"),
        ("gopher://127.0.0.1:6379/_FLUSHALL", "only http and https"),
    ],
)
def test_unsafe_urls_are_refused_without_a_request(url, why, monkeypatch):
    monkeypatch.setattr(webhooks.httpx, "Client", _NoClient)
    attempt = _deliver(url, allow_private=True)
    assert not attempt.ok and not attempt.retryable and attempt.status_code is None
    assert attempt.error.startswith("refused target URL:") and why in attempt.error


def test_loopback_and_private_refused_unless_allowed(receiver, monkeypatch):
    for url in (receiver.base + "/ok", "http://10.0.0.5/hook", "http://192.168.1.10/hook"):
        attempt = _deliver(url, allow_private=False)
        assert not attempt.ok and not attempt.retryable
        assert "private or loopback" in attempt.error
    assert receiver.paths() == []
    assert _deliver(receiver.base + "/ok", allow_private=True).ok


@contextmanager
def every_log_line():
    """The log lines of the block, at every level, whatever the process's logging was configured for before (an
    API app started in this process logs warnings only)."""
    saved = structlog.get_config()
    structlog.reset_defaults()
    try:
        with capture_logs() as logs:
            yield logs
    finally:
        structlog.configure(**saved)


def test_secret_never_reaches_the_logs(receiver):
    url = receiver.base.replace("http://", "http://user:pa55word@") + "/fail?token=t0ps3cret"
    with every_log_line() as logs:
        _deliver(url)
        _deliver(receiver.base + "/ok")
    assert len(logs) == 2
    text = repr(logs)
    assert SECRET not in text and SECRET[6:] not in text
    assert "pa55word" not in text and "t0ps3cret" not in text
    assert {entry["msg_id"] for entry in logs} == {"msg_test1"}
    assert logs[0]["url"] == receiver.base + "/fail"


# --- backoff --------------------------------------------------------------------------------------------------


def test_next_delay_grows_is_jittered_within_bounds_is_capped_and_ends():
    rng = random.Random(1)
    max_attempts = 10
    for attempt_number in range(1, max_attempts):
        base = BACKOFF_S[min(attempt_number, len(BACKOFF_S)) - 1]
        samples = [next_delay(attempt_number, max_attempts=max_attempts, rng=rng) for _ in range(200)]
        assert all(base * (1 - JITTER) <= s <= base * (1 + JITTER) for s in samples)
        assert max(samples) <= MAX_DELAY_S * (1 + JITTER)
        assert len(set(samples)) > 100  # jittered, not one fixed value
    # without jitter the schedule strictly grows until the cap, then stays there
    centres = [BACKOFF_S[min(n, len(BACKOFF_S)) - 1] for n in range(1, max_attempts)]
    assert centres[:len(BACKOFF_S)] == sorted(set(centres[:len(BACKOFF_S)]))
    assert centres[len(BACKOFF_S):] == [MAX_DELAY_S] * (max_attempts - 1 - len(BACKOFF_S))
    assert next_delay(1) < next_delay(3) < next_delay(5)  # bands do not overlap, so this holds despite jitter
    assert next_delay(max_attempts, max_attempts=max_attempts) is None
    assert next_delay(DEFAULT_MAX_ATTEMPTS) is None
    assert next_delay(DEFAULT_MAX_ATTEMPTS - 1) is not None
    assert next_delay(1, max_attempts=1) is None
    with pytest.raises(ValueError):
        next_delay(0)
