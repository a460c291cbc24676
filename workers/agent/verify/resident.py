"""cucumber-js kept resident between replays: each worker process keeps its own node processes running resident.js,
so a replay no longer pays node's, cucumber-js's and playwright-core's start (about 0.6 s and 0.9 CPU-seconds).

A runner takes one replay at a time; a process keeps at most IDLE_KEPT of them idle and starts another when all are
busy (replays side by side in threads). A runner that does not answer within the replay's time limit is stopped with
its whole process group (its browser too) and never reused; one that ended or answered with an error of its own
leaves the replay to a cold cucumber-js (replay.py), so a runner's failure never fails a scenario. A runner's stdin
is its worker's pipe: the worker gone, however it died, the runner reads its end and exits, and Chromium with it.
A forked process (Celery's prefork pool) never uses its parent's runners.
"""

from __future__ import annotations

import atexit
import json
import os
import selectors
import subprocess
import threading
import time
from dataclasses import dataclass
from pathlib import Path

from shared.lifetime import stop_process_group

MARK = "\x1estepforge-resident "
SCRIPT = Path(__file__).with_name("resident.js")
IDLE_KEPT = 2
REPLAYS_PER_RUNNER = 100  # then it is replaced: what the suites' modules leave behind never adds up


@dataclass
class ResidentAnswer:
    """How a resident replay ended: `exit_code` as cucumber-js's own (0 or 1) and its output; or `error` when the
    runner could not run it (then the replay is run cold); `timed_out` when it outlived its time limit."""

    exit_code: int = 0
    output: str = ""
    error: str | None = None
    timed_out: bool = False


class Runner:
    def __init__(self, node_path: str) -> None:
        self.node_path = node_path
        env = {**os.environ, "NODE_PATH": node_path, "FORCE_COLOR": "0", "NO_COLOR": "1"}
        self.process = subprocess.Popen(["node", str(SCRIPT)], env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                        stderr=subprocess.STDOUT, start_new_session=True)  # OSError: see _take
        self.replays = 0

    def alive(self) -> bool:
        return self.process.poll() is None

    def replay(self, request: dict, timeout_s: float) -> ResidentAnswer:
        self.replays += 1
        assert self.process.stdin is not None and self.process.stdout is not None
        try:
            self.process.stdin.write((json.dumps(request) + "\n").encode())
            self.process.stdin.flush()
        except OSError as exc:
            return ResidentAnswer(error=f"the resident runner is gone: {exc}")
        try:
            return self._read_answer(timeout_s)
        except BaseException:  # interrupted (Ctrl-C included): no runner, browser or reset command left behind
            self.stop()
            raise

    def _read_answer(self, timeout_s: float) -> ResidentAnswer:
        assert self.process.stdout is not None
        output: list[bytes] = []
        started = False  # what the runner printed before this replay's start (a late warning) is not its output
        mark = MARK.encode()
        deadline = time.monotonic() + timeout_s
        with selectors.DefaultSelector() as selector:
            selector.register(self.process.stdout, selectors.EVENT_READ)
            pending = b""
            while True:
                left = deadline - time.monotonic()
                if left <= 0 or not selector.select(timeout=left):
                    self.stop()
                    return ResidentAnswer(output=b"".join(output).decode(errors="replace"), timed_out=True)
                chunk = os.read(self.process.stdout.fileno(), 65536)
                if not chunk:
                    text = (b"".join(output) + pending).decode(errors="replace")
                    return ResidentAnswer(output=text, error="the resident runner ended during the replay")
                pending += chunk
                *lines, pending = pending.split(b"\n")
                for line in lines:
                    if line == mark + b"start":
                        started, output = True, []
                    elif line.startswith(mark):
                        return self._answer(json.loads(line[len(mark):]), b"".join(output))
                    elif started:
                        output.append(line + b"\n")

    @staticmethod
    def _answer(answer: dict, output: bytes) -> ResidentAnswer:
        text = output.decode(errors="replace")
        if answer.get("error"):
            return ResidentAnswer(output=text, error=str(answer["error"]))
        return ResidentAnswer(exit_code=0 if answer.get("success") else 1, output=text)

    def stop(self) -> None:
        if self.process.stdin:
            try:
                self.process.stdin.close()
            except OSError:
                pass
        stop_process_group(self.process)
        if self.process.stdout:
            self.process.stdout.close()


class ResidentRunners:
    """This process's runners (a new set in a forked child)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._idle: list[Runner] = []
        self._pid = os.getpid()

    def _take(self, node_path: str) -> Runner:
        dead = []
        with self._lock:
            if self._pid != os.getpid():  # forked: the parent's runners are the parent's
                self._idle, self._pid = [], os.getpid()
            for runner in [r for r in self._idle if r.node_path == node_path]:
                self._idle.remove(runner)
                if runner.alive():
                    return runner
                dead.append(runner)
        for runner in dead:  # reaped, its pipes closed
            runner.stop()
        return Runner(node_path)

    def _give_back(self, runner: Runner) -> None:
        with self._lock:
            if runner.alive() and runner.replays < REPLAYS_PER_RUNNER and len(self._idle) < IDLE_KEPT \
                    and self._pid == os.getpid():
                self._idle.append(runner)
                return
        runner.stop()

    def replay(self, node_path: str, request: dict, timeout_s: float) -> ResidentAnswer:
        """Run one replay (see resident.js) in a runner whose modules resolve through node_path."""
        try:
            runner = self._take(node_path)
        except OSError as exc:
            return ResidentAnswer(error=f"cannot start the resident runner: {exc.strerror or exc}")
        answer = runner.replay(request, timeout_s)
        if answer.error is None and not answer.timed_out:
            self._give_back(runner)
        elif not answer.timed_out:
            runner.stop()
        return answer

    def close(self) -> None:
        """Let the idle runners go: their stdin closed, each ends by itself (not waited for)."""
        with self._lock:
            idle, self._idle = (self._idle, []) if self._pid == os.getpid() else ([], self._idle)
        for runner in idle:
            if runner.process.stdin:
                try:
                    runner.process.stdin.close()
                except OSError:
                    pass


RUNNERS = ResidentRunners()
atexit.register(RUNNERS.close)
