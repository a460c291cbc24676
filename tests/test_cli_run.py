"""The tests' own runner of the command line explains a hang: the Python stacks, the processes, node's stacks."""

from __future__ import annotations

import os
from pathlib import Path

import psutil
import pytest

from tests.cli_run import CliHung, run_cli

pytestmark = pytest.mark.e2e  # its tier (tests/conftest.py): it waits out a time limit

HANGING_CLI = """\
import subprocess, time
import greenlet
def in_a_greenlet():  # left suspended, as Playwright's sync API leaves a call that never returns
    main.switch()
main = greenlet.getcurrent()
waiting = greenlet.greenlet(in_a_greenlet)
waiting.switch()
node = subprocess.Popen(["node", "-e", "function waitingInNode() { setInterval(() => {}, 1000); console.log('ready'); }"
                         " waitingInNode();"], start_new_session=True, stdout=subprocess.PIPE, text=True)
node.stdout.readline()  # its report handler is set up: the hang begins
def waiting_forever():
    time.sleep(600)
print("started", node.pid, flush=True)
waiting_forever()
"""


def test_a_hung_command_line_fails_with_its_stacks_and_processes_and_leaves_none(tmp_path: Path) -> None:
    package = tmp_path / "workers" / "cli"  # stands in for workers.cli
    package.mkdir(parents=True)
    (tmp_path / "workers" / "__init__.py").write_text("")
    (package / "__init__.py").write_text("")
    (package / "__main__.py").write_text(HANGING_CLI)
    with pytest.raises(CliHung) as hung:
        run_cli(["generate"], cwd=tmp_path, env={**os.environ, "PYTHONPATH": str(tmp_path)}, timeout=6)
    message = str(hung.value)
    assert "did not end within 6 s" in message
    assert "waiting_forever" in message and "workers.cli generate" in message and "(end of the stacks)" in message
    assert "in in_a_greenlet" in message  # the suspended greenlet's stack
    node_pid = int(message.split("started ", 1)[1].split()[0])
    assert f"--- node {node_pid} (node -e" in message and "handles: " in message and "timer" in message
    assert not psutil.pid_exists(node_pid) or psutil.Process(node_pid).status() == psutil.STATUS_ZOMBIE
