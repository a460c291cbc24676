"""`stepforge regenerate SUITE_DIR`: the suite folder's verified scripts replayed first, every red one triaged
(flake, drift healed, app_changed kept and tagged @failing and generated afresh beside, broken_environment), changed
scenarios generated again; the triage table printed, the report written (see workers/agent/regeneration/)."""

from __future__ import annotations

import argparse
from pathlib import Path

from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, Progress, TextColumn
from rich.table import Table

from shared.artifacts import open_artifact_store
from shared.scenarios import load_scenarios
from shared.step_registry.factory import open_step_registry
from shared.triage import Triage
from workers.agent.choice import open_agent
from workers.agent.pipeline import SUITE_MARKER, PipelineEvents
from workers.agent.regeneration.regenerate import Regeneration, regenerate_suite
from workers.agent.scripting.build import DEFAULT_FEATURE
from workers.agent.scripting.verified import read_feature, read_verified
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
            result = regenerate_suite(
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
