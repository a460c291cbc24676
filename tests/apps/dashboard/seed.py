"""A project's history as the service stores it after a night, written straight to its database and artifact store:
a finished nightly regeneration whose scenarios passed, drifted (healed), flaked, or stopped at a changed page
(app_changed, with a regenerated script that passed and its diff), and one on-demand batch that failed at step 2.
Each job has what a worker keeps: a run record with a picture after each operation, the trace, the suite's files.

The dashboard's route tests, its demo (python -m tests.apps.dashboard), the e2e suite generated for it and the
dashboard benchmark (1,000 scenarios) read it."""

from __future__ import annotations

import io
import uuid
from dataclasses import dataclass, field

from PIL import Image, ImageDraw
from sqlmodel import select

from shared.artifacts import ArtifactStore, open_artifact_store
from shared.models import Batch, Job, Project
from shared.records import Locator, Operation, ReplayResult, RunRecord, StepReading, Verdict
from shared.scenarios import Scenario as ScenarioDefinition
from shared.service_settings import ServiceSettings
from shared.store import (
    attempt_artifact_prefix,
    create_batch,
    create_project,
    engine_for,
    finish_job,
    hash_key,
    upsert_scenarios,
    writing,
)
from shared.store.jobs import JobResult
from workers.agent.reading.coverage import Done, account

STEPS = [("Go to the Find Owners page", None), ("Type \"Davis\" into the last name field", None),
         ("Click Find Owner", "\"Owner Information\" is shown")]
OPERATIONS = [("navigate", "Go to the Find Owners page", None, None),
              ("fill", "Type \"Davis\" into the last name field", "last name", Locator(strategy="label",
                                                                                      value="Last name")),
              ("click", "Click Find Owner", "Find Owner", Locator(strategy="role", role="button",
                                                                  value="Find Owner")),
              ("assert_text", "Check \"Owner Information\" is shown", "Owner Information",
               Locator(strategy="role", role="heading", value="Owner Information"))]
DIFF = """--- verified/features/step_definitions/steps.js
+++ regenerated/features/step_definitions/steps.js
@@ -12,3 +12,3 @@
 When('I search for {string}', async function (name) {
-  await this.page.getByRole("button", { name: "Find Owner", exact: true }).click();
+  await this.page.getByRole("button", { name: "Search", exact: true }).click();
 });
"""
FEATURE = """Feature: Owners

  @{id}
  Scenario Outline: {title}
    Given I am on the Find Owners page
    When I search for "<last name>"
    Then "Owner Information" is shown

    Examples:
      | last name |
      | Davis     |
"""
STEP_DEFINITIONS = """const { Given, When, Then } = require('@cucumber/cucumber');
const { expect } = require('@playwright/test');

Given('I am on the Find Owners page', async function () {
  await this.page.goto(this.baseUrl + '/owners/find');
});

When('I search for {string}', async function (name) {
  await this.page.getByLabel("Last name").fill(name);
  await this.page.getByRole("button", { name: "Find Owner", exact: true }).click();
});

Then('{string} is shown', async function (text) {
  await expect(this.page.getByText(text).first()).toBeVisible();
});
"""


@dataclass
class Seeded:
    project_id: int
    api_key: str
    nightly_id: int
    on_demand_id: int
    jobs: dict[str, int] = field(default_factory=dict)  # "<batch kind>/<scenario id>" -> job id


def picture(text: str, failed: bool = False) -> bytes:
    """A page's picture as a worker takes one: a real PNG, its caption the operation."""
    image = Image.new("RGB", (640, 400), "#ffffff")
    draw = ImageDraw.Draw(image)
    draw.rectangle((0, 0, 640, 48), fill="#6db33f")
    draw.text((16, 16), "PetClinic", fill="#ffffff")
    draw.text((16, 80), text, fill="#b3261e" if failed else "#1d2330")
    data = io.BytesIO()
    image.save(data, "PNG")
    return data.getvalue()


def store_job(store: ArtifactStore, job: Job, title: str, *, failed_at: int | None = None,
              folder: str | None = None) -> None:
    """The job's artifacts in its first attempt's folder: run record, pictures, trace and (passed) the suite;
    `folder`: a run of its own below it instead (a candidate's: no suite)."""
    prefix = attempt_artifact_prefix(job.artifact_prefix, 1)
    attempt = f"{folder or job.external_id}/attempt-1"
    operations = []
    for index, (kind, text, said, locator) in enumerate(OPERATIONS):
        failed = failed_at is not None and index + 1 >= failed_at
        if failed_at is not None and index + 1 > failed_at:
            break
        operations.append(Operation(index=index, step_index=min(index, len(STEPS) - 1), kind=kind, description=text,
                                    said=said, locator=locator, screenshot=f"screenshots/{index:03d}.png",
                                    ok=not failed, error="the heading reads \"Owners\"" if failed else None))
        store.put_bytes(f"{prefix}{attempt}/screenshots/{index:03d}.png", picture(f"after: {text}", failed),
                        "image/png")
    verdict = Verdict.passed() if failed_at is None else Verdict.failed(failed_at, "expectation",
                                                                          'expected "Owner Information", the page '
                                                                          'shows "Owners"')
    trace = [Done(op.description, op.said, op.value, checks=op.kind.startswith("assert")) for op in operations if op.ok]
    readings = [StepReading(step=number, sentence=sentence, read_as=[op.description for op in operations
                                                                       if op.ok and op.step_index == number - 1],
                            unused=list(account(sentence, trace).unused))
                for number, (action, expected) in enumerate(STEPS, 1) for sentence in (action, expected) if sentence]
    record = RunRecord(scenario_id=job.external_id, title=title, base_url="http://petclinic.test",
                       operations=operations, readings=readings, verdict=verdict,
                       replay=ReplayResult(passed=True, seconds=1.4) if failed_at is None else None)
    store.put_bytes(f"{prefix}{attempt}/run.json", record.model_dump_json(indent=1).encode(), "application/json")
    store.put_bytes(f"{prefix}{attempt}/trace.zip", b"PK\x05\x06" + b"\0" * 18, "application/zip")
    if failed_at is None and folder is None:
        store.put_bytes(f"{prefix}suite/features/owners.feature",
                        FEATURE.format(id=job.external_id, title=title).encode(), "text/plain")
        store.put_bytes(f"{prefix}suite/features/step_definitions/steps.js", STEP_DEFINITIONS.encode(),
                        "text/javascript")


def nightly_result(index: int, job: Job, store: ArtifactStore) -> JobResult:
    """The night's verdict of the index-th scenario: every tenth drifted, every 25th flaked, the third changed."""
    seconds = {"seconds": 2.0 + index % 7 / 10}
    if index == 2:
        prefix = attempt_artifact_prefix(job.artifact_prefix, 1)
        store.put_bytes(f"{prefix}candidate/script.diff", DIFF.encode(), "text/x-diff")
        store.put_bytes(f"{prefix}app_change.png", picture("Owners (was: Owner Information)", True), "image/png")
        return JobResult(state="failed", failed_step=3, failure_kind="expectation",
                         reason='step 3: expected "Owner Information", the page shows "Owners"', generation_attempts=1,
                         timings={"seconds": 11.5}, model_usage={"total": {"calls": 6, "cost": 0.0042}},
                         triage="app_changed", triage_detail={
                             "source": "replayed", "replays": 1, "drift": [],
                             "app_change": {"step": 3, "kind": "expectation", "description": "Click Find Owner",
                                            "expected": "Owner Information", "actual": "Owners",
                                            "reason": "the heading changed", "screenshot": "app_change.png"},
                             "candidate": {"passed": True, "diff": "candidate/script.diff", "model_calls": 6,
                                           "run_record": f"candidate/{job.external_id}/attempt-1/run.json"}})
    if index % 10 == 5:
        return JobResult(state="passed", generation_attempts=1, timings=seconds, triage="drift", triage_detail={
            "source": "replayed", "replays": 2, "app_change": None,
            "drift": [{"step": 2, "operation": 1, "description": "Type \"Davis\" into the last name field",
                       "before": "id=#lastName", "after": "id=#ownerLastName", "screenshot": None}]})
    if index % 25 == 7:
        return JobResult(state="passed", generation_attempts=1, timings=seconds, triage="flake",
                         triage_detail={"source": "replayed", "replays": 2, "drift": [], "app_change": None})
    return JobResult(state="passed", generation_attempts=1, timings=seconds, triage="passed",
                     triage_detail={"source": "replayed", "replays": 1, "drift": [], "app_change": None})


def seed(settings: ServiceSettings, *, scenarios: int = 6, api_key: str | None = None, name: str = "Pet clinic",
         base_url: str = "http://petclinic.test", with_artifacts: int = 6) -> Seeded:
    """A project (its key `api_key`, else a new one) with a finished nightly regeneration of `scenarios` scenarios
    (OWN-1 ...) and a finished on-demand batch of two (one failed at step 2); the first `with_artifacts` jobs of each
    have their artifacts."""
    engine = engine_for(settings.database_url)
    store = open_artifact_store(settings)
    definitions = [ScenarioDefinition(id=f"OWN-{n}", title=f"Finding owner {n} by last name",
                                      steps=[{"action": a, "expected": e} if e else a for a, e in STEPS])
                   for n in range(1, scenarios + 1)]
    with writing(engine) as session:
        project, key = create_project(session, name=name, base_url=base_url)
        if api_key is not None:
            project.api_key_hash, key = hash_key(api_key), api_key
            session.add(project)
            session.commit()
        rows = upsert_scenarios(session, project.id, definitions)
        session.commit()
        nightly, _ = create_batch(session, session.get(Project, project.id), idempotency_key=uuid.uuid4().hex,
                                  fingerprint="seed", scenarios=rows, base_url=base_url, brain="builtin",
                                  grounding="hte", kind="nightly")
        on_demand, _ = create_batch(session, session.get(Project, project.id), idempotency_key=uuid.uuid4().hex,
                                    fingerprint="seed", scenarios=rows[:2], base_url=base_url, brain="builtin",
                                    grounding="hte")
        nightly_jobs = list(session.exec(select(Job).where(Job.batch_id == nightly.id).order_by(Job.id)).all())
        on_demand_jobs = list(session.exec(select(Job).where(Job.batch_id == on_demand.id).order_by(Job.id)).all())
        seeded = Seeded(project.id, key, nightly.id, on_demand.id)
    for index, job in enumerate(nightly_jobs):
        result = nightly_result(index, job, store)
        if index < with_artifacts:
            store_job(store, job, definitions[index].title, failed_at=result.failed_step)
        if result.triage == "app_changed":  # its script generated afresh, which passed
            store_job(store, job, definitions[index].title, folder=f"candidate/{job.external_id}")
        finish_job(engine, job.id, None, result)
        seeded.jobs[f"nightly/{job.external_id}"] = job.id
    for index, job in enumerate(on_demand_jobs):
        failed_at = 2 if index == 1 else None
        store_job(store, job, definitions[index].title, failed_at=failed_at)
        finish_job(engine, job.id, None, JobResult(
            state="failed" if failed_at else "passed", failed_step=failed_at,
            failure_kind="expectation" if failed_at else None,
            reason='step 2: expected the last name field to hold "Davis", it holds "<empty>"' if failed_at else None,
            generation_attempts=2 if failed_at else 1, timings={"seconds": 9.0 if failed_at else 4.2},
            model_usage={"total": {"calls": 3, "cost": 0.0021}}))
        seeded.jobs[f"on_demand/{job.external_id}"] = job.id
    with writing(engine) as session:  # the suites as a worker builds them: ready
        for batch_id in (seeded.nightly_id, seeded.on_demand_id):
            batch = session.get(Batch, batch_id)
            batch.suite_state = "ready"
            session.add(batch)
            store.put_bytes(f"projects/{project.id}/batches/{batch_id}/suite.zip", b"PK\x05\x06" + b"\0" * 18,
                            "application/zip")
        session.commit()
    return seeded
