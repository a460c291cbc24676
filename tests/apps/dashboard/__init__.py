"""The dashboard as a demo application: the service's own app (api.app) on an embedded database (SQLite) and a local
artifacts folder, seeded with a night's history (seed.py) under a known demo key, so that scenarios written as a
tester would (examples/dashboard.yaml) can sign in with it.

    from tests.apps.dashboard import serve_in_thread
    demo = serve_in_thread()   # a free port; demo.url, demo.seeded, demo.stop()

`python -m tests.apps.dashboard [--port 8090]` serves it until interrupted."""

from __future__ import annotations

import tempfile
from dataclasses import dataclass
from pathlib import Path

from api.app import create_app
from shared.migrate import upgrade
from shared.service_settings import ServiceSettings
from tests.apps.dashboard.seed import Seeded, seed
from tests.registry.helpers import ServerThread

DEMO_KEY = "sfk_dashboard-demo-key"  # examples/dashboard.yaml signs in with it


@dataclass
class Demo:
    url: str
    seeded: Seeded
    settings: ServiceSettings
    server: ServerThread
    folder: tempfile.TemporaryDirectory

    def stop(self) -> None:
        self.server.__exit__(None, None, None)
        self.folder.cleanup()


def demo_settings(folder: Path) -> ServiceSettings:
    url = f"sqlite:///{folder / 'service.db'}"
    upgrade(url)
    return ServiceSettings(database_url=url, broker_url="memory://", artifacts_dir=folder / "artifacts",
                           allow_private_targets=True, ui_secure_cookie=False)


def serve_in_thread(port: int | None = None) -> Demo:
    folder = tempfile.TemporaryDirectory(prefix="stepforge-dashboard-demo-")
    settings = demo_settings(Path(folder.name))
    seeded = seed(settings, api_key=DEMO_KEY)
    server = ServerThread(create_app(settings), port=port).__enter__()
    return Demo(server.url, seeded, settings, server, folder)
