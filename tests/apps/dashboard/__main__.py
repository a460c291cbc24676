"""`python -m tests.apps.dashboard [--port 8090]`: the seeded dashboard, signed in with the demo key."""

from __future__ import annotations

import argparse
import signal
import threading

from tests.apps.dashboard import DEMO_KEY, serve_in_thread


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m tests.apps.dashboard")
    parser.add_argument("--port", type=int, default=8090)
    demo = serve_in_thread(parser.parse_args().port)
    print(f"dashboard: {demo.url}/ui/  (API key {DEMO_KEY})", flush=True)
    stopped = threading.Event()
    signal.signal(signal.SIGINT, lambda *_: stopped.set())
    signal.signal(signal.SIGTERM, lambda *_: stopped.set())
    stopped.wait()
    demo.stop()


if __name__ == "__main__":
    main()
