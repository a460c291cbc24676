"""stepforge benchmark over the demo scenarios of both demo applications.

    cd /work/main && python -m bench [--demo petclinic|teamtasks|both] [--out bench/results] [--quick]

Per demo and repetition: generate the suite in-process (generate_suite, builtin brain, demo app on free ports)
while sampling memory, then replay the generated suite with cucumber-js and run the same flows hand-written in
Playwright (bench/handwritten/petclinic.js, bench/handwritten/teamtasks.js), in pairs one after the other; the
ratio is the median of the pairs' ratios. The generated suite is replayed as a worker replays it (replay_scenarios:
behind the egress guard, in the cucumber-js the worker process keeps resident); the hand-written flows start a node
of their own each time. Teamtasks answers every API call
300-1000 ms late: its framework time shows what waiting for a page that changes without a page load costs.
Prints a table per demo; writes <out>/latest.json.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from bench.memory import TreeSampler, python_peak_rss_kb  # noqa: E402
from shared.artifacts.local import LocalArtifactStore  # noqa: E402
from shared.logging import configure_logging  # noqa: E402
from shared.scenarios import ScenarioFile, load_scenarios  # noqa: E402
from shared.settings import Settings  # noqa: E402
from tests.apps import petclinic, teamtasks  # noqa: E402
from tests.apps.reset import reset_command as demo_reset_command  # noqa: E402
from workers.agent.pipeline import generate_suite  # noqa: E402
from workers.agent.verify.node_runtime import ensure_runtime  # noqa: E402
from workers.agent.verify.replay import replay_scenarios  # noqa: E402

TARGET_MS = 150.0  # median framework time per operation
PHASES = ("tree", "decide", "grounding", "execution", "observation")
REPETITIONS = 3
PAIRS = 3  # per repetition: generated replay and hand-written flows, run one after the other
TARGET_RATIO = 1.1  # generated replay / hand-written Playwright
HANDWRITTEN = REPO / "bench" / "handwritten"


class BenchError(RuntimeError):
    pass


@dataclass
class Demo:
    name: str
    scenarios: Path
    only: tuple[str, ...]  # the scenarios generated (empty: all of the file's)
    start: Callable[[], tuple[str, Callable[[], None]]]  # -> (base URL, stop)
    handwritten: Path | None  # the same flows hand-written in Playwright (bench/handwritten/<demo>.js), if any

    def scenario_file(self) -> ScenarioFile:
        loaded = load_scenarios(self.scenarios)
        if not self.only:
            return loaded
        return loaded.model_copy(update={"scenarios": [s for s in loaded.scenarios if s.id in self.only]})


def start_teamtasks() -> tuple[str, Callable[[], None]]:
    app = teamtasks.serve_in_thread()
    return app.web_url, app.stop


DEMOS = {
    "petclinic": Demo("petclinic", REPO / "examples" / "petclinic.yaml", (), petclinic.serve_in_thread,
                      HANDWRITTEN / "petclinic.js"),
    # All of its scenarios: type-ahead, dialogs, icons, rows, places, hover, tabs, uploads, history, waits, absence.
    "teamtasks": Demo("teamtasks", REPO / "examples" / "teamtasks.yaml", (), start_teamtasks,
                      HANDWRITTEN / "teamtasks.js"),
}


def p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(0.95 * len(ordered) + 0.5) - 1))]  # nearest rank


def summary(values: list[float]) -> dict[str, float]:
    if not values:
        return {"n": 0, "median": 0.0, "p95": 0.0, "max": 0.0}
    return {"n": len(values), "median": round(statistics.median(values), 2), "p95": round(p95(values), 2),
            "max": round(max(values), 2)}


def operation_phases(timings: dict[str, float]) -> dict[str, float]:
    """Framework time of one operation by phase, in ms, as the run record holds it."""
    phases = {phase: float(timings.get(phase, 0.0)) for phase in PHASES}
    phases["total"] = sum(phases[phase] for phase in PHASES)
    phases["screenshot"] = float(timings.get("screenshot", 0.0))
    return phases


def read_records(artifacts: Path) -> list[dict]:
    """Every attempt's run record, as the pipeline wrote it."""
    return [json.loads(path.read_text()) for path in sorted(artifacts.glob("*/attempt-*/run.json"))]


def generate(scenario_file, base_url: str, reset_command: str, settings: Settings, work: Path) -> dict:
    artifacts, suite_dir = work / "artifacts", work / "suite"
    python_before = python_peak_rss_kb()
    with TreeSampler() as sampler:
        started = time.perf_counter()
        result = generate_suite(scenario_file, base_url=base_url, out_dir=suite_dir, settings=settings,
                                store=LocalArtifactStore(artifacts), reset_command=reset_command)
        wall = time.perf_counter() - started
    records = read_records(artifacts)
    if not records:
        raise BenchError(f"the pipeline wrote no run records under {artifacts}")
    generation_s: dict[str, float] = {}
    outside_s: list[float] = []  # per attempt: generation time in no operation phase and no screenshot
    for record in records:  # every attempt counts towards its scenario's generation time
        seconds = record["timings_ms"].get("generation", 0.0) / 1000
        generation_s[record["scenario_id"]] = generation_s.get(record["scenario_id"], 0.0) + seconds
        phases = [operation_phases(op["timings_ms"]) for op in record["operations"]]
        outside_s.append(seconds - sum(p["total"] + p["screenshot"] for p in phases) / 1000)
    return {
        "suite_dir": suite_dir,
        "compression": result.totals(),
        "passed": [o.scenario.id for o in result.outcomes if o.verdict.status == "passed"],
        "failed": {o.scenario.id: o.verdict.reason for o in result.outcomes if o.verdict.status != "passed"},
        "attempts": sum(o.attempts for o in result.outcomes),
        "retried": sorted(o.scenario.id for o in result.outcomes if o.attempts > 1),
        "operations": [{**operation_phases(op["timings_ms"]), "op": f'{r["scenario_id"]}/{r["attempt"]}#{op["index"]} '
                        f'{op["kind"]}: {op["description"]}'} for r in records for op in r["operations"]],
        "failed_operations": sum(not op["ok"] for r in records for op in r["operations"]),
        "generation_s": generation_s,
        "outside_operations_s": outside_s,
        "job_wall_s": wall,
        "tree_peak_kb": sampler.peak_kb,
        "tree_peak_processes": sampler.peak_processes,
        "tree_peak_without_replay_kb": sampler.peak_without_replay_kb,
        "rss_samples": sampler.samples,
        "python_peak_kb": max(python_before, python_peak_rss_kb()),
    }


def replay_generated(suite_dir: Path, ids: list[str], base_url: str, reset_command: str, settings: Settings) -> float:
    started = time.perf_counter()
    results = replay_scenarios(suite_dir, ids, base_url, settings, reset_command)
    seconds = time.perf_counter() - started
    red = {i: r.error for i, r in results.items() if not r.passed}
    if red:
        raise BenchError(f"the generated suite failed its replay: {red}")
    return seconds


def run_handwritten(flows_js: Path, base_url: str, node_modules: Path, settings: Settings) -> float:
    env = {**os.environ, "NODE_PATH": str(node_modules), "STEPFORGE_BROWSER_PATH": settings.replay_browser}
    started = time.perf_counter()
    done = subprocess.run(["node", str(flows_js), base_url], env=env, capture_output=True, text=True, timeout=600)
    seconds = time.perf_counter() - started
    if done.returncode != 0:
        raise BenchError(f"hand-written flows failed (exit {done.returncode}): {(done.stdout + done.stderr)[-800:]}")
    return seconds


def mb(kb: float) -> float:
    return round(kb / 1024, 1)


def aggregate(runs: list[dict], replays: list[float], hands: list[float]) -> dict:
    ops = [op for run in runs for op in run["operations"]]
    framework = {key: summary([op[key] for op in ops]) for key in (*PHASES, "total", "screenshot")}
    scenario_s = [s for run in runs for s in run["generation_s"].values()]
    generated = statistics.median(replays)
    handwritten = statistics.median(hands) if hands else None
    pair_ratios = [g / h for g, h in zip(replays, hands)]  # each replay beside the hand-written run next to it
    return {
        "repetitions": len(runs),
        "operations": len(ops),
        "failed_operations": sum(run["failed_operations"] for run in runs),
        "attempts": [run["attempts"] for run in runs],
        "retried": [run["retried"] for run in runs],
        "passed": len(runs[-1]["passed"]),
        "failed": runs[-1]["failed"],
        "compression": runs[-1]["compression"],
        "framework_ms": framework,
        "target_ms": TARGET_MS,
        "target_met": framework["total"]["median"] <= TARGET_MS,
        "scenario_generation_s": summary(scenario_s),
        "scenario_outside_operations_s": summary([s for run in runs for s in run["outside_operations_s"]]),
        "job_wall_s": {"median": round(statistics.median(r["job_wall_s"] for r in runs), 2),
                       "all": [round(r["job_wall_s"], 2) for r in runs]},
        "replay_s": {"generated_cucumber": round(generated, 2),
                     "handwritten_playwright": round(handwritten, 2) if handwritten else None,
                     "ratio": round(statistics.median(pair_ratios), 2) if pair_ratios else None,
                     "pair_ratios": [round(r, 2) for r in pair_ratios],
                     "generated_all": [round(s, 2) for s in replays], "handwritten_all": [round(s, 2) for s in hands]},
        "memory_mb": {"python_peak_rss": mb(max(r["python_peak_kb"] for r in runs)),
                      "tree_peak_rss": mb(max(r["tree_peak_kb"] for r in runs)),
                      "tree_peak_processes": max(r["tree_peak_processes"] for r in runs),
                      "tree_peak_rss_without_replay": mb(max(r["tree_peak_without_replay_kb"] for r in runs))},
        "slowest_operations": [{"op": op["op"], **{k: round(op[k], 1) for k in (*PHASES, "total")}}
                               for op in sorted(ops, key=lambda op: -op["total"])[:5]],
    }


def print_table(name: str, figures: dict) -> None:
    f, rows = figures["framework_ms"], []
    print(f"\n=== {name}\nstepforge bench: {figures['repetitions']} repetition(s), {figures['passed']} scenario(s) "
          f"passed, {figures['operations']} operations ({figures['failed_operations']} failed), attempts "
          f"{figures['attempts']}")
    retried = figures["retried"]
    print(f"scenarios that needed more than one attempt: {[len(r) for r in retried]} per repetition"
          + (f" ({retried})" if any(retried) else ""))
    if figures["failed"]:
        print(f"  FAILED scenarios: {figures['failed']}")
    c = figures["compression"]
    print(f"abstraction (the method's table 1): {c['operations']} operations in {c['steps']} steps; "
          f"{c['ops_in_code']} operations in the step definitions after reuse "
          f"({c['step_definitions']} definitions; {c['operations'] / max(1, c['ops_in_code']):.2f}x)")
    print(f"\n{'framework time per operation (ms)':<40}{'median':>10}{'p95':>10}{'max':>10}")
    labels = {"tree": "tree build", "decide": "decide (builtin brain)", "grounding": "grounding",
              "execution": "execution", "observation": "observation", "total": "TOTAL framework / operation",
              "screenshot": "screenshot write (not in total)"}
    for key, label in labels.items():
        rows.append(f"{label:<40}{f[key]['median']:>10.1f}{f[key]['p95']:>10.1f}{f[key]['max']:>10.1f}")
    print("\n".join(rows))
    verdict = "PASS" if figures["target_met"] else "MISS"
    print(f"target: median total <= {figures['target_ms']:.0f} ms -> {verdict} ({f['total']['median']:.1f} ms)")
    g, j, r, m = (figures["scenario_generation_s"], figures["job_wall_s"], figures["replay_s"],
                  figures["memory_mb"])
    print(f"\nscenario generation (s): median {g['median']:.2f}  p95 {g['p95']:.2f}  max {g['max']:.2f}  (n={g['n']})")
    o = figures["scenario_outside_operations_s"]
    print(f"  of which outside the operation phases and screenshots (reset command, context, trace, untimed "
          f"page reads): median {o['median']:.2f}  p95 {o['p95']:.2f}  max {o['max']:.2f}")
    print(f"whole job wall time (s): median {j['median']:.2f}  runs {j['all']}")
    print("\nreplay, all scenarios (s, wall, median of runs):")
    print(f"  generated suite (cucumber-js as the worker runs it, kept resident: its start paid once per worker "
          f"process, by generation's first replay): {r['generated_cucumber']:.2f}  "
          f"{r['generated_all']}")
    if r["ratio"] is not None:
        print(f"  hand-written Playwright (node, incl. its own process start): {r['handwritten_playwright']:.2f}  "
              f"{r['handwritten_all']}")
        print(f"  ratio generated / hand-written: {r['ratio']:.2f}x (median of {len(r['pair_ratios'])} pairs run one "
              f"after the other: {r['pair_ratios']}; target <= {TARGET_RATIO:.1f}x -> "
              f"{'PASS' if r['ratio'] <= TARGET_RATIO else 'MISS'})")
    print(f"\npeak memory: python process {m['python_peak_rss']:.1f} MB; process tree incl. Chromium "
          f"{m['tree_peak_rss']:.1f} MB ({m['tree_peak_processes']} processes, sum of VmRSS, includes the "
          f"pipeline's own cucumber-js replay); without the replay subtree {m['tree_peak_rss_without_replay']:.1f} MB")
    print("\nslowest operations (framework ms: total = tree + decide + grounding + execution + observation):")
    for op in figures["slowest_operations"]:
        phases = " ".join(f"{k[:4]} {op[k]:.0f}" for k in PHASES)
        print(f"  {op['total']:7.0f}  {op['op'][:60]:<60} {phases}")


def bench_demo(demo: Demo, repetitions: int, settings: Settings, node_modules: Path) -> dict:
    scenario_file = demo.scenario_file()
    base_url, stop = demo.start()
    # The reset the hand-written flows do (one POST /__reset), as the shell command the suite runs: the comparison
    # is of the suites, not of how long a reset tool takes to start (`python -m tests.apps.<demo> reset` costs about
    # 0.15 s of interpreter start per scenario).
    reset_command = demo_reset_command(base_url)
    runs, replays, hands = [], [], []
    try:
        for repetition in range(repetitions):
            with tempfile.TemporaryDirectory(prefix="stepforge-bench-") as scratch:
                print(f"[{demo.name} {repetition + 1}] generating {len(scenario_file.scenarios)} scenarios...",
                      file=sys.stderr)
                run = generate(scenario_file, base_url, reset_command, settings, Path(scratch))
                if not run["passed"]:
                    raise BenchError(f"no {demo.name} scenario passed generation: {run['failed']}")
                print(f"[{demo.name} {repetition + 1}] replaying the generated suite"
                      + (f" and the hand-written flows, {PAIRS} pairs..." if demo.handwritten else "..."),
                      file=sys.stderr)
                generated = partial(replay_generated, run["suite_dir"], run["passed"], base_url, reset_command,
                                    settings)
                if demo.handwritten is None:
                    replays.append(generated())
                hand = partial(run_handwritten, demo.handwritten, base_url, node_modules, settings)
                for pair in range(PAIRS if demo.handwritten else 0):
                    # One after the other, each pair in the other order: the machine's pace drifts between runs
                    # (the hand-written flows alone vary by a third), the two runs of a pair share it.
                    first, second = (hand, generated) if pair % 2 else (generated, hand)
                    first_s, second_s = first(), second()
                    replays.append(second_s if pair % 2 else first_s)
                    hands.append(first_s if pair % 2 else second_s)
                run.pop("suite_dir")
                runs.append(run)
    finally:
        stop()
    return aggregate(runs, replays, hands)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench", description=__doc__.splitlines()[0])
    parser.add_argument("--demo", choices=(*DEMOS, "both"), default="both")
    parser.add_argument("--out", type=Path, default=REPO / "bench" / "results")
    parser.add_argument("--quick", action="store_true", help="one repetition instead of %d" % REPETITIONS)
    args = parser.parse_args(argv)
    os.chdir(REPO)  # relative paths (examples/, bench/) are the repository's
    settings = Settings(files_dir=REPO / "examples" / "files")  # what the demo scenarios upload
    configure_logging(settings)  # warnings only: the figures are the output
    node_modules = ensure_runtime(settings)
    names = list(DEMOS) if args.demo == "both" else [args.demo]
    figures = {name: bench_demo(DEMOS[name], 1 if args.quick else REPETITIONS, settings, node_modules)
               for name in names}
    for name, demo_figures in figures.items():
        print_table(name, demo_figures)
    if len(figures) > 1:
        print("\nframework time per operation, median: " + ", ".join(
            f"{name} {f['framework_ms']['total']['median']:.1f} ms" for name, f in figures.items())
            + f" (target on petclinic: <= {TARGET_MS:.0f} ms)")
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "latest.json").write_text(json.dumps(figures, indent=2) + "\n")
    print(f"\nfigures: {args.out / 'latest.json'}")
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except BenchError as exc:
        print(f"bench error: {exc}", file=sys.stderr)
        sys.exit(1)
