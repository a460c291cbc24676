"""A batch's deliverables: its suite as one zip, and what changed since the previous batch.

The zip is rebuilt from the passed jobs' run records (the script phase is a pure function of them, so no browser
is needed), each read from the attempt folder of the claim that finished its job, written once into the artifact
store beside the batch, and served from there afterwards. It carries the batch's base URL in stepforge.json, so
`npm install && npx cucumber-js` runs it as it is (STEPFORGE_BASE_URL still overrides it).
"""

from __future__ import annotations

import io
import tempfile
import zipfile
from pathlib import Path

from shared.artifacts import ArtifactNotFoundError, ArtifactStore
from shared.models import Batch, Job
from shared.records import RunRecord
from shared.scenarios import Scenario as ScenarioDefinition
from shared.step_registry import RegistryError, StepRegistry, origin_of
from workers.agent.scenario_run import attempt_prefix
from workers.agent.scripting.build import build_suite
from workers.service import batch_prefix, job_artifacts_prefix

SUITE_FOLDER = "suite"  # the zip's top folder: unzip, cd suite, npm install && npx cucumber-js


def suite_zip(batch: Batch, jobs: list[tuple[Job, ScenarioDefinition]], store: ArtifactStore,
              registry: StepRegistry | None) -> bytes:
    """The finished batch's suite (its passed scenarios) as a zip of a cucumber-js project."""
    key = batch_prefix(batch.project_id, batch.id) + "suite.zip"
    try:
        return store.get_bytes(key)
    except ArtifactNotFoundError:
        pass
    runs = []
    for job, scenario in jobs:
        record_key = f"{job_artifacts_prefix(job)}{attempt_prefix(job.external_id, job.generation_attempts or 1)}/run.json"
        runs.append((scenario, RunRecord.model_validate_json(store.get_bytes(record_key))))
    try:
        # The registry's steps for the origin, as each job used them: the same wording and code.
        suite = build_suite(runs, registry, origin_of(batch.base_url)) if registry else build_suite(runs)
    except RegistryError:
        suite = build_suite(runs)
    with tempfile.TemporaryDirectory(prefix="stepforge-suite-") as work:
        folder = Path(work) / SUITE_FOLDER
        suite.write(folder, base_url=batch.base_url)
        data = _zip_folder(folder)
    store.put_bytes(key, data, "application/zip")
    return data


def _zip_folder(folder: Path) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for path in sorted(folder.rglob("*")):
            if path.is_file():
                archive.write(path, f"{folder.name}/{path.relative_to(folder).as_posix()}")
    return buffer.getvalue()


def changes(previous: list[Job], current: list[Job]) -> dict:
    """Scenarios whose verdict changed, steps whose locators changed, scenarios added and removed."""
    before = {job.external_id: job for job in previous}
    after = {job.external_id: job for job in current}
    verdicts, locators = [], []
    for external_id, job in after.items():
        old = before.get(external_id)
        if old is None:
            continue
        if _verdict(old) != _verdict(job):
            verdicts.append({"external_id": external_id, "before": _verdict(old), "after": _verdict(job)})
        old_steps = {step["pattern"]: step["locators"] for step in old.script or []}
        for step in job.script or []:
            was = old_steps.get(step["pattern"])
            if was is not None and was != step["locators"]:
                locators.append({"external_id": external_id, "step": step["step"], "before": was,
                                 "after": step["locators"]})
    return {
        "verdicts": verdicts,
        "locators": locators,
        "added": sorted(set(after) - set(before)),
        "removed": sorted(set(before) - set(after)),
    }


def _verdict(job: Job) -> dict:
    return {"state": job.state, "failed_step": job.failed_step, "failure_kind": job.failure_kind,
            "reason": job.reason}
