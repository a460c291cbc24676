"""A job's artifacts: the listing with download URLs, and one artifact's bytes."""

from __future__ import annotations

from urllib.parse import quote

from fastapi import Response

from api import schemas
from api.deps import (
    ApiError,
    CallerDep,
    IdPath,
    ServicesDep,
    not_found,
)
from api.routes.common import ArtifactKey, _media_type, own_job, v1
from shared.artifacts import ArtifactNotFoundError, ArtifactStore, check_key
from shared.store import (
    job_artifacts_prefix,
)


@v1.get("/batches/{batch_id}/jobs/{job_id}/artifacts", response_model=schemas.ArtifactList, tags=["artifacts"],
        summary="A job's artifacts (screenshots, trace, run record, replay, suite files) with download URLs")
def job_artifacts(batch_id: IdPath, job_id: IdPath, caller: CallerDep, services: ServicesDep) -> schemas.ArtifactList:
    with caller.project_id_session(read_only=True) as (project_id, session):
        job = own_job(session, project_id, batch_id, job_id)
    store = services.store()  # the database connection is back in the pool while the store answers
    prefix = job_artifacts_prefix(job)
    listed = [
        schemas.ArtifactView(key=info.key.removeprefix(prefix), size=info.size,
                             url=download_url(store, info.key, f"/v1/batches/{batch_id}/jobs/{job_id}/artifacts/"
                                              + quote(info.key.removeprefix(prefix))))
        for info in store.list(prefix)
    ]
    return schemas.ArtifactList(batch_id=batch_id, job_id=job_id, prefix=prefix, artifacts=listed)


def download_url(store: ArtifactStore, key: str, api_url: str) -> str:
    """The store's presigned URL when it makes http(s) ones (S3), else the API's route: a local store's file://
    URL would show the server's folders and open nothing for the caller."""
    url = store.presigned_url(key)
    return url if url.startswith(("https://", "http://")) else api_url


@v1.get("/batches/{batch_id}/jobs/{job_id}/artifacts/{key:path}", tags=["artifacts"], response_class=Response,
        summary="One artifact's bytes, through the API (for stores without presigned URLs)")
def job_artifact(batch_id: IdPath, job_id: IdPath, key: ArtifactKey, caller: CallerDep,
                 services: ServicesDep) -> Response:
    with caller.project_id_session(read_only=True) as (project_id, session):
        job = own_job(session, project_id, batch_id, job_id)
    try:
        data = services.store().get_bytes(job_artifacts_prefix(job) + check_key(key))
    except ArtifactNotFoundError:
        raise not_found(f"artifact {key!r}") from None
    except ValueError as error:
        raise ApiError(422, f"path parameter key: {error}") from None
    return Response(data, media_type=_media_type(key))
