"""The outbox (batch.completed events, and batch.results for a project's test-management system) and its
delivery log."""

from __future__ import annotations

import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from sqlalchemy import and_, or_, update
from sqlalchemy.engine import Engine
from sqlmodel import Session, col, select

from shared.logging import log
from shared.models import (
    Batch,
    Outbox,
    Project,
    WebhookDelivery,
    as_utc,
    utcnow,
)
from shared.store.sessions import UNSENT_GRACE_S, mark_sent, reading, writing
from shared.webhooks import DeliveryAttempt

RESULTS_EVENT = "batch.results"  # a finished batch's verdicts, for the project's report_to (shared/reporting.py)


def new_event_id() -> str:
    return "evt_" + uuid.uuid4().hex


def batch_summary(batch: Batch, triage: dict[str, int] | None = None) -> dict:
    """The batch.completed event's data; `triage`: a regeneration's scenarios per triage class."""
    return {
        "batch_id": batch.id,
        "project_id": batch.project_id,
        "kind": batch.kind,
        "state": batch.state,
        "jobs": {"total": batch.jobs_total, "passed": batch.jobs_passed, "failed": batch.jobs_failed},
        "created_at": _iso(batch.created_at),
        "finished_at": _iso(batch.finished_at),
        "suite": suite_summary(batch),
        "triage": triage or {},
        "links": {
            "batch": f"/v1/batches/{batch.id}",
            "suite": f"/v1/batches/{batch.id}/suite.zip",
            "changes": f"/v1/batches/{batch.id}/changes",
        },
    }


def suite_summary(batch: Batch) -> dict:
    """The batch's one suite as the event tells it: the event is sent once the suite is settled (ready, empty or
    error), never while it is building."""
    return {"state": batch.suite_state, "failed": dict(batch.suite_failed or {})}


def _iso(moment: datetime | None) -> str | None:
    moment = as_utc(moment)
    return moment.isoformat().replace("+00:00", "Z") if moment else None


def find_event(session: Session, project_id: int, event_id: str) -> Outbox | None:
    event = session.get(Outbox, event_id)
    return event if event is not None and event.project_id == project_id else None


def events_of_batch(session: Session, batch_id: int) -> list[Outbox]:
    return list(session.exec(select(Outbox).where(Outbox.batch_id == batch_id).order_by(col(Outbox.created_at))).all())


def deliveries_of(session: Session, event_id: str) -> list[WebhookDelivery]:
    query = select(WebhookDelivery).where(WebhookDelivery.event_id == event_id).order_by(col(WebhookDelivery.id))
    return list(session.exec(query).all())


def undelivered_events(engine: Engine, older_than_s: int, *, now: datetime | None = None,
                       unsent_grace_s: int = UNSENT_GRACE_S, limit: int = 1000, lost_before: datetime | None = None
                       ) -> list[str]:
    """Events to deliver whose message may be lost (a batch's event waits until its suite is settled): never sent
    since they were written or reopened for a redelivery (once `unsent_grace_s` old), or sent more than `older_than_s` ago and not attempted since (the
    message was lost; an event being retried has attempts, and its retries are deliver_webhook's own), or sent
    before `lost_before` and not attempted since (the broker lost it). Mark what was sent with `mark_events_sent`."""
    now = now or utcnow()
    sent_before = now - timedelta(seconds=older_than_s)
    if lost_before is not None:
        sent_before = max(sent_before, min(lost_before, now))
    attempted_since_sent = (
        select(WebhookDelivery.id)
        .where(WebhookDelivery.event_id == Outbox.id, col(WebhookDelivery.at) >= col(Outbox.sent_at))
        .exists()
    )
    suite_building = select(Batch.id).where(Batch.id == Outbox.batch_id, Batch.suite_state == "building").exists()
    with reading(engine) as session:
        query = select(Outbox.id).where(
            col(Outbox.delivered_at).is_(None), col(Outbox.gave_up_at).is_(None), ~suite_building,
            or_(
                and_(col(Outbox.sent_at).is_(None), col(Outbox.created_at) < now - timedelta(seconds=unsent_grace_s)),
                and_(col(Outbox.sent_at) < sent_before, ~attempted_since_sent),
            ),
        ).order_by(col(Outbox.created_at)).limit(limit)
        return list(session.exec(query).all())


def mark_events_sent(session: Session, event_ids: Sequence[str], moment: datetime | None = None) -> None:
    """Record that these events' deliver_webhook messages were handed to the broker now; commits."""
    mark_sent(session, Outbox.sent_at, event_ids, moment)


@dataclass
class Delivery:
    """One run of deliver_webhook: "delivered", "failed" (see attempt.retryable), "skipped" (no webhook URL),
    "already" (delivered, and no redelivery asked since), "missing"."""

    status: str
    attempt: DeliveryAttempt | None = None


def deliver_event(engine: Engine, event_id: str, send: Callable[[str, str, Outbox], DeliveryAttempt]) -> Delivery:
    """Send one batch.completed event once through `send(url, secret, event)` to the project's webhook and log the
    attempt (see _attempt_once); a receiver answering 410 Gone disables the project's webhook."""
    def skipped(project: Project | None) -> str | None:
        if project is None or not project.webhook_url or not project.webhook_secret:
            return "the project has no webhook URL"
        if project.webhook_disabled_at is not None:
            return (f"the project's webhook is disabled ({project.webhook_disabled_reason}); set webhook_url again "
                    "with PATCH /v1/projects/me to enable it")
        return None

    def after(session: Session, project: Project, event: Outbox, attempt: DeliveryAttempt):
        if attempt.endpoint_gone and disable_webhook(session, project.id, project.webhook_url, event.id,
                                                     attempt.attempted_at):
            return lambda: log.warning("webhook.disabled", project_id=project.id, event_id=event.id,
                                       reason="the receiver answered HTTP 410 Gone")
        return None

    return _attempt_once(engine, event_id, skipped,
                         lambda session, project, event: send(project.webhook_url, project.webhook_secret, event),
                         after)


def _attempt_once(engine: Engine, event_id: str, skipped: Callable[[Project | None], str | None],
                  send: Callable[[Session, Project, Outbox], DeliveryAttempt],
                  after: Callable[[Session, Project, Outbox, DeliveryAttempt], Callable[[], None] | None]) -> Delivery:
    """One attempt to deliver one outbox event, logged as a delivery row, holding the event's row lock meanwhile so
    that two tasks never send one event at the same time; `skipped(project)` says why not to send it (logged as
    skipped), `after` sees the attempt before the commit and may return what to log once committed.

    A task that finds the row locked waits for the lock rather than skipping the event: the holder may be another
    delivery (then this one finds it delivered), but also the sender of this very message still marking it sent,
    or a redelivery being asked (skipping would drop the message that asked for it)."""
    with writing(engine) as session:
        event = session.exec(select(Outbox).where(Outbox.id == event_id).with_for_update()).first()
        if event is None:
            return Delivery("missing")
        if event.delivered_at is not None:
            return Delivery("already")
        project = session.get(Project, event.project_id)
        number = len(deliveries_of(session, event_id)) + 1
        why = skipped(project)
        if why:
            session.add(WebhookDelivery(event_id=event_id, attempt=number, status="skipped", error=why))
            session.commit()
            return Delivery("skipped")
        try:
            attempt = send(session, project, event)
        except Exception as error:  # noqa: BLE001 - logged and given up, never re-sent forever, its text never shown
            log.error("delivery.send_failed", event_id=event_id, error_type=type(error).__name__)
            attempt = DeliveryAttempt(url="", msg_id=event_id, ok=False, retryable=False, duration_ms=0,
                                      attempted_at=utcnow(), error=f"could not be sent ({type(error).__name__}); "
                                                                   "the workers' log has the event id")
        session.add(WebhookDelivery(event_id=event_id, attempt=number, status="delivered" if attempt.ok else "failed",
                                    status_code=attempt.status_code, error=attempt.error,
                                    duration_ms=attempt.duration_ms, at=attempt.attempted_at))
        if attempt.ok:
            event.delivered_at, event.gave_up_at = attempt.attempted_at, None
            session.add(event)
        committed = after(session, project, event, attempt)
        session.commit()
        if committed is not None:
            committed()
        return Delivery("delivered" if attempt.ok else "failed", attempt)


def disable_webhook(session: Session, project_id: int, url: str, event_id: str, moment: datetime) -> bool:
    """The receiver answered 410 Gone: stop sending to it until the project sets its webhook_url again. Only when
    the URL that answered is still the project's (a PATCH meanwhile wins). Does not commit."""
    reason = f"HTTP 410 Gone from the receiver when delivering {event_id} at {_iso(moment)}"
    changed = session.execute(
        update(Project).where(Project.id == project_id, Project.webhook_url == url,
                              col(Project.webhook_disabled_at).is_(None))
        .values(webhook_disabled_at=moment, webhook_disabled_reason=reason)
    ).rowcount
    return bool(changed)


def give_up(engine: Engine, event_id: str) -> None:
    with writing(engine) as session:
        session.execute(update(Outbox).where(Outbox.id == event_id, col(Outbox.delivered_at).is_(None))
                        .values(gave_up_at=utcnow()))
        session.commit()


def reopen_event(session: Session, event: Outbox) -> None:
    """A redelivery asked through the API: the event is pending again until it is delivered (even after a success
    or after giving up); its attempts so far stay in the log."""
    # One UPDATE of all three columns, not the ORM's changed attributes: an event loaded while a worker was still
    # delivering it looks undelivered here, so `delivered_at = None` would be no change and the worker's success,
    # committed meanwhile, would stay and make the redelivery "already delivered".
    session.execute(update(Outbox).where(Outbox.id == event.id).values(delivered_at=None, gave_up_at=None,
                                                                        sent_at=None))
    session.commit()
    session.refresh(event)


def client_error(attempt: DeliveryAttempt) -> bool:
    """An answer 4xx that asking again will not change (408 Request Timeout and 429 Too Many Requests aside)."""
    return _client_error_code(attempt.status_code)


def _since(project: Project) -> datetime:
    """When the project's report_to was last set (its set_at), else the beginning of time."""
    set_at = (project.report_to or {}).get("set_at")
    return datetime.fromisoformat(set_at) if set_at else datetime(1970, 1, 1, tzinfo=UTC)


def _client_error_code(code: int | None) -> bool:
    return code is not None and 400 <= code < 500 and code not in (408, 429)


def deliver_results(engine: Engine, event_id: str,
                    send: Callable[[Session, Project, Outbox], DeliveryAttempt], *, disable_after: int) -> Delivery:
    """Post a batch.results event once to the project's report_to through `send(session, project, event)` and log
    the attempt (see _attempt_once). After `disable_after` answers 4xx in a row (this project's results
    deliveries, 408 and 429 aside) the project's reporting is disabled until report_to is set again, and the event
    is given up: the credentials or the run are wrong, and asking again will not help."""
    def skipped(project: Project | None) -> str | None:
        if project is None or not project.report_to:
            return "the project reports its results nowhere (no report_to)"
        if project.report_disabled_at is not None:
            return (f"the project's reporting is disabled ({project.report_disabled_reason}); set report_to again "
                    "with PATCH /v1/projects/me to enable it")
        return None

    def after(session: Session, project: Project, event: Outbox, attempt: DeliveryAttempt):
        if attempt.ok or not client_error(attempt):
            return None
        session.flush()
        recent = session.exec(
            select(WebhookDelivery.status_code).join(Outbox, col(Outbox.id) == col(WebhookDelivery.event_id))
            .where(Outbox.project_id == project.id, Outbox.type == RESULTS_EVENT, WebhookDelivery.status != "skipped",
                   col(WebhookDelivery.at) >= _since(project))  # attempts before report_to was set again: not counted
            .order_by(col(WebhookDelivery.at).desc(), col(WebhookDelivery.id).desc()).limit(disable_after)).all()
        if len(recent) < disable_after or not all(map(_client_error_code, recent)):
            return None
        project.report_disabled_at = event.gave_up_at = attempt.attempted_at
        project.report_disabled_reason = (f"{disable_after} answers 4xx in a row, the last HTTP {attempt.status_code} "
                                          f"when delivering {event.id} at {_iso(attempt.attempted_at)}")
        session.add_all([project, event])
        attempt.retryable = False  # given up: not tried again
        return lambda: log.warning("report.disabled", project_id=project.id, event_id=event.id,
                                   reason=project.report_disabled_reason)

    return _attempt_once(engine, event_id, skipped, send, after)
