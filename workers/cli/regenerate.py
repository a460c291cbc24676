"""`stepforge regenerate SUITE_DIR [--scenarios FILE]`: the suite folder's verified scripts replayed first, every red
one triaged (flake, drift healed, app_changed kept and tagged @failing and generated afresh beside,
broken_environment), changed scenarios generated again (the job: workers/agent/regeneration/regenerate.py); the
folder written again, the triage table printed, the report written.

A scenario whose definition in FILE differs from the one its script was verified for, or that FILE adds, is generated
from scratch; one FILE no longer has leaves the suite. The folder then holds: the kept scripts (passed, flake,
broken_environment), the healed ones (drift), the generated ones that passed, and the app_changed ones as they were,
tagged @failing; an app_changed scenario's candidate that passed waits, with its diff, in .stepforge/candidates/ for
`stepforge accept`. The report (regeneration.json) gives every scenario's class, what changed, and the model calls
and seconds per class.
"""

from __future__ import annotations

import argparse
import contextlib
import time
from pathlib import Path

from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, Progress, TextColumn
from rich.table import Table

from shared.artifacts import ArtifactStore, open_artifact_store
from shared.artifacts.prefixed import PrefixedStore
from shared.logging import log
from shared.scenarios import Scenario, load_scenarios, natural_key
from shared.settings import Settings
from shared.step_registry import RegistryError, StepRegistry, origin_of
from shared.step_registry.factory import open_step_registry
from shared.triage import FAILING_TAG, Triage, VerifiedScript
from workers.agent.choice import Agent, open_agent
from workers.agent.execution.browser import BrowserSession
from workers.agent.pipeline import SUITE_MARKER, PipelineEvents
from workers.agent.regeneration.regenerate import Regeneration, regenerate_scenarios
from workers.agent.scripting.build import DEFAULT_FEATURE, build_with_registry, new_steps
from workers.agent.scripting.verified import (
    clear_candidates,
    read_feature,
    read_verified,
    write_candidate,
    write_verified,
)
from workers.agent.verify.node_runtime import ensure_runtime
from workers.cli.common import (
    EXIT_ALL_PASSED,
    EXIT_SOME_FAILED,
    ClockColumn,
    UsageError,
    check_reachable,
    load_settings,
    one_line,
    project_name,
    report_file,
    write_report,
)

COLOURS = {"passed": "green", "flake": "yellow", "drift": "cyan", "generated": "blue", "app_changed": "red",
           "broken_environment": "magenta"}


def regenerate(args: argparse.Namespace, console: Console) -> int:
    suite_dir: Path = args.suite.resolve()
    if not suite_dir.is_dir() or not (suite_dir / SUITE_MARKER).exists():
        raise UsageError(f"{suite_dir} is not a suite folder written by stepforge (no {SUITE_MARKER})")
    scenario_file = load_scenarios(args.scenarios) if args.scenarios else None
    # Files to upload: beside the scenarios file, else the ones the suite ships.
    files_dir = Path(args.scenarios).resolve().parent / "files" if args.scenarios else suite_dir / "files"
    settings = load_settings(args, suite_dir, files_dir)
    verified = read_verified(suite_dir)
    base_url = args.base_url or verified[0].record.base_url
    check_reachable(base_url, settings)
    reset_command = args.reset_command or (scenario_file.reset_command if scenario_file else None)
    report_path = report_file(args, settings, "regeneration.json")
    store = open_artifact_store(settings)
    ensure_runtime(settings)
    project = project_name(args, suite_dir.name)
    agent = open_agent(settings, args.brain or (scenario_file.brain if scenario_file else None),
                       args.grounding or (scenario_file.grounding if scenario_file else None))
    registry = open_step_registry(settings)
    try:
        with Progress(TextColumn("{task.description}"), BarColumn(), ClockColumn(), console=console) as bar:
            task = bar.add_task("regenerating", total=None)
            events = PipelineEvents(
                on_phase=lambda text: bar.update(task, description=text),
                on_scenario=lambda scenario_id, attempt: bar.update(
                    task, description=f"generating {scenario_id} (attempt {attempt})"))
            result = regenerate_folder(
                suite_dir, base_url=base_url, settings=settings, store=store,
                scenarios=scenario_file.scenarios if scenario_file else None,
                feature=(scenario_file.feature if scenario_file and scenario_file.feature
                         else read_feature(suite_dir, DEFAULT_FEATURE)),
                reset_command=reset_command, events=events, registry=registry, project=project, agent=agent)
            bar.update(task, description="done")
    finally:
        registry.close()
        agent.close()
    artifacts = write_report(report_path, result.report_json(), settings)
    print_triage(Console(soft_wrap=True), result, suite_dir, artifacts, report_path)
    settled = all(t.verdict.status == "passed" for t in result.triage)
    return EXIT_ALL_PASSED if settled else EXIT_SOME_FAILED


def regenerate_folder(suite_dir: Path, *, base_url: str, settings: Settings, store: ArtifactStore,
                      scenarios: list[Scenario] | None, feature: str, reset_command: str | None,
                      events: PipelineEvents, registry: StepRegistry | None, project: str, agent: Agent
                      ) -> Regeneration:
    """The regeneration of the suite folder's scenarios (those of `scenarios` when given), written back to it."""
    started = time.perf_counter()
    verified = {script.scenario.id: script for script in read_verified(suite_dir)}
    wanted = list(scenarios) if scenarios is not None else [script.scenario for script in verified.values()]
    unchanged = [verified[s.id] for s in wanted if s.id in verified and verified[s.id].scenario == s]
    changed = [s for s in wanted if not (s.id in verified and verified[s.id].scenario == s)]
    removed = sorted((i for i in verified if i not in {s.id for s in wanted}), key=natural_key)
    with BrowserSession(settings) as session:
        done = regenerate_scenarios(unchanged, changed, session, base_url=base_url, settings=settings, store=store,
                                    candidate_store=PrefixedStore(store, "candidates/"), agent=lambda: agent,
                                    reset_command=reset_command, events=events, registry=registry, project=project,
                                    feature=feature, work_dir=suite_dir.resolve().parent)
    clear_candidates(suite_dir)
    for scenario_id, candidate in done.candidates.items():
        run_record = diff = None
        if candidate.passed:
            assert candidate.record is not None
            run_record, diff = write_candidate(suite_dir, VerifiedScript(scenario=candidate.scenario,
                                                                         record=candidate.record), candidate.diff)
        done.triage[scenario_id].candidate = candidate.script(run_record, diff)
    runs = done.kept_runs()
    failing = {s.id: [FAILING_TAG] for s, _ in runs if done.triage[s.id].triage == "app_changed"}
    origin = origin_of(base_url) if registry is not None else None
    suite, problem = build_with_registry(runs, registry, origin, feature, failing)
    events.on_phase("writing the suite")
    suite.write(suite_dir, files_dir=settings.files_dir)
    (suite_dir / SUITE_MARKER).write_text("written by stepforge; its next run may overwrite this folder\n")
    write_verified(suite_dir, [VerifiedScript(scenario=s, record=r) for s, r in runs], feature, failing=list(failing))
    if registry is not None and suite.new_definitions and origin is not None:
        with contextlib.suppress(RegistryError):
            registry.register(project, origin, new_steps(suite.new_definitions))
    result = Regeneration(base_url, [done.triage[i] for i in sorted(done.triage, key=natural_key)], suite, removed,
                          problem or done.registry_problem, time.perf_counter() - started)
    log.info("regeneration.done", **result.counts(), seconds=round(result.seconds, 2))
    return result


def shown(triage: Triage) -> str:
    colour = COLOURS[triage.triage]
    verdict = triage.verdict
    if verdict.status == "passed":
        detail = {"flake": f"green on try {triage.replays}", "drift": f"{len(triage.drift)} step(s) healed"}.get(
            triage.triage, "")
    else:
        at = f" at step {verdict.step}" if verdict.step else ""
        detail = f"failed{at} ({verdict.kind}): {escape(one_line(verdict.reason))}"
    return f"[{colour}]{triage.triage}[/]" + (f" {detail}" if detail else "")


def print_triage(console: Console, result: Regeneration, suite_dir: Path, artifacts: Path | str, report: Path
                 ) -> None:
    table = Table(title="stepforge: regeneration")
    for column, justify in (("scenario", "left"), ("triage", "left"), ("replays", "right"), ("model calls", "right"),
                            ("seconds", "right")):
        table.add_column(column, justify=justify, no_wrap=True,  # type: ignore[arg-type]
                         overflow="ellipsis" if column == "triage" else "fold",
                         max_width=max(24, console.width - 60) if column == "triage" else None)
    for triage in result.triage:
        table.add_row(triage.scenario_id, shown(triage), str(triage.replays), str(triage.model_calls),
                      f"{triage.seconds:.1f}")
    console.print(table)
    counts = ", ".join(f"{name} {count}" for name, count in result.counts().items() if count)
    console.print(f"{len(result.triage)} scenario(s): {counts}; model calls "
                  f"{sum(t.model_calls for t in result.triage)}; {result.seconds:.1f} s", highlight=False)
    for triage in result.triage:
        for change in triage.drift:
            console.print(f"  {triage.scenario_id} step {change.step} ({escape(change.description)}): "
                          f"{escape(change.before)} -> {escape(change.after)}", highlight=False)
    if result.removed:
        console.print(f"left the suite (no longer in the scenarios file): {', '.join(result.removed)}")
    if any(t.triage == "app_changed" for t in result.triage):
        console.print("app_changed scenarios keep their last verified script, tagged @failing "
                      "(npx cucumber-js --tags 'not @failing' skips them)", highlight=False)
    for triage in result.triage:
        candidate = triage.candidate
        if candidate is None:
            continue
        if candidate.passed:
            console.print(f"  {triage.scenario_id}: generated afresh, it passes another way; read "
                          f"{suite_dir / (candidate.diff or '')} and, if the change was intended: stepforge accept "
                          f"{suite_dir} {triage.scenario_id}", highlight=False)
        else:
            at = f" at step {candidate.failed_step}" if candidate.failed_step else ""
            console.print(f"  {triage.scenario_id}: generated afresh, it fails too{at} ({candidate.failure_kind}): "
                          "the application no longer does what the scenario says (a bug, or a scenario to change)",
                          highlight=False)
    if result.registry_problem:
        console.print(f"[yellow]step registry:[/] {escape(result.registry_problem)}", highlight=False)
    console.print(f"suite: {suite_dir}   artifacts: {artifacts}   report: {report}", highlight=False)
