"""What an action kind declares, in one place: its sentences, its targets, how it runs, how a step words it,
its JavaScript and its part of the model brain's answer.

An action kind is one module under `kinds/` holding an `ACTION` (an `Action`). Every phase asks the kind
instead of branching on its name: the builtin brain's grammar takes its `rules`, the model brain its
`model_hint`, scoring its `eligible`, the executor its `perform` / `check`, the step writer its `phrase` and
`comment`, the emitter its `javascript`. Nothing here imports a browser: `perform` and `check` work through
the `Act` they are handed (the executor's port onto Playwright).
"""

from __future__ import annotations

import re
from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from shared.records import Intent, Locator, Node, Operation, ScriptOp
    from shared.settings import Settings

# A piece of a step's text: literal words, or the position of the operation whose value is the argument there.
Segment = str | int


class ActionFailed(Exception):
    """The operation could not be performed; the message is Playwright's first line or the kind's own."""


class CheckFailed(Exception):
    """An expected result does not hold; the message says what the page shows instead."""


@dataclass(frozen=True)
class Rule:
    """A sentence pattern of the builtin brain: a regular expression over one normalised, quote-masked clause
    and a handler turning the match into operations (None: let later rules try; `Unsupported`: refuse).

    Rules are tried by `order`, lowest first: refusals 0-99, checks 100-199, form macros 200-299, navigation
    300-399, keys 400-499, typing 500-599, options and toggles 600-699, clicks 700-799."""

    pattern: str
    handler: Callable[[re.Match[str], Any], list | None]
    order: int


class Act(Protocol):
    """What an action may do to the browser (implemented by the executor)."""

    page: Any  # the current Playwright page
    target: Any  # the grounded Playwright locator, or None for page-level kinds
    node: Node | None  # the grounded element as the snapshot saw it
    value: str | None
    base_url: str
    settings: Settings

    def open(self, url: str) -> int | None: ...  # load a URL (checked against the target policy); HTTP status
    def settle(self) -> None: ...  # wait, bounded and event-driven, until the page is quiet
    def text_shown(self, text: str, timeout_ms: int) -> bool: ...  # some visible element holds the text
    def text_gone(self, text: str, timeout_ms: int) -> bool: ...  # no visible element holds it (waits for that)
    # a pointer action on the target: `do(**options)`, forced past a shape of the target's own widget over it
    def pointer(self, do: Callable[..., None]) -> None: ...
    def answer_next_dialog(self, accept: bool, prompt_text: str | None) -> None: ...
    def dialogs_seen(self) -> int: ...  # dialogs answered so far in this tab
    def switch_tab(self, which: str) -> None: ...  # "new": the newest other page; "first": the opening page
    def file_path(self, name: str) -> str: ...  # a file of the scenarios' files folder; ActionFailed if missing


def pointer_javascript(op: ScriptOp, target: str, method: str) -> str:
    """`await target.click();`, or, where generation forced it past a shape of the target's own widget (see
    `Act.pointer`), once the target is visible, forced as generation did."""
    if op.forced:
        return f"await {target}.waitFor(); await {target}.{method}({{ force: true }});"
    return f"await {target}.{method}();"


class Action(ABC):
    """One action kind. Subclasses set `name`, word and emit the operation (`phrase`, `comment`, `javascript`), and
    override what differs from these defaults (a click-like operation on a grounded element)."""

    name: str = ""
    # One line for the model brain: what the kind does and what its value is.
    model_hint: str = ""
    # Offered to the model brain as an action kind (assertions are offered through `check_name`).
    for_model: bool = True
    # The name of this assertion in the model brain's "assertions" list ("text", "value", "absent").
    check_name: str | None = None
    is_assertion: bool = False
    # Grounded on an element of the page (False: the whole page, the browser, a dialog, a tab).
    grounded: bool = True
    # Grounded when the sentence names an element, on the page otherwise (a key pressed in a field or anywhere).
    target_optional: bool = False
    # The value may become a Scenario Outline parameter.
    valued: bool = False
    # What a parameter holding its value is called when no field names it ("expectedText"; None: the field's name).
    param_name: str | None = None
    # The value is code, not data (a path, a key, "back"): part of what makes two steps the same.
    literal: bool = False
    # Works on one field of a form (grouped with its form's other fields into one step).
    field: bool = False
    # Submits the form its target belongs to (a click or key press on a form's control ends the form's step).
    submits: bool = False
    # Grounding may pick elements that only show something (for the model grounder's crops).
    reads: bool = False
    # Answers something the *next* operation triggers (a dialog): performed before the one written before it.
    arms: bool = False

    # --- the builtin brain --------------------------------------------------------------------------------------

    rules: Sequence[Rule] = ()  # verb sentences ("Hover over More")
    verbs: frozenset[str] = frozenset()  # verbs that start its sentences: "..., and dismiss X" is a new clause
    statements: Sequence[Rule] = ()  # checks written without a verb ("'X' is no longer listed")

    def describe(self, target: str | None, role: str | None, value: str | None) -> str:
        """The intent in words, for the history and messages: "Click the Save button"."""
        return f"{self.name.capitalize()} {thing(target, role)}".strip()

    # --- grounding ----------------------------------------------------------------------------------------------

    def needs_target(self, intent: Intent) -> bool:
        """Whether this intent is grounded on an element."""
        return self.grounded and (bool(intent.target) or not self.target_optional)

    def eligible(self, node: Node) -> float:
        """How well an element fits this kind of action, in [0, 1] (0: never)."""
        return 1.0 if node.operable else 0.45

    def refine(self, node: Node, intent: Intent | None = None) -> str:
        """The kind the grounded element calls for (a type-ahead field is typed key by key): a kind's name."""
        return self.name

    # --- execution and observation ------------------------------------------------------------------------------

    def redundant(self, node: Node | None, value: str | None, current_url: str, base_url: str) -> bool:
        """Performing it would leave the page as it is (kept in the record, left out of the script)."""
        return False

    def perform(self, act: Act) -> int | None:
        """Carry the operation out; raise ActionFailed with a one-line reason. May return an HTTP status."""
        raise ActionFailed(f"{self.name} cannot be performed")

    def check(self, act: Act) -> None:
        """For assertions: raise CheckFailed when the expected result does not hold (after waiting for it)."""
        raise CheckFailed(f"{self.name} is not a check")

    def read(self, target: Any, expected: str) -> str:
        """For an assertion grounded on an element (a Playwright locator): what it shows, compared with `expected`
        (the operation's value) until they are equal or the assertion times out."""
        raise CheckFailed(f"{self.name} reads no element")

    def reads_nothing(self, reading: str) -> bool:
        """A reading that says the element has nothing of the kind to read (a link is neither expanded nor collapsed):
        another element of the same name is read instead, when there is one."""
        return False

    def page_locator(self, intent: Intent) -> Locator | None:
        """An assertion about an element that cannot be grounded (it must be absent): its locator from the words."""
        return None

    # --- scripts ------------------------------------------------------------------------------------------------

    @abstractmethod
    def phrase(self, op: Operation, slot: list[Segment]) -> list[Segment]:
        """The operation as part of a Gherkin step; `slot` is its value (an argument or a quoted literal)."""

    @abstractmethod
    def comment(self, op: Operation, what: str) -> str:
        """The one-line comment above its statement: what it does, true wherever the step is used."""

    def brief_target(self, op: Operation) -> str | None:
        """How the step writer is told the target is named (None: the operation has none)."""
        return None

    @abstractmethod
    def javascript(self, op: ScriptOp, target: str | None, value: str) -> str:
        """One awaited playwright-core statement; `target` is the locator expression, `value` the value's."""

    def __repr__(self) -> str:
        return f"<action {self.name}>"


def thing(target: str | None, role: str | None) -> str:
    """'the Save button'; the target alone when the sentence named no kind of element; 'the checkbox' unnamed; a
    header is a column's ('the votes column header')."""
    role = "column header" if role == "header" else role
    if role and target:
        return f"the {target} {role}"
    return target or (f"the {role}" if role else "")
