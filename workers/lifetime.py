"""A worker's processes live no longer than the process that started them.

Linux's parent-death signal (prctl PR_SET_PDEATHSIG) has the kernel send SIGKILL to a process when its parent
dies, however the parent died (SIGKILL included, where no handler of the parent's can run). A prefork child that
is killed this way closes its pipe to Playwright's driver, and the driver closes its browsers when that pipe
closes; so the whole tree under a killed main worker goes.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import os
import signal
import sys

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
