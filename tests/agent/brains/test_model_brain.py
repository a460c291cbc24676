"""The openai brain's prompts and how it reads the model's answers, against the scripted model server."""

from __future__ import annotations

import pytest

from shared.records import Node, Observation, Operation, PageSnapshot
from shared.scenarios import ScenarioStep, parse_scenarios
from tests.model.fake_openai import FakeOpenAI, prompt_images, prompt_text, reply, schema_name
from workers.agent.brains.model_brain import ModelBrain
from workers.agent.model import ModelClient, ModelReplyError

PNG = b"\x89PNG\r\n\x1a\n" + b"a tiny picture"

SCENARIO = parse_scenarios(
    """
scenarios:
  - id: OWN-12
    title: Editing an owner's city
    steps:
      - Search for <lastName>
      - Fill City with <city>
      - action: Click Update Owner
        expected: '"Owner Values Updated" is shown'
    data:
      - {lastName: Franklin, city: Middleton}
""",
    "s.yaml",
).scenarios[0]

PAGE = PageSnapshot(
    url="http://app/owners/1/edit",
    title="Edit owner",
    nodes=[
        Node(id=0, tag="body", children=[1, 2]),
        Node(id=1, parent=0, tag="input", operable=True, label="City", input_type="text", value="Madison"),
        Node(id=2, parent=0, tag="button", operable=True, text="Update Owner"),
    ],
)

HISTORY = [
    Operation(index=1, step_index=-1, kind="goto", description="Open /", value="/",
              observation=Observation(url_before="about:blank", url_after="http://app/", summary="navigated to /")),
    Operation(index=2, step_index=0, kind="fill", description="Type Franklin into Last name",
              value="Franklin", observation=Observation(url_before="u", url_after="u", summary="value set")),
    Operation(index=3, step_index=1, kind="fill", description="Type Middleton into City",
              value="Middleton", ok=False, error="element is not editable"),
]


def answer(kind="none", target="", value="", step_done=False, assertions=(), verdict=None, description=""):
    return {
        "page": "the owner edit form",
        "progress": [{"step": 1, "status": "DONE"}, {"step": 2, "status": "CURRENT"}, {"step": 3, "status": "TODO"}],
        "action": {"kind": kind, "target": target, "value": value, "description": description},
        "step_done": step_done,
        "assertions": [{"kind": k, "target": t, "value": v} for k, t, v in assertions],
        "verdict": verdict or {"status": "continue", "kind": "none", "reason": ""},
    }


@pytest.fixture
def server():
    with FakeOpenAI() as fake:
        yield fake


@pytest.fixture
def brain(server):
    client = ModelClient(server.base_url, "key", "fake-model", max_retries=0)
    yield ModelBrain(client, SCENARIO)
    client.close()


def test_the_prompt_holds_the_test_case_progress_history_page_and_screenshot(server, brain):
    server.script(reply(answer("fill", "City", "Middleton")))
    brain.decide(SCENARIO.steps[1], 1, PAGE, HISTORY, screenshot=lambda: PNG)
    body = server.requests[0]
    text = prompt_text(body)
    assert "manual tester" in text
    assert "Editing an owner's city" in text
    assert "lastName = 'Franklin', city = 'Middleton'" in text
    assert "1. [DONE] Search for Franklin" in text
    assert "2. [CURRENT] Fill City with Middleton" in text
    assert "3. [TODO] Click Update Owner | expected result: \"Owner Values Updated\" is shown" in text
    assert "#2 (step 1) Type Franklin into Last name: value set" in text
    assert "#3 (step 2) Type Middleton into City: FAILED: element is not editable" in text
    assert "Current page: http://app/owners/1/edit (title 'Edit owner')" in text
    assert "<input type=text> City value: 'Madison'" in text and "<button> Update Owner" in text
    assert "[TEST CASE PROGRESS]" in text and "[TEST STEP ASSERTION CONTROL]" in text
    assert prompt_images(body) == [PNG]
    assert schema_name(body) == "next_action"


def test_an_action_becomes_one_intent_and_the_step_goes_on(server, brain):
    server.script(reply(answer("fill", "City", "Middleton", description="Type Middleton into the City field")))
    decision = brain.decide(SCENARIO.steps[1], 1, PAGE, HISTORY)
    assert decision.step_done is False and decision.unsupported is None
    (intent,) = decision.intents
    assert (intent.kind, intent.target, intent.value) == ("fill", "City", "Middleton")
    assert intent.description == "Type Middleton into the City field"
    assert intent.param == "city"  # the value is the row's value of a placeholder of this step


def test_a_value_a_placeholder_is_part_of_keeps_the_step_s_wording(server, brain):
    step = ScenarioStep(action="Click Update Owner", expected='"Moved to <city>" is shown')
    server.script(reply(answer("click", "Update Owner", step_done=True, assertions=[("text", "", "Moved to Middleton")])))
    intents = brain.decide(step, 2, PAGE, HISTORY).intents
    assert [(i.value, i.param, i.template) for i in intents[1:]] == [("Moved to Middleton", None, "Moved to <city>")]


def test_a_value_not_from_the_data_row_is_no_parameter(server, brain):
    server.script(reply(answer("fill", "City", "Verona")))
    (intent,) = brain.decide(SCENARIO.steps[1], 1, PAGE, HISTORY).intents
    assert intent.param is None
    assert intent.description == "Type Verona into City"  # worded by the builtin rules when the model gives none


def test_a_finished_step_brings_its_assertions_after_its_last_action(server, brain):
    server.script(reply(answer("click", "Update Owner", step_done=True,
                               assertions=[("text", "", "Owner Values Updated"), ("value", "City", "Middleton")])))
    decision = brain.decide(SCENARIO.steps[2], 2, PAGE, HISTORY)
    assert decision.step_done is True
    assert [(i.kind, i.target, i.value) for i in decision.intents] == [
        ("click", "Update Owner", None),
        ("assert_text", None, "Owner Values Updated"),
        ("assert_value", "City", "Middleton"),
    ]


def test_the_answer_schema_offers_the_new_kinds_and_they_become_intents(server, brain):
    server.script(reply(answer("hover", "More")), reply(answer("dismiss_dialog")),
                  reply(answer("pick", "", "Carol Danvers")),
                  reply(answer("history", "", "back", step_done=True,
                               assertions=[("absent", "", "Task deleted"), ("text", "", "Water the plants")])))
    decisions = [brain.decide(SCENARIO.steps[2], 2, PAGE, HISTORY) for _ in range(4)]
    schema = server.requests[0]["response_format"]["json_schema"]["schema"]
    offered = schema["properties"]["action"]["properties"]["kind"]["enum"]
    assert {"hover", "pick", "upload", "history", "accept_dialog", "dismiss_dialog", "switch_tab", "wait_for",
            "wait_gone"} <= set(offered)
    assert set(schema["properties"]["assertions"]["items"]["properties"]["kind"]["enum"]) == {"text", "value", "absent"}
    assert "- hover: move the mouse over the target" in prompt_text(server.requests[0])
    read = [[(i.kind, i.target, i.value) for i in d.intents] for d in decisions]
    assert read == [
        [("hover", "More", None)],
        [("dismiss_dialog", None, None)],
        [("pick", None, "Carol Danvers")],
        [("history", None, "back"), ("assert_absent", None, "Task deleted"), ("assert_text", None, "Water the plants")],
    ]


def test_a_step_with_an_expected_result_is_not_done_without_assertions(server, brain):
    server.script(reply(answer(step_done=True)), reply(answer(step_done=True, assertions=[("text", "", "Updated")])))
    first = brain.decide(SCENARIO.steps[2], 2, PAGE, HISTORY)
    assert (first.intents, first.step_done, first.unsupported) == ([], False, None)
    second = brain.decide(SCENARIO.steps[2], 2, PAGE, HISTORY)
    assert "NOTE: step 3 has an expected result: list its assertions" in prompt_text(server.requests[1])
    assert second.step_done and second.intents[0].kind == "assert_text"


@pytest.mark.parametrize("kind", ["action", "expectation"])
def test_the_models_verdict_ends_the_scenario_with_its_kind_and_reason(server, brain, kind):
    server.script(reply(answer(verdict={"status": "failed", "kind": kind, "reason": "no Update button here"})))
    decision = brain.decide(SCENARIO.steps[2], 2, PAGE, HISTORY)
    assert decision.unsupported == "the model: no Update button here"
    assert decision.failure_kind == kind


def test_answering_nothing_twice_fails_the_step(server, brain):
    server.script(reply(answer()), reply(answer()))
    assert brain.decide(SCENARIO.steps[1], 1, PAGE, HISTORY).unsupported is None
    decision = brain.decide(SCENARIO.steps[1], 1, PAGE, HISTORY)
    assert decision.unsupported == "the model proposed no action for this step"
    assert decision.failure_kind == "action"


def test_a_reply_that_never_matches_the_schema_is_a_model_error(server, brain):
    server.script(reply("I think you should click the button."), reply({"action": "click"}))
    with pytest.raises(ModelReplyError, match="next_action"):
        brain.decide(SCENARIO.steps[1], 1, PAGE, HISTORY)
    assert len(server.requests) == 2  # one re-ask naming the problem, then the error
