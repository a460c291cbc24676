"""Cucumber-expression specials, quotes, table cells, and patterns that never match the same text."""

from __future__ import annotations

import itertools

from shared.records import Locator, Node, Operation, ScenarioScript, StepUse
from shared.scenarios import Scenario
from workers.agent.scripting.expressions import escape_expression, expression_regex, pattern_text, unescape_expression
from workers.agent.scripting.gherkin import render_feature
from workers.agent.scripting.javascript import render_steps
from workers.agent.scripting.steps import build_scripts


def click(index: int, text: str, locator: Locator, context: str | None = None, step: int = 0) -> Operation:
    target = Node(id=index + 1, tag="button", role="button", operable=True, text=text, context=context)
    return Operation(index=index, step_index=step, kind="click", description="", target=target,
                     locator=locator)


def scenario(sid: str) -> Scenario:
    return Scenario(id=sid, title=sid, start="/", steps=["x"])


def sample(pattern: str) -> str:
    return pattern_text(pattern, ['"x"'] * pattern.count("{string}"))


def test_expression_specials_get_a_backslash() -> None:
    assert escape_expression("Save (draft) {1}/2 \\ end") == "Save \\(draft\\) \\{1\\}\\/2 \\\\ end"
    assert unescape_expression(escape_expression("a(b){c}/d\\e")) == "a(b){c}/d\\e"


def test_literal_texts_are_escaped_in_the_pattern_but_not_in_the_gherkin_line() -> None:
    name = 'Add (new) pet/owner {x} \\ "now"'
    ops = [click(0, name, Locator(strategy="css", value="#add"))]
    scripts, defs = build_scripts([(scenario("a"), ops)])
    assert scripts[0].steps[1].text == 'Click "Add (new) pet/owner {x} \\ "now""'
    assert defs[1].pattern == 'Click "Add \\(new\\) pet\\/owner \\{x\\} \\\\ "now""'
    assert expression_regex(defs[1].pattern).match(scripts[0].steps[1].text)
    js = render_steps(defs)
    definition = (
        'When("Click \\"Add \\\\(new\\\\) pet\\\\/owner \\\\{x\\\\} \\\\\\\\ \\"now\\"\\"", async function () {'
    )
    assert definition in js
    assert '// Click the "Add (new) pet/owner {x} \\ "now"" button' in js


def test_paths_in_the_given_step_are_escaped() -> None:
    scripts, defs = build_scripts([(Scenario(id="p", title="p", start="/owners/{id}/edit", steps=["x"]), [])])
    assert scripts[0].steps[0].text == 'Open the page "/owners/{id}/edit"'
    assert defs[0].pattern == 'Open the page "\\/owners\\/\\{id\\}\\/edit"'


def test_example_cells_escape_quotes_pipes_backslashes_and_newlines() -> None:
    script = ScenarioScript(
        scenario_id="q",
        title="Quotes",
        steps=[StepUse(keyword="Then", text='the page shows "<text>"', signature="x")],
        examples=[{"text": 'say "hi" | a\\b'}, {"text": "two\nlines"}],
    )
    assert render_feature("F", [script]).splitlines()[-3:] == [
        "      | text                 |",
        '      | say \\\\"hi\\\\" \\| a\\\\b |',
        "      | two\\nlines           |",
    ]


def test_a_scenario_without_parameters_is_a_plain_scenario_and_tags_are_added() -> None:
    script = ScenarioScript(
        scenario_id="plain",
        title="No values",
        tags=["smoke", "@plain"],
        steps=[
            StepUse(keyword="Given", text='Open the page "/"', signature="g"),
            StepUse(keyword="When", text='Click "A"', signature="a"),
            StepUse(keyword="When", text='Click "B"', signature="b"),
            StepUse(keyword="And", text='Click "C"', signature="c"),
            StepUse(keyword="Then", text='the page shows "x"', signature="t"),
        ],
    )
    assert render_feature("F", [script]) == (
        "Feature: F\n\n"
        "  @plain @smoke\n"
        "  Scenario: No values\n"
        '    Given Open the page "/"\n'
        '    When Click "A"\n'
        '    And Click "B"\n'
        '    And Click "C"\n'
        '    Then the page shows "x"\n'
    )


def test_same_wording_for_different_targets_is_disambiguated() -> None:
    runs = [
        (scenario("a"), [click(0, "Edit", Locator(strategy="id", value="#edit-owner"))]),
        (scenario("b"), [click(0, "Edit", Locator(strategy="id", value="#edit-pet"), context="Pets and Visits")]),
        (scenario("c"), [click(0, "Edit", Locator(strategy="id", value="#edit-visit"))]),
        (scenario("d"), [click(0, "Edit", Locator(strategy="id", value="#edit-more"))]),
    ]
    scripts, defs = build_scripts(runs)
    # Told apart by the element's kind, then its locator: never a running number.
    assert [s.steps[1].text for s in scripts] == [
        'Click "Edit"',
        'Click "Edit" (the button)',
        'Click "Edit" (id "#edit-visit")',
        'Click "Edit" (id "#edit-more")',
    ]
    assert defs[-1].pattern == 'Click "Edit" \\(id "#edit-more"\\)'
    assert_unambiguous(defs)
    # The same runs in another order give each target the same words it had.
    again, _ = build_scripts(runs)
    assert [s.steps[1].text for s in again] == [s.steps[1].text for s in scripts]


def test_a_literal_never_collides_with_a_parameter_slot() -> None:
    field = Node(id=1, tag="input", operable=True, label='Name" field and click "Save', form=5)
    fill = Operation(index=0, step_index=0, kind="fill", description="", target=field,
                     locator=Locator(strategy="id", value="#odd"), value="v")
    runs = [
        (scenario("a"), [fill]),
        (scenario("b"), [Operation(index=0, step_index=0, kind="fill", description="",
                                   target=Node(id=1, tag="input", operable=True, label="Name", form=5),
                                   locator=Locator(strategy="id", value="#name"), value="w"),
                           click(1, "Save", Locator(strategy="id", value="#save"))]),
    ]
    _, defs = build_scripts(runs)
    assert_unambiguous(defs)


def assert_unambiguous(defs) -> None:
    patterns = [d.pattern for d in defs]
    assert len(set(patterns)) == len(patterns)
    for one, other in itertools.permutations(defs, 2):
        assert not expression_regex(one.pattern).match(sample(other.pattern)), (one.pattern, other.pattern)
