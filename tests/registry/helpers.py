"""Helpers for the registry tests (importable by spawned processes)."""

from __future__ import annotations

import socket
import threading
import time

from shared.records import Locator, ScriptOp, StepDefinition
from shared.step_registry import NewStep

TOKEN = "test-service-token-0123456789"


def new_step(signature: str, pattern: str = "I click {string}", selector: str = "#find",
             keyword: str = "When") -> NewStep:
    definition = StepDefinition(
        keyword=keyword,
        pattern=pattern,
        args=["name"],
        ops=[ScriptOp(kind="click", locator=Locator(strategy="css", value=selector), comment=f"click {selector}")],
        signature=signature,
    )
    code = f"When({pattern!r}, async function (name) {{ await this.page.locator({selector!r}).click(); }});"
    return NewStep(definition=definition, code=code)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class ServerThread:
    """A real uvicorn server in a thread."""

    def __init__(self, app, port: int | None = None) -> None:  # noqa: ANN001
        import uvicorn

        self.port = port or free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        config = uvicorn.Config(app, host="127.0.0.1", port=self.port, log_level="warning", lifespan="on")
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)

    def __enter__(self) -> ServerThread:
        self.thread.start()
        deadline = time.monotonic() + 15
        while not self.server.started:
            if time.monotonic() > deadline or not self.thread.is_alive():
                raise RuntimeError(f"uvicorn did not start on port {self.port}")
            time.sleep(0.02)
        return self

    def __exit__(self, *_exc: object) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=10)


def register_in_process(database_url: str, project: str, origin: str, signature: str, barrier, results) -> None:  # noqa: ANN001
    """Run in a spawned process: one LocalStepRegistry, wait for the others, register one signature."""
    from shared.registry.local import LocalStepRegistry

    try:
        registry = LocalStepRegistry(database_url)
        barrier.wait(timeout=60)
        found = registry.register(project, origin, [new_step(signature)])
        results.put(("ok", found[signature].id))
        registry.close()
    except BaseException as error:  # noqa: BLE001
        results.put(("error", f"{type(error).__name__}: {error}"))
