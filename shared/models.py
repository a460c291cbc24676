"""The service's tables (SQLModel): projects, versioned scenarios, batches of jobs, and the webhook outbox.

PostgreSQL (psycopg 3) in the service, SQLite embedded. The tables live in their own metadata (`metadata`),
apart from the step registry's, so the migrations in infra/migrations/ describe exactly these tables.
Schema changes go through Alembic (`python -m shared.migrate upgrade`), never `create_all` in production.

State machines:
    batch: queued -> running -> finished
    job:   queued -> running -> passed | failed  (cancelled: never run)
A job is claimed with a lease (lease_owner, lease_until) that its worker renews while it runs; a job whose
lease expired is claimed again by whoever gets its redelivered message.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import JSON, Column, DateTime, ForeignKey, Index, Integer, MetaData, String, Text, UniqueConstraint
from sqlalchemy.dialects.postgresql import JSONB
from sqlalchemy.orm import registry
from sqlmodel import Field, SQLModel

JOB_STATES = ("queued", "running", "passed", "failed", "cancelled")
JOB_FINISHED = ("passed", "failed", "cancelled")
BATCH_STATES = ("queued", "running", "finished")
# on_demand: POST /v1/batches; regenerate: POST /v1/projects/me/regenerate; nightly: beat's nightly run. The last
# two are full regenerations (every scenario's latest version) and are compared with each other (previous_batch_id).
BATCH_KINDS = ("on_demand", "regenerate", "nightly")
SUITE_FORMATS = ("cucumber-js", "playwright-bdd")  # the projects a suite can be written as
STEP_WRITERS = ("builtin", "model")  # who groups and words the steps: the builtin rules, or the model
FULL_REGENERATION_KINDS = ("regenerate", "nightly")

# Named constraints, so that migrations can refer to them on PostgreSQL and SQLite alike.
NAMING = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}
_service_registry = registry(metadata=MetaData(naming_convention=NAMING))


class ServiceTable(SQLModel, registry=_service_registry):
    """Base of the service's tables: their own metadata, not the step registry's."""


metadata = ServiceTable.metadata


def utcnow() -> datetime:
    return datetime.now(UTC)


def as_utc(moment: datetime | None) -> datetime | None:
    """SQLite hands back naive datetimes; every moment stored here is UTC."""
    if moment is None or moment.tzinfo is not None:
        return moment
    return moment.replace(tzinfo=UTC)


def _json() -> JSON:
    return JSON().with_variant(JSONB(), "postgresql")


def _moment(nullable: bool = True) -> Any:
    return Field(default=None, sa_column=Column(DateTime(timezone=True), nullable=nullable))


def _created() -> Any:
    return Field(default_factory=utcnow, sa_column=Column(DateTime(timezone=True), nullable=False))


def _fk(target: str, *, nullable: bool = False, index: bool = True) -> Any:
    return Field(sa_column=Column(Integer, ForeignKey(target, ondelete="CASCADE"), nullable=nullable, index=index))


class Project(ServiceTable, table=True):
    """A tenant. Its API key is shown once at creation; only its sha256 is kept."""

    __tablename__ = "project"

    id: int | None = Field(default=None, primary_key=True)
    name: str = Field(sa_column=Column(String(200), nullable=False))
    api_key_hash: str = Field(sa_column=Column(String(64), nullable=False, unique=True))
    base_url: str = Field(sa_column=Column(String(2048), nullable=False))
    default_brain: str = Field(default="builtin", sa_column=Column(String(16), nullable=False))
    default_grounding: str = Field(default="hte", sa_column=Column(String(16), nullable=False))
    # What a batch that names none gets: the feature of its scenarios without a `feature:` (None: named after the
    # project), the project its suite.zip holds, who words its steps (None: the model with the openai brain).
    default_feature: str | None = Field(default=None, sa_column=Column(String(200), nullable=True))
    default_format: str = Field(default="cucumber-js", sa_column=Column(String(16), nullable=False,
                                                                          server_default="cucumber-js"))
    default_step_writer: str | None = Field(default=None, sa_column=Column(String(16), nullable=True))
    # Before each scenario the application is reset: a POST to reset_url, or the operator's reset command of that
    # name (ServiceSettings.reset_commands); neither: no reset.
    reset_url: str | None = Field(default=None, sa_column=Column(String(2048), nullable=True))
    reset_command: str | None = Field(default=None, sa_column=Column(String(100), nullable=True))
    webhook_url: str | None = Field(default=None, sa_column=Column(String(2048), nullable=True))
    webhook_secret: str | None = Field(default=None, sa_column=Column(String(200), nullable=True))
    # Set when the receiver answered 410 Gone (it asks never to be called again): no webhook is sent until the
    # project sets its webhook_url again.
    webhook_disabled_at: datetime | None = _moment()
    webhook_disabled_reason: str | None = Field(default=None, sa_column=Column(Text, nullable=True))
    # Where each finished batch's verdicts are posted (shared/reporting.py): {kind, url, run_id, user}; its
    # credential only encrypted (shared/secrets.py), never returned. Disabled after repeated 4xx answers, until
    # report_to is set again.
    report_to: dict | None = Field(default=None, sa_column=Column(_json(), nullable=True))
    report_secret: str | None = Field(default=None, sa_column=Column(Text, nullable=True))
    report_disabled_at: datetime | None = _moment()
    report_disabled_reason: str | None = Field(default=None, sa_column=Column(Text, nullable=True))
    # The hour (0-23, UTC) at which the whole suite is regenerated every night; None: never.
    nightly_hour_utc: int | None = Field(default=None, sa_column=Column(Integer, nullable=True))
    created_at: datetime = _created()


class Scenario(ServiceTable, table=True):
    """One version of one scenario. A PUT with a changed definition adds the next version; the same one adds nothing."""

    __tablename__ = "scenario"
    __table_args__ = (UniqueConstraint("project_id", "external_id", "version", name="uq_scenario_version"),)

    id: int | None = Field(default=None, primary_key=True)
    project_id: int = _fk("project.id", index=False)
    external_id: str = Field(sa_column=Column(String(200), nullable=False))
    version: int = Field(sa_column=Column(Integer, nullable=False))
    definition: dict = Field(sa_column=Column(_json(), nullable=False))  # shared.scenarios.Scenario as JSON
    created_at: datetime = _created()
    # Set on the latest version when the scenario is deleted: it leaves the project's regenerations; a PUT after
    # that stores a new version.
    deleted_at: datetime | None = _moment()


class Batch(ServiceTable, table=True):
    """Scenarios submitted together; finished when its last job is, in the same transaction."""

    __tablename__ = "batch"
    __table_args__ = (UniqueConstraint("project_id", "idempotency_key", name="uq_batch_idempotency_key"),)

    id: int | None = Field(default=None, primary_key=True)
    project_id: int = _fk("project.id")
    idempotency_key: str = Field(sa_column=Column(String(200), nullable=False))
    request_hash: str = Field(sa_column=Column(String(64), nullable=False))  # same key, other body: refused
    kind: str = Field(default="on_demand", sa_column=Column(String(16), nullable=False))
    state: str = Field(default="queued", sa_column=Column(String(16), nullable=False))
    base_url: str = Field(sa_column=Column(String(2048), nullable=False))
    brain: str = Field(sa_column=Column(String(16), nullable=False))
    grounding: str = Field(sa_column=Column(String(16), nullable=False))
    # Its suite: the feature of scenarios without a `feature:`, the project it is written as (SUITE_FORMATS), who
    # words its steps (STEP_WRITERS); chosen when the batch is made (the request, else the project's defaults).
    feature: str = Field(default="Scenarios", sa_column=Column(String(200), nullable=False,
                                                               server_default="Scenarios"))
    suite_format: str = Field(default="cucumber-js", sa_column=Column(String(16), nullable=False,
                                                                       server_default="cucumber-js"))
    step_writer: str = Field(default="builtin", sa_column=Column(String(16), nullable=False,
                                                                 server_default="builtin"))
    jobs_total: int = Field(default=0, sa_column=Column(Integer, nullable=False))
    jobs_passed: int = Field(default=0, sa_column=Column(Integer, nullable=False))
    jobs_failed: int = Field(default=0, sa_column=Column(Integer, nullable=False))
    # The batch this one is compared with in the what-changed report: for a full regeneration (regenerate,
    # nightly) the project's latest finished full regeneration, else its latest finished batch of any kind.
    previous_batch_id: int | None = Field(
        default=None, sa_column=Column(Integer, ForeignKey("batch.id", ondelete="SET NULL"), nullable=True)
    )
    created_at: datetime = _created()
    started_at: datetime | None = _moment()
    finished_at: datetime | None = _moment()
    # The batch's one suite, built and replayed as a whole by a worker once the batch has finished: "building"
    # from then on, "ready" when suite.zip is stored, "empty" when no scenario passed. suite_failed names the
    # scenarios red in the combined replay (id -> reason); suite_sent_at is when the build was last sent.
    suite_state: str | None = Field(default=None, sa_column=Column(String(16), nullable=True))
    suite_failed: dict | None = Field(default=None, sa_column=Column(_json(), nullable=True))
    suite_sent_at: datetime | None = _moment()


class Job(ServiceTable, table=True):
    """One scenario version of one batch, generated by one worker at a time (the lease)."""

    __tablename__ = "job"
    # ix_job_scenario_state: a regeneration looks up each scenario version's latest passed job (its verified script).
    # ix_job_project_scenario: a scenario's jobs across the project's batches (what changed, flakiness over nights,
    # the scenarios a batch added), read by an index whatever the project's history.
    __table_args__ = (Index("ix_job_state_lease", "state", "lease_until"),
                      Index("ix_job_scenario_state", "scenario_id", "state"),
                      Index("ix_job_project_scenario", "project_id", "external_id"))

    id: int | None = Field(default=None, primary_key=True)
    batch_id: int = _fk("batch.id")
    project_id: int = _fk("project.id", index=False)
    scenario_id: int = _fk("scenario.id", index=False)
    external_id: str = Field(sa_column=Column(String(200), nullable=False))
    scenario_version: int = Field(sa_column=Column(Integer, nullable=False))
    state: str = Field(default="queued", sa_column=Column(String(16), nullable=False))
    lease_owner: str | None = Field(default=None, sa_column=Column(String(200), nullable=True))
    lease_until: datetime | None = _moment()
    attempt: int = Field(default=0, sa_column=Column(Integer, nullable=False))  # times a worker claimed it
    # The verdict (workers/agent/pipeline.py Outcome): failed step (1-based), kind and reason when failed.
    failed_step: int | None = Field(default=None, sa_column=Column(Integer, nullable=True))
    failure_kind: str | None = Field(default=None, sa_column=Column(String(16), nullable=True))
    reason: str | None = Field(default=None, sa_column=Column(Text, nullable=True))
    generation_attempts: int | None = Field(default=None, sa_column=Column(Integer, nullable=True))
    timings: dict | None = Field(default=None, sa_column=Column(_json(), nullable=True))
    model_usage: dict | None = Field(default=None, sa_column=Column(_json(), nullable=True))
    # The passed script's steps and their locators, for the what-changed report.
    script: list | None = Field(default=None, sa_column=Column(_json(), nullable=True))
    # A regeneration's class for the job (shared/triage.py: passed, flake, drift, app_changed, broken_environment,
    # generated; None for a batch that is not a regeneration), and what it found (drift, app_change, replays).
    triage: str | None = Field(default=None, sa_column=Column(String(24), nullable=True))
    triage_detail: dict | None = Field(default=None, sa_column=Column(_json(), nullable=True))
    # When a person accepted an app_changed job's regenerated script (triage_detail["candidate"]): from then on that
    # script is the scenario version's verified one (store.latest_verified_job, job_run_record_key).
    accepted_at: datetime | None = _moment()
    # The job's root in the artifact store; each claim writes under <artifact_prefix>attempts/<attempt>/.
    artifact_prefix: str = Field(sa_column=Column(String(500), nullable=False))
    # The attempt folder of the claim that finished the job: what the artifacts listing and the suite zip read.
    result_prefix: str | None = Field(default=None, sa_column=Column(String(500), nullable=True))
    # When the job's message was last handed to the broker (None: never); beat's sweep re-sends by it.
    sent_at: datetime | None = _moment()
    created_at: datetime = _created()
    started_at: datetime | None = _moment()
    finished_at: datetime | None = _moment()


class Outbox(ServiceTable, table=True):
    """An event to deliver by webhook, written in the transaction that caused it."""

    __tablename__ = "outbox"

    id: str = Field(sa_column=Column(String(64), primary_key=True))  # the webhook-id: "evt_<hex>"
    project_id: int = _fk("project.id")
    batch_id: int | None = Field(
        default=None, sa_column=Column(Integer, ForeignKey("batch.id", ondelete="CASCADE"), nullable=True, index=True)
    )
    type: str = Field(sa_column=Column(String(100), nullable=False))
    payload: dict = Field(sa_column=Column(_json(), nullable=False))  # the exact JSON every attempt sends
    created_at: datetime = _created()
    # When a deliver_webhook message was last handed to the broker (None: never, or a redelivery not yet sent).
    sent_at: datetime | None = _moment()
    delivered_at: datetime | None = _moment()
    gave_up_at: datetime | None = _moment()


class WebhookDelivery(ServiceTable, table=True):
    """One attempt to deliver one outbox event."""

    __tablename__ = "webhook_delivery"

    id: int | None = Field(default=None, primary_key=True)
    event_id: str = Field(sa_column=Column(String(64), ForeignKey("outbox.id", ondelete="CASCADE"), nullable=False,
                                           index=True))
    attempt: int = Field(sa_column=Column(Integer, nullable=False))
    status: str = Field(sa_column=Column(String(16), nullable=False))  # delivered | failed | skipped
    status_code: int | None = Field(default=None, sa_column=Column(Integer, nullable=True))
    error: str | None = Field(default=None, sa_column=Column(Text, nullable=True))
    duration_ms: int = Field(default=0, sa_column=Column(Integer, nullable=False))
    at: datetime = _created()


class UiSession(ServiceTable, table=True):
    """A dashboard sign-in (api/ui/): the projects whose API keys were given in it. The browser holds only the
    session's token in an HTTP-only cookie; only its sha256 is stored, so a copy of the table opens nothing.
    Signing out deletes the row; a row past expires_at opens nothing and is deleted by the next sign-in."""

    __tablename__ = "ui_session"

    id: str = Field(sa_column=Column(String(64), primary_key=True))  # sha256 of the cookie's token
    project_ids: list = Field(sa_column=Column(_json(), nullable=False))
    csrf_token: str = Field(sa_column=Column(String(64), nullable=False))  # in every form the dashboard serves
    created_at: datetime = _created()
    expires_at: datetime = Field(sa_column=Column(DateTime(timezone=True), nullable=False, index=True))
