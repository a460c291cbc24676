"""A demo app's reset as the generation and the suite run it before each scenario: one POST to its /__reset with
curl (installed by infra/setup.sh). `python -m tests.apps.<app> reset` does the same through an interpreter that
imports the app first, about 0.3 s a scenario, hundreds of times a test run."""

from __future__ import annotations

import shlex


def reset_command(base_url: str) -> str:
    return f"curl -fsS -X POST {shlex.quote(base_url.rstrip('/') + '/__reset')}"
