"""The artifact store in one bucket of an S3-compatible server (the service): the only module that loads boto3."""

from __future__ import annotations

import io
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

import boto3
from boto3.exceptions import Boto3Error
from boto3.s3.transfer import TransferConfig
from botocore.config import Config
from botocore.exceptions import BotoCoreError, ClientError

from shared.artifacts import (
    MAX_PRESIGN_EXPIRES_S,
    ArtifactInfo,
    ArtifactNotFoundError,
    ArtifactStoreError,
    MiB,
    check_key,
)

if TYPE_CHECKING:
    from shared.settings import Settings


class S3ArtifactStore:
    """Artifacts in one bucket of an S3-compatible server, under an optional key prefix.

    - Every call has connect/read timeouts (`timeout_s`) and at most `max_attempts` tries (botocore's
      "standard" retry mode: exponential backoff with jitter, on throttling, 5xx and connection errors).
    - `put_file` switches to a multipart upload above `multipart_threshold` (8 MiB, boto3's default),
      in parts of `multipart_chunksize` (8 MiB; S3 needs at least 5 MiB per part but the last), with
      up to `max_concurrency` parts in flight. `put_bytes` does the same for large payloads.
    - `remove_prefix` lists page by page and deletes in batches of `delete_batch_size` (at most 1000,
      S3's DeleteObjects limit). Versioned buckets keep older versions behind a delete marker.
    - `presigned_url` signs a GET for `public_endpoint_url` when set (clients may reach the server by
      another name than the service: localhost:9000 outside compose, minio:9000 inside).
    """

    def __init__(
        self,
        bucket: str,
        *,
        prefix: str = "",
        endpoint_url: str | None = None,
        public_endpoint_url: str | None = None,
        region: str = "us-east-1",
        access_key_id: str | None = None,
        secret_access_key: str | None = None,
        timeout_s: float = 10.0,
        max_attempts: int = 3,
        presign_expires_s: int = 3600,
        multipart_threshold: int = 8 * MiB,
        multipart_chunksize: int = 8 * MiB,
        max_concurrency: int = 4,
        delete_batch_size: int = 1000,
        list_page_size: int = 1000,
    ) -> None:
        if not bucket:
            raise ValueError("S3 bucket name is empty")
        if multipart_chunksize < 5 * MiB:
            raise ValueError("multipart_chunksize must be at least 5 MiB (S3's smallest part)")
        if not 1 <= delete_batch_size <= 1000:
            raise ValueError("delete_batch_size must be between 1 and 1000 (S3's DeleteObjects limit)")
        if not 1 <= list_page_size <= 1000:
            raise ValueError("list_page_size must be between 1 and 1000")
        self.bucket = bucket
        stripped = prefix.strip("/")
        self.prefix = check_key(stripped) + "/" if stripped else ""
        self.presign_expires_s = self._checked_expiry(presign_expires_s)
        self.delete_batch_size = delete_batch_size
        self.list_page_size = list_page_size
        self.transfer = TransferConfig(
            multipart_threshold=multipart_threshold,
            multipart_chunksize=multipart_chunksize,
            max_concurrency=max_concurrency,
        )
        config = Config(
            connect_timeout=timeout_s,
            read_timeout=timeout_s,
            retries={"total_max_attempts": max_attempts, "mode": "standard"},
            signature_version="s3v4",
            # Custom endpoints (MinIO, moto) are reached by path: "bucket.minio" names no host.
            s3={"addressing_style": "path" if endpoint_url or public_endpoint_url else "auto"},
            # boto3 >= 1.36 adds CRC checksums to every upload, which some S3-compatible servers refuse.
            request_checksum_calculation="when_required",
            response_checksum_validation="when_required",
            max_pool_connections=max(10, max_concurrency * 2),
        )
        with self._errors("connect to", None):
            session = boto3.session.Session(
                aws_access_key_id=access_key_id, aws_secret_access_key=secret_access_key, region_name=region
            )
            self._client = session.client("s3", endpoint_url=endpoint_url, config=config)
            self._presign_client = (
                session.client("s3", endpoint_url=public_endpoint_url, config=config)
                if public_endpoint_url
                else self._client
            )

    @classmethod
    def from_settings(cls, settings: Settings) -> S3ArtifactStore:
        if not settings.s3_bucket:
            raise ValueError("STEPFORGE_S3_BUCKET is not set")
        return cls(
            settings.s3_bucket,
            prefix=settings.s3_prefix,
            endpoint_url=settings.s3_endpoint_url,
            public_endpoint_url=settings.s3_public_endpoint_url,
            region=settings.s3_region,
            access_key_id=settings.s3_access_key_id.get_secret_value() if settings.s3_access_key_id else None,
            secret_access_key=(
                settings.s3_secret_access_key.get_secret_value() if settings.s3_secret_access_key else None
            ),
            timeout_s=settings.s3_timeout_s,
            max_attempts=settings.s3_max_attempts,
            presign_expires_s=settings.s3_presign_expires_s,
        )

    def __repr__(self) -> str:
        return f"S3ArtifactStore(s3://{self.bucket}/{self.prefix} at {self.endpoint})"

    @property
    def endpoint(self) -> str:
        client = getattr(self, "_client", None)  # not yet there while the client itself is being made
        return client.meta.endpoint_url if client is not None else "(no client yet)"

    # --- the ArtifactStore protocol ---

    def put_bytes(self, key: str, data: bytes, content_type: str = "application/octet-stream") -> str:
        full = self._full_key(key)
        with self._errors("upload to", full):
            if len(data) >= self.transfer.multipart_threshold:
                self._client.upload_fileobj(
                    io.BytesIO(data), self.bucket, full, ExtraArgs={"ContentType": content_type}, Config=self.transfer
                )
            else:
                self._client.put_object(Bucket=self.bucket, Key=full, Body=data, ContentType=content_type)
        return key

    def put_file(self, key: str, path: Path, content_type: str = "application/octet-stream") -> str:
        full = self._full_key(key)
        if not Path(path).is_file():
            raise FileNotFoundError(f"cannot store {key!r}: no file {path}")
        with self._errors("upload to", full):
            self._client.upload_file(
                str(path), self.bucket, full, ExtraArgs={"ContentType": content_type}, Config=self.transfer
            )
        return key

    def get_bytes(self, key: str) -> bytes:
        full = self._full_key(key)
        with self._errors("download", full):
            response = self._client.get_object(Bucket=self.bucket, Key=full)
            with response["Body"] as body:
                return body.read()

    def exists(self, key: str) -> bool:
        full = self._full_key(key)
        try:
            with self._errors("look up", full):
                self._client.head_object(Bucket=self.bucket, Key=full)
        except ArtifactNotFoundError:
            return False
        return True

    def remove_prefix(self, prefix: str) -> None:
        """Remove every artifact under a folder-like prefix: "OWN-1" and "OWN-1/" both mean the folder
        OWN-1/ (never OWN-10/), as in the local store. Refuses an empty prefix (the whole store)."""
        check_key(prefix, is_prefix=True)
        folder = self.prefix + prefix.rstrip("/") + "/"
        batch: list[dict[str, str]] = []
        with self._errors("remove", folder):
            for page in self._pages(folder):
                for item in page.get("Contents", []):
                    batch.append({"Key": item["Key"]})
                    if len(batch) == self.delete_batch_size:
                        self._delete(batch)
                        batch = []
            if batch:
                self._delete(batch)

    def list(self, prefix: str = "", *, content_types: bool = False) -> list[ArtifactInfo]:
        """Artifacts whose key starts with `prefix` (a plain string prefix), sorted by key.

        A listing carries no content type: with `content_types` each one costs a HEAD request.
        """
        if prefix:
            check_key(prefix, is_prefix=True)
        found = []
        with self._errors("list", self.prefix + prefix):
            for page in self._pages(self.prefix + prefix):
                for item in page.get("Contents", []):
                    content_type = None
                    if content_types:
                        head = self._client.head_object(Bucket=self.bucket, Key=item["Key"])
                        content_type = head.get("ContentType")
                    key = item["Key"][len(self.prefix):]
                    found.append(ArtifactInfo(key=key, size=item["Size"], content_type=content_type))
        return found

    def presigned_url(self, key: str, expires_s: int | None = None) -> str:
        """A URL anyone holding it can GET for `expires_s` seconds (default: the store's setting, at most 7
        days). Signed for the public endpoint when one is set. Signing is local: no request is made, and
        the key's existence is not checked."""
        full = self._full_key(key)
        expires = self._checked_expiry(self.presign_expires_s if expires_s is None else expires_s)
        with self._errors("sign a URL for", full):
            return self._presign_client.generate_presigned_url(
                "get_object", Params={"Bucket": self.bucket, "Key": full}, ExpiresIn=expires
            )

    # --- the bucket ---

    def ensure_bucket(self, *, create: bool) -> None:
        """Fail fast when the bucket is missing or unreachable; create it when `create` allows."""
        try:
            with self._errors("reach", None):
                self._client.head_bucket(Bucket=self.bucket)
            return
        except ArtifactNotFoundError:
            if not create:
                raise ArtifactStoreError(
                    f"S3 bucket {self.bucket!r} does not exist at {self.endpoint}; create it, or allow stepforge "
                    "to (STEPFORGE_S3_CREATE_BUCKET=true)"
                ) from None
        region = self._client.meta.region_name
        # us-east-1 is the one region that refuses an explicit LocationConstraint.
        location = {"CreateBucketConfiguration": {"LocationConstraint": region}} if region != "us-east-1" else {}
        try:
            with self._errors("create", None):
                self._client.create_bucket(Bucket=self.bucket, **location)
        except ArtifactStoreError as exc:
            # Another process created it between our look and our create.
            if "BucketAlreadyOwnedByYou" not in str(exc):
                raise

    # --- helpers ---

    def _full_key(self, key: str) -> str:
        return self.prefix + check_key(key)

    @staticmethod
    def _checked_expiry(expires_s: int) -> int:
        if not 1 <= expires_s <= MAX_PRESIGN_EXPIRES_S:
            raise ValueError(f"presigned URL expiry must be 1 to {MAX_PRESIGN_EXPIRES_S} s, got {expires_s}")
        return int(expires_s)

    def _pages(self, full_prefix: str) -> Iterator[dict]:
        paginator = self._client.get_paginator("list_objects_v2")
        return paginator.paginate(
            Bucket=self.bucket, Prefix=full_prefix, PaginationConfig={"PageSize": self.list_page_size}
        )

    def _delete(self, batch: list[dict[str, str]]) -> None:
        response = self._client.delete_objects(Bucket=self.bucket, Delete={"Objects": batch, "Quiet": True})
        errors = response.get("Errors") or []
        if errors:
            first = errors[0]
            raise ArtifactStoreError(
                f"S3 remove failed for {len(errors)} of {len(batch)} objects in bucket {self.bucket!r}, first "
                f"s3://{self.bucket}/{first.get('Key')}: {first.get('Code')}: {first.get('Message')}"
            )

    @contextmanager
    def _errors(self, action: str, full_key: str | None) -> Iterator[None]:
        """Turn boto3/botocore failures into one ArtifactStoreError naming bucket, key and cause.

        The botocore exception is kept as `.cause` for logs, but not chained, so users see one line.
        """
        try:
            yield
        except ArtifactStoreError:
            raise
        except (BotoCoreError, ClientError, Boto3Error) as exc:
            where = f"s3://{self.bucket}/{full_key}" if full_key is not None else f"bucket {self.bucket!r}"
            kind = ArtifactNotFoundError if _is_not_found(exc) else ArtifactStoreError
            error = kind(f"S3 could not {action} {where} at {self.endpoint}: {_cause(exc)}")
            error.cause = exc  # type: ignore[attr-defined]
            raise error from None


def _is_not_found(exc: Exception) -> bool:
    if not isinstance(exc, ClientError):
        return False
    code = str(exc.response.get("Error", {}).get("Code", ""))
    # Not NoSuchBucket: a missing bucket is a broken setup, not a missing artifact.
    return code in ("404", "NoSuchKey", "NotFound")


def _cause(exc: Exception) -> str:
    if isinstance(exc, ClientError):
        error = exc.response.get("Error", {})
        status = exc.response.get("ResponseMetadata", {}).get("HTTPStatusCode")
        code = error.get("Code") or status
        message = error.get("Message") or ""
        return f"{code} {message}".strip() + (f" (HTTP {status})" if status and str(status) != str(code) else "")
    return f"{type(exc).__name__}: {exc}"
