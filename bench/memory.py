"""Peak resident memory of this process and of every process below it (Chromium, node, reset commands)."""

from __future__ import annotations

import os
import resource
import threading
from pathlib import Path

PROC = Path("/proc")


def _ppid_and_rss_kb(pid: int) -> tuple[int, int] | None:
    """(parent pid, VmRSS in kB) from /proc/<pid>/status; None when the process is gone."""
    try:
        text = (PROC / str(pid) / "status").read_text()
    except OSError:
        return None
    ppid, rss = 0, 0  # kernel threads and zombies have no VmRSS line
    for line in text.splitlines():
        if line.startswith("PPid:"):
            ppid = int(line.split()[1])
        elif line.startswith("VmRSS:"):
            rss = int(line.split()[1])
    return ppid, rss


def _is_replay(pid: int) -> bool:
    """A cucumber-js process: the pipeline's own replay of the generated suite."""
    try:
        return b"cucumber" in (PROC / str(pid) / "cmdline").read_bytes()
    except OSError:
        return False


def tree_rss_kb(root: int) -> tuple[int, int, int]:
    """Over root and all its descendants: (sum of VmRSS in kB, number of processes, the part of that sum
    under cucumber-js processes, i.e. the pipeline's replay with its own Chromium)."""
    table = {}
    for entry in PROC.iterdir():
        if entry.name.isdigit() and (found := _ppid_and_rss_kb(int(entry.name))) is not None:
            table[int(entry.name)] = found
    children: dict[int, list[int]] = {}
    for pid, (ppid, _) in table.items():
        children.setdefault(ppid, []).append(pid)
    total, count, replay, todo = 0, 0, 0, [(root, False)]
    while todo:
        pid, in_replay = todo.pop()
        if pid in table:
            in_replay = in_replay or _is_replay(pid)
            total, count = total + table[pid][1], count + 1
            replay += table[pid][1] if in_replay else 0
        todo.extend((child, in_replay) for child in children.get(pid, ()))
    return total, count, replay


def python_peak_rss_kb() -> int:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss  # kB on Linux


class TreeSampler:
    """Samples the process tree's RSS every `interval` seconds on a background thread; keeps the peak."""

    def __init__(self, interval: float = 0.1, root: int | None = None) -> None:
        self.interval, self.root = interval, root or os.getpid()
        self.peak_kb, self.peak_processes, self.samples = 0, 0, 0
        self.peak_without_replay_kb = 0  # the same tree, cucumber-js subtrees left out
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="rss-sampler", daemon=True)

    def _run(self) -> None:
        while True:
            kb, count, replay_kb = tree_rss_kb(self.root)
            self.samples += 1
            self.peak_without_replay_kb = max(self.peak_without_replay_kb, kb - replay_kb)
            if kb > self.peak_kb:
                self.peak_kb, self.peak_processes = kb, count
            if self._stop.wait(self.interval):
                return

    def __enter__(self) -> TreeSampler:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()
