"""Which step registry a run uses: the service when STEPFORGE_REGISTRY_URL is set, else embedded SQLite."""

from __future__ import annotations

from pathlib import Path

from shared.settings import Settings
from shared.step_registry import HttpStepRegistry, StepRegistry


def open_registry(settings: Settings) -> StepRegistry:
    if settings.registry_url:
        token = settings.registry_token.get_secret_value() if settings.registry_token else ""
        return HttpStepRegistry(settings.registry_url, token, timeout_s=settings.registry_timeout_s)
    from shared.registry.local import LocalStepRegistry  # embedded mode only: workers reach it over HTTP

    if settings.database_url.startswith("sqlite:///"):
        Path(settings.database_url.removeprefix("sqlite:///")).parent.mkdir(parents=True, exist_ok=True)
    return LocalStepRegistry(settings.database_url)
