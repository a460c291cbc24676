"""The openai brain end to end: `stepforge generate --brain openai` against the demo app, the model being
the scripted OpenAI-compatible server of tests/model (the only fake: it stands in for a remote endpoint).

Everything else is real: the CLI process, Chromium, HTE / Set-of-Mark grounding over real screenshots,
the suite written and replayed by cucumber-js.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.model.fake_openai import FakeOpenAI, delay, prompt_images, prompt_text, reply, schema_name, status
from tests.model.scripted_tester import ScriptedTester, act, verdict
from tests.model.scripts import PET_SCRIPT, PET_TITLE, SCENARIOS

from .conftest import generate

pytestmark = pytest.mark.e2e

@pytest.fixture
def model(monkeypatch):
    with FakeOpenAI() as server:
        monkeypatch.setenv("STEPFORGE_MODEL_BASE_URL", server.base_url)
        monkeypatch.setenv("STEPFORGE_MODEL_API_KEY", "sk-test")
        monkeypatch.setenv("STEPFORGE_MODEL_NAME", "scripted")
        monkeypatch.setenv("STEPFORGE_MODEL_PRICE_INPUT_PER_1K", "0.01")
        monkeypatch.setenv("STEPFORGE_MODEL_MAX_RETRIES", "3")
        yield server


def run(tmp_path: Path, petclinic: str, reset_command: str, *extra: str, scenarios: str = SCENARIOS):
    path = tmp_path / "scenarios.yaml"
    path.write_text(scenarios)
    return generate(path, petclinic, tmp_path, reset_command, ["--brain", "openai", *extra])


def requests_named(server: FakeOpenAI, name: str) -> list[dict]:
    return [body for body in server.requests if schema_name(body) == name]


@pytest.mark.parametrize("grounding", ["hte", "som"])
def test_a_scenario_generated_through_the_model_gives_a_green_suite(tmp_path, petclinic, reset_command, model,
                                                                    grounding):
    tester = ScriptedTester({PET_TITLE: PET_SCRIPT})
    model.respond_with(tester)
    result = run(tmp_path, petclinic, reset_command, "--grounding", grounding)
    assert result.exit_code == 0
    report = json.loads(result.report.read_text())
    assert (report["brain"], report["grounding"]) == ("openai", grounding)
    assert report["scenarios"]["PET-14"]["verdict"] == "passed"
    assert report["scenarios"]["PET-14"]["steps_written_by"] == "model"
    phases = report["model_usage"]["phases"]
    assert set(phases) == {"next_action", f"grounding_{grounding}", "abstraction"}
    assert report["model_usage"]["total"]["calls"] == len(model.requests)
    assert report["model_usage"]["total"]["cost"] > 0  # priced per 1k input tokens

    # every next-action prompt carries the page's screenshot; the one after the refused date, its error
    prompts = requests_named(model, "next_action")
    assert all(len(prompt_images(body)) == 1 for body in prompts)
    after = [prompt_text(b) for b in prompts if ": FAILED: " in prompt_text(b)]
    assert after and '#7 (step 4) Type 04/03/2021 into Birth Date: FAILED: the field did not take "04/03/2021"' \
        in after[0]
    assert "2. [DONE] Search for Rodriquez" in after[0] and "4. [CURRENT]" in after[0]
    # grounding: HTE sends one crop per numbered part, SoM one marked screenshot
    grounding_calls = requests_named(model, f"{grounding}_choice")
    assert grounding_calls
    for body in grounding_calls:
        parts = [line for line in prompt_text(body).splitlines() if line.startswith("[")]
        assert len(prompt_images(body)) == (len(parts) if grounding == "hte" else 1)

    run_record = json.loads((result.artifacts / "PET-14/attempt-1/run.json").read_text())
    assert (run_record["brain"], run_record["grounding"]) == ("openai", grounding)
    failed = [op for op in run_record["operations"] if not op["ok"]]
    assert [op["kind"] for op in failed] == ["fill", "assert_text"]
    assert run_record["model_usage"]["next_action"]["calls"] == len(prompts)

    # the suite: the corrected date and the assertion that held, not the refused ones
    feature = next((result.suite / "features").glob("*.feature")).read_text()
    assert "2021-04-03" in feature and "04/03/2021" not in feature
    assert "New Pet has been Added" in feature and "Pet was deleted" not in feature
    # (the verdict "passed" above means cucumber-js ran this suite green against the app)


def test_the_models_verdict_fails_the_scenario_at_its_step(tmp_path, petclinic, reset_command, model):
    script = dict(PET_SCRIPT)
    script[5] = [act("click", "Add Pet"), verdict("expectation", "the page says the birth date is invalid")]
    model.respond_with(ScriptedTester({PET_TITLE: script}))
    result = run(tmp_path, petclinic, reset_command)
    assert result.exit_code == 1
    outcome = json.loads(result.report.read_text())["scenarios"]["PET-14"]
    assert (outcome["verdict"], outcome["failed_step"], outcome["failure_kind"]) == ("failed", 5, "expectation")
    assert outcome["reason"] == "the model: the page says the birth date is invalid"


def test_429_500_and_a_timeout_are_retried_and_counted(tmp_path, petclinic, reset_command, model, monkeypatch):
    monkeypatch.setenv("STEPFORGE_MODEL_TIMEOUT_S", "1")
    model.script(status(429, retry_after="0"), status(500), delay(2.5))
    model.respond_with(ScriptedTester({PET_TITLE: PET_SCRIPT}))
    result = run(tmp_path, petclinic, reset_command, "--grounding", "som")
    assert result.exit_code == 0
    usage = json.loads(result.report.read_text())["model_usage"]["phases"]["next_action"]
    assert (usage["retries"], usage["failures"]) == (3, 3)


def test_an_endpoint_that_keeps_failing_ends_the_scenario_with_a_clear_verdict(tmp_path, petclinic, reset_command,
                                                                               model, monkeypatch):
    monkeypatch.setenv("STEPFORGE_MODEL_MAX_RETRIES", "1")
    model.respond_with(lambda body: status(503, "overloaded"))
    result = run(tmp_path, petclinic, reset_command)
    assert result.exit_code == 1
    outcome = json.loads(result.report.read_text())["scenarios"]["PET-14"]
    assert (outcome["failed_step"], outcome["failure_kind"]) == (1, "error")
    assert outcome["reason"].startswith("the model failed: next_action: the model endpoint")
    assert "gave no answer after 2 attempt(s); last: HTTP 503: overloaded" in outcome["reason"]


def test_malformed_replies_are_reasked_then_reported(tmp_path, petclinic, reset_command, model):
    # one malformed reply is re-asked and the run goes on; a model that never answers in JSON ends it
    model.script(reply("Sure! I would click the Find owners link."))
    tester = ScriptedTester({PET_TITLE: PET_SCRIPT})
    model.respond_with(tester)
    result = run(tmp_path, petclinic, reset_command, "--grounding", "som")
    assert result.exit_code == 0
    usage = json.loads(result.report.read_text())["model_usage"]["phases"]["next_action"]
    assert usage["reasks"] == 1

    model.requests.clear()
    model.respond_with(lambda body: reply("I cannot answer in JSON, sorry."))
    (tmp_path / "again").mkdir()
    result = run(tmp_path / "again", petclinic, reset_command)
    assert result.exit_code == 1
    outcome = json.loads(result.report.read_text())["scenarios"]["PET-14"]
    assert outcome["failure_kind"] == "error" and "does not match schema 'next_action'" in outcome["reason"]


def test_an_exhausted_call_budget_ends_the_job_with_a_verdict_saying_so(tmp_path, petclinic, reset_command, model,
                                                                       monkeypatch):
    monkeypatch.setenv("STEPFORGE_MODEL_BUDGET_CALLS", "4")
    item = SCENARIOS.split("scenarios:", 1)[1]
    two = SCENARIOS + item.replace("PET-14", "PET-15")
    model.respond_with(ScriptedTester({PET_TITLE: PET_SCRIPT}))
    result = run(tmp_path, petclinic, reset_command, "--grounding", "som", scenarios=two)
    assert result.exit_code == 1
    assert len(model.requests) == 4  # never one call over the budget
    report = json.loads(result.report.read_text())["scenarios"]
    assert report["PET-14"]["reason"].startswith("model budget exhausted: ")
    assert "call budget exhausted: 4 of 4 calls used" in report["PET-14"]["reason"]
    assert report["PET-15"]["reason"].startswith("not generated: the job's model budget is exhausted")


def test_the_openai_brain_without_an_endpoint_is_a_clear_usage_error(tmp_path, petclinic, monkeypatch):
    monkeypatch.delenv("STEPFORGE_MODEL_BASE_URL", raising=False)
    path = tmp_path / "scenarios.yaml"
    path.write_text(SCENARIOS)
    done = subprocess.run(
        [sys.executable, "-m", "workers.cli", "generate", str(path), "--base-url", petclinic,
         "--out", str(tmp_path / "suite"), "--artifacts", str(tmp_path / "artifacts"), "--brain", "openai"],
        cwd=Path(__file__).resolve().parents[2], capture_output=True, text=True, timeout=120,
    )
    assert done.returncode == 2
    assert "the openai brain needs a model endpoint: set STEPFORGE_MODEL_BASE_URL" in done.stderr
    assert "Traceback" not in done.stderr


TEAMTASKS_TITLE = "Reports through the hover menu"
TEAMTASKS_SCENARIOS = f"""
scenarios:
  - id: TT-M1
    title: {TEAMTASKS_TITLE}
    start: /login
    steps:
      - Fill Email with alice@example.com
      - Fill Password with wonderland
      - Click Sign in
      - action: Hover over More and click Reports
        expected: '"4 open tasks" is shown and "Mark done" is not'
"""


def test_the_model_s_new_kinds_are_performed_and_replayed(tmp_path, model):
    """The model answers with a kind of this issue (hover) and an absence assertion: both are performed in Chromium,
    written by their kind modules and replayed green by cucumber-js."""
    from tests.apps.teamtasks import serve_in_thread

    finish = act("click", "Reports", done=True, texts=["4 open tasks"])
    finish["assertions"].append({"kind": "absent", "target": "", "value": "Mark done"})
    script = {1: [act("fill", "Email", "alice@example.com")], 2: [act("fill", "Password", "wonderland")],
              3: [act("click", "Sign in")], 4: [act("hover", "More"), finish]}
    model.respond_with(ScriptedTester({TEAMTASKS_TITLE: script}))
    app = serve_in_thread()
    try:
        path = tmp_path / "scenarios.yaml"
        path.write_text(TEAMTASKS_SCENARIOS)
        result = generate(path, app.web_url, tmp_path, None, ["--brain", "openai"])
    finally:
        app.stop()
    outcome = json.loads(result.report.read_text())["scenarios"]["TT-M1"]
    assert (result.exit_code, outcome["verdict"]) == (0, "passed"), outcome
    offered = requests_named(model, "next_action")[0]["response_format"]["json_schema"]["schema"]
    assert "hover" in offered["properties"]["action"]["properties"]["kind"]["enum"]
    record = json.loads((result.artifacts / "TT-M1/attempt-1/run.json").read_text())
    assert [op["kind"] for op in record["operations"] if op["ok"]][-4:] == ["hover", "click", "assert_text",
                                                                            "assert_absent"]
    steps = (result.suite / "features/step_definitions/steps.js").read_text()
    assert ".hover();" in steps and "await this.expectNoText(" in steps
