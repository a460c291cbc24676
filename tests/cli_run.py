"""Run the command line as a user does (`python -m workers.cli ...`, a process of its own), and when it outlives its
time limit, fail with what it was doing: every Python thread's stack and every suspended greenlet's
(hang_report/sitecustomize.py, on SIGUSR1), the processes it started, each node process's report, and the end of its
output. A hang then explains itself in a CI log instead of a bare TimeoutExpired."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import psutil

from shared.lifetime import descendants

SHOWN = 12000  # characters of output shown on a hang
HANG_REPORT = Path(__file__).with_name("hang_report")
REPORT_END = "(end of the stacks)"


class CliHung(AssertionError):
    pass


def process_tree(processes: list[psutil.Process]) -> str:
    """Those processes (the command line's, and all it started: replay runners, browsers) with their CPU time."""
    lines = []
    for process in processes:
        try:
            with process.oneshot():
                cpu = sum(process.cpu_times()[:2])
                lines.append(f"{process.pid:>7} {process.ppid():>7} {cpu:7.1f}s {process.status():<9} "
                             f"{' '.join(process.cmdline())[:200]}")
        except psutil.Error:
            continue
    return "    pid    ppid     cpu status    command\n" + "\n".join(lines)


def tree_of(pid: int) -> list[psutil.Process]:
    try:
        return descendants(psutil.Process(pid))
    except psutil.Error:
        return []


def stop_tree(process: subprocess.Popen, children: list[psutil.Process] | None = None) -> None:
    children = tree_of(process.pid) if children is None else children
    for child in children:
        try:
            child.kill()
        except psutil.Error:
            pass
    process.kill()
    process.wait()
    psutil.wait_procs(children, timeout=10)


def node_reports(processes: list[psutil.Process], folder: Path) -> str:
    """What each node process among them was doing: its JavaScript stack and its open handles."""
    nodes = []
    for process in processes:
        try:
            if process.name() == "node":
                process.send_signal(signal.SIGUSR2)
                nodes.append(process.pid)
        except psutil.Error:
            continue
    shown = []
    deadline = time.monotonic() + 10
    for pid in nodes:
        found: list[Path] = []
        while not found and time.monotonic() < deadline:
            found = [p for p in folder.glob(f"report.*.{pid}.*.json") if p.stat().st_size]
            time.sleep(0.2)  # polls a file another process writes
        try:
            report = json.loads(found[0].read_text()) if found else None
        except (OSError, json.JSONDecodeError):
            report = None
        if report is None:
            shown.append(f"--- node {pid}: no report")
            continue
        stack = "\n".join(report.get("javascriptStack", {}).get("stack", [])[:20])
        handles = ", ".join(sorted(f"{h.get('type')}{'' if h.get('is_active') else '(idle)'}"
                                   for h in report.get("libuv", [])))
        shown.append(f"--- node {pid} ({' '.join(report.get('header', {}).get('commandLine', []))[:200]}):\n"
                     f"{report.get('javascriptStack', {}).get('message', '')}\n{stack}\nhandles: {handles}")
    return "\n".join(shown) + ("\n" if shown else "")


def run_cli(args: list[str], *, cwd: Path, env: dict[str, str] | None = None, timeout: float,
            capture: bool = False) -> subprocess.CompletedProcess[str]:
    """`python -m workers.cli *args`; its output is captured (capture=True: returned as stdout and stderr) or passed
    through. Past `timeout` seconds the test fails with the hang's stacks, process tree and output."""
    env = dict(os.environ if env is None else env)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(HANG_REPORT), env.get("PYTHONPATH")]))
    with tempfile.TemporaryDirectory(prefix="stepforge-cli-run-") as folder:
        reports = Path(folder) / "node-reports"
        reports.mkdir()
        # node (replays, their runners) writes a diagnostic report, its JavaScript stack and handles, on SIGUSR2
        env.setdefault("NODE_OPTIONS", f"--report-on-signal --report-directory={reports}")
        out_path, err_path = Path(folder) / "stdout", Path(folder) / "stderr"
        with out_path.open("w") as out, err_path.open("w") as err:  # read back by path: offsets of their own
            process = subprocess.Popen([sys.executable, "-m", "workers.cli", *args], cwd=cwd, env=env, text=True,
                                       stdout=out, stderr=err, start_new_session=True)
        try:
            process.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            children = tree_of(process.pid)
            tree = process_tree([psutil.Process(process.pid), *children])
            node = node_reports(children, reports)
            process.send_signal(signal.SIGUSR1)  # the stacks, to stderr
            report_end = time.monotonic() + 10
            while time.monotonic() < report_end and process.poll() is None \
                    and REPORT_END not in err_path.read_text(errors="replace"):
                time.sleep(0.2)  # polls a file another process writes
            stop_tree(process, children)
            raise CliHung(f"`workers.cli {' '.join(args[:1])}` did not end within {timeout:g} s\n"
                          f"--- its processes when stopped:\n{tree}\n{node}"
                          f"--- the end of its stdout:\n{out_path.read_text(errors='replace')[-SHOWN:]}\n"
                          f"--- the end of its stderr (the stacks last):\n"
                          f"{err_path.read_text(errors='replace')[-SHOWN:]}") from None
        except BaseException:
            stop_tree(process)
            raise
        stdout, stderr = out_path.read_text(errors="replace"), err_path.read_text(errors="replace")
    if not capture:  # shown with the test's own output, as a passed-through run would be
        sys.stdout.write(stdout)
        sys.stderr.write(stderr)
    return subprocess.CompletedProcess(process.args, process.returncode, stdout, stderr)

