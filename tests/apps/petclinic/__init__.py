"""PetClinic demo app: a small Spring-PetClinic lookalike that stepforge's tests drive.

    from tests.apps.petclinic import serve_in_thread, reset
    base_url, stop = serve_in_thread()   # free port, seed data
    ...
    stop()

The data lives in one module-level store per process (see store.py); reset() restores the seed.
"""

from __future__ import annotations

import logging
import threading
from typing import Callable

from werkzeug.serving import make_server

from .app import create_app
from .store import reset

__all__ = ["create_app", "reset", "serve_in_thread"]


def serve_in_thread(host: str = "127.0.0.1", port: int = 0,
                    stylesheet: str | None = None) -> tuple[str, Callable[[], None]]:
    """Start the app on a background thread (port 0 = a free port), seeded; return (base_url, stop).
    stylesheet: a URL every page links, as apps link CSS from a CDN."""
    logging.getLogger("werkzeug").setLevel(logging.ERROR)
    reset()
    server = make_server(host, port, create_app(stylesheet), threaded=True)
    thread = threading.Thread(target=server.serve_forever, name="petclinic-server", daemon=True)
    thread.start()
    stopped = threading.Event()

    def stop() -> None:
        if not stopped.is_set():
            stopped.set()
            server.shutdown()
            server.server_close()
            thread.join(timeout=5)

    shown_host = f"[{host}]" if ":" in host else host
    return f"http://{shown_host}:{server.server_port}", stop
