"""A tiny owners app served by http.server on 127.0.0.1, for replay tests.

serve(prefix="/petclinic") serves it under a path only (everything else is 404), as an app deployed below the
host root; its own links and form actions carry the prefix.
"""

from __future__ import annotations

import html
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlsplit

from tests.http_site import POLL_S

OWNERS = {
    1: ("George", "Franklin", "6085551023"),
    2: ("Betty", "Davis", "6085551749"),
    3: ("Harold", "Davis", "6085553198"),
}

LATE_S = 0.6

# Pages for the world.js checks: whole-word text, case and layout, dialogs, the viewport.
EXTRA_PAGES = {
    "/count": ("Count", "<h2>Search result</h2><p>11 owners</p>"),
    "/styled": (
        "Styled",
        ('<h2 style="text-transform: uppercase">owner\n      information</h2>'
         '<p style="display: none">hidden words</p>'),
    ),
    "/confirm": (
        "Confirm",
        ('<button id="go" onclick="if (confirm(\'Sure?\')) location.href = \'{prefix}/done\'">Delete</button>'
         '<p id="answer"></p>'
         '<button id="ask" onclick="document.getElementById(\'answer\').textContent = '
         'prompt(\'Name?\', \'Leo\') + \' \' + String(alert(\'Hi\'))">Ask</button>'),
    ),
    "/done": ("Done", "<h2>Deleted for good</h2>"),
    # Save asks /slow, which answers LATE_S later; the page shows the answer only then.
    "/late": (
        "Late",
        ('<button id="save" onclick="fetch(\'{prefix}/slow\').then((r) => r.text()).then((t) => '
         'document.getElementById(\'out\').textContent = t)">Save</button><p id="out"></p>'),
    ),
    "/viewport": (
        "Viewport",
        ('<p id="size"></p><script>document.getElementById("size").textContent = '
         'innerWidth + "x" + innerHeight;</script>'),
    ),
}


def _page(title: str, body: str) -> bytes:
    return f"<!doctype html><html><head><title>{title}</title></head><body>{body}</body></html>".encode()


class Handler(BaseHTTPRequestHandler):
    prefix = ""  # the path the app is served under, e.g. "/petclinic"

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
        p = self.prefix
        if not url.path.startswith(p + "/"):
            return self._send(404, _page("Not found", "<h1>Not found</h1>"))
        path = url.path[len(p):]
        if path == "/slow":
            time.sleep(LATE_S)  # the server's latency: the page waits for it
            return self._send(200, b"Error: the disk is full")
        if path in EXTRA_PAGES:
            title, body = EXTRA_PAGES[path]
            return self._send(200, _page(title, body.replace("{prefix}", p)))
        if path == "/owners/find":
            body = (
                "<h2>Find Owners</h2>"
                f'<form id="search-owner-form" action="{p}/owners" method="get">'
                '<label for="lastName">Last name</label> <input id="lastName" name="lastName">'
                ' <button type="submit">Find Owner</button></form>'
            )
            return self._send(200, _page("Find Owners", body))
        if path == "/owners":
            wanted = parse_qs(url.query).get("lastName", [""])[0].strip().lower()
            rows = "".join(
                f'<tr><td><a href="{p}/owners/{number}">{html.escape(first)} {html.escape(last)}</a></td></tr>'
                for number, (first, last, _) in OWNERS.items()
                if last.lower().startswith(wanted)
            )
            return self._send(200, _page("Owners", f"<h2>Owners</h2><table>{rows}</table>"))
        if path.startswith("/owners/") and path.rsplit("/", 1)[1].isdigit():
            number = int(path.rsplit("/", 1)[1])
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
def serve(prefix: str = "") -> Iterator[str]:
    """Serve the app on a free loopback port under prefix ("" or "/path"); yields its base URL, prefix included."""
    handler = type("PrefixedHandler", (Handler,), {"prefix": prefix.rstrip("/")})
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": POLL_S}, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}{prefix.rstrip('/')}"
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)
