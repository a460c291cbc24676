"""Model calls per operation: HTE grounding (with and without each call-cutting measure) and Set-of-Mark.

    cd /work/main && python -m bench.model [--scenarios examples/petclinic.yaml] [--quick] [--json]

How it is measured (one pass, in-process, demo app on a free port, artifacts in a tempdir):

* Every scenario of the file runs once through ``run_scenario`` with the builtin brain deciding
  (``BuiltinBrain(row=scenario.first_row())``) and a ``ComparingGrounder`` as the grounder. Its
  ``locate`` returns what the ``TextGrounder`` returns, so execution is exactly the builtin run;
  for every intent that needs grounding it also asks each configured model grounder about the same
  ``PageView`` (same tree, same full-page screenshot) and records: the calls that locate made (stats
  delta), the pictures sent, whether the model grounder's top candidate is the text grounder's
  (agreement), and the time spent in the model grounder minus the client's latency for those calls
  (the framework overhead of model grounding: screenshot decode, crops, summaries, prompt
  building, JSON parsing; the latency is the client's own figure, the whole SDK call, so request
  serialisation and the loopback round trip count as latency, not overhead). The full-page screenshot the model grounders share is taken once per
  locate, timed, and added to every model configuration's overhead.
* Configurations, each with its own ``ModelClient`` (so usage is per configuration), all pointed
  at one in-process ``FakeOpenAI`` whose responder answers grounding requests the way
  ``ScriptedTester.choose`` does: it picks the numbered option whose summary names the prompt's
  Target. It is a perfect-enough reader of the options, not a model: agreement measures whether the
  options shown hold the target in words a reader can match, not a model's accuracy on the crops.
  HTE with all measures on; HTE without ``skip_chains``; without ``skip_single``; without ``batch``;
  without ``cache``; HTE with all of them off; Set-of-Mark. Each grounder lives for the whole pass
  (one job), so its decision cache spans scenarios as it would in one job.
* Prompt size: the fake server counts the characters of each request's text (system + user) and its
  pictures. Estimated prompt tokens per call = chars / 4 + per picture the gpt-4o "high detail" tile
  estimate (85 + 170 per 512 px tile after scaling to fit 2048 px and the short side to 768 px; the
  client sends pictures without a detail setting, i.e. "auto"). The server reports that estimate as
  prompt_tokens, so the clients' input_tokens are the same figure.
* Next-action calls: the SeeAct-style openai brain makes one call per operation plus about one per
  scenario step to declare it done (assertions come with that answer). This is measured from an
  actual openai-brain run: the PET-14 scenario and ScriptedTester script of
  tests/model/scripts.py (which includes one refused date and one false assertion, each
  corrected by a further call) run through ``run_scenario`` with ``open_agent`` pointed at the fake
  server, HTE grounding. Its next_action calls per operation are used, and shown beside the model
  ``(actions + steps) / operations`` computed from the builtin pass.
* Calls per operation = next-action calls per operation + grounding calls per operation, where
  "operation" is every operation in the run records (the start page, gotos and assertions, which
  need no grounding, included). Target: <= 2.5 with HTE (all measures on).
* Framework ms per operation (median over all operations, model latency excluded): from the run
  records' timings_ms, tree + grounding + execution + observation, with the comparison's extra time
  taken out of grounding (that is the builtin figure); for a model configuration the text grounder's
  time is replaced by that configuration's overhead plus the full-page screenshot on grounded
  operations. The table's "gr ms" is the median overhead per grounded operation without the
  screenshot (its median is printed apart: the openai brain's next-action prompt needs it anyway).

Output: the table on stdout; with --json the figures as JSON on stdout and the table on stderr.
"""

from __future__ import annotations

import argparse
import base64
import functools
import json
import os
import shlex
import statistics
import struct
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from playwright.sync_api import Error as PlaywrightError  # noqa: E402

from shared.artifacts.local import LocalArtifactStore  # noqa: E402
from shared.logging import configure_logging  # noqa: E402
from shared.records import Candidate, Intent, RunRecord  # noqa: E402
from shared.scenarios import Scenario, load_scenarios, parse_scenarios  # noqa: E402
from shared.settings import Settings  # noqa: E402
from tests.apps.petclinic import serve_in_thread  # noqa: E402
from tests.model.fake_openai import FakeOpenAI, prompt_text, reply, schema_name  # noqa: E402
from tests.model.scripted_tester import ScriptedTester  # noqa: E402
from workers.agent.actions import action  # noqa: E402
from workers.agent.brains.builtin import BuiltinBrain  # noqa: E402
from workers.agent.choice import open_agent  # noqa: E402
from workers.agent.execution.browser import BrowserSession  # noqa: E402
from workers.agent.execution.view import PageView  # noqa: E402
from workers.agent.grounding.base import TextGrounder  # noqa: E402
from workers.agent.grounding.crops import describe  # noqa: E402
from workers.agent.grounding.model_hte import ModelHteGrounder  # noqa: E402
from workers.agent.grounding.som import SomGrounder  # noqa: E402
from workers.agent.model.client import ModelClient  # noqa: E402
from workers.agent.model.errors import ModelError  # noqa: E402
from workers.agent.scenario_run import run_scenario  # noqa: E402

TARGET_CALLS_PER_OP = 2.5  # next action + grounding, HTE with every measure on
QUICK_SCENARIOS = 4
FRAMEWORK_PHASES = ("tree", "grounding", "execution", "observation")
NEXT_ACTION_MODEL = "next-action-run"  # the model name of the openai-brain run's client

# (name, ModelHteGrounder options; None = Set-of-Mark)
CONFIGS: list[tuple[str, dict[str, bool] | None]] = [
    ("hte (all on)", {}),
    ("hte -skip_chains", {"skip_chains": False}),
    ("hte -skip_single", {"skip_single": False}),
    ("hte -batch", {"batch": False}),
    ("hte -cache", {"cache": False}),
    ("hte (all off)", {"skip_chains": False, "skip_single": False, "batch": False, "cache": False}),
    ("som", None),
]


class BenchError(RuntimeError):
    pass


# --- prompt size, as the fake server sees it -------------------------------------------------


def png_size(data: bytes) -> tuple[int, int]:
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        return (0, 0)
    return struct.unpack(">II", data[16:24])


def image_tokens(width: int, height: int) -> int:
    """gpt-4o high-detail estimate: fit 2048x2048, short side to 768, 85 + 170 per 512 px tile."""
    if width <= 0 or height <= 0:
        return 85
    scale = min(1.0, 2048 / max(width, height))
    w, h = width * scale, height * scale
    scale = min(1.0, 768 / min(w, h))
    w, h = w * scale, h * scale
    return 85 + 170 * (-(-int(w) // 512)) * (-(-int(h) // 512))


def request_pictures(body: dict[str, Any]) -> list[tuple[int, int]]:
    sizes = []
    for message in body.get("messages", []):
        content = message.get("content")
        if isinstance(content, list):
            for part in content:
                if part.get("type") == "image_url":
                    raw = part["image_url"]["url"].split(",", 1)[1]
                    sizes.append(png_size(base64.b64decode(raw[:64])))  # the header is enough
    return sizes


@dataclass
class PromptTally:
    requests: int = 0
    chars: int = 0
    images: int = 0
    text_tokens: int = 0
    image_tokens: int = 0


class Responder:
    """Answers every request: grounding like ScriptedTester.choose, next action from the tester's script."""

    def __init__(self, tester: ScriptedTester) -> None:
        self.tester = tester
        self.tally: dict[str, PromptTally] = {}  # by "model/schema"
        self.lock = threading.Lock()

    def __call__(self, body: dict[str, Any]) -> dict:
        text = prompt_text(body)
        pictures = request_pictures(body)
        pic_tokens = sum(image_tokens(w, h) for w, h in pictures)
        tokens = len(text) // 4 + pic_tokens
        name = schema_name(body) or "unknown"
        with self.lock:
            t = self.tally.setdefault(f"{body.get('model')}/{name}", PromptTally())
            t.requests += 1
            t.chars += len(text)
            t.images += len(pictures)
            t.text_tokens += len(text) // 4
            t.image_tokens += pic_tokens
        if name in ("hte_choice", "som_choice"):
            return reply(self.tester.choose(text), prompt_tokens=tokens, completion_tokens=20)
        answered = self.tester(body)  # next action (and, unused here, step writing)
        answered["usage"] = (tokens, answered["usage"][1])
        return answered


# --- the comparing grounder ---------------------------------------------------------------------


@dataclass
class Config:
    name: str
    client: ModelClient
    grounder: ModelHteGrounder | SomGrounder


@dataclass
class WatchingBrain:
    """The builtin brain, keeping a reference to the run's history (the record's operation list)."""

    brain: BuiltinBrain
    name: str = "builtin"
    history: list = field(default_factory=list)

    def decide(self, step, step_index, snapshot, history, screenshot=None):  # noqa: ANN001
        self.history = history
        return self.brain.decide(step, step_index, snapshot, history, screenshot=screenshot)


class ComparingGrounder:
    """Returns the TextGrounder's candidates; asks every model grounder about the same view and records it."""

    name = "text"

    def __init__(self, configs: list[Config], server: FakeOpenAI) -> None:
        self.text = TextGrounder()
        self.configs = configs
        self.server = server
        self.entries: list[dict[str, Any]] = []
        self.scenario = ""
        self.brain: WatchingBrain | None = None

    def locate(self, intent: Intent, view: PageView) -> list[Candidate]:
        started = time.perf_counter()
        result = self.text.locate(intent, view)
        text_ms = ms_since(started)
        entry: dict[str, Any] = {
            "scenario": self.scenario, "kind": intent.kind.value, "description": intent.description,
            "op_position": len(self.brain.history) if self.brain else None,  # where the next operation lands
            "text_ms": text_ms, "text_found": bool(result), "configs": {},
            "text_picked": describe(view.snapshot.node(result[0].node_id)) if result else None,
        }
        extra_started = started = time.perf_counter()
        try:
            view.screenshot()
        except PlaywrightError:
            pass  # the model grounders report it as a ScreenshotError below
        entry["screenshot_ms"] = ms_since(started)
        for cfg in self.configs:
            stats = cfg.grounder.stats.as_dict()
            latency = cfg.client.usage()["total"]["latency_ms"]
            http_calls = cfg.client.usage()["total"]["calls"]
            started = time.perf_counter()
            error = None
            try:
                found = cfg.grounder.locate(intent, view)
            except ModelError as exc:
                found, error = [], str(exc)
            elapsed = ms_since(started)
            usage = cfg.client.usage()["total"]
            after = cfg.grounder.stats.as_dict()
            agree = bool(result) and bool(found) and found[0].node_id == result[0].node_id
            entry["configs"][cfg.name] = {
                "calls": after["calls"] - stats["calls"],
                "http_calls": usage["calls"] - http_calls,
                "images": after["images"] - stats["images"],
                "saved": after["saved"] - stats["saved"],
                "agree": agree,
                "picked": None if agree else describe(view.snapshot.node(found[0].node_id)) if found else "(none)",
                "overhead_ms": round(elapsed - (usage["latency_ms"] - latency), 2),
                "latency_ms": round(usage["latency_ms"] - latency, 2),
                "error": error,
            }
        self.server.requests.clear()  # the bodies carry the pictures; the tally keeps what is needed
        entry["extra_ms"] = ms_since(extra_started)  # all of the comparison: not part of the builtin run
        self.entries.append(entry)
        return result


def ms_since(started: float) -> float:
    return round((time.perf_counter() - started) * 1000, 2)


# --- the passes --------------------------------------------------------------------------------


def reset_command_for(base_url: str) -> str:
    return (f"env PYTHONPATH={shlex.quote(str(REPO))} {shlex.quote(sys.executable)} "
            f"-m tests.apps.petclinic reset --url {base_url}")


def comparing_pass(scenarios: list[Scenario], base_url: str, settings: Settings, server: FakeOpenAI,
                   work: Path, progress: Callable[[str], None]) -> tuple[list[RunRecord], ComparingGrounder,
                                                                          list[Config]]:
    configs = []
    for name, options in CONFIGS:
        client = ModelClient(server.base_url, "unused", name, max_retries=0)
        grounder = SomGrounder(client) if options is None else ModelHteGrounder(client, **options)
        configs.append(Config(name, client, grounder))
    comparing = ComparingGrounder(configs, server)
    store = LocalArtifactStore(work / "artifacts")
    records = []
    with BrowserSession(settings) as session:
        for scenario in scenarios:
            progress(f"  {scenario.id}")
            brain = WatchingBrain(BuiltinBrain(row=scenario.first_row()))
            comparing.scenario, comparing.brain = scenario.id, brain
            records.append(run_scenario(scenario, brain, session, base_url=base_url, settings=settings,  # type: ignore[arg-type]
                                        store=store, reset_command=reset_command_for(base_url), grounder=comparing))
    for cfg in configs:
        cfg.client.close()
    if not comparing.entries:
        raise BenchError("no operation of these scenarios needed grounding: nothing to compare")
    return records, comparing, configs


def next_action_pass(base_url: str, settings: Settings, server: FakeOpenAI, responder: Responder,
                     work: Path) -> dict[str, Any]:
    """PET-14 of tests/model/scripts.py through the openai brain (HTE grounding) on the fake server."""
    from tests.model.scripts import PET_SCRIPT, PET_TITLE, SCENARIOS

    scenario = parse_scenarios(SCENARIOS).scenarios[0]
    model_settings = settings.model_copy(update={"model_base_url": server.base_url, "model_name": NEXT_ACTION_MODEL,
                                                 "brain": "openai", "grounding": "hte"})
    agent = open_agent(model_settings, "openai", "hte")
    responder.tester = ScriptedTester({PET_TITLE: PET_SCRIPT})
    try:
        with BrowserSession(settings) as session:
            record = run_scenario(scenario, agent.brain_for(scenario), session, base_url=base_url,
                                  settings=model_settings, store=LocalArtifactStore(work / "next-action"),
                                  reset_command=reset_command_for(base_url), grounder=agent.grounder)
        usage = agent.usage()
    finally:
        agent.close()
    phases = usage["phases"]
    ops = len(record.operations)
    grounded = sum(1 for op in record.operations if action(op.kind).grounded and op.locator is not None)
    na, gr = phases.get("next_action", {}), phases.get("grounding_hte", {})
    return {
        "scenario": f"{scenario.id} (tests/model/scripts.py)",
        "verdict": record.verdict.status if record.verdict else None,
        "operations": ops,
        "failed_operations": sum(not op.ok for op in record.operations),
        "steps": len(scenario.steps),
        "grounded_operations": grounded,
        "next_action_calls": na.get("calls", 0),
        "grounding_calls": gr.get("calls", 0),
        "next_action_per_op": round(na.get("calls", 0) / max(1, ops), 3),
        "grounding_per_op": round(gr.get("calls", 0) / max(1, ops), 3),
        "calls_per_op": round((na.get("calls", 0) + gr.get("calls", 0)) / max(1, ops), 3),
        "next_action_input_tokens_per_call": round(na.get("input_tokens", 0) / max(1, na.get("calls", 0))),
    }


# --- figures ----------------------------------------------------------------------------------


def framework_ms(records: list[RunRecord], comparing: ComparingGrounder) -> dict[str, Any]:
    """Median framework ms per operation: builtin, and with each model configuration's grounding instead."""
    by_op: dict[tuple[str, int], list[dict]] = {}
    for e in comparing.entries:
        by_op.setdefault((e["scenario"], e["op_position"]), []).append(e)
    names = [name for name, _ in CONFIGS]
    per_config: dict[str, list[float]] = {name: [] for name in ["builtin (text)", *names]}
    overheads: dict[str, list[float]] = {name: [] for name in names}
    unmatched = len(comparing.entries)
    for record in records:
        for position, op in enumerate(record.operations):
            t = op.timings_ms
            base = sum(float(t.get(k, 0.0)) for k in FRAMEWORK_PHASES)
            entries = by_op.get((record.scenario_id, position), [])
            unmatched -= len(entries)
            base -= sum(e["extra_ms"] for e in entries)  # the comparison's own time is not the builtin run's
            text_ms = sum(e["text_ms"] for e in entries)
            per_config["builtin (text)"].append(base)
            for name in names:
                model_ms = sum(e["configs"][name]["overhead_ms"] + e["screenshot_ms"] for e in entries)
                per_config[name].append(base - text_ms + model_ms)
                if entries:
                    overheads[name].append(sum(e["configs"][name]["overhead_ms"] for e in entries))
    return {
        "per_op_median": {k: round(statistics.median(v), 1) if v else 0.0 for k, v in per_config.items()},
        "grounding_overhead_per_grounded_op_median": {k: round(statistics.median(v), 1) if v else 0.0
                                                      for k, v in overheads.items()},
        "screenshot_ms_median": round(statistics.median(e["screenshot_ms"] for e in comparing.entries), 1)
        if comparing.entries else 0.0,
        "locates_without_operation": unmatched,
    }


def figures(records: list[RunRecord], comparing: ComparingGrounder, configs: list[Config], responder: Responder,
            next_action: dict[str, Any] | None, wall_s: float) -> dict[str, Any]:
    ops = sum(len(r.operations) for r in records)
    steps = sum(steps_reached(records))
    start_ops = sum(1 for r in records for op in r.operations if op.step_index < 0)
    assertion_ops = sum(1 for r in records for op in r.operations if action(op.kind).is_assertion)
    actions = ops - start_ops - assertion_ops
    locates = len(comparing.entries)
    fw = framework_ms(records, comparing)
    na_model = (actions + steps) / max(1, ops)
    na_per_op = next_action["next_action_per_op"] if next_action else na_model
    rows = []
    for cfg in configs:
        es = [e["configs"][cfg.name] for e in comparing.entries]
        calls = sum(c["calls"] for c in es)
        usage = cfg.client.usage()["total"]
        tally = next((t for key, t in responder.tally.items() if key.startswith(cfg.name + "/")), PromptTally())
        judged = [e for e in comparing.entries if e["text_found"]]
        agree = sum(e["configs"][cfg.name]["agree"] for e in judged)
        rows.append({
            "config": cfg.name,
            "grounded_ops": locates,
            "calls": calls,
            "http_calls": usage["calls"],
            "calls_per_grounded_op": round(calls / max(1, locates), 3),
            "calls_per_op": round(calls / max(1, ops), 3),
            "images_per_call": round(tally.images / max(1, tally.requests), 2),
            "prompt_chars_per_call": round(tally.chars / max(1, tally.requests)),
            "prompt_tokens_per_call": round((tally.text_tokens + tally.image_tokens) / max(1, tally.requests)),
            "image_tokens_per_call": round(tally.image_tokens / max(1, tally.requests)),
            "input_tokens_client": usage["input_tokens"],
            "agreement_pct": round(100 * agree / max(1, len(judged)), 1),
            "disagreements": [{"op": f'{e["scenario"]} {e["description"]}', "kind": e["kind"],
                               "text_grounder": e["text_picked"], "model_grounder": e["configs"][cfg.name]["picked"]}
                              for e in judged if not e["configs"][cfg.name]["agree"]],
            "saved_decisions": sum(c["saved"] for c in es),
            "errors": [c["error"] for c in es if c["error"]],
            "framework_ms_per_op_median": fw["per_op_median"][cfg.name],
            "grounding_overhead_ms_per_grounded_op_median": fw["grounding_overhead_per_grounded_op_median"][cfg.name],
            "stats": cfg.grounder.stats.as_dict(),
        })
    hte = rows[0]
    total = na_per_op + hte["calls_per_op"]
    return {
        "scenarios": len(records),
        "passed": sum(1 for r in records if r.verdict and r.verdict.status == "passed"),
        "failed": {r.scenario_id: r.verdict.reason for r in records if r.verdict and r.verdict.status != "passed"},
        "operations": ops,
        "failed_operations": sum(not op.ok for r in records for op in r.operations),
        "steps": steps,
        "actions": actions,
        "assertions": assertion_ops,
        "grounded_operations": locates,
        "configs": rows,
        "framework_ms": fw,
        "next_action": {
            "model_actions_plus_steps_per_op": round(na_model, 3),
            "measured": next_action,
            "used_per_op": round(na_per_op, 3),
            "source": "measured openai-brain run" if next_action else "model (actions + steps) / operations",
        },
        "calls_per_op_hte": round(total, 3),
        "target_calls_per_op": TARGET_CALLS_PER_OP,
        "target_met": total <= TARGET_CALLS_PER_OP,
        "wall_s": round(wall_s, 1),
    }


def steps_reached(records: list[RunRecord]) -> list[int]:
    """Scenario steps reached per run (for a failed run, up to its failed step)."""
    out = []
    for r in records:
        indexes = {op.step_index for op in r.operations if op.step_index >= 0}
        out.append(len(indexes))
    return out


def print_table(f: dict[str, Any], out: Any = None) -> None:
    say = functools.partial(print, file=out or sys.stdout)
    say(f"\nstepforge model-call bench: {f['scenarios']} scenarios ({f['passed']} passed), {f['operations']} "
        f"operations ({f['failed_operations']} failed) in {f['steps']} steps: {f['actions']} actions, "
        f"{f['assertions']} assertions, {f['operations'] - f['actions'] - f['assertions']} start pages; "
        f"{f['grounded_operations']} grounded")
    if f["failed"]:
        say(f"  FAILED scenarios: {f['failed']}")
    head = (f"{'configuration':<18}{'grounded':>9}{'calls':>7}{'/grounded':>10}{'/op':>7}{'img/call':>9}"
            f"{'chars/call':>11}{'tok/call':>9}{'agree%':>8}{'fw ms/op':>9}{'gr ms':>7}")
    say("\n" + head)
    say("-" * len(head))
    fw = f["framework_ms"]
    say(f"{'builtin (text)':<18}{f['grounded_operations']:>9}{0:>7}{0:>10.2f}{0:>7.2f}{'-':>9}{'-':>11}{'-':>9}"
        f"{'100.0':>8}{fw['per_op_median']['builtin (text)']:>9.1f}{'-':>7}")
    for r in f["configs"]:
        say(f"{r['config']:<18}{r['grounded_ops']:>9}{r['calls']:>7}{r['calls_per_grounded_op']:>10.2f}"
            f"{r['calls_per_op']:>7.2f}{r['images_per_call']:>9.2f}{r['prompt_chars_per_call']:>11}"
            f"{r['prompt_tokens_per_call']:>9}{r['agreement_pct']:>8.1f}{r['framework_ms_per_op_median']:>9.1f}"
            f"{r['grounding_overhead_ms_per_grounded_op_median']:>7.1f}")
    say("calls = model calls (ask_json); /op = per operation, all operations incl. start pages, gotos, assertions;"
        "\ntok/call = chars/4 + gpt-4o high-detail image estimate (85 + 170 per 512 px tile); agree% = top candidate"
        "\nis the text grounder's; fw ms/op = median framework ms per operation excl. model latency (tree + grounding"
        "\n+ execution + observation, the configuration's grounding, incl. the full-page screenshot it needs, in place"
        "\nof the text grounder's); gr ms = median model-grounding overhead per grounded op excl. latency and excl."
        f"\nthe full-page screenshot (median {fw['screenshot_ms_median']:.1f} ms per grounded op, shared by all "
        "configurations and, with the openai brain, by the next-action prompt)")
    for r in f["configs"]:
        if r["disagreements"]:
            kinds: dict[str, int] = {}
            for d in r["disagreements"]:
                kinds[d["kind"]] = kinds.get(d["kind"], 0) + 1
            say(f"  {r['config']}: differs from the text grounder on " +
                ", ".join(f"{n} {k}" for k, n in sorted(kinds.items())) + " (details with --json)")
        if r["errors"]:
            say(f"  {r['config']}: {len(r['errors'])} model error(s), first: {r['errors'][0]}")
    na = f["next_action"]
    m = na["measured"]
    say(f"\nnext action: model (actions + steps) / operations = {na['model_actions_plus_steps_per_op']:.2f} per op")
    if m:
        say(f"  measured, openai brain on {m['scenario']}: {m['next_action_calls']} next-action calls for "
            f"{m['operations']} operations ({m['grounded_operations']} grounded, {m['failed_operations']} failed, "
            f"{m['steps']} steps, verdict "
            f"{m['verdict']}) = {m['next_action_per_op']:.2f} per op; its HTE grounding {m['grounding_calls']} calls "
            f"= {m['grounding_per_op']:.2f} per op; together {m['calls_per_op']:.2f} per op; "
            f"~{m['next_action_input_tokens_per_call']} prompt tokens per next-action call")
    hte = f["configs"][0]
    verdict = "PASS" if f["target_met"] else "MISS"
    say(f"\ncalls per operation with HTE (all on) = next action {na['used_per_op']:.2f} ({na['source']}) + "
        f"grounding {hte['calls_per_op']:.2f} = {f['calls_per_op_hte']:.2f}; target <= "
        f"{f['target_calls_per_op']:.1f} -> {verdict}")
    say(f"wall time {f['wall_s']:.1f} s")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.model", description=__doc__.splitlines()[0])
    parser.add_argument("--scenarios", type=Path, default=REPO / "examples" / "petclinic.yaml")
    parser.add_argument("--quick", action="store_true", help=f"only the first {QUICK_SCENARIOS} scenarios")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON on stdout (the table on stderr)")
    args = parser.parse_args(argv)
    os.chdir(REPO)  # the reset command runs `python -m tests...` from the repository root
    settings = Settings()
    configure_logging(settings)
    scenarios = load_scenarios(args.scenarios).scenarios
    if args.quick:
        scenarios = scenarios[:QUICK_SCENARIOS]
    started = time.perf_counter()
    base_url, stop = serve_in_thread()
    progress: Callable[[str], None] = lambda text: print(text, file=sys.stderr, flush=True)  # noqa: E731
    try:
        with FakeOpenAI() as server, tempfile.TemporaryDirectory(prefix="stepforge-bench-model-") as scratch:
            responder = Responder(ScriptedTester({}))
            server.respond_with(responder)
            progress(f"grounding {len(scenarios)} scenarios with the text grounder and {len(CONFIGS)} model "
                     f"configurations...")
            records, comparing, configs = comparing_pass(scenarios, base_url, settings, server, Path(scratch), progress)
            progress("the openai brain on PET-14 (next-action calls)...")
            try:
                next_action = next_action_pass(base_url, settings, server, responder, Path(scratch))
            except Exception as exc:  # the grounding figures stand without it; the model estimate is used
                progress(f"  the openai-brain run failed ({type(exc).__name__}: {exc}); using the model estimate")
                next_action = None
    finally:
        stop()
    result = figures(records, comparing, configs, responder, next_action, time.perf_counter() - started)
    # With --json the table goes to stderr and stdout holds only the JSON.
    print_table(result, sys.stderr if args.json else sys.stdout)
    if args.json:
        print(json.dumps(result, indent=2))
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except BenchError as exc:
        print(f"bench error: {exc}", file=sys.stderr)
        sys.exit(1)
