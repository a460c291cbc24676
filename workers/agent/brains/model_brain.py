"""The `openai` brain: SeeAct-style next action from a model, as a tester (seed 002, listings 2-3).

Each call shows the model the test case with every step marked DONE / CURRENT / TODO, the data row,
the history (operations, what each changed, errors of failed ones), the current page's URL, title and
operable elements, and the screenshot. It answers one JSON object: the next operation in words, or
that the current step is done with the atomic assertions of its expected result (values read from the
final screen), or a verdict that the test cannot go on and why.

The scenario run executes what it answers and asks again (`step_done=False`) until the step is done.
Failed operations stay in the history with their error, so the next prompt can choose another way
(`recovers = True`); assertions are executed against the page like any operation, and one that does
not hold is recorded as failed and never reaches a script.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from functools import lru_cache
from typing import Any

from shared.records import Decision, Intent, Operation, PageSnapshot
from shared.scenarios import PLACEHOLDER, Scenario, ScenarioStep
from workers.agent.actions import action, all_actions
from workers.agent.model.client import ModelClient

from .builtin import describe

PHASE = "next_action"
# How many times in a row the model may answer nothing useful for a step before the step fails.
MAX_IDLE_ANSWERS = 2
# How many operable elements of the page the prompt lists (the screenshot shows the rest).
MAX_LISTED_ELEMENTS = 60

SYSTEM = (
    "Imagine that you are imitating a manual tester performing a test case in a web browser. You receive "
    "a test case and you follow it, step by step, and determine its verdict. You never do anything the test "
    "case does not ask for, and you never anticipate a later step."
)

GUIDANCE = """Follow the following guidance:
[CURRENT WEBPAGE IDENTIFICATION]: Firstly, think about what the current webpage is ("page").
[PREVIOUS ACTION ANALYSIS]: Secondly, combined with the screenshot, analyse each previous action and its intention, one by one. A FAILED action did not happen: read its error and choose another way (another element, another value format, another route).
[TEST CASE PROGRESS]: Based on the past actions, give each step a status: DONE, CURRENT, TODO ("progress"). The current step is the first one that is not DONE.
[SCREENSHOT DETAILS ANALYSIS]: Closely examine the screenshot to see what can be operated and what has been set or completed.
[TEST STEP ASSERTION CONTROL]: When every action of the current step has been done, set "step_done" to true. If the step has an expected result, list its atomic assertions ("assertions"), each checkable on the current page, of one of these kinds:
{checks}
Take values from the final screen, never from memory. If an expected result does not hold on the page, do not list a false assertion: give the verdict instead.
[NEXT ACTION BASED ON WEBPAGE AND ANALYSIS]: Otherwise decide the one next operation of the current step ("action"), of one of these kinds:
{actions}
"target" names the element as the page shows it (its label, text, placeholder or icon, from the list of elements; a row's or section's own text may follow: "Delete in the row of Alice"); "value" is what the kind takes; "description" says it in words. Use "none" as kind when there is no action to do.
[VERDICT]: When the test cannot go on (the action is impossible on this application, or an expected result does not hold), set "verdict" to {"status": "failed", "kind": "action" or "expectation", "reason": why}; otherwise {"status": "continue", "kind": "none", "reason": ""}.
[FINAL ANSWER]: Reply with the JSON object only."""

_STRING = {"type": "string"}


def _schema(actions: list[str], checks: list[str]) -> dict[str, Any]:
    return {
        "type": "object",
        "additionalProperties": False,
        "required": ["page", "progress", "action", "step_done", "assertions", "verdict"],
        "properties": {
            "page": _STRING,
            "progress": {
                "type": "array",
                "items": {
                    "type": "object",
                    "additionalProperties": False,
                    "required": ["step", "status"],
                    "properties": {"step": {"type": "integer"}, "status": {"enum": ["DONE", "CURRENT", "TODO"]}},
                },
            },
            "action": {
                "type": "object",
                "additionalProperties": False,
                "required": ["kind", "target", "value", "description"],
                "properties": {
                    "kind": {"enum": [*actions, "none"]},
                    "target": _STRING,
                    "value": _STRING,
                    "description": _STRING,
                },
            },
            "step_done": {"type": "boolean"},
            "assertions": {
                "type": "array",
                "items": {
                    "type": "object",
                    "additionalProperties": False,
                    "required": ["kind", "target", "value"],
                    "properties": {"kind": {"enum": checks}, "target": _STRING, "value": _STRING},
                },
            },
            "verdict": {
                "type": "object",
                "additionalProperties": False,
                "required": ["status", "kind", "reason"],
                "properties": {
                    "status": {"enum": ["continue", "failed"]},
                    "kind": {"enum": ["action", "expectation", "none"]},
                    "reason": _STRING,
                },
            },
        },
    }


@lru_cache(maxsize=1)
def answer_schema() -> dict[str, Any]:
    """The model's answer: its action and assertion kinds are those the action kinds offer (see actions.base)."""
    kinds = all_actions()
    return _schema([a.name for a in kinds if a.for_model], [a.check_name for a in kinds if a.check_name])


@lru_cache(maxsize=1)
def guidance() -> str:
    kinds = all_actions()
    actions = "\n".join(f"- {a.model_hint}" for a in kinds if a.for_model)
    checks = "\n".join(f"- {a.model_hint}" for a in kinds if a.check_name)
    return GUIDANCE.replace("{actions}", actions).replace("{checks}", checks)


def check_kind(check_name: str) -> str:
    """The action kind of an assertion the model listed ("text" -> "assert_text")."""
    return next(a.name for a in all_actions() if a.check_name == check_name)


class ModelBrain:
    """`Brain` backed by a model (see `base.Brain`); one per scenario attempt."""

    name = "openai"
    recovers = True

    def __init__(self, client: ModelClient, scenario: Scenario, row: Mapping[str, str] | None = None) -> None:
        self.client = client
        self.scenario = scenario
        self.row = dict(row if row is not None else scenario.first_row())
        self._idle = 0
        self._notes: list[str] = []  # said to the model in the next prompt (e.g. a rejected answer)

    def decide(
        self,
        step: ScenarioStep,
        step_index: int,
        snapshot: PageSnapshot,
        history: list[Operation],
        screenshot: Callable[[], bytes] | None = None,
    ) -> Decision:
        text = self.prompt(step_index, snapshot, history)
        images = [screenshot()] if screenshot is not None else []
        answer = self.client.ask_json(PHASE, SYSTEM, text, images, schema=answer_schema(), schema_name="next_action")
        return self.decision(step, step_index, answer)

    # --- the prompt ---------------------------------------------------------------------------

    def prompt(self, step_index: int, snapshot: PageSnapshot, history: list[Operation]) -> str:
        lines = [f"You are asked to complete the following test case: {self.scenario.title}"]
        if self.row:
            lines.append("Test data: " + ", ".join(f"{k} = {v!r}" for k, v in self.row.items()))
        lines.append("Steps (status as known so far):")
        for number, step in enumerate(self.scenario.steps):
            status = "DONE" if number < step_index else "CURRENT" if number == step_index else "TODO"
            expected = f" | expected result: {self.substitute(step.expected)}" if step.expected else ""
            lines.append(f"  {number + 1}. [{status}] {self.substitute(step.action)}{expected}")
        lines.append("Previous actions:")
        lines += [f"  {describe_operation(op)}" for op in history] or ["  (none)"]
        lines.append(f"Current page: {snapshot.url} (title {snapshot.title!r})")
        elements = operable_elements(snapshot)
        if elements:
            lines.append("Elements you can operate on this page:")
            lines += [f"  - {e}" for e in elements]
        for note in self._notes:
            lines.append(f"NOTE: {note}")
        self._notes = []
        lines.append("The screenshot shows the webpage you see.")
        lines.append(guidance())
        return "\n".join(lines)

    def substitute(self, text: str | None) -> str:
        return PLACEHOLDER.sub(lambda m: self.row.get(m[1], m[0]), text or "")

    # --- the answer ---------------------------------------------------------------------------

    def decision(self, step: ScenarioStep, step_index: int, answer: dict[str, Any]) -> Decision:
        verdict = answer["verdict"]
        if verdict["status"] == "failed":
            kind = verdict["kind"] if verdict["kind"] in ("action", "expectation") else "action"
            return Decision(unsupported=f"the model: {verdict['reason'] or 'the test cannot go on'}",
                            failure_kind=kind)
        intents: list[Intent] = []
        proposed = answer["action"]
        if proposed["kind"] != "none":
            intents.append(self.intent(step, proposed["kind"], proposed["target"], proposed["value"],
                                       proposed["description"]))
        done = bool(answer["step_done"])
        if done:
            checks = [a for a in answer["assertions"] if a["value"].strip()]
            if step.expected and not checks:
                done = False
                self._notes.append(f"step {step_index + 1} has an expected result: list its assertions, "
                                   "or give the verdict if it does not hold")
            for check in checks:
                kind = check_kind(check["kind"])
                target = check["target"].strip() or None if kind == "assert_value" else None
                if kind == "assert_value" and target is None:
                    kind = "assert_text"  # a value without an element is a text on the page
                intents.append(self.intent(step, kind, target, check["value"], ""))
        if not intents and not done:
            self._idle += 1
            if self._idle >= MAX_IDLE_ANSWERS:
                return Decision(unsupported="the model proposed no action for this step", failure_kind="action")
        else:
            self._idle = 0
        return Decision(intents=intents, step_done=done)

    def intent(self, step: ScenarioStep, kind: str, target: str | None, value: str | None,
               description: str) -> Intent:
        target = (target or "").strip() or None
        spec = action(kind)
        if not (spec.valued or spec.literal):
            value = None
        elif value is not None and not spec.is_assertion:
            value = value if kind == "fill" else value.strip()
        return Intent(
            kind=kind,
            description=" ".join(description.split()) or describe(kind, target, None, value),
            target=target,
            value=value,
            param=self.column_of(step, value),
            template=self.template_of(step, value),
        )

    def column_of(self, step: ScenarioStep, value: str | None) -> str | None:
        """The data column a value came from: a placeholder of this step whose row value it is."""
        if not value:
            return None
        used = PLACEHOLDER.findall(step.action + " " + (step.expected or ""))
        return next((column for column in used if self.row.get(column) == value), None)

    def template_of(self, step: ScenarioStep, value: str | None) -> str | None:
        """The step's quoted wording of a value that a placeholder is part of ("... your query: <query>"), when
        that wording with the row's values put in is the value."""
        if not value:
            return None
        for quoted in re.findall(r'"([^"]*)"', step.action + " " + (step.expected or "")):
            if PLACEHOLDER.fullmatch(quoted) or not PLACEHOLDER.search(quoted):
                continue
            if PLACEHOLDER.sub(lambda m: self.row.get(m[1], m[0]), quoted) == value:
                return quoted
        return None


def describe_operation(op: Operation) -> str:
    where = "start" if op.step_index < 0 else f"step {op.step_index + 1}"
    if not op.ok:
        return f"#{op.index} ({where}) {op.description}: FAILED: {op.error}"
    change = op.observation.summary if op.observation and op.observation.summary else "done"
    return f"#{op.index} ({where}) {op.description}: {change}"


def operable_elements(snapshot: PageSnapshot) -> list[str]:
    """One short line per operable element: '<input type=text> Last name', '<button> Add Owner'."""
    out: list[str] = []
    for node in snapshot.nodes:
        if not node.operable:
            continue
        kind = f"<{node.tag}{' type=' + node.input_type if node.input_type and node.tag == 'input' else ''}>"
        name = " ".join((node.label or node.aria_label or node.a11y_name or node.text or node.placeholder or node.title
                         or node.name_attr or "").split())[:80]
        extra = f" options: {', '.join(node.options[:10])}" if node.options else ""
        value = f" value: {node.value!r}" if node.value and node.tag in ("input", "textarea") else ""
        out.append(f"{kind} {name}{value}{extra}".strip())
        if len(out) >= MAX_LISTED_ELEMENTS:
            break
    return out
