"""The artifact store in a local folder (embedded mode): keys are paths under one root."""

from __future__ import annotations

import mimetypes
import os
import shutil
import tempfile
from pathlib import Path

from shared.artifacts import ArtifactInfo, ArtifactNotFoundError, InvalidArtifactKeyError


class LocalArtifactStore:
    """Keys are relative paths under one root; writes are atomic (temp file, then rename)."""

    def __init__(self, root: Path) -> None:
        self.root = root

    def path(self, key: str) -> Path:
        target = (self.root / key).resolve()
        if not target.is_relative_to(self.root.resolve()):
            raise InvalidArtifactKeyError(f"artifact key {key!r} leaves the artifacts folder")
        return target

    def put_bytes(self, key: str, data: bytes, content_type: str = "application/octet-stream") -> str:
        target = self.path(key)
        target.parent.mkdir(parents=True, exist_ok=True)
        handle, temporary = tempfile.mkstemp(dir=target.parent, prefix=".tmp-")
        with os.fdopen(handle, "wb") as out:
            out.write(data)
        os.replace(temporary, target)
        return key

    def put_file(self, key: str, path: Path, content_type: str = "application/octet-stream") -> str:
        target = self.path(key)
        if path.resolve() != target:
            self.put_bytes(key, path.read_bytes(), content_type)
        return key

    def get_bytes(self, key: str) -> bytes:
        target = self.path(key)
        try:
            return target.read_bytes()
        except (FileNotFoundError, IsADirectoryError, NotADirectoryError):  # a folder is no artifact
            raise ArtifactNotFoundError(f"no artifact {key!r} in {self.root}") from None

    def exists(self, key: str) -> bool:
        return self.path(key).exists()

    def remove_prefix(self, prefix: str) -> None:
        """Remove every artifact under a folder-like prefix ("OWN-1/")."""
        target = self.path(prefix)
        if target == self.root.resolve():
            raise ValueError("refusing to remove the whole artifacts folder")
        if target.is_dir():
            shutil.rmtree(target)

    def list(self, prefix: str = "", *, content_types: bool = False) -> list[ArtifactInfo]:
        """Files whose key starts with `prefix` (a plain string prefix), sorted by key.

        The local store keeps no content type: with `content_types` it is guessed from the file name.
        """
        base = self.path(prefix.rpartition("/")[0]) if prefix else self.root.resolve()
        if not base.is_dir():
            return []
        root = self.root.resolve()
        found = []
        for path in base.rglob("*"):
            if not path.is_file() or path.name.startswith(".tmp-"):  # a write in progress
                continue
            key = path.relative_to(root).as_posix()
            if key.startswith(prefix):
                guessed = mimetypes.guess_type(path.name)[0] if content_types else None
                found.append(ArtifactInfo(key=key, size=path.stat().st_size, content_type=guessed))
        return sorted(found, key=lambda info: info.key)

    def presigned_url(self, key: str, expires_s: int | None = None) -> str:
        """A file:// URL of the artifact, for someone on this machine; `expires_s` has no meaning here."""
        return self.path(key).as_uri()
