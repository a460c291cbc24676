"""Plain, serialisable data that flows between the agent's phases.

Every phase reads and writes these models only, so any phase can be re-run
from a saved run record without a browser.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field, StrictInt, field_validator

# The name of an action kind ("click", "fill", "assert_text", ...). What each kind means, how it runs and how it
# is written lives in one module per kind: workers/agent/actions/kinds/<name>.py.
ActionKind = str


# --- the page, as the grounding phase sees it ---------------------------------


class Node(BaseModel):
    """One visible element of the page (main document, same-origin frames, open shadow roots)."""

    id: int
    parent: int | None = None
    children: list[int] = Field(default_factory=list)
    tag: str
    role: str | None = None  # explicit or implicit ARIA role
    operable: bool = False  # can be clicked, typed into, selected, checked
    text: str = ""  # visible inner text, whitespace-collapsed, at most 200 chars
    label: str | None = None  # <label for>, wrapping <label>, aria-labelledby
    aria_label: str | None = None
    placeholder: str | None = None
    title: str | None = None
    name_attr: str | None = None
    id_attr: str | None = None
    testid: str | None = None  # data-testid
    value: str | None = None  # current value of a form control
    input_type: str | None = None  # type attribute of <input>, "select", "textarea"
    options: list[str] = Field(default_factory=list)  # <select> option labels
    checked: bool | None = None
    required: bool = False
    pattern: str | None = None
    minlength: int | None = None
    maxlength: int | None = None
    min: str | None = None
    max: str | None = None
    icon: str | None = None  # an icon-only control nothing else names: its icon's class words ("trash")
    # words of its class and id attributes, for a part a person describes by what it looks like ("the progress bar":
    # class "progress"): never a name a step says, only where a place is
    class_words: str | None = None
    # the same words of a control (a link, a button, a field): only to see what a step says it is ("the tag chip":
    # class "tag-chip", grounding/what_it_is.py), never where a place is nor a name
    own_class_words: str | None = None
    # Chromium's accessible name, asked for when only a picture names the element (SVG <title>, image alt)
    a11y_name: str | None = None
    # A radio or checkbox whose label goes on in the words after it on its line: "resolve as" ("(o) resolve as [v]")
    line: str | None = None
    # A control nothing names, under the title its own box starts with ("Available categories" over a list)
    box_title: str | None = None
    typeahead: bool = False  # a text field that reacts to keys (key listeners, combobox, autocomplete)
    focused: bool = False  # it has the keyboard focus (a cell a click turned into a field)
    # A text marked as the one chosen, or held by one (the active tab, the current menu entry: ARIA or a class)
    selected: bool = False
    # What its look alone says it is, in the accessibility tree's words: "heading" for a short text set much larger
    # than the page's text with no heading role (dom.js `looksLikeHeading`); never a role a locator may ask for
    looks: list[str] = Field(default_factory=list)
    form: int | None = None  # node id of the enclosing <form>
    # The enclosing form's own title (its name, legend or heading, or a heading just before it); "" for a form
    # without one; None: not in a form, or read before forms had titles (the context's heading is used then).
    form_title: str | None = None
    context: str | None = None  # nearest heading / legend / caption / row and column headers
    frame: list[str] = Field(default_factory=list)  # CSS selectors of the iframes, outermost first
    shadow: bool = False  # lives inside an open shadow root
    xpath: str = ""  # absolute XPath within its own document
    bbox: tuple[float, float, float, float] = (0.0, 0.0, 0.0, 0.0)  # x, y, width, height


class PageSnapshot(BaseModel):
    url: str
    title: str
    nodes: list[Node]
    root: int = 0
    # Element count, visible text length and text hash when the snapshot was taken (to see what changed).
    state: tuple[int, int, int] | None = None
    # How many changes the page had made when it was read (settle.js's mark); None when it was not counting.
    change_mark: int | None = None

    def node(self, node_id: int) -> Node:
        return self.nodes[node_id]


# --- next action ----------------------------------------------------------------


class Intent(BaseModel):
    """An operation in words, decided by a brain, before grounding."""

    kind: ActionKind
    description: str  # "Type Franklin into the last name field"
    target: str | None = None  # phrase naming the element: "last name field"
    role_hint: str | None = None  # button, link, field, dropdown, checkbox, ...
    value: str | None = None  # typed text, option, key, URL or path, expected text
    param: str | None = None  # Examples column the value came from, if any
    # The value as the step wrote it when a placeholder is only part of it ("... your query: <query>"): each
    # Examples row's value is this with the row's values put in.
    template: str | None = None
    # Where the target is (see workers.agent.language.phrases.Place): a text of the row, list item or card holding
    # it, a heading above it, its order among the elements that fit (0-based; -1: the last).
    anchor: str | None = None
    section: str | None = None
    ordinal: int | None = None
    # "to the right of" / "at the end of" its anchor: on that side ("beside": "next to", either side, in its row or
    # line); "below" / "above": standing below or above the
    # anchor, which is then a landmark (a part named by what it is, or a text), not a container holding the target
    side: Literal["left", "right", "above", "below", "beside"] | None = None
    # "at the top right (of the sidebar)": the corner or side of its anchor, a part said by what it is, or of the top
    # of the page it stands in ("top", "bottom", "left", "right", "top left", "top right", ...)
    corner: str | None = None
    again: bool = False  # "that copy icon", "it": the element the operation before acted on, if its name fits
    # What the step said the element or text is, in words that name no kind of element ('the "Budget" file', 'the
    # chip "x"'): used when the page says so too (workers/agent/grounding/what_it_is.py)
    said_as: str | None = None


class Decision(BaseModel):
    """What a brain answers for the current scenario step."""

    intents: list[Intent] = Field(default_factory=list)
    step_done: bool = True  # False: ask again after executing these intents
    unsupported: str | None = None  # the scenario cannot go on; says why
    # The verdict's kind when it cannot go on: a sentence the brain does not handle ("unsupported"), an
    # action it found impossible ("action"), or an expected result that does not hold ("expectation").
    failure_kind: Literal["action", "expectation", "unsupported"] = "unsupported"
    # The refusal depends on the page as it was read (a form the sentence names is not there yet): a page still
    # changing may be asked about again.
    page_dependent: bool = False
    # What the brain read a sentence of the step as, claim by claim, with the characters each came from (a sentence
    # read by the claims grammar: workers/agent/reading/claims.py), keyed by the sentence as the step wrote it.
    meaning: dict[str, list[str]] = Field(default_factory=dict)


# --- grounding, execution, observation -----------------------------------------


LocatorStrategy = Literal["id", "testid", "name", "label", "role", "text", "title", "xpath", "css"]


class Within(BaseModel):
    """A repeated container (table row, list item, card) found by a text of its own: the target is looked for
    inside it. Playwright: locator(css).filter({ hasText: text })."""

    css: str  # what kind of container: "tr", "li", '[role="row"]', "div.card"
    text: str  # a text that only this container of that kind holds


class Locator(BaseModel):
    strategy: LocatorStrategy
    value: str  # selector, label, accessible name or text ("" with strategy "role": the role alone)
    role: str | None = None  # for strategy "role"
    frames: list[str] = Field(default_factory=list)  # iframe selectors, outermost first
    within: Within | None = None  # inside this container (after the frames)
    # The (nth+1)-th of the elements the locator finds: "the second Delete button". Strict: true is not 1.
    nth: StrictInt | None = None
    # False: the name is found inside a longer one, any case (the tester's "Like" in "Like (3)", a card's heading
    # in the card link's whole text), so the locator holds when a count or the rest of the text changes.
    exact: bool = True

    def selector(self) -> str | None:
        """The Playwright selector for id, name, css and xpath locators (value is a whole CSS selector or
        an XPath); None for the getBy* strategies. Python and the generated JavaScript both use this."""
        if self.strategy in ("id", "name", "css"):
            return self.value
        if self.strategy == "xpath":
            return "xpath=" + self.value
        return None


def locator_text(locator: Locator) -> str:
    """A locator in one line, as reports show it: 'label=Last name', '#owners tr:has-text('Davis') >> role[link]=Edit'."""
    frames = "".join(f"{frame} >> " for frame in locator.frames)
    within = f"{locator.within.css}:has-text({locator.within.text!r}) >> " if locator.within else ""
    role = f"[{locator.role}]" if locator.role else ""
    return f"{frames}{within}{locator.strategy}{role}{'' if locator.exact else '~'}={locator.value}"


class Candidate(BaseModel):
    node_id: int
    score: float
    path: list[int] = Field(default_factory=list)  # HTE descent: node ids from root to leaf


class Observation(BaseModel):
    url_before: str
    url_after: str
    title: str = ""
    dom_changed: bool = False
    summary: str = ""  # one line for the history: "navigated to /owners/1", "3 elements added"
    dialogs: list[str] = Field(default_factory=list)
    new_pages: list[str] = Field(default_factory=list)
    page_errors: list[str] = Field(default_factory=list)


class Operation(BaseModel):
    """One executed (or attempted) operation: the triple (target, action, value) and what happened."""

    index: int
    step_index: int  # scenario step (0-based) this operation belongs to
    kind: ActionKind
    description: str
    target: Node | None = None
    locator: Locator | None = None
    value: str | None = None
    param: str | None = None
    template: str | None = None  # see Intent.template
    said: str | None = None  # the words the step named the target by (the intent's target)
    ok: bool = True
    error: str | None = None
    redundant: bool = False  # executed fine but changed nothing worth keeping
    forced: bool = False  # a pointer action forced past a shape of the target's own widget over it (executor.pointer)
    observation: Observation | None = None
    screenshot: str | None = None  # artifact path, relative to the attempt folder
    timings_ms: dict[str, float] = Field(default_factory=dict)


# --- verdicts and the run record ------------------------------------------------


FailureKind = Literal["action", "expectation", "unsupported", "error"]


REASON_MAX = 2_000  # characters of a verdict's reason kept; a longer one (it quotes long texts) is cut


def cut_reason(reason: str, limit: int = REASON_MAX) -> str:
    """The reason, or its first characters and how long it was: a verdict stays readable and bounded whatever
    texts it quotes (a scenario step, a page's text, a runner's output)."""
    if len(reason) <= limit:
        return reason
    marker = f" ... (cut: {len(reason)} characters in all)"
    return reason[:limit - len(marker)] + marker


class Verdict(BaseModel):
    status: Literal["passed", "failed"]
    step: int | None = None  # 1-based scenario step that failed
    kind: FailureKind | None = None
    reason: str = ""

    @field_validator("reason")
    @classmethod
    def _bounded(cls, value: str) -> str:
        return cut_reason(value)

    @classmethod
    def passed(cls) -> Verdict:
        return cls(status="passed")

    @classmethod
    def failed(cls, step: int | None, kind: FailureKind, reason: str) -> Verdict:
        return cls(status="failed", step=step, kind=kind, reason=reason)


class ReplayResult(BaseModel):
    passed: bool
    failed_step: str | None = None  # Gherkin text of the failing step
    error: str | None = None
    seconds: float = 0.0
    # The failing step's locator found exactly one element, which did not become actionable in time (visible,
    # enabled, stable): the page was not ready; the locator is right.
    target_resolved: bool = False
    replays: int = 1  # how many times it was replayed in a row (a red readiness failure is replayed again)
    refused: list[str] = Field(default_factory=list)  # requests of its pages the egress guard refused
    # False: the runner never ran it to a verdict (it did not start, wrote no report, or ran past its time limit):
    # nothing is known about the scenario.
    ran: bool = True


def attempt_prefix(scenario_id: str, attempt: int) -> str:
    """Where a generation attempt's artifacts go, below a run's artifact root: run.json, screenshots, trace.zip."""
    return f"{scenario_id}/attempt-{attempt}"


class StepReading(BaseModel):
    """How one step's sentence was read: the operations done, in words, and the words of the sentence none of them
    used (the whole-sentence check, workers/agent/reading/coverage.py; empty when every word was used)."""

    step: int  # 1-based
    sentence: str
    read_as: list[str] = Field(default_factory=list)
    meaning: list[str] = Field(default_factory=list)  # its claims, when the claims grammar read it (Decision.meaning)
    unused: list[str] = Field(default_factory=list)
    check_version: int = 0


class RunRecord(BaseModel):
    """Everything one generation attempt of one scenario did."""

    scenario_id: str
    title: str
    attempt: int = 1
    base_url: str
    operations: list[Operation] = Field(default_factory=list)
    readings: list[StepReading] = Field(default_factory=list)  # the steps read whole by the brain, checked
    verdict: Verdict | None = None
    replay: ReplayResult | None = None
    # Learned from earlier attempts' red replays: operation description -> locator strategies not to use.
    avoided_locators: dict[str, list[str]] = Field(default_factory=dict)
    timings_ms: dict[str, float] = Field(default_factory=dict)
    # Requests to other hosts than the application's that did not answer in time and were aborted.
    stalled_requests: list[str] = Field(default_factory=list)
    # Requests of the page the egress guard refused (the target policy: metadata, link-local, refused networks,
    # private addresses when not allowed), each "<request>: <why>".
    refused_requests: list[str] = Field(default_factory=list)
    brain: str = "builtin"
    grounding: str = "text"
    # Model calls of this attempt, per phase (calls, tokens, latency, cost); empty for the builtin brain.
    model_usage: dict[str, dict[str, float]] = Field(default_factory=dict)

    @property
    def model_calls(self) -> int:
        """Model calls of this attempt, all phases."""
        return sum(int(phase.get("calls", 0)) for phase in self.model_usage.values())


# --- script -----------------------------------------------------------------------


class ScriptOp(BaseModel):
    kind: ActionKind
    locator: Locator | None = None
    value: str | None = None  # literal value when not parameterised
    arg: str | None = None  # step-definition argument carrying the value
    comment: str
    # The name the step's text gives the element, when the locator does not carry it (a CSS selector): part of
    # the operation's identity, so one definition never names two different elements.
    name: str | None = None
    # The step-definition argument carrying the record the locator finds the element by: the row's text when it
    # looks inside a row or list item, else the element's name (see workers.agent.actions.naming.record_text).
    record_arg: str | None = None
    forced: bool = False  # see Operation.forced


class StepDefinition(BaseModel):
    keyword: Literal["Given", "When", "Then"]
    pattern: str  # step text with {string} for each argument
    args: list[str] = Field(default_factory=list)
    ops: list[ScriptOp]
    signature: str  # hash of the ordered (locator identity, action kind) pairs


class StepUse(BaseModel):
    keyword: Literal["Given", "When", "Then", "And"]
    text: str  # Gherkin line with <placeholders> or quoted literals
    signature: str
    # The tester's sentences behind the step whose words its text does not hold: comments above it in the feature.
    said: list[str] = Field(default_factory=list)


class ScenarioScript(BaseModel):
    scenario_id: str
    title: str
    tags: list[str] = Field(default_factory=list)
    steps: list[StepUse]
    examples: list[dict[str, str]] = Field(default_factory=list)  # one dict per row, same keys
    feature: str | None = None  # the feature it belongs to (None: the suite's default feature)
