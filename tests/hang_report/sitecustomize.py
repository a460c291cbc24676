"""Loaded by every Python the tests' run_cli starts (tests/cli_run.py puts this folder on PYTHONPATH): on SIGUSR1,
write every thread's stack and every suspended greenlet's to stderr. Playwright's sync API runs its calls in a
greenlet, so a call that never returns shows only in the second list, which faulthandler cannot see."""

import faulthandler
import gc
import signal
import sys
import traceback


def _report(_signum, _frame):
    faulthandler.dump_traceback(all_threads=True)
    try:
        import greenlet
    except ImportError:
        greenlet = None
    for item in gc.get_objects():
        if greenlet is not None and isinstance(item, greenlet.greenlet) and item.gr_frame is not None:
            sys.stderr.write("Suspended greenlet (most recent call last):\n")
            sys.stderr.write("".join(traceback.format_stack(item.gr_frame)))
    sys.stderr.write("(end of the stacks)\n")
    sys.stderr.flush()


signal.signal(signal.SIGUSR1, _report)
