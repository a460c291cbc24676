"""The dashboard's pages (/ui/): sign-in and sign-out; projects -> batches -> a batch's scenarios; a scenario's steps,
code, screenshot timeline, trace and replay; a regeneration's morning report with its Accept buttons; the downloads.

Pages read through shared/store (counts by the database, lists a page at a time); downloads and acceptance call the
/v1 routes' own functions with the session's project (auth.ProjectCaller), so the dashboard and the API give the
same bytes and decide the same way.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Annotated
from urllib.parse import quote, urlencode

from fastapi import APIRouter, Form, Query, Request, Response
from fastapi.responses import FileResponse, RedirectResponse
from pydantic import ValidationError

from api.changes import triage_entry
from api.deps import ApiError, IdPath, Services, ServicesDep, not_found
from api.routes import artifacts as artifact_routes
from api.routes import batches as batch_routes
from api.routes import jobs as job_routes
from api.routes.common import ArtifactKey, own_batch, own_job
from api.ui import auth
from api.ui.auth import ViewerDep
from api.ui.render import STATIC, code, code_css, page
from shared.artifacts import ArtifactNotFoundError, ArtifactStore
from shared.models import JOB_STATES, Batch
from shared.models import Scenario as ScenarioRow
from shared.records import RunRecord, locator_text
from shared.store import (
    ATTENTION_CLASSES,
    batch_counts,
    batch_page,
    batches_counts,
    close_ui_session,
    deliveries_of,
    events_of_batch,
    hash_key,
    job_artifacts_prefix,
    job_run_record_key,
    job_page,
    morning_report as read_morning_report,
    open_ui_session,
    project_by_hash,
    projects_in,
    scenario_from_row,
    scenario_titles,
)
from shared.triage import CANDIDATE_FOLDER, TRIAGE_ORDER

router = APIRouter(prefix="/ui", include_in_schema=False)
BATCHES_PER_PAGE = 25
SCENARIOS_PER_PAGE = 50
DOWNLOADS = {"suite.zip": batch_routes.batch_suite, "junit.xml": batch_routes.batch_junit,
             "cucumber.json": batch_routes.batch_cucumber}
SUITE_CODE = re.compile(r"^suite/features/(?:[^/]+\.feature|step_definitions/[^/]+\.js)$")  # not the support code
CANDIDATE = CANDIDATE_FOLDER
RUN_RECORD = re.compile(r"^[^/]+/attempt-(?P<attempt>\d+)/run\.json$")  # a generation attempt's, not a candidate's


# --- signing in and out -------------------------------------------------------------------------------------------


@router.get("/")
def home(request: Request, services: ServicesDep) -> Response:
    viewer = auth.optional_viewer(request, services)
    return RedirectResponse("/ui/projects" if viewer else "/ui/sign-in", status_code=303)


@router.get("/sign-in")
def sign_in_form(request: Request, services: ServicesDep, next: Annotated[str | None, Query()] = None) -> Response:
    return sign_in_page(request, services, auth.safe_back_to(next))


def sign_in_page(request: Request, services: Services, back_to: str, error: str | None = None,
                 status_code: int = 200) -> Response:
    token = auth.sign_in_token(request)
    response = page(request, "sign_in.html", status_code, csrf=token, back_to=back_to, error=error,
                    viewer=auth.optional_viewer(request, services))
    auth.set_sign_in_cookie(response, request, services, token)
    return response


@router.post("/sign-in")
def sign_in(request: Request, services: ServicesDep, api_key: Annotated[str, Form(max_length=200)] = "",
            csrf: Annotated[str, Form(max_length=200)] = "", next: Annotated[str, Form(max_length=2000)] = "/ui/"
            ) -> Response:
    auth.check_sign_in_token(request, csrf)
    back_to = auth.safe_back_to(next)
    key = api_key.strip()
    if not key:
        return sign_in_page(request, services, back_to, "Enter the project's API key.", 422)
    with services.session() as session:
        project = project_by_hash(session, hash_key(key))
        if project is None:
            return sign_in_page(request, services, back_to, "That API key opens no project. Check it and try again.",
                                401)
        _row, token = open_ui_session(session, project.id, hours=services.settings.ui_session_hours,
                                     token=request.cookies.get(auth.SESSION_COOKIE))
    response = RedirectResponse(back_to if back_to != "/ui/" else f"/ui/projects/{project.id}", status_code=303)
    auth.set_session_cookie(response, request, services, token)
    return response


@router.post("/sign-out")
def sign_out(viewer: ViewerDep, services: ServicesDep, csrf: Annotated[str, Form(max_length=200)] = "") -> Response:
    viewer.check_csrf(csrf)
    with services.session() as session:
        close_ui_session(session, viewer.token)
    response = RedirectResponse("/ui/sign-in", status_code=303)
    auth.clear_session_cookie(response)
    return response


# --- projects and batches -----------------------------------------------------------------------------------------


@router.get("/projects")
def projects(request: Request, viewer: ViewerDep, services: ServicesDep) -> Response:
    with services.session(read_only=True) as session:
        rows = projects_in(session, list(viewer.project_ids))
    return page(request, "projects.html", viewer=viewer, projects=rows)


@router.get("/projects/{project_id}")
def project(request: Request, project_id: IdPath, viewer: ViewerDep, services: ServicesDep,
            before: Annotated[int | None, Query(ge=1, le=2**31 - 1)] = None) -> Response:
    caller = viewer.caller(services, project_id)
    with caller.project_session(read_only=True) as (found, session):
        batches, more = batch_page(session, found.id, before=before, limit=BATCHES_PER_PAGE)
        counts = batches_counts(session, [batch.id for batch in batches])
    older = f"/ui/projects/{project_id}?before={batches[-1].id}" if more else None
    return page(request, "project.html", viewer=viewer, project=found, batches=batches, counts=counts, older=older,
                triage_order=TRIAGE_ORDER)


@dataclass
class BatchView:
    batch: Batch
    counts: object
    base: str  # the batch's dashboard URL


def batch_view(session, project_id: int, batch_id: int) -> BatchView:
    batch = own_batch(session, project_id, batch_id)
    return BatchView(batch=batch, counts=batch_counts(session, batch.id),
                     base=f"/ui/projects/{project_id}/batches/{batch.id}")


@router.get("/projects/{project_id}/batches/{batch_id}")
def batch(request: Request, project_id: IdPath, batch_id: IdPath, viewer: ViewerDep, services: ServicesDep,
          after: Annotated[int | None, Query(ge=1, le=2**31 - 1)] = None,
          state: Annotated[str | None, Query(max_length=30)] = None,
          triage: Annotated[str | None, Query(max_length=30)] = None) -> Response:
    state, triage = chosen("state", state, JOB_STATES), chosen("triage", triage, TRIAGE_ORDER)
    caller = viewer.caller(services, project_id)
    with caller.project_session(read_only=True) as (found, session):
        view = batch_view(session, found.id, batch_id)
        jobs, more = job_page(session, batch_id, after=after, limit=SCENARIOS_PER_PAGE, state=state, triage=triage)
        titles = scenario_titles(session, [job.id for job in jobs])
        events = [(event, deliveries_of(session, event.id)) for event in events_of_batch(session, batch_id)]
    filters = {name: value for name, value in (("state", state), ("triage", triage)) if value}
    more_url = f"{view.base}?{urlencode({**filters, 'after': jobs[-1].id})}" if more else None
    return page(request, "batch.html", viewer=viewer, project=found, view=view, jobs=jobs, titles=titles, more=more_url,
                filters=filters, events=events, job_states=JOB_STATES, triage_order=TRIAGE_ORDER,
                first_page=f"{view.base}?{urlencode(filters)}" if after else None)


def chosen(field: str, value: str | None, allowed: tuple[str, ...]) -> str | None:
    """A filter of the batch page: one of `allowed`, or none (the form's "any" sends it empty)."""
    if not value:
        return None
    if value not in allowed:
        raise ApiError(422, f"query parameter {field}: {value!r} is none of {', '.join(allowed)}")
    return value


@router.get("/projects/{project_id}/batches/{batch_id}/progress")
def batch_progress(request: Request, project_id: IdPath, batch_id: IdPath, viewer: ViewerDep,
                   services: ServicesDep) -> Response:
    """The batch's counts alone: what the batch page fetches every few seconds while the batch runs."""
    caller = viewer.caller(services, project_id)
    with caller.project_session(read_only=True) as (found, session):
        view = batch_view(session, found.id, batch_id)
    return page(request, "_progress.html", view=view, job_states=JOB_STATES, triage_order=TRIAGE_ORDER)


@router.get("/projects/{project_id}/batches/{batch_id}/report")
def morning_report(request: Request, project_id: IdPath, batch_id: IdPath, viewer: ViewerDep,
                   services: ServicesDep) -> Response:
    """What a regeneration found, the classes a person must read first, each scenario with what it found; the
    classes that need nothing (passed, generated) counted, their scenarios on the batch page, a page at a time."""
    caller = viewer.caller(services, project_id)
    with caller.project_session(read_only=True) as (found, session):
        view = batch_view(session, found.id, batch_id)
        report = read_morning_report(session, view.batch)
    link = lambda job, key: artifact_url(view.base, job.id, key)  # noqa: E731
    entries = [triage_entry(job, link, lambda job: f"{view.base}/scenarios/{job.id}/accept")
               for job in report.attention]
    store = services.store()
    diffs = {job.id: code(read_text(store, job_artifacts_prefix(job) + job.triage_detail["candidate"]["diff"]),
                          ".diff") for job in report.attention
             if ((job.triage_detail or {}).get("candidate") or {}).get("diff")}
    groups = {name: [entry for entry in entries if entry["triage"] == name] for name in ATTENTION_CLASSES}
    return page(request, "report.html", viewer=viewer, project=found, view=view, report=report, diffs=diffs,
                groups={name: group for name, group in groups.items() if group},
                counted=[name for name in TRIAGE_ORDER if name not in ATTENTION_CLASSES and name in report.cost])


def read_text(store: ArtifactStore, key: str) -> str:
    try:
        return store.get_bytes(key).decode("utf-8", "replace")
    except ArtifactNotFoundError:
        return ""


# --- a scenario ---------------------------------------------------------------------------------------------------


@dataclass
class TimelineEntry:
    index: int
    step: int | None  # 1-based scenario step; None: the scenario's start (opening its page)
    kind: str
    description: str
    target: str | None
    locator: str | None
    ok: bool
    error: str | None
    screenshot: str | None  # the dashboard URL of the picture after the operation


@router.get("/projects/{project_id}/batches/{batch_id}/scenarios/{job_id}")
def scenario(request: Request, project_id: IdPath, batch_id: IdPath, job_id: IdPath, viewer: ViewerDep,
             services: ServicesDep) -> Response:
    caller = viewer.caller(services, project_id)
    with caller.project_session(read_only=True) as (found, session):
        view = batch_view(session, found.id, batch_id)
        job = own_job(session, found.id, batch_id, job_id)
        row = session.get(ScenarioRow, job.scenario_id)
        definition = scenario_from_row(row) if row is not None else None
    store = services.store()
    prefix = job_artifacts_prefix(job)
    keys = sorted(info.key.removeprefix(prefix) for info in store.list(prefix))
    kept = set(keys)
    timelines = [timeline for timeline in (
        read_timeline(store, view.base, job, prefix, kept, own_run_record(job, prefix, keys), "Timeline"),
        read_timeline(store, view.base, job, prefix, kept, candidate_run_record(job, keys),
                      "Timeline of the script generated afresh"),
    ) if timeline is not None]
    files = [(key.removeprefix("suite/"), code(read_text(store, prefix + key), key))
             for key in keys if SUITE_CODE.match(key)]
    traces = [key for key in keys if key.endswith("trace.zip")]
    return page(request, "scenario.html", viewer=viewer, project=found, view=view, job=job, definition=definition,
                timelines=timelines, files=files, traces=traces,
                artifact=lambda key: artifact_url(view.base, job.id, key), artifacts=keys)


@dataclass
class Timeline:
    title: str
    record: RunRecord
    entries: list[TimelineEntry]
    pictures: bool = True  # False: the run that recorded it keeps them (a verified script, replayed)


def own_run_record(job, prefix: str, keys: list[str]) -> str | None:
    """The key (below the job's folder) of the run record its verdict comes from: the verified script's when the job
    passed or its regenerated script was accepted (store.job_run_record_key), else its last attempt's."""
    verified = job_run_record_key(job).removeprefix(prefix)
    return verified if verified in keys else last_attempt(keys)


def candidate_run_record(job, keys: list[str]) -> str | None:
    """The run record of an app_changed job's script generated afresh (the one that passed, else its last attempt,
    which says why it failed too), while nobody has accepted it."""
    candidate = (job.triage_detail or {}).get("candidate")
    if not candidate or job.accepted_at is not None:
        return None
    return candidate.get("run_record") or last_attempt(keys, CANDIDATE)


def last_attempt(keys: list[str], below: str = "") -> str | None:
    """The run record of the last generation attempt among `keys` (below `below`: a candidate's, "candidate/")."""
    found = [(int(match["attempt"]), key) for key in keys
             if key.startswith(below) and (match := RUN_RECORD.match(key.removeprefix(below)))]
    return max(found)[1] if found else None


def read_timeline(store: ArtifactStore, base: str, job, prefix: str, kept: set[str], key: str | None, title: str
                  ) -> Timeline | None:
    """Each operation of the run record at `key` with its target, locator and the picture of the page after it, when
    the job keeps that picture (`kept`: its artifacts); a verified script replayed by a regeneration carries its run
    record, whose pictures stay with the job that generated it."""
    if key is None:
        return None
    try:
        record = RunRecord.model_validate_json(store.get_bytes(prefix + key))
    except (ArtifactNotFoundError, ValidationError):
        return None
    folder = key.rsplit("/", 1)[0] + "/"
    entries = [TimelineEntry(
        index=op.index, step=op.step_index + 1 if op.step_index >= 0 else None, kind=op.kind,
        description=op.description, target=(op.said or (op.target.text if op.target else None)), ok=op.ok,
        error=op.error, locator=locator_text(op.locator) if op.locator else None,
        screenshot=artifact_url(base, job.id, folder + op.screenshot)
        if op.screenshot and folder + op.screenshot in kept else None,
    ) for op in record.operations if not op.redundant]
    return Timeline(title, record, entries, pictures=any(entry.screenshot for entry in entries))


def artifact_url(base: str, job_id: int, key: str) -> str:
    return f"{base}/scenarios/{job_id}/artifacts/{quote(key)}"


@router.post("/projects/{project_id}/batches/{batch_id}/scenarios/{job_id}/accept")
def accept(project_id: IdPath, batch_id: IdPath, job_id: IdPath, viewer: ViewerDep, services: ServicesDep,
           csrf: Annotated[str, Form(max_length=200)] = "") -> Response:
    """The report's Accept button: the /v1 accept route, for the session's project; back to the report."""
    viewer.check_csrf(csrf)
    caller = viewer.caller(services, project_id)
    job_routes.accept_script(batch_id, job_id, caller, services)
    return RedirectResponse(f"/ui/projects/{project_id}/batches/{batch_id}/report#job-{job_id}", status_code=303)


# --- downloads ----------------------------------------------------------------------------------------------------


@router.get("/projects/{project_id}/batches/{batch_id}/downloads/{name}")
def download(project_id: IdPath, batch_id: IdPath, name: str, viewer: ViewerDep, services: ServicesDep) -> Response:
    route = DOWNLOADS.get(name)
    if route is None:
        raise not_found(f"download {name!r} (there are {', '.join(DOWNLOADS)})")
    return route(batch_id, viewer.caller(services, project_id), services)


@router.get("/projects/{project_id}/batches/{batch_id}/scenarios/{job_id}/artifacts/{key:path}")
def artifact(project_id: IdPath, batch_id: IdPath, job_id: IdPath, key: ArtifactKey, viewer: ViewerDep,
             services: ServicesDep) -> Response:
    response = artifact_routes.job_artifact(batch_id, job_id, key, viewer.caller(services, project_id), services)
    if key.endswith((".js", ".mjs", ".html", ".htm", ".svg")):  # shown as text, never run in the dashboard's origin
        response.headers["Content-Type"] = "text/plain; charset=utf-8"
    response.headers["X-Content-Type-Options"] = "nosniff"
    response.headers["Content-Security-Policy"] = "default-src 'none'; img-src 'self'; sandbox"
    if key.endswith(".zip"):
        response.headers["Content-Disposition"] = f'attachment; filename="{key.rsplit("/", 1)[-1]}"'
    return response


@router.get("/static/code.css")
def static_code_css() -> Response:
    return Response(code_css(), media_type="text/css", headers={"Cache-Control": "max-age=3600"})


@router.get("/static/{name}")
def static(name: str) -> Response:
    path = STATIC / name
    if "/" in name or name.startswith(".") or not path.is_file():
        raise not_found(f"file {name!r}")
    return FileResponse(path, headers={"Cache-Control": "max-age=3600"})


def error_page(request: Request, status: int, detail: str) -> Response:
    """An error on a dashboard page, as a page (the API answers JSON)."""
    return page(request, "error.html", status_code=status, viewer=None, status=status, detail=detail)
