"""The demo application and a whole generation run, started once per session."""

from __future__ import annotations

import shlex
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.apps.petclinic import serve_in_thread

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples" / "petclinic.yaml"


@pytest.fixture(scope="session")
def petclinic() -> str:
    base_url, stop = serve_in_thread()
    yield base_url
    stop()


@pytest.fixture(scope="session")
def reset_command(petclinic: str) -> str:
    """The demo app's reset, runnable from any folder (the generated suite runs it from its own)."""
    return f"env PYTHONPATH={shlex.quote(str(ROOT))} {shlex.quote(sys.executable)} -m tests.apps.petclinic reset --url {petclinic}"


@dataclass
class Generation:
    exit_code: int
    suite: Path
    artifacts: Path
    report: Path


def feature_text(suite: Path) -> str:
    """Every .feature file of a generated suite, in name order."""
    return "\n".join(path.read_text() for path in sorted((suite / "features").glob("*.feature")))


def generate(scenarios: Path, base_url: str, work: Path, reset_command: str | None = None,
             extra: list[str] | None = None) -> Generation:
    suite, artifacts = work / "suite", work / "artifacts"
    args = ["generate", str(scenarios), "--base-url", base_url, "--out", str(suite), "--artifacts", str(artifacts)]
    if reset_command:
        args += ["--reset-command", reset_command]
    args += extra or []
    # A process of its own, as a user runs it (and away from any Playwright the test process holds).
    done = subprocess.run([sys.executable, "-m", "workers.cli", *args], cwd=ROOT, timeout=1500)
    return Generation(done.returncode, suite, artifacts, artifacts / "report.json")


@pytest.fixture(scope="session")
def examples_run(petclinic: str, reset_command: str, tmp_path_factory: pytest.TempPathFactory) -> Generation:
    return generate(EXAMPLES, petclinic, tmp_path_factory.mktemp("examples"), reset_command)
