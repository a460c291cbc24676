"""Generation and replays launch the headless shell installed beside the browser (the same engine, about half the
CPU per scenario), unless told otherwise or watched by a person."""

from __future__ import annotations

from pathlib import Path

import pytest

from shared.settings import HEADLESS_SHELL, Settings


def executable(path: Path) -> Path:
    path.write_text("#!/bin/sh\n")
    path.chmod(0o755)
    return path


# (what launches it, the setting that chooses another, the setting of the other run)
RUNS = [("replay_browser", "replay_browser_path", "generation_browser"),
        ("generation_browser", "generation_browser_path", "replay_browser")]


@pytest.mark.parametrize(("launched", "chosen_by", "other"), RUNS, ids=["replay", "generation"])
def test_each_run_takes_the_headless_shell_beside_the_browser_unless_told_otherwise(tmp_path, launched, chosen_by,
                                                                                    other):
    browser = executable(tmp_path / "chromium")
    assert getattr(Settings(browser_path=str(browser)), launched) == str(browser)  # no shell installed: the browser
    shell = executable(tmp_path / HEADLESS_SHELL)
    assert getattr(Settings(browser_path=str(browser)), launched) == str(shell)
    assert getattr(Settings(browser_path=str(browser), headless=False), launched) == str(browser)  # a window to watch
    chosen = executable(tmp_path / "chrome")
    settings = Settings(browser_path=str(browser), **{chosen_by: str(chosen)})
    assert getattr(settings, launched) == str(chosen) and getattr(settings, other) == str(shell)  # each its own


def test_a_shell_that_is_no_executable_file_is_not_taken(tmp_path):
    browser = executable(tmp_path / "chromium")
    (tmp_path / HEADLESS_SHELL).write_text("not executable")
    assert Settings(browser_path=str(browser)).replay_browser == str(browser)
    assert Settings(browser_path=str(browser)).generation_browser == str(browser)
