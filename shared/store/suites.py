"""A finished batch's one suite: which batches still need theirs built, the jobs it is built from, its outcome."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta

from sqlalchemy import and_, or_
from sqlmodel import Session, col, select

from shared.models import Batch, Job, Outbox, Scenario, utcnow
from shared.scenarios import Scenario as ScenarioDefinition
from shared.store.outbox import suite_summary
from shared.store.scenarios import scenario_from_row
from shared.store.sessions import UNSENT_GRACE_S, mark_sent, reading, writing


def suite_jobs(session: Session, batch_id: int) -> list[tuple[Job, ScenarioDefinition]]:
    """The jobs whose script goes into the batch's suite, in id order, each with the scenario version it ran: the
    passed ones, and a regeneration's app_changed ones (their last verified script, kept and tagged @failing) and
    broken_environment ones (their script kept as it was: nothing was concluded about them)."""
    kept = col(Job.triage).in_(("app_changed", "broken_environment"))
    rows = session.exec(select(Job, Scenario).join(Scenario, col(Scenario.id) == col(Job.scenario_id))
                        .where(Job.batch_id == batch_id, or_(Job.state == "passed", kept))
                        .order_by(col(Job.id))).all()
    return [(job, scenario_from_row(scenario)) for job, scenario in rows]


def finish_suite(engine, batch_id: int, state: str, failed: dict[str, str]) -> list[str]:  # noqa: ANN001
    """Record the built suite ("ready", with the scenarios red in the combined replay; "empty", no scenario passed;
    "error", it could not be built) and tell the batch's undelivered events so, in one transaction. Returns those
    events, for the caller to send after the commit (the sweep sends them otherwise)."""
    with writing(engine) as session:
        batch = session.exec(select(Batch).where(col(Batch.id) == batch_id).with_for_update()).one()
        batch.suite_state, batch.suite_failed = state, failed or None
        session.add(batch)
        events = session.exec(select(Outbox).where(Outbox.batch_id == batch_id, col(Outbox.delivered_at).is_(None))
                              .order_by(col(Outbox.created_at))).all()
        for event in events:  # a new dict: the JSON column sees the change
            event.payload = {**event.payload, "data": {**event.payload["data"], "suite": suite_summary(batch)}}
            session.add(event)
        session.commit()
        return [event.id for event in events]


def unbuilt_suites(engine, requeue_after_s: int, *, now: datetime | None = None,  # noqa: ANN001
                   unsent_grace_s: int = UNSENT_GRACE_S, lost_before: datetime | None = None,
                   limit: int = 1000) -> list[int]:
    """Finished batches whose suite build may be lost, by when it was last sent (as stale_jobs does for jobs):
    never sent once `unsent_grace_s` after the batch finished, or sent more than `requeue_after_s` ago (or before
    `lost_before`, when the broker lost what it held) and still building."""
    now = now or utcnow()
    resend_before = now - timedelta(seconds=requeue_after_s)
    if lost_before is not None:
        resend_before = max(resend_before, min(lost_before, now))
    with reading(engine) as session:
        query = select(Batch.id).where(Batch.suite_state == "building", or_(
            and_(col(Batch.suite_sent_at).is_(None), col(Batch.finished_at) < now - timedelta(seconds=unsent_grace_s)),
            col(Batch.suite_sent_at) < resend_before,
        )).order_by(col(Batch.id)).limit(limit)
        return list(session.exec(query).all())


def mark_suites_sent(session: Session, batch_ids: Sequence[int], moment: datetime | None = None) -> None:
    """Record that these batches' suite builds were handed to the broker now; commits."""
    mark_sent(session, Batch.suite_sent_at, batch_ids, moment)
