"""A worker's processes live no longer than the process that started them.

Linux's parent-death signal (prctl PR_SET_PDEATHSIG) has the kernel send SIGKILL to a process when its parent
dies, however the parent died (SIGKILL included, where no handler of the parent's can run). A prefork child that
is killed this way closes its pipe to Playwright's driver, and the driver closes its browsers when that pipe
closes; so the whole tree under a killed main worker goes. (Celery's prefork pool sets it on its children too.)
The programs a job starts in sessions of their own get it through `bound_to_this_process`.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import os
import shutil
import signal
import subprocess
import sys

import psutil

PR_SET_PDEATHSIG = 1


def die_with_parent() -> bool:
    """Ask the kernel to SIGKILL this process when its parent dies; True when that is set up (Linux only). A
    parent that died before the call left this process to init: it exits at once."""
    if not sys.platform.startswith("linux"):
        return False
    parent = os.getppid()
    libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True)
    if libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0) != 0:
        return False
    if os.getppid() != parent:  # the parent died between getppid() and prctl(): no signal will come
        os._exit(1)
    return True


def bound_to_this_process(command: list[str]) -> list[str]:
    """`command`, set to be SIGKILLed when this process dies (util-linux's setpriv, where there is one). For the
    programs a job starts (cucumber-js replays, the reset command): in a session of their own so that a timeout
    can stop their whole group, they would otherwise go on running, with their browsers, after a killed worker
    until they next write to their closed output. Chromium, when the program driving it dies, sees its DevTools
    pipe close and exits."""
    setpriv = shutil.which("setpriv") if sys.platform.startswith("linux") else None
    return [setpriv, "--pdeathsig", "KILL", "--", *command] if setpriv else command


def stop_process_group(process: subprocess.Popen) -> None:
    """Stop a program started in a session of its own (cucumber-js, a resident runner) and everything it started (its
    browser, a reset command): its whole process group."""
    for sig in (signal.SIGTERM, signal.SIGKILL):
        try:
            os.killpg(process.pid, sig)
        except ProcessLookupError:
            break
        try:
            process.wait(timeout=5)
            break
        except subprocess.TimeoutExpired:
            continue
    try:  # what outlived the program itself
        os.killpg(process.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass
    try:
        process.wait(timeout=5)
    except subprocess.TimeoutExpired:
        pass


def descendants(root: psutil.Process | None = None) -> list[psutil.Process]:
    """root's descendants (this process's by default), found by the parent pid each process has now.

    Not psutil's children(recursive=True): it drops every child that seems older than its parent by create times
    it computes with the boot time read afresh each time, and the boot time /proc/stat gives moves when the clock is
    adjusted, so a child started within a second of its parent can go missing (the likely cause of a browser's tree
    measured as its main process alone)."""
    root = root or psutil.Process()
    children: dict[int, list[psutil.Process]] = {}
    for proc in psutil.process_iter(["ppid"]):
        children.setdefault(proc.info["ppid"], []).append(proc)
    found: list[psutil.Process] = []
    stack, seen = [root.pid], {root.pid}
    while stack:
        for child in children.get(stack.pop(), []):
            if child.pid not in seen:  # a pid reused while the table was read could close a cycle
                seen.add(child.pid)
                found.append(child)
                stack.append(child.pid)
    return found
