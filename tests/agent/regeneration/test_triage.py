"""The triage's decisions that need no browser: a replay the runner never ran concludes nothing."""

from __future__ import annotations

from pathlib import Path

from shared.records import ReplayResult, RunRecord
from shared.scenarios import Scenario
from shared.settings import Settings
from shared.triage import VerifiedScript
from workers.agent.regeneration.triage import Triager


class Scripted(Triager):
    """A triager whose replays answer from a list, one answer per replay, and that writes no suite."""

    answers: list[dict[str, ReplayResult]]

    def write(self, records, ids):  # noqa: ANN001, ANN201
        return None

    def replay(self, ids):  # noqa: ANN001, ANN201
        answer = self.answers.pop(0)
        for scenario_id in ids:
            self.replays[scenario_id] = self.replays.get(scenario_id, 0) + 1
        return {i: answer[i] for i in ids}

    def walk(self, script, session):  # noqa: ANN001, ANN201
        raise AssertionError(f"{script.scenario.id} was walked")


def script(scenario_id: str) -> VerifiedScript:
    return VerifiedScript(scenario=Scenario(id=scenario_id, title="t", steps=["Go to /"]),
                          record=RunRecord(scenario_id=scenario_id, title="t", base_url="http://app"))


def test_a_replay_the_runner_never_ran_is_a_broken_environment_not_an_application_change(tmp_path: Path) -> None:
    never = ReplayResult(passed=False, error="cucumber-js wrote no report: boom", ran=False)
    green = ReplayResult(passed=True)
    triager = Scripted([script("A-1"), script("A-2")], "http://app", Settings(), store=None, staging=tmp_path)
    triager.answers = [{"A-1": never, "A-2": green}]
    run = triager.run(session=None)
    assert run.triage["A-2"].triage == "passed"
    broken = run.triage["A-1"]
    assert (broken.triage, broken.verdict.status, broken.verdict.kind) == ("broken_environment", "failed", "error")
    assert broken.environment == "the replay did not run: cucumber-js wrote no report: boom"
    assert triager.answers == []  # not replayed again: the runner, not the scenario, failed


def test_a_red_replay_green_on_its_retry_is_a_flake(tmp_path: Path) -> None:
    red = ReplayResult(passed=False, error="Timeout 3000ms exceeded")
    triager = Scripted([script("A-1")], "http://app", Settings(), store=None, staging=tmp_path)
    triager.answers = [{"A-1": red}, {"A-1": ReplayResult(passed=True)}]
    flake = triager.run(session=None).triage["A-1"]
    assert (flake.triage, flake.replays, flake.source) == ("flake", 2, "replayed")
