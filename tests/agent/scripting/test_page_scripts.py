"""The JavaScript the product puts in pages and in generated suites parses: a syntax error there would disable
settling, grounding or the suite's helpers everywhere, and only the browser tests would show it."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from workers.agent.scripting.suite import stepforge_js

AGENT = Path(__file__).resolve().parents[3] / "workers" / "agent"
SCRIPTS = {
    "settle.js": (AGENT / "execution" / "settle.js").read_text(encoding="utf-8"),
    "dom.js": (AGENT / "grounding" / "dom.js").read_text(encoding="utf-8"),
    "stepforge.js (as written into a suite)": stepforge_js(),
}


@pytest.mark.parametrize("name", sorted(SCRIPTS))
def test_the_script_parses(name, tmp_path):
    node = shutil.which("node")
    assert node, "Node.js runs the generated suites; infra/setup.sh installs it"
    script = tmp_path / "script.js"
    script.write_text(SCRIPTS[name], encoding="utf-8")
    checked = subprocess.run([node, "--check", str(script)], capture_output=True, text=True, timeout=60)
    assert checked.returncode == 0, checked.stderr
