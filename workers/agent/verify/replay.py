"""Replay one scenario of a generated suite with cucumber-js in a fresh browser, and say how it went."""

from __future__ import annotations

import contextlib
import json
import os
import re
import subprocess
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path

from shared.egress import GuardSession, ThirdPartyTimer, egress_guard, first_and_count
from shared.lifetime import bound_to_this_process, stop_process_group
from shared.records import ReplayResult
from shared.reset_request import LabelledReset
from shared.settings import Settings
from shared.urls import NO_EGRESS, TargetPolicy, application_hosts
from workers.agent.verify.node_runtime import ensure_runtime
from workers.agent.verify.resident import RUNNERS

ERROR_LINES = 6
_ANSI = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")
_STACK = re.compile(r"^\s+at ")


def first_lines(text: str, count: int = ERROR_LINES) -> str:
    lines = [line.rstrip() for line in _ANSI.sub("", text).splitlines() if line.strip() and not _STACK.match(line)]
    return "\n".join(lines[:count])


def _drop_runtime_link(suite_dir: Path, node_modules: Path) -> None:
    """Remove a node_modules link into the shared runtime that older replays left in the suite (or a dangling one):
    `npm install` in the suite would otherwise write into the shared runtime."""
    link = suite_dir / "node_modules"
    if not link.is_symlink():
        return
    if not link.exists() or link.resolve() == node_modules.resolve():
        try:
            link.unlink()
        except FileNotFoundError:
            pass  # another replay removed it meanwhile


def cucumber_command(suite_dir: Path, node_modules: Path) -> tuple[Path, dict[str, str]]:
    """The cucumber-js to run in suite_dir and the environment it needs to find its packages.

    A suite with its own node_modules (the user ran `npm install`) uses its own cucumber-js. Otherwise the
    shared runtime's cucumber-js runs, and NODE_PATH lets the suite's require("@cucumber/cucumber") and
    require("playwright-core") resolve to the runtime's copies: the very instance the CLI loaded, so the step
    definitions register with it. Nothing is written into the suite folder.
    """
    own_cli = suite_dir / "node_modules" / ".bin" / "cucumber-js"
    if own_cli.exists():
        return own_cli, {}
    runtime = str(node_modules.resolve())
    inherited = os.environ.get("NODE_PATH")
    return node_modules / ".bin" / "cucumber-js", {"NODE_PATH": runtime + (os.pathsep + inherited if inherited else "")}


def replay_environment(base_url: str, settings: Settings, reset_command: str | None = None) -> dict[str, str]:
    """The STEPFORGE_* variables of world.js, set from the generation's settings (see templates/README.md)."""
    env = dict(os.environ)
    env.update(
        STEPFORGE_BASE_URL=base_url,
        STEPFORGE_BROWSER_PATH=settings.replay_browser,
        # The replay gets the time limits and the window the generation had, so it sees the same page and a step
        # that cannot act fails fast.
        STEPFORGE_ACTION_TIMEOUT_MS=str(settings.action_timeout_ms),
        STEPFORGE_NAVIGATION_TIMEOUT_MS=str(settings.navigation_timeout_ms),
        STEPFORGE_EXPECT_TIMEOUT_MS=str(settings.assertion_timeout_ms),
        STEPFORGE_SETTLE_TIMEOUT_MS=str(settings.settle_timeout_ms),
        STEPFORGE_SETTLE_QUIET_MS=str(settings.settle_quiet_ms),
        STEPFORGE_THIRD_PARTY_TIMEOUT_MS=str(settings.third_party_timeout_ms),
        STEPFORGE_VIEWPORT_WIDTH=str(settings.viewport_width),
        STEPFORGE_VIEWPORT_HEIGHT=str(settings.viewport_height),
        # The verdict needs no trace: tracing every scenario of every replay would only slow generation down.
        STEPFORGE_TRACE="off",
        FORCE_COLOR="0",
        NO_COLOR="1",
    )
    for name in ("STEPFORGE_RESET_COMMAND", "STEPFORGE_RESET_TIMEOUT_MS", "STEPFORGE_RESET_LABEL",
                 "STEPFORGE_RESET_OUTPUT", "STEPFORGE_HEADED", "STEPFORGE_EGRESS_PROXY",
                 "STEPFORGE_EGRESS_PROXIES", "STEPFORGE_EGRESS_THIRD_PARTY"):
        env.pop(name, None)
    if reset_command:
        env["STEPFORGE_RESET_COMMAND"] = str(reset_command)
        env["STEPFORGE_RESET_TIMEOUT_MS"] = str(int(settings.reset_timeout_s * 1000))
        if isinstance(reset_command, LabelledReset):  # a failure names it by its label, never by its text
            env["STEPFORGE_RESET_LABEL"] = reset_command.label
            env["STEPFORGE_RESET_OUTPUT"] = "1" if reset_command.show_output else "0"
    if not settings.headless:
        env["STEPFORGE_HEADED"] = "1"
    return env


class ReplayEgress:
    """The egress guard sessions of one replay run (shared/egress.py): the browser's own traffic goes to one that
    lets nothing out, each scenario's context to one of its own (so what it refused is its own), and a scenario
    tagged otherwise to a shared one; stepforge.js reads them from STEPFORGE_EGRESS_PROXY and
    STEPFORGE_EGRESS_PROXIES. The scenarios' sessions also time the hosts that are not the application's (one
    ThirdPartyTimer for the run), so the suite sets no third-party route of its own (STEPFORGE_EGRESS_THIRD_PARTY):
    a route stops every request of the page in the browser and turns its HTTP cache off."""

    def __init__(self, scenario_ids: list[str], settings: Settings, base_url: str) -> None:
        self._guard, policy = egress_guard(), TargetPolicy.of(settings)
        self.third_party = ThirdPartyTimer(application_hosts(base_url), settings.third_party_timeout_ms / 1000) \
            if settings.third_party_timeout_ms > 0 and base_url else None
        self.sessions: list[GuardSession] = []
        self.background = self._open(NO_EGRESS)
        self.untagged = self._open(policy, self.third_party)
        self.by_id = {scenario_id: self._open(policy, self.third_party) for scenario_id in dict.fromkeys(scenario_ids)}

    def _open(self, policy: TargetPolicy, third_party: ThirdPartyTimer | None = None) -> GuardSession:
        session = self._guard.open(policy, third_party=third_party)
        self.sessions.append(session)
        return session

    def env(self) -> dict[str, str]:
        proxies = {"*": self.untagged.url} | {i: s.url for i, s in self.by_id.items()}
        return {"STEPFORGE_EGRESS_PROXY": self.background.url, "STEPFORGE_EGRESS_PROXIES": json.dumps(proxies),
                "STEPFORGE_EGRESS_THIRD_PARTY": "1" if self.third_party else "0"}

    def judge(self, results: dict[str, ReplayResult]) -> dict[str, ReplayResult]:
        """Each result with the requests its scenario's guard refused; a failed one's error names them, and the
        other hosts its guard cut off."""
        for scenario_id, result in results.items():
            session = self.by_id.get(scenario_id)
            refused = list(session.refused) if session else []
            stalled = list(session.stalled) if session else []
            result.refused = refused
            if result.passed:
                continue
            if refused:
                result.error = (f"{result.error or 'failed'}\n(the target policy refused a request of the page: "
                                f"{first_and_count(refused)})")
            if stalled:
                result.error = (f"{result.error or 'failed'}\n(a host other than the application's did not answer "
                                f"and was cut off: {first_and_count(stalled)})")
        return results

    def close(self) -> None:
        for session in self.sessions:
            self._guard.close(session)


@contextlib.contextmanager
def replay_egress(scenario_ids: list[str], settings: Settings, base_url: str) -> Iterator[ReplayEgress]:
    egress = ReplayEgress(scenario_ids, settings, base_url)
    try:
        yield egress
    finally:
        egress.close()


def _config(report: Path) -> str:
    document = {
        "default": {
            "paths": ["features/**/*.feature"],
            "require": ["features/**/*.js"],
            # summary: the failures, without a character printed per step
            "format": ["summary", f"json:{report}"],
        }
    }
    return json.dumps(document, indent=2)


def replay_timeout(settings: Settings, scenario_ids: list[str]) -> float:
    """Each scenario gets the whole replay timeout: a suite of many scenarios takes longer than one."""
    return settings.replay_timeout_s * max(1, len(scenario_ids))


def not_finished(limit_s: float) -> str:
    """The error of every scenario of a replay stopped at its time limit."""
    return f"the replay did not finish within {limit_s:g} s and was stopped"


def run_to_end(process: subprocess.Popen, limit_s: float) -> str | None:
    """The runner's output once it ends; None when it ran past limit_s (replay_timeout) and was stopped with all it
    started. Interrupted (Ctrl-C included), it leaves no runner or browser behind."""
    try:
        return process.communicate(timeout=limit_s)[0] or ""
    except subprocess.TimeoutExpired:
        stop_process_group(process)
        return None
    except BaseException:
        stop_process_group(process)
        if process.stdout:
            process.stdout.close()
        raise


def all_failed(scenario_ids: list[str], started: float, error: str) -> dict[str, ReplayResult]:
    """The same failed result for every scenario of a replay that could not run them."""
    seconds = round(time.monotonic() - started, 3)
    return {i: ReplayResult(passed=False, error=error, seconds=seconds, ran=False) for i in scenario_ids}


# Playwright's call log names the element a locator resolved to; "resolved to 2 elements" is a strict-mode error.
_RESOLVED_TO_ONE = re.compile(r"locator resolved to <")


def target_resolved(error_message: str) -> bool:
    """A timeout of an action whose locator had found its one element: it waited for that element to become
    visible, enabled and stable (a page still loading, an overlay, an animation), not for a missing element."""
    return "Timeout" in error_message and _RESOLVED_TO_ONE.search(error_message) is not None


def _scenario_failure(element: dict) -> tuple[str | None, str | None, bool]:
    """The first failing step of one scenario in cucumber's JSON report: (its Gherkin text, its error, whether
    its target resolved, see target_resolved)."""
    for step in element.get("steps", []):
        result = step.get("result", {})
        status = result.get("status")
        if status in ("passed", "skipped"):
            continue
        keyword = (step.get("keyword") or "").strip()
        if step.get("hidden") or keyword in ("Before", "After"):
            where, text = f"in the {keyword or 'hook'} hook", None
        else:
            text = f"{keyword} {step.get('name', '')}".strip()
            where = None
        if status == "undefined":
            message = "the step has no step definition"
        elif status == "pending":
            message = "the step is pending"
        else:
            message = first_lines(result.get("error_message") or status or "failed")
        if where:
            message = f"{where}: {message}"
        return text, message, target_resolved(result.get("error_message") or "")
    return None, None, False


def read_report(report: dict | list, scenario_ids: list[str]) -> dict[str, ReplayResult]:
    """Per scenario id (its tag), how its examples went: the first failure wins; seconds are summed."""
    found: dict[str, ReplayResult] = {}
    for feature in report or []:
        for element in feature.get("elements", []):
            if element.get("type", "scenario") != "scenario":
                continue
            tags = {tag.get("name", "").lstrip("@") for tag in element.get("tags", [])}
            seconds = sum(step.get("result", {}).get("duration", 0) for step in element.get("steps", [])) / 1e9
            text, error, resolved = _scenario_failure(element)
            for scenario_id in scenario_ids:
                if scenario_id not in tags:
                    continue
                earlier = found.get(scenario_id)
                if earlier is not None and not earlier.passed:
                    earlier.seconds = round(earlier.seconds + seconds, 3)
                    continue
                passed = text is None and error is None
                total = (earlier.seconds if earlier else 0.0) + seconds
                found[scenario_id] = ReplayResult(passed=passed, failed_step=text, error=error, seconds=round(total, 3),
                                                  target_resolved=resolved)
    return found


def replay(
    suite_dir: Path | str,
    scenario_id: str,
    base_url: str,
    settings: Settings,
    reset_command: str | None = None,
) -> ReplayResult:
    """Run the scenario tagged @<scenario_id> with cucumber-js in suite_dir and report pass/fail."""
    return replay_scenarios(suite_dir, [scenario_id], base_url, settings, reset_command)[scenario_id]


def replay_scenarios(
    suite_dir: Path | str,
    scenario_ids: list[str],
    base_url: str,
    settings: Settings,
    reset_command: str | None = None,
) -> dict[str, ReplayResult]:
    """Run the scenarios tagged @<id> in one cucumber-js process, each in a fresh browser context behind the egress
    guard."""
    with replay_egress(scenario_ids, settings, base_url) as egress:
        return egress.judge(_run_cucumber(suite_dir, scenario_ids, base_url, settings, reset_command, egress.env()))


def _run_cucumber(suite_dir: Path | str, scenario_ids: list[str], base_url: str, settings: Settings,
                  reset_command: str | None, egress_env: dict[str, str]) -> dict[str, ReplayResult]:
    started = time.monotonic()
    suite = Path(suite_dir).resolve()
    node_modules = ensure_runtime(settings)
    _drop_runtime_link(suite, node_modules)
    cli, extra_env = cucumber_command(suite, node_modules)
    env = replay_environment(base_url, settings, reset_command)
    env.update(extra_env)
    env.update(egress_env)

    def every(error: str) -> dict[str, ReplayResult]:
        return all_failed(scenario_ids, started, error)

    with tempfile.TemporaryDirectory(prefix="stepforge-replay-") as scratch:
        report_path = Path(scratch) / "report.json"
        config_path = Path(scratch) / "cucumber.json"
        # Our own config keeps the suite's reports/ untouched, so replays of one suite can run side by side.
        config_path.write_text(_config(report_path), encoding="utf-8")
        # cucumber-js joins the config path onto its working directory, so it must be relative.
        config_arg = os.path.relpath(config_path, suite)
        tags = " or ".join(f"@{scenario_id}" for scenario_id in scenario_ids)
        limit = replay_timeout(settings, scenario_ids)
        if settings.resident_replay and extra_env:  # the shared runtime's cucumber-js, not the suite's own
            request = {"cwd": str(suite), "env": env, "config": config_arg, "tags": tags}
            resident = RUNNERS.replay(extra_env["NODE_PATH"], request, limit)
            if resident.timed_out:
                return every(not_finished(limit))
            if resident.error is None:
                return _results(report_path, resident.output, resident.exit_code, scenario_ids, suite, every)
        command = [str(cli), "--config", config_arg, "--tags", tags]
        try:
            process = subprocess.Popen(
                bound_to_this_process(command),
                cwd=suite,
                env=env,
                stdin=subprocess.DEVNULL,
                stdout=subprocess.PIPE,
                stderr=subprocess.STDOUT,
                text=True,
                start_new_session=True,
            )
        except OSError as exc:
            return every(f"cannot start cucumber-js ({cli}): {exc.strerror or exc}")
        output = run_to_end(process, limit)
        if output is None:
            return every(not_finished(limit))
        return _results(report_path, output, process.returncode, scenario_ids, suite, every)


def _results(report_path: Path, output: str, exit_code: int, scenario_ids: list[str], suite: Path,
             every: Callable[[str], dict[str, ReplayResult]]) -> dict[str, ReplayResult]:
    """Each scenario's result from the JSON report cucumber-js wrote, given its output and exit code."""
    report = None
    if report_path.is_file() and report_path.stat().st_size:
        try:
            report = json.loads(report_path.read_text(encoding="utf-8"))
        except json.JSONDecodeError:
            report = None
    if report is None:
        detail = first_lines(output or "") or f"exit status {exit_code}"
        return every(f"cucumber-js wrote no report: {detail}")
    results = read_report(report, scenario_ids)
    for scenario_id in scenario_ids:
        if scenario_id not in results:
            results[scenario_id] = ReplayResult(passed=False, error=f"no scenario tagged @{scenario_id} in {suite}")
    if exit_code != 0 and all(r.passed for r in results.values()):
        error = first_lines(output or "", 12) or f"cucumber-js exited {exit_code}"
        return every(error)
    return results
