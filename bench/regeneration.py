"""Regeneration benchmark: `python -m bench.regeneration [--model-latency S] [--json]`.

What a nightly regeneration costs when nothing changed, against full generation of the same scenarios, and what
each triage class costs when something did. All real: the CLI in processes of its own as a user runs it, the
PetClinic demo (tests.apps.petclinic, in this process so the bench can change it between runs), Chromium and
cucumber-js. The only stand-in is the model endpoint: the scripted OpenAI-compatible server of tests/model, which
counts every request it gets.

1. Full generation with the builtin brain: `stepforge generate examples/petclinic.yaml` (every demo scenario). Its
   run records give the next step its answers.
2. Full generation with the model brain, what a nightly run did before it replayed first: the same command with
   `--brain openai` against the scripted server, whose tester gives, operation by operation, the answers that
   reproduce step 1's scripts (tests/model/recorded_tester.py). A hosted model takes time to answer; the server
   answers each request after --model-latency seconds (default 0.5, quicker than hosted models answer a prompt
   with a screenshot). The time without that latency (requests x latency taken off) is printed too.
3. Unchanged application: `stepforge regenerate suite/ --brain openai`, the model brain configured against the same
   server. Targets: 0 model requests; model-brain generation / regeneration >= 5x.
4. Changed application (the last-name field's id renamed, the owner page's heading retitled): the same command;
   printed per triage class: scenarios, model calls, seconds (the app_changed scenario's candidate, generated
   afresh with the model brain, counts there).
"""

from __future__ import annotations

import argparse
import json
import os
import shlex
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from tests.apps.petclinic import serve_in_thread  # noqa: E402
from tests.apps.petclinic.changes import switch  # noqa: E402
from tests.model.fake_openai import FakeOpenAI  # noqa: E402
from tests.model.recorded_tester import recorded_tester  # noqa: E402
from workers.agent.scripting.verified import read_verified  # noqa: E402

SCENARIOS = REPO / "examples" / "petclinic.yaml"
SPEEDUP_TARGET = 5.0
MODEL_LATENCY_S = 0.5


class ScriptedModel:
    """The scripted server with a tester answering every request after `latency` seconds."""

    def __init__(self, tester, latency: float) -> None:  # noqa: ANN001
        self.server, self.tester, self.latency = FakeOpenAI(), tester, latency

    def __enter__(self) -> ScriptedModel:
        self.server.__enter__()
        self.server.respond_with(lambda body: {**self.tester(body), "delay": self.latency})
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.__exit__(*exc)

    def env(self) -> dict[str, str]:
        return {"STEPFORGE_MODEL_BASE_URL": self.server.base_url, "STEPFORGE_MODEL_API_KEY": "sk-bench",
                "STEPFORGE_MODEL_NAME": "scripted"}


def stepforge(*args: str, env: dict[str, str] | None = None) -> tuple[int, float, str]:
    started = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "workers.cli", *args], cwd=REPO, capture_output=True, text=True,
                          env={**os.environ, **(env or {})}, timeout=1800, check=False)
    return done.returncode, time.perf_counter() - started, done.stdout + done.stderr


def reset(base_url: str) -> str:
    return (f"env PYTHONPATH={shlex.quote(str(REPO))} {shlex.quote(sys.executable)} -m tests.apps.petclinic reset "
            f"--url {base_url}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.regeneration", description=__doc__.splitlines()[0])
    parser.add_argument("--model-latency", type=float, default=MODEL_LATENCY_S, metavar="S",
                        help=f"seconds the scripted model server takes per request (default {MODEL_LATENCY_S})")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON too")
    args = parser.parse_args(argv)
    base_url, stop = serve_in_thread()
    work = Path(tempfile.mkdtemp(prefix="stepforge-bench-regeneration-"))
    suite, artifacts = work / "suite", work / "artifacts"
    figures: dict[str, object] = {}
    try:
        switch()
        code, builtin_s, output = stepforge("generate", str(SCENARIOS), "--base-url", base_url, "--artifacts",
                                            str(artifacts), "--reset-command", reset(base_url), "--out", str(suite))
        passed = summary(artifacts / "report.json").get("passed", 0)
        if code != 0:
            print(output[-3000:], file=sys.stderr)
        print(f"full generation, builtin brain: {passed} scenario(s) passed in {builtin_s:.1f} s (exit {code})")
        verified = work / "verified"
        shutil.copytree(suite, verified, symlinks=True)
        tester = recorded_tester(read_verified(verified))

        with ScriptedModel(tester, args.model_latency) as model:
            code, model_s, output = stepforge("generate", str(SCENARIOS), "--base-url", base_url,
                                              "--artifacts", str(work / "model-artifacts"), "--reset-command",
                                              reset(base_url), "--out", str(work / "model-suite"),
                                              "--brain", "openai", env=model.env())
            model_requests = len(model.server.requests)
        model_passed = summary(work / "model-artifacts" / "report.json").get("passed", 0)
        if code != 0:
            print(output[-3000:], file=sys.stderr)
        unhurried_s = model_s - model_requests * args.model_latency
        print(f"full generation, model brain: {model_passed} scenario(s) passed in {model_s:.1f} s (exit {code}); "
              f"{model_requests} model requests, {unhurried_s:.1f} s without their latency")

        runs = {}
        for name, changes in (("unchanged", ()), ("changed", ("renamed-id", "retitled-heading"))):
            shutil.rmtree(suite)
            shutil.copytree(verified, suite, symlinks=True)
            switch(*changes)
            with ScriptedModel(tester, args.model_latency) as model:
                report_path = work / f"regeneration-{name}.json"
                code, seconds, output = stepforge("regenerate", str(suite), "--base-url", base_url, "--brain", "openai",
                                                  "--report", str(report_path), "--artifacts", str(artifacts),
                                                  "--reset-command", reset(base_url), env=model.env())
                requests = len(model.server.requests)
            regeneration = json.loads(report_path.read_text()) if report_path.exists() else {}
            if not regeneration:
                print(output[-3000:], file=sys.stderr)
            runs[name] = {"seconds": round(seconds, 1), "exit": code, "model_requests": requests,
                          "summary": {k: v for k, v in regeneration.get("summary", {}).items() if v},
                          "cost": regeneration.get("cost", {})}
            print(f"regeneration, {name} application: {seconds:.1f} s (exit {code}); model requests {requests}; "
                  f"{runs[name]['summary']}")
        switch()

        if not runs["unchanged"]["seconds"] or not model_passed:
            print("the unchanged regeneration or the model brain's generation did not run", file=sys.stderr)
            return 1
        unchanged = runs["unchanged"]["seconds"]
        speedup, lower, builtin_ratio = model_s / unchanged, unhurried_s / unchanged, builtin_s / unchanged
        figures = {"scenarios": passed, "model_latency_s": args.model_latency, "builtin_generation_s": round(builtin_s, 1),
                   "model_generation_s": round(model_s, 1), "model_generation_requests": model_requests,
                   "model_generation_without_latency_s": round(unhurried_s, 1), "runs": runs,
                   "speedup": round(speedup, 2), "speedup_without_latency": round(lower, 2),
                   "speedup_against_builtin": round(builtin_ratio, 2)}
        green = runs["unchanged"]["summary"].get("passed", 0)
        rows = [
            ("full generation, model brain", f"{model_s:.1f} s ({model_passed} scenarios, {model_requests} requests "
                                             f"at {args.model_latency:g} s)", "", ""),
            ("full generation, builtin brain", f"{builtin_s:.1f} s ({passed} scenarios)", "", ""),
            ("regeneration, unchanged app", f"{unchanged:.1f} s", "", ""),
            ("  generation (model brain) / regeneration", f"{speedup:.1f}x", f">= {SPEEDUP_TARGET:g}x",
             "PASS" if speedup >= SPEEDUP_TARGET else "FAIL"),
            ("    the same without the model's latency", f"{lower:.1f}x", "", "INFO"),
            ("  generation (builtin brain) / regeneration", f"{builtin_ratio:.1f}x", "", "INFO"),
            ("  model requests (model brain configured)", str(runs["unchanged"]["model_requests"]), "= 0",
             "PASS" if runs["unchanged"]["model_requests"] == 0 else "FAIL"),
            ("  scenarios replayed green", str(green), f"= {passed}", "PASS" if green == passed else "FAIL"),
            ("regeneration, changed app", f"{runs['changed']['seconds']:.1f} s", "", ""),
        ]
        for name, cost in runs["changed"]["cost"].items():
            rows.append((f"  {name}", f"{cost['scenarios']} scenario(s), {cost['model_calls']} model calls, "
                                      f"{cost['seconds']:.1f} s", "", "INFO"))
        print()
        width = max(len(row[0]) for row in rows) + 2
        for label, value, target, result in rows:
            print(f"{label:<{width}}{value:<45}{target:<12}{result}")
        if args.json:
            print(json.dumps(figures, indent=2))
        failed = any(row[3] == "FAIL" for row in rows)
        return 1 if failed else 0
    finally:
        switch()
        stop()
        shutil.rmtree(work, ignore_errors=True)


def summary(report: Path) -> dict:
    return json.loads(report.read_text()).get("summary", {}) if report.exists() else {}


if __name__ == "__main__":
    sys.exit(main())
