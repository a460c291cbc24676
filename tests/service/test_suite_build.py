"""A batch's suite build that keeps failing: tried again a bounded number of times, then the suite is "error" and the
batch's webhook event goes all the same, saying so (never held back for ever by a suite that cannot be built)."""

from __future__ import annotations

import pytest

from shared.models import Batch, Outbox
from shared.store import claim_job, engine_for, finish_job, reading
from tests.service.test_jobs import PASSED, make_batch
from workers.service import tasks

pytestmark = pytest.mark.service  # its tier (tests/conftest.py)


def test_a_suite_that_cannot_be_built_ends_as_error_and_its_event_is_sent(settings, monkeypatch):
    engine = engine_for(settings.database_url)
    batch_id, (job_id,) = make_batch(engine, size=1)
    claim_job(engine, job_id, "w", lease_s=60)
    event_id = finish_job(engine, job_id, "w", PASSED).event_id
    builds, sent = [], []

    def failing_build(*_args: object) -> None:
        builds.append(1)
        raise ConnectionError("the artifact store is away")

    monkeypatch.setattr(tasks, "get_service_settings", lambda: settings)
    monkeypatch.setattr(tasks, "assemble", failing_build)
    monkeypatch.setattr(tasks.resources, "store", lambda: None)
    monkeypatch.setattr(tasks.resources, "registry", lambda: None)
    monkeypatch.setattr(tasks, "send_events", lambda _app, _session, events, **_: sent.extend(events))
    # Eagerly, each retry runs at once as the next try (the countdowns are the broker's).
    assert tasks.build_batch_suite.apply(args=[batch_id]).get() == "error"
    assert len(builds) == tasks.SUITE_BUILD_RETRIES + 1
    assert sent == [event_id]
    with reading(engine) as session:
        assert session.get(Batch, batch_id).suite_state == "error"
        assert session.get(Outbox, event_id).payload["data"]["suite"] == {"state": "error", "failed": {}}
    assert tasks.build_batch_suite.apply(args=[batch_id]).get() == "nothing to build"  # settled: not again

