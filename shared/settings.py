"""One settings object, read from STEPFORGE_* environment variables, safe embedded defaults."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from pydantic import Field, SecretStr
from pydantic_settings import BaseSettings, SettingsConfigDict

CHROMIUM_ARGS = (
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
)


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="STEPFORGE_", extra="ignore")

    browser_path: str = "/usr/bin/chromium"
    headless: bool = True
    viewport_width: int = 1280
    viewport_height: int = 800
    action_timeout_ms: int = Field(default=5_000, ge=100)
    navigation_timeout_ms: int = Field(default=15_000, ge=100)
    # How long an expected text may take to appear before the step fails.
    assertion_timeout_ms: int = Field(default=3_000, ge=100)
    # Time allowed for the page to settle after an operation (network idle).
    settle_timeout_ms: int = Field(default=2_000, ge=0)
    replay_timeout_s: float = Field(default=120.0, gt=0)
    reset_timeout_s: float = Field(default=30.0, gt=0)
    # Generate, replay, and on a red replay generate again: at most this many attempts.
    max_attempts: int = Field(default=3, ge=1, le=10)
    max_operations: int = Field(default=60, ge=1)
    artifacts_dir: Path = Path("artifacts")
    # Where the cucumber-js and playwright-core packages used for replay are installed once.
    node_runtime_dir: Path = Path.home() / ".cache" / "stepforge" / "node"
    # Loopback and private targets are what a laptop tests; the service turns this off.
    allow_private_targets: bool = True
    # The step registry: a service URL (workers, shared across machines), else an embedded SQLite file.
    registry_url: str | None = None
    registry_token: SecretStr | None = None
    registry_timeout_s: float = Field(default=5.0, gt=0)
    database_url: str = f"sqlite:///{Path.home() / '.local' / 'share' / 'stepforge' / 'stepforge.db'}"
    log_json: bool = False


@lru_cache
def get_settings() -> Settings:
    return Settings()
