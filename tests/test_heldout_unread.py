"""The corpus's held-out half is a measure only while nobody reads it: no run of eight or more words of a held-out
scenario stands anywhere in the repository outside the corpus's own scenario folders (`bench/corpus/apps/`), in the
product, its tests, its benchmarks or its docs.

The test names the file and line of each run it finds, never the words: a developer mends the line without reading
the scenario it came from.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]
APPS = ROOT / "bench" / "corpus" / "apps"
RUN = 8  # words
_WORD = re.compile(r"[a-z0-9]+(?:'[a-z]+)?")


def words(text: str) -> list[str]:
    """Lower-case words, as a reader sees them (quotes, punctuation and markup left out)."""
    return _WORD.findall(text.lower())


def runs(text: str, size: int = RUN) -> set[tuple[str, ...]]:
    found = words(text)
    return {tuple(found[i:i + size]) for i in range(len(found) - size + 1)}


def strings(value: object) -> list[str]:
    """Every string a YAML document holds, keys of mappings too."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for k, v in value.items() for s in strings(k) + strings(v)]
    if isinstance(value, list):
        return [s for v in value for s in strings(v)]
    return []


def heldout_runs() -> set[tuple[str, ...]]:
    out: set[tuple[str, ...]] = set()
    for path in sorted(APPS.glob("*/heldout.yaml")):
        for text in strings(yaml.safe_load(path.read_text(encoding="utf-8"))):
            out |= runs(text)
    return out


def repository_files() -> list[Path]:
    """Tracked and new files (ignored ones left out: a virtualenv, results, node_modules)."""
    listed = subprocess.run(["git", "ls-files", "--cached", "--others", "--exclude-standard", "-z"], cwd=ROOT,
                            capture_output=True, check=True).stdout.decode().split("\0")
    return [ROOT / name for name in listed if name and (ROOT / name).is_file()]


def leaks(held: set[tuple[str, ...]], files: list[Path]) -> list[str]:
    """'path:line' of every line where a held-out run of words ends (runs may span lines)."""
    found = []
    for path in files:
        if APPS in path.parents:
            continue
        try:
            text = path.read_text(encoding="utf-8")
        except (UnicodeDecodeError, OSError):
            continue
        carried: list[str] = []  # the last words of the lines before, for a run that spans lines
        for number, line in enumerate(text.splitlines(), 1):
            window = carried + words(line)
            if any(tuple(window[i:i + RUN]) in held for i in range(len(window) - RUN + 1)):
                found.append(f"{_shown(path)}:{number}")
                window = []
            carried = window[-(RUN - 1):]
    return found


def _shown(path: Path) -> str:
    return str(path.relative_to(ROOT)) if ROOT in path.parents else str(path)


def test_the_runs_of_a_sentence_are_its_consecutive_words() -> None:
    assert runs("one two three four five six seven eight nine") == {
        ("one", "two", "three", "four", "five", "six", "seven", "eight"),
        ("two", "three", "four", "five", "six", "seven", "eight", "nine")}
    assert runs("one two three four five six seven") == set()


def test_a_run_is_found_across_lines_quotes_and_case(tmp_path: Path) -> None:
    held = runs('Click "Alpha" then open the Beta panel and read Gamma')
    leaked = tmp_path / "doc.md"
    leaked.write_text("intro\nclick alpha, then open\nthe beta panel and read gamma now\n")
    clean = tmp_path / "other.md"
    clean.write_text("click alpha then open a beta panel and read gamma\n")  # four words in a row in common, at most
    assert leaks(held, [leaked, clean]) == [f"{leaked}:3"]
    long_line = tmp_path / "long.md"
    long_line.write_text("click alpha then open the beta panel and read gamma " + "filler " * 600 + "\n")
    assert leaks(held, [long_line]) == [f"{long_line}:1"]


def test_no_heldout_words_outside_the_corpus_scenarios() -> None:
    held = heldout_runs()
    assert held, "no held-out scenario was read: the guard would guard nothing"
    found = leaks(held, repository_files())
    assert not found, (
        f"{len(found)} line(s) hold a run of {RUN} or more words of a held-out scenario; rewrite each with a made-up "
        "example, without opening the held-out file: " + ", ".join(found))
