"""A finished batch's one suite: built from its passed jobs' run records, replayed as a whole with cucumber-js, and
stored beside the batch as suite.zip with its replay report (suite-replay.json). The API only serves the bytes.

The script phase is a pure function of the run records; the step registry gives each step the wording and code the
jobs registered, so a step several jobs share is defined once. A scenario red in the combined replay stays in the
suite and is named in the batch's status (suite_failed), never dropped silently. The zip carries the batch's base
URL in stepforge.json, so `npm install && npx cucumber-js` runs it as it is (STEPFORGE_BASE_URL still overrides it).
"""

from __future__ import annotations

import io
import json
import tempfile
import zipfile
from dataclasses import dataclass, field
from pathlib import Path

from shared.artifacts import ArtifactStore
from shared.models import Batch, Job
from shared.records import RunRecord
from shared.scenarios import Scenario
from shared.settings import Settings
from shared.step_registry import RegistryError, StepRegistry, origin_of
from shared.store import batch_prefix, job_artifacts_prefix
from workers.agent.scenario_run import attempt_prefix
from workers.agent.scripting.build import build_suite
from workers.agent.verify.replay import replay_scenarios

SUITE_FOLDER = "suite"  # the zip's top folder: unzip, cd suite, npm install && npx cucumber-js


@dataclass
class BatchSuite:
    state: str  # "ready" (suite.zip stored) or "empty" (no scenario passed)
    failed: dict[str, str] = field(default_factory=dict)  # scenario id -> why it is red in the combined replay


def suite_key(batch: Batch) -> str:
    return batch_prefix(batch.project_id, batch.id) + "suite.zip"


def assemble(batch: Batch, jobs: list[tuple[Job, Scenario]], store: ArtifactStore, registry: StepRegistry | None,
             settings: Settings) -> BatchSuite:
    """Build, replay and store the suite of these (passed) jobs."""
    if not jobs:
        return BatchSuite("empty")
    runs = []
    for job, scenario in jobs:
        record_key = f"{job_artifacts_prefix(job)}{attempt_prefix(job.external_id, job.generation_attempts or 1)}/run.json"
        runs.append((scenario, RunRecord.model_validate_json(store.get_bytes(record_key))))
    try:
        suite = build_suite(runs, registry, origin_of(batch.base_url)) if registry else build_suite(runs)
    except RegistryError:
        suite = build_suite(runs)
    with tempfile.TemporaryDirectory(prefix="stepforge-batch-suite-") as work:
        folder = Path(work) / SUITE_FOLDER
        suite.write(folder, base_url=batch.base_url)
        data = zip_folder(folder)  # before the replay: its reports and runtime link are not the suite's
        results = replay_scenarios(folder, [scenario.id for scenario, _ in runs], batch.base_url, settings)
    failed = {scenario_id: result.error or "failed" for scenario_id, result in sorted(results.items())
              if not result.passed}
    report = {scenario_id: result.model_dump(mode="json") for scenario_id, result in sorted(results.items())}
    prefix = batch_prefix(batch.project_id, batch.id)
    store.put_bytes(prefix + "suite-replay.json", json.dumps(report, indent=2).encode(), "application/json")
    store.put_bytes(suite_key(batch), data, "application/zip")
    return BatchSuite("ready", failed)


def zip_folder(folder: Path) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for path in sorted(folder.rglob("*")):
            if path.is_file():
                archive.write(path, f"{folder.name}/{path.relative_to(folder).as_posix()}")
    return buffer.getvalue()
