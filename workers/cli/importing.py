"""`stepforge import`: a test-management export (TestRail, Xray, Zephyr Scale) -> a scenarios file."""

from __future__ import annotations

import argparse
import os
import tempfile
from pathlib import Path

from rich.console import Console
from rich.markup import escape

from shared.importers import format_of, import_cases, scenarios_yaml
from shared.words import counted
from workers.cli.common import EXIT_ALL_PASSED, EXIT_SOME_FAILED, UsageError


def read_export(path: Path) -> str:
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise UsageError(f"{path}: cannot read: {exc.strerror}") from None
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data[:exc.start].count(b"\n") + 1
        raise UsageError(f"{path}: line {line}: not UTF-8 text (byte {exc.start}); export it as UTF-8") from None


def write_atomically(path: Path, text: str) -> None:
    """The whole file or none of it: written beside, then renamed over."""
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as out:
            out.write(text)
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def import_command(args: argparse.Namespace, console: Console) -> int:
    content = read_export(args.file)
    fmt = format_of(args.system, str(args.file), content)
    report = import_cases(content, fmt, source=str(args.file), feature=args.feature)
    out: Path = args.out
    if out.exists() and out.is_dir():
        raise UsageError(f"-o {out} is a folder; name the scenarios file to write (e.g. {out / 'scenarios.yaml'})")
    if out.exists() and not args.force:  # a scenarios file someone may have edited since: never lost silently
        raise UsageError(f"-o {out} exists; --force to overwrite it, or name another file")
    write_atomically(out, scenarios_yaml(report, source=args.file.name, base_url=args.base_url))
    for note in report.notes:
        console.print(f"[yellow]note:[/] {escape(note)}", highlight=False, soft_wrap=True)
    for skipped in report.skipped:
        console.print(f"[red]skipped[/] {escape(str(skipped))}", highlight=False, soft_wrap=True)
    console.print(f"imported {counted(len(report.scenario_file.scenarios), 'case')} ({fmt}) into {out}"
                  + (f"; {len(report.skipped)} skipped" if report.skipped else ""), highlight=False)
    return EXIT_SOME_FAILED if report.skipped else EXIT_ALL_PASSED
