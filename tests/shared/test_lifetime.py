"""The walk of a process's descendants that the browser pool and the tests measure and stop trees with."""

from __future__ import annotations

import subprocess
import time

import psutil

from shared.lifetime import descendants


def test_a_tree_is_found_whole_when_the_boot_time_moves_back(monkeypatch) -> None:
    """psutil's children(recursive=True) drops a child that seems older than its parent by create times computed
    with the boot time read afresh, which moves when the clock is adjusted: the walk by parent pids does not."""
    parent = subprocess.Popen(["sh", "-c", "sleep 60 & sleep 60"])
    try:
        main = psutil.Process(parent.pid)
        deadline = time.monotonic() + 10
        while len(main.children()) < 2 and time.monotonic() < deadline:
            time.sleep(0.02)  # sh starting its two children
        children = sorted(p.pid for p in main.children())
        assert len(children) == 2
        reads = iter(range(10_000))
        monkeypatch.setattr(psutil._pslinux, "boot_time", lambda: 2_000_000.0 - 5 * next(reads))  # 5 s back a read
        assert main.children(recursive=True) == []  # the cause: psutil's own walk loses both
        assert sorted(p.pid for p in descendants(main)) == children
    finally:
        for child in psutil.Process(parent.pid).children():
            child.kill()
        parent.kill()
        parent.wait()
