from __future__ import annotations

from shared.records import ActionKind, Locator, Node, Observation, Operation
from shared.scenarios import Scenario
from workers.agent.scripting.expressions import definition_for_step, is_assertion_step
from workers.agent.scripting.gherkin import render_feature
from workers.agent.scripting.grouping import group_operations
from workers.agent.scripting.signatures import signature_of
from workers.agent.scripting.steps import build_scripts
from workers.agent.scripting.wording import form_name


def node(node_id: int, form: int | None = None, **attrs) -> Node:
    return Node(id=node_id, tag="input", operable=True, form=form, **attrs)


def op(index: int, step: int, kind: ActionKind, value: str | None = None, target: Node | None = None,
       locator: Locator | None = None, **fields) -> Operation:
    if locator is None and target is not None:
        locator = Locator(strategy="id", value="#" + (target.id_attr or f"n{target.id}"))
    return Operation(index=index, step_index=step, kind=kind, description=f"op {index}", target=target,
                     locator=locator, value=value, **fields)


def scenario(sid: str = "s1", start: str = "/", **fields) -> Scenario:
    return Scenario(id=sid, title=f"Scenario {sid}", start=start, steps=["do it"], **fields)


def test_form_operations_and_their_submit_make_one_step() -> None:
    ops = [
        op(0, 0, "fill", "Leo", node(1, form=9, label="Name")),
        op(1, 1, "select", "cat", node(2, form=9, label="Type")),
        op(2, 2, "check", None, node(3, form=9, label="Vaccinated")),
        op(3, 3, "click", None, node(4, form=9, text="Add Pet")),
        op(4, 3, "click", None, node(5, text="Back")),
    ]
    assert [[o.index for o in g] for g in group_operations(ops)] == [[0, 1, 2, 3], [4]]
    scripts, defs = build_scripts([(scenario(), ops)])
    assert [s.text for s in scripts[0].steps] == [
        'Open the page "/"',
        ('Enter "<name>" in the Name field, select "<type>" in the Type dropdown, check the Vaccinated checkbox '
         'and click "Add Pet"'),
        'Click "Back"',
    ]
    assert defs[1].pattern == (
        'Enter {string} in the Name field, select {string} in the Type dropdown, check the Vaccinated checkbox '
        'and click "Add Pet"'
    )
    assert defs[1].args == ["name", "type"]


def test_other_operations_group_by_scenario_step_and_assertions_stand_alone() -> None:
    ops = [
        op(0, 0, "click", None, node(1, text="Menu", role="button")),
        op(1, 0, "click", None, node(2, text="Owners", role="link")),
        op(2, 1, "click", None, node(3, text="Add Owner", role="link")),
        op(3, 1, "assert_text", "New Owner"),
        op(4, 1, "assert_text", "First name"),
        op(5, 2, "press", "Escape"),
    ]
    groups = group_operations(ops)
    assert [[o.index for o in g] for g in groups] == [[0, 1], [2], [3], [4], [5]]
    scripts, _ = build_scripts([(scenario(), ops)])
    feature = "\n".join(line for line in render_feature("F", scripts).splitlines() if "#" not in line) + "\n"
    assert '''    Given Open the page "/"
    When Click "Menu" and click "Owners"
    And Click "Add Owner"
    Then the page shows "<expectedText>"
    And the page shows "<expectedText2>"
    When Press "Escape"
''' in feature


def test_a_navigation_ends_a_step() -> None:
    moved = Observation(url_before="http://a/x", url_after="http://a/y")
    ops = [
        op(0, 0, "click", None, node(1, text="Next"), observation=moved),
        op(1, 0, "click", None, node(2, text="Done")),
    ]
    assert [[o.index for o in g] for g in group_operations(ops)] == [[0], [1]]


def test_the_given_step_replaces_the_agents_opening_goto_and_later_gotos_reuse_it() -> None:
    ops = [
        op(0, 0, "goto", "http://app.test/owners/find"),
        op(1, 1, "click", None, node(1, text="Home")),
        op(2, 2, "goto", "/owners/find"),
    ]
    scripts, defs = build_scripts([(scenario(start="/owners/find"), ops)])
    steps = scripts[0].steps
    assert [(s.keyword, s.text) for s in steps] == [
        ("Given", 'Open the page "/owners/find"'),
        ("When", 'Click "Home"'),
        ("When", 'Open the page "/owners/find"'),
    ]
    assert steps[0].signature == steps[2].signature
    assert len(defs) == 2


def test_signature_ignores_values_but_not_targets_paths_or_keyword() -> None:
    field = node(1, form=3, label="Name", id_attr="name")
    other = node(2, form=3, label="Name", id_attr="other-name")
    a, defs_a = build_scripts([(scenario("a"), [op(0, 0, "fill", "x", field)])])
    b, _ = build_scripts([(scenario("b"), [op(0, 0, "fill", "y", field)])])
    c, _ = build_scripts([(scenario("c"), [op(0, 0, "fill", "x", other)])])
    d, _ = build_scripts([(scenario("d", start="/other"), [op(0, 0, "fill", "x", field)])])
    assert a[0].steps[1].signature == b[0].steps[1].signature
    assert a[0].steps[1].signature != c[0].steps[1].signature
    assert a[0].steps[0].signature != d[0].steps[0].signature
    assert len(a[0].steps[1].signature) == 16
    assert int(a[0].steps[1].signature, 16) >= 0
    assert signature_of("When", [[1]]) != signature_of("Then", [[1]])
    assert defs_a[1].signature == a[0].steps[1].signature


def test_reuse_takes_the_existing_wording_with_this_scenarios_parameters() -> None:
    first = [op(0, 0, "fill", "Leo", node(1, form=3, label="Name", id_attr="name")),
             op(1, 0, "click", None, node(2, form=3, text="Save", role="button"))]
    # Same targets, other label texts (the page changed its wording), other values.
    second = [op(0, 0, "fill", "Max", node(1, form=3, label="Pet name", id_attr="name"), param="pet"),
              op(1, 0, "click", None, node(2, form=3, text="Store", role="button"))]
    second[1] = second[1].model_copy(update={"locator": first[1].locator})
    # The same elements, named the same: one definition, worded once.
    second[0] = second[0].model_copy(update={"target": first[0].target})
    second[1] = second[1].model_copy(update={"target": first[1].target})
    scripts, defs = build_scripts(
        [(scenario("a"), first), (scenario("b", data=[{"pet": "Max"}, {"pet": "Rex"}]), second)]
    )
    assert len(defs) == 2
    assert scripts[1].steps[1].text == 'Enter "<pet>" in the Name field and click "Save"'
    assert scripts[1].examples == [{"pet": "Max"}, {"pet": "Rex"}]


def test_a_selector_shared_by_differently_named_elements_never_lends_one_its_name() -> None:
    """`#submit` finds "Add Owner" on one page and "Add Visit" on another: each step says the name the tester
    saw, so the second is its own definition (same code, truthful words), never 'Click "Add Owner"' again."""
    def submit(text: str) -> Operation:
        return op(0, 0, "click", None, node(2, text=text, role="button"), Locator(strategy="css", value="#submit"))

    scripts, defs = build_scripts([(scenario("a"), [submit("Add Owner")]), (scenario("b"), [submit("Add Visit")]),
                                   (scenario("c"), [submit("Add Owner")])])
    assert [s.steps[1].text for s in scripts] == ['Click "Add Owner"', 'Click "Add Visit"', 'Click "Add Owner"']
    assert len([d for d in defs if d.keyword == "When"]) == 2
    assert scripts[0].steps[1].signature == scripts[2].steps[1].signature


def test_existing_definitions_are_reused() -> None:
    ops = [op(0, 0, "click", None, node(1, text="Go"))]
    _, defs = build_scripts([(scenario("a"), ops)])
    scripts, used = build_scripts([(scenario("b"), ops)], existing=defs)
    assert used == defs
    assert [s.signature for s in scripts[0].steps] == [d.signature for d in defs]


def test_an_operation_without_a_locator_is_refused() -> None:
    bad = Operation(index=0, step_index=0, kind="click", description="click")
    try:
        build_scripts([(scenario(), [bad])])
    except ValueError as exc:
        assert "has no locator" in str(exc)
    else:
        raise AssertionError("expected a ValueError")


def test_a_reported_step_finds_its_definition() -> None:
    from tests.agent.scripting.example import RUNS

    _, defs = build_scripts(RUNS)
    by_pattern = {d.pattern: d for d in defs}
    cases = {
        'Given Open the page "/owners/find"': 'Open the page "\\/owners\\/find"',
        'When Enter "O\\"Neil" in the Last name field and click "Find Owner"':
            'Enter {string} in the Last name field and click "Find Owner"',
        'And Click the "George Franklin" link': 'Click the {string} link',
        'Then the page shows "Nobody Here"': "the page shows {string}",
        'And the page shows "11 owners"': "the page shows {string}",
        'But the Telephone shows "000"': "the Telephone shows {string}",
        'the Telephone shows ""': "the Telephone shows {string}",  # without its keyword
    }
    for reported, pattern in cases.items():
        assert definition_for_step(reported, defs) is by_pattern[pattern], reported
    assert definition_for_step('And Click "Somebody Else"', defs) is None
    assert definition_for_step('When Click "George Franklin" twice', defs) is None
    assert definition_for_step("", defs) is None
    kinds = {p: is_assertion_step(d) for p, d in by_pattern.items()}
    assert kinds == {
        'Open the page "\\/owners\\/find"': False,
        'Enter {string} in the Last name field and click "Find Owner"': False,
        "the page shows {string}": True,
        "the Telephone shows {string}": True,
        "Click the {string} link": False,
    }


def test_a_literal_check_keeps_its_own_value_in_every_examples_row() -> None:
    field = node(1, form=3, label="Last name", id_attr="lastName")
    ops = [
        op(0, 0, "fill", "Franklin", field, param="lastName"),
        op(1, 0, "click", None, node(2, form=3, text="Find", role="button")),
        op(2, 1, "assert_text", "Franklin"),
    ]
    scripts, _ = build_scripts([(scenario(data=[{"lastName": "Franklin"}, {"lastName": "Coleman"}]), ops)])
    assert [s.text for s in scripts[0].steps][-1] == 'the page shows "<expectedText>"'
    assert scripts[0].examples == [
        {"lastName": "Franklin", "expectedText": "Franklin"},
        {"lastName": "Coleman", "expectedText": "Franklin"},
    ]


# --- a form's step names the form -------------------------------------------------------------------------------


def test_a_form_step_names_the_form_by_its_heading_and_the_fields_by_their_labels() -> None:
    ops = [
        op(0, 0, "fill", "Leo", node(1, form=9, label="Name", context="Pets / New Pet")),
        op(1, 1, "select", "cat", node(2, form=9, label="Type", context="Pets / New Pet")),
        op(2, 2, "check", None, node(3, form=9, label="Vaccinated", context="Pets / New Pet")),
        op(3, 3, "click", None, node(4, form=9, text="Add Pet", role="button", context="Pets")),
    ]
    scripts, defs = build_scripts([(scenario(), ops)])
    assert scripts[0].steps[1].text == (
        'Fill in the New Pet form with "<name>" as Name, "<type>" as Type and Vaccinated checked '
        'and submit it with "Add Pet"'
    )
    assert defs[1].pattern == (
        'Fill in the New Pet form with {string} as Name, {string} as Type and Vaccinated checked '
        'and submit it with "Add Pet"'
    )
    assert defs[1].args == ["name", "type"]
    # The comments still say what each operation does, one by one.
    assert [o.comment for o in defs[1].ops] == [
        # What the element is and how it is found, true on every page the step runs on: no page's heading.
        'Type name into the "Name" field (by its id)',
        'Choose the option type in the "Type" dropdown (by its id)',
        'Tick the "Vaccinated" checkbox (by its id)',
        'Click the "Add Pet" button (by its id)',
    ]


def test_the_form_name_is_the_innermost_context_its_fields_share() -> None:
    ops = [
        op(0, 0, "fill", "Betty", node(1, form=9, label="First name", context="Owner / Name")),
        op(1, 0, "fill", "Madison", node(2, form=9, label="City", context="Owner / Address")),
        op(2, 0, "uncheck", None, node(3, form=9, label="Newsletter", context="Owner / Address")),
    ]
    assert form_name(ops) == "Owner"
    assert form_name(ops[1:]) == "Address"
    heading = [op(0, 0, "fill", "x", node(1, form=9, label="A", context="Add Pet Form"))]
    assert form_name(heading) == "Add Pet"
    assert form_name([op(0, 0, "fill", "x", node(1, form=9, label="A"))]) == ""
    scripts, _ = build_scripts([(scenario(), ops)])
    # Not submitted: the step only fills the form.
    assert scripts[0].steps[1].text == (
        'Fill in the Owner form with "<firstName>" as First name, "<city>" as City and Newsletter unchecked'
    )


def test_a_form_submitted_with_a_key_and_forms_without_a_name() -> None:
    search = node(1, form=9, label="Last name", id_attr="lastName", context="Find Owners")
    pressed = [op(0, 0, "fill", "Davis", search),
               op(1, 0, "press", "Enter", search)]
    scripts, _ = build_scripts([(scenario(), pressed)])
    assert scripts[0].steps[1].text == (
        'Fill in the Find Owners form with "<lastName>" as Last name and submit it by pressing "Enter" '
        'in the Last name field'
    )
    # No heading or legend: the operations are listed, as before. A submit alone stays a click.
    unnamed = [op(0, 0, "fill", "Davis", node(1, form=9, label="Last name")),
               op(1, 0, "click", None, node(2, form=9, text="Find Owner", context="Find Owners"))]
    submit_only = [op(0, 0, "click", None, node(2, form=9, text="Find Owner", context="Find Owners"))]
    scripts, _ = build_scripts([(scenario("a"), unnamed), (scenario("b"), submit_only)])
    assert scripts[0].steps[1].text == 'Enter "<lastName>" in the Last name field and click "Find Owner"'
    assert scripts[1].steps[1].text == 'Click "Find Owner"'


def test_two_forms_with_the_same_wording_get_distinct_patterns() -> None:
    def form(prefix: str) -> list[Operation]:
        return [op(0, 0, "fill", "Leo", node(1, form=9, label="Name", id_attr=f"{prefix}-name",
                                                       context="New Pet")),
                op(1, 0, "click", None, node(2, form=9, text="Add", id_attr=f"{prefix}-add",
                                                      context="New Pet"))]

    scripts, defs = build_scripts([(scenario("a"), form("a")), (scenario("b"), form("b"))])
    assert [s.steps[1].text for s in scripts] == [
        'Fill in the New Pet form with "<name>" as Name and submit it with "Add"',
        'Fill in the New Pet form with "<name>" as Name and submit it with "Add" in the "New Pet" section',
    ]
    assert len({d.pattern for d in defs}) == len(defs) == 3


def test_a_lone_field_keeps_its_plain_wording_even_inside_a_named_form() -> None:
    # The same field may sit in forms of other pages that reuse this step; naming one form would mislead.
    ops = [
        op(0, 0, "fill", "Davis", node(1, form=9, label="Last name", context="Find Owners")),
        op(1, 1, "click", None, node(2, text="Help", role="link")),
    ]
    scripts, _ = build_scripts([(scenario(), ops)])
    assert [s.text for s in scripts[0].steps] == ['Open the page "/"', 'Enter "<lastName>" in the Last name field',
                                                  'Click "Help"']
