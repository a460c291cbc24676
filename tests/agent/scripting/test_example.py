"""Exact output for the two-scenario owners example (tests/agent/scripting/example.py)."""

from __future__ import annotations

from tests.agent.scripting.example import RUNS
from workers.agent.scripting.gherkin import render_feature
from workers.agent.scripting.javascript import render_steps
from workers.agent.scripting.steps import build_scripts

FEATURE = '''Feature: Owners

  Background:
    Given Open the page "/owners/find"

  @find-owner
  Scenario Outline: Find owners by last name
    When Enter "<lastName>" in the Last name field and click "Find Owner"
    Then the page shows "<owner>"

    Examples:
      | lastName | owner           |
      | Davis    | Betty Davis     |
      | Franklin | George Franklin |

  @owner-details
  Scenario Outline: Show an owner's details
    # Search for the owner Franklin
    When Enter "<lastName>" in the Last name field and click "Find Owner"
    And Click the "<expectedText>" link
    Then the Telephone shows "<telephoneShown>"
    And the page shows "<expectedText>"

    Examples:
      | lastName | telephoneShown | expectedText    |
      | Franklin | 6085551023     | George Franklin |
'''

STEPS = '''const { Given, When, Then } = require("@cucumber/cucumber");

Given("Open the page \\"\\\\/owners\\\\/find\\"", async function () {
  // Open /owners/find
  await this.page.goto(this.url("/owners/find"));
});

When("Enter {string} in the Last name field and click \\"Find Owner\\"", async function (lastName) {
  // Type lastName into the "Last name" field (by its id)
  await this.page.locator("#lastName").fill(lastName);
  // Click the "Find Owner" button (by its role and name)
  await this.page.getByRole("button", { name: "Find Owner", exact: true }).click();
});

Then("the page shows {string}", async function (owner) {
  // Check that the page shows owner
  await this.expectText(owner);
});

When("Click the {string} link", async function (expectedText) {
  // Click the expectedText link (by its role and name)
  await this.page.getByRole("link", { name: expectedText, exact: true }).click();
});

Then("the Telephone shows {string}", async function (telephoneShown) {
  // Check that the "Telephone" element shows telephoneShown (by XPath)
  await this.expectValue(this.page.locator("xpath=//th[text()=\\"Telephone\\"]/following-sibling::td"), telephoneShown);
});
'''


def test_feature_text() -> None:
    scripts, _ = build_scripts(RUNS)
    assert render_feature("Owners", scripts) == FEATURE


def test_step_definitions_text() -> None:
    _, defs = build_scripts(RUNS)
    assert render_steps(defs) == STEPS


def test_the_search_step_is_defined_once_and_used_by_both_scenarios() -> None:
    scripts, defs = build_scripts(RUNS)
    search = [d for d in defs if d.pattern.startswith("Enter {string} in the Last name field")]
    assert len(search) == 1
    for script in scripts:
        assert [s.signature for s in script.steps].count(search[0].signature) == 1
    assert len({d.signature for d in defs}) == len(defs) == 5


def test_failed_and_redundant_operations_leave_no_trace() -> None:
    _, defs = build_scripts(RUNS)
    statements = [op for d in defs for op in d.ops]
    # The failed click on the heading used a text locator; the redundant click was on the telephone cell.
    assert all(op.locator is None or op.locator.strategy != "text" for op in statements)
    assert [op.kind for op in statements].count("click") == 2


def test_output_is_deterministic() -> None:
    first = build_scripts(RUNS)
    second = build_scripts(RUNS)
    assert first == second
