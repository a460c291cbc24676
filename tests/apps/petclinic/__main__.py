"""Run the PetClinic demo app, or reset a running one.

    python -m tests.apps.petclinic [--host 127.0.0.1] [--port 8080] [--cdn-stylesheet URL]
    python -m tests.apps.petclinic reset [--url http://127.0.0.1:8080]
"""

from __future__ import annotations

import argparse
import logging
import signal
import sys
import urllib.error
import urllib.request

from werkzeug.serving import make_server

from . import changes, create_app


def _interrupt(signum, frame):  # SIGTERM -> clean shutdown like Ctrl-C
    raise KeyboardInterrupt


def serve(host: str, port: int, stylesheet: str | None = None) -> int:
    logging.getLogger("werkzeug").setLevel(logging.ERROR)
    server = make_server(host, port, create_app(stylesheet), threaded=True)
    signal.signal(signal.SIGTERM, _interrupt)
    print(f"PetClinic demo listening on http://{host}:{server.server_port}", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
    return 0


def reset_remote(url: str, app: str = "petclinic") -> int:
    target = url.rstrip("/") + "/__reset"
    request = urllib.request.Request(target, data=b"", method="POST")
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            status = response.status
    except urllib.error.HTTPError as exc:
        status = exc.code
    except (urllib.error.URLError, OSError, ValueError) as exc:
        print(f"{app} reset failed: cannot reach {target}: {getattr(exc, 'reason', exc)}", file=sys.stderr)
        return 1
    if status != 204:
        print(f"{app} reset failed: {target} answered HTTP {status}, expected 204", file=sys.stderr)
        return 1
    print(f"{app} reset: ok ({target})")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.apps.petclinic", description="PetClinic demo app")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8080, help="0 picks a free port")
    parser.add_argument("--cdn-stylesheet", metavar="URL", help="a stylesheet every page links, as from a CDN")
    parser.add_argument("--change", action="append", choices=changes.NAMES, default=[],
                        help="serve the application with this change (repeatable; see tests/apps/petclinic/changes.py)")
    commands = parser.add_subparsers(dest="command")
    reset_cmd = commands.add_parser("reset", help="restore the seed data of a running app")
    reset_cmd.add_argument("--url", default="http://127.0.0.1:8080", help="base URL of the running app")
    args = parser.parse_args(argv)
    if args.command == "reset":
        return reset_remote(args.url)
    changes.switch(*args.change)
    return serve(args.host, args.port, args.cdn_stylesheet)


if __name__ == "__main__":
    sys.exit(main())
