"""A step writer backed by a model: groups a scenario's operations into steps, words them, names the parameters.

The model is shown the scenario (title and sentences), its numbered kept operations (kind, what it does, the
element's name, the value, the data column and builtin parameter if any), the parameters, the steps already known
for the application (this run's, then the registry's) so that it keeps their wording, and the builtin rules'
proposal as a starting point. It answers one JSON object (SCHEMA, strict-compatible):

    {"steps": [{"operations": [1, 2], "text": "Search for the owner \\"<ownerLastName>\\""}, ...],
     "parameters": [{"current": "lastName", "name": "ownerLastName"}, ...]}

steps.py checks the answer and keeps the builtin result when anything is off; a failed call (endpoint down, a
reply that never matches the schema) is a fallback for that scenario, a spent budget for the rest of the build.
The calls are accounted under the phase "abstraction".
"""

from __future__ import annotations

import json
from typing import Any

from workers.agent.model.client import ModelClient
from workers.agent.model.errors import BudgetExhausted, ModelError
from workers.agent.scripting.expressions import readable_pattern
from workers.agent.scripting.writer import (
    MAX_STEP_OPERATIONS,
    OperationBrief,
    Proposal,
    ProposedStep,
    WriterError,
    WritingRequest,
)

PHASE = "abstraction"
SCHEMA_NAME = "step_writing"
MAX_KNOWN_STEPS = 120  # existing steps listed in a prompt (this run's first)
_MAX_VALUE = 120  # characters of a value shown in a prompt

SYSTEM = (
    "You are a test engineer who turns the recorded operations of an end-to-end test into the steps of a "
    "cucumber Scenario Outline. You group the operations into steps a tester would write, word each step in the "
    "language of the application as a person reads it on the page, and name the Examples columns. You keep the "
    "wording of the steps that already exist, so that the whole suite reads as one."
)

RULES = f"""Rules:
- Every operation goes into exactly one step. Steps take consecutive operations, in order: together they take
  operations 1 to the last, each once.
- A step takes at most {MAX_STEP_OPERATIONS} operations. Assertions never share a step with actions (assertion
  steps become Then steps, the others When steps).
- A step marked KEEP is an existing step: keep its operations grouped exactly so; its text stays as it is.
- The same operations grouped again later must be grouped the same way.
- Write each step's text without a Gherkin keyword (no Given/When/Then/And), in the words of the page (labels,
  button texts, headings), never CSS selectors, ids or XPath.
- Every operation that has a parameter gets exactly one placeholder "<name>" (with the double quotes around it)
  in its step's text, using the parameter's name as you name it; an operation without a parameter gets none.
  Values without a parameter (a button's name, a path, a key) are written in the text as they are.
- Prefer the wording of the existing steps for similar operations, but never give other operations the text of
  an existing step (or a text that one of them would also match): one text must mean one thing.
- Parameter names are identifiers (letters, digits, underscore; camelCase), all different. Data columns keep
  their names; rename a generated parameter when another name says better what the value is.
- List every parameter in "parameters", renamed or not ("name" equal to "current" keeps it).
Reply with only the JSON object: {{"steps": [{{"operations": [...], "text": "..."}}], "parameters": [{{"current":
"...", "name": "..."}}]}}."""

_STRING = {"type": "string"}
SCHEMA: dict[str, Any] = {
    "type": "object",
    "additionalProperties": False,
    "required": ["steps", "parameters"],
    "properties": {
        "steps": {
            "type": "array",
            "items": {
                "type": "object",
                "additionalProperties": False,
                "required": ["operations", "text"],
                "properties": {"operations": {"type": "array", "items": {"type": "integer"}}, "text": _STRING},
            },
        },
        "parameters": {
            "type": "array",
            "items": {
                "type": "object",
                "additionalProperties": False,
                "required": ["current", "name"],
                "properties": {"current": _STRING, "name": _STRING},
            },
        },
    },
}


class ModelStepWriter:
    """`StepWriter` (see writer.py) asking a model, one call per scenario.

    A job writes its suite several times (after each round of replays, then the final suite): the
    same request, word for word, is answered from memory instead of a second call.
    """

    name = "model"

    def __init__(self, client: ModelClient, max_known_steps: int = MAX_KNOWN_STEPS) -> None:
        self.client = client
        self.max_known_steps = max_known_steps
        self._answers: dict[str, dict[str, Any]] = {}

    def propose(self, request: WritingRequest) -> Proposal:
        text = prompt(request, self.max_known_steps)
        answer = self._answers.get(text)
        if answer is None:
            try:
                answer = self.client.ask_json(PHASE, SYSTEM, text, schema=SCHEMA, schema_name=SCHEMA_NAME)
            except BudgetExhausted as error:
                raise WriterError(f"model budget exhausted: {error}", stop=True) from None
            except ModelError as error:
                raise WriterError(f"model call failed: {error}") from None
            self._answers[text] = answer
        return proposal_from(answer)


def proposal_from(answer: dict[str, Any]) -> Proposal:
    """The model's JSON answer (already checked against SCHEMA) as a Proposal."""
    try:
        steps = []
        for step in answer["steps"]:
            numbers = step["operations"]
            if not all(isinstance(n, int) and not isinstance(n, bool) for n in numbers):
                raise TypeError("operation numbers must be integers")
            steps.append(ProposedStep(operations=tuple(numbers), text=str(step["text"])))
        parameters = tuple((str(p["current"]), str(p["name"])) for p in answer["parameters"])
    except (KeyError, TypeError) as error:
        raise WriterError(f"model reply unusable: {type(error).__name__}: {error}") from None
    return Proposal(steps=tuple(steps), parameters=parameters)


# --- the prompt ---------------------------------------------------------------------------------------------------


def _quoted(value: str) -> str:
    value = " ".join(value.split())
    if len(value) > _MAX_VALUE:
        value = value[: _MAX_VALUE - 1] + "…"
    return json.dumps(value, ensure_ascii=False)


def _operation_line(op: OperationBrief) -> str:
    parts = [f"{op.number}. [sentence {op.sentence}] {op.kind}{' (assertion)' if op.assertion else ''}: "
             f"{op.description}"]
    if op.target:
        parts.append(f"target {_quoted(op.target)}")
    if op.value is not None:
        parts.append(f"value {_quoted(op.value)}")
    if op.column:
        parts.append(f"data column {op.column}")
    parts.append(f"parameter <{op.parameter}>" if op.parameter else "no parameter")
    return "; ".join(parts)


def _numbers(numbers: tuple[int, ...]) -> str:
    if len(numbers) == 1:
        return f"operation {numbers[0]}"
    return f"operations {numbers[0]}-{numbers[-1]}"


def prompt(request: WritingRequest, max_known_steps: int = MAX_KNOWN_STEPS) -> str:
    scenario = request.scenario
    lines = [f"Scenario: {' '.join(scenario.title.split())}", "", "Sentences:"]
    for number, sentence in enumerate(scenario.steps, start=1):
        expected = f" (expected: {sentence.expected})" if sentence.expected else ""
        lines.append(f"{number}. {sentence.action}{expected}")
    lines += ["", "Operations:"]
    lines += [_operation_line(op) for op in request.operations]
    lines += ["", "Parameters (Examples columns, with the first row's value):"]
    if not request.parameters:
        lines.append("(none)")
    for parameter in request.parameters:
        kind = "data column: keeps its name" if parameter.column else "generated: may be renamed"
        lines.append(f"- {parameter.name} = {_quoted(parameter.value)} ({kind})")
    lines += ["", "Existing steps ({string} marks an argument; keep their wording, never give their text to "
              "other operations):"]
    known = request.known_steps[:max_known_steps]
    if not known:
        lines.append("(none yet)")
    for step in known:
        lines.append(f"- {step.keyword} {readable_pattern(step.pattern)}")
    if len(request.known_steps) > len(known):
        lines.append(f"(and {len(request.known_steps) - len(known)} more)")
    lines += ["", "The builtin rules' proposal (a starting point: improve it, or give it back as it is):"]
    assertions = {op.number for op in request.operations if op.assertion}
    for index, step in enumerate(request.builtin.steps):
        keyword = "Then" if step.operations[0] in assertions else "When"
        keep = " KEEP (an existing step)" if index in request.fixed else ""
        lines.append(f"step {index + 1} ({keyword}): {_numbers(step.operations)}{keep}: {step.text}")
    renames = ", ".join(f"{old} -> {new}" for old, new in request.builtin.parameters) or "(none)"
    lines += [f"parameters: {renames}", "", RULES]
    return "\n".join(lines)
