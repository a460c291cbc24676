"""A regeneration's first pass: the batch's verified scripts replayed in chunks that any worker runs side by side.

A nightly (or `regenerate`) batch whose application did not change should cost one replay of its suite, not a job
per scenario, and its night should shorten as workers are added. The sender splits the batch's jobs into chunks
(shared/job_queue.py: their size from the fleet and the suite); each replay_chunk task claims the jobs of its chunk
whose scenario version has a verified script (the run record of its latest passed job), replays them, and settles
every green one (triage "passed", the verified record kept as the job's run record). A red one is released and sent
as a job of its own, which replays it again and triages it (workers/agent/regeneration/triage.py); so is a job whose
scenario version was never verified (generated). A job another worker holds is left to it.

Every chunk replays its part of one text: the batch's first-pass suite, built once from all of the batch's verified
scripts (by the first chunk to run, under a lock of the batch; the others read it from the store). So the results
of all chunks together are a replay of that suite, and the batch's suite build reuses them when it builds the same text
(batch_suite.first_pass_results) instead of replaying the whole suite again on one worker.

    first_pass_suite(batch, store, registry, verified_scripts) -> FirstPassSuite  (the text, built or read)
    replay_first(batch, claimed, suite, ...) -> ReplayFirst  (plain data: the green jobs' verdicts, the others' ids)
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import json
import tempfile
import zipfile
from collections.abc import Callable
from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from pathlib import Path

from shared.artifacts import ArtifactNotFoundError, ArtifactStore, put_json, put_model, zip_folder
from shared.logging import log
from shared.models import Batch, Job
from shared.models import Scenario as ScenarioRow
from shared.records import ReplayResult, RunRecord, attempt_prefix, cut_reason
from shared.scenarios import Scenario, natural_key
from shared.settings import Settings
from shared.step_registry import StepRegistry, origin_of
from shared.store import JobResult, batch_prefix, scenario_from_row
from workers.agent.pipeline import suite_digest
from workers.agent.scripting.build import build_with_registry
from workers.agent.verify.replay import replay_scenarios
from workers.service.scenario_job import claim_store, script_summary, verified_record

FIRST_PASS = "replay-first/"  # beside the batch's suite: the first-pass suite and each chunk's replay results
SUITE_KEY = FIRST_PASS + "suite.zip"
RESULTS_KEY = FIRST_PASS + "results-"  # + the chunk's first job id + .json
MANIFEST = "first-pass.json"  # in the zip's suite/: the digest, each script's fingerprint and summary


@dataclass
class Settled:
    job_id: int
    verdict: JobResult
    attempt: int


@dataclass
class ReplayFirst:
    settled: list[Settled] = field(default_factory=list)  # green: verdicts to write
    red: list[int] = field(default_factory=list)  # replayed red: to send as jobs of their own (their second try)
    unreplayed: list[int] = field(default_factory=list)  # never replayed here: to send as jobs, their claim undone


@dataclass
class FirstPassSuite:
    """The batch's first-pass suite: its folder zipped, the digest of its text (suite_digest), and for each
    scenario the fingerprint of the verified script it was built from and its steps' summary (script_summary)."""

    data: bytes
    digest: str
    scripts: dict[str, str]
    summaries: dict[str, list | None]

    def write(self, folder: Path) -> Path:
        with zipfile.ZipFile(io.BytesIO(self.data)) as archive:
            archive.extractall(folder)
        return folder / "suite"


def fingerprint(record: RunRecord) -> str:
    """The verified script's identity (its attempt number apart: a copy kept by a replay is attempt 1)."""
    return hashlib.sha256(record.model_dump_json(exclude={"attempt"}).encode()).hexdigest()


def first_pass_suite(batch: Batch, store: ArtifactStore, registry: StepRegistry | None,
                     verified_scripts: Callable[[], list[tuple[Scenario, RunRecord]]],
                     lock: Callable[[], AbstractContextManager] = contextlib.nullcontext) -> FirstPassSuite | None:
    """The batch's first-pass suite as stored, or built from `verified_scripts()` (every verified script of the
    batch) and stored; None when the batch has none. `lock` (shared.store.batch_lock) is held while it is looked for
    again and built: the chunks that start together wait for the first one's suite instead of each building one."""
    key = batch_prefix(batch.project_id, batch.id) + SUITE_KEY
    if (stored := _stored_suite(store, key)) is not None:
        return stored
    with lock():
        if (stored := _stored_suite(store, key)) is not None:
            return stored
        runs = sorted(verified_scripts(), key=lambda run: natural_key(run[0].id))  # the order the batch's suite has
        if not runs:
            return None
        suite, _problem = build_with_registry(runs, registry, origin_of(batch.base_url), feature=batch.feature)
        manifest = {"digest": suite_digest(suite),
                    "scripts": {scenario.id: fingerprint(record) for scenario, record in runs},
                    "summaries": {scenario.id: script_summary(suite, scenario.id) for scenario, _ in runs}}
        with tempfile.TemporaryDirectory(prefix="stepforge-first-pass-") as work:
            folder = Path(work) / "suite"
            suite.write(folder, base_url=batch.base_url)
            (folder / MANIFEST).write_text(json.dumps(manifest))
            data = zip_folder(folder)
        store.put_bytes(key, data, "application/zip")
    return FirstPassSuite(data, manifest["digest"], manifest["scripts"], manifest["summaries"])


def _stored_suite(store: ArtifactStore, key: str) -> FirstPassSuite | None:
    try:
        data = store.get_bytes(key)
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            manifest = json.loads(archive.read(f"suite/{MANIFEST}"))
        return FirstPassSuite(data, manifest["digest"], manifest["scripts"], manifest["summaries"])
    except (ArtifactNotFoundError, KeyError, ValueError, zipfile.BadZipFile):
        return None


def replay_first(batch: Batch, claimed: list[tuple[Job, ScenarioRow, Job]], suite: FirstPassSuite | None,
                 store: ArtifactStore, settings: Settings, reset: str | None = None) -> ReplayFirst:
    """Replay the claimed jobs' verified scripts (job, its scenario version, its latest passed job) as their part of
    the batch's first-pass suite, in one cucumber-js run; the green ones' verdicts, with their run records stored in
    their claims' folders, and the ids of the others: red, unreadable, or whose verified script is not the one the
    suite was built from (a newer one verified since), to run on their own. The chunk's results are stored
    (RESULTS_KEY) for the batch's suite build."""
    out = ReplayFirst()
    records = {job.id: verified_record(store, verified) for job, _row, verified in claimed}
    scripts = suite.scripts if suite is not None else {}
    runs = []
    for job, row, _verified in claimed:
        scenario, record = scenario_from_row(row), records[job.id]
        if record is None:
            out.unreplayed.append(job.id)  # generated on its own
        elif scripts.get(scenario.id) != fingerprint(record):  # verified again since the suite was built
            log.info("replay_first.not_in_suite", job_id=job.id, scenario_id=scenario.id)
            out.unreplayed.append(job.id)  # replayed and triaged on its own
        else:
            runs.append((job, scenario, record))
    if not runs or suite is None:
        return out
    with tempfile.TemporaryDirectory(prefix="stepforge-replay-first-") as work:
        folder = suite.write(Path(work))
        results = replay_scenarios(folder, [scenario.id for _job, scenario, _record in runs], batch.base_url,
                                   settings, reset)
    store_results(store, batch, suite.digest, runs[0][0].id, results)
    for job, scenario, record in runs:
        result = results[scenario.id]
        if not result.passed:
            log.info("replay_first.red", job_id=job.id, scenario_id=scenario.id, error=cut_reason(result.error or ""))
            out.red.append(job.id)
            continue
        job_store = claim_store(store, _ClaimView(job))
        put_model(job_store, f"{attempt_prefix(scenario.id, 1)}/run.json", record.model_copy(update={"attempt": 1}))
        put_model(job_store, "replay.json", result)
        detail = {"source": "replayed", "replays": 1, "drift": [], "app_change": None,
                  "seconds": round(result.seconds, 2)}
        out.settled.append(Settled(job.id, JobResult(
            state="passed", generation_attempts=1, timings={"seconds": round(result.seconds, 2), "replays": 1},
            script=suite.summaries.get(scenario.id), triage="passed", triage_detail=detail), job.attempt))
    return out


def store_results(store: ArtifactStore, batch: Batch, digest: str, chunk: int,
                  results: dict[str, ReplayResult]) -> None:
    """The chunk's replay results, added to those an earlier run of the same chunk stored for the same text."""
    key = f"{batch_prefix(batch.project_id, batch.id)}{RESULTS_KEY}{chunk}.json"
    try:
        earlier = json.loads(store.get_bytes(key))
    except (ArtifactNotFoundError, ValueError):
        earlier = {}
    kept = earlier.get("results", {}) if earlier.get("digest") == digest else {}
    kept.update({i: r.model_dump(mode="json") for i, r in results.items()})
    put_json(store, key, {"digest": digest, "results": kept})


def first_pass_results(store: ArtifactStore, batch: Batch, digest: str) -> dict[str, ReplayResult]:
    """Every chunk's results for the first-pass suite of this digest, together; a scenario replayed more than once
    (a chunk run again after its worker died) is red when any of its replays was."""
    prefix = batch_prefix(batch.project_id, batch.id) + RESULTS_KEY
    merged: dict[str, ReplayResult] = {}
    for info in store.list(prefix):
        try:
            stored = json.loads(store.get_bytes(info.key))
        except (ArtifactNotFoundError, ValueError):
            continue
        if stored.get("digest") != digest:
            continue
        for scenario_id, raw in stored.get("results", {}).items():
            result = ReplayResult.model_validate(raw)
            if scenario_id not in merged or not result.passed:
                merged[scenario_id] = result
    return merged


@dataclass
class _ClaimView:
    """What claim_store needs of a claim: the job, as this pass claimed it."""

    job: Job
