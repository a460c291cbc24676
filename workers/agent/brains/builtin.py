"""The builtin brain: deterministic, offline, rule-based.

It answers each scenario step at once: every intent of the action sentence, then one assertion
per check of the expected cell (`step_done=True`), or `Decision(unsupported=...)` naming the
sentence and the reason. It never guesses.

Placeholders: the step text keeps its `<column>` placeholders; the brain is built with the data
row (`BuiltinBrain(row=scenario.first_row())`) and puts the row's value in the intent. When the
whole value is one placeholder (`Type <lastName> into ...`) the intent also gets
`param="lastName"`; a value with a placeholder inside keeps its wording as `template` (each Examples row's
value is rendered from it); a placeholder in a target is substituted only.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import replace

from shared.records import Decision, Intent, Operation, PageSnapshot
from shared.scenarios import PLACEHOLDER, ScenarioStep
from workers.agent.actions import action
from workers.agent.actions.elements import is_textbox
from workers.agent.language.phrases import Op, Place, Unsupported
from workers.agent.reading.claims import IT
from workers.agent.reading.claims import read as read_claims
from workers.agent.reading.commands import read as read_commands
from workers.agent.reading.coverage import FILLING, Done, account, step_coverage, substitute

from . import forms
from .grammar import Item, Macro, parse_text
from .meanings import claim_op, command_op

_EMPTY_PAGE = PageSnapshot(url="about:blank", title="", nodes=[])


# An action sentence that is a check of its own ('Verify the sidebar lists "A"'), which the grammar may read first
_CHECK_SAID = re.compile(r"\s*(?:verify|check|ensure|confirm)\b", re.I)


class NotOnPage(Unsupported):
    """A high-level sentence the page as it was read cannot carry out (no such form, no password field)."""


class BuiltinBrain:
    """Rule-based `Brain` (see `base.Brain`)."""

    name = "builtin"
    reads_whole_steps = True  # every word of a step is checked as used by what the step did (scenario_run)

    def __init__(self, row: Mapping[str, str] | None = None, grammar_first: bool = False) -> None:
        self.row: dict[str, str] = dict(row or {})
        # expected results read by the claims grammar first, by the rules when it has no reading
        # (Settings.expected_reader "grammar"); else by the rules first
        self.grammar_first = grammar_first
        self._meaning: dict[str, list[str]] = {}  # the step's sentences read by the grammar, claim by claim

    def decide(
        self,
        step: ScenarioStep,
        step_index: int,
        snapshot: PageSnapshot | None = None,
        history: list[Operation] | None = None,
        screenshot: Callable[[], bytes] | None = None,
    ) -> Decision:
        self._meaning = {}
        try:
            intents = self.intents(step, snapshot, history)
            return Decision(intents=intents, step_done=True, meaning=self._meaning)
        except Unsupported as exc:
            return Decision(intents=[], step_done=True, unsupported=exc.reason,
                            page_dependent=isinstance(exc, NotOnPage))

    def intents(self, step: ScenarioStep, snapshot: PageSnapshot | None = None,
                history: list[Operation] | None = None) -> list[Intent]:
        """All intents of the step; raises `Unsupported` with a message naming the sentence."""
        page = snapshot or _EMPTY_PAGE
        why = self._grammar_first(step, page, history or []) if self.grammar_first else None
        if isinstance(why, list):
            return why
        try:
            ops = self._expand(parse_text(step.action), page, _field_in_use(history or []),
                               _row_said_before(history or []), _named_before(history or []),
                               _placed_field_before(history or []))
            intents = armed_first([self._intent(op) for op in ops])
        except Unsupported as exc:
            reason = _naming(exc, step.action) + (f"; read by the grammars, {why}" if why else "")
            raise type(exc)(reason) from None
        if not intents and not (step.expected or "").strip():
            raise Unsupported(f"{' '.join(step.action.split())!r}: it announces a check but says nothing to check "
                              "(put the check in the expected result, e.g. \"'Order saved' is shown\")")
        return self._with_expected(step, intents, ops, page)

    def _with_expected(self, step: ScenarioStep, intents: list[Intent], ops: list[Op],
                       page: PageSnapshot) -> list[Intent]:
        """The step's intents with the checks of its expected result after them."""
        if step.expected is not None:
            if not step.expected.strip():
                raise Unsupported(f"{' '.join(step.action.split())!r}: the expected result is empty")
            # what 'it' is to the rules: the text of the row the action was in, or the element it named (a part the
            # action was inside, 'in the sidebar', is neither)
            named = next((_row_text(op) or op.target for op in reversed(ops)
                          if _row_text(op) or (op.target and op.kind not in _INTO_FIELD - {"click"})), None)
            # 'it' in a claim ('appears under it'): the element the action named, when nothing else placed it
            acted = next((op for op in reversed(ops) if op.target), None)
            it = acted.target if acted is not None and acted.place == Place() else None
            claimed = self.claim_checks(step.expected, it=it) if self.grammar_first else None
            if isinstance(claimed, list):
                return seen_before_going(intents + claimed)
            try:
                intents += [self._intent(op) for op in self._expand(parse_text(step.expected, expected=True,
                                                                               it=named), page)]
            except Unsupported as exc:
                intents += self._as_claims(step.expected, f"expected result {_naming(exc, step.expected)}")
        return seen_before_going(intents)

    def _as_claims(self, expected: str, refused: str) -> list[Intent]:
        """An expected result the rules refused, read as its claims (workers/agent/reading/claims.py), when that
        reading uses every word of it; else the rules' refusal, with why the claims do not read it."""
        claimed = self.claim_checks(expected)
        if isinstance(claimed, str):
            raise Unsupported(f"{refused}; read as its claims, {claimed}")
        return claimed

    def _grammar_first(self, step: ScenarioStep, page: PageSnapshot, history: list[Operation]) -> list[Intent] | str:
        """The step's intents when the grammars read its action sentence whole: a check said as a step ('Verify the
        Fruits list shows A') or a statement ('Manage Components lists A') by the claims grammar, any other by the
        commands grammar, then the claims grammar; else why they do not (the rules read it then)."""
        if _CHECK_SAID.match(step.action):
            checked = self.claim_checks(step.action)
            return self._with_expected(step, checked, [], page) if isinstance(checked, list) else checked
        commanded = self._commanded(step.action, page, history)
        if not isinstance(commanded, str):  # 'Click "Checking" in the sidebar', 'Untick "A", "B" and "C"'
            ops, intents = commanded
            return self._with_expected(step, intents, ops, page)
        stated = self.claim_checks(step.action)
        if isinstance(stated, list):
            return self._with_expected(step, stated, [], page)
        return f"as commands, {commanded}; as claims, {stated}"

    def _commanded(self, action: str, page: PageSnapshot,
                   history: list[Operation]) -> tuple[list[Op], list[Intent]] | str:
        """The ops and intents of an action sentence the commands grammar reads whole (reading/commands.py); else why
        not: it has no reading, or what it read leaves words of the sentence unused (the rules read it then)."""
        reading = read_commands(action)
        if reading.refusal is not None:
            return reading.refusal
        try:
            ops = self._expand([(action, [command_op(c) for c in reading.commands])], page, _field_in_use(history),
                               _row_said_before(history), _named_before(history), _placed_field_before(history))
        except Unsupported as exc:
            return exc.reason
        intents = armed_first([self._intent(op) for op in ops])
        coverage = account(substitute(action, self.row),
                           [Done(_as_said(i), i.target, i.value, fills=i.kind in FILLING) for i in intents])
        if not coverage.whole:
            return coverage.reason()
        self._meaning[action] = [c.said() for c in reading.commands]
        return ops, intents

    def claim_checks(self, expected: str, it: str | None = None) -> list[Intent] | str:
        """The checks of an expected result's claims when the grammar reads it and the checks use every word of it;
        else why not. it: what 'it' is ('appear under it'): the element the step's action named."""
        reading = read_claims(expected)
        if reading.refusal is not None:
            return reading.refusal
        claims = reading.claims
        if any(c.place == IT for c in claims):
            if it is None:
                return f"{' '.join(expected.split())!r}: what 'it' is is not said, or was said with a place (name it)"
            claims = tuple(replace(c, place=it) if c.place == IT else c for c in claims)
        try:
            intents = [self._intent(claim_op(c)) for c in claims]
        except Unsupported as exc:
            return exc.reason
        coverage = account(substitute(expected, self.row),
                           [Done(_as_said(i), i.target, i.value, checks=True) for i in intents])
        if not coverage.whole:
            return coverage.reason()
        self._meaning[expected] = [c.said() for c in reading.claims]
        return intents

    # --- macros ----------------------------------------------------------------------------

    def _expand(self, clauses: list[tuple[str, list[Item]]], page: PageSnapshot,
                field: Op | None = None, row: str | None = None, named: str | None = None,
                placed_field: bool = False) -> list[Op]:
        """Ops of the clauses, macros expanded. field: the field the steps before this one last clicked or typed
        into, which 'Type "queue"' types into; a click or a typing in this step takes its place. row, named: the row
        and the element the step before named, which "that row" and "next to it" mean when this step names none.
        placed_field: the field used before was found by its row, section or order (its name alone could be another:
        the focus is no guide either)."""
        ops: list[Op] = []
        current: forms.Form | None = None  # the form this step filled or searched, for "submit it"
        for clause, items in clauses:
            for item in items:
                if isinstance(item, Op):
                    looked = item.place.again and not item.target and next(
                        (o.value for o in reversed(ops) if o.kind == "assert_text"), None)
                    if looked:
                        # 'Find "Rent" and open it': the text this step looked for, never what a step before acted on
                        item = Op(item.kind, target=looked, role_hint=item.role_hint, value=item.value)
                    item = _pronoun_placed(item, ops, row, named)
                    if _opened_dropdown(ops, item):  # 'Open the Action dropdown and choose "Delete"'
                        opened = ops.pop()
                        item = Op("select", target=opened.target, role_hint="dropdown",
                                  value=item.value if item.kind == "select" else item.target, place=opened.place)
                    ops.append(item)
                    if item.kind in _INTO_FIELD and item.target:
                        field = item
                    continue
                if item.name == "clear_here":
                    if field is None:
                        raise Unsupported("it does not say which field to clear; write e.g. Clear the Name field")
                    ops.append(Op("clear", target=field.target, role_hint="field", place=field.place))
                    field = ops[-1]
                    continue
                if item.name == "type_here":
                    if field is None and not placed_field:  # the typing goes where the keyboard focus is
                        field = _focused_field(page)
                    if field is None:
                        raise Unsupported('it does not say which field to type into; write e.g. Type "Alice" into '
                                          'the Name field')
                    ops.append(Op("fill", target=field.target, role_hint="field", value=item.value,
                                  place=field.place))
                    continue
                try:
                    current, more, used = self._macro(item, page, current)
                except Unsupported as exc:  # the page as read has no such form (yet)
                    raise NotOnPage(exc.reason, clause=clause if len(clauses) > 1 else None) from None
                ops += [replace(op, doing=_doing(item, used)) for op in more]
        return ops

    def _macro(self, macro: Macro, page: PageSnapshot, current: forms.Form | None,
               ) -> tuple[forms.Form | None, list[Op], forms.Form | None]:
        """The form now in use, the operations, and the form they acted on."""
        if macro.name == "fill_form":
            filled, ops = forms.fill_form(page, macro.subject)
            return filled, ops, filled
        if macro.name == "submit_form":
            submitted, ops = forms.submit_form(page, macro.subject, current)
            return current, ops, submitted
        if macro.name == "search":
            searched, ops = forms.search(page, macro.value or "", macro.subject)
            return searched, ops, searched
        if macro.name == "sign_in":
            return *forms.sign_in(page, macro.subject, macro.value or ""), None
        raise Unsupported(f"unknown high-level intent {macro.name!r}")  # pragma: no cover

    # --- placeholders and descriptions ----------------------------------------------------------

    def _substitute(self, text: str | None) -> str | None:
        if text is None:
            return None

        def value(m: re.Match[str]) -> str:
            if m[1] not in self.row:
                raise Unsupported(f"<{m[1]}> has no value: the data row has no column {m[1]!r}")
            return self.row[m[1]]

        return PLACEHOLDER.sub(value, text)

    def _intent(self, op: Op) -> Intent:
        whole = PLACEHOLDER.fullmatch(op.value.strip()) if op.value else None
        target, value = self._substitute(op.target), self._substitute(op.value)
        place = op.place
        anchor, section = self._substitute(place.anchor), self._substitute(place.section)
        return Intent(
            kind=op.kind,
            description=" ".join(((f"{op.doing}: " if op.doing else "") + describe(op.kind, target, op.role_hint, value)
                                  + where(place.ordinal, anchor, section, place.side, place.part, place.corner,
                                          place.heads)
                                  + (" (the element acted on before)" if place.again else "")).split()),
            target=target,
            role_hint=op.role_hint,
            value=value,
            param=whole[1] if whole else None,
            template=op.value if op.value and not whole and PLACEHOLDER.search(op.value) else None,
            anchor=anchor,
            section=section,
            ordinal=place.ordinal,
            side=place.side,
            corner=place.corner,
            again=place.again,
            said_as=op.said_as,
        )


def _doing(macro: Macro, form: forms.Form | None) -> str | None:
    """What a form's whole did, said on each of its operations in words the page bears out: a search of a form that is
    one, for the text typed; a form filled with valid values or submitted, named by the step's words only when the
    form's own words hold them all. Nothing else of the clause (a negation, a count, another form, a place) is said:
    the whole-sentence check finds those words unused."""
    if macro.name == "search":
        return f"Search for {macro.value}" if form is not None and forms.searches(form) else None
    if macro.name == "fill_form":
        named = forms.named_so(form, macro.subject) if form is not None else ""
        return " ".join(filter(None, ("Fill in the", named, "form, every empty field, with",
                                      macro.value or "valid values")))
    if macro.name == "submit_form":
        named = forms.named_so(form, macro.subject) if form is not None else ""
        return " ".join(filter(None, ("Submit the", named, "form")))
    return None


_ORDER_WORDS = {0: "first", 1: "second", 2: "third", 3: "fourth", 4: "fifth", -1: "last"}


_PRONOUN = frozenset({"it", "this", "that", "them", "this one", "that one"})


def _pronoun_placed(op: Op, before: list[Op], row: str | None = None, named_before: str | None = None) -> Op:
    """'Select "reassign to" and type "carol" in the text box next to it': the place "it" is the element named just
    before in the step; 'Click "Categorize" in that row': the row the steps before checked or acted in, when the step
    names nothing before it; else the element the step before acted on ('Click the Search button next to it')."""
    anchor, section = op.place.anchor, op.place.section
    if (anchor or "").lower() not in _PRONOUN and (section or "").lower() not in _PRONOUN:
        return op
    # (the element acted on, or the text a check looked for: 'Locate "Rent" and click its Edit button'; an element the
    # step acted on just before without naming it, 'Tick the checkbox and type "x" next to it', is named by nothing)
    if before and not (before[-1].target or before[-1].kind == "assert_text") and before[-1].role_hint:
        raise Unsupported(f"{'next to' if anchor else 'under'} {anchor or section!r} points at the "
                          f"{before[-1].role_hint} the step acted on before, which it names by no words; name it")
    named = next((o.target or o.value for o in reversed(before) if o.target or o.kind == "assert_text"), None) or (
        row if (anchor or "").lower() in ("that", "this") else None) or (
        named_before if (anchor or section or "").lower() == "it" else None)
    if named is None:
        raise Unsupported(f"{'next to' if anchor else 'under'} {anchor or section!r} names no element said before it")
    place = Place(anchor=named if (anchor or "").lower() in _PRONOUN else anchor,
                  section=named if (section or "").lower() in _PRONOUN else section, ordinal=op.place.ordinal,
                  side=op.place.side, part=op.place.part, corner=op.place.corner)
    return Op(op.kind, target=op.target, role_hint=op.role_hint, value=op.value, place=place)


def _focused_field(page: PageSnapshot) -> Op | None:
    """The text field that has the keyboard focus (a search box a shortcut opened), by the name it shows; None when
    none has, or nothing names it."""
    for node in page.nodes:
        if node.focused and is_textbox(node):
            name = node.label or node.aria_label or node.placeholder or node.title
            return Op("fill", target=" ".join(name.split()), role_hint="field") if name and name.strip() else None
    return None


def _opened_dropdown(before: list[Op], op: Op) -> bool:
    """A click on an option right after the click that opened its dropdown, in the same step: one selection."""
    option = (op.kind == "click" and bool(op.target)) or (op.kind == "select" and not op.target and bool(op.value))
    return bool(before) and before[-1].kind == "click" and before[-1].role_hint == "dropdown" and option \
        and op.role_hint is None and op.place == Place()


def _row_said_before(history: list[Operation]) -> str | None:
    """The text of the row the step before this one placed something in ('"X" is shown in the row of "Savings"',
    'Click Edit in the row of "Savings"'); None when it named none."""
    last = max((op.step_index for op in history), default=None)
    for op in reversed(history):
        if not op.ok or op.step_index != last:
            continue
        if op.kind == "assert_in_row" and op.said:
            return op.said
        found = re.search(r' in the row of "([^"]+)"', op.description)
        if found:
            return found[1]
    return None


def _named_before(history: list[Operation]) -> str | None:
    """The element the step before this one last acted on, as it named it; None when it acted on none."""
    last = max((op.step_index for op in history), default=None)
    return next((op.said for op in reversed(history) if op.ok and op.step_index == last and op.said
                 and not action(op.kind).is_assertion), None)


_PLACED = re.compile(r' in the row of "| under "|^\S.* \(the \w+\)')
_INTO_FIELD = frozenset({"click", "fill", "type", "clear"})  # what leaves a field with the focus


def _field_in_use(history: list[Operation]) -> Op | None:
    """The text field the last operation done clicked or typed into, as the step named it."""
    done = [op for op in history if op.ok and not action(op.kind).is_assertion]
    if not done:
        return None
    last = done[-1]
    if last.kind not in _INTO_FIELD or last.target is None or not is_textbox(last.target) or not last.said:
        return None
    if _PLACED.search(last.description):  # its row, section or order is not kept: the name alone could be another
        return None
    return Op("fill", target=last.said, role_hint="field")


def _placed_field_before(history: list[Operation]) -> bool:
    """The last operation done typed into or clicked a field found by its row, section or order."""
    done = [op for op in history if op.ok and not action(op.kind).is_assertion]
    return bool(done) and done[-1].kind in _INTO_FIELD and bool(_PLACED.search(done[-1].description))


def where(ordinal: int | None, anchor: str | None, section: str | None, side: str | None = None,
          part: str | None = None, corner: str | None = None, heads: str | None = None) -> str:
    """' (the second) in the row of "Alice" under "Profile"': the place of a target, for the description; part: the
    kind of part the section's title heads (' under the "Profile" dialog'), or the part an anchor of that name is
    (' in the sidebar')."""
    out = f" (the {_ORDER_WORDS.get(ordinal, str(ordinal))})" if ordinal is not None else ""
    if corner:  # ' at the top right of the sidebar', ' at the top right'
        said = f" at the {corner} {'corner' if ' ' in corner else 'side'}"
        return out + said + (f" of the {anchor}" if anchor else "")
    if anchor and part == anchor:
        out += f" in the {anchor}"
    elif anchor and side in ("above", "below"):
        out += f' {side} "{anchor}"'
    elif anchor and side == "beside":
        out += f' next to "{anchor}"'
    elif anchor:
        out += f' to the {side} of "{anchor}"' if side else f' in the row of "{anchor}"'
    titled = section and part and part != anchor  # (a part the anchor names is said above)
    if section and heads and not titled:  # ' in the sidebar under the "Archive" section'
        return out + f' under the "{section}" {heads}'
    return out + (f' under the "{section}" {part}' if titled else f' under "{section}"' if section else "")


def armed_first(intents: list[Intent]) -> list[Intent]:
    """An answer to what the operation before it opens (a dialog) is set up before that operation:
    "Click Delete and dismiss the confirmation" dismisses the dialog the click opens."""
    out: list[Intent] = []
    for intent in intents:
        if action(intent.kind).arms and out and not action(out[-1].kind).arms:
            out.insert(len(out) - 1, intent)
        else:
            out.append(intent)
    return out


def seen_before_going(intents: list[Intent]) -> list[Intent]:
    """'Click "Show palette"' expecting 'the palette disappears': the palette is found, shown, before the step's
    operations, so that its going is seen (a part never shown would be "gone" whatever the step did)."""
    out = list(intents)
    for at, intent in enumerate(intents):
        if intent.kind != "assert_part_gone":
            continue
        if not any(not action(i.kind).is_assertion for i in intents[:at]):
            raise Unsupported(f"'{intent.description}': a part of the page is seen to go only in the step whose action "
                              "makes it go (say it in that step's expected result)")
        out.insert(0, intent.model_copy(update={"kind": "assert_part_shown",
                                                "description": describe("assert_part_shown", None, None,
                                                                        intent.value)}))
    return out


def _row_text(op: Op) -> str | None:
    """The text of the row, card or line the op's element is in ('in the row of "Alice"'), never a part it is in."""
    return op.place.anchor if op.place.anchor and op.place.anchor != op.place.part else None


def unread_words(step: ScenarioStep, intents: list[Intent], row: Mapping[str, str] | None = None) -> list[str]:
    """The words of the step's sentences that no intent would use, even with every element it says what it is found
    to be so ('the "Budget" file'), each sentence's as "'<sentence>': read only part of the sentence: ..." (an
    expected result's only by checks); none when the intents read it whole (reading/coverage.py)."""
    planned = [Done(_as_said(intent), intent.target, intent.value, checks=action(intent.kind).is_assertion,
                    fills=intent.kind in FILLING) for intent in intents]
    coverages = step_coverage(step.action, step.expected, planned, row or {})
    return [f"{said}{coverage.sentence!r}: {coverage.reason()}" for said, _, coverage in coverages if not coverage.whole]


def _as_said(intent: Intent) -> str:
    """The intent's words as the reading said them: with what the step said its element is ('file'), which the
    execution uses only when the page says so too (scenario_run.note_what_it_is)."""
    return " ".join(filter(None, (intent.description, intent.said_as)))


def _naming(exc: Unsupported, text: str) -> str:
    """"'Drag the card' (in 'Click X and drag the card'): dragging is not supported"."""
    whole = " ".join(text.split())
    where = f"{whole!r}" if exc.clause is None else f"{exc.clause!r} (in {whole!r})"
    return f"{where}: {exc.reason}"


def describe(kind: str, target: str | None, role: str | None, value: str | None) -> str:
    """'Type Alice into the Name field', 'Click the Save button', ... (each kind words its own)."""
    return action(kind).describe(target, role, value)
