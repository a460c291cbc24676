"""Small HTTP sites that tests serve on 127.0.0.1: a handler base that answers in one call, and a starter."""

from __future__ import annotations

import threading
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from socketserver import BaseServer


class SiteHandler(BaseHTTPRequestHandler):
    """No access log; send() writes a whole answer."""

    def send(self, body: bytes | str, status: int = 200, content_type: str = "text/html",
             headers: dict[str, str] | None = None) -> None:
        data = body.encode() if isinstance(body, str) else body
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(data)))
        for name, value in (headers or {}).items():
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, *args: object) -> None:
        pass


# How often a serving loop looks whether it was asked to stop: shutdown() waits for that (0.5 s by default).
POLL_S = 0.02


def start(server: BaseServer) -> Callable[[], None]:
    """Serve in a daemon thread; returns stop, which returns once the server has stopped and closed."""
    threading.Thread(target=server.serve_forever, kwargs={"poll_interval": POLL_S}, daemon=True).start()

    def stop() -> None:
        server.shutdown()
        server.server_close()

    return stop


def serve(handler: type[BaseHTTPRequestHandler], host: str = "127.0.0.1") -> tuple[str, Callable[[], None]]:
    """Serve on a free port in daemon threads; returns (base URL, stop)."""
    server = ThreadingHTTPServer((host, 0), handler)
    server.daemon_threads = True
    return f"http://{host}:{server.server_port}", start(server)
