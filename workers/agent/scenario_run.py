"""One generation attempt of one scenario: next action, grounding, execution and observation, in a loop.

The result is a RunRecord (plain data). The verdict it carries is the generation verdict; the
pipeline later replays the generated script and may overturn a pass.
"""

from __future__ import annotations

import contextlib
import os
import re
import signal
import subprocess
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Page

from shared.artifacts import ArtifactStore, put_model
from shared.egress import first_and_count
from shared.lifetime import bound_to_this_process
from shared.records import (
    REASON_MAX,
    Candidate,
    Intent,
    Locator,
    Node,
    Operation,
    PageSnapshot,
    RunRecord,
    StepReading,
    Verdict,
    attempt_prefix,
    cut_reason,
)
from shared.reset_request import LabelledReset
from shared.scenarios import Scenario, ScenarioStep
from shared.settings import Settings
from shared.words import words_pattern
from workers.agent.actions import CheckFailed, action
from workers.agent.actions.elements import is_textbox
from workers.agent.brains.base import Brain
from workers.agent.brains.builtin import unread_words, where
from workers.agent.execution.browser import BrowserSession, RendererCrashedError, Tab, first_line
from workers.agent.execution.executor import (
    ActionFailed,
    check_page,
    is_redundant,
    observe,
    page_state,
    perform,
    snapshot_state,
    wait_for_change,
)
from workers.agent.execution.pictures import viewport_png
from workers.agent.execution.view import PageView
from workers.agent.grounding.base import Grounder, TextGrounder
from workers.agent.grounding.locators import NoStableLocator, best_locator, resolve
from workers.agent.grounding.places import (
    listed_texts,
    missing_place,
    names_nothing,
    narrow,
    one_per_element,
    to_the_words,
)
from workers.agent.grounding.tree import StaleSnapshotError, snapshot
from workers.agent.grounding.what_it_is import anchor_holder, said_so, showing
from workers.agent.model.errors import BudgetExhausted, ModelError
from workers.agent.reading.coverage import FILLING, Done, step_coverage

# How many ranked candidates an operation tries before the step is declared impossible.
MAX_CANDIDATES = 3
# A brain that recovers (the model) sees a failed operation's error and may choose another way; after this
# many failures in one scenario step the step has failed.
MAX_FAILURES_PER_STEP = 3
# A target not on the page yet is looked for again after each change of the page, at most this often (and
# never past the action timeout): a page that never stops changing still ends the step.
MAX_REGROUNDS = 20


class ResetFailed(RuntimeError):
    """The reset command did not succeed; the message carries the end of its output."""


def run_reset_command(command: str | None, settings: Settings) -> None:
    if not command:
        return
    # A session of its own, so a timeout stops the command's children too, not only the shell.
    process = subprocess.Popen(bound_to_this_process(["/bin/sh", "-c", command]), stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT, text=True, stdin=subprocess.DEVNULL, start_new_session=True)
    try:
        output, _ = process.communicate(timeout=settings.reset_timeout_s)
    except BaseException as exc:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)
        process.communicate()
        if isinstance(exc, subprocess.TimeoutExpired):
            raise ResetFailed(f"{reset_name(command)} did not finish within {settings.reset_timeout_s:g} s") from None
        raise
    if process.returncode != 0:
        tail = output.strip().splitlines()[-1:] or ["no output"]
        if isinstance(command, LabelledReset):
            raise ResetFailed(f"{command.label} failed: {tail[0]}" if command.show_output
                              else f"{command.label} exited with {process.returncode}")
        raise ResetFailed(f"reset command {command!r} exited with {process.returncode}: {tail[0]}")


def reset_name(command: str) -> str:
    """How a failure names the reset: a labelled one by its label, one the user typed by its text."""
    return command.label if isinstance(command, LabelledReset) else f"reset command {command!r}"


class StepFailed(Exception):
    def __init__(self, verdict: Verdict) -> None:
        super().__init__(verdict.reason)
        self.verdict = verdict


@dataclass
class ScenarioRun:
    """The state of one attempt while it runs."""

    scenario: Scenario
    base_url: str
    settings: Settings
    store: ArtifactStore
    attempt: int
    tab: Tab
    record: RunRecord
    grounder: Grounder = field(default_factory=TextGrounder)
    step_index: int = 0
    timings: dict[str, float] = field(default_factory=dict)

    @property
    def page(self) -> Page:
        return self.tab.page

    @property
    def prefix(self) -> str:
        return attempt_prefix(self.scenario.id, self.attempt)

    def fail(self, kind: str, reason: str) -> StepFailed:
        return StepFailed(Verdict.failed(self.step_index + 1, kind, reason))  # type: ignore[arg-type]

    def new_operation(self, intent: Intent, **fields: object) -> Operation:
        fields.setdefault("step_index", self.step_index)
        return Operation(
            index=len(self.record.operations) + 1,
            kind=intent.kind,
            description=intent.description,
            value=intent.value,
            param=intent.param,
            template=intent.template,
            said=intent.target,
            **fields,  # type: ignore[arg-type]
        )

    def keep(self, operation: Operation, screenshot: bool = True) -> Operation:
        if screenshot:
            started = time.perf_counter()
            key = f"screenshots/{operation.index:03d}-{operation.kind}{'' if operation.ok else '-failed'}.png"
            try:
                self.store.put_bytes(f"{self.prefix}/{key}", viewport_png(self.page), "image/png")
                operation.screenshot = key
            except PlaywrightError:
                pass  # a page that cannot be pictured still has its record
            operation.timings_ms["screenshot"] = ms_since(started)
        self.record.operations.append(operation)
        if len(self.record.operations) > self.settings.max_operations:
            raise self.fail("error", f"more than {self.settings.max_operations} operations; giving up")
        return operation


def ms_since(started: float) -> float:
    return round((time.perf_counter() - started) * 1000, 2)


def run_scenario(
    scenario: Scenario,
    brain: Brain,
    session: BrowserSession,
    *,
    base_url: str,
    settings: Settings,
    store: ArtifactStore,
    attempt: int = 1,
    reset_command: str | None = None,
    avoid: dict[str, list[str]] | None = None,
    grounder: Grounder | None = None,
) -> RunRecord:
    grounder = grounder or TextGrounder()
    record = RunRecord(scenario_id=scenario.id, title=scenario.title, attempt=attempt, base_url=base_url,
                       avoided_locators=dict(avoid or {}), brain=getattr(brain, "name", type(brain).__name__),
                       grounding=grounder.name)
    started = time.perf_counter()
    prefix = attempt_prefix(scenario.id, attempt)
    with tempfile.TemporaryDirectory(prefix="stepforge-trace-") as scratch:
        trace = Path(scratch) / "trace.zip"
        try:
            run_reset_command(reset_command, settings)
            with session.tab(trace_path=trace, app_url=base_url) as tab:
                run = ScenarioRun(scenario, base_url, settings, store, attempt, tab, record, grounder)
                record.stalled_requests = tab.events.stalled  # filled as the scenario runs
                record.refused_requests = tab.events.refused
                refused_before = 0
                try:
                    open_start_page(run)
                    for index, step in enumerate(scenario.steps):
                        run.step_index = index
                        refused_before = len(tab.events.refused)
                        run_step(run, brain, step)
                    record.verdict = Verdict.passed()
                except StepFailed as failure:
                    record.verdict = with_refusals(failure.verdict, tab.events.refused, refused_before)
                except BudgetExhausted as exc:
                    record.verdict = Verdict.failed(run.step_index + 1, "error", f"model budget exhausted: {exc}")
                except ModelError as exc:
                    record.verdict = Verdict.failed(run.step_index + 1, "error", f"the model failed: {exc}")
                except Exception as exc:
                    if crash := tab.renderer_crash(str(exc)):
                        raise RendererCrashedError(crash) from None
                    raise
                # A renderer that died made the step fail: the machine's fault, so no verdict on the application.
                if record.verdict.status != "passed" and (crash := tab.renderer_crash(record.verdict.reason or "")):
                    raise RendererCrashedError(crash)
        except ResetFailed as exc:
            record.verdict = Verdict.failed(None, "error", str(exc))
        if trace.exists():
            store.put_file(f"{prefix}/trace.zip", trace, "application/zip")
    record.timings_ms["generation"] = ms_since(started)
    put_model(store, f"{prefix}/run.json", record)
    return record


def with_refusals(verdict: Verdict, refused: list[str], step_started: int) -> Verdict:
    """A failed step's verdict naming the requests the target policy refused, the likely reason a page did not
    show what the step expected: those of the failing step (refused[step_started:]), else the earlier ones."""
    if not refused or verdict.status == "passed":
        return verdict
    during = refused[step_started:]
    when = "during this step" if during else "before this step"
    named = first_and_count(during or refused)
    said = f" (the target policy refused a request of the page {when}: {named})"
    # The cause is kept whole: the reason before it is what gets cut.
    return verdict.model_copy(update={"reason": cut_reason(verdict.reason, REASON_MAX - len(said)) + said})


def open_start_page(run: ScenarioRun) -> None:
    intent = Intent(kind="goto", description=f"Open {run.scenario.start}", value=run.scenario.start)
    operation = run.new_operation(intent, step_index=-1)
    before = page_state(run.page)
    started = time.perf_counter()
    try:
        status = perform(run.page, None, "goto", run.scenario.start, run.base_url, run.settings, tab=run.tab).status
    except ActionFailed as exc:
        operation.ok, operation.error = False, str(exc)
        run.keep(operation, screenshot=False)
        raise StepFailed(Verdict.failed(None, "error", f"could not open the start page: {exc}")) from None
    operation.timings_ms["execution"] = ms_since(started)
    started = time.perf_counter()
    operation.observation = observe(run.page, before, run.tab.events, status)
    operation.timings_ms["observation"] = ms_since(started)
    run.keep(operation)


def run_step(run: ScenarioRun, brain: Brain, step: object) -> None:
    recovers = getattr(brain, "recovers", False)
    failures: list[StepFailed] = []
    for _ in range(run.settings.max_operations):
        view = take_snapshot(run)
        started = time.perf_counter()
        decision = brain.decide(step, run.step_index, view.snapshot, run.record.operations,  # type: ignore[arg-type]
                                screenshot=view.screenshot)
        decide_ms = ms_since(started)
        deadline = time.monotonic() + run.settings.action_timeout_ms / 1000
        # A page still building (a single-page app rendering its sign-in form) is read again after each change.
        while (decision.unsupported and decision.page_dependent
               and wait_for_change(run.page, run.settings, deadline, view.snapshot.change_mark)):
            view = take_snapshot(run)
            decision = brain.decide(step, run.step_index, view.snapshot, run.record.operations,  # type: ignore[arg-type]
                                    screenshot=view.screenshot)
        if decision.unsupported:
            raise run.fail(decision.failure_kind, decision.unsupported)
        if decision.step_done:
            refuse_part_of_the_sentence(run, brain, step, decision.intents)
        try:
            for number, intent in enumerate(decision.intents):
                if number > 0:
                    # The page may have changed under the previous operation: look again before grounding.
                    view = take_snapshot(run) if needs_tree(intent) else view
                    if not needs_tree(intent):
                        run.timings["tree"] = 0.0
                operation = execute_intent(run, intent, view)
                operation.timings_ms.setdefault("decide", decide_ms if number == 0 else 0.0)
        except StepFailed as failure:
            # The failed operation is in the history with its error; a brain that recovers reads it and
            # chooses another way (another element, another value format, another route).
            failures.append(failure)
            if not recovers or failure.verdict.kind == "error" or len(failures) >= MAX_FAILURES_PER_STEP:
                raise
            continue
        unanswered = run.tab.events.dialog_answers
        if unanswered:
            accept, _ = unanswered[0]
            unanswered.clear()
            raise run.fail("action", f"no dialog appeared to {'accept' if accept else 'dismiss'}")
        if decision.step_done:
            check_whole_sentence(run, brain, step, decision.meaning)
            return
    raise run.fail("error", "the brain never finished this step")


def refuse_part_of_the_sentence(run: ScenarioRun, brain: Brain, step: ScenarioStep, intents: list[Intent]) -> None:
    """Before anything is done: a step whose reading leaves words of its sentence to no operation, even with every
    element it says what it is ('the "Budget" file') found to be so, fails here (settings.partial_readings "fail"),
    naming those words, so that a reading of part of a sentence never acts, nor fails a check it misread (a failing
    scenario caught by a misreading is not caught). What the run then did is checked again after the step
    (`check_whole_sentence`)."""
    if not getattr(brain, "reads_whole_steps", False) or run.settings.partial_readings != "fail":
        return
    unused = unread_words(step, intents, run.scenario.first_row())
    if unused:
        raise run.fail("unsupported", "; ".join(unused))


def check_whole_sentence(run: ScenarioRun, brain: Brain, step: ScenarioStep,
                         meaning: dict[str, list[str]] | None = None) -> None:
    """A brain that reads each step whole: every word of the step's sentences used by an operation the step did
    (workers/agent/reading/coverage.py), recorded in the run record; a step that did less than its sentence said
    fails there (settings.partial_readings "fail"), naming the words it did not use. meaning: the claims the brain
    read a sentence as (Decision.meaning), recorded beside it."""
    if not getattr(brain, "reads_whole_steps", False):
        return
    done = [op for op in run.record.operations if op.step_index == run.step_index and op.ok]
    trace = [Done(op.description, op.said, op.value, checks=action(op.kind).is_assertion, fills=op.kind in FILLING)
             for op in done]
    row = run.scenario.first_row()
    unused: list[str] = []
    for said, sentence, coverage in step_coverage(step.action, step.expected, trace, row):
        run.record.readings.append(StepReading(step=run.step_index + 1, sentence=coverage.sentence,
                                               read_as=[op.description for op in done],
                                               meaning=(meaning or {}).get(sentence, []), unused=list(coverage.unused),
                                               check_version=coverage.version))
        if not coverage.whole:
            unused.append(f"{said}{coverage.sentence!r}: {coverage.reason()}")
    if unused and run.settings.partial_readings == "fail":
        raise run.fail("unsupported", "; ".join(unused))


def needs_tree(intent: Intent) -> bool:
    """Grounding needs the page's tree; opening a URL, a text check and a bare key press do not."""
    return action(intent.kind).needs_target(intent)


def take_snapshot(run: ScenarioRun) -> PageView:
    started = time.perf_counter()
    try:
        page = snapshot(run.page)
    except PlaywrightError as exc:
        raise run.fail("error", f"could not read the page: {first_line(str(exc))}") from None
    run.timings["tree"] = ms_since(started)
    return PageView(run.page, page)


def execute_intent(run: ScenarioRun, intent: Intent, view: PageView) -> Operation:
    tree_ms = run.timings.get("tree", 0.0)
    page = view.snapshot
    spec = action(intent.kind)
    grounded = spec.needs_target(intent)
    if spec.is_assertion:
        return check_value(run, intent, view, tree_ms) if grounded else check_on_page(run, intent, tree_ms)
    if not grounded:
        return act(run, intent, None, page, tree_ms)

    tried: set[tuple[tuple[str, ...], str]] = set()
    errors: list[str] = []
    first_fit: float | None = None
    for _ in range(MAX_CANDIDATES):
        # Node ids belong to one snapshot: after a failed try the page is read again and grounded again,
        # and the elements already tried are left out.
        # The first look waits for the target to appear; after a failed try only what is there counts.
        wait_ms = 0 if tried else run.settings.action_timeout_ms
        candidates, view, ground_ms = ground_in_time(run, intent, view, tried, wait_ms)
        page, tree_ms = view.snapshot, run.timings.get("tree", tree_ms)
        if not candidates:
            break
        if first_fit is None:
            refuse_ambiguity(run, intent, page, candidates)
            first_fit = round(candidates[0].score, 6)
        elif round(candidates[0].score, 6) < first_fit:
            break  # another element fits the sentence worse: taking it would do something the tester did not say
        tried.add(element_key(page.node(candidates[0].node_id)))
        operation = act(run, intent, candidates[0].node_id, page, tree_ms, ground_ms)
        if operation.ok:
            return note_what_it_is(operation, intent, page, page.node(candidates[0].node_id))
        errors.append(operation.error or "failed")
        view = take_snapshot(run)
        page, tree_ms = view.snapshot, run.timings["tree"]
    if not errors:
        missing = missing_place(intent, page)  # the place first: nothing is looked for outside it
        operation = run.new_operation(intent, ok=False, error=missing or f"no element matches {wanted(intent)}")
        operation.timings_ms.update(tree=tree_ms, grounding=ground_ms)
        run.keep(operation)
        raise run.fail("action", f"{intent.description}: {missing or f'no element on the page matches {wanted(intent)}'}")
    raise run.fail("action", f"{intent.description}: {errors[-1]}")


def ground_in_time(run: ScenarioRun, intent: Intent, view: PageView, exclude: set, timeout_ms: int,
                   ) -> tuple[list[Candidate], PageView, float]:
    """Candidates for the intent (elements in `exclude` left out). While none fits, the page is read again after
    each change it makes, until timeout_ms: a swap that lands after the page settled is still seen (Playwright's
    auto-wait, for grounding). Returns the candidates, the view they belong to, and the grounding time."""
    deadline = time.monotonic() + timeout_ms / 1000
    ground_ms = 0.0
    for _ in range(MAX_REGROUNDS):
        started = time.perf_counter()
        found = named_before(run, intent, view.snapshot) if intent.again else \
            narrow(intent, view.snapshot, one_per_element(view.snapshot, to_the_words(
                intent, view.snapshot, run.grounder.locate(intent, view))))
        candidates = [c for c in found if element_key(view.snapshot.node(c.node_id)) not in exclude] or \
            focused_by_the_click(run, intent, view.snapshot)
        ground_ms += ms_since(started)
        # A change made while the page was being read counts: the page is read again at once.
        if candidates or not wait_for_change(run.page, run.settings, deadline, view.snapshot.change_mark):
            return candidates, view, ground_ms
        view = take_snapshot(run)
    return [], view, ground_ms


def focused_by_the_click(run: ScenarioRun, intent: Intent, page: PageSnapshot) -> list[Candidate]:
    """'Click the Payee cell and type "sta"': when nothing is named so any more, the field the click just focused (a
    grid's cell, a label that turns into a field when clicked) is what the typing goes into."""
    last = run.record.operations[-1] if run.record.operations else None
    if intent.kind not in ("fill", "type", "clear") or last is None or not last.ok or last.target is None \
            or last.kind not in ("click", "double_click", "clear") or not intent.target or last.said != intent.target:
        return []
    # the field stands where the clicked element stood: a field focused before the click elsewhere is not it
    focused = [n for n in page.nodes if n.focused and is_textbox(n) and _overlap(n, last.target)]
    return [Candidate(node_id=focused[0].id, score=1.0)] if len(focused) == 1 else []


def _overlap(a: Node, b: Node) -> bool:
    if not a.bbox or not b.bbox:
        return False
    ax, ay, aw, ah = a.bbox
    bx, by, bw, bh = b.bbox
    return ax < bx + bw and bx < ax + aw and ay < by + bh and by < ay + ah


def named_before(run: ScenarioRun, intent: Intent, page: PageSnapshot) -> list[Candidate]:
    """'Click that copy icon', 'click it again': the element the last operation acted on, as the page shows it now,
    when the words said of it now name it as it was named then (or name nothing); else none."""
    last = next((op for op in reversed(run.record.operations)
                 if op.ok and op.target is not None and not action(op.kind).is_assertion), None)
    if last is None or last.target is None:
        return []
    said = (intent.target or "").strip()
    if said and not any(words_pattern(said).search(t or "") for t in (last.said, shown_name(last.target))):
        return []
    key = element_key(last.target)
    return [Candidate(node_id=n.id, score=1.0) for n in page.nodes if element_key(n) == key][:1]


def wanted(intent: Intent) -> str:
    """What grounding looked for, as a message says it: 'Save', 'a checkbox in the row of "X"'."""
    name = repr(intent.target) if intent.target else f"a {intent.role_hint or 'element'}"
    return name + where(intent.ordinal, intent.anchor, intent.section, intent.side, corner=intent.corner)


def element_key(node: Node) -> tuple[tuple[str, ...], str]:
    return tuple(node.frame), node.xpath


def shown_name(node: Node) -> str:
    return " ".join((node.label or node.aria_label or node.text or node.placeholder or node.value or "").split())


def refuse_ambiguity(run: ScenarioRun, intent: Intent, page: PageSnapshot, candidates: list[Candidate]) -> None:
    """Two differently named elements that fit equally well: the sentence does not say which; never guess.

    Equally named ones ("Edit Pet" on every row) are settled by the documented tie-break instead.
    """
    if len(candidates) < 2 or round(candidates[0].score, 6) != round(candidates[1].score, 6):
        return
    first, second = (shown_name(page.node(c.node_id)) for c in candidates[:2])
    if first.lower() != second.lower():
        raise run.fail(
            "action", f"{intent.description}: {intent.target!r} fits both {first!r} and {second!r}; say which one"
        )


def act(run: ScenarioRun, intent: Intent, node_id: int | None, page: PageSnapshot, tree_ms: float,
        ground_ms: float = 0.0) -> Operation:
    target: Node | None = page.node(node_id) if node_id is not None else None
    operation = run.new_operation(intent, target=target)
    started = time.perf_counter()
    locator = None
    if node_id is not None:
        try:
            avoid = run.record.avoided_locators.get(intent.description, ())
            step = run.scenario.steps[run.step_index] if run.step_index < len(run.scenario.steps) else None
            operation.locator = best_locator(run.page, page, node_id, avoid=avoid, said=intent.target,
                                             sentence=f"{step.action} {step.expected or ''}" if step else None)
            locator = resolve(run.page, operation.locator)
        except (PlaywrightError, StaleSnapshotError, NoStableLocator) as exc:
            operation.ok, operation.error = False, f"could not locate the element: {first_line(str(exc))}"
    operation.timings_ms.update(tree=tree_ms, grounding=round(ground_ms + ms_since(started), 2))
    if not operation.ok:
        return run.keep(operation)
    if target is not None:  # the element may call for another kind: a type-ahead field is typed key by key
        operation.kind = action(intent.kind).refine(target, intent)
    # A value from a data column is never redundant: other rows carry other values.
    operation.redundant = not (intent.param or intent.template) and is_redundant(
        operation.kind, target, intent.value, run.page.url, run.base_url)
    started = time.perf_counter()
    # A grounded operation's snapshot was taken just now and holds the page's state: no need to read it
    # again. Without a target (goto, a bare key press) the snapshot may be older, so the page is read.
    before = (snapshot_state(page) if node_id is not None else None) or page_state(run.page)
    before_ms = ms_since(started)
    started = time.perf_counter()
    try:
        done = perform(run.page, locator, operation.kind, intent.value, run.base_url, run.settings, node=target,
                       tab=run.tab)
    except ActionFailed as exc:
        operation.ok, operation.error = False, str(exc)
        operation.timings_ms["execution"] = ms_since(started)
        if node_id is None:  # nothing else to try: no other element would do
            run.keep(operation)
            raise run.fail("action", f"{intent.description}: {exc}") from None
        return run.keep(operation)
    operation.timings_ms["execution"] = ms_since(started)
    started = time.perf_counter()
    operation.forced = done.forced
    operation.observation = observe(run.page, before, run.tab.events, done.status)
    operation.timings_ms["observation"] = round(before_ms + ms_since(started), 2)
    return run.keep(operation)


def check_on_page(run: ScenarioRun, intent: Intent, tree_ms: float) -> Operation:
    """An assertion about the whole page (a text shown, a text or element gone), waited for until its timeout."""
    spec = action(intent.kind)
    operation = run.new_operation(intent, locator=spec.page_locator(intent))
    started = time.perf_counter()
    target = resolve(run.page, operation.locator) if operation.locator is not None else None
    try:
        check_page(run.page, intent.kind, intent.value, run.base_url, run.settings, target)
    except CheckFailed as exc:
        operation.timings_ms.update(tree=tree_ms, execution=ms_since(started))
        operation.ok, operation.error = False, str(exc)
        run.keep(operation)
        raise run.fail("expectation", f"{intent.description}: {exc}") from None
    operation.timings_ms.update(tree=tree_ms, execution=ms_since(started))
    if intent.said_as and intent.kind == "assert_absent":
        # 'the heading "Draft" is not shown': no element shows the text, so none of that kind does
        operation.description += f" (so no {intent.said_as} shows it)"
    elif intent.said_as and intent.value:  # 'the file "Budget" is listed': an element showing it is what was said
        page = take_snapshot(run).snapshot
        shown = showing(page, intent.value)
        said = next((node for node in shown if said_so(page, node, intent.said_as)), None)
        if said is not None:
            note_what_it_is(operation, intent, page, said)
    return run.keep(operation, screenshot=False)


# a control that closes the part it is in: what the step said that part is, is said of the part
_CLOSING = re.compile(r"close|dismiss|hide|×|✕|✖|x", re.I)


def note_what_it_is(operation: Operation, intent: Intent, page: PageSnapshot, node: Node) -> Operation:
    """What the step said the element is ('the "Budget" file'), added to what the operation says when the page says so
    too (grounding/what_it_is.py); else left out, and the whole-sentence check finds those words unused."""
    if intent.said_as:
        where = said_so(page, node, intent.said_as)
        closing = _CLOSING.fullmatch((intent.target or "").strip()) is not None
        holder = anchor_holder(page, node, intent.anchor) if where is None and intent.anchor and closing else None
        if holder is not None:  # 'Close the "Welcome" notification': the box of that text, closed by its button
            where = said_so(page, holder, intent.said_as)
        if where is not None:
            operation.description += f" (a {intent.said_as}: {where})"
    return operation


def check_value(run: ScenarioRun, intent: Intent, view: PageView, tree_ms: float) -> Operation:
    """The labelled element shows the expected value: grounded and read again after each change of the page until
    the assertion timeout, as the suite's expectValue polls."""
    expected = " ".join((intent.value or "").split())
    deadline = time.monotonic() + run.settings.assertion_timeout_ms / 1000
    grounding = execution = 0.0
    while True:
        candidates, view, ground_ms = ground_in_time(run, intent, view, set(),
                                                     max(1, round((deadline - time.monotonic()) * 1000)))
        grounding += ground_ms
        page = view.snapshot
        if not candidates and names_nothing(intent, page):
            # 'the counter reads "4 / 4"': words that name no element of the page only say what the text is; 'the
            # status facet shows Open 7, Closed 4 and In progress 3': each text of the list
            for text in listed_texts(intent):
                operation = check_on_page(run, intent.model_copy(update={
                    "kind": "assert_text", "target": None, "value": text,
                    # the words of the element are not said: the check did not use them (the whole-sentence check)
                    "description": f"Verify '{text}' is shown"}), tree_ms)
            return operation
        if not candidates:
            missing = missing_place(intent, page)
            operation = run.new_operation(intent, ok=False, error=missing or f"no element matches {intent.target!r}")
            operation.timings_ms.update(tree=tree_ms, grounding=grounding)
            run.keep(operation)
            if missing:  # the check could not be made where it was said: never a caught false claim
                raise run.fail("action", f"{intent.description}: {missing}")
            raise run.fail("expectation", f"{intent.description}: nothing on the page is labelled {intent.target!r}")
        started = time.perf_counter()
        node_id, locator, actual, error = read_candidates(run, intent, page, candidates, expected)
        operation = run.new_operation(intent, target=page.node(node_id), locator=locator, error=error)
        execution += ms_since(started)
        if actual == expected or not wait_for_change(run.page, run.settings, deadline, page.change_mark):
            break
        view = take_snapshot(run)
    operation.timings_ms.update(tree=tree_ms, grounding=grounding, execution=execution)
    if actual != expected:
        operation.ok = False
        operation.error = operation.error or f'{intent.target} shows "{actual}", expected "{expected}"'
        run.keep(operation)
        raise run.fail("expectation", f"{intent.description}: {operation.error}")
    operation.error = None
    return run.keep(operation, screenshot=False)


MAX_READ = 4  # equally named elements read before the first is taken as it is


def read_candidates(run: ScenarioRun, intent: Intent, page: PageSnapshot, candidates: list[Candidate],
                    expected: str) -> tuple[int, Locator | None, str | None, str | None]:
    """(element, locator, reading, error) of the first candidate; when it has nothing of the kind to read (a tab's
    link is never collapsed), of the first equally named one that has (the tree's entry of that name)."""
    spec = action(intent.kind)
    name = shown_name(page.node(candidates[0].node_id)).lower()
    first: tuple[int, Locator | None, str | None, str | None] | None = None
    for candidate in [c for c in candidates if shown_name(page.node(c.node_id)).lower() == name][:MAX_READ]:
        try:
            locator = best_locator(run.page, page, candidate.node_id, anchored=True)
            reading: tuple[int, Locator | None, str | None, str | None] = (
                candidate.node_id, locator, " ".join(spec.read(resolve(run.page, locator), expected).split()), None)
        except (PlaywrightError, StaleSnapshotError, NoStableLocator) as exc:
            reading = (candidate.node_id, None, None, first_line(str(exc)))
        first = first or reading
        if reading[2] is not None and not spec.reads_nothing(reading[2]):
            return reading
    assert first is not None
    return first
