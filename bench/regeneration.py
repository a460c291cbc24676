"""Regeneration benchmark: `python -m bench.regeneration [--json]`.

What a nightly regeneration costs when nothing changed, against full generation of the same scenarios, and what
each triage class costs when something did. All real: the CLI in processes of its own as a user runs it, the
PetClinic demo (tests.apps.petclinic, in this process so the bench can change it between runs), Chromium and
cucumber-js. The only stand-in is the model endpoint: the scripted OpenAI-compatible server of tests/model, which
counts every request it gets.

1. Full generation: `stepforge generate examples/petclinic.yaml` (every demo scenario, builtin brain: the same agent
   loop without a model's latency, so the ratio below is a lower bound of what the model brain would show).
2. Unchanged application: `stepforge regenerate suite/ --brain openai`, the model brain configured against the
   scripted server. Targets: 0 model requests; generation / regeneration >= 5x.
3. Changed application (the last-name field's id renamed, the owner page's heading retitled): the same command;
   printed per triage class: scenarios, model calls, seconds.
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

SCENARIOS = REPO / "examples" / "petclinic.yaml"
SPEEDUP_TARGET = 5.0


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
    parser.add_argument("--json", action="store_true", help="print the figures as JSON too")
    args = parser.parse_args(argv)
    base_url, stop = serve_in_thread()
    work = Path(tempfile.mkdtemp(prefix="stepforge-bench-regeneration-"))
    suite, artifacts = work / "suite", work / "artifacts"
    figures: dict[str, object] = {}
    try:
        switch()
        code, generation_s, output = stepforge("generate", str(SCENARIOS), "--base-url", base_url, "--out", str(suite),
                                               "--artifacts", str(artifacts), "--reset-command", reset(base_url))
        report = json.loads((artifacts / "report.json").read_text()) if (artifacts / "report.json").exists() else {}
        passed = report.get("summary", {}).get("passed", 0)
        if code != 0:
            print(output[-3000:], file=sys.stderr)
        print(f"full generation: {passed} scenario(s) passed in {generation_s:.1f} s (exit {code})")
        verified = work / "verified"
        shutil.copytree(suite, verified, symlinks=True)

        runs = {}
        for name, changes in (("unchanged", ()), ("changed", ("renamed-id", "retitled-heading"))):
            shutil.rmtree(suite)
            shutil.copytree(verified, suite, symlinks=True)
            switch(*changes)
            with FakeOpenAI() as model:
                env = {"STEPFORGE_MODEL_BASE_URL": model.base_url, "STEPFORGE_MODEL_API_KEY": "sk-bench",
                       "STEPFORGE_MODEL_NAME": "scripted"}
                report_path = work / f"regeneration-{name}.json"
                code, seconds, output = stepforge("regenerate", str(suite), "--base-url", base_url, "--brain", "openai",
                                                  "--report", str(report_path), "--artifacts", str(artifacts),
                                                  "--reset-command", reset(base_url), env=env)
                requests = len(model.requests)
            regeneration = json.loads(report_path.read_text()) if report_path.exists() else {}
            if not regeneration:
                print(output[-3000:], file=sys.stderr)
            runs[name] = {"seconds": round(seconds, 1), "exit": code, "model_requests": requests,
                          "summary": {k: v for k, v in regeneration.get("summary", {}).items() if v},
                          "cost": regeneration.get("cost", {})}
            print(f"regeneration, {name} application: {seconds:.1f} s (exit {code}); model requests {requests}; "
                  f"{runs[name]['summary']}")
        switch()

        unchanged = runs["unchanged"]
        speedup = generation_s / unchanged["seconds"] if unchanged["seconds"] else 0.0
        figures = {"scenarios": passed, "generation_s": round(generation_s, 1), "runs": runs,
                   "speedup": round(speedup, 2)}
        rows = [
            ("full generation", f"{generation_s:.1f} s ({passed} scenarios)", "", ""),
            ("regeneration, unchanged app", f"{unchanged['seconds']:.1f} s", "", ""),
            ("  generation / regeneration", f"{speedup:.1f}x", f">= {SPEEDUP_TARGET:g}x",
             "PASS" if speedup >= SPEEDUP_TARGET else "FAIL"),
            ("  model requests (model brain configured)", str(unchanged["model_requests"]), "= 0",
             "PASS" if unchanged["model_requests"] == 0 else "FAIL"),
            ("  scenarios replayed green", str(unchanged["summary"].get("passed", 0)), f"= {passed}",
             "PASS" if unchanged["summary"].get("passed", 0) == passed else "FAIL"),
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


if __name__ == "__main__":
    sys.exit(main())
