"""An ArtifactStore seen through a key prefix: a service job's own attempt folder, a regeneration's candidates."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from shared.artifacts import ArtifactInfo, ArtifactStore


class PrefixedStore:
    """An ArtifactStore seen through a key prefix: the pipeline writes "OWN-1/attempt-1/run.json", the store
    receives "projects/1/batches/2/jobs/3/attempts/1/OWN-1/attempt-1/run.json". `fence`, when given, is called
    before every write and raises (LeaseLost) once the run may no longer write."""

    def __init__(self, inner: ArtifactStore, prefix: str, fence: Callable[[], None] | None = None) -> None:
        self.inner = inner
        self.prefix = prefix if prefix.endswith("/") else prefix + "/"
        self.fence = fence or (lambda: None)

    def put_bytes(self, key: str, data: bytes, content_type: str = "application/octet-stream") -> str:
        self.fence()
        self.inner.put_bytes(self.prefix + key, data, content_type)
        return key

    def put_file(self, key: str, path: Path, content_type: str = "application/octet-stream") -> str:
        self.fence()
        self.inner.put_file(self.prefix + key, path, content_type)
        return key

    def get_bytes(self, key: str) -> bytes:
        return self.inner.get_bytes(self.prefix + key)

    def exists(self, key: str) -> bool:
        return self.inner.exists(self.prefix + key)

    def remove_prefix(self, prefix: str) -> None:
        self.fence()
        self.inner.remove_prefix(self.prefix + prefix)

    def list(self, prefix: str = "") -> list[ArtifactInfo]:
        return [info.model_copy(update={"key": info.key.removeprefix(self.prefix)})
                for info in self.inner.list(self.prefix + prefix)]

    def presigned_url(self, key: str, expires_s: int | None = None) -> str:
        return self.inner.presigned_url(self.prefix + key, expires_s)
