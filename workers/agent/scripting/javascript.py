"""Step definitions as cucumber-js JavaScript driving playwright-core; a pure function of StepDefinitions.

Locator -> JavaScript (the Python side builds the same element query from Locator.selector()):

    strategy   JavaScript
    id         this.page.locator("<value>")        value is a whole CSS selector, e.g. "#lastName"
    name       this.page.locator("<value>")        value is a whole CSS selector, e.g. 'input[name="lastName"]'
    css        this.page.locator("<value>")
    xpath      this.page.locator("xpath=<value>")
    testid     this.page.getByTestId("value")
    label      this.page.getByLabel("value", { exact: true })
    role       this.page.getByRole("role", { name: "value", exact: true })   (no name when value is ""; without
               exact when the name is found inside a longer one: a count or a card's text around it)
    text       this.page.getByText("value", { exact: true })
    title      this.page.getByTitle("value", { exact: true })

frames (outermost first) prefix the query: this.page.frameLocator("f1").frameLocator("f2").<query>; a container
(within) follows them: .locator("tr").filter({ hasText: "Betty Davis" }).<query>.

Each operation's statement is its action kind's (workers/agent/actions/kinds/<kind>.py: `javascript`).
"""

from __future__ import annotations

import json
from collections.abc import Sequence

from shared.records import Locator, ScriptOp, StepDefinition
from workers.agent.actions import action
from workers.agent.actions.naming import record_anchored

HEADER = 'const { Given, When, Then } = require("@cucumber/cucumber");\n'
# The same definitions for Playwright Test: playwright-bdd's Given/When/Then with the world fixture (fixtures.js).
PLAYWRIGHT_BDD_HEADER = 'const { Given, When, Then } = require("./fixtures");\n'


def js_string(text: str) -> str:
    """A JavaScript string literal (JSON is valid JavaScript; U+2028/9 escaped by ensure_ascii)."""
    return json.dumps(text)


def locator_js(locator: Locator, page: str = "this.page", record_arg: str | None = None) -> str:
    """The playwright-core expression that finds the locator's element; with `record_arg`, the row's text (or
    the element's name) it finds it by is that argument (see naming.record_text)."""
    query = _query_js(locator, page, record_arg)
    return f"{query}.nth({locator.nth})" if locator.nth is not None else query


def _query_js(locator: Locator, page: str, record_arg: str | None = None) -> str:
    anchored = record_arg is not None and record_anchored(locator)
    root = page + "".join(f".frameLocator({js_string(frame)})" for frame in locator.frames)
    if locator.within is not None:
        row = record_arg if anchored else js_string(locator.within.text)
        root += f".locator({js_string(locator.within.css)}).filter({{ hasText: {row} }})"
    strategy, value = locator.strategy, locator.value
    name = record_arg if record_arg is not None and not anchored else js_string(value)
    selector = locator.selector()  # the same selector the generation ran with
    if selector is not None:
        return f"{root}.locator({js_string(selector)})"
    if strategy == "testid":
        return f"{root}.getByTestId({js_string(value)})"
    exact = ", { exact: true }" if locator.exact else ""
    if strategy == "label":
        return f"{root}.getByLabel({name}{exact})"
    if strategy == "role":
        role = js_string(locator.role or "button")
        if not value:
            return f"{root}.getByRole({role})"
        return f"{root}.getByRole({role}, {{ name: {name}{', exact: true' if locator.exact else ''} }})"
    if strategy == "text":
        return f"{root}.getByText({name}{exact})"
    if strategy == "title":
        return f"{root}.getByTitle({name}{exact})"
    raise ValueError(f"unknown locator strategy {strategy!r}")


def _value(op: ScriptOp) -> str:
    return op.arg if op.arg else js_string(op.value or "")


def statement(op: ScriptOp) -> str:
    """One awaited playwright-core statement (or a few on one line) for one script operation: its kind's."""
    spec = action(op.kind)
    if op.locator is None and spec.grounded and not spec.target_optional:
        raise ValueError(f"a {op.kind} operation needs a locator ({op.comment!r})")
    target = locator_js(op.locator, record_arg=op.record_arg) if op.locator is not None else None
    return spec.javascript(op, target, _value(op))


def _comment(text: str) -> str:
    return "// " + " ".join(text.split())


def render_definition(definition: StepDefinition) -> str:
    lines = [f"{definition.keyword}({js_string(definition.pattern)}, async function ({', '.join(definition.args)}) {{"]
    for op in definition.ops:
        lines.append("  " + _comment(op.comment))
        lines.append("  " + statement(op))
    lines.append("});")
    return "\n".join(lines) + "\n"


def render_steps(defs: Sequence[StepDefinition], header: str = HEADER) -> str:
    """The steps.js file: the import of Given/When/Then (cucumber-js's, or playwright-bdd's with
    PLAYWRIGHT_BDD_HEADER), then each definition, separated by a blank line."""
    return header + "".join("\n" + render_definition(definition) for definition in defs)
