"""A small client for an OpenAI-compatible chat completions endpoint that answers in JSON.

It does its own retries (so they are counted), keeps per-phase accounting (calls, retries,
tokens, latency, cost), enforces call and cost budgets before sending, steps down to a form of
JSON output the endpoint accepts (RESPONSE_FORMS), and validates every reply against the
caller's JSON Schema. Only the errors of ``errors.py`` leave it.

OpenAI-compatible servers differ: a message's content goes as a plain string unless it carries
images (some chat templates take nothing else); `max_tokens` is the limit sent (the one they all
honour); and the JSON form asked for is the most enforced one the endpoint has not refused.
"""

from __future__ import annotations

import base64
import email.utils
import json
import random
import re
import threading
import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from types import ModuleType
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import openai

    from .cassette import Cassette

from .errors import BudgetExhausted, ModelReplyError, ModelRequestRejected, ModelUnavailable
from .jsonreply import ReplyParseError, parse_json_reply, validate

_SCHEMA_NAME = re.compile(r"[^a-zA-Z0-9_-]")
_FORMAT_REJECTED = re.compile(r"response_format|json_schema|json_object", re.IGNORECASE)

# How a reply is asked to be JSON, from the most to the least the endpoint enforces: OpenAI's json_schema; the
# json_object mode most OpenAI-compatible servers have (llama.cpp's servers read a "schema" key beside it), the
# schema in the prompt too; else the schema in the prompt alone. An endpoint that refuses a form (a 4xx, or a 5xx
# as llama-cpp-python's server answers, naming response_format or the form) is asked in the next one, for good.
RESPONSE_FORMS = ("json_schema", "json_object", "text")


@dataclass
class PhaseUsage:
    calls: int = 0  # HTTP requests sent (first tries, retries, re-asks, fallbacks)
    retries: int = 0  # requests sent again after a 429 / 5xx / connection error / timeout
    reasks: int = 0  # requests sent again because the reply did not match the schema
    failures: int = 0  # requests that got no usable HTTP answer
    input_tokens: int = 0
    output_tokens: int = 0
    latency_ms: float = 0.0  # wall time of every request, failed ones included
    cost: float = 0.0

    def add(self, other: PhaseUsage) -> None:
        for key, value in asdict(other).items():
            setattr(self, key, getattr(self, key) + value)


class _Retryable(Exception):
    def __init__(self, description: str, status: int | None, retry_after: float | None) -> None:
        super().__init__(description)
        self.description = description
        self.status = status
        self.retry_after = retry_after


class ModelClient:
    """One endpoint, one model. Thread-safe for accounting; one request at a time per call."""

    def __init__(
        self,
        base_url: str,
        api_key: str | None,
        model: str,
        timeout_s: float = 30,
        max_retries: int = 3,
        price_per_1k_input: float = 0.0,
        price_per_1k_output: float = 0.0,
        budget_calls: int | None = None,
        budget_cost: float | None = None,
        *,
        backoff_base_s: float = 0.5,
        backoff_cap_s: float = 8.0,
        retry_after_cap_s: float = 60.0,
        max_tokens: int | None = None,
        temperature: float | None = 0.0,
        cassette: Cassette | None = None,
    ) -> None:
        if max_retries < 0:
            raise ValueError("max_retries must be >= 0")
        if timeout_s <= 0:
            raise ValueError("timeout_s must be > 0")
        self.base_url = base_url
        self.model = model
        self.timeout_s = float(timeout_s)
        self.max_retries = max_retries
        self.price_per_1k_input = float(price_per_1k_input)
        self.price_per_1k_output = float(price_per_1k_output)
        self.budget_calls = budget_calls
        self.budget_cost = budget_cost
        self.backoff_base_s = backoff_base_s
        self.backoff_cap_s = backoff_cap_s
        self.retry_after_cap_s = retry_after_cap_s
        self.max_tokens = max_tokens
        self.temperature = temperature
        # The form of JSON output asked for (RESPONSE_FORMS): the next one, for good, once the endpoint refuses it.
        self.response_form = RESPONSE_FORMS[0]
        # A cassette (cassette.py) records every exchange, or answers them all with no endpoint.
        self.cassette = cassette
        http_client = None
        if cassette is not None:
            import httpx  # with the SDK, which is built on it: not at import (see _openai)

            http_client = httpx.Client(transport=cassette, timeout=self.timeout_s)
        self._sdk = _openai().OpenAI(
            base_url=base_url, api_key=api_key or "unused", timeout=self.timeout_s, max_retries=0,
            http_client=http_client,
        )
        self._lock = threading.Lock()
        self._phases: dict[str, PhaseUsage] = {}

    # --- public -------------------------------------------------------------------------

    def ask_json(
        self,
        phase: str,
        system: str,
        text: str,
        images: Sequence[bytes] = (),
        *,
        schema: dict[str, Any],
        schema_name: str = "reply",
    ) -> dict[str, Any]:
        """Ask for one JSON object matching schema; images go along as PNG data URLs."""
        schema_name = _SCHEMA_NAME.sub("_", schema_name)[:64] or "reply"
        content: str | list[dict[str, Any]] = text  # a string unless images go along: some templates take no list
        if images:
            content = [{"type": "text", "text": text}]
            for image in images:
                encoded = base64.b64encode(image).decode("ascii")
                content.append({"type": "image_url", "image_url": {"url": f"data:image/png;base64,{encoded}"}})
        messages: list[dict[str, Any]] = [{"role": "user", "content": content}]

        reply = self._complete(phase, system, messages, schema, schema_name)
        problem, value = self._check(reply, schema)
        if problem is None:
            return value
        # One re-ask, with the problem spelled out.
        messages = messages + [
            {"role": "assistant", "content": reply or ""},
            {
                "role": "user",
                "content": (
                    f"Your reply was not valid: {problem}. Reply again with only one JSON object "
                    f"that matches the schema {schema_name!r}."
                ),
            },
        ]
        self._phase(phase, lambda u: setattr(u, "reasks", u.reasks + 1))
        reply = self._complete(phase, system, messages, schema, schema_name)
        problem, value = self._check(reply, schema)
        if problem is None:
            return value
        raise ModelReplyError(
            f"{phase}: the model's reply does not match schema {schema_name!r} after a re-ask: {problem}",
            reply=reply,
        )

    def usage(self) -> dict[str, Any]:
        """{"phases": {phase: {...}}, "total": {...}, "structured_output": bool, "response_format": form} as plain
        data."""
        with self._lock:
            total = PhaseUsage()
            phases = {}
            for name, usage in self._phases.items():
                total.add(usage)
                phases[name] = _rounded(asdict(usage))
            return {"phases": phases, "total": _rounded(asdict(total)), "structured_output": self.structured_output,
                    "response_format": self.response_form}

    @property
    def structured_output(self) -> bool:
        """Whether the endpoint is asked for JSON by a response_format it enforces (json_schema or json_object)."""
        return self.response_form != "text"

    def exhausted(self) -> str | None:
        """Why no further call may be sent (a budget is used up), or None."""
        try:
            self._check_budget("job")
        except BudgetExhausted as exc:
            return str(exc).removeprefix("job: ")
        return None

    def close(self) -> None:
        self._sdk.close()

    def __enter__(self) -> ModelClient:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # --- one request, with retries --------------------------------------------------------

    def _complete(
        self, phase: str, system: str, messages: list[dict[str, Any]], schema: dict[str, Any], schema_name: str
    ) -> str | None:
        sdk = _openai()
        attempt = 0
        last: _Retryable | None = None
        while True:
            form = self.response_form
            try:
                return self._send(phase, system, messages, schema, schema_name, form, retry=attempt > 0)
            except _Retryable as exc:
                if form != "text" and exc.status is not None and _FORMAT_REJECTED.search(exc.description):
                    self._step_down(form)  # a 500 naming the form (llama-cpp-python): not an outage
                    continue
                last = exc
            except sdk.BadRequestError as exc:
                if form != "text" and _FORMAT_REJECTED.search(_error_text(exc)):
                    self._step_down(form)
                    continue
                raise ModelRequestRejected(
                    f"{phase}: the model endpoint rejected the request (HTTP 400): {_error_text(exc)}", status=400
                ) from None
            except sdk.APIStatusError as exc:
                if form != "text" and _FORMAT_REJECTED.search(_error_text(exc)):  # 422 and the like
                    self._step_down(form)
                    continue
                raise ModelRequestRejected(
                    f"{phase}: the model endpoint rejected the request (HTTP {exc.status_code}): {_error_text(exc)}",
                    status=exc.status_code,
                ) from None
            except sdk.OpenAIError as exc:
                raise ModelUnavailable(f"{phase}: the model endpoint gave an unusable answer: {exc}") from None
            if attempt >= self.max_retries:
                raise ModelUnavailable(
                    f"{phase}: the model endpoint {self.base_url} gave no answer after "
                    f"{attempt + 1} attempt(s); last: {last.description}",
                    status=last.status,
                )
            attempt += 1
            time.sleep(self._delay(attempt, last.retry_after))

    def _step_down(self, refused: str) -> None:
        """The next form of JSON output for good, once the endpoint refused `refused` (a concurrent call may have
        stepped down already)."""
        with self._lock:
            if self.response_form == refused:
                self.response_form = RESPONSE_FORMS[RESPONSE_FORMS.index(refused) + 1]

    def _send(
        self,
        phase: str,
        system: str,
        messages: list[dict[str, Any]],
        schema: dict[str, Any],
        schema_name: str,
        form: str,
        *,
        retry: bool,
    ) -> str | None:
        sdk = _openai()
        self._check_budget(phase)
        extra: dict[str, Any] = {}
        if form == "json_schema":
            system_text = system
            extra["response_format"] = {
                "type": "json_schema",
                "json_schema": {"name": schema_name, "schema": schema, "strict": True},
            }
        else:
            system_text = (
                f"{system}\n\nReply with only one JSON object, no prose, that matches this JSON Schema "
                f"({schema_name}):\n{json.dumps(schema, separators=(',', ':'))}"
            )
            if form == "json_object":
                extra["response_format"] = {"type": "json_object", "schema": schema}
        if self.max_tokens is not None:
            extra["max_tokens"] = self.max_tokens
        if self.temperature is not None:
            extra["temperature"] = self.temperature

        def count(u: PhaseUsage) -> None:
            u.calls += 1
            if retry:
                u.retries += 1

        self._phase(phase, count)
        started = time.perf_counter()
        try:
            response = self._sdk.chat.completions.create(
                model=self.model,
                messages=[{"role": "system", "content": system_text}, *messages],
                **extra,
            )
        except sdk.APIConnectionError as exc:  # includes APITimeoutError
            self._failed(phase, started)
            if self.cassette is not None and self.cassette.missed(exc.__cause__):  # replaying: no endpoint to ask
                raise ModelUnavailable(f"{phase}: {exc.__cause__}") from None
            kind = "timed out" if isinstance(exc, sdk.APITimeoutError) else "connection failed"
            cause = exc.__cause__ or exc
            raise _Retryable(f"{kind}: {cause}", None, None) from None
        except sdk.APIStatusError as exc:
            self._failed(phase, started)
            if exc.status_code == 429 or exc.status_code >= 500:
                raise _Retryable(
                    f"HTTP {exc.status_code}: {_error_text(exc)}", exc.status_code, _retry_after(exc.response)
                ) from None
            raise
        except sdk.OpenAIError:
            self._failed(phase, started)
            raise
        latency = (time.perf_counter() - started) * 1000
        usage = getattr(response, "usage", None)
        tokens_in = int(getattr(usage, "prompt_tokens", 0) or 0)
        tokens_out = int(getattr(usage, "completion_tokens", 0) or 0)
        cost = tokens_in / 1000 * self.price_per_1k_input + tokens_out / 1000 * self.price_per_1k_output

        def record(u: PhaseUsage) -> None:
            u.input_tokens += tokens_in
            u.output_tokens += tokens_out
            u.latency_ms += latency
            u.cost += cost

        self._phase(phase, record)
        if not response.choices:
            return None
        message = response.choices[0].message
        return message.content if message.content is not None else getattr(message, "refusal", None)

    # --- helpers ------------------------------------------------------------------------

    @staticmethod
    def _check(reply: str | None, schema: dict[str, Any]) -> tuple[str | None, dict[str, Any]]:
        try:
            value = parse_json_reply(reply)
        except (ReplyParseError, ValueError) as exc:
            return str(exc), {}
        problem = validate(value, schema)
        return problem, value

    def _check_budget(self, phase: str) -> None:
        with self._lock:
            calls = sum(u.calls for u in self._phases.values())
            cost = sum(u.cost for u in self._phases.values())
        if self.budget_calls is not None and calls + 1 > self.budget_calls:
            raise BudgetExhausted(
                f"{phase}: call budget exhausted: {calls} of {self.budget_calls} calls used",
                budget="calls",
                limit=self.budget_calls,
                spent=calls,
            )
        if self.budget_cost is not None and cost >= self.budget_cost:
            raise BudgetExhausted(
                f"{phase}: cost budget exhausted: {cost:.4f} spent of {self.budget_cost:.4f}",
                budget="cost",
                limit=self.budget_cost,
                spent=cost,
            )

    def _delay(self, attempt: int, retry_after: float | None) -> float:
        if retry_after is not None:
            return min(max(retry_after, 0.0), self.retry_after_cap_s)
        ceiling = min(self.backoff_cap_s, self.backoff_base_s * 2 ** (attempt - 1))
        return random.uniform(ceiling / 2, ceiling)  # "equal jitter": never zero, never over the cap

    def _failed(self, phase: str, started: float) -> None:
        latency = (time.perf_counter() - started) * 1000

        def record(u: PhaseUsage) -> None:
            u.failures += 1
            u.latency_ms += latency

        self._phase(phase, record)

    def _phase(self, phase: str, change: Any) -> None:
        with self._lock:
            change(self._phases.setdefault(phase, PhaseUsage()))


def _openai() -> ModuleType:
    """The openai SDK, imported on first use: it takes about 0.8 s to import, which every command, worker and job
    that never calls a model (the builtin brain) would otherwise pay at start."""
    import openai

    return openai


def _error_text(exc: openai.APIStatusError) -> str:
    body = exc.body
    if isinstance(body, dict):
        inner = body.get("error", body)
        if isinstance(inner, dict) and inner.get("message"):
            return str(inner["message"])
        return json.dumps(body)[:300]
    if body is not None:
        return str(body)[:300]
    return str(exc.message)[:300]


def _retry_after(response: Any) -> float | None:
    headers = getattr(response, "headers", None)
    if headers is None:
        return None
    ms = headers.get("retry-after-ms")
    if ms:
        try:
            return float(ms) / 1000
        except ValueError:
            pass
    value = headers.get("retry-after")
    if not value:
        return None
    try:
        return float(value)
    except ValueError:
        pass
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    return max(0.0, when.timestamp() - time.time())


def _rounded(usage: dict[str, Any]) -> dict[str, Any]:
    usage["latency_ms"] = round(usage["latency_ms"], 1)
    usage["cost"] = round(usage["cost"], 8)
    return usage
