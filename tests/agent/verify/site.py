"""A tiny owners app served by http.server on 127.0.0.1, for replay tests."""

from __future__ import annotations

import html
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlsplit

OWNERS = {
    1: ("George", "Franklin", "6085551023"),
    2: ("Betty", "Davis", "6085551749"),
    3: ("Harold", "Davis", "6085553198"),
}


def _page(title: str, body: str) -> bytes:
    return f"<!doctype html><html><head><title>{title}</title></head><body>{body}</body></html>".encode()


class Handler(BaseHTTPRequestHandler):
    def log_message(self, *args) -> None:  # keep test output quiet
        pass

    def _send(self, status: int, body: bytes) -> None:
        self.send_response(status)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self) -> None:
        url = urlsplit(self.path)
        if url.path == "/owners/find":
            body = (
                "<h2>Find Owners</h2>"
                '<form id="search-owner-form" action="/owners" method="get">'
                '<label for="lastName">Last name</label> <input id="lastName" name="lastName">'
                ' <button type="submit">Find Owner</button></form>'
            )
            return self._send(200, _page("Find Owners", body))
        if url.path == "/owners":
            wanted = parse_qs(url.query).get("lastName", [""])[0].strip().lower()
            rows = "".join(
                f'<tr><td><a href="/owners/{number}">{html.escape(first)} {html.escape(last)}</a></td></tr>'
                for number, (first, last, _) in OWNERS.items()
                if last.lower().startswith(wanted)
            )
            return self._send(200, _page("Owners", f"<h2>Owners</h2><table>{rows}</table>"))
        if url.path.startswith("/owners/") and url.path.rsplit("/", 1)[1].isdigit():
            number = int(url.path.rsplit("/", 1)[1])
            if number in OWNERS:
                first, last, phone = OWNERS[number]
                body = (
                    "<h2>Owner Information</h2><table>"
                    f"<tr><th>Name</th><td>{first} {last}</td></tr>"
                    f"<tr><th>Telephone</th><td>{phone}</td></tr></table>"
                )
                return self._send(200, _page("Owner", body))
        self._send(404, _page("Not found", "<h1>Not found</h1>"))


@contextmanager
def serve() -> Iterator[str]:
    """Serve the app on a free loopback port; yields its base URL."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)
