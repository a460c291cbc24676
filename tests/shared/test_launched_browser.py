"""Generation and replays launch the headless shell installed beside the browser (the same engine, about half the
CPU per scenario), unless told otherwise or watched by a person."""

from __future__ import annotations

from pathlib import Path

from shared.settings import HEADLESS_SHELL, Settings


def executable(path: Path) -> Path:
    path.write_text("#!/bin/sh\n")
    path.chmod(0o755)
    return path


def test_replays_take_the_headless_shell_beside_the_browser(tmp_path):
    browser = executable(tmp_path / "chromium")
    assert Settings(browser_path=str(browser)).replay_browser == str(browser)  # no shell installed: the browser
    shell = executable(tmp_path / HEADLESS_SHELL)
    assert Settings(browser_path=str(browser)).replay_browser == str(shell)
    assert Settings(browser_path=str(browser), headless=False).replay_browser == str(browser)  # a window to watch
    chosen = executable(tmp_path / "chrome")
    assert Settings(browser_path=str(browser), replay_browser_path=str(chosen)).replay_browser == str(chosen)


def test_generation_takes_the_headless_shell_beside_the_browser_unless_told_otherwise(tmp_path):
    browser = executable(tmp_path / "chromium")
    assert Settings(browser_path=str(browser)).generation_browser == str(browser)  # no shell installed: the browser
    shell = executable(tmp_path / HEADLESS_SHELL)
    assert Settings(browser_path=str(browser)).generation_browser == str(shell)
    assert Settings(browser_path=str(browser), headless=False).generation_browser == str(browser)
    chosen = executable(tmp_path / "chrome")
    settings = Settings(browser_path=str(browser), generation_browser_path=str(chosen))
    assert settings.generation_browser == str(chosen) and settings.replay_browser == str(shell)  # each its own


def test_a_shell_that_is_no_executable_file_is_not_taken(tmp_path):
    browser = executable(tmp_path / "chromium")
    (tmp_path / HEADLESS_SHELL).write_text("not executable")
    assert Settings(browser_path=str(browser)).replay_browser == str(browser)
    assert Settings(browser_path=str(browser)).generation_browser == str(browser)
