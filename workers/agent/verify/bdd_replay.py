"""Replay scenarios of a suite written for Playwright Test (`--format playwright-bdd`): `bddgen`, then
`playwright test` with its JSON reporter, in the suite's folder, with the shared runtime's packages."""

from __future__ import annotations

import json
import re
import subprocess
import tempfile
import time
from pathlib import Path

from shared.lifetime import bound_to_this_process
from shared.records import ReplayResult
from shared.settings import Settings
from workers.agent.verify.node_runtime import ensure_runtime
from workers.agent.verify.replay import (
    all_failed,
    first_lines,
    not_finished,
    replay_egress,
    replay_environment,
    replay_timeout,
    run_to_end,
    target_resolved,
)


def tags_pattern(scenario_ids: list[str]) -> str:
    """A --grep regular expression matching the tests tagged with exactly these ids (@OWN-1, never @OWN-10)."""
    return "@(?:" + "|".join(re.escape(i) for i in scenario_ids) + r")(?:\s|$)"


def read_report(report: dict, scenario_ids: list[str]) -> dict[str, ReplayResult]:
    """Per scenario id (its tag), how its examples went in Playwright's JSON report: the first failure wins, its
    Gherkin step ("When Click \"Save\"") and error; seconds are summed."""
    found: dict[str, ReplayResult] = {}

    def visit(suite: dict) -> None:
        for spec in suite.get("specs", []):
            tags = {tag.lstrip("@") for tag in spec.get("tags", [])}
            for test in spec.get("tests", []):
                results = test.get("results") or [{}]
                last = results[-1]
                seconds = sum(r.get("duration", 0) for r in results) / 1000
                passed = last.get("status") == "passed" and test.get("status") == "expected"
                message = (last.get("error") or {}).get("message") or last.get("status") or "failed"
                failed_step = next((f"{step['title']}" for step in last.get("steps", []) if step.get("error")), None)
                for scenario_id in scenario_ids:
                    if scenario_id not in tags:
                        continue
                    earlier = found.get(scenario_id)
                    if earlier is not None and not earlier.passed:
                        earlier.seconds = round(earlier.seconds + seconds, 3)
                        continue
                    total = (earlier.seconds if earlier else 0.0) + seconds
                    found[scenario_id] = ReplayResult(
                        passed=passed, seconds=round(total, 3),
                        failed_step=None if passed else failed_step,
                        error=None if passed else first_lines(message),
                        target_resolved=False if passed else target_resolved(message))
        for child in suite.get("suites", []):
            visit(child)

    for suite in report.get("suites", []):
        visit(suite)
    return found


def replay_playwright_bdd(
    suite_dir: Path | str,
    scenario_ids: list[str],
    base_url: str,
    settings: Settings,
    reset_command: str | None = None,
) -> dict[str, ReplayResult]:
    """Run the scenarios tagged @<id> of a playwright-bdd suite with Playwright's runner, one worker, behind the
    egress guard."""
    with replay_egress(scenario_ids, settings, base_url) as egress:
        return egress.judge(_run_playwright(suite_dir, scenario_ids, base_url, settings, reset_command, egress.env()))


def _run_playwright(suite_dir: Path | str, scenario_ids: list[str], base_url: str, settings: Settings,
                    reset_command: str | None, egress_env: dict[str, str]) -> dict[str, ReplayResult]:
    started = time.monotonic()
    suite = Path(suite_dir).resolve()
    node_modules = ensure_runtime(settings)
    env = replay_environment(base_url, settings, reset_command) | egress_env

    def every(error: str) -> dict[str, ReplayResult]:
        return all_failed(scenario_ids, started, error)

    # The suite's require("@playwright/test") must be the runner's own instance: the suite's own packages when
    # it has them (a user's `npm install`), else the runtime's, linked for the run.
    link = suite / "node_modules"
    linked = False
    if not link.exists():
        link.symlink_to(node_modules, target_is_directory=True)
        linked = True
    bin_dir = link / ".bin"
    try:
        with tempfile.TemporaryDirectory(prefix="stepforge-bdd-replay-") as scratch:
            generated = subprocess.run(bound_to_this_process([str(bin_dir / "bddgen")]), cwd=suite, env=env,
                                       stdin=subprocess.DEVNULL, capture_output=True, text=True,
                                       timeout=settings.replay_timeout_s)
            if generated.returncode != 0:
                return every(f"bddgen failed: {first_lines(generated.stdout + generated.stderr)}")
            report_path = Path(scratch) / "report.json"
            env["PLAYWRIGHT_JSON_OUTPUT_NAME"] = str(report_path)
            env["STEPFORGE_PARALLEL"] = "1"
            command = [str(bin_dir / "playwright"), "test", "--reporter=json",
                       "--grep", tags_pattern(scenario_ids)]
            process = subprocess.Popen(bound_to_this_process(command), cwd=suite, env=env, stdin=subprocess.DEVNULL,
                                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                                       start_new_session=True)
            limit = replay_timeout(settings, scenario_ids)
            output = run_to_end(process, limit)
            if output is None:
                return every(not_finished(limit))
            try:
                report = json.loads(report_path.read_text(encoding="utf-8"))
            except (OSError, json.JSONDecodeError):
                return every(f"playwright test wrote no report: {first_lines(output or '') or process.returncode}")
            results = read_report(report, scenario_ids)
            for scenario_id in scenario_ids:
                if scenario_id not in results:
                    errors = "; ".join(first_lines(e.get("message", "")) for e in report.get("errors", []))
                    results[scenario_id] = ReplayResult(
                        passed=False, error=errors or f"no test tagged @{scenario_id} in {suite}")
            return results
    finally:
        if linked:
            link.unlink(missing_ok=True)
