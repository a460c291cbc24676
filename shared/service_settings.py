"""Settings of the distributed service (API, Celery worker, beat): the embedded ones plus these, all STEPFORGE_*."""

from __future__ import annotations

from functools import lru_cache

from pydantic import Field, SecretStr, model_validator

from shared.settings import Settings


class ServiceSettings(Settings):
    # The service drives browsers to URLs its clients send: private and loopback targets only when allowed.
    allow_private_targets: bool = False
    # The Celery broker. Results are not kept there: a job's state lives in the database.
    broker_url: str = "redis://127.0.0.1:6379/0"
    # The queue of generation jobs (minutes each): Celery's default name, the list k8s/ autoscaling watches.
    queue: str = Field(default="celery", min_length=1, max_length=100, pattern=r"^[A-Za-z0-9_.:-]+$")
    # Webhook deliveries and beat's sweep (short tasks) have their own queue, so they never wait behind a backlog
    # of generation jobs; every worker consumes both (`celery ... worker -Q celery,stepforge.webhooks`).
    webhook_queue: str = Field(default="stepforge.webhooks", min_length=1, max_length=100,
                               pattern=r"^[A-Za-z0-9_.:-]+$")
    # How long a request (POST /v1/batches, regenerate, redeliver) may spend handing its messages to the broker,
    # for all of them together; what is not sent by then (a broker that is down) is sent by beat's sweep.
    enqueue_budget_s: float = Field(default=2.0, gt=0, le=30)
    # A new batch's jobs are sent after its 202 (a background task of the request): how long that may take.
    batch_send_budget_s: float = Field(default=30.0, gt=0, le=300)
    # POST /v1/projects requires "Authorization: Bearer <admin token>"; unset: no project can be created.
    admin_token: SecretStr | None = Field(default=None, min_length=16)
    # A job raises SoftTimeLimitExceeded after this long (its browser context is closed and the trace saved) ...
    task_soft_time_limit_s: int = Field(default=840, ge=10)
    # ... and its worker process is killed after this long.
    task_hard_time_limit_s: int = Field(default=900, ge=11)
    # A running job's lease; its worker renews it every third of this, so a dead worker's job is taken over soon
    # (the lease's end, then the next sweep: under 45 s with the defaults).
    job_lease_s: int = Field(default=30, ge=5)
    # Queued jobs whose message may have been lost (an enqueue after commit that failed) are sent again after this.
    requeue_after_s: int = Field(default=600, ge=30)
    # How often beat sweeps: nightly regenerations that are due, jobs whose worker died, messages a broker lost.
    # A sweep is a few indexed queries and one broker round trip.
    nightly_check_interval_s: int = Field(default=10, ge=5)
    # Reset commands an operator offers projects, by name (STEPFORGE_RESET_COMMANDS='{"petclinic": "..."}'): a
    # project names one (reset_command); an API client never sends a shell command.
    reset_commands: dict[str, str] = Field(default_factory=dict)
    # The worker processes of the fleet, which a regeneration's first pass is split for (shared/job_queue.py,
    # chunk_size); 0: ask the workers (celery inspect, one second at most, at most once a minute per process).
    fleet_processes: int = Field(default=0, ge=0, le=10_000)
    max_batch_scenarios: int = Field(default=200, ge=1)
    max_body_bytes: int = Field(default=2 * 1024 * 1024, ge=1024)
    webhook_timeout_s: float = Field(default=15.0, gt=0)
    webhook_max_attempts: int = Field(default=8, ge=1)
    # Encrypts the credentials a project gives for reporting results (report_to) at rest: a Fernet key
    # (python -c "from cryptography.fernet import Fernet; print(Fernet.generate_key().decode())"). Unset: a
    # project cannot set report_to. Several keys, comma-separated: the first encrypts, any decrypts (rotation).
    secrets_key: SecretStr | None = None
    # Results posted to a project's test-management system (report_to): the delays between attempts, and how many
    # answers 4xx in a row (408 and 429 aside) disable it until report_to is set again.
    report_backoff_s: list[float] = Field(default=[5.0, 30.0, 120.0, 600.0, 1800.0, 3600.0], min_length=1)
    report_max_attempts: int = Field(default=8, ge=1)
    report_disable_after_4xx: int = Field(default=3, ge=1)
    # The service's address as its users reach it (https://stepforge.example.com): the links to screenshots in the
    # results posted to a test-management system start with it. Unset: links are the API's paths.
    public_url: str | None = None
    # The dashboard (/ui/): how long a sign-in lasts, and whether its cookie is sent over HTTPS only (None: when the
    # sign-in came over HTTPS; behind a proxy that ends TLS, uvicorn's --proxy-headers makes that so; or set true).
    ui_session_hours: float = Field(default=12.0, gt=0, le=24 * 30)
    ui_secure_cookie: bool | None = None
    # API connection pool per process.
    db_pool_size: int = Field(default=10, ge=1)
    db_max_overflow: int = Field(default=10, ge=0)

    @model_validator(mode="after")
    def _hard_above_soft(self) -> ServiceSettings:
        if self.task_hard_time_limit_s <= self.task_soft_time_limit_s:
            raise ValueError("task_hard_time_limit_s must be greater than task_soft_time_limit_s")
        if self.webhook_queue == self.queue:
            raise ValueError("webhook_queue must differ from queue: webhooks must not wait behind generation jobs")
        return self


@lru_cache
def get_service_settings() -> ServiceSettings:
    return ServiceSettings()
