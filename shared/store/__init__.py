"""The service's data access, one module per aggregate: projects and their keys, versioned scenarios, batches, leases
(claim, renew, release) and jobs' results, the outbox and its delivery log. The API routes and the Celery tasks both
call it.

Two rules hold everywhere:
- a batch finishes in the transaction that finishes its last job, decided from the job rows (never from
  Celery chords), and that same transaction writes the batch.completed outbox event;
- messages are sent only after the transaction that created their rows has committed (the caller's job), and
  `mark_jobs_sent` / `mark_events_sent` record when; a message that could not be sent, or was lost, is found again
  by `stale_jobs` / `undelivered_events` (beat's sweep), which re-send only what was not sent for a while.
"""

from shared.store.batches import (  # noqa: F401
    BATCH_PROGRESS_COLUMNS,
    JOB_PROGRESS_COLUMNS,
    artifact_prefix,
    attempt_artifact_prefix,
    batch_by_key,
    batch_prefix,
    create_batch,
    earlier_jobs,
    find_batch,
    flakiness,
    job_artifacts_prefix,
    job_run_record_key,
    jobs_in,
    jobs_of,
    previous_batch_id,
    queued_job_ids,
    read_batch_progress,
    request_hash,
)
from shared.store.jobs import (  # noqa: F401
    Finished,
    JobResult,
    SuiteBusy,
    accept_candidate,
    finish_job,
)
from shared.store.leases import (  # noqa: F401
    Claim,
    batch_lock,
    claim_job,
    latest_verified_job,
    mark_jobs_sent,
    release_job,
    renew_lease,
    stale_jobs,
)
from shared.store.outbox import (  # noqa: F401
    RESULTS_EVENT,
    Delivery,
    client_error,
    deliver_results,
    batch_summary,
    deliver_event,
    deliveries_of,
    disable_webhook,
    events_of_batch,
    find_event,
    give_up,
    mark_events_sent,
    new_event_id,
    reopen_event,
    undelivered_events,
)
from shared.store.projects import (  # noqa: F401
    create_project,
    hash_key,
    project_by_hash,
    project_id_by_hash,
    registry_project,
)
from shared.store.results import batch_results, failure_screenshot  # noqa: F401
from shared.store.scenarios import (  # noqa: F401
    definition_of,
    delete_scenario,
    deleted_scenarios,
    latest_scenario,
    latest_scenarios,
    scenario_from_row,
    scenario_page,
    upsert_scenario,
    upsert_scenarios,
)
from shared.store.sessions import (  # noqa: F401
    API_KEY_PREFIX,
    MAX_CLAIMS,
    UNSENT_GRACE_S,
    Conflict,
    dispose_engines,
    engine_for,
    reading,
    writing,
)
from shared.store.suites import (  # noqa: F401
    finish_suite,
    mark_suites_sent,
    suite_jobs,
    unbuilt_suites,
)
from shared.store.ui_sessions import close_ui_session, find_ui_session, open_ui_session  # noqa: F401
from shared.store.overview import (  # noqa: F401
    ATTENTION_CLASSES,
    BatchCounts,
    MorningReport,
    batch_counts,
    batch_page,
    batches_counts,
    job_page,
    morning_report,
    projects_in,
    scenario_titles,
)
