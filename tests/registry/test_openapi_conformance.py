"""The step registry's OpenAPI document and what it accepts agree: schemathesis, with every check
(tests/conformance.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conformance import failures, schemathesis
from tests.registry.helpers import TOKEN

pytestmark = pytest.mark.service  # its tier (tests/conftest.py)


def test_the_registry_accepts_what_its_openapi_document_allows(server, tmp_path: Path) -> None:  # noqa: ANN001
    run = schemathesis(server.url, TOKEN, tmp_path)
    assert run.returncode == 0, failures(run)
