"""What the commands share: exit codes, bad input, settings from the command line, the report file, the base URL's
check, progress and one-line reasons."""

from __future__ import annotations

import argparse
import os
import re
import time
from datetime import datetime
from pathlib import Path

import httpx
from pydantic import ValidationError
from rich.progress import ProgressColumn, Task
from rich.text import Text

from shared.egress import guarded, reason_of
from shared.logging import configure_logging
from shared.results import CaseResult, cucumber_json, junit_xml
from shared.settings import Settings
from shared.urls import TargetPolicy, UnsafeTargetError

EXIT_ALL_PASSED, EXIT_SOME_FAILED, EXIT_BAD_INPUT, EXIT_INTERNAL = 0, 1, 2, 3


class UsageError(Exception):
    """Bad input on the command line or in the files it names."""


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


def write_results(folder: Path, results: list[CaseResult], name: str, started_at: datetime) -> None:
    """The verdicts as a test-management system imports them, beside the report: junit.xml and cucumber.json."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "junit.xml").write_text(junit_xml(results, name=name, started_at=started_at), encoding="utf-8")
    (folder / "cucumber.json").write_text(cucumber_json(results), encoding="utf-8")


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
