from __future__ import annotations

import json
import os
import stat
import time
from pathlib import Path

import pytest

from shared.settings import Settings
from workers.agent.scripting.dependencies import runtime_dependencies
from workers.agent.verify.node_runtime import ensure_runtime

pytestmark = pytest.mark.e2e  # its tier (tests/conftest.py)


def test_installed_runtime_is_reused_quickly(settings: Settings, node_modules: Path) -> None:
    started = time.monotonic()
    assert ensure_runtime(settings) == node_modules
    assert time.monotonic() - started < 1
    assert (node_modules / ".bin" / "cucumber-js").exists()
    package = json.loads((node_modules.parent / "package.json").read_text())
    assert package["devDependencies"] == runtime_dependencies()


def fake_npm(folder: Path, script: str) -> None:
    npm = folder / "npm"
    npm.write_text("#!/bin/sh\n" + script + "\n")
    npm.chmod(npm.stat().st_mode | stat.S_IEXEC)


def test_npm_failure_is_named(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    fake_npm(bin_dir, 'echo "npm ERR! code E404" >&2; echo "npm ERR! 404 Not Found - playwright-core" >&2; exit 1')
    monkeypatch.setenv("PATH", f"{bin_dir}{os.pathsep}{os.environ['PATH']}")
    settings = Settings(node_runtime_dir=tmp_path / "runtime")
    with pytest.raises(RuntimeError) as caught:
        ensure_runtime(settings)
    message = str(caught.value)
    assert "npm install" in message and "failed (exit 1)" in message and "E404" in message


def test_install_runs_npm_with_the_offline_friendly_flags_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    calls = tmp_path / "calls"
    # A stand-in npm that records its arguments and lays out what a real install leaves behind.
    fake_npm(bin_dir, f'echo "$@" >> "{calls}"; mkdir -p node_modules/.bin node_modules/playwright-core; '
                      'touch node_modules/.bin/cucumber-js node_modules/.bin/bddgen; echo "{{}}" > node_modules/playwright-core/package.json')
    monkeypatch.setenv("PATH", f"{bin_dir}{os.pathsep}{os.environ['PATH']}")
    settings = Settings(node_runtime_dir=tmp_path / "runtime")
    first = ensure_runtime(settings)
    second = ensure_runtime(settings)
    assert first == second == (tmp_path / "runtime" / "node_modules").resolve()
    assert calls.read_text() == "install --no-audit --no-fund --prefer-offline\n"
