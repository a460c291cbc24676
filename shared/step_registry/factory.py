"""Which step registry a process uses: the registry service, or the embedded one in the database. Apart from the
interface (shared/step_registry/__init__.py), which the implementations import."""

from __future__ import annotations

from pathlib import Path

from shared.registry.local import LocalStepRegistry
from shared.settings import Settings
from shared.step_registry import StepRegistry
from shared.step_registry.http import HttpStepRegistry


def open_step_registry(settings: Settings) -> StepRegistry:
    """The registry service when STEPFORGE_REGISTRY_URL is set, else the embedded one in the database."""
    if settings.registry_url:
        token = settings.registry_token.get_secret_value() if settings.registry_token else ""
        return HttpStepRegistry(settings.registry_url, token, timeout_s=settings.registry_timeout_s)
    if settings.database_url.startswith("sqlite:///"):
        Path(settings.database_url.removeprefix("sqlite:///")).parent.mkdir(parents=True, exist_ok=True)
    return LocalStepRegistry(settings.database_url)
