"""Webhooks in the Standard Webhooks scheme: secrets, signing, verification, one delivery attempt, backoff.

The API uses `parse_secret` and `TargetPolicy.check_url` to validate a project's webhook at creation; the Celery
delivery task calls `deliver_once` per attempt and `next_delay` to schedule the next one. Persisting the
event (outbox) and one row per attempt is the caller's job; this module keeps no state.

Signing is implemented here with hmac/hashlib rather than the `standardwebhooks` package at runtime: it is
ten lines, keeps the workers' dependencies unchanged, and lets `verify` take a tolerance, accept header
mappings of any case, and report a malformed signature header as a verification error (the package's
`verify` has a fixed 5-minute window and raises a bare ValueError on a signature without a comma). The
tests check interoperability both ways against the `standardwebhooks` package (the `test` extra).

Wire format (https://www.standardwebhooks.com):
  webhook-id:        the message id; identical on every retry, receivers drop duplicates by it
  webhook-timestamp: integer Unix seconds, fresh on every attempt
  webhook-signature: "v1,<base64 HMAC-SHA256(key, f'{id}.{timestamp}.{body}')>", space-separated when several
  secret:            "whsec_<base64 key>", the key being 24 to 64 random bytes

Retry policy (after Svix, see REFERENCE.md): only 2xx is success. Every other outcome is retried (timeouts,
connection errors, 5xx, 429, 408, and other 4xx/3xx too, because receivers commonly answer 401/404 for a
while during a deploy or a secret rotation, and the schedule is bounded), except:
  - a refused target URL (scheme, link-local, metadata, private when not allowed): retrying cannot help;
  - HTTP 410 Gone: the receiver asks us to stop, the caller should disable the endpoint;
  - a URL httpx cannot use at all.
A `Retry-After` header is honoured (up to the backoff cap).
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import json
import math
import random
import secrets as _secrets
import ssl
import time
from collections.abc import Mapping
from datetime import UTC, datetime
from email.utils import parsedate_to_datetime
from functools import lru_cache
from typing import Any
from urllib.parse import urlsplit

import httpx
from pydantic import BaseModel

from shared.egress import guarded, reason_of
from shared.logging import log
from shared.urls import TargetPolicy, UnsafeTargetError

SECRET_PREFIX = "whsec_"
SECRET_MIN_BYTES = 24  # the Standard Webhooks recommendation: 24 to 64 bytes
SECRET_MAX_BYTES = 64
DEFAULT_TOLERANCE_S = 300  # receivers reject timestamps more than 5 minutes off
DEFAULT_TIMEOUT_S = 15.0  # Svix uses 15-30 s per request
CONNECT_TIMEOUT_CAP_S = 10.0
EXCERPT_BYTES = 500
USER_AGENT = "stepforge-webhooks/1"

# Delay before attempt n+1 after n failed attempts; the last value is the cap for any later attempt.
# Shorter than Svix's 3-day tail: a batch's result can also be fetched from the API, and Celery countdowns
# longer than the broker's visibility/consumer timeout (Redis 1 h, RabbitMQ 30 min) get redelivered.
BACKOFF_S: tuple[float, ...] = (5.0, 30.0, 120.0, 600.0, 1800.0, 3600.0)
MAX_DELAY_S = BACKOFF_S[-1]
JITTER = 0.2  # each delay is drawn from [base * 0.8, base * 1.2], so retries of many events spread out
DEFAULT_MAX_ATTEMPTS = 8  # first attempt included: about 2.6 h from first try to giving up


class WebhookVerificationError(ValueError):
    """A webhook whose headers or signature do not check out."""


# --- secrets -------------------------------------------------------------------------------------------------


def new_secret(num_bytes: int = 32) -> str:
    """A fresh random secret in the Standard Webhooks form whsec_<base64>."""
    if not SECRET_MIN_BYTES <= num_bytes <= SECRET_MAX_BYTES:
        raise ValueError(f"a webhook secret has {SECRET_MIN_BYTES} to {SECRET_MAX_BYTES} bytes, not {num_bytes}")
    return SECRET_PREFIX + base64.b64encode(_secrets.token_bytes(num_bytes)).decode("ascii")


def parse_secret(secret: str) -> bytes:
    """The HMAC key of a whsec_<base64> secret; ValueError naming what is wrong (never echoing the secret)."""
    if not isinstance(secret, str):
        raise ValueError(f"webhook secret must be a string like whsec_<base64>, got {type(secret).__name__}")
    if not secret.startswith(SECRET_PREFIX):
        raise ValueError("webhook secret must start with 'whsec_' followed by base64")
    encoded = secret[len(SECRET_PREFIX) :]
    try:
        # Unpadded base64 is accepted, like the reference libraries do.
        key = base64.b64decode(encoded + "=" * (-len(encoded) % 4), validate=True)
    except (binascii.Error, ValueError):
        raise ValueError("webhook secret after 'whsec_' is not valid base64") from None
    if not SECRET_MIN_BYTES <= len(key) <= SECRET_MAX_BYTES:
        raise ValueError(
            f"webhook secret must decode to {SECRET_MIN_BYTES} to {SECRET_MAX_BYTES} bytes, got {len(key)}"
        )
    return key


# --- signing and verification --------------------------------------------------------------------------------


def _check_msg_id(msg_id: str) -> None:
    # Header values cannot hold whitespace or control characters, and an empty id defeats deduplication.
    if not isinstance(msg_id, str) or not msg_id or any(c.isspace() or not c.isprintable() for c in msg_id):
        raise ValueError("webhook message id must be a non-empty string without whitespace or control characters")


def _unix_seconds(timestamp: int | float | datetime) -> int:
    if isinstance(timestamp, datetime):
        return math.floor(timestamp.timestamp())
    return math.floor(timestamp)


def _body_bytes(body: bytes | str) -> bytes:
    return body.encode("utf-8") if isinstance(body, str) else bytes(body)


def sign(secret: str, msg_id: str, timestamp: int | float | datetime, body: bytes) -> str:
    """'v1,<base64 HMAC-SHA256 of "{msg_id}.{timestamp}.{body}">' with the secret's key."""
    key = parse_secret(secret)
    _check_msg_id(msg_id)
    signed = f"{msg_id}.{_unix_seconds(timestamp)}.".encode() + _body_bytes(body)
    return "v1," + base64.b64encode(hmac.new(key, signed, hashlib.sha256).digest()).decode("ascii")


def headers(secret: str, msg_id: str, body: bytes, *, timestamp: int | float | datetime | None = None) -> dict[str, str]:
    """The request headers of one attempt: id, a timestamp (now unless given), its signature, content type."""
    ts = _unix_seconds(time.time() if timestamp is None else timestamp)
    return {
        "webhook-id": msg_id,
        "webhook-timestamp": str(ts),
        "webhook-signature": sign(secret, msg_id, ts, body),
        "content-type": "application/json",
    }


def verify(
    secret: str,
    headers: Mapping[str, str],
    body: bytes | str,
    tolerance_s: float = DEFAULT_TOLERANCE_S,
    *,
    now: float | None = None,
) -> None:
    """Check a received webhook; raise WebhookVerificationError saying why it is refused.

    Header names are matched case-insensitively; any one valid v1 signature among several (key rotation) passes.
    """
    key = parse_secret(secret)
    lowered = {str(name).lower(): value for name, value in headers.items()}
    missing = [name for name in ("webhook-id", "webhook-timestamp", "webhook-signature") if not lowered.get(name)]
    if missing:
        raise WebhookVerificationError(f"missing header(s): {', '.join(missing)}")
    msg_id, raw_ts, signatures = lowered["webhook-id"], lowered["webhook-timestamp"], lowered["webhook-signature"]
    try:
        ts = int(raw_ts)
    except ValueError:
        raise WebhookVerificationError("webhook-timestamp is not an integer number of seconds") from None
    current = time.time() if now is None else now
    if ts < current - tolerance_s:
        raise WebhookVerificationError(f"webhook-timestamp is too old ({current - ts:.0f} s > {tolerance_s} s)")
    if ts > current + tolerance_s:
        raise WebhookVerificationError(f"webhook-timestamp is too far in the future ({ts - current:.0f} s)")
    expected = hmac.new(key, f"{msg_id}.{ts}.".encode() + _body_bytes(body), hashlib.sha256).digest()
    for candidate in signatures.split(" "):
        version, _, encoded = candidate.partition(",")
        if version != "v1" or not encoded:
            continue
        try:
            given = base64.b64decode(encoded, validate=True)
        except (binascii.Error, ValueError):
            continue
        if hmac.compare_digest(expected, given):
            return
    raise WebhookVerificationError("no matching v1 signature (wrong secret, or the body, id or timestamp changed)")


# --- payload -------------------------------------------------------------------------------------------------


def event(type_: str, data: dict[str, Any]) -> dict[str, Any]:
    """The payload Standard Webhooks suggests: {"type": "batch.completed", "timestamp": ISO 8601 UTC, "data": {...}}."""
    if not isinstance(type_, str) or not type_ or any(c.isspace() for c in type_):
        raise ValueError("event type must be a non-empty dotted name such as 'batch.completed'")
    return {"type": type_, "timestamp": datetime.now(UTC).isoformat().replace("+00:00", "Z"), "data": data}


def encode_payload(payload: dict[str, Any]) -> bytes:
    """The exact bytes sent and signed: compact JSON, deterministic for the same payload."""
    return json.dumps(payload, separators=(",", ":"), ensure_ascii=False).encode("utf-8")


# --- one delivery attempt ------------------------------------------------------------------------------------


class DeliveryAttempt(BaseModel):
    """The outcome of one POST to a webhook receiver; what a delivery row stores."""

    url: str
    msg_id: str
    status_code: int | None = None
    ok: bool  # 2xx
    retryable: bool  # worth another attempt (still subject to next_delay's attempt limit)
    error: str | None = None  # one line: "timed out ...", "connection refused", "HTTP 500", "refused target URL: ..."
    duration_ms: int
    response_excerpt: str = ""  # the first EXCERPT_BYTES bytes of the response body
    retry_after_s: float | None = None  # the receiver's Retry-After, in seconds
    attempted_at: datetime

    @property
    def endpoint_gone(self) -> bool:
        """410 Gone: the receiver asks never to be called again; the caller should disable the endpoint."""
        return self.status_code == 410


@lru_cache(maxsize=1)
def _ssl_context() -> ssl.SSLContext:
    # Loading the CA bundle costs ~0.1 s; one context serves every attempt of the process.
    return httpx.create_ssl_context()


def _now() -> float:
    return time.time()


def _loggable_url(url: str) -> str:
    # Credentials may sit in the user-info or the query string of a webhook URL; log scheme, host and path only.
    try:
        parts = urlsplit(url)
        if not parts.netloc:
            return parts.path  # a relative Location header
        host = parts.hostname or ""
        port = f":{parts.port}" if parts.port else ""
        return f"{parts.scheme}://{host}{port}{parts.path}"
    except ValueError:
        return "<unparseable url>"


def _one_line(text: str, limit: int = 200) -> str:
    line = " ".join(str(text).split())
    return line if len(line) <= limit else line[: limit - 1] + "…"


def _retry_after(value: str | None) -> float | None:
    if not value:
        return None
    value = value.strip()
    if value.isdigit():
        return float(value)
    try:
        when = parsedate_to_datetime(value)
    except (TypeError, ValueError, IndexError):
        return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    return max(0.0, (when - datetime.now(UTC)).total_seconds())


def _is_refused(exc: BaseException) -> bool:
    seen: set[int] = set()
    current: BaseException | None = exc
    while current is not None and id(current) not in seen:
        seen.add(id(current))
        if isinstance(current, ConnectionRefusedError) or "refused" in str(current).lower():
            return True
        current = current.__cause__ or current.__context__
    return False


def _network_error(exc: Exception, timeout_s: float, connect_s: float) -> str:
    if isinstance(exc, httpx.ConnectTimeout):
        return f"timed out connecting after {connect_s:g} s"
    if isinstance(exc, httpx.ReadTimeout):
        return f"timed out waiting for the response after {timeout_s:g} s"
    if isinstance(exc, httpx.TimeoutException):
        return f"timed out after {timeout_s:g} s"
    if _is_refused(exc):
        return "connection refused"
    if isinstance(exc, httpx.ConnectError):
        return _one_line(f"connection failed: {exc or type(exc).__name__}")
    if isinstance(exc, httpx.RemoteProtocolError):
        return _one_line(f"receiver closed the connection: {exc or type(exc).__name__}")
    return _one_line(f"request failed: {type(exc).__name__}: {exc}")


def deliver_once(
    url: str,
    secret: str,
    msg_id: str,
    payload: dict[str, Any],
    *,
    timeout_s: float,
    policy: TargetPolicy,
) -> DeliveryAttempt:
    """POST the signed payload to url once and report what happened; never raises for network errors.

    Call it again with the same msg_id for a retry: receivers deduplicate on webhook-id, while the timestamp
    and signature are made fresh here on every call so a late retry is not rejected as too old.
    """
    body = encode_payload(payload)
    request_headers = headers(secret, msg_id, body, timestamp=_now())
    return post_once(url, body, request_headers, msg_id=msg_id, timeout_s=timeout_s, policy=policy, what="webhook")


def post_once(url: str, body: bytes, request_headers: dict[str, str], *, msg_id: str, timeout_s: float,
              policy: TargetPolicy, what: str, read_bytes: int = EXCERPT_BYTES) -> DeliveryAttempt:
    """POST body to url once, through the egress guard, and report what happened; never raises for network errors.

    Redirects are not followed: a 3xx could send the body to a host the policy never approved. The request goes
    through the egress guard (shared/egress.py), which connects only to an address it judged, so a name that
    resolves elsewhere between the check and the connection is refused too. Environment proxies and .netrc are
    ignored (trust_env=False): the request picks up no ambient credentials. `what` names it in the log ("webhook",
    "report"); the headers (credentials) are never logged. The answer's first `read_bytes` bytes are kept.
    """
    if timeout_s <= 0:
        raise ValueError("timeout_s must be positive")
    bound = log.bind(url=_loggable_url(url), msg_id=msg_id)
    attempted_at = datetime.now(UTC)
    started = time.monotonic()

    def finish(**fields: Any) -> DeliveryAttempt:
        attempt = DeliveryAttempt(
            url=url,
            msg_id=msg_id,
            attempted_at=attempted_at,
            duration_ms=round((time.monotonic() - started) * 1000),
            **fields,
        )
        if attempt.ok:
            bound.info(f"{what} delivered", status_code=attempt.status_code, duration_ms=attempt.duration_ms)
        else:
            bound.warning(
                f"{what} attempt failed",
                status_code=attempt.status_code,
                error=attempt.error,
                retryable=attempt.retryable,
                duration_ms=attempt.duration_ms,
            )
        return attempt

    try:
        policy.check_url(url)
    except UnsafeTargetError as exc:
        reason = str(exc).removeprefix(f"{url!r}: ")
        # A name that does not resolve may be a passing DNS fault; every other refusal is permanent.
        return finish(ok=False, retryable="does not resolve" in reason, error=_one_line(f"refused target URL: {reason}"))

    request_headers = {**request_headers, "user-agent": USER_AGENT}
    connect_s = min(timeout_s, CONNECT_TIMEOUT_CAP_S)
    timeout = httpx.Timeout(timeout_s, connect=connect_s)
    with guarded(policy) as guard:
        try:
            with httpx.Client(timeout=timeout, follow_redirects=False, trust_env=False, verify=_ssl_context(),
                              proxy=guard.url) as client:
                with client.stream("POST", url, content=body, headers=request_headers) as response:
                    excerpt = bytearray()
                    for chunk in response.iter_raw():
                        excerpt += chunk
                        if len(excerpt) >= read_bytes:
                            break  # the rest is not needed; closing the stream drops the connection
                    status = response.status_code
                    retry_after = _retry_after(response.headers.get("retry-after"))
                    location = response.headers.get("location")
        except httpx.InvalidURL as exc:
            return finish(ok=False, retryable=False, error=_one_line(f"invalid URL: {exc}"))
        except (httpx.HTTPError, OSError) as exc:
            if guard.refused:  # the name resolved to a refused address after the check above
                why = reason_of(guard.refused[-1])
                return finish(ok=False, retryable=False, error=_one_line(f"refused target URL: {why}"))
            if guard.unreachable:
                why = reason_of(guard.unreachable[-1])
                error = "connection refused" if why.startswith("refused the connection") else f"connection failed: {why}"
                return finish(ok=False, retryable=True, error=_one_line(error))
            return finish(ok=False, retryable=True, error=_network_error(exc, timeout_s, connect_s))

    text = bytes(excerpt[:read_bytes]).decode("utf-8", errors="replace")
    common = {"status_code": status, "response_excerpt": text, "retry_after_s": retry_after}
    if 200 <= status < 300:
        return finish(ok=True, retryable=False, **common)
    if status == 410:
        return finish(ok=False, retryable=False, error="HTTP 410 Gone: the receiver asks to disable this endpoint", **common)
    if 300 <= status < 400:
        where = f" to {_loggable_url(location)}" if location else ""
        return finish(ok=False, retryable=True, error=f"HTTP {status} redirect{where} not followed", **common)
    return finish(ok=False, retryable=True, error=f"HTTP {status}", **common)


# --- backoff -------------------------------------------------------------------------------------------------


def next_delay(
    attempt_number: int,
    *,
    max_attempts: int = DEFAULT_MAX_ATTEMPTS,
    retry_after_s: float | None = None,
    rng: random.Random | None = None,
    schedule: tuple[float, ...] | list[float] = BACKOFF_S,
) -> float | None:
    """Seconds to wait after `attempt_number` failed attempts (1 = the first), or None when none are left.

    schedule[n-1] (BACKOFF_S unless given; its last value for any later attempt) with +/-JITTER; a receiver's
    Retry-After lengthens it up to the cap.
    Only call it for a retryable attempt.
    """
    if attempt_number < 1:
        raise ValueError("attempt_number counts attempts already made and starts at 1")
    if max_attempts < 1:
        raise ValueError("max_attempts must be at least 1")
    if attempt_number >= max_attempts:
        return None
    base = schedule[min(attempt_number, len(schedule)) - 1]
    delay = base * (rng or random).uniform(1 - JITTER, 1 + JITTER)
    if retry_after_s is not None and retry_after_s > 0:
        delay = max(delay, min(retry_after_s, max(schedule[-1], MAX_DELAY_S)))
    return delay
