"""What changed from one batch to the next: verdicts, step locators, scenarios added and removed."""

from __future__ import annotations

from shared.models import Job


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
