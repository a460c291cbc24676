"""One shared install of cucumber-js, playwright-core and playwright-bdd that every replay uses."""

from __future__ import annotations

import fcntl
import hashlib
import json
import shutil
import subprocess
import time
from pathlib import Path

from shared.settings import Settings
from workers.agent.scripting.dependencies import runtime_dependencies

NPM_INSTALL = ("npm", "install", "--no-audit", "--no-fund", "--prefer-offline")
INSTALL_TIMEOUT_S = 900.0
LOCK_WAIT_S = 1200.0
STAMP = ".stepforge-installed"


class NodeRuntimeError(RuntimeError):
    """The npm packages needed for replay could not be installed; the message says why."""


def runtime_package_json() -> str:
    document = {
        "name": "stepforge-node-runtime",
        "private": True,
        "description": "cucumber-js, playwright-core and playwright-bdd used by stepforge to replay generated suites",
        "devDependencies": runtime_dependencies(),
    }
    return json.dumps(document, indent=2) + "\n"


def _installed(root: Path, wanted: str) -> bool:
    stamp = root / STAMP
    return (
        stamp.is_file()
        and stamp.read_text(encoding="utf-8").strip() == wanted
        and (root / "node_modules" / ".bin" / "cucumber-js").exists()
        and (root / "node_modules" / "playwright-core" / "package.json").is_file()
        and (root / "node_modules" / ".bin" / "bddgen").exists()
    )


def _last_lines(text: str, count: int = 15) -> str:
    lines = [line for line in text.strip().splitlines() if line.strip()]
    return "\n".join(lines[-count:])


def ensure_runtime(settings: Settings) -> Path:
    """Install the runtime once (idempotent, one installer at a time) and return its node_modules path."""
    root = Path(settings.node_runtime_dir).expanduser().resolve()
    package_json = runtime_package_json()
    wanted = hashlib.sha256(package_json.encode()).hexdigest()
    if _installed(root, wanted):
        return root / "node_modules"
    root.mkdir(parents=True, exist_ok=True)
    npm = shutil.which("npm")
    if npm is None:
        raise NodeRuntimeError("npm is not on PATH: Node.js and npm are needed to replay generated suites")
    with open(root / ".install.lock", "w", encoding="utf-8") as lock:
        deadline = time.monotonic() + LOCK_WAIT_S
        while True:
            try:
                fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if time.monotonic() > deadline:
                    raise NodeRuntimeError(f"timed out waiting for another npm install in {root}") from None
                time.sleep(0.5)
        try:
            # Another process may have finished the install while this one waited for the lock.
            if _installed(root, wanted):
                return root / "node_modules"
            (root / STAMP).unlink(missing_ok=True)
            (root / "package.json").write_text(package_json, encoding="utf-8")
            try:
                done = subprocess.run(
                    [npm, *NPM_INSTALL[1:]],
                    cwd=root,
                    capture_output=True,
                    text=True,
                    timeout=INSTALL_TIMEOUT_S,
                    stdin=subprocess.DEVNULL,
                    check=False,
                )
            except subprocess.TimeoutExpired:
                raise NodeRuntimeError(f"npm install in {root} did not finish within {INSTALL_TIMEOUT_S:.0f} s") from None
            if done.returncode != 0:
                detail = _last_lines(done.stderr or done.stdout) or "(no output)"
                raise NodeRuntimeError(f"npm install in {root} failed (exit {done.returncode}):\n{detail}")
            for program in ("cucumber-js", "bddgen"):
                if not (root / "node_modules" / ".bin" / program).exists():
                    raise NodeRuntimeError(f"npm install in {root} succeeded but node_modules/.bin/{program} is missing")
            (root / STAMP).write_text(wanted + "\n", encoding="utf-8")
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)
    return root / "node_modules"


if __name__ == "__main__":  # infra/setup.sh installs the runtime ahead of the first replay
    from shared.settings import get_settings

    print(f"replay runtime ready: {ensure_runtime(get_settings())}")
