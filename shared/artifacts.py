"""Artifact storage behind one small interface; embedded mode keeps them in a local folder."""

from __future__ import annotations

import json
import os
import shutil
import tempfile
from pathlib import Path
from typing import Protocol

from pydantic import BaseModel


class ArtifactStore(Protocol):
    def put_bytes(self, key: str, data: bytes, content_type: str = "application/octet-stream") -> str: ...

    def put_file(self, key: str, path: Path, content_type: str = "application/octet-stream") -> str: ...

    def get_bytes(self, key: str) -> bytes: ...

    def exists(self, key: str) -> bool: ...

    def remove_prefix(self, prefix: str) -> None: ...


class LocalArtifactStore:
    """Keys are relative paths under one root; writes are atomic (temp file, then rename)."""

    def __init__(self, root: Path) -> None:
        self.root = root

    def path(self, key: str) -> Path:
        target = (self.root / key).resolve()
        if not target.is_relative_to(self.root.resolve()):
            raise ValueError(f"artifact key {key!r} leaves the artifacts folder")
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
        return self.path(key).read_bytes()

    def exists(self, key: str) -> bool:
        return self.path(key).exists()

    def remove_prefix(self, prefix: str) -> None:
        """Remove every artifact under a folder-like prefix ("OWN-1/")."""
        target = self.path(prefix)
        if target == self.root.resolve():
            raise ValueError("refusing to remove the whole artifacts folder")
        if target.is_dir():
            shutil.rmtree(target)


def put_model(store: ArtifactStore, key: str, model: BaseModel) -> str:
    return store.put_bytes(key, model.model_dump_json(indent=2).encode(), "application/json")


def put_json(store: ArtifactStore, key: str, document: object) -> str:
    return store.put_bytes(key, json.dumps(document, indent=2).encode(), "application/json")
