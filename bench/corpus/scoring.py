"""Scoring the corpus: verdicts against what each scenario must end as, the seed's metrics, readable steps.

The seed (are-autonomous-web-agents-good-testers, section 4) counts a failing test as a positive: TP a failing
variant that failed, TN a passing scenario that passed, FP a passing scenario that failed, FN a failing variant
that passed. A TP failed before its step (AFB), after it (AFA) or at it (AFC).
"""

from __future__ import annotations

import math
import re
from dataclasses import asdict, dataclass, field

from shared.records import Operation
from shared.scenarios import PLACEHOLDER, Scenario
from shared.volatile import locator_texts, unsaid_volatile
from workers.agent.language.phrases import Sentence


@dataclass(frozen=True)
class Expectation:
    app: str
    half: str
    fails_at: int | None  # None: the scenario must pass
    variant_of: str | None = None
    # 1-based step -> the name of the element its action must be done on (a scenario file's optional `target:`)
    targets: dict[int, str] = field(default_factory=dict)


@dataclass
class Result:
    expectation: Expectation
    scenario_id: str
    status: str  # passed | failed
    step: int | None
    kind: str | None
    reason: str
    replay_green: bool | None  # None: not generated, so not replayed
    replay_error: str | None = None
    readability: list[str] = field(default_factory=list)
    seconds: float = 0.0
    partial: list[str] = field(default_factory=list)  # steps done with words of their sentence unused
    wrong_actions: list[str] = field(default_factory=list)  # steps done on another element than their `target:`
    volatile: list[str] = field(default_factory=list)  # dates, times, counts the tester did not write, in the suite

    @property
    def unreadable(self) -> bool:
        """It stopped on a sentence the reader refused (or read only in part)."""
        return self.status == "failed" and self.kind == "unsupported"

    def caught_by_its_claim(self) -> bool:
        """A failing variant that failed at its step because what it checks or does did not hold there: a refusal,
        a place not found or an environment error is wrong either way and never counts as caught."""
        return self.must_fail and self.status == "failed" and self.step == self.expectation.fails_at \
            and self.kind in ("action", "expectation") and not PLACE_NOT_FOUND.search(self.reason or "")

    @property
    def must_fail(self) -> bool:
        return self.expectation.fails_at is not None

    def right(self) -> bool:
        """The verdict the scenario file asks for (a failing variant at its own step)."""
        if self.must_fail:
            return self.status == "failed" and self.step == self.expectation.fails_at
        return self.status == "passed"

    def explain(self) -> str:
        if self.must_fail and self.status == "passed":
            return f"must fail at step {self.expectation.fails_at}, but passed"
        if self.must_fail:
            return (f"must fail at step {self.expectation.fails_at}, failed at step {self.step} ({self.kind}): "
                    f"{one_line(self.reason)}")
        return f"must pass, failed at step {self.step} ({self.kind}): {one_line(self.reason)}"

    def as_dict(self) -> dict:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict) -> Result:
        expectation = dict(data["expectation"])
        expectation["targets"] = {int(k): v for k, v in (expectation.get("targets") or {}).items()}
        return cls(**{**data, "expectation": Expectation(**expectation)})


def interval(hits: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% (Wilson score) interval of a proportion: one verdict of 30 is 0.033, and the interval says how far
    a figure of a few dozen scenarios may be from the truth."""
    if not n:
        return (0.0, 0.0)
    p = hits / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (round(max(0.0, centre - half), 2), round(min(1.0, centre + half), 2))


def _fold(text: str | None) -> str:
    return " ".join((text or "").split()).lower()


def _words(text: str | None) -> str:
    """The words of a name, lower case: "Summary:" and "summary" are one name, "Save draft" is not "Save"."""
    return " ".join(re.findall(r"\w+", (text or "").lower()))


def wrong_actions(targets: dict[int, str], operations: list) -> list[str]:
    """Steps with a `target:` none of whose actions (operations done, not checks) was done on an element one of whose
    names is the target's words: the step's action recorded as done on another element than the one the tester named.
    A step of several actions ('Tick A and press Update') is right when one of them was done on its target; an element
    with no name cannot be told from another by it, so a step whose actions all lack one is not judged; nor is a step
    that stopped on a failed action (a failing variant's missing button: what was not done was done on nothing)."""
    out = []
    for step, wanted in sorted(targets.items()):
        doing = [op for op in operations if op.step_index == step - 1 and not op.kind.startswith(("assert", "wait"))]
        if doing and not doing[-1].ok:  # the step stopped on a failed action: what was not done was done on nothing
            continue
        others: list[str] = []
        on_target = False
        for op in operations:
            if op.step_index != step - 1 or not op.ok or op.kind.startswith(("assert", "wait")):
                continue
            names = _names(op)
            said = set(_words(op.said or op.description).split())  # the words naming the target, not its place
            if any(_words(wanted) == name or _holds(name, _words(wanted)) and set(name.split()) <= said
                   for name in names) or _option_said(op, wanted):
                # (a name holding the target's words and only words the step named it by: "Milestone: 1.1 Beta" for
                # "the 1.1 Beta milestone")
                on_target = True
            elif names:
                others.append(f"step {step}: {op.description!r} was done on {names[0]!r}, not on {wanted!r}")
        if others and not on_target:
            out.append(others[0])
    return out


_CHOICES = frozenset({"select", "choose", "pick"})  # operations that choose an option, named by it too


def _option_said(op, wanted: str) -> bool:
    """A choice of the option the target names, as the step said it, whatever its value attribute: 'Delete selected
    Blog posts' chosen as "delete_selected"."""
    if op.kind not in _CHOICES or not op.value or not _holds(_words(op.description), _words(wanted)):
        return False
    value, said = re.findall(r"[^\W_]+", op.value.lower()), re.findall(r"[^\W_]+", wanted.lower())
    shorter, longer = sorted((value, said), key=len)
    return bool(shorter) and any(longer[i:i + len(shorter)] == shorter for i in range(len(longer) - len(shorter) + 1))


def _holds(words: str, wanted: str) -> bool:
    return re.search(rf"(?<!\w){re.escape(wanted)}(?!\w)", words) is not None


def _names(op) -> list[str]:
    """The names of the element an operation was done on: its own words, the words its line goes on with ('resolve
    as' of a radio labelled 'resolve'); a choice also by the option it chose."""
    node = op.target
    names = [] if node is None else [_words(t) for t in (
        node.a11y_name, node.text, node.label, node.aria_label, node.title, node.placeholder, node.value, node.line)
        if t and _words(t)]
    # a field's label with a hint after its colon ('Description: You may use WikiFormatting here.') names it by its
    # first words (never a text such as "Status: Closed", which is what the element shows)
    heads = [] if node is None else [_words(t.split(":")[0]) for t in (node.label, node.aria_label) if t and ":" in t]
    names += [head for head in heads if head]
    if op.kind in _CHOICES and op.value:
        names.append(_words(op.value))
    return names


PLACE_NOT_FOUND = re.compile(r"""\bplace (?:'[^']*'|"[^"]*") not found""")  # workers/agent/grounding/places.py


def one_line(text: str, limit: int = 220) -> str:
    text = " ".join((text or "").split())
    return text if len(text) <= limit else text[: limit - 3] + "..."


def ratio(a: int, b: int) -> float:
    return round(a / b, 3) if b else 0.0


def metrics(results: list[Result]) -> dict:
    tp = [r for r in results if r.must_fail and r.status == "failed"]
    tn = sum(1 for r in results if not r.must_fail and r.status == "passed")
    fp = sum(1 for r in results if not r.must_fail and r.status != "passed")
    fn = sum(1 for r in results if r.must_fail and r.status == "passed")
    afb = sum(1 for r in tp if r.step is not None and r.step < r.expectation.fails_at)  # type: ignore[operator]
    afa = sum(1 for r in tp if r.step is None or r.step > r.expectation.fails_at)  # type: ignore[operator]
    afc = len(tp) - afb - afa
    n = len(results)
    generated = [r for r in results if r.replay_green is not None]
    variants = sum(1 for r in results if r.must_fail)
    return {
        "n": n, "tp": len(tp), "tn": tn, "fp": fp, "fn": fn, "afb": afb, "afa": afa, "afc": afc,
        "verdicts_right": ratio(len(tp) + tn, n),
        "variants_at_step": f"{afc}/{variants}",
        "replay_green": f"{sum(1 for r in generated if r.replay_green)}/{len(generated)}",
        "accuracy": ratio(len(tp) + tn, n),
        "specificity": ratio(tn, tn + fp),
        "sensitivity": ratio(len(tp), len(tp) + fn),
        "aer": ratio(afb, len(tp)),
        "her": ratio(afa, len(tp)),
        "smer": ratio(afb + afa, len(tp)),
        "true_accuracy": ratio(afc + tn, n),
        "readability_issues": sum(len(r.readability) for r in results),
        "volatile_anchors": sum(len(r.volatile) for r in results),
        "verdicts_right_95": interval(len(tp) + tn, n),
        "true_accuracy_95": interval(afc + tn, n),
        "sensitivity_95": interval(len(tp), len(tp) + fn),
        "partial_readings": sum(len(r.partial) for r in results),
        "wrong_actions": sum(len(r.wrong_actions) for r in results),
        "unreadable": sum(1 for r in results if r.unreadable),
        "caught_by_claim": f"{sum(1 for r in results if r.caught_by_its_claim())}/{variants}",
    }


_STEP_LINE = re.compile(r"^\s*(?:Given|When|Then|And|But)\s+(.*)$")
_NUMBER = re.compile(r"\d+(?:[.,]\d+)*")


def scenario_block(features: str, scenario_id: str) -> str:
    """The lines of one scenario (from its @id tag line to the next tag line or the file's end)."""
    lines = features.splitlines()
    tag = f"@{scenario_id}"
    out: list[str] = []
    inside = False
    for line in lines:
        stripped = line.strip()
        if stripped.startswith("@"):
            inside = tag in stripped.split()
            continue
        if stripped.startswith("Feature:") or stripped.startswith("Background:"):
            inside = False
        if inside:
            out.append(line)
    return "\n".join(out)


def _rendered(text: str, scenario: Scenario) -> list[str]:
    """The text with each data row's values in its <placeholders> (itself when it has none or there is no data)."""
    if not PLACEHOLDER.search(text) or not scenario.data:
        return [text]
    rows = [{key.lower(): value for key, value in row.items()} for row in scenario.data]
    return [PLACEHOLDER.sub(lambda m, row=row: row.get(m[1].lower(), m[0]), text) for row in rows]


def _tester_text(scenario: Scenario) -> str:
    """All the tester wrote: title, start, steps (also as each data row renders them) and data values."""
    steps = [s.action + " " + (s.expected or "") for s in scenario.steps]
    return " ".join([scenario.title, scenario.start, *steps, *(r for s in steps for r in _rendered(s, scenario))]
                    + [v for row in scenario.data for v in row.values()])


def volatile_anchors(scenario: Scenario, features: str, operations: list[Operation]) -> list[str]:
    """The tomorrow check: each date, time, relative time, counter or generated id (shared.volatile) that a passed
    scenario's written steps, Examples values or locators hold and its tester's sentences do not name. The
    application's seed data made today reads otherwise tomorrow; a browser clock moved ahead would not show it,
    the text does."""
    # and the values generation typed of its own (a date a form needed): they read the same every day
    tester = " ".join([_tester_text(scenario), *(op.value for op in operations
                                                 if op.kind in ("fill", "type", "select") and op.value)])
    problems = []
    for line in scenario_block(features, scenario.id).splitlines():
        for kind, run in unsaid_volatile(line.strip(), tester):
            problems.append(f'{kind} "{run}" the tester did not write: {line.strip()}')
    for op in operations:
        if not op.ok or op.redundant or op.locator is None or op.kind == "goto":
            continue
        for text in locator_texts(op.locator):
            for kind, run in unsaid_volatile(text, tester):
                problems.append(f'{kind} "{run}" in the locator of step {op.step_index + 1}: {text}')
    return problems


def readability(scenario: Scenario, features: str) -> list[str]:
    """What in a passed scenario's written steps does not read as the tester wrote it: a step cut with an
    ellipsis, a number in a step that the tester never wrote (a count or state caught from the page), a quoted
    text of the tester's that the feature does not hold."""
    block = scenario_block(features, scenario.id)
    if not block:
        return ["the scenario is not in the written features"]
    tester = _tester_text(scenario)
    tester_numbers = set(_NUMBER.findall(tester))
    problems = []
    steps = [m.group(1) for line in block.splitlines() if (m := _STEP_LINE.match(line))]
    for text in steps:
        if "…" in text or text.rstrip().endswith("..."):
            problems.append(f"cut step: {text}")
        alien = [n for n in _NUMBER.findall(re.sub(r"<[^>]+>", "", text)) if n not in tester_numbers]
        if alien:
            problems.append(f"number {alien[0]} the tester did not write: {text}")
    # a quote in an Examples cell is escaped twice (the cell's own escape, then the step string's)
    folded = " ".join(block.split()).lower().replace('\\\\"', '"').replace('\\"', '"')
    written = [scenario.title] + [t for s in scenario.steps for t in (s.action, s.expected or "")]
    for said in sorted({t for text in written for t in Sentence(text).tokens}):  # read as the product reads quotes
        quoted = " ".join(said.split()).lower()
        # a quoted text with a <placeholder> is in the feature as it is, or as each data row renders it
        if quoted and quoted not in folded and not all(r.lower() in folded for r in _rendered(quoted, scenario)):
            problems.append(f'the tester\'s "{quoted}" is not in the feature')
    return problems
