"""`stepforge generate`: scenarios file + base URL -> verified cucumber-js suite, report and artifacts.
`stepforge regenerate`: a suite folder it wrote -> its scripts replayed first, every red triaged, drift healed.
`stepforge import`: a TestRail, Xray or Zephyr Scale export -> a scenarios file."""

# The `stepforge` command (this module's docstring is its --help): its arguments, and each command's errors said
# in one line with its exit code.

from __future__ import annotations

import argparse
import tempfile
import traceback
from pathlib import Path

from rich.console import Console
from rich.markup import escape

from shared.artifacts import ArtifactStoreError
from shared.importers import SYSTEMS
from shared.scenarios import ScenarioFileError
from shared.step_registry import RegistryError
from workers.agent.choice import AgentChoiceError
from workers.agent.execution.browser import BrowserCrashedError, BrowserUnavailableError
from workers.agent.regeneration.accept import NothingToAccept
from workers.agent.scripting.suite import FORMATS
from workers.agent.scripting.verified import NoVerifiedScripts
from workers.agent.verify.node_runtime import NodeRuntimeError
from workers.cli.accept import accept
from workers.cli.common import EXIT_BAD_INPUT, EXIT_INTERNAL, UsageError
from workers.cli.generate import generate
from workers.cli.importing import import_command
from workers.cli.regenerate import regenerate


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
    generate.add_argument("--step-writer", choices=("builtin", "model"), dest="step_writer",
                          help="who groups and words the steps (default: model with the openai brain, else builtin)")
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
    importing = commands.add_parser(
        "import", help="turn a TestRail, Xray or Zephyr Scale export of test cases into a scenarios file")
    importing.add_argument("file", type=Path, help="the export: CSV or JSON")
    importing.add_argument("--from", dest="system", choices=SYSTEMS,
                           help="the system that exported it (default: told by the file's columns or keys)")
    importing.add_argument("-o", "--out", type=Path, default=Path("scenarios.yaml"),
                           help="scenarios file to write (default: scenarios.yaml); an existing one only with --force")
    importing.add_argument("--force", action="store_true", help="overwrite the scenarios file -o names if it exists")
    importing.add_argument("--base-url", help="the application's address, written into the scenarios file")
    importing.add_argument("--feature", help="feature of the cases with no section, folder or component")
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    console = Console(stderr=True)

    def error(message: str) -> None:
        console.print(f"[bold red]error:[/] {escape(message)}", highlight=False, soft_wrap=True)

    try:
        if args.command == "regenerate":
            return regenerate(args, console)
        if args.command == "accept":
            return accept(args, console)
        if args.command == "import":
            return import_command(args, console)
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
