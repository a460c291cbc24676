"""schemathesis with every check against a served OpenAPI document: bounded examples per operation, a fixed seed,
deterministic generation, so every run sends the same requests."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
MAX_EXAMPLES = int(os.environ.get("STEPFORGE_SCHEMATHESIS_EXAMPLES", "15"))


def schemathesis(url: str, token: str, reports: Path) -> subprocess.CompletedProcess:
    command = [sys.executable, "-m", "schemathesis.cli", "run", f"{url}/openapi.json", "--checks", "all",
               "--max-examples", str(MAX_EXAMPLES), "--seed", "1", "--generation-deterministic",
               "--header", f"Authorization: Bearer {token}", "--request-timeout", "20",
               "--report", "junit", "--report-dir", str(reports), "--no-color"]
    env = {**os.environ, "SCHEMATHESIS_HOOKS": "tests.schemathesis_hooks",
           "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}
    run = subprocess.run(command, capture_output=True, text=True, timeout=600, cwd=reports, env=env)
    (reports / "schemathesis.txt").write_text(run.stdout + run.stderr)
    return run


def failures(run: subprocess.CompletedProcess) -> str:
    """The failing operations and checks, each with its status line (the whole output is schemathesis.txt)."""
    keep = [line for line in run.stdout.splitlines()
            if line.startswith(("___", "- ST", "[", "❌", "Expected", "`"))]
    return "\n".join(line[:300] for line in keep) or (run.stdout + run.stderr)[-3000:]
