"""A job of a regeneration: accepting an app_changed scenario's regenerated script."""

from __future__ import annotations

from api import schemas
from api.deps import ApiError, CallerDep, IdPath, ServicesDep, not_found
from api.routes.common import v1
from shared.artifacts import ArtifactNotFoundError
from shared.models import Batch
from shared.store import Conflict, SuiteBusy, accept_candidate, job_artifacts_prefix


@v1.post("/batches/{batch_id}/jobs/{job_id}/accept", response_model=schemas.AcceptedScript, tags=["batches"],
         summary="Accept an app_changed scenario's regenerated script: it becomes the verified one, the batch's "
                 "suite is built again with it",
         responses={409: {"model": schemas.ErrorBody, "description": "Nothing to accept: the job is not "
                                                                     "app_changed, its regenerated script failed "
                                                                     "too, the scenario has a newer version, or the "
                                                                     "batch's suite is being built"}})
def accept_script(batch_id: IdPath, job_id: IdPath, caller: CallerDep, services: ServicesDep
                  ) -> schemas.AcceptedScript:
    with caller.project_id_session(read_only=True) as (project_id, _session):
        pass  # the key checked; the acceptance is one transaction of its own, the batch's row locked
    try:
        found = accept_candidate(services.engine, project_id, batch_id, job_id)
    except SuiteBusy as error:
        raise ApiError(409, str(error), headers={"Retry-After": "5"}) from None
    except Conflict as error:
        raise ApiError(409, str(error)) from None
    if found is None:
        raise not_found(f"job {job_id} of batch {batch_id}")
    job, accepted_now = found
    if accepted_now:
        with services.session() as session:
            services.send_suites(session, [batch_id])  # what is not sent, beat's sweep sends
    with services.session(read_only=True) as session:
        batch_suite_state = session.get(Batch, batch_id).suite_state
    candidate = (job.triage_detail or {}).get("candidate") or {}
    try:
        diff = services.store().get_bytes(job_artifacts_prefix(job) + candidate["diff"]).decode()
    except (ArtifactNotFoundError, KeyError):
        diff = ""
    return schemas.AcceptedScript(batch_id=batch_id, job_id=job.id, external_id=job.external_id,
                                  accepted_at=job.accepted_at, diff=diff, suite_state=batch_suite_state)
