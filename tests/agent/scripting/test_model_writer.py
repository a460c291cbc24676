"""The abstraction phase with a model: grouping, step text and parameter names proposed by a model, checked, and
the builtin rules' result kept whenever the proposal (or the call) fails.

Every test talks HTTP to the scripted FakeOpenAI server through the real ModelClient; registry-backed tests use
the real LocalStepRegistry on a temporary SQLite file.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from shared.records import Operation, RunRecord
from shared.registry.local import LocalStepRegistry
from shared.scenarios import Scenario
from shared.settings import Settings
from shared.step_registry import origin_of
from tests.agent.scripting.example import FIND_OWNER, FIND_OWNER_OPS, OWNER_DETAILS, OWNER_DETAILS_OPS, RUNS
from tests.agent.scripting.test_known_steps import ADD_PET, ADD_PET_OPS, ONE, ONE_OPS, TWO, TWO_OPS, click
from tests.agent.verify.conftest import node_modules, settings, site  # noqa: F401  (fixtures for the replay)
from tests.model.fake_openai import FakeOpenAI, prompt_text, reply, schema_name, status
from workers.agent.model.client import ModelClient
from workers.agent.scripting.build import Suite, build_suite, new_steps
from workers.agent.scripting.expressions import expression_regex
from workers.agent.scripting.javascript import render_definition
from workers.agent.scripting.model_writer import PHASE, SCHEMA, ModelStepWriter
from workers.agent.scripting.writer import WritingRequest

pytestmark = pytest.mark.e2e  # its tier (tests/conftest.py)

ORIGIN = origin_of("http://app.test:8080/")
PROJECT = "petclinic-e2e"


def runs(*pairs: tuple[Scenario, list[Operation]]) -> list[tuple[Scenario, RunRecord]]:
    return [(s, RunRecord(scenario_id=s.id, title=s.title, base_url="http://app.test:8080", operations=ops))
            for s, ops in pairs]


def proposal(steps: list[tuple[list[int], str]], parameters: dict[str, str] | None = None) -> dict[str, Any]:
    return {"steps": [{"operations": ops, "text": text} for ops, text in steps],
            "parameters": [{"current": old, "name": new} for old, new in (parameters or {}).items()]}


@pytest.fixture
def server() -> Iterator[FakeOpenAI]:
    with FakeOpenAI() as fake:
        yield fake


def make_client(server: FakeOpenAI, **options: Any) -> ModelClient:
    return ModelClient(server.base_url, "key", "fake-model", max_retries=0, **options)


@pytest.fixture
def client(server: FakeOpenAI) -> Iterator[ModelClient]:
    with make_client(server) as made:
        yield made


@pytest.fixture
def registry(tmp_path: Path) -> Iterator[LocalStepRegistry]:
    made = LocalStepRegistry(f"sqlite:///{tmp_path / 'registry.sqlite3'}")
    yield made
    made.close()


def assert_consistent(suite: Suite) -> None:
    """Each Gherkin line matches exactly one definition (the one its StepUse names), its placeholders are the
    Examples columns, and each line with the rows' values filled in still matches that definition."""
    step_lines = [line.strip() for line in suite.feature_text.splitlines()
                  if re.match(r"\s+(Given|When|Then|And) ", line)]
    background = 1 if "  Background:" in suite.feature_text else 0  # the shared opening is written once
    assert len(step_lines) == sum(len(s.steps) - background for s in suite.scripts) + background
    for script in suite.scripts:
        columns = set(script.examples[0]) if script.examples else set()
        used: set[str] = set()
        for use in script.steps:
            matching = [d for d in suite.definitions if expression_regex(d.pattern).match(use.text)]
            assert [d.signature for d in matching] == [use.signature], (use.text, [d.pattern for d in matching])
            assert suite.step_definition(f"{use.keyword} {use.text}").signature == use.signature
            names = re.findall(r"<([A-Za-z_][A-Za-z0-9_]*)>", use.text)
            assert set(names) <= columns, (use.text, columns)
            used.update(names)
            for row in script.examples:
                line = use.text
                for name, value in row.items():
                    line = line.replace(f"<{name}>", value.replace('"', '\\"'))
                assert expression_regex(matching[0].pattern).match(line), line
        assert used == columns
    for definition in suite.definitions:
        assert definition.pattern.count("{string}") == len(definition.args)
        assert render_definition(definition) in suite.steps_text


def same_output(suite: Suite, expected: Suite) -> None:
    assert suite.feature_text == expected.feature_text
    assert suite.steps_text == expected.steps_text
    assert suite.definitions == expected.definitions
    assert suite.scripts == expected.scripts
    assert suite.counts == expected.counts and suite.reused == expected.reused


GOOD = proposal(
    [([1, 2, 3], 'Look up the owner named "<ownerLastName>" and open "George Franklin"'),
     ([4], "Then the telephone number is <telephone>"),  # a keyword is dropped, quotes are added
     ([5], 'the owner "<ownerFullName>" is shown')],
    {"lastName": "ownerLastName", "telephoneShown": "telephone", "expectedText": "ownerFullName"},
)


# --- a proposal taken ---------------------------------------------------------------------------------------------


def test_a_good_reply_words_the_steps_and_names_the_parameters(server: FakeOpenAI, client: ModelClient) -> None:
    server.script(reply(GOOD))
    suite = build_suite(runs((OWNER_DETAILS, OWNER_DETAILS_OPS)), writer=ModelStepWriter(client))

    assert suite.writer_notes == {"owner-details": "model"}
    assert [f"{u.keyword} {u.text}" for u in suite.scripts[0].steps] == [
        'Given Open the page "/owners/find"',
        # The record the model quoted ("George Franklin", a value the scenario expects) is a parameter.
        'When Look up the owner named "<ownerLastName>" and open "<ownerFullName>"',
        'Then the telephone number is "<telephone>"',
        'Then the owner "<ownerFullName>" is shown',
    ]
    assert suite.scripts[0].examples == [
        {"ownerLastName": "Franklin", "telephone": "6085551023", "ownerFullName": "George Franklin"}
    ]
    assert "| ownerLastName | telephone  | ownerFullName   |" in suite.feature_text
    assert ('When("Look up the owner named {string} and open {string}", '
            "async function (ownerLastName, ownerFullName) {") in suite.steps_text
    assert "// Type ownerLastName into the \"Last name\" field" in suite.steps_text
    assert 'Then("the telephone number is {string}", async function (telephone) {' in suite.steps_text
    assert suite.counts["owner-details"].operations == 3 and suite.counts["owner-details"].steps == 1
    assert_consistent(suite)

    (body,) = server.requests
    assert schema_name(body) == "step_writing"
    assert body["response_format"]["json_schema"]["strict"] is True
    assert client.usage()["phases"][PHASE]["calls"] == 1


def test_the_schema_is_strict_compatible() -> None:
    def check(node: Any) -> None:
        if isinstance(node, dict):
            if node.get("type") == "object":
                assert node["additionalProperties"] is False
                assert sorted(node["required"]) == sorted(node["properties"])
            for value in node.values():
                check(value)

    check(SCHEMA)


def test_the_prompt_shows_the_operations_the_builtin_proposal_and_the_known_steps(
    server: FakeOpenAI, client: ModelClient, registry: LocalStepRegistry
) -> None:
    first = build_suite(runs((FIND_OWNER, FIND_OWNER_OPS), (ADD_PET, ADD_PET_OPS)), registry=registry,
                        origin=ORIGIN)
    registry.register(PROJECT, ORIGIN, new_steps(first.new_definitions))
    server.respond_with(lambda body: status(500, "down"))

    seen: list[WritingRequest] = []

    class Recording(ModelStepWriter):
        def propose(self, request: WritingRequest):  # noqa: ANN201
            seen.append(request)
            return super().propose(request)

    suite = build_suite(runs((OWNER_DETAILS, OWNER_DETAILS_OPS)), registry=registry, origin=ORIGIN,
                        writer=Recording(client))
    text = prompt_text(server.requests[0])
    assert "Scenario: Show an owner's details" in text and "2. Open George Franklin" in text
    # The numbered operations: kind, what it does, target, value, parameter.
    assert ('1. [sentence 1] fill: Type "Franklin" into the "Last name" field (by its id); target "Last name"; '
            'value "Franklin"; parameter <lastName>') in text
    assert '3. [sentence 2] click: Click the "George Franklin" link (by its role and name)' in text
    assert '4. [sentence 3] assert_value (assertion)' in text
    assert '- telephoneShown = "6085551023" (generated: may be renamed)' in text
    # The builtin proposal, the registry's steps marked to keep.
    assert ('step 1 (When): operations 1-2 KEEP (an existing step): Enter "<lastName>" in the Last name field '
            'and click "Find Owner"') in text
    assert 'step 2 (When): operation 3: Click the "<expectedText>" link' in text
    assert 'step 3 (Then): operation 4: the Telephone shows "<telephoneShown>"' in text
    assert "parameters: lastName -> lastName, telephoneShown -> telephoneShown, expectedText -> expectedText" in text
    # The registry's steps for the origin, those of other pages too.
    assert '- When Enter {string} in the Last name field and click "Find Owner"' in text
    assert ('- When Fill in the New Pet form with {string} as Name and {string} as Type and submit it with '
            '"Add Pet"') in text
    assert "- Then the page shows {string}" in text
    (request,) = seen
    assert request.fixed == (0, 3)
    assert {s.source for s in request.known_steps} == {"registry"}
    # The endpoint is down: the builtin result, with the reason.
    assert suite.writer_notes["owner-details"].startswith("builtin: model call failed")
    same_output(suite, build_suite(runs((OWNER_DETAILS, OWNER_DETAILS_OPS)), registry=registry, origin=ORIGIN))


def test_a_known_signature_keeps_its_step_whatever_the_model_calls_it(
    server: FakeOpenAI, client: ModelClient, registry: LocalStepRegistry
) -> None:
    first = build_suite(runs((FIND_OWNER, FIND_OWNER_OPS)), registry=registry, origin=ORIGIN)
    registry.register(PROJECT, ORIGIN, new_steps(first.new_definitions))
    known_search, known_shows = first.definitions[1], first.definitions[2]
    server.script(reply(proposal(
        [([1, 2], 'Hunt down "<ownerLastName>" somehow'),
         ([3], 'Open the owner "George Franklin"'),
         ([4], 'the telephone number is "<telephone>"'),
         ([5], 'a completely new text for "<ownerFullName>"')],
        {"lastName": "ownerLastName", "telephoneShown": "telephone", "expectedText": "ownerFullName"},
    )))
    suite = build_suite(runs((OWNER_DETAILS, OWNER_DETAILS_OPS)), registry=registry, origin=ORIGIN,
                        writer=ModelStepWriter(client))
    assert suite.writer_notes == {"owner-details": "model"}
    assert [u.text for u in suite.scripts[0].steps[1:]] == [
        'Enter "<ownerLastName>" in the Last name field and click "Find Owner"',  # the registry's wording
        'Open the owner "<ownerFullName>"',
        'the telephone number is "<telephone>"',
        'the page shows "<ownerFullName>"',  # the registry's wording
    ]
    assert suite.scripts[0].steps[1].signature == known_search.signature
    assert {known_search.signature, known_shows.signature} <= suite.reused
    assert known_search in suite.definitions and known_shows in suite.definitions
    assert [d.pattern for d in suite.new_definitions] == ["Open the owner {string}",
                                                          "the telephone number is {string}"]
    assert_consistent(suite)


# --- proposals refused -------------------------------------------------------------------------------------------

DETAILS = [(OWNER_DETAILS, OWNER_DETAILS_OPS)]
NAMES = {"lastName": "lastName", "telephoneShown": "telephoneShown", "expectedText": "expectedText"}
NINE = Scenario(id="nine", title="nine clicks", start="/", steps=["click them all"])
NINE_OPS = [click(i, 0, name) for i, name in enumerate("ABCDEFGHI")]
SHOWN = Operation(index=3, step_index=2, kind="assert_text", description="", value="Done")


def details(steps: list[tuple[list[int], str]], names: dict[str, str] = NAMES) -> dict[str, Any]:
    return proposal(steps, names)


STEPS_OK = [([1, 2], 'Search for "<lastName>"'), ([3], 'Open "George Franklin"'),
            ([4], 'the telephone is "<telephoneShown>"'), ([5], 'I see "<expectedText>"')]

BAD = {
    "uncovered operation": (DETAILS, details(STEPS_OK[:3]), "operations 1 to 5, each once and in order"),
    "operations out of order": (
        DETAILS, details([([2, 1], 'Search for "<lastName>"'), *STEPS_OK[1:]]), "each once and in order"),
    "operation twice": (
        DETAILS, details([([1, 2], 'Search for "<lastName>"'), ([2, 3], "Open it"), *STEPS_OK[2:]]),
        "each once and in order"),
    "group too large": (
        [(NINE, NINE_OPS)], proposal([(list(range(1, 10)), "Click them all")]), "has 9 operations (at most 8)"),
    "assertion mixed with actions": (
        DETAILS, details([STEPS_OK[0], ([3, 4], 'Open him and see "<telephoneShown>"'), STEPS_OK[3]]),
        "operations 3-4 mixes assertions with actions"),
    "too few placeholders": (
        DETAILS, details([([1, 2], "Search for the owner"), *STEPS_OK[1:]]),
        "has 0 placeholder(s) for 1 argument(s)"),
    "too many placeholders": (
        DETAILS, details([STEPS_OK[0], ([3], 'Open "<lastName>"'), *STEPS_OK[2:]]),
        "has 1 placeholder(s) for 0 argument(s)"),
    "placeholder of another step": (
        DETAILS, details([([1, 2], 'Search for "<expectedText>"'), *STEPS_OK[1:]]),
        "<expectedText> is not the parameter of one of its operations"),
    "parameter name not an identifier": (
        DETAILS, details(STEPS_OK, {**NAMES, "lastName": "last name"}), "'last name' is not an identifier"),
    "parameter names colliding": (
        DETAILS, details(STEPS_OK, {**NAMES, "telephoneShown": "shown", "expectedText": "shown"}),
        "would both be named 'shown'"),
    "parameter left out": (
        DETAILS, details(STEPS_OK, {"lastName": "lastName", "expectedText": "expectedText"}),
        "parameter 'telephoneShown' is not named"),
    "unknown parameter": (
        DETAILS, details(STEPS_OK, {**NAMES, "nobody": "x"}), "there is no parameter 'nobody'"),
    "data column renamed": (
        [(FIND_OWNER, FIND_OWNER_OPS)],
        proposal([([1, 2], 'Search for "<surname>"'), ([3], 'I see "<owner>"')],
                 {"lastName": "surname", "owner": "owner"}),
        "'lastName' is a data column: its name stays"),
    "ambiguous text within the proposal": (
        DETAILS, details([([1, 2], 'Search for "<lastName>"'), ([3], 'Search for "George Franklin"'),
                          *STEPS_OK[2:]]),
        "would be ambiguous with the existing step When 'Search for {string}'"),
    "same text as an existing step of other operations": (
        [(ONE, ONE_OPS), (TWO, TWO_OPS[:1] + [SHOWN])],
        None,  # scripted below: the first scenario keeps the builtin result, the second reuses its text
        'would be ambiguous with the existing step When \'Click "A"\''),
    "a known run split": (
        [(ONE, ONE_OPS), (ONE.model_copy(update={"id": "again"}), ONE_OPS)],
        None,
        "the existing step of operations 2-3 must be kept as one step, not operation 2"),
    "a known step taken into a new one": (
        [(ONE, ONE_OPS), (ONE.model_copy(update={"id": "xbc"}), [click(0, 0, "X"), *ONE_OPS[1:]])],
        None,
        "the existing step of operations 2-3 must be kept as one step; operations 1-3 cannot take it in"),
    "a known assertion taken into a new one": (
        [(FIND_OWNER, FIND_OWNER_OPS), (OWNER_DETAILS, OWNER_DETAILS_OPS)],
        None,
        "the existing step of operation 5 must be kept as one step, not operations 4-5"),
    "an empty text": (DETAILS, details([([1, 2], "  When  "), *STEPS_OK[1:]]), "a step text is empty"),
    "unknown placeholder": (
        DETAILS, details([([1, 2], 'Search for "<nobody>"'), *STEPS_OK[1:]]),
        "<nobody> is not the parameter of one of its operations"),
}


@pytest.mark.parametrize("case", list(BAD), ids=list(BAD))
def test_a_bad_proposal_falls_back_to_the_builtin_result(case: str, server: FakeOpenAI, client: ModelClient) -> None:
    pairs, answer, reason = BAD[case]
    if case == "same text as an existing step of other operations":
        # The first scenario's proposal is refused (no reply); the second calls its assertion's step "Click "A"".
        server.script(status(500), reply(proposal([([1], "Click A, like the other button"),
                                                   ([2], 'Click "<expectedText>"')],
                                                  {"expectedText": "expectedText"})))
    elif case == "a known run split":
        server.script(status(500), reply(proposal([([1], 'Click "A"'), ([2], 'Click "B"'), ([3], 'Click "C"')])))
    elif case == "a known step taken into a new one":
        # [B, C] is known, [X] and [X, B, C] are not.
        server.script(status(500), reply(proposal([([1, 2, 3], "Click all three")])))
    elif case == "a known assertion taken into a new one":
        # "the page shows {string}" is the first scenario's step; the model would put it with the telephone's.
        server.script(status(500), reply(details([([1, 2], "x"), ([3], 'Open "George Franklin"'),
                                                  ([4, 5], 'the telephone is "<telephoneShown>" and '
                                                           '"<expectedText>" shows')])))
    else:
        server.script(reply(answer))
    expected = build_suite(runs(*pairs))
    suite = build_suite(runs(*pairs), writer=ModelStepWriter(client))
    same_output(suite, expected)
    note = suite.writer_notes[pairs[-1][0].id]
    assert note.startswith("builtin: model proposal rejected: "), note
    assert reason in note, note
    assert len(server.requests) == len(pairs)


def test_a_text_that_a_registry_step_would_match_is_refused(
    server: FakeOpenAI, client: ModelClient, registry: LocalStepRegistry
) -> None:
    first = build_suite(runs((FIND_OWNER, FIND_OWNER_OPS)), registry=registry, origin=ORIGIN)
    registry.register(PROJECT, ORIGIN, new_steps(first.new_definitions))
    # "the page shows {string}" (the registry's, not yet used in this build when operation 3 is placed) would
    # match this When step's text too.
    server.script(reply(details([([1, 2], "x"), ([3], 'the page shows "George Franklin"'), *STEPS_OK[2:]])))
    suite = build_suite(runs(*DETAILS), registry=registry, origin=ORIGIN, writer=ModelStepWriter(client))
    assert "would be ambiguous with the existing step Then 'the page shows {string}'" in suite.writer_notes[
        "owner-details"]
    same_output(suite, build_suite(runs(*DETAILS), registry=registry, origin=ORIGIN))


def test_a_reply_that_never_matches_the_schema_falls_back(server: FakeOpenAI, client: ModelClient) -> None:
    server.script(reply({"steps": "all of them"}), reply({"nope": True}))
    suite = build_suite(runs(*DETAILS), writer=ModelStepWriter(client))
    assert suite.writer_notes["owner-details"].startswith("builtin: model call failed: ")
    assert "does not match schema" in suite.writer_notes["owner-details"]
    same_output(suite, build_suite(runs(*DETAILS)))
    assert client.usage()["phases"][PHASE]["reasks"] == 1


def test_an_endpoint_that_always_fails_falls_back_for_every_scenario(server: FakeOpenAI,
                                                                     client: ModelClient) -> None:
    server.respond_with(lambda body: status(500, "overloaded"))
    suite = build_suite(runs(*RUNS), writer=ModelStepWriter(client))
    same_output(suite, build_suite(runs(*RUNS)))
    assert set(suite.writer_notes) == {"find-owner", "owner-details"}
    for note in suite.writer_notes.values():
        assert note.startswith("builtin: model call failed: ") and "HTTP 500" in note and "overloaded" in note
    assert len(server.requests) == 2  # max_retries=0: one request per scenario


def test_a_spent_budget_stops_the_model_for_the_rest_of_the_build(server: FakeOpenAI) -> None:
    calls: list[str] = []

    class Counting(ModelStepWriter):
        def propose(self, request: WritingRequest):  # noqa: ANN201
            calls.append(request.scenario.id)
            return super().propose(request)

    server.script(reply(GOOD))
    pairs = [(OWNER_DETAILS, OWNER_DETAILS_OPS), (FIND_OWNER, FIND_OWNER_OPS), (ADD_PET, ADD_PET_OPS)]
    with make_client(server, budget_calls=1) as client:
        suite = build_suite(runs(*pairs), writer=Counting(client))
        assert client.usage()["phases"][PHASE]["calls"] == 1
    assert len(server.requests) == 1
    assert calls == ["owner-details", "find-owner"]  # asked once more (refused before sending), then never
    assert suite.writer_notes["owner-details"] == "model"
    assert suite.writer_notes["find-owner"].startswith("builtin: model budget exhausted: ")
    assert suite.writer_notes["add-pet"].startswith("builtin: model not asked (stopped earlier in this build: "
                                                    "model budget exhausted")
    assert_consistent(suite)


def test_a_scenario_without_operations_is_not_offered(server: FakeOpenAI, client: ModelClient) -> None:
    empty = Scenario(id="empty", title="just open", start="/", steps=["open"])
    suite = build_suite(runs((empty, [])), writer=ModelStepWriter(client))
    assert suite.writer_notes == {"empty": "builtin: no operations to write"}
    assert server.requests == []


def test_model_steps_are_reused_by_later_scenarios(server: FakeOpenAI, client: ModelClient) -> None:
    # The model groups a, b, c as one step in the first scenario; the second scenario's builtin proposal keeps
    # that step (known), and the model gives it back.
    server.script(reply(proposal([([1, 2, 3], 'Press the three buttons A, B and "C"')])),
                  reply(proposal([([1, 2, 3], "anything")])))
    suite = build_suite(runs((ONE, ONE_OPS), (TWO, TWO_OPS)), writer=ModelStepWriter(client))
    assert suite.writer_notes == {"one": "model", "two": "model"}
    assert [u.text for s in suite.scripts for u in s.steps[1:]] == ['Press the three buttons A, B and "C"'] * 2
    assert "step 1 (When): operations 1-3 KEEP (an existing step)" in prompt_text(server.requests[1])
    assert_consistent(suite)


# --- the suite runs ----------------------------------------------------------------------------------------------


def test_a_suite_worded_by_the_model_passes_in_cucumber(tmp_path: Path, server: FakeOpenAI, client: ModelClient,
                                                          site: str, settings: Settings,  # noqa: F811
                                                          node_modules: Path) -> None:  # noqa: F811
    from workers.agent.verify.replay import replay

    server.script(
        reply(proposal([([1, 2], 'Search the owners for "<lastName>"'), ([3], 'the results list "<owner>"')],
                       {"lastName": "lastName", "owner": "owner"})),
        # Operations 1-2 are the first scenario's search step now: kept whole, as they must be.
        reply(proposal([([1, 2], "kept"), ([3], 'Open the owner "George Franklin"'),
                        ([4], 'the telephone number is "<telephone>"'), ([5], "kept")],
                       {"lastName": "ownerLastName", "telephoneShown": "telephone",
                        "expectedText": "ownerFullName"})),
    )
    suite = build_suite(runs(*RUNS), writer=ModelStepWriter(client))
    assert suite.writer_notes == {"find-owner": "model", "owner-details": "model"}
    assert [u.text for u in suite.scripts[1].steps[1:]] == [
        'Search the owners for "<ownerLastName>"', 'Open the owner "<ownerFullName>"',
        'the telephone number is "<telephone>"', 'the results list "<ownerFullName>"']
    assert_consistent(suite)
    suite.write(tmp_path)
    for scenario_id in ("find-owner", "owner-details"):
        result = replay(tmp_path, scenario_id, site, settings)
        assert result.passed, result
