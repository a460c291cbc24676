"""A generated suite as a user installs it: a copy with the packages its package.json asks for, from `npm install`.

`npm install` of the same dependencies gives the same node_modules, so the run installs each set of dependencies
once: under pytest-xdist the process that asks first installs it (in the run's folder shared by every process) while
the others wait, and every copy with those dependencies links to that node_modules. The copies only read it."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
from pathlib import Path

from filelock import FileLock


def run_folder(basetemp: Path) -> Path:
    """The folder every process of the run shares: pytest-N/ above popen-gwX/ under pytest-xdist, else basetemp."""
    return basetemp.parent if os.environ.get("PYTEST_XDIST_WORKER") else basetemp


def installed_packages(package_json: Path, shared: Path) -> Path:
    """The node_modules `npm install` gives for package_json's dependencies, installed once per run in `shared`."""
    manifest = json.loads(package_json.read_text())
    wanted = {key: manifest.get(key) or {} for key in ("dependencies", "devDependencies")}
    digest = hashlib.sha256(json.dumps(wanted, sort_keys=True).encode()).hexdigest()[:16]
    folder = shared / f"npm-{digest}"
    with FileLock(shared / f"npm-{digest}.lock"):
        done = folder / "installed"
        if not done.is_file():
            shutil.rmtree(folder, ignore_errors=True)  # what an install that failed left
            folder.mkdir()
            shutil.copy(package_json, folder / "package.json")
            install = subprocess.run(["npm", "install", "--no-audit", "--no-fund", "--prefer-offline"], cwd=folder,
                                     capture_output=True, text=True, timeout=600)
            assert install.returncode == 0, install.stderr
            done.write_text("")
    return folder / "node_modules"


def installed_copy(suite: Path, tmp_path: Path) -> Path:
    """A copy of a generated suite (no node_modules, no reports) with the packages its package.json asks for."""
    copy = tmp_path / "suite"
    shutil.copytree(suite, copy, ignore=shutil.ignore_patterns("node_modules", "reports"))
    basetemp = tmp_path.parent  # tmp_path is <basetemp>/<test name><n>
    (copy / "node_modules").symlink_to(installed_packages(copy / "package.json", run_folder(basetemp)),
                                       target_is_directory=True)
    return copy
