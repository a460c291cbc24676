"""What the dashboard reads: a project's batches a page at a time, a batch's counts (by state, verdict and triage
class) counted by the database, and its jobs a page at a time. Each is one or two indexed statements, whatever the
batch's size: a page of a 1,000-scenario batch reads its 50 rows, not the batch."""

from __future__ import annotations

from dataclasses import dataclass, field

from sqlalchemy import Row, case, exists, func
from sqlalchemy import select as sa_select
from sqlalchemy.orm import aliased
from sqlmodel import Session, col, select

from shared.models import Batch, Job, Project
from shared.models import Scenario as ScenarioRow
from shared.scenarios import natural_key
from shared.store.batches import JOB_PROGRESS_COLUMNS, REPLAYED_CLASSES
from shared.store.scenarios import deleted_scenarios

# The triage classes a person reads one by one in the morning report; the others are counted and listed by page.
ATTENTION_CLASSES = ("app_changed", "broken_environment", "drift", "flake")


@dataclass
class BatchCounts:
    states: dict[str, int] = field(default_factory=dict)  # job state -> jobs
    triage: dict[str, int] = field(default_factory=dict)  # triage class -> jobs (regenerations)
    failures: dict[str, int] = field(default_factory=dict)  # failure kind -> failed jobs
    total: int = 0
    seconds: float = 0.0
    model_calls: int = 0
    cost_usd: float = 0.0


def projects_in(session: Session, project_ids: list[int]) -> list[tuple[Project, Batch | None, int]]:
    """Each project with its latest batch and how many batches it has, in the order of ids."""
    if not project_ids:
        return []
    projects = session.exec(select(Project).where(col(Project.id).in_(project_ids)).order_by(col(Project.id))).all()
    counted = dict(session.exec(select(Batch.project_id, func.count()).where(col(Batch.project_id).in_(project_ids))
                                .group_by(Batch.project_id)).all())
    latest_ids = session.exec(select(func.max(Batch.id)).where(col(Batch.project_id).in_(project_ids))
                              .group_by(Batch.project_id)).all()
    latest = {batch.project_id: batch for batch in
              session.exec(select(Batch).where(col(Batch.id).in_(list(latest_ids)))).all()} if latest_ids else {}
    return [(project, latest.get(project.id), int(counted.get(project.id, 0))) for project in projects]


def batch_page(session: Session, project_id: int, *, before: int | None, limit: int) -> tuple[list[Batch], bool]:
    """The project's batches, newest first, `limit` of them from below `before` (an id); and whether more follow."""
    query = select(Batch).where(Batch.project_id == project_id)
    if before is not None:
        query = query.where(col(Batch.id) < before)
    rows = list(session.exec(query.order_by(col(Batch.id).desc()).limit(limit + 1)).all())
    return rows[:limit], len(rows) > limit


def batch_counts(session: Session, batch_id: int) -> BatchCounts:
    """The batch's jobs counted by state, by triage class and by failure kind, with their seconds, model calls and
    cost summed (batches_counts for one batch)."""
    return batches_counts(session, [batch_id])[batch_id]


def batches_counts(session: Session, batch_ids: list[int]) -> dict[int, BatchCounts]:
    """batch_counts of each of these batches: one statement grouped by batch and the three columns."""
    seconds = func.sum(_number(Job.timings, "seconds"))
    calls = func.sum(_number(Job.model_usage, "total", "calls"))
    cost = func.sum(_number(Job.model_usage, "total", "cost"))
    found = {batch_id: BatchCounts() for batch_id in batch_ids}
    if not batch_ids:
        return found
    rows = session.execute(sa_select(Job.batch_id, Job.state, Job.triage, Job.failure_kind, func.count(), seconds,
                                     calls, cost)
                           .where(col(Job.batch_id).in_(batch_ids))
                           .group_by(Job.batch_id, Job.state, Job.triage, Job.failure_kind)).all()
    for batch_id, state, triage, kind, jobs, spent, model_calls, dollars in rows:
        counts = found[batch_id]
        counts.states[state] = counts.states.get(state, 0) + jobs
        if triage:
            counts.triage[triage] = counts.triage.get(triage, 0) + jobs
        if state == "failed" and kind:
            counts.failures[kind] = counts.failures.get(kind, 0) + jobs
        counts.total += jobs
        counts.seconds += float(spent or 0)
        counts.model_calls += int(model_calls or 0)
        counts.cost_usd += float(dollars or 0)
    return found


def _number(column, *path: str):
    """A number inside a JSON column, on PostgreSQL (JSONB) and SQLite alike; NULL where there is none."""
    return func.coalesce(column[path if len(path) > 1 else path[0]].as_float(), 0.0)


def job_page(session: Session, batch_id: int, *, after: int | None, limit: int, state: str | None = None,
             triage: str | None = None) -> tuple[list[Row], bool]:
    """The batch's jobs in id order (rows of JOB_PROGRESS_COLUMNS), `limit` of them after the job `after`, those of
    one state or triage class when asked; and whether more follow."""
    query = sa_select(*JOB_PROGRESS_COLUMNS).where(Job.batch_id == batch_id)
    if after is not None:
        query = query.where(Job.id > after)
    if state is not None:
        query = query.where(Job.state == state)
    if triage is not None:
        query = query.where(Job.triage == triage)
    rows = list(session.execute(query.order_by(Job.id).limit(limit + 1)).all())
    return rows[:limit], len(rows) > limit


def scenario_titles(session: Session, job_ids: list[int]) -> dict[int, str]:
    """The title of each job's scenario (the version it ran), by job id."""
    if not job_ids:
        return {}
    rows = session.execute(sa_select(Job.id, ScenarioRow.definition)
                           .where(Job.id.in_(job_ids), Job.scenario_id == ScenarioRow.id)).all()
    return {job_id: str(definition.get("title") or "") for job_id, definition in rows if isinstance(definition, dict)}


@dataclass
class MorningReport:
    """A regeneration's report as the dashboard shows it: the classes a person reads (ATTENTION_CLASSES) whole, the
    rest counted; cost per class; the scenarios added to the suite and removed from it; the flaky ones."""

    cost: dict[str, dict] = field(default_factory=dict)  # class -> scenarios, model_calls, seconds
    attention: list[Job] = field(default_factory=list)  # in natural order of their ids; the first of each class
    added: list[str] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)
    flaky: list[tuple[str, int, int]] = field(default_factory=list)  # (external id, flakes, regenerations)


def morning_report(session: Session, batch: Batch, *, limit: int = 200) -> MorningReport:
    """A handful of statements whatever the batch's size: per-class sums by the database, only the jobs a person
    must read loaded (at most `limit` of each class: the report says how many more, the batch page lists them), the
    added ones found by the database (passed here, never verified before)."""
    report = MorningReport()
    rows = session.execute(sa_select(Job.triage, func.count(), func.sum(_number(Job.model_usage, "total", "calls")),
                                     func.sum(_number(Job.timings, "seconds")))
                           .where(Job.batch_id == batch.id, col(Job.triage).is_not(None)).group_by(Job.triage)).all()
    report.cost = {triage: {"scenarios": n, "model_calls": int(calls or 0), "seconds": round(float(spent or 0), 2)}
                   for triage, n, calls, spent in rows}
    attention = [job for name in ATTENTION_CLASSES if name in report.cost
                 for job in session.exec(select(Job).where(Job.batch_id == batch.id, Job.triage == name)
                                         .order_by(col(Job.id)).limit(limit)).all()]
    report.attention = sorted(attention, key=lambda job: natural_key(job.external_id))
    before = aliased(Job)
    verified_before = exists().where(before.project_id == batch.project_id, before.batch_id < batch.id,
                                     before.external_id == Job.external_id,
                                     (before.state == "passed") | before.accepted_at.is_not(None))
    report.added = sorted(session.exec(select(Job.external_id).where(Job.batch_id == batch.id, Job.state == "passed",
                                                                     ~verified_before)).all(), key=natural_key)
    if batch.previous_batch_id:
        previous = list(session.exec(select(Job.external_id).where(Job.batch_id == batch.previous_batch_id)).all())
        report.removed = deleted_scenarios(session, batch.project_id, previous, before=batch.created_at)
    flakes = func.sum(case((Job.triage == "flake", 1), else_=0))
    here = aliased(Job)
    in_batch = sa_select(here.external_id).where(here.batch_id == batch.id)
    flaky = session.execute(sa_select(Job.external_id, flakes, func.count()).where(
        Job.project_id == batch.project_id, Job.batch_id <= batch.id, col(Job.triage).in_(REPLAYED_CLASSES),
        col(Job.external_id).in_(in_batch)).group_by(Job.external_id).having(flakes > 0)).all()
    report.flaky = sorted(((external_id, int(n), int(total)) for external_id, n, total in flaky),
                          key=lambda row: natural_key(row[0]))
    return report
