"""`stepforge accept SUITE_DIR ID...`: app_changed scenarios' regenerated scripts accepted."""

from __future__ import annotations

import argparse
from pathlib import Path

from rich.console import Console
from rich.markup import escape

from shared.step_registry.factory import open_step_registry
from workers.agent.pipeline import SUITE_MARKER
from workers.agent.regeneration.accept import accept_candidates
from workers.cli.common import EXIT_ALL_PASSED, UsageError, load_settings, project_name


def accept(args: argparse.Namespace, console: Console) -> int:
    """`stepforge accept SUITE_DIR ID...`: see workers/agent/regeneration/accept.py."""
    suite_dir: Path = args.suite.resolve()
    if not suite_dir.is_dir() or not (suite_dir / SUITE_MARKER).exists():
        raise UsageError(f"{suite_dir} is not a suite folder written by stepforge (no {SUITE_MARKER})")
    args.headed, args.artifacts = False, None
    settings = load_settings(args, suite_dir, suite_dir / "files")
    registry = open_step_registry(settings)
    try:
        accepted = accept_candidates(suite_dir, args.ids, registry=registry, project=project_name(args, suite_dir.name),
                                     files_dir=settings.files_dir)
    finally:
        registry.close()
    out = Console(soft_wrap=True, highlight=False)
    for item in accepted:
        out.print(escape(item.diff), end="")
        out.print(f"[green]accepted[/] {item.scenario_id}: its regenerated script is its verified one now")
    out.print(f"suite: {suite_dir}")
    return EXIT_ALL_PASSED
