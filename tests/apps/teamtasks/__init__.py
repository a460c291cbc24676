"""Teamtasks demo app: a single-page task tracker whose JSON API runs on another port, unlike PetClinic.

    from tests.apps.teamtasks import serve_in_thread
    app = serve_in_thread()        # free ports, seed data; app.web_url, app.api_url
    ...
    app.stop()

Client-side routes (History API), sign-in posted with fetch, every API answer 300-1000 ms late, htmx swaps
(the npm package, served by the web server), a type-ahead that opens on keyup, confirm() and prompt(), icon-only
buttons, clickable rows, unlabeled inputs under headings, row checkboxes without names, a hover menu, a link to a
new tab, a file upload, and (stall=True) a stylesheet linked from a host that never answers.
"""

from __future__ import annotations

import logging
import threading
from dataclasses import dataclass, field
from typing import Callable

from werkzeug.serving import BaseWSGIServer, make_server

from tests.apps.silent_host import start_silent_host

from .servers import create_api_app, create_web_app
from .store import reset

__all__ = ["RunningApp", "reset", "serve_in_thread"]


@dataclass
class RunningApp:
    web_url: str
    api_url: str
    stylesheet: str | None
    _stops: list[Callable[[], None]] = field(default_factory=list, repr=False)

    def stop(self) -> None:
        while self._stops:
            self._stops.pop()()


def _start(server: BaseWSGIServer, name: str) -> Callable[[], None]:
    thread = threading.Thread(target=server.serve_forever, name=name, daemon=True)
    thread.start()

    def stop() -> None:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)

    return stop


def serve_in_thread(host: str = "127.0.0.1", web_port: int = 0, api_port: int = 0, stall: bool = True) -> RunningApp:
    """Start the web server on host and the API on localhost (another origin of the same machine), seeded."""
    logging.getLogger("werkzeug").setLevel(logging.ERROR)
    reset()
    stops: list[Callable[[], None]] = []
    stylesheet = None
    if stall:
        cdn, stop_cdn = start_silent_host()
        stylesheet = f"{cdn}/theme.css"
        stops.append(stop_cdn)
    # The web server's port must be known for CORS before the API starts, and the API's for the page's config.
    web = make_server(host, web_port, None, threaded=True)  # type: ignore[arg-type]
    web_url = f"http://{host}:{web.server_port}"
    api = make_server("localhost", api_port, create_api_app(web_url), threaded=True)
    api_url = f"http://localhost:{api.server_port}"
    web.app = create_web_app(api_url, stylesheet)
    stops += [_start(api, "teamtasks-api"), _start(web, "teamtasks-web")]
    return RunningApp(web_url, api_url, stylesheet, stops)
