"""The registry service's settings, from STEPFORGE_REGISTRY_* environment variables."""

from __future__ import annotations

from pydantic import Field, SecretStr
from pydantic_settings import BaseSettings, SettingsConfigDict


class RegistrySettings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="STEPFORGE_REGISTRY_", extra="ignore")

    host: str = "127.0.0.1"
    port: int = Field(default=8090, ge=0, le=65535)
    # postgresql+psycopg://user@host:5432/db (postgresql:// is accepted too) or sqlite:///path.db
    database_url: str = Field(min_length=1)
    # Every route but /healthz requires "Authorization: Bearer <token>".
    token: SecretStr = Field(min_length=16)
    max_body_bytes: int = Field(default=2 * 1024 * 1024, ge=1024)
    pool_size: int = Field(default=10, ge=1)
    max_overflow: int = Field(default=20, ge=0)
    log_level: str = "info"
