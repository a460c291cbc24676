"""The layers, as rules on imports (each module's own import statements, read with ast):

- api/ is HTTP only: it imports no workers/, no Playwright, no openai (and loading it loads none of them);
- the agent (workers/agent/) imports no Celery and no SQL;
- the emitters load no browser (tests/agent/actions/test_registry.py checks it, kind modules included);
- only the adapters import boto3 (the S3 artifact store) and openai (the model client).
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def imports(path: Path) -> set[str]:
    found = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module)
    return found


def modules(folder: str) -> dict[str, set[str]]:
    return {str(path.relative_to(ROOT)): imports(path) for path in sorted((ROOT / folder).rglob("*.py"))}


def breaking(folder: str, forbidden: tuple[str, ...], allowed: tuple[str, ...] = ()) -> dict[str, list[str]]:
    """Modules of `folder` importing a forbidden package (or one of its modules), with what they import."""
    def hit(name: str) -> bool:
        return any(name == f or name.startswith(f + ".") for f in forbidden) and not any(
            name == a or name.startswith(a + ".") for a in allowed)

    found = {path: sorted(n for n in names if hit(n)) for path, names in modules(folder).items()}
    return {path: names for path, names in found.items() if names}


def test_api_imports_no_worker_code_no_browser_and_no_model_client() -> None:
    assert breaking("api", ("workers", "playwright", "openai", "celery.worker")) == {}


def test_importing_the_api_loads_no_worker_code_no_browser_and_no_model_client() -> None:
    probe = ("import sys, api.app, api.registry.app; "
             "print(sorted(m for m in sys.modules if m.split('.')[0] in ('workers', 'playwright', 'openai') "
             "or m.startswith('celery.worker')))")
    loaded = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True, timeout=120,
                            check=True).stdout.strip()
    assert loaded == "[]"


def test_the_agent_imports_no_celery_and_no_sql() -> None:
    assert breaking("workers/agent", ("celery", "kombu", "sqlalchemy", "sqlmodel", "psycopg", "shared.store",
                                      "shared.models", "shared.job_queue")) == {}


def test_only_the_adapters_import_boto3_and_openai() -> None:
    users = {path for folder in ("api", "shared", "workers")
             for path, names in modules(folder).items()
             if any(n.split(".")[0] in ("boto3", "botocore", "openai") for n in names)}
    assert users == {"shared/artifacts/s3.py", "workers/agent/model/client.py"}
