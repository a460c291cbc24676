"""The corpus benchmark: generation measured on applications written by others.

    python -m bench.corpus [--app NAME ...] [--half dev|heldout|both] [--out bench/corpus/results]
                           [--brain builtin|openai] [--record DIR | --replay DIR]

For each application under bench/corpus/apps/ (see CONTRACT.md): install it into the corpus cache, start it on a
free port, generate each half's scenarios with the brain chosen (the builtin one unless --brain says otherwise; the
openai brain's endpoint from the usual STEPFORGE_MODEL_* settings; --record keeps its exchanges in a cassette,
--replay answers them from one with no endpoint), reset before every scenario, replay the
generated suite with cucumber-js, and score the verdicts against what the scenario file says must happen: a passing
scenario must pass, a failing variant must fail at its `fails_at` step. Prints per application and overall, for
each half: verdicts right, failing variants caught at the right step, replay green, the seed's metrics (a failing
test is a positive), the readability checks of the written steps; writes <out>/latest.json with a one-line reason
per wrong verdict.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO))

from bench.corpus.scoring import (  # noqa: E402
    Expectation,
    Result,
    metrics,
    one_line,
    readability,
    volatile_anchors,
    wrong_actions,
)
from shared.artifacts.local import LocalArtifactStore  # noqa: E402
from shared.logging import configure_logging  # noqa: E402
from shared.scenarios import ScenarioFile, ScenarioFileError, parse_scenarios  # noqa: E402
from shared.settings import Settings  # noqa: E402
from workers.agent.choice import open_agent  # noqa: E402
from workers.agent.pipeline import generate_suite  # noqa: E402
from workers.agent.verify.node_runtime import ensure_runtime  # noqa: E402
from workers.agent.verify.replay import replay_scenarios  # noqa: E402

APPS = REPO / "bench" / "corpus" / "apps"
HALVES = ("dev", "heldout")
EXTRA = "extra"  # scenario files kept outside the repository (--extra), scored as a half of their own
READY_TIMEOUT_S = 300.0  # a first start may build assets or migrate a database
INSTALL_TIMEOUT_S = 1800.0


class CorpusError(RuntimeError):
    """An application that could not be installed or started: its scenarios are reported as not run."""


def cache_dir() -> Path:
    return Path(os.environ.get("STEPFORGE_CORPUS_CACHE", Path.home() / ".cache" / "stepforge-corpus"))


def app_names() -> list[str]:
    return sorted(p.name for p in APPS.iterdir() if (p / "start.sh").is_file() and (p / "dev.yaml").is_file())


def load_half(app: str, half: str, only: set[str] | None = None,
              path: Path | None = None) -> tuple[ScenarioFile, dict[str, Expectation]] | None:
    """The half's scenarios as stepforge reads them, and what each must end as (fails_at, variant_of and each step's
    target are the benchmark's, never shown to generation); only: these scenario ids (None: all); path: a scenarios
    file kept elsewhere (--extra) instead of the half's. None when there are none."""
    import yaml

    path = path or APPS / app / f"{half}.yaml"
    if not path.is_file():
        return None
    try:
        document = yaml.safe_load(path.read_text(encoding="utf-8"))
        expectations: dict[str, Expectation] = {}
        if only is not None:
            document["scenarios"] = [e for e in document["scenarios"] if str(e["id"]) in only]
            if not document["scenarios"]:
                return None
        for entry in document["scenarios"]:
            fails_at = entry.pop("fails_at", None)
            variant_of = entry.pop("variant_of", None)
            said = {number: _target_name(step.pop("target")) for number, step in enumerate(entry.get("steps") or [], 1)
                    if isinstance(step, dict) and "target" in step}
            targets = {number: name for number, name in said.items() if name}
            expectations[str(entry["id"])] = Expectation(app, half, fails_at, variant_of, targets)
        # Validated as stepforge validates a scenarios file, so that a mistake is named the same way.
        scenario_file = parse_scenarios(yaml.safe_dump(document, allow_unicode=True), str(path))
    except (yaml.YAMLError, KeyError, TypeError, AttributeError, ScenarioFileError) as exc:
        raise CorpusError(f"{path}: {exc}") from None
    scenario_file.feature = f"{app} {half}"
    return scenario_file, expectations


def _target_name(target: object) -> str | None:
    """A step's `target:`, the element its action must be done on: its name, or a mapping of its role, accessible name
    and the text it stands near ({role: button, name: Save}); an element with no name cannot be told from another by
    it (`scoring.wrong_actions`), so it is not judged (None)."""
    if isinstance(target, dict):
        return " ".join(str(target.get("name") or "").split()) or None
    return str(target)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def install(app: str, log: Path) -> float:
    started = time.perf_counter()
    with log.open("ab") as out:
        done = subprocess.run(["bash", str(APPS / app / "install.sh")], cwd=REPO, stdout=out, stderr=out,
                              timeout=INSTALL_TIMEOUT_S)
    if done.returncode != 0:
        raise CorpusError(f"install.sh exited {done.returncode} (log: {log})")
    return time.perf_counter() - started


class RunningApp:
    """start.sh PORT in a process group of its own; stopped as a group."""

    def __init__(self, app: str, log: Path) -> None:
        self.app, self.port = app, free_port()
        self.base_url = f"http://127.0.0.1:{self.port}"
        self.reset_command = f"bash {APPS / app / 'reset.sh'} {self.port}"
        self._log = log.open("ab")
        self.process = subprocess.Popen(["bash", str(APPS / app / "start.sh"), str(self.port)], cwd=REPO,
                                        stdout=self._log, stderr=self._log, start_new_session=True)

    def wait_ready(self) -> float:
        started = time.perf_counter()
        while time.perf_counter() - started < READY_TIMEOUT_S:
            if self.process.poll() is not None:
                raise CorpusError(f"start.sh exited {self.process.returncode} before answering (log: {self._log.name})")
            try:
                with urllib.request.urlopen(self.base_url + "/", timeout=5):
                    return time.perf_counter() - started
            except urllib.error.HTTPError as exc:
                if exc.code < 500:
                    return time.perf_counter() - started
            except (urllib.error.URLError, OSError):
                pass
            try:  # an outside server: poll it, or see start.sh end
                self.process.wait(timeout=0.5)
            except subprocess.TimeoutExpired:
                pass
        raise CorpusError(f"{self.base_url} did not answer within {READY_TIMEOUT_S:.0f} s (log: {self._log.name})")

    def stop(self) -> None:
        try:
            os.killpg(self.process.pid, signal.SIGTERM)
            self.process.wait(timeout=20)
        except (ProcessLookupError, subprocess.TimeoutExpired):
            try:
                os.killpg(self.process.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        self._log.close()


def run_half(running: RunningApp, scenario_file: ScenarioFile, expectations: dict[str, Expectation],
             settings: Settings, work: Path) -> list[Result]:
    suite_dir = work / "suite"
    started = time.perf_counter()
    agent = open_agent(settings)  # the brain --brain chose (settings.brain), its endpoint or cassette
    try:
        result = generate_suite(scenario_file, base_url=running.base_url, out_dir=suite_dir, settings=settings,
                                store=LocalArtifactStore(work / "artifacts"), reset_command=running.reset_command,
                                project=f"corpus-{running.app}", register_steps=False, agent=agent)
    finally:
        agent.close()
    seconds = time.perf_counter() - started
    passed = [o.scenario.id for o in result.outcomes if o.verdict.status == "passed"]
    replays = replay_scenarios(suite_dir, passed, running.base_url, settings, running.reset_command) if passed else {}
    features = "\n".join(p.read_text(encoding="utf-8") for p in sorted((suite_dir / "features").glob("*.feature"))) \
        if (suite_dir / "features").is_dir() else ""
    results = []
    for outcome in result.outcomes:
        scenario = outcome.scenario
        replay = replays.get(scenario.id)
        results.append(Result(
            expectation=expectations[scenario.id], scenario_id=scenario.id, status=outcome.verdict.status,
            step=outcome.verdict.step, kind=outcome.verdict.kind, reason=outcome.verdict.reason,
            replay_green=None if replay is None else replay.passed,
            replay_error=None if replay is None or replay.passed else (replay.error or "")[:300],
            readability=readability(scenario, features) if outcome.verdict.status == "passed" else [],
            volatile=volatile_anchors(scenario, features, outcome.record.operations)
            if outcome.verdict.status == "passed" else [],
            seconds=round(outcome.seconds, 1),
            partial=[f"step {r.step}: {r.sentence!r}: {', '.join(repr(u) for u in r.unused)} not used"
                     for r in outcome.record.readings if r.unused],
            wrong_actions=wrong_actions(expectations[scenario.id].targets, outcome.record.operations)))
    total = (result.model_usage or {}).get("total") or {}
    model = (f"; model: {total.get('calls', 0)} calls ({total.get('calls', 0) / max(1, len(result.outcomes)):.1f} a "
             f"scenario), {total.get('input_tokens', 0)}+{total.get('output_tokens', 0)} tokens, "
             f"${total.get('cost', 0):.4f}") if total.get("calls") else ""
    print(f"  [{running.app} {expectations and next(iter(expectations.values())).half}] {len(result.outcomes)} "
          f"scenarios in {seconds:.0f} s{model}", file=sys.stderr)
    return results


def keep_suite(suite: Path, kept: Path) -> None:
    """The generated suite beside the results, to read (its npm packages left out)."""
    if suite.is_dir():
        shutil.rmtree(kept, ignore_errors=True)
        shutil.copytree(suite, kept, ignore=shutil.ignore_patterns("node_modules", "*.zip"))


def bench_app(app: str, halves: list[str], settings: Settings, out: Path, only: set[str] | None = None,
              extra: Path | None = None) -> dict:
    """One application's halves (or, with extra, that scenarios file alone, as the half "extra")."""
    logs = out / "logs"
    logs.mkdir(parents=True, exist_ok=True)
    figures: dict = {"app": app, "results": [], "error": None}
    try:
        loaded = {EXTRA: load_half(app, EXTRA, only, extra)} if extra else \
            {half: load_half(app, half, only) for half in halves}
        if only is not None and not any(loaded.values()):
            return figures
        print(f"[{app}] installing...", file=sys.stderr)
        figures["install_s"] = round(install(app, logs / f"{app}-install.log"), 1)
        running = RunningApp(app, logs / f"{app}-server.log")
        try:
            figures["start_s"] = round(running.wait_ready(), 1)
            for half, found in loaded.items():
                if found is None:
                    continue
                scenario_file, expectations = found
                print(f"[{app}] generating the {half} half ({len(scenario_file.scenarios)} scenarios)...",
                      file=sys.stderr)
                with tempfile.TemporaryDirectory(prefix=f"stepforge-corpus-{app}-") as scratch:
                    figures["results"] += [r.as_dict() for r in
                                           run_half(running, scenario_file, expectations, settings, Path(scratch))]
                    keep_suite(Path(scratch) / "suite", out / "suites" / f"{app}-{half}")
        finally:
            running.stop()
    except (CorpusError, subprocess.TimeoutExpired) as exc:
        figures["error"] = str(exc)
        print(f"[{app}] NOT RUN: {exc}", file=sys.stderr)
    return figures


def print_report(apps: list[dict], halves: list[str]) -> dict:
    results = [Result.from_dict(r) for a in apps for r in a["results"]]
    summary: dict = {}
    header = (f"{'':<22}{'n':>4}{'right':>8}{'at step':>9}{'replay':>8}{'acc':>7}{'spec':>7}{'sens':>7}{'AER':>7}"
              f"{'HER':>7}{'SMER':>7}{'TruAcc':>8}{'read':>6}{'tmrw':>6}{'partial':>9}{'wrong':>7}{'refused':>9}"
              f"{'claim':>7}")
    for half in halves:
        print(f"\n=== {half} half")
        print(header)
        rows = {a["app"]: [r for r in results if r.expectation.app == a["app"] and r.expectation.half == half]
                for a in apps}
        rows["OVERALL"] = [r for r in results if r.expectation.half == half]
        summary[half] = {}
        for name, chosen in rows.items():
            m = metrics(chosen)
            summary[half][name] = m
            if not m["n"]:
                print(f"{name:<22}{'not run':>8}")
                continue
            print(f"{name:<22}{m['n']:>4}{m['verdicts_right']:>8.2f}{m['variants_at_step']:>9}{m['replay_green']:>8}"
                  f"{m['accuracy']:>7.2f}{m['specificity']:>7.2f}{m['sensitivity']:>7.2f}{m['aer']:>7.2f}"
                  f"{m['her']:>7.2f}{m['smer']:>7.2f}{m['true_accuracy']:>8.2f}{m['readability_issues']:>6}"
                  f"{m['volatile_anchors']:>6}"
                  f"{m['partial_readings']:>9}{m['wrong_actions']:>7}{m['unreadable']:>9}{m['caught_by_claim']:>7}")
        overall = summary[half]["OVERALL"]
        if overall["n"]:
            print(f"{'95% interval':<22}{'':>4}{_span(overall['verdicts_right_95']):>17}{'':>29}"
                  f"{_span(overall['sensitivity_95']):>10}{'':>21}{_span(overall['true_accuracy_95']):>12}")
    wrong = [r for r in results if not r.right()]
    if wrong:
        print("\nwrong verdicts (one line each):")
        for r in wrong:
            print(f"  {r.expectation.half:<8}{r.scenario_id:<10}{r.explain()}")
    unreadable = [r for r in results if r.readability]
    if unreadable:
        print("\nsteps that do not read as the tester wrote them:")
        for r in unreadable:
            for problem in r.readability:
                print(f"  {r.expectation.half:<8}{r.scenario_id:<10}{problem}")
    volatile = [(r, p) for r in results for p in r.volatile]
    if volatile:
        print("\nsteps and locators that read otherwise tomorrow (a date, time or count the tester did not write):")
        for r, problem in volatile:
            print(f"  {r.expectation.half:<8}{r.scenario_id:<10}{one_line(problem)}")
    for a in apps:
        if a["error"]:
            print(f"\n{a['app']}: NOT RUN: {a['error']}")
    partial = [(r, p) for r in results for p in r.partial]
    if partial:
        print("\nsteps done with words of their sentence unused (partial readings):")
        for r, problem in partial:
            print(f"  {r.expectation.half:<8}{r.scenario_id:<10}{one_line(problem)}")
    for r in results:
        for problem in r.wrong_actions:
            print(f"  WRONG ACTION {r.expectation.half:<8}{r.scenario_id:<10}{one_line(problem)}")
    print("\nright: passing scenarios passed and failing variants failed (accuracy); at step: failing variants "
          "failed at their step / variants; replay: generated scenarios green in the suite's own replay / "
          "generated; read: readability problems in passed scenarios' steps; tmrw: dates, times, relative times, "
          "counts and generated ids in passed scenarios' steps, Examples or locators that their tester did not write "
          "(shared/volatile.py; must be 0); partial: steps done with words of "
          "their sentence unused (workers/agent/reading/coverage.py; must be 0); wrong: steps none of whose "
          "actions was done on their `target:` (must be 0); refused: scenarios stopped on a sentence not read; claim: "
          "failing variants that failed at their step on what they check or do (not on a refusal) / variants; "
          "95% interval: Wilson's, of the overall figure above it.")
    return summary


def _span(bounds: tuple[float, float]) -> str:
    return f"{bounds[0]:.2f}-{bounds[1]:.2f}"


def extra_files(paths: list[Path]) -> dict[str, Path]:
    """--extra FILE ...: each named <app>.yaml after a corpus application; a usage error names a file that is not."""
    known = app_names()
    out: dict[str, Path] = {}
    for path in paths:
        if not path.is_file():
            raise SystemExit(f"python -m bench.corpus: error: --extra {path}: no such file")
        if path.suffix not in (".yaml", ".yml") or path.stem not in known:
            raise SystemExit(f"python -m bench.corpus: error: --extra {path}: name it <app>.yaml after one of the "
                             f"corpus applications ({', '.join(known)})")
        if path.stem in out:
            raise SystemExit(f"python -m bench.corpus: error: --extra: two files for {path.stem}")
        out[path.stem] = path.resolve()
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.corpus", description=__doc__.splitlines()[0])
    parser.add_argument("--app", action="append", choices=app_names(), help="only this application (repeatable)")
    parser.add_argument("--half", choices=(*HALVES, "both"), default="both")
    parser.add_argument("--scenario", action="append", metavar="ID",
                        help="only this scenario, e.g. DS-2 (repeatable; its application is found by its id)")
    parser.add_argument("--out", type=Path, default=REPO / "bench" / "corpus" / "results")
    parser.add_argument("--extra", type=Path, nargs="+", metavar="FILE",
                        help="scenario files kept elsewhere, each named <app>.yaml in the halves' format, run instead "
                             "of the halves and scored the same way")
    parser.add_argument("--brain", choices=("builtin", "openai"), default="builtin",
                        help="who reads the scenarios (openai: the endpoint of STEPFORGE_MODEL_BASE_URL, "
                             "STEPFORGE_MODEL_API_KEY, STEPFORGE_MODEL_NAME)")
    cassette = parser.add_mutually_exclusive_group()
    cassette.add_argument("--record", type=Path, metavar="DIR", help="keep every model exchange in this cassette")
    cassette.add_argument("--replay", type=Path, metavar="DIR",
                          help="answer every model request from this cassette, with no endpoint")
    args = parser.parse_args(argv)
    only = set(args.scenario) if args.scenario else None
    extra = extra_files(args.extra) if args.extra else {}
    # Stopped from outside, the running application is stopped too (its process group is ours to end).
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    os.chdir(REPO)
    settings = Settings()
    chosen: dict = {"brain": args.brain}
    if args.record or args.replay:
        chosen.update(model_cassette=(args.record or args.replay).resolve(),
                      model_cassette_mode="record" if args.record else "replay")
    settings = settings.model_copy(update=chosen)
    configure_logging(settings)
    ensure_runtime(settings)
    halves = [EXTRA] if extra else list(HALVES) if args.half == "both" else [args.half]
    started = time.perf_counter()
    args.out.mkdir(parents=True, exist_ok=True)
    apps: list[dict] = []

    def write(summary: dict | None) -> dict:
        document = {"date": time.strftime("%Y-%m-%d %H:%M"), "machine": f"{os.cpu_count()} cores",
                    "seconds": round(time.perf_counter() - started), "halves": halves, "summary": summary,
                    "apps": apps}
        (args.out / "latest.json").write_text(json.dumps(document, indent=2) + "\n")
        return document

    for app in args.app or (sorted(extra) if extra else app_names()):
        if extra and app not in extra:
            continue
        figures = bench_app(app, halves, settings, args.out, only, extra.get(app))
        if only is None or figures["results"] or figures["error"]:
            apps.append(figures)
        write(None)  # what has run so far survives an interrupted run
    document = write(print_report(apps, halves))
    print(f"\nresults: {args.out / 'latest.json'} ({document['seconds']} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
