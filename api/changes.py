"""What changed with a batch, scenario by scenario, in natural order of their ids (OWN-2 before OWN-10):

- verdicts: against the scenario's latest earlier job, whatever batch ran it;
- locators: the steps whose locators moved since the scenario's latest verified script;
- triage (a regeneration): how many scenarios fell in each class, and for each scenario what it found: drift's old
  and new locators with a picture of the element, app_changed's failed step with the expected and the actual;
  cost: per class, the scenarios, their model calls and their seconds;
- app_changed: the scenario generated afresh beside its kept script (the candidate): its verdict, and when it
  passed, the diff and the route that accepts it;
- added: scenarios this batch verified that no earlier batch had (they joined the suite); removed: scenarios
  deleted since the previous batch;
- flakiness: the scenarios that were a flake in some regeneration up to this batch, how often.
"""

from __future__ import annotations

from collections.abc import Callable

from sqlmodel import Session

from shared.models import Batch, Job
from shared.scenarios import natural_key
from shared.store import deleted_scenarios, earlier_jobs, flakiness, jobs_of
from shared.triage import TRIAGE_ORDER


def batch_report(session: Session, batch: Batch, link: Callable[[Job, str], str],
                 accept: Callable[[Job], str]) -> dict:
    """What changed with the batch (`changes`), read from the store, with the caller's links (GET
    /v1/batches/{id}/changes). The dashboard's morning report reads less: store.morning_report."""
    current = jobs_of(session, batch.id)
    ids = [job.external_id for job in current]
    earlier = earlier_jobs(session, batch.project_id, batch.id, ids)
    verified = earlier_jobs(session, batch.project_id, batch.id, ids, passed=True)
    previous_ids = [job.external_id for job in jobs_of(session, batch.previous_batch_id)] \
        if batch.previous_batch_id else []
    removed = deleted_scenarios(session, batch.project_id, previous_ids, before=batch.created_at)
    return changes(current, earlier, verified, removed, link=link, accept=accept,
                   flakiness=flakiness(session, batch.project_id, batch.id, ids))


def changes(current: list[Job], earlier: dict[str, Job], verified: dict[str, Job], removed: list[str],
            link: Callable[[Job, str], str] = lambda job, key: key,
            accept: Callable[[Job], str] = lambda job: f"jobs/{job.id}/accept",
            flakiness: dict[str, tuple[int, int]] | None = None) -> dict:
    """`earlier`/`verified`: by external id, the latest earlier finished / verified job (store.earlier_jobs);
    `link`: a job's artifact key as the URL that serves it; `accept`: a job's accept route;
    `flakiness`: by external id, (flakes, regenerations) up to this batch (store.flakiness)."""
    jobs = sorted(current, key=lambda job: natural_key(job.external_id))
    verdicts, locators = [], []
    for job in jobs:
        old = earlier.get(job.external_id)
        if old is not None and _verdict(old) != _verdict(job):
            verdicts.append({"external_id": job.external_id, "before": _verdict(old), "after": _verdict(job)})
        script = verified.get(job.external_id)
        old_steps = {step["pattern"]: step["locators"] for step in (script.script if script else None) or []}
        for step in job.script or []:
            was = old_steps.get(step["pattern"])
            if was is not None and was != step["locators"]:
                locators.append({"external_id": job.external_id, "step": step["step"], "before": was,
                                 "after": step["locators"]})
    triaged = [triage_entry(job, link, accept) for job in jobs if job.triage]
    cost = {}
    for name in TRIAGE_ORDER:
        group = [job for job in jobs if job.triage == name]
        if group:
            cost[name] = {"scenarios": len(group),
                          "model_calls": sum(int(((job.model_usage or {}).get("total") or {}).get("calls", 0))
                                             for job in group),
                          "seconds": round(sum(float((job.timings or {}).get("seconds") or 0) for job in group), 2)}
    return {
        "verdicts": verdicts,
        "locators": locators,
        "triage": {name: count for name in TRIAGE_ORDER
                   if (count := sum(1 for entry in triaged if entry["triage"] == name))},
        "triaged": triaged,
        "cost": cost,
        "added": [job.external_id for job in jobs if job.external_id not in verified and job.state == "passed"],
        "removed": removed,
        "flakiness": [{"external_id": external_id, "flakes": flakes, "regenerations": total}
                      for external_id, (flakes, total) in sorted((flakiness or {}).items(),
                                                                  key=lambda item: natural_key(item[0]))
                      if flakes],
    }


def _verdict(job: Job) -> dict:
    return {"state": job.state, "failed_step": job.failed_step, "failure_kind": job.failure_kind,
            "reason": job.reason}


def triage_entry(job: Job, link: Callable[[Job, str], str], accept: Callable[[Job], str]) -> dict:
    detail = job.triage_detail or {}

    def picture(item: dict) -> dict:
        return {**item, "screenshot": link(job, item["screenshot"]) if item.get("screenshot") else None}

    candidate = detail.get("candidate")
    if candidate is not None:
        candidate = {**{k: v for k, v in candidate.items() if k not in ("run_record", "script")},
                     "diff": link(job, candidate["diff"]) if candidate.get("diff") else None,
                     "accept": accept(job) if candidate.get("passed") and job.accepted_at is None else None,
                     "accepted_at": job.accepted_at}

    return {
        "external_id": job.external_id,
        "job_id": job.id,
        "triage": job.triage,
        "verdict": _verdict(job),
        "replays": detail.get("replays", 0),
        "drift": [picture(change) for change in detail.get("drift", [])],
        "app_change": picture(detail["app_change"]) if detail.get("app_change") else None,
        "candidate": candidate,
    }
