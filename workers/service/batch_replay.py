"""A regeneration's first pass: the batch's verified scripts replayed together, in one cucumber-js run.

A nightly (or `regenerate`) batch whose application did not change should cost one replay of its suite, not a job
per scenario. The replay_batch task claims the jobs whose scenario version has a verified script (the run record of
its latest passed job), builds their suite from those records, replays it once, and settles every green scenario
(triage "passed", the verified record kept as the job's run record). A red one is released and sent as a job of its
own, which replays it again and triages it (workers/agent/regeneration/triage.py); so is a job whose scenario
version was never verified (generated). A job another worker holds is left to it.

    replay_first(jobs, ...) -> ReplayFirst  (plain data: the verdicts of the green jobs, the ids of the others)
"""

from __future__ import annotations

import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from shared.artifacts import ArtifactStore, put_json, put_model
from shared.models import Batch, Job
from shared.models import Scenario as ScenarioRow
from shared.records import attempt_prefix
from shared.scenarios import natural_key
from shared.settings import Settings
from shared.step_registry import StepRegistry, origin_of
from shared.store import JobResult, batch_prefix, scenario_from_row
from workers.agent.pipeline import suite_digest
from workers.agent.scripting.build import build_with_registry
from workers.agent.verify.replay import replay_scenarios
from workers.service.scenario_job import claim_store, script_summary, verified_record

CHUNK = 50  # scenarios per cucumber-js run of the first pass
SECONDS_PER_SCENARIO = 10  # a chunk is started only when this much time per scenario is left before the deadline
FIRST_PASS = "replay-first.json"  # beside the batch's suite: the first pass's suite digest and replay results


@dataclass
class Settled:
    job_id: int
    verdict: JobResult
    attempt: int


@dataclass
class ReplayFirst:
    settled: list[Settled] = field(default_factory=list)  # green: verdicts to write
    red: list[int] = field(default_factory=list)  # released: to send as jobs of their own


def replay_first(batch: Batch, claimed: list[tuple[Job, ScenarioRow, Job]], store: ArtifactStore,
                 registry: StepRegistry | None, settings: Settings, deadline: float,
                 reset: str | None = None) -> ReplayFirst:
    """Replay the claimed jobs' verified scripts (job, its scenario version, its latest passed job) in runs of CHUNK
    scenarios; the green ones' verdicts, with their run records stored in their claims' folders, and the ids of the
    others: red, unreadable, or left for lack of time before `deadline` (time.monotonic()) to run on their own."""
    out = ReplayFirst()
    if not claimed:
        return out
    claimed = sorted(claimed, key=lambda item: natural_key(item[1].external_id))  # the order the batch's suite has
    records = {job.id: verified_record(store, verified) for job, _row, verified in claimed}
    out.red.extend(job.id for job, _row, _verified in claimed if records[job.id] is None)  # generated on their own
    claimed = [item for item in claimed if records[item[0].id] is not None]
    if not claimed:
        return out
    runs = [(scenario_from_row(row), records[job.id]) for job, row, _verified in claimed]
    origin = origin_of(batch.base_url)
    chunks = [list(range(start, min(start + CHUNK, len(runs)))) for start in range(0, len(runs), CHUNK)]
    for number, chunk in enumerate(chunks):
        if number and time.monotonic() + len(chunk) * SECONDS_PER_SCENARIO > deadline:
            out.red.extend(claimed[i][0].id for chunk_left in chunks[number:] for i in chunk_left)  # run on their own
            break
        part = [runs[i] for i in chunk]
        suite, _problem = build_with_registry(part, registry, origin, feature=batch.feature)
        with tempfile.TemporaryDirectory(prefix="stepforge-replay-first-") as work:
            folder = Path(work) / "suite"
            suite.write(folder, base_url=batch.base_url)
            results = replay_scenarios(folder, [scenario.id for scenario, _ in part], batch.base_url, settings,
                                       reset)
        if len(chunks) == 1:  # the batch's suite, when it holds exactly these scripts, reuses this replay
            put_json(store, batch_prefix(batch.project_id, batch.id) + FIRST_PASS, {
                "digest": suite_digest(suite), "results": {i: r.model_dump(mode="json") for i, r in results.items()}})
        for i in chunk:
            (job, _row, _verified), (scenario, record) = claimed[i], runs[i]
            result = results[scenario.id]
            if not result.passed:
                out.red.append(job.id)
                continue
            job_store = claim_store(store, _ClaimView(job))
            put_model(job_store, f"{attempt_prefix(scenario.id, 1)}/run.json", record.model_copy(update={"attempt": 1}))
            put_model(job_store, "replay.json", result)
            detail = {"source": "replayed", "replays": 1, "drift": [], "app_change": None,
                      "seconds": round(result.seconds, 2)}
            out.settled.append(Settled(job.id, JobResult(
                state="passed", generation_attempts=1, timings={"seconds": round(result.seconds, 2), "replays": 1},
                script=script_summary(suite, scenario.id), triage="passed", triage_detail=detail), job.attempt))
    return out


@dataclass
class _ClaimView:
    """What claim_store needs of a claim: the job, as this pass claimed it."""

    job: Job
