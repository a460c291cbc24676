"""Regeneration's plain data: a scenario's last verified script, and what replaying it found (its triage).

A regeneration replays each scenario's last verified script first, with no agent and no model. A green replay
keeps it. A red one gets one triage class:

- `flake`: green when replayed again; nothing is changed, the tries are counted.
- `drift`: a step's locator no longer finds exactly one element, but the element it recorded is found again by
  its own words, role and surroundings, and every later step and assertion holds: those steps get the new locator,
  the rest stays byte-identical, and the new script is verified by a replay.
- `app_changed`: an assertion no longer holds, or a step's element is not on the page at all. The scenario fails
  at that step and its script is not changed: the last verified one stays until a person accepts a change. The
  scenario is generated afresh beside it (its candidate): a person reads the diff and accepts the candidate when
  the change was intended; a candidate that fails too means the application no longer does what the scenario says.
- `broken_environment`: the start page does not load, the reset command fails, the browser crashed: nothing is
  concluded about the scenario.

A scenario whose definition changed since its script was verified is `generated` again from scratch.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

from shared.records import RunRecord, Verdict
from shared.scenarios import Scenario

CANDIDATE_FOLDER = "candidate/"  # where a service job keeps its script generated afresh, in its attempt folder
FAILING_TAG = "failing"  # an app_changed scenario keeps its last verified script in the suite under this tag
TriageClass = Literal["passed", "flake", "drift", "app_changed", "broken_environment", "generated"]
# The order the report lists them in: what needs a person first.
TRIAGE_ORDER: tuple[TriageClass, ...] = ("app_changed", "broken_environment", "drift", "flake", "generated",
                                         "passed")


class VerifiedScript(BaseModel):
    """A scenario's definition and the run record its verified script was built from: what a regeneration replays
    first (kept beside a CLI suite in .stepforge/records/, and as a passed job's run.json in the service)."""

    scenario: Scenario
    record: RunRecord


class LocatorChange(BaseModel):
    """A drifted step: its element found again, by its words, role and surroundings, under a new locator."""

    step: int  # 1-based scenario step
    operation: int  # the recorded operation's index
    description: str  # the operation, as recorded ("Click the Find Owner button")
    before: str
    after: str
    screenshot: str | None = None  # artifact key of the element, as the new locator finds it


class AppChange(BaseModel):
    """Where an app_changed scenario stops: the step, what was expected and what the page shows."""

    step: int | None
    kind: str  # "expectation" (an assertion no longer holds) or "action" (its element is not on the page)
    description: str
    expected: str | None = None
    actual: str | None = None
    reason: str
    screenshot: str | None = None


class CandidateScript(BaseModel):
    """An app_changed scenario generated afresh beside its kept script: its verdict, and when it passed, where its
    run record and the diff against the kept script are (relative to the job's or the suite's own folder)."""

    passed: bool
    failed_step: int | None = None
    failure_kind: str | None = None
    reason: str | None = None
    run_record: str | None = None
    diff: str | None = None
    model_calls: int = 0
    script: list[dict] | None = None  # the service's changes report: its steps and their locators


class Triage(BaseModel):
    """One scenario's regeneration: its class, the verdict, what changed, and what it cost."""

    scenario_id: str
    triage: TriageClass
    verdict: Verdict
    source: Literal["replayed", "healed", "generated"]
    replays: int = 0  # cucumber-js replays of the scenario (the flaky ones count their tries)
    drift: list[LocatorChange] = Field(default_factory=list)
    app_change: AppChange | None = None
    environment: str | None = None  # why the environment is broken (broken_environment)
    candidate: CandidateScript | None = None  # app_changed: generated afresh, for a person to accept or not
    model_calls: int = 0
    seconds: float = 0.0
