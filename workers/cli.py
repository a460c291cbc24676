"""`stepforge generate`: scenarios file + base URL -> verified cucumber-js suite, report and artifacts.
`stepforge regenerate`: a suite folder it wrote -> its scripts replayed first, every red triaged, drift healed."""

from __future__ import annotations

import argparse
import os
import re
import sys
import tempfile
import time
import traceback
from pathlib import Path

import httpx
from pydantic import ValidationError
from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, ProgressColumn, Task, TextColumn
from rich.table import Table
from rich.text import Text

from shared.artifacts import ArtifactStoreError, open_artifact_store
from shared.egress import guarded, reason_of
from shared.logging import configure_logging
from shared.scenarios import ScenarioFile, ScenarioFileError, load_scenarios
from shared.settings import Settings
from shared.step_registry import RegistryError, open_step_registry
from shared.urls import TargetPolicy, UnsafeTargetError
from workers.agent.choice import AgentChoiceError, open_agent
from workers.agent.execution.browser import BrowserCrashedError, BrowserUnavailableError
from workers.agent.pipeline import SUITE_MARKER, PipelineEvents, SuiteResult, generate_suite
from workers.agent.regeneration.accept import NothingToAccept
from workers.agent.regeneration.verified import NoVerifiedScripts
from workers.agent.scripting.suite import FORMATS
from workers.agent.verify.node_runtime import NodeRuntimeError, ensure_runtime

EXIT_ALL_PASSED, EXIT_SOME_FAILED, EXIT_BAD_INPUT, EXIT_INTERNAL = 0, 1, 2, 3


class UsageError(Exception):
    """Bad input on the command line or in the files it names."""


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="stepforge", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)
    generate = commands.add_parser("generate", help="generate a verified cucumber-js suite from a scenarios file")
    generate.add_argument("scenarios", type=Path, help="YAML or JSON scenarios file")
    generate.add_argument("--base-url", help="application under test (overrides the file's base_url)")
    generate.add_argument("--out", type=Path, default=Path("suite"), help="suite folder to write (default: suite)")
    generate.add_argument("--artifacts", type=Path,
                          help="artifacts folder (default: STEPFORGE_ARTIFACTS_DIR, else 'artifacts' beside the "
                               "suite folder: <out>/../artifacts)")
    generate.add_argument("--report", type=Path, help="report file (default: <artifacts>/report.json)")
    generate.add_argument("--reset-command", help="shell command run before each scenario's generation and replay")
    generate.add_argument("--headed", action="store_true", help="show the browser while generating")
    generate.add_argument("--format", choices=FORMATS, default="cucumber-js", dest="suite_format",
                          help="the suite's project: cucumber-js (default), or playwright-bdd (Playwright Test: "
                               "npx bddgen && npx playwright test), verified by its own runner too")
    generate.add_argument("--only", action="append", metavar="ID[,ID...]",
                          help="generate only these scenarios of the file (repeatable)")
    generate.add_argument("--project", help="project the steps are registered for (default: the scenarios file's name)")
    generate.add_argument("--brain", choices=("builtin", "openai"),
                          help="who decides the next action (default: the file's brain, STEPFORGE_BRAIN, openai "
                               "when STEPFORGE_MODEL_BASE_URL is set, else builtin)")
    generate.add_argument("--grounding", choices=("hte", "som"),
                          help="how the openai brain finds elements (default: the file's grounding, "
                               "STEPFORGE_GROUNDING, else hte)")
    regenerate = commands.add_parser(
        "regenerate", help="replay a suite folder's verified scripts first, triage the red ones, heal drift")
    regenerate.add_argument("suite", type=Path, help="suite folder written by stepforge generate")
    regenerate.add_argument("--base-url", help="application under test (default: the one the scripts were verified "
                                               "against)")
    regenerate.add_argument("--scenarios", type=Path,
                            help="the scenarios file as it is now: scenarios it changed or added are generated "
                                 "again, scenarios it no longer has leave the suite (default: the suite's own)")
    regenerate.add_argument("--artifacts", type=Path,
                            help="artifacts folder (default: STEPFORGE_ARTIFACTS_DIR, else <suite>/../artifacts)")
    regenerate.add_argument("--report", type=Path, help="report file (default: <artifacts>/regeneration.json)")
    regenerate.add_argument("--reset-command", help="shell command run before each scenario's replay and walk")
    regenerate.add_argument("--headed", action="store_true", help="show the browser")
    regenerate.add_argument("--project", help="project the steps are registered for (default: the suite folder's "
                                              "name)")
    regenerate.add_argument("--brain", choices=("builtin", "openai"), help="who generates changed scenarios")
    regenerate.add_argument("--grounding", choices=("hte", "som"), help="how the openai brain finds elements")
    accept = commands.add_parser(
        "accept", help="make app_changed scenarios' regenerated scripts (left by regenerate) their verified ones")
    accept.add_argument("suite", type=Path, help="suite folder written by stepforge generate and regenerate")
    accept.add_argument("ids", nargs="+", metavar="ID", help="scenario ids whose regenerated script to accept")
    accept.add_argument("--project", help="project the steps are registered for (default: the suite folder's name)")
    return parser


def load_settings(args: argparse.Namespace, out_dir: Path, files_dir: Path | None) -> Settings:
    """Settings from the environment, with the command line's headed mode, artifacts folder (default beside the
    suite) and files folder (default beside the scenarios file)."""
    overrides: dict[str, object] = {}
    if args.headed:
        overrides["headless"] = False
    if args.artifacts:
        overrides["artifacts_dir"] = args.artifacts.resolve()
    elif "STEPFORGE_ARTIFACTS_DIR" not in os.environ:  # beside the suite, wherever the command runs
        overrides["artifacts_dir"] = out_dir.resolve().parent / "artifacts"
    if files_dir is not None and "STEPFORGE_FILES_DIR" not in os.environ:
        overrides["files_dir"] = files_dir
    try:
        settings = Settings(**overrides)  # type: ignore[arg-type]
    except ValidationError as exc:
        first = exc.errors()[0]
        name = "STEPFORGE_" + "_".join(str(part) for part in first["loc"]).upper()
        raise UsageError(f"invalid setting {name}: {first['msg']}") from None
    configure_logging(settings)
    return settings


def report_file(args: argparse.Namespace, settings: Settings, name: str) -> Path:
    path: Path = (args.report or settings.artifacts_dir / name).resolve()
    if path.is_dir():
        raise UsageError(f"--report {path} is a folder; give a file name")
    return path


def write_report(path: Path, text: str, settings: Settings) -> Path | str:
    """Write the report; where the artifacts are, as the summary shows it (a folder, or the S3 bucket and prefix)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return f"s3://{settings.s3_bucket}/{settings.s3_prefix}" if settings.s3_bucket else settings.artifacts_dir.resolve()


def project_name(args: argparse.Namespace, default: str) -> str:
    project = args.project or re.sub(r"[^A-Za-z0-9_.-]+", "-", default).strip("-.") or "default"
    if not re.fullmatch(r"[A-Za-z0-9_.-]{1,100}", project):
        raise UsageError(f"--project {project!r}: use 1 to 100 letters, digits, '_', '.' or '-'")
    return project


def check_reachable(base_url: str, settings: Settings) -> None:
    """The base URL is one the target policy allows and its server answers (any status), through the egress
    guard as the browser will reach it; a redirect is not followed here."""
    policy = TargetPolicy.of(settings)
    try:
        policy.check_url(base_url)
    except UnsafeTargetError as exc:
        raise UsageError(f"base URL refused: {exc}") from None
    with guarded(policy) as guard:
        try:
            with httpx.Client(proxy=guard.url, trust_env=False, follow_redirects=False,
                              timeout=settings.navigation_timeout_ms / 1000) as client:
                client.get(base_url)
        except httpx.HTTPError as exc:
            found = guard.refused or guard.unreachable
            reason = reason_of(found[-1]) if found else (str(exc) or type(exc).__name__)
            raise UsageError(f"cannot reach the base URL {base_url}: {reason}") from None


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    console = Console(stderr=True)

    def error(message: str) -> None:
        console.print(f"[bold red]error:[/] {escape(message)}", highlight=False, soft_wrap=True)

    try:
        if args.command == "regenerate":
            from workers.regenerate_command import regenerate

            return regenerate(args, console)
        if args.command == "accept":
            from workers.regenerate_command import accept

            return accept(args, console)
        return generate(args, console)
    except (UsageError, ScenarioFileError, BrowserUnavailableError, NodeRuntimeError, RegistryError,
            AgentChoiceError, ArtifactStoreError, NoVerifiedScripts, NothingToAccept) as exc:
        error(str(exc))
        return EXIT_BAD_INPUT
    except BrowserCrashedError as exc:  # the machine's failure, not the application's: say so, no traceback
        error(f"the browser crashed: {exc}; run again")
        return EXIT_INTERNAL
    except KeyboardInterrupt:
        console.print("[yellow]interrupted[/]")
        return 130
    except Exception as exc:  # a defect: say so in one line, keep the details in a file
        details = Path(tempfile.gettempdir()) / "stepforge-error.txt"
        details.write_text(traceback.format_exc())
        error(f"internal error ({type(exc).__name__}: {exc}); details in {details}")
        return EXIT_INTERNAL


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
    agent = open_agent(settings, args.brain or scenario_file.brain, args.grounding or scenario_file.grounding)
    registry = open_step_registry(settings)
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
    print_summary(Console(soft_wrap=True), result, out_dir, artifacts, report_path)
    return EXIT_ALL_PASSED if result.all_passed else EXIT_SOME_FAILED


REASON_CHARS = 120


def one_line(reason: str) -> str:
    """A verdict's reason in one line for the summary table: its first line, cut at REASON_CHARS."""
    line = next((part.strip() for part in (reason or "").splitlines() if part.strip()), "")
    return line if len(line) <= REASON_CHARS else line[: REASON_CHARS - 1].rstrip() + "…"


class ClockColumn(ProgressColumn):
    """Wall time since the run began; it keeps running after the last scenario is counted, through the final
    replays and the writing of the suite, until the run ends."""

    def __init__(self) -> None:
        super().__init__()
        self.started = time.monotonic()

    def render(self, task: Task) -> Text:
        seconds = int(time.monotonic() - self.started)
        return Text(f"{seconds // 3600}:{seconds // 60 % 60:02d}:{seconds % 60:02d}", style="progress.elapsed")


def print_summary(console: Console, result: SuiteResult, out_dir: Path, artifacts: Path | str, report: Path) -> None:
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


if __name__ == "__main__":
    # As `python -m workers.cli`: run the importable module's main, so the errors that regenerate_command raises
    # (workers.cli.UsageError) are the very classes main catches, not copies made for __main__.
    from workers.cli import main as module_main

    sys.exit(module_main())
