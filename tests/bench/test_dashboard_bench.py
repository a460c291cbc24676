"""`python -m bench.dashboard` runs: a small night seeded in PostgreSQL, every page timed against its target."""

from __future__ import annotations

import pytest

from bench.dashboard import main
from tests.service.conftest import ADMIN_URL

pytestmark = pytest.mark.service  # its tier: PostgreSQL


def test_the_dashboard_bench_times_every_page(capsys):
    # Its figures only: a timing on a machine busy with the other tests says nothing (the bench itself is timed).
    assert main(["--scenarios", "30", "--repeat", "2", "--database-url", ADMIN_URL, "--figures-only"]) == 0
    out = capsys.readouterr().out
    for page in ("projects", "batch (first page of scenarios)", "morning report", "scenario"):
        assert page in out
    assert "slowest page:" in out and "of the 100 ms target" in out
