"""Run the Teamtasks demo app, or reset a running one.

    python -m tests.apps.teamtasks [--port 8090] [--api-port 8091] [--no-stall] [--change NAME ...]
    python -m tests.apps.teamtasks reset [--url http://127.0.0.1:8090]
"""

from __future__ import annotations

import argparse
import signal
import sys
import threading

from tests.apps.petclinic.__main__ import reset_remote

from . import changes, serve_in_thread


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.apps.teamtasks", description="Teamtasks demo app")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8090, help="the web server; 0 picks a free port")
    parser.add_argument("--api-port", type=int, default=8091, help="the JSON API; 0 picks a free port")
    parser.add_argument("--no-stall", action="store_true", help="no stylesheet from a host that never answers")
    parser.add_argument("--change", action="append", choices=changes.NAMES, default=[],
                        help="start with this change made (tests/apps/teamtasks/changes.py; repeatable)")
    commands = parser.add_subparsers(dest="command")
    reset_cmd = commands.add_parser("reset", help="restore the seed data of a running app")
    reset_cmd.add_argument("--url", default="http://127.0.0.1:8090", help="base URL of the running app")
    args = parser.parse_args(argv)
    if args.command == "reset":
        return reset_remote(args.url, "teamtasks")
    changes.switch(*args.change)
    app = serve_in_thread(args.host, args.port, args.api_port, stall=not args.no_stall)
    print(f"Teamtasks demo listening on {app.web_url} (API {app.api_url})", flush=True)
    stopped = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stopped.set())
    try:
        stopped.wait()
    except KeyboardInterrupt:
        pass
    finally:
        app.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
