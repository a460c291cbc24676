"""Artifact storage, the port: one small interface, two adapters.

Embedded mode keeps artifacts in a local folder (`shared.artifacts.local.LocalArtifactStore`); the service
keeps them in one S3-compatible bucket (`shared.artifacts.s3.S3ArtifactStore`: AWS S3, MinIO).
`open_artifact_store(settings)` picks one; only the S3 adapter loads boto3.

Keys are relative, "/"-separated paths ("OWN-1/attempt-1/trace.zip"); a key that leaves its folder or
prefix ("../x", "/etc/x") is refused with `InvalidArtifactKeyError`. Every S3 failure surfaces as one
`ArtifactStoreError` whose message names the bucket, the key and the cause.
"""

from __future__ import annotations

import io
import json
import zipfile
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from pydantic import BaseModel, ConfigDict

if TYPE_CHECKING:
    from shared.settings import Settings

MiB = 1024 * 1024
# S3 refuses presigned URLs valid for more than 7 days.
MAX_PRESIGN_EXPIRES_S = 7 * 24 * 3600


class ArtifactStoreError(Exception):
    """A storage call failed; the message names the bucket/key and the cause, never credentials."""


class ArtifactNotFoundError(ArtifactStoreError, FileNotFoundError):
    """No artifact under that key (a FileNotFoundError, as the local store has always raised)."""


class InvalidArtifactKeyError(ArtifactStoreError, ValueError):
    """A key that is empty, absolute, or leaves its folder or prefix (a ValueError, as before)."""


class ArtifactInfo(BaseModel):
    model_config = ConfigDict(frozen=True)

    key: str  # relative to the store (without the S3 key prefix), so it can be passed back to get_bytes
    size: int
    content_type: str | None = None


class ArtifactStore(Protocol):
    def put_bytes(self, key: str, data: bytes, content_type: str = "application/octet-stream") -> str: ...

    def put_file(self, key: str, path: Path, content_type: str = "application/octet-stream") -> str: ...

    def get_bytes(self, key: str) -> bytes: ...

    def exists(self, key: str) -> bool: ...

    def remove_prefix(self, prefix: str) -> None: ...

    def list(self, prefix: str = "") -> list[ArtifactInfo]: ...

    def presigned_url(self, key: str, expires_s: int | None = None) -> str: ...


# S3's limit on a whole key, and the file systems' on one name: a longer key can name no artifact.
MAX_KEY_BYTES = 1024
MAX_SEGMENT_BYTES = 255


def check_key(key: str, *, is_prefix: bool = False) -> str:
    """Refuse keys that are empty, absolute or climb out of their prefix; return the key unchanged.

    A prefix may end with "/" and may be "" (everything) only where the caller allows it.
    """
    if not isinstance(key, str) or not key:
        raise InvalidArtifactKeyError("artifact key is empty")
    if key.startswith("/") or "\\" in key or any(ord(char) < 32 or char == "\x7f" for char in key):
        raise InvalidArtifactKeyError(f"artifact key {key!r} is absolute or has a backslash or control character")
    parts = key.split("/")
    if is_prefix and parts[-1] == "":
        parts = parts[:-1]
    if any(part in ("", ".", "..") for part in parts):
        raise InvalidArtifactKeyError(f"artifact key {key!r} has an empty, '.' or '..' segment")
    if len(key.encode()) > MAX_KEY_BYTES or any(len(part.encode()) > MAX_SEGMENT_BYTES for part in parts):
        raise InvalidArtifactKeyError(f"artifact key {key[:80]!r}... is too long (at most {MAX_KEY_BYTES} bytes, "
                                      f"{MAX_SEGMENT_BYTES} per segment)")
    return key


def open_artifact_store(settings: Settings) -> ArtifactStore:
    """S3 when STEPFORGE_S3_BUCKET is set (the bucket is checked now, and created when allowed), else the
    local folder settings.artifacts_dir."""
    if settings.s3_bucket:
        from shared.artifacts.s3 import S3ArtifactStore

        store = S3ArtifactStore.from_settings(settings)
        store.ensure_bucket(create=settings.s3_create_bucket)
        return store
    from shared.artifacts.local import LocalArtifactStore

    return LocalArtifactStore(settings.artifacts_dir)


def put_model(store: ArtifactStore, key: str, model: BaseModel) -> str:
    return store.put_bytes(key, model.model_dump_json(indent=2).encode(), "application/json")


def put_json(store: ArtifactStore, key: str, document: object) -> str:
    return store.put_bytes(key, json.dumps(document, indent=2).encode(), "application/json")


def zip_folder(folder: Path) -> bytes:
    """The folder's files zipped under its own name (suite/features/..., as `unzip` gives them back), in order."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for path in sorted(folder.rglob("*")):
            if path.is_file():
                archive.write(path, f"{folder.name}/{path.relative_to(folder).as_posix()}")
    return buffer.getvalue()
