"""A host that accepts connections and never answers, like a CDN that cannot be reached from a CI network.

    url, stop = start_silent_host()     # http://127.0.0.2:<free port>: another loopback address, another host
    ...
    stop()
"""

from __future__ import annotations

import socket
import threading
from typing import Callable


def start_silent_host(host: str = "127.0.0.2") -> tuple[str, Callable[[], None]]:
    listener = socket.socket()
    listener.bind((host, 0))
    listener.listen(128)
    listener.settimeout(0.2)  # so the accept loop sees stop() soon
    held: list[socket.socket] = []
    stopped = threading.Event()

    def accept() -> None:
        while not stopped.is_set():
            try:
                held.append(listener.accept()[0])  # kept open, never read, never answered
            except OSError:
                continue

    thread = threading.Thread(target=accept, name="silent-host", daemon=True)
    thread.start()

    def stop() -> None:
        if stopped.is_set():
            return
        stopped.set()
        thread.join(timeout=2)
        for conn in held:
            conn.close()
        listener.close()

    return f"http://{host}:{listener.getsockname()[1]}", stop
