"""Batches: submit, regenerate, progress, the suite zip, what changed."""

from __future__ import annotations

import uuid
from collections.abc import Callable
from typing import Annotated, Literal

from fastapi import BackgroundTasks, Depends, File, Form, Header, Response, UploadFile
from sqlmodel import Session

from api import schemas
from api.changes import batch_report
from api.deps import (
    ApiError,
    CallerDep,
    IdPath,
    Services,
    ServicesDep,
    not_found,
)
from api.routes.common import (
    IDEMPOTENCY_KEY_PATTERN,
    IdempotencyKey,
    accepted,
    job_view,
    links,
    own_batch,
    usage_total,
    v1,
)
from shared.importers import FORMATS, ImportFormatError, ImportReport, format_of, import_cases
from shared.job_queue import send_batch as send_batch_jobs
from shared.logging import log
from shared.models import JOB_STATES, Batch, Job, Project
from shared.results import CaseResult, cucumber_json, junit_xml
from shared.models import Scenario as ScenarioRow
from shared.store import (
    Conflict,
    batch_by_key,
    batch_prefix,
    batch_results,
    create_batch,
    latest_scenario,
    latest_scenarios,
    read_batch_progress,
    request_hash,
    upsert_scenarios,
)


@v1.post("/batches", response_model=schemas.BatchAccepted, status_code=202, tags=["batches"],
         summary="Submit scenarios; answers at once with the batch id (the same Idempotency-Key: the same batch)",
         responses={409: {"model": schemas.ErrorBody, "description": "Two items name one scenario, or the "
                                                                     "Idempotency-Key was used for another request"}})
def submit_batch(body: schemas.BatchCreate, caller: CallerDep, services: ServicesDep,
                 response: Response, idempotency_key: IdempotencyKey, background: BackgroundTasks
                 ) -> schemas.BatchAccepted:
    with caller.project_session() as (project, session):
        report = imported_cases(body.source) if body.source is not None else None
        items = body.scenarios if report is None else [
            schemas.InlineScenario.model_validate(scenario.model_dump(exclude_none=True, exclude_defaults=True))
            for scenario in report.scenario_file.scenarios]
        limit = services.settings.max_batch_scenarios
        if len(items) > limit:
            if report is not None:
                raise ApiError(422, f"source: the export holds {len(items)} cases, over the limit of {limit} per "
                                    "batch; export a section or folder at a time")
            raise ApiError(422, f"scenarios: {len(items)} scenarios exceed the limit of {limit} per batch")
        fingerprint = request_hash(body.model_dump(mode="json"))
        existing = batch_by_key(session, project.id, idempotency_key)
        if existing is not None:
            if existing.request_hash != fingerprint:
                raise Conflict(f"Idempotency-Key {idempotency_key!r} was used for batch {existing.id} with another request")
            return accepted(existing, response, replayed=True, imported=report)
        base_url = services.check_url("base_url", body.base_url) if body.base_url else project.base_url
        services.check_brain(body.brain)
        services.check_step_writer("step_writer", body.step_writer)
        rows = scenario_rows(session, project, items)
        batch, created = create_batch(session, project, idempotency_key=idempotency_key, fingerprint=fingerprint,
                                      scenarios=rows, base_url=base_url, brain=body.brain or project.default_brain,
                                      grounding=body.grounding or project.default_grounding, feature=body.feature,
                                      suite_format=body.format, step_writer=body.step_writer)
        if created:
            background.add_task(send_batch, services, batch.id)
        return accepted(batch, response, replayed=not created, imported=report)


ExportFormat = Literal["auto", "testrail", "xray", "zephyr", "testrail-csv", "testrail-json", "xray-json", "xray-csv",
                       "zephyr-json"]


def authenticated(caller: CallerDep) -> None:
    """The key checked before the request's body is read: a request without one is a 401 whatever it sends."""
    with caller.project_id_session(read_only=True):
        pass


@v1.post("/imports", dependencies=[Depends(authenticated)], response_model=schemas.BatchAccepted, status_code=202,
         tags=["batches"],
         summary="Submit a test-management export as a multipart upload (file=the export); its cases become the "
                 "batch's scenarios, as with POST /v1/batches and a source (whose body also takes a batch's choices)",
         responses={409: {"model": schemas.ErrorBody, "description": "Two cases name one scenario, or the "
                                                                     "Idempotency-Key was used for another request"}})
def submit_export(caller: CallerDep, services: ServicesDep, response: Response, idempotency_key: IdempotencyKey,
                  background: BackgroundTasks,
                  file: Annotated[UploadFile, File(description="The export: CSV or JSON, as the system wrote it")],
                  format: Annotated[ExportFormat, Form(description="The system (testrail, xray, zephyr) or a format "
                                                                   "of ImportSource; auto: told by the file")] = "auto",
                  ) -> schemas.BatchAccepted:
    data = file.file.read()
    try:
        content = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data[:exc.start].count(b"\n") + 1
        raise ApiError(422, f"file: line {line}: not UTF-8 text (byte {exc.start}); export it as UTF-8") from None
    if not content.strip():
        raise ApiError(422, "file: empty; upload the export of the test cases")
    try:
        fmt = format if format in FORMATS else format_of(None if format == "auto" else format, "file", content)
    except ImportFormatError as exc:
        raise ApiError(422, str(exc)) from None
    if len(content) > schemas.IMPORT_MAX:
        raise ApiError(422, f"file: longer than {schemas.IMPORT_MAX} characters; export a section or folder at a time")
    body = schemas.BatchCreate(source=schemas.ImportSource(format=fmt, content=content))
    return submit_batch(body, caller, services, response, idempotency_key, background)


def imported_cases(source: schemas.ImportSource) -> ImportReport:
    """The export's cases; 422 naming the line or the case and field when it cannot be read."""
    try:
        return import_cases(source.content, source.format, source="source.content")
    except ImportFormatError as exc:
        raise ApiError(422, str(exc)) from None


def scenario_rows(session: Session, project: Project, items: list) -> list[ScenarioRow]:
    """The stored scenario version of each item: inline ones upserted (all at once), references looked up."""
    inline = [item for item in items if not isinstance(item, schemas.ScenarioRef)]
    upserted = iter(upsert_scenarios(session, project.id, inline))
    rows, seen = [], set()
    for i, item in enumerate(items):
        if isinstance(item, schemas.ScenarioRef):
            row = latest_scenario(session, project.id, item.external_id, item.version)
            if row is None:
                version = f" version {item.version}" if item.version else ""
                raise ApiError(404, f"scenarios[{i}].external_id: no scenario {item.external_id!r}{version} "
                                    "in this project")
            latest = row if item.version is None else latest_scenario(session, project.id, item.external_id)
            if latest is not None and latest.deleted_at is not None:
                raise ApiError(404, f"scenarios[{i}].external_id: scenario {item.external_id!r} was deleted "
                                    "(PUT it again to use it)")
        else:
            row = next(upserted)
        if row.external_id in seen:
            raise ApiError(409, f"scenarios[{i}]: scenario {row.external_id!r} appears twice in the batch")
        seen.add(row.external_id)
        rows.append(row)
    return rows


@v1.post("/projects/me/regenerate", response_model=schemas.BatchAccepted, status_code=202, tags=["batches"],
         summary="Regenerate the project's whole suite (every scenario's latest version) as a new batch",
         responses={409: {"model": schemas.ErrorBody, "description": "The project has no scenarios yet"}})
def regenerate(caller: CallerDep, services: ServicesDep, response: Response,
               background: BackgroundTasks, body: schemas.RegenerateRequest | None = None,
               idempotency_key: Annotated[str | None, Header(alias="Idempotency-Key", min_length=1, max_length=200,
                                                             pattern=IDEMPOTENCY_KEY_PATTERN)] = None
               ) -> schemas.BatchAccepted:
    with caller.project_session() as (project, session):
        body = body or schemas.RegenerateRequest()
        scenarios = latest_scenarios(session, project.id)
        if not scenarios:
            raise ApiError(409, "project: has no scenarios yet; store some with PUT /v1/scenarios/{external_id}")
        base_url = services.check_url("base_url", body.base_url) if body.base_url else project.base_url
        services.check_brain(body.brain)
        services.check_step_writer("step_writer", body.step_writer)
        batch, created = create_batch(
            session, project, idempotency_key=idempotency_key or f"regenerate-{uuid.uuid4().hex}",
            fingerprint=request_hash({"regenerate": body.model_dump(mode="json")}), scenarios=scenarios,
            base_url=base_url, brain=body.brain or project.default_brain,
            grounding=body.grounding or project.default_grounding, kind="regenerate", feature=body.feature,
            suite_format=body.format, step_writer=body.step_writer,
        )
        if created:
            background.add_task(send_batch, services, batch.id)
        return accepted(batch, response, replayed=not created)


@v1.get("/batches/{batch_id}", response_model=schemas.BatchProgress, tags=["batches"],
        summary="Progress: jobs per state, each job's verdict, timings and model usage")
def batch_progress(batch_id: IdPath, caller: CallerDep) -> schemas.BatchProgress:
    with caller.project_id_session(read_only=True) as (project_id, session):
        found = read_batch_progress(session, project_id, batch_id)
    if found is None:
        raise not_found(f"batch {batch_id}")
    batch, jobs = found
    counts = dict.fromkeys(JOB_STATES, 0)
    for job in jobs:
        counts[job.state] = counts.get(job.state, 0) + 1
    return schemas.BatchProgress(**batch, counts=counts, model_usage=usage_total(jobs),
                                 jobs=[job_view(job) for job in jobs], links=links(batch["id"]))


@v1.get("/batches/{batch_id}/suite.zip", tags=["batches"], response_class=Response,
        responses={200: {"content": {"application/zip": {}}},
                   409: {"model": schemas.ErrorBody, "description": "The batch or its suite is not finished yet"}},
        summary="The batch's suite, built and replayed as a whole: unzip, cd suite, npm install && npx cucumber-js")
def batch_suite(batch_id: IdPath, caller: CallerDep, services: ServicesDep) -> Response:
    with caller.project_id_session(read_only=True) as (project_id, session):
        batch = own_batch(session, project_id, batch_id)
    if batch.state != "finished":
        raise ApiError(409, f"batch {batch_id} is {batch.state}; its suite is ready when it has finished")
    if batch.suite_state == "empty":
        raise not_found(f"suite of batch {batch_id} (no scenario passed)")
    if batch.suite_state == "error":
        raise not_found(f"suite of batch {batch_id} (it could not be built; the workers' log says why)")
    if batch.suite_state != "ready":
        raise ApiError(409, f"the suite of batch {batch_id} is being built and replayed; ask again in a moment",
                       headers={"Retry-After": "5"})
    data = services.store().get_bytes(batch_prefix(batch.project_id, batch.id) + "suite.zip")
    return Response(data, media_type="application/zip",
                    headers={"Content-Disposition": f'attachment; filename="batch-{batch_id}-suite.zip"'})


RESULTS_RESPONSES = {409: {"model": schemas.ErrorBody, "description": "The batch has not finished yet"}}


@v1.get("/batches/{batch_id}/junit.xml", tags=["batches"], response_class=Response,
        responses={200: {"content": {"application/xml": {}}}, **RESULTS_RESPONSES},
        summary="The batch's verdicts as JUnit XML: one test case per scenario (property test_key, and test_id for "
                "a TestRail case), the failed step, the reason and the failure's screenshot")
def batch_junit(batch_id: IdPath, caller: CallerDep, services: ServicesDep) -> Response:
    project, batch, cases = finished_results(batch_id, caller, services)
    return attachment(junit_xml(cases, name=project.name, started_at=batch.started_at or batch.created_at),
                      "application/xml", f"batch-{batch_id}-junit.xml")


@v1.get("/batches/{batch_id}/cucumber.json", tags=["batches"], response_class=Response,
        responses={200: {"content": {"application/json": {}}}, **RESULTS_RESPONSES},
        summary="The batch's verdicts as Cucumber JSON (Xray imports it): one scenario per case, tagged with its key")
def batch_cucumber(batch_id: IdPath, caller: CallerDep, services: ServicesDep) -> Response:
    _, _, cases = finished_results(batch_id, caller, services)
    return attachment(cucumber_json(cases), "application/json", f"batch-{batch_id}-cucumber.json")


def finished_results(batch_id: int, caller, services: Services) -> tuple[Project, Batch, list[CaseResult]]:
    with caller.project_session(read_only=True) as (project, session):
        batch = own_batch(session, project.id, batch_id)
        if batch.state != "finished":
            raise ApiError(409, f"batch {batch_id} is {batch.state}; its results are ready when it has finished",
                           headers={"Retry-After": "5"})
        return project, batch, batch_results(session, services.store(), batch, artifact_link(batch_id))


def artifact_link(batch_id: int) -> Callable[[Job, str], str]:
    return lambda job, key: f"/v1/batches/{batch_id}/jobs/{job.id}/artifacts/{key}"


def attachment(text: str, media_type: str, filename: str) -> Response:
    return Response(text, media_type=media_type, headers={"Content-Disposition": f'attachment; filename="{filename}"'})


@v1.get("/batches/{batch_id}/changes", response_model=schemas.Changes, tags=["batches"],
        summary="What changed: verdicts, step locators, a regeneration's triage, scenarios added and removed")
def batch_changes(batch_id: IdPath, caller: CallerDep) -> schemas.Changes:
    with caller.project_id_session(read_only=True) as (project_id, session):
        batch = own_batch(session, project_id, batch_id)
        report = batch_report(session, batch, link=artifact_link(batch.id),
                              accept=lambda job: f"/v1/batches/{batch.id}/jobs/{job.id}/accept")
        return schemas.Changes(batch_id=batch.id, previous_batch_id=batch.previous_batch_id, **report)


def send_batch(services: Services, batch_id: int) -> None:
    """Send the batch's jobs once the 202 is on its way (a background task of the request): after the commit, so no
    worker looks for a row that is not there yet, within STEPFORGE_BATCH_SEND_BUDGET_S (shared/job_queue.py).
    Whatever the broker did not take, or a process that died before sending, is left to beat's sweep (jobs never
    sent go after 30 s)."""
    with services.session() as session:
        budget_s = services.settings.batch_send_budget_s
        sent, total = send_batch_jobs(services.celery, session, batch_id, budget_s=budget_s,
                                      settings=services.settings)
    log.info("batch.sent", batch_id=batch_id, jobs=total, sent=sent, left_for_the_sweep=total - sent)
