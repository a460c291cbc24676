"""One test case of a test-management system, read by its format's module, into a stepforge scenario.

Every format gives the same plain data (`Case`): its key, title, folder, preconditions, and either steps (action,
test data, expected result) or one text of steps with its expected result; parameterised cases also their data
rows. `scenario_of` maps it, or raises CaseError naming the field that cannot be mapped."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from pydantic import ValidationError

from shared.importers.text import plain_text
from shared.scenarios import Scenario, split_sentences


class CaseError(ValueError):
    """A case that cannot become a scenario; the message names the field."""


@dataclass
class CaseStep:
    action: str
    data: str = ""
    expected: str = ""


@dataclass
class Case:
    key: str  # the case's id or key in its system: C123, CALC-12, SA-T10
    title: str
    where: str  # where the case is in its file, for messages: "line 14", "cases[3]"
    feature: str | None = None  # its section, folder or component
    preconditions: str = ""
    steps: list[CaseStep] = field(default_factory=list)
    text: str = ""  # steps as one text (TestRail's "Steps" field), when the case has no separated steps
    text_expected: str = ""
    data: list[dict[str, str]] = field(default_factory=list)  # a parameterised case's rows
    unsupported: str | None = None  # why a case of its kind has no steps to import (a BDD or automated test)
    parameters: str | None = None  # how its system writes a parameter in a step: "{name}", "${name}" (PARAMETERS)


@dataclass
class Mapped:
    scenario: Scenario
    notes: list[str]  # what the mapping left out, said to the user (a precondition that is a state)


# A step says what to do: it starts with a verb in the imperative. A precondition that does ("Log in as admin") is
# a first step; one that states a fact ("An owner named Davis exists") is not something to do, and is reported.
_IMPERATIVES = {
    "accept", "add", "browse", "check", "choose", "clear", "click", "close", "confirm", "create", "delete", "dismiss",
    "double-click", "drag", "edit", "enter", "fill", "go", "hover", "input", "launch", "load", "log", "login",
    "navigate", "open", "pick", "press", "register", "reload", "remove", "right-click", "scroll", "search", "select",
    "set", "sign", "start", "submit", "switch", "tap", "toggle", "type", "uncheck", "upload", "visit", "wait",
}
_KEY_VALUE = re.compile(r"^\s*([^:=\n]{1,60}?)\s*[:=]\s*(.+?)\s*$")
_NAMES_THE_DATA = re.compile(r"\b(?:the\s+)?(?:given\s+|test\s+)?data\b|\{data\}|<data>|\$\{data\}", re.I)
# "in", "on" and "up" end phrasal verbs as often ("Log in", "Sign up"): the data does not follow them unannounced.
_ENDS_WITH_PREPOSITION = re.compile(r"\b(?:as|for|into|to|with|from|by)$", re.I)
# A parameter in a step, as its system writes it (Zephyr Scale's {name}, Xray's ${name}); stepforge writes <name>.
# A doubled brace ({{name}}) is wiki monospace, not a parameter.
PARAMETERS = {"{name}": re.compile(r"(?<![${])\{([A-Za-z_][A-Za-z0-9_]*)\}(?!\})"),
              "${name}": re.compile(r"\$\{([A-Za-z_][A-Za-z0-9_]*)\}")}


_NUMBERED = re.compile(r"^\s*(\d+)[.)]\s+", re.M)


def numbered(text: str, *, from_one: bool = True) -> dict[int, str] | None:
    """A cell holding a case's separated steps in one ("1. Open the page\n2. Search"): the steps by number; None
    when it does not start with a number (with "1." when from_one: the steps; expected results may skip some)."""
    marks = list(_NUMBERED.finditer(text))
    if not marks or text[:marks[0].start()].strip() or (from_one and marks[0].group(1) != "1"):
        return None
    items = {}
    for mark, following in zip(marks, [*marks[1:], None], strict=True):
        number = int(mark.group(1))
        if number in items:
            raise ValueError(f"two items are numbered {number}")
        items[number] = text[mark.end():following.start() if following else len(text)].strip()
    return items



def section_path(path: str | None, separator: str) -> str | None:
    """A section or folder path as a feature's name, every part kept ("/Owners/Search" -> "Owners > Search"), so
    that two sections of one name in different places ("Owners > Search", "Vets > Search") stay two features."""
    parts = [" ".join(part.split()) for part in (path or "").split(separator) if part.strip()]
    return " > ".join(parts) or None


def is_action(sentence: str) -> bool:
    words = sentence.strip().split(maxsplit=1)
    return bool(words) and words[0].lower().strip(",.:;") in _IMPERATIVES


def _quoted(value: str) -> str:
    value = " ".join(value.split())
    return value if len(value) > 1 and value[0] == value[-1] == '"' else f'"{value}"'


def with_data(action: str, data: str) -> str:
    """The action with its test data where it names it ("Enter the test data" -> 'Enter "Franklin"'); key: value
    lines as the form's values ('Fill in the form with "Jane" as First Name and "Doe" as Last Name'); else after
    it."""
    data = data.strip()
    if not data:
        return action
    lines = [line for line in data.split("\n") if line.strip()]
    pairs = [_KEY_VALUE.match(line) for line in lines]
    if all(pairs) and not _NAMES_THE_DATA.search(action):
        values = [f"{_quoted(m.group(2))} as {m.group(1)}" for m in pairs if m]
        listed = values[0] if len(values) == 1 else ", ".join(values[:-1]) + " and " + values[-1]
        return f"{action.rstrip('.')} with {listed}"
    value = _quoted(", ".join(line.strip() for line in lines))
    if _NAMES_THE_DATA.search(action):
        return _NAMES_THE_DATA.sub(lambda m: value, action, count=1)
    action = action.rstrip(".:")
    return f"{action} {value}" if _ENDS_WITH_PREPOSITION.search(action) else f"{action} with {value}"


def _plain(case: Case, value: str | None) -> str:
    """A cell's plain text, the case's parameters ({code}, ${color}) kept as written whatever markup is around."""
    return plain_text(value, PARAMETERS.get(case.parameters or ""))


def _placeholders(case: Case, text: str) -> str:
    pattern = PARAMETERS.get(case.parameters or "")
    return pattern.sub(lambda m: f"<{m.group(1)}>", text) if pattern else text


def _parameter_names(case: Case) -> set[str]:
    pattern = PARAMETERS.get(case.parameters or "")
    texts = [case.text, case.text_expected] + [f"{s.action} {s.data} {s.expected}" for s in case.steps]
    return {name for text in texts for name in pattern.findall(text or "")} if pattern else set()


def _text_steps(case: Case) -> list[dict[str, str | None]]:
    """The steps of a Steps text, a sentence each; expected results numbered as the steps are ("1. ... 2. ...")
    go to the steps of their numbers, an unnumbered expected text to the last step. The numbers are read before
    the markup is made plain (a markdown list would lose them)."""
    raw, raw_expected = (v.replace("\r\n", "\n").replace("\r", "\n") for v in (case.text, case.text_expected))
    try:
        items = numbered(raw)
        results = numbered(raw_expected, from_one=False) if items and raw_expected.strip() else None
    except ValueError as error:
        raise CaseError(f"its Steps cannot be read: {error}") from None
    if items:
        items = {number: _plain(case, item) for number, item in items.items()}
    else:
        lines = (re.sub(r"^\s*(?:\d+[.)]|[-*•])\s+", "", line) for line in _plain(case, raw).split("\n"))
        items = {1: "\n".join(lines)}
    expected = _plain(case, raw_expected)
    if results:
        results = {number: _plain(case, result) for number, result in results.items()}
    else:
        results = {max(items): expected} if expected else {}
    extra = sorted(set(results) - set(items))
    if extra:
        raise CaseError(f"an expected result is numbered {extra[0]}, but no step is")
    steps: list[dict[str, str | None]] = []
    for number in sorted(items):
        sentences = [{"action": _placeholders(case, s), "expected": None} for s in split_sentences(items[number])]
        if results.get(number) and not sentences:
            raise CaseError(f"expected result {number} belongs to step {number}, which has no text")
        if sentences and results.get(number):
            sentences[-1]["expected"] = _placeholders(case, results[number])
        steps.extend(sentences)
    return steps


def _place(loc: tuple) -> str:
    """Where in the scenario a value is refused, as a tester counts: ("steps", 0, "action") -> "step 1's action"."""
    parts = list(loc)
    if len(parts) >= 2 and parts[0] in ("steps", "data") and isinstance(parts[1], int):
        head = f"{'step' if parts[0] == 'steps' else 'data row'} {parts[1] + 1}"
        return head + (f"'s {'.'.join(str(p) for p in parts[2:])}" if parts[2:] else "")
    return ".".join(str(part) for part in parts) or "case"


def scenario_of(case: Case) -> Mapped:
    if case.unsupported:
        raise CaseError(case.unsupported)
    notes: list[str] = []
    steps: list[dict[str, str | None]] = []
    preconditions = _plain(case, case.preconditions)
    for line in filter(None, (line.strip() for line in preconditions.split("\n"))):
        if is_action(line):
            steps.append({"action": line})
        else:
            notes.append(f"{case.key} ({case.where}): precondition {line!r} states a fact, not an action, and was "
                         "left out: write the steps that reach it, or reset the application to it")
    for number, step in enumerate(case.steps, start=1):
        action = _plain(case, step.action)
        expected = _plain(case, step.expected)
        if not action and expected:  # an expected result alone is a check of its own
            action, expected = f"Verify {expected}", ""
        if not action:
            if _plain(case, step.data):
                raise CaseError(f"step {number} has test data but no action")
            continue  # an empty row of the steps table
        steps.append({"action": _placeholders(case, with_data(action, _plain(case, step.data))),
                      "expected": _placeholders(case, expected) or None})
    text = _plain(case, case.text)
    if text:
        steps.extend(_text_steps(case))
    if not case.steps and not text:
        raise CaseError("has no steps (neither separated steps nor a Steps text)")
    if not steps:
        raise CaseError("has no steps with an action")
    columns = set(case.data[0]) if case.data else set()
    for number, step in enumerate(steps, start=1):
        text = f"{step['action']} {step.get('expected') or ''}"
        unknown = sorted(set(re.findall(r"<([A-Za-z_][A-Za-z0-9_]*)>", text)) & _parameter_names(case) - columns)
        if unknown:
            raise CaseError(f"step {number} uses the parameter {unknown[0]} but the case has no data rows for it")
    try:
        scenario = Scenario.model_validate({
            "id": case.key, "title": _plain(case, case.title) or case.key, "feature": case.feature or None,
            "steps": steps, "data": case.data,
        })
    except ValidationError as exc:
        first = exc.errors()[0]
        raise CaseError(f"{_place(first['loc'])}: {first['msg']}") from None
    return Mapped(scenario, notes)
