"""The demo application, started once per session, and a whole generation run, made once per run."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path

import pytest
from filelock import FileLock

from tests.apps.petclinic import serve_in_thread
from tests.apps.reset import reset_command as reset_command_of
from tests.cli_run import run_cli
from tests.npm_install import run_folder

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
    return reset_command_of(petclinic)


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
    done = run_cli(args, cwd=ROOT, timeout=1500)
    return Generation(done.returncode, suite, artifacts, artifacts / "report.json")


def once_per_run(tmp_path_factory: pytest.TempPathFactory, name: str,
                 make: Callable[[Path], Generation]) -> Generation:
    """A generation made once for the whole run: under pytest-xdist the process that asks first makes it (against
    its own demo) while the others wait, then all read the same folder. Its users only read it, or copy it first."""
    shared = run_folder(tmp_path_factory.getbasetemp())
    work = shared / f"once-{name}"
    with FileLock(shared / f"once-{name}.lock"):
        made = work / "generation.json"
        if made.is_file():
            fields = json.loads(made.read_text())
            if "error" in fields:  # the process that made it failed: not tried again into the same folder
                raise RuntimeError(f"the shared {name} generation failed in another process: {fields['error']}")
            return Generation(fields["exit_code"], *(Path(fields[f]) for f in ("suite", "artifacts", "report")))
        work.mkdir(exist_ok=True)
        try:
            generation = make(work)
        except BaseException as error:
            made.write_text(json.dumps({"error": repr(error)}))
            raise
        made.write_text(json.dumps({k: v if isinstance(v, int) else str(v) for k, v in asdict(generation).items()}))
        return generation


@pytest.fixture(scope="session")
def examples_run(petclinic: str, reset_command: str, tmp_path_factory: pytest.TempPathFactory) -> Generation:
    return once_per_run(tmp_path_factory, "examples", lambda work: generate(EXAMPLES, petclinic, work, reset_command))
