"""The diff a person reads before accepting a regenerated script, and a candidate whose generation cannot run."""

from __future__ import annotations

import pytest

from shared.records import RunRecord
from shared.scenarios import Scenario
from shared.settings import Settings
from workers.agent.choice import open_agent
from workers.agent.pipeline import RunStopped
from workers.agent.regeneration.candidate import script_diff
from workers.agent.regeneration.regenerate import Regenerated, generate_candidates
from workers.agent.scripting.build import Suite


def suite(feature: str, steps: str) -> Suite:
    return Suite(scripts=[], definitions=[], features={"features/petclinic.feature": feature}, steps_text=steps)


def test_the_diff_shows_only_what_changed_in_the_feature_and_the_step_definitions():
    verified = suite("Scenario: s\n  When Click \"Find Owner\"\n", "a();\nclick('Find Owner');\n")
    regenerated = suite("Scenario: s\n  When Search for \"Davis\"\n", "a();\nclick('Search');")
    diff = script_diff(verified, regenerated)
    assert "--- verified/features/petclinic.feature\n+++ regenerated/features/petclinic.feature\n" in diff
    assert "-  When Click \"Find Owner\"\n+  When Search for \"Davis\"\n" in diff
    assert "-click('Find Owner');\n+click('Search');\n" in diff  # a last line without its newline still ends one
    assert " a();\n" in diff
    assert script_diff(verified, verified) == ""


# --- a candidate's generation that cannot run ----------------------------------------------------------------


def app_changed_scenario():
    scenario = Scenario(id="OWN-5", title="Find Davis", steps=["Search for Davis"])
    return scenario, Regenerated(triage={}, kept={"OWN-5": (scenario, RunRecord(scenario_id="OWN-5", title="t",
                                                                                attempt=1, base_url="http://h"))})


def test_an_agent_that_cannot_open_fails_the_candidate_saying_why(tmp_path):
    scenario, done = app_changed_scenario()
    no_endpoint = Settings(model_base_url=None)
    candidates = generate_candidates([scenario], done, lambda: open_agent(no_endpoint, "builtin", None, "model"),
                                     None, tmp_path, None, None, "Owners")  # type: ignore[arg-type]
    candidate = candidates["OWN-5"]
    assert not candidate.passed and candidate.regenerated is None and candidate.model_calls == 0
    assert candidate.verdict.kind == "error"
    assert candidate.verdict.reason.startswith("it could not be generated: AgentChoiceError: the model step writer "
                                               "needs a model endpoint")
    script = candidate.script("never/run.json", "never.diff")
    assert (script.passed, script.failure_kind, script.run_record, script.diff) == (False, "error", None, None)


def test_what_must_stop_the_run_is_never_taken_for_a_candidate_s_failure(tmp_path):
    from workers.agent.regeneration.regenerate import generate_candidates

    class TimeIsUp(Exception):
        pass

    scenario, done = app_changed_scenario()
    for error, stop_on in ((RunStopped("taken over"), ()), (TimeIsUp("soft limit"), (TimeIsUp,))):
        def open_job(error=error):
            raise error
        with pytest.raises(type(error)):
            generate_candidates([scenario], done, open_job, None, tmp_path, None, None, "Owners",  # type: ignore[arg-type]
                                stop_on=stop_on)
