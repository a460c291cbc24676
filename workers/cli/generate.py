"""`stepforge generate`: scenarios file + base URL -> verified suite (cucumber-js or playwright-bdd), report and
artifacts."""

from __future__ import annotations

import argparse
from datetime import UTC, datetime
from pathlib import Path

from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn
from rich.table import Table

from shared.artifacts import open_artifact_store
from shared.scenarios import ScenarioFile, load_scenarios
from shared.step_registry.factory import open_step_registry
from workers.agent.choice import open_agent
from workers.agent.pipeline import SUITE_MARKER, GenerationResult, PipelineEvents, generate_suite
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
    write_results,
)


def only_scenarios(scenario_file: ScenarioFile, only: list[str] | None) -> ScenarioFile:
    """The file with only the scenarios --only names, in the file's order; an unknown id is a usage error."""
    if not only:
        return scenario_file
    wanted = [i.strip() for value in only for i in value.split(",") if i.strip()]
    known = {s.id for s in scenario_file.scenarios}
    unknown = [i for i in wanted if i not in known]
    if unknown:
        raise UsageError(f"--only: no scenario {', '.join(map(repr, unknown))} in the file "
                         f"(its ids: {', '.join(sorted(known))})")
    return scenario_file.model_copy(update={"scenarios": [s for s in scenario_file.scenarios if s.id in wanted]})


def generate(args: argparse.Namespace, console: Console) -> int:
    settings = load_settings(args, Path(args.out), Path(args.scenarios).resolve().parent / "files")
    scenario_file = only_scenarios(load_scenarios(args.scenarios), args.only)
    base_url = args.base_url or scenario_file.base_url
    if not base_url:
        raise UsageError("no base URL: pass --base-url or set base_url in the scenarios file")
    check_reachable(base_url, settings)
    reset_command = args.reset_command or scenario_file.reset_command
    out_dir: Path = args.out.resolve()
    if out_dir.exists() and not out_dir.is_dir():
        raise UsageError(f"--out {out_dir} exists and is not a folder")
    if out_dir.is_dir() and any(out_dir.iterdir()) and not (out_dir / SUITE_MARKER).exists():
        raise UsageError(f"--out {out_dir} is not empty and was not written by stepforge; choose a new folder")
    report_path = report_file(args, settings, "report.json")
    store = open_artifact_store(settings)  # S3 when STEPFORGE_S3_BUCKET is set, else the artifacts folder
    ensure_runtime(settings)  # fail now, not after generating, when npm cannot install cucumber-js
    project = project_name(args, args.scenarios.stem)
    agent = open_agent(settings, args.brain or scenario_file.brain, args.grounding or scenario_file.grounding,
                       args.step_writer)
    registry = open_step_registry(settings)
    started_at = datetime.now(UTC)
    try:
        with Progress(
            TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), ClockColumn(),
            console=console, transient=False,
        ) as bar:
            task = bar.add_task("generating", total=len(scenario_file.scenarios))
            done: set[str] = set()  # a scenario red in the final suite is generated again, and done again
            events = PipelineEvents(
                on_phase=lambda text: bar.update(task, description=text),
                on_scenario=lambda scenario_id, attempt: bar.update(
                    task, description=f"generating {scenario_id} (attempt {attempt})"),
                on_done=lambda scenario_id: (done.add(scenario_id), bar.update(task, completed=len(done))),
            )
            result = generate_suite(
                scenario_file,
                base_url=base_url,
                out_dir=out_dir,
                settings=settings,
                store=store,
                reset_command=reset_command,
                events=events,
                registry=registry,
                project=project,
                agent=agent,
                suite_format=args.suite_format,
            )
            bar.update(task, description="done")
    finally:
        registry.close()
        agent.close()

    artifacts = write_report(report_path, result.report_json(), settings)
    cases = result.case_results(scenario_file.feature or "Scenarios", str(artifacts))
    write_results(report_path.parent, cases, name=project, started_at=started_at)
    print_summary(Console(soft_wrap=True), result, out_dir, artifacts, report_path)
    return EXIT_ALL_PASSED if result.all_passed else EXIT_SOME_FAILED


def print_summary(console: Console, result: GenerationResult, out_dir: Path, artifacts: Path | str, report: Path
                  ) -> None:
    table = Table(title="stepforge: generation summary")
    widest_id = max((len(o.scenario.id) for o in result.outcomes), default=8)
    # What the other columns and the borders leave of the terminal (at least enough for a verdict's start).
    verdict_width = max(24, console.width - max(widest_id, 8) - len("operationsstepsseconds") - 16)
    for column, justify in (("scenario", "left"), ("verdict", "left"), ("operations", "right"), ("steps", "right"),
                            ("seconds", "right")):
        # One line per scenario: a long reason is cut (report.json and the artifacts keep it whole); the other
        # columns keep their width.
        fixed = widest_id if column == "scenario" else len(column)
        table.add_column(column, justify=justify, no_wrap=True,  # type: ignore[arg-type]
                         overflow="ellipsis" if column == "verdict" else "fold",
                         min_width=None if column == "verdict" else max(fixed, 8 if column == "scenario" else 0),
                         max_width=verdict_width if column == "verdict" else None)
    for outcome in result.outcomes:
        verdict = outcome.verdict
        if verdict.status == "passed":
            shown = "[green]passed[/]"
        else:
            at = f" at step {verdict.step}" if verdict.step else ""
            shown = f"[red]failed{at}[/] ({verdict.kind}): {escape(one_line(verdict.reason))}"
        table.add_row(outcome.scenario.id, shown, str(outcome.operations), str(outcome.steps), f"{outcome.seconds:.1f}")
    console.print(table)
    totals = result.totals()
    console.print(
        f"{totals['passed']}/{totals['scenarios']} passed; operations {totals['operations']}, "
        f"steps {totals['steps']}, operations in step definitions {totals['ops_in_code']}"
    )
    if result.suite is not None:
        console.print(f"step definitions {totals['step_definitions']}: {totals['reused_from_registry']} reused from "
                      f"the step registry, {totals['registered']} newly registered for project {result.project}")
    if result.registry_problem:
        console.print(f"[yellow]step registry:[/] {escape(result.registry_problem)}", highlight=False)
    stalled = sorted({url for o in result.outcomes for url in o.record.stalled_requests})
    if stalled:
        console.print(f"[yellow]other hosts that did not answer in time (requests aborted):[/] "
                      f"{escape(', '.join(stalled[:5]))}" + (f" and {len(stalled) - 5} more" if len(stalled) > 5 else ""),
                      highlight=False)
    if result.model_usage:
        total = result.model_usage["total"]
        console.print(f"model ({result.brain} brain, {result.grounding} grounding): {total['calls']} calls, "
                      f"{total['input_tokens']} input + {total['output_tokens']} output tokens, "
                      f"cost {total['cost']:.4f}", highlight=False)
    console.print(f"suite: {out_dir}   artifacts: {artifacts}   report: {report}", highlight=False)
    console.print(f"results for a test-management system: {report.parent / 'junit.xml'} (JUnit XML), "
                  f"{report.parent / 'cucumber.json'} (Cucumber JSON)", highlight=False)
