"""The layers, as rules on imports (each module's own import statements, read with ast):

- api/ is HTTP only: it imports no workers/, no Playwright, no openai (and loading it loads none of them);
- workers/ holds three things: the agent (workers/agent/, the library), the service's worker side
  (workers/service/: Celery app, tasks, browser pool, batch suite) and the command line (workers/cli/); the agent
  imports nothing of the product but itself and shared/, and the service and the command line never import each
  other; shared/ imports neither workers/ nor api/;
- no import cycle, between modules or between the agent's parts (an import inside a function counts);
- the agent (workers/agent/) imports no Celery and no SQL;
- the emitters load no browser (tests/agent/actions/test_registry.py checks it, kind modules included);
- only the adapters import boto3 (the S3 artifact store) and openai (the model client).
"""

from __future__ import annotations

import ast
import graphlib
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def imports(path: Path, module: str | None = None) -> set[str]:
    """What the file's import statements name, in functions too: `from a import b` names a, and a.b (b may be a
    module); given the file's module name, relative imports (`from .x import y`) as well."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and (node.level == 0 and node.module or node.level and module):
            base = node.module
            if node.level:
                parts = module.split(".")
                kept = parts[:len(parts) - node.level + (path.name == "__init__.py")]
                base = ".".join(kept + ([node.module] if node.module else []))
            found.add(base)
            found.update(f"{base}.{alias.name}" for alias in node.names)
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


def test_the_agent_imports_nothing_of_the_product_but_itself_and_shared() -> None:
    assert breaking("workers/agent", ("workers", "api", "bench", "tests"), allowed=("workers.agent",)) == {}


def test_the_service_and_the_command_line_do_not_import_each_other_and_shared_imports_neither() -> None:
    assert breaking("workers/service", ("workers.cli", "api")) == {}
    assert breaking("workers/cli", ("workers.service", "api")) == {}
    assert breaking("shared", ("workers", "api")) == {}
    assert sorted(p.name for p in (ROOT / "workers").iterdir() if p.suffix == ".py" or
                  (p.is_dir() and (p / "__init__.py").exists())) == ["__init__.py", "agent", "cli", "service"]


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def import_graph() -> dict[str, set[str]]:
    """Module -> the product's modules it imports (`from a import b` imports a, and a.b when b is a module)."""
    paths = {module_name(p): p for folder in ("api", "shared", "workers") for p in (ROOT / folder).rglob("*.py")}
    graph: dict[str, set[str]] = {}
    for name, path in paths.items():
        found = imports(path, name)
        # A package's own modules are not its imports' cycle: importing a.b runs a/__init__ first by design.
        graph[name] = {m for m in found if m in paths and m != name and not name.startswith(m + ".")}
    return graph


def cycle(graph: dict[str, set[str]]) -> list[str]:
    try:
        graphlib.TopologicalSorter(graph).prepare()
    except graphlib.CycleError as error:
        return error.args[1]
    return []


def test_no_module_imports_itself_through_others() -> None:
    assert cycle(import_graph()) == []


def test_the_agent_s_parts_import_each_other_one_way_only() -> None:
    """workers.agent.actions and workers.agent.brains, say: one may use the other, never both."""
    def part(module: str) -> str:
        return ".".join(module.split(".")[:3])

    parts: dict[str, set[str]] = {}
    for module, imported in import_graph().items():
        if module.startswith("workers.agent."):
            parts.setdefault(part(module), set()).update(
                part(m) for m in imported if m.startswith("workers.agent.") and part(m) != part(module))
    assert cycle(parts) == []
