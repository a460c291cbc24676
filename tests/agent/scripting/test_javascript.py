from __future__ import annotations

import json

import pytest

from shared.records import Locator, ScriptOp, StepDefinition, Within
from workers.agent.scripting.javascript import locator_js, render_steps, statement


@pytest.mark.parametrize(
    ("locator", "expected"),
    [
        # id, name and css values are whole CSS selectors, rendered as they are (Locator.selector()).
        (Locator(strategy="id", value="#lastName"), 'this.page.locator("#lastName")'),
        (Locator(strategy="id", value='[id="owner:1 name"]'), 'this.page.locator("[id=\\"owner:1 name\\"]")'),
        (Locator(strategy="name", value='input[name="lastName"]'),
         'this.page.locator("input[name=\\"lastName\\"]")'),
        (Locator(strategy="css", value="form#f > button.primary"), 'this.page.locator("form#f > button.primary")'),
        (Locator(strategy="xpath", value="/html/body/div[2]/a"), 'this.page.locator("xpath=/html/body/div[2]/a")'),
        (Locator(strategy="testid", value="save"), 'this.page.getByTestId("save")'),
        (Locator(strategy="label", value="Last name"), 'this.page.getByLabel("Last name", { exact: true })'),
        (Locator(strategy="role", role="link", value='Say "hi"'),
         'this.page.getByRole("link", { name: "Say \\"hi\\"", exact: true })'),
        (Locator(strategy="role", role="main", value=""), 'this.page.getByRole("main")'),
        (Locator(strategy="text", value="Welcome"), 'this.page.getByText("Welcome", { exact: true })'),
        (Locator(strategy="css", value="#pay", frames=["iframe#outer", "iframe[name=\"card\"]"]),
         'this.page.frameLocator("iframe#outer").frameLocator("iframe[name=\\"card\\"]").locator("#pay")'),
        # A control named by the row it sits in, and one named by its order among elements named alike.
        (Locator(strategy="role", role="checkbox", value="", within=Within(css="li", text="Water the plants")),
         'this.page.locator("li").filter({ hasText: "Water the plants" }).getByRole("checkbox")'),
        (Locator(strategy="text", value="Same", nth=1), 'this.page.getByText("Same", { exact: true }).nth(1)'),
    ],
)
def test_locator_js(locator: Locator, expected: str) -> None:
    assert locator_js(locator) == expected


def test_a_name_locator_is_the_selector_the_generation_ran_with() -> None:
    # It once became [name="input[name=\"lastName\"]"], a selector that matches nothing.
    locator = Locator(strategy="name", value='input[name="lastName"]')
    assert locator_js(locator) == 'this.page.locator("input[name=\\"lastName\\"]")'
    assert locator_js(locator) == f"this.page.locator({json.dumps(locator.selector())})"


FIELD = Locator(strategy="id", value="#f")


@pytest.mark.parametrize(
    ("op", "expected"),
    [
        (ScriptOp(kind="click", locator=FIELD, comment=""), 'await this.page.locator("#f").click();'),
        (ScriptOp(kind="fill", locator=FIELD, arg="name", comment=""),
         'await this.page.locator("#f").fill(name);'),
        (ScriptOp(kind="fill", locator=FIELD, value='a"b', comment=""),
         'await this.page.locator("#f").fill("a\\"b");'),
        (ScriptOp(kind="select", locator=FIELD, arg="type", comment=""),
         'await this.page.locator("#f").selectOption({ label: type });'),
        (ScriptOp(kind="check", locator=FIELD, comment=""), 'await this.page.locator("#f").check();'),
        (ScriptOp(kind="uncheck", locator=FIELD, comment=""), 'await this.page.locator("#f").uncheck();'),
        (ScriptOp(kind="press", value="Enter", comment=""), 'await this.page.keyboard.press("Enter");'),
        (ScriptOp(kind="press", locator=FIELD, value="Tab", comment=""),
         'await this.page.locator("#f").press("Tab");'),
        (ScriptOp(kind="goto", value="/a b?x=1", comment=""),
         'await this.page.goto(this.url("/a b?x=1"));'),
        (ScriptOp(kind="assert_text", arg="expectedText", comment=""),
         "await this.expectText(expectedText);"),
        (ScriptOp(kind="assert_value", locator=FIELD, arg="nameShown", comment=""),
         'await this.expectValue(this.page.locator("#f"), nameShown);'),
    ],
)
def test_statements(op: ScriptOp, expected: str) -> None:
    assert statement(op) == expected


def test_a_definition_has_one_comment_line_before_each_statement() -> None:
    definition = StepDefinition(
        keyword="When",
        pattern="Enter {string} in the Name field",
        args=["name"],
        ops=[ScriptOp(kind="fill", locator=FIELD, arg="name", comment="Type name into\nthe Name field")],
        signature="0123456789abcdef",
    )
    assert render_steps([definition]).splitlines() == [
        'const { Given, When, Then } = require("@cucumber/cucumber");',
        "",
        f"When({json.dumps(definition.pattern)}, async function (name) {{",
        "  // Type name into the Name field",
        '  await this.page.locator("#f").fill(name);',
        "});",
    ]
