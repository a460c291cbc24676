from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from shared.settings import Settings
from tests.agent.verify.site import serve
from workers.agent.verify.node_runtime import ensure_runtime


@pytest.fixture(scope="session")
def site() -> Iterator[str]:
    with serve() as base_url:
        yield base_url


@pytest.fixture(scope="session")
def prefixed_site() -> Iterator[str]:
    """The same app deployed below the host root: http://127.0.0.1:<port>/petclinic (no trailing slash)."""
    with serve("/petclinic") as base_url:
        yield base_url


@pytest.fixture(scope="session")
def settings() -> Settings:
    return Settings()


@pytest.fixture(scope="session")
def node_modules(settings: Settings) -> Path:
    # The first run installs cucumber-js and playwright-core from npm (about a minute at most).
    return ensure_runtime(settings)
