"""The step registry over HTTP to the registry service (api.registry): the adapter workers use."""

from __future__ import annotations

import random
import time
from collections.abc import Sequence
from urllib.parse import quote

import httpx

from shared.step_registry import NewStep, RegisteredStep, RegistryError


class HttpStepRegistry:
    """StepRegistry over HTTP to the registry service (api.registry), for workers.

    Each request has `timeout_s`; connection errors, timeouts, 5xx and 429 are retried `retries` times with
    exponential backoff (honouring a short Retry-After), 4xx are not. The whole call never takes much more
    than timeout_s * (retries + 1). Failures raise RegistryError naming the request and the reason.
    Note: a registration retried after a lost response may count one use twice; the step itself stays one.
    """

    BACKOFF_S = 0.2
    MAX_BACKOFF_S = 2.0
    PAGE = 1000

    def __init__(self, base_url: str, token: str, timeout_s: float = 5, retries: int = 3) -> None:
        if not base_url.startswith(("http://", "https://")):
            raise RegistryError(f"step registry URL {base_url!r} is not an http(s) URL")
        if timeout_s <= 0 or retries < 0:
            raise RegistryError("step registry: timeout_s must be > 0 and retries >= 0")
        self.base_url = base_url.rstrip("/")
        self.timeout_s = float(timeout_s)
        self.retries = int(retries)
        self._client = httpx.Client(
            base_url=self.base_url,
            timeout=httpx.Timeout(self.timeout_s),
            headers={"Authorization": f"Bearer {token}", "Accept": "application/json"},
        )

    # --- StepRegistry ---

    def lookup(self, origin: str, signatures: Sequence[str]) -> dict[str, RegisteredStep]:
        if not signatures:
            return {}
        body = self._request("POST", "/v1/steps/lookup", json={"origin": origin, "signatures": list(signatures)})
        return self._by_signature(body, "POST /v1/steps/lookup")

    def register(self, project: str, origin: str, steps: Sequence[NewStep]) -> dict[str, RegisteredStep]:
        if not steps:
            return {}
        payload = {
            "project": project,
            "origin": origin,
            "steps": [
                {**step.model_dump(mode="json"), "signature": step.definition.signature} for step in steps
            ],
        }
        body = self._request("POST", "/v1/steps", json=payload)
        return self._by_signature(body, "POST /v1/steps")

    def steps(self, *, origin: str | None = None, project: str | None = None) -> list[RegisteredStep]:
        if project is not None:

            path, params = f"/v1/projects/{quote(project, safe='')}/steps", {}
            if origin is not None:
                params["origin"] = origin
        elif origin is not None:
            path, params = "/v1/origins/steps", {"origin": origin}
        else:
            raise RegistryError("steps: give an origin or a project")
        found: list[RegisteredStep] = []
        after = 0
        while True:
            body = self._request("GET", path, params={**params, "after": after, "limit": self.PAGE})
            try:
                found.extend(RegisteredStep.model_validate(s) for s in body["steps"])
                after = body.get("next_after")
            except Exception as error:  # noqa: BLE001
                raise RegistryError(f"step registry GET {path}: unexpected response: {error}") from None
            if after is None:
                return found

    def users(self, step_id: int) -> dict[str, int]:
        body = self._request("GET", f"/v1/steps/{int(step_id)}/users")
        return {use["project"]: use["uses"] for use in body.get("users", [])}

    def close(self) -> None:
        self._client.close()

    def __enter__(self) -> HttpStepRegistry:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.close()

    # --- internals ---

    def _by_signature(self, body: dict, what: str) -> dict[str, RegisteredStep]:
        try:
            return {sig: RegisteredStep.model_validate(step) for sig, step in body["steps"].items()}
        except Exception as error:  # noqa: BLE001
            raise RegistryError(f"step registry {what}: unexpected response: {error}") from None

    def _request(self, method: str, path: str, **kwargs: object) -> dict:
        what = f"{method} {self.base_url}{path}"
        deadline = time.monotonic() + self.timeout_s * (self.retries + 1)
        last = "no attempt"
        for attempt in range(self.retries + 1):
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                break
            retry_after = 0.0
            try:
                response = self._client.request(
                    method, path, timeout=httpx.Timeout(min(self.timeout_s, remaining)), **kwargs
                )
            except httpx.TransportError as error:
                last = f"{type(error).__name__}: {error or 'no detail'}"
            else:
                if response.status_code < 400:
                    try:
                        return response.json()
                    except ValueError:
                        raise RegistryError(f"step registry {what}: response is not JSON "
                                            f"({response.status_code}, {response.text[:200]!r})") from None
                detail = _detail(response)
                if response.status_code < 500 and response.status_code != 429:
                    raise RegistryError(f"step registry refused {what}: {response.status_code} {detail}")
                last = f"{response.status_code} {detail}"
                try:
                    retry_after = min(float(response.headers.get("Retry-After", 0)), self.MAX_BACKOFF_S)
                except ValueError:
                    retry_after = 0.0
            if attempt == self.retries:
                break
            pause = max(retry_after, min(self.BACKOFF_S * 2**attempt, self.MAX_BACKOFF_S) * (0.5 + random.random() / 2))
            if time.monotonic() + pause >= deadline:
                break
            time.sleep(pause)
        raise RegistryError(f"step registry unavailable: {what} failed after {attempt + 1} attempt(s): {last}")


def _detail(response: object) -> str:
    try:
        detail = response.json().get("detail")  # type: ignore[attr-defined]
    except Exception:  # noqa: BLE001
        detail = None
    if detail is None:
        detail = response.text[:300]  # type: ignore[attr-defined]
    return detail if isinstance(detail, str) else str(detail)
