"""Features a reviewer recognises and steps that read the same for every record: feature files per group, a
Background, records as parameters, stable labels, the tester's words, clearing, true comments, stable wording."""

from __future__ import annotations

from shared.records import Locator, Node, Operation, RunRecord, Within
from shared.scenarios import Scenario, feature_title_of, parse_scenarios
from workers.agent.actions.naming import stable_label
from workers.agent.scripting.build import build_suite
from workers.agent.scripting.gherkin import render_features
from workers.agent.scripting.javascript import render_steps
from workers.agent.scripting.steps import build_scripts


def scenario(sid: str, steps: list[str], **fields) -> Scenario:
    return Scenario(id=sid, title=f"Scenario {sid}", start="/tasks", steps=steps, **fields)


def click(index: int, step: int, node: Node, locator: Locator) -> Operation:
    return Operation(index=index, step_index=step, kind="click", description="", target=node, locator=locator)


def suite_of(*runs: tuple[Scenario, list[Operation]], feature: str = "Tasks"):
    return build_suite([(s, RunRecord(scenario_id=s.id, title=s.title, base_url="http://app", operations=ops))
                        for s, ops in runs], feature=feature)


def row_checkbox(index: int, step: int, row: str) -> Operation:
    return Operation(index=index, step_index=step, kind="check", description="", target=Node(
        id=7, tag="input", role="checkbox", operable=True, input_type="checkbox"),
        locator=Locator(strategy="role", role="checkbox", value="", within=Within(css="tr", text=row)))


# --- features --------------------------------------------------------------------------------------------------


def test_scenarios_go_into_the_feature_they_name_with_a_shared_opening_as_background() -> None:
    star = Node(id=3, tag="button", role="button", operable=True, text="Star")
    by_role = Locator(strategy="role", role="button", value="Star")
    suite = suite_of(
        (scenario("T-1", ["Click Star"]), [click(0, 0, star, by_role)]),
        (scenario("T-2", ["Click Star"], feature="Starring"), [click(0, 0, star, by_role)]),
        (scenario("T-3", ["Click Star"]), [click(0, 0, star, by_role)]),
    )
    assert list(suite.features) == ["features/tasks.feature", "features/starring.feature"]
    tasks = suite.features["features/tasks.feature"]
    assert tasks.startswith('Feature: Tasks\n\n  Background:\n    Given Open the page "/tasks"\n\n  @T-1\n')
    assert tasks.count('Given Open the page "/tasks"') == 1 and "@T-2" not in tasks
    # One scenario alone: its opening stays in the scenario.
    assert suite.features["features/starring.feature"] == (
        'Feature: Starring\n\n  @T-2\n  Scenario: Scenario T-2\n    Given Open the page "/tasks"\n'
        '    When Click "Star"\n')


def test_a_feature_is_named_after_its_scenarios_file_unless_it_says() -> None:
    assert feature_title_of("examples/checkout-flows.yaml") == "Checkout flows"
    assert feature_title_of("team_tasks.yml") == "Team tasks"
    declared = parse_scenarios("feature: Owners\nscenarios:\n  - {id: A, title: t, steps: [Click Go]}\n", "f.yaml")
    assert declared.feature == "Owners"
    assert render_features([], "Owners") == {"features/owners.feature": "Feature: Owners\n"}


# --- records ---------------------------------------------------------------------------------------------------


def test_a_row_s_text_is_a_parameter_and_one_step_serves_every_row() -> None:
    scripts, defs = build_scripts([
        (scenario("T-1", ["Tick the checkbox of Water the plants"]), [row_checkbox(0, 0, "Water the plants")]),
        (scenario("T-2", ["Tick the checkbox of Book the team dinner"]), [row_checkbox(0, 0, "Book the team dinner")]),
    ])
    assert [s.steps[1].text for s in scripts] == ['Check the checkbox in the row of "<rowText>"'] * 2
    assert [s.examples for s in scripts] == [[{"rowText": "Water the plants"}], [{"rowText": "Book the team dinner"}]]
    assert [s.steps[1].said for s in scripts] == [[], []]  # the row's words are in the Examples
    when = [d for d in defs if d.keyword == "When"]
    assert len(when) == 1 and when[0].pattern == "Check the checkbox in the row of {string}"
    assert 'locator("tr").filter({ hasText: rowText }).getByRole("checkbox").check();' in render_steps(defs)


def test_a_clickable_row_is_the_row_of_its_text_whatever_its_cells_say() -> None:
    def open_row(title: str, assignee: str) -> Operation:
        node = Node(id=4, tag="tr", role="row", operable=True, text=f"{title} {assignee} Open")
        return click(0, 0, node, Locator(strategy="css", value=":scope", within=Within(css="tr", text=title)))

    scripts, defs = build_scripts([(scenario("T-1", ["Open the SSL task"]), [open_row("Renew the SSL", "Dave")]),
                                   (scenario("T-2", ["Open the report"]), [open_row("Write the report", "Alice")])])
    assert [s.steps[1].text for s in scripts] == ['Click the row of "<rowText>"'] * 2
    assert len([d for d in defs if d.keyword == "When"]) == 1
    assert "Dave" not in render_steps(defs) and "Renew" not in render_steps(defs)


def test_a_target_named_by_a_value_of_the_scenario_takes_that_value_s_parameter() -> None:
    link = Node(id=5, tag="a", role="link", operable=True, text="George Franklin")
    ops = [click(0, 0, link, Locator(strategy="role", role="link", value="George Franklin")),
           Operation(index=1, step_index=1, kind="assert_text", description="", value="George Franklin")]
    scripts, defs = build_scripts([(scenario("O-1", ["Click George Franklin", "Verify George Franklin is shown"]),
                                    ops)])
    assert [s.text for s in scripts[0].steps[1:]] == ['Click the "<expectedText>" link',
                                                      'the page shows "<expectedText>"']
    assert 'getByRole("link", { name: expectedText, exact: true }).click();' in render_steps(defs)


def test_a_heading_holding_a_record_never_names_a_form() -> None:
    assert stable_label("Owner: David Schroeder") == "Owner"
    assert stable_label("Order #1042") == "" and stable_label("New Pet") == "New Pet"

    def upload_form(title: str) -> list[Operation]:
        field = Node(id=1, tag="input", operable=True, label="Attachment", form=3, context=title, input_type="file")
        button = Node(id=2, tag="button", role="button", operable=True, text="Upload", form=3, context=title)
        return [Operation(index=0, step_index=0, kind="upload", description="", target=field, value="notes.txt",
                          locator=Locator(strategy="label", value="Attachment")),
                click(1, 0, button, Locator(strategy="role", role="button", value="Upload"))]

    scripts, _ = build_scripts([(scenario("T-1", ["Attach notes.txt to the report"], data=[]),
                                 upload_form("Write the quarterly report"))])
    # The form's heading is the task's own title, a value of the scenario's record: not a name for the form.
    scripts2, _ = build_scripts([(scenario("T-2", ["Open Write the quarterly report", "Attach notes.txt"]),
                                  [Operation(index=0, step_index=0, kind="assert_text", description="",
                                             value="Write the quarterly report"), *upload_form(
                                      "Write the quarterly report")])])
    assert "Fill in the Write the quarterly report form" in scripts[0].steps[1].text  # no record: a heading
    assert "quarterly" not in scripts2[0].steps[2].text


# --- the tester's words and the element's names ------------------------------------------------------------------


def test_a_shared_step_keeps_each_tester_s_words_as_a_comment() -> None:
    add = Node(id=2, tag="button", role="button", operable=True, text="Add Visit")
    by_role = Locator(strategy="role", role="button", value="Add Visit")
    scripts, defs = build_scripts([(scenario("V-1", ["Click Add Visit"]), [click(0, 0, add, by_role)]),
                                   (scenario("V-2", ["Submit the visit form"]), [click(0, 0, add, by_role)])])
    assert [s.steps[1].text for s in scripts] == ['Click "Add Visit"'] * 2
    assert [s.steps[1].said for s in scripts] == [[], ["Submit the visit form"]]
    assert len([d for d in defs if d.keyword == "When"]) == 1
    feature = render_features(scripts, "Visits")["features/visits.feature"]
    assert '    # Submit the visit form\n    When Click "Add Visit"\n' in feature


def test_button_label_variants_on_one_selector_each_read_truthfully() -> None:
    def submit(text: str) -> Operation:
        node = Node(id=2, tag="button", role="button", operable=True, text=text)
        return click(0, 0, node, Locator(strategy="css", value="button[type=submit]"))

    scripts, defs = build_scripts([(scenario("O-1", ["Click Add Owner"]), [submit("Add Owner")]),
                                   (scenario("V-1", ["Click Add Visit"]), [submit("Add Visit")])])
    assert [s.steps[1].text for s in scripts] == ['Click "Add Owner"', 'Click "Add Visit"']
    comments = [op.comment for d in defs for op in d.ops if op.kind == "click"]
    assert comments == ['Click the "Add Owner" button (by CSS selector)', 'Click the "Add Visit" button (by CSS selector)']


def test_clearing_a_field_is_its_own_operation() -> None:
    address = Node(id=1, tag="input", operable=True, label="Address", form=4, context="Owner", input_type="text")
    save = Node(id=2, tag="button", role="button", operable=True, text="Save", form=4, context="Owner")
    ops = [Operation(index=0, step_index=0, kind="clear", description="", target=address,
                     locator=Locator(strategy="label", value="Address")),
           click(1, 1, save, Locator(strategy="role", role="button", value="Save"))]
    scripts, defs = build_scripts([(scenario("O-1", ["Clear the Address field", "Click Save"]), ops)])
    assert scripts[0].steps[1].text == 'Fill in the Owner form with Address cleared and submit it with "Save"'
    assert scripts[0].examples == []
    assert 'await this.page.getByLabel("Address", { exact: true }).fill("");' in render_steps(defs)
    alone, _ = build_scripts([(scenario("O-2", ["Clear the Address field"]), ops[:1])])
    assert alone[0].steps[1].text == "Clear the Address field"


def test_steps_told_apart_by_an_earlier_operation_s_locator_never_stop_the_build() -> None:
    def form(field_id: str) -> list[Operation]:
        name = Node(id=1, tag="input", operable=True, label="Name", form=4, input_type="text")
        save = Node(id=2, tag="button", role="button", operable=True, text="Save", form=4)
        return [Operation(index=0, step_index=0, kind="fill", description="", target=name, value="Rex",
                          locator=Locator(strategy="css", value=field_id)),
                click(1, 0, save, Locator(strategy="role", role="button", value="Save"))]

    scripts, defs = build_scripts([(scenario("P-1", ["Name it Rex"]), form("#name")),
                                   (scenario("P-2", ["Name it Rex"]), form("#petName"))])
    texts = [s.steps[1].text for s in scripts]
    assert texts[0] != texts[1] and '(css "#petName")' in texts[1]
    assert "variant" not in "".join(texts)
