"""A suite folder's verified scripts: each scenario's definition and the run record its script was built from, in
.stepforge/records/<id>.json beside the suite, so `stepforge regenerate` can replay them first (and a suite kept in
git keeps them)."""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterable
from pathlib import Path

from pydantic import ValidationError

from shared.scenarios import natural_key
from shared.triage import VerifiedScript

RECORDS_DIR = Path(".stepforge") / "records"
# {"feature": the suite's own feature, for scenarios naming none; "failing": the app_changed scenarios tagged @failing}
SUITE_FILE = Path(".stepforge") / "suite.json"
# An app_changed scenario's regenerated script that passed (<id>.json, a verified script) and its diff against the
# kept one (<id>.diff), until `stepforge accept` takes it or the next regeneration replaces it.
CANDIDATES_DIR = Path(".stepforge") / "candidates"


class NoVerifiedScripts(ValueError):
    """The folder holds no verified script to regenerate from; the message says which folder and why."""


def write_verified(suite_dir: Path, scripts: Iterable[VerifiedScript], feature: str,
                   failing: Iterable[str] = ()) -> None:
    """The folder's verified scripts become these (a scenario no longer in the suite loses its record); `feature`
    is the suite's own feature (the scenarios file's); `failing`, the scenarios tagged @failing."""
    (suite_dir / SUITE_FILE).parent.mkdir(parents=True, exist_ok=True)
    document = {"feature": feature, "failing": sorted(failing, key=natural_key)}
    (suite_dir / SUITE_FILE).write_text(json.dumps(document) + "\n", encoding="utf-8")
    folder = suite_dir / RECORDS_DIR
    staging = folder.with_name(folder.name + ".new")
    shutil.rmtree(staging, ignore_errors=True)
    staging.mkdir(parents=True)
    for script in scripts:
        (staging / f"{script.scenario.id}.json").write_text(script.model_dump_json(indent=1) + "\n", encoding="utf-8")
    old = folder.with_name(folder.name + ".old")
    shutil.rmtree(old, ignore_errors=True)
    if folder.exists():
        folder.rename(old)  # a crash from here on leaves the old records to read (read_verified)
    staging.rename(folder)
    shutil.rmtree(old, ignore_errors=True)


def read_verified(suite_dir: Path) -> list[VerifiedScript]:
    """The folder's verified scripts, in natural order of their ids."""
    folder = suite_dir / RECORDS_DIR
    if not folder.is_dir() and folder.with_name(folder.name + ".old").is_dir():
        folder = folder.with_name(folder.name + ".old")  # a write that was cut short: the scripts before it
    if not folder.is_dir():
        raise NoVerifiedScripts(f"{suite_dir} has no verified scripts ({RECORDS_DIR}/): regenerate works on a suite "
                                "folder written by `stepforge generate`")
    scripts = []
    for path in sorted(folder.glob("*.json")):
        try:
            scripts.append(VerifiedScript.model_validate_json(path.read_text(encoding="utf-8")))
        except (ValidationError, UnicodeDecodeError) as exc:
            raise NoVerifiedScripts(f"{path} is not a verified script stepforge wrote: "
                                    f"{str(exc).splitlines()[0]}") from None
    if not scripts:
        raise NoVerifiedScripts(f"{folder} holds no verified script (no scenario of the suite passed)")
    return sorted(scripts, key=lambda script: natural_key(script.scenario.id))


def read_failing(suite_dir: Path) -> list[str]:
    """The scenarios the suite tags @failing (app_changed at the last regeneration)."""
    try:
        failing = json.loads((suite_dir / SUITE_FILE).read_text(encoding="utf-8")).get("failing")
    except (OSError, ValueError, AttributeError):
        return []
    return [i for i in failing if isinstance(i, str)] if isinstance(failing, list) else []


def clear_candidates(suite_dir: Path) -> None:
    """A regeneration's candidates replace the last one's."""
    shutil.rmtree(suite_dir / CANDIDATES_DIR, ignore_errors=True)


def write_candidate(suite_dir: Path, script: VerifiedScript, diff: str) -> tuple[str, str]:
    """Keep an app_changed scenario's regenerated script and its diff; their paths, relative to the suite folder."""
    folder = suite_dir / CANDIDATES_DIR
    folder.mkdir(parents=True, exist_ok=True)
    record, patch = CANDIDATES_DIR / f"{script.scenario.id}.json", CANDIDATES_DIR / f"{script.scenario.id}.diff"
    (suite_dir / record).write_text(script.model_dump_json(indent=1) + "\n", encoding="utf-8")
    (suite_dir / patch).write_text(diff, encoding="utf-8")
    return record.as_posix(), patch.as_posix()


def read_candidate(suite_dir: Path, scenario_id: str) -> tuple[VerifiedScript, str] | None:
    """An app_changed scenario's regenerated script and its diff; None when there is none (or it is unreadable)."""
    record = suite_dir / CANDIDATES_DIR / f"{scenario_id}.json"
    try:
        script = VerifiedScript.model_validate_json(record.read_text(encoding="utf-8"))
        diff = record.with_suffix(".diff").read_text(encoding="utf-8")
    except (OSError, ValidationError, UnicodeDecodeError):
        return None
    return script, diff


def read_feature(suite_dir: Path, default: str) -> str:
    """The suite's own feature, as generate or regenerate wrote it; `default` for an older folder."""
    try:
        feature = json.loads((suite_dir / SUITE_FILE).read_text(encoding="utf-8")).get("feature")
    except (OSError, ValueError, AttributeError):
        return default
    return feature if isinstance(feature, str) and feature else default
