"""An expected result read as its claims by the grammar: texts shown or not, and where.

Most tests here come from no scenario: a generator writes sentences from meanings (a list of clauses, each texts with
a polarity and a place) in the many ways a tester says them, and the reader must give back the meaning it was written
from; negating a clause flips its claims only, quoting a name or reordering a list keeps the meaning.
"""

from __future__ import annotations

from dataclasses import dataclass

import pytest
from hypothesis import given
from hypothesis import strategies as st

from shared.scenarios import ScenarioStep
from workers.agent.brains import BuiltinBrain
from workers.agent.reading.claims import IT, Claim, lexicon, read, read_claims

# --- the generator -----------------------------------------------------------------------------------------------

_NAMES = ["Apples", "Pears", "Plum Jam", "Order 1042", "Kiwi", "Blue Harbour", "Nadia Okafor", "Q3 Report",
          "Salt and Pepper"]
_TITLES = ["Fruits", "Recent Orders", "Team Members", "Drafts"]
_KINDS_TITLED = ["list", "panel", "section", "table", "box"]
_KINDS_ALONE = ["sidebar", "table", "list", "dialog"]


@dataclass(frozen=True)
class Where:
    title: str | None = None
    kind: str | None = None
    quoted: bool = False

    def said(self) -> str:
        if self.title is None and self.kind is None:
            return ""
        if self.title is None:
            return f"the {self.kind}"
        title = f'"{self.title}"' if self.quoted else self.title
        return f"the {title} {self.kind}" if self.kind else title


@dataclass(frozen=True)
class Said:
    """One clause's meaning: its texts, their polarity, where."""

    texts: tuple[str, ...]
    shown: bool
    where: Where
    quoted: tuple[bool, ...]
    holder_first: bool  # 'The Fruits list shows A' rather than 'A is listed in the Fruits list'

    def claims(self) -> list[Claim]:
        return [Claim(t, self.shown, self.where.title, self.where.kind) for t in self.texts]


def _listed(texts: tuple[str, ...], quoted: tuple[bool, ...], oxford: bool) -> str:
    words = [f'"{t}"' if q else t for t, q in zip(texts, quoted, strict=True)]
    if len(words) == 1:
        return words[0]
    return ", ".join(words[:-1]) + ("," if oxford and len(words) > 2 else "") + " and " + words[-1]


_POSITIVE = ["{be} shown", "{be} listed", "{be} displayed", "{be} visible", "{be} still shown", "{appear}"]
_NEGATIVE = ["{be} not shown", "{be} no longer listed", "{be} gone", "{be} missing", "{nbe} displayed",
             "{disappear}", "{do} not appear"]


def _say(clause: Said, style: int, oxford: bool) -> str:
    """The clause in words; a name of one word starting it, and a name holding "and", are quoted (unquoted, neither
    is one name)."""
    quoted = tuple(q or " and " in t for t, q in zip(clause.texts, clause.quoted, strict=True))
    if not clause.holder_first and len(clause.texts[0].split()) == 1:
        quoted = (True, *quoted[1:])
    clause = Said(clause.texts, clause.shown, clause.where, quoted, clause.holder_first)
    many = len(clause.texts) > 1
    verbs = {"be": "are" if many else "is", "nbe": "aren't" if many else "isn't",
             "appear": "appear" if many else "appears", "disappear": "disappear" if many else "disappears",
             "do": "do" if many else "does"}
    listed = _listed(clause.texts, clause.quoted, oxford)
    if clause.holder_first:
        holder = clause.where.said() or "the page"
        verb = ("shows", "lists", "displays")[style % 3] if clause.shown else \
            ("no longer shows", "does not show", "doesn't list")[style % 3]
        return f"{holder} {verb} {listed}"
    predicate = (_POSITIVE if clause.shown else _NEGATIVE)[style % (6 if clause.shown else 7)].format(**verbs)
    if clause.where.said():
        if predicate.endswith(("gone", "missing", "disappear", "disappears")):
            predicate += f" from {clause.where.said()}"
        else:
            predicate += f" in {clause.where.said()}"
    return f"{listed} {predicate}"


_where = st.one_of(
    st.just(Where()),
    st.builds(Where, st.sampled_from(_TITLES), st.sampled_from(_KINDS_TITLED), st.booleans()),
    st.builds(Where, st.none(), st.sampled_from(_KINDS_ALONE)),
    st.builds(Where, st.sampled_from(_TITLES), st.none(), st.just(True)),
)


@st.composite
def _clause(draw) -> Said:
    texts = tuple(draw(st.lists(st.sampled_from(_NAMES), min_size=1, max_size=4, unique=True)))
    where = draw(_where)
    holder_first = draw(st.booleans()) and where.kind is not None
    return Said(texts, draw(st.booleans()), where, tuple(draw(st.lists(st.booleans(), min_size=len(texts),
                                                                       max_size=len(texts)))), holder_first)


# (a bare "and" between clauses is not generated: after a list, it may join the list or the clause, and a sentence
# read both ways that mean different things has no reading, see below)
_JOINS = [", and ", "; ", ". ", ", but "]


@st.composite
def _result(draw) -> tuple[list[Said], str]:
    said = draw(st.lists(_clause(), min_size=1, max_size=3))
    style = draw(st.integers(0, 20))
    oxford = draw(st.booleans())
    sentence = ""
    for n, clause in enumerate(said):
        text = _say(clause, style + n, oxford)
        join = draw(st.sampled_from(_JOINS)) if n else ""
        sentence += join + (text[0].upper() + text[1:] if join in ("", ". ") else text)
    return said, sentence


@given(_result())
def test_every_generated_result_reads_back_as_the_meaning_it_was_written_from(result) -> None:
    said, sentence = result
    reading = read(sentence)
    assert reading.refusal is None, (sentence, reading.refusal)
    assert list(reading.claims) == [c for clause in said for c in clause.claims()], sentence


@given(_clause(), st.integers(0, 20))
def test_negating_a_clause_flips_every_claim_and_nothing_else(clause: Said, style: int) -> None:
    denied = Said(clause.texts, not clause.shown, clause.where, clause.quoted, clause.holder_first)
    said, unsaid = read_claims(_say(clause, style, False)), read_claims(_say(denied, style, False))
    assert said and unsaid
    assert [c.shown for c in said] == [clause.shown] * len(clause.texts)
    assert [Claim(c.text, not c.shown, c.place, c.kind) for c in said] == unsaid


@given(_clause(), st.integers(0, 20), st.randoms())
def test_quoting_the_names_or_reordering_the_list_keeps_the_meaning(clause: Said, style: int, rnd) -> None:
    order = list(range(len(clause.texts)))
    rnd.shuffle(order)
    again = Said(tuple(clause.texts[i] for i in order), clause.shown, clause.where, (True,) * len(order),
                 clause.holder_first)
    said, quoted = read_claims(_say(clause, style, False)), read_claims(_say(again, style, True))
    assert said and sorted(said, key=lambda c: c.text) == sorted(quoted, key=lambda c: c.text)


# --- what has no reading -------------------------------------------------------------------------------------------

@pytest.mark.parametrize(("expected", "named"), [
    ('"Tips" is no longer in "Available" and "News" is not', "a denial with no statement before it"),
    ('"Inbox" but not "Junk" is shown', "'but'"),  # which is said of which
    ('"Gone" is shown or not', "'or'"),  # alternatives
    ('"Saved" may appear', "'may'"),
    ('"Sam" is listed, not "Ann"', "a denial standing alone"),  # reaches no text ("but not" does: below)
    ('"Inbox" is shown and not "Spam"', "a denial standing alone"),
    ('"Inbox" still exists and is not missing', "'is'"),  # a denial of a denial
    ('"Inbox" is not hidden', "'hidden'"),
    ('"Total" is shown in bold under the table', "'bold'"),  # a look, not read here
    ('"Fuel" shows 1,250.00 this month', "'this'"),
    ('"Apples" is the first item', "only a table's row is said by its order"),
    ('"Apples" is listed first', "'first'"),
])
def test_a_result_with_no_exact_reading_is_refused_naming_the_word_it_stops_at(expected: str, named: str) -> None:
    reading = read(expected)
    assert reading.claims == () and named in reading.refusal


def test_a_sentence_read_two_ways_that_differ_has_no_reading() -> None:
    reading = read('The sidebar shows Apples and "Kiwi" and Pears are gone')  # is "Kiwi" shown or gone?
    assert reading.claims == () and "reads 2 ways" in reading.refusal
    assert read('The sidebar shows Apples, and "Kiwi" and Pears are gone').claims  # the comma ends the list


@pytest.mark.parametrize("expected", [
    "Error messages are no longer shown",  # a description, not a name: its absence would always pass
    "Nothing is shown in the sidebar",
    "It appears in the sidebar",
    "Salt and Pepper is shown",  # one name or two: the verb says one, the list says two
    '"Inbox" is not just in the sidebar',
    "The Fruits list shows just Apples and Pears",
    '"A" can be shown',
    '"A" is shown?',
    "Apples (Green) is listed",
    '"A" is shown in its list',  # the part of something said before
])
def test_what_could_be_read_as_less_or_as_its_opposite_has_no_reading(expected: str) -> None:
    assert read(expected).claims == ()


def test_a_capital_inside_a_sentence_starts_a_name_even_on_a_word_the_lexicon_knows() -> None:
    assert read_claims("The sidebar shows Just Eat") == [Claim("Just Eat", True, None, "sidebar")]
    assert read_claims('"Inbox" isn\'t listed any more') == [Claim("Inbox", False)]


def test_a_word_of_denial_in_a_title_or_a_quoted_text_denies_nothing() -> None:
    assert read_claims('"Sam" is listed in the No Reply list') == [Claim("Sam", True, "No Reply", "list")]
    assert read_claims('"Not found" is shown') == [Claim("Not found", True)]


def test_claims_keep_the_spans_they_were_read_from() -> None:
    sentence = 'The Fruits list shows Plum Jam and "Kiwi"'
    claims = read_claims(sentence)
    assert [sentence[slice(*c.span)] for c in claims] == ["Plum Jam", '"Kiwi"']
    assert {sentence[slice(*c.place_span)] for c in claims} == {"The Fruits list"}


def test_what_a_text_is_said_to_be_is_kept_and_a_row_holds_its_numbers() -> None:
    assert read_claims('The review "Great value" appears in the "Reviews" list') == [
        Claim("Great value", True, "Reviews", "list", "review")]
    assert read_claims('The "Save" button is shown') == [Claim("Save", True, said_as="button")]
    assert read_claims('The "Fuel" row shows 1,250.00') == [Claim("1,250.00", True, "Fuel", "row")]
    assert read('The "Fuel" row no longer shows 1,250.00').refusal  # a text gone from one row: not checked


def test_placeholders_are_texts_and_capitals_start_names_only_inside_a_sentence() -> None:
    assert read_claims("<name> appears in the sidebar") == [Claim("<name>", True, None, "sidebar")]
    assert [w.kind for w in lexicon("Is shown. Then Blue Harbour is")] == ["BE", "SHOWN", "STOP", "CAP", "CAP", "BE"]
    assert [w.kind for w in lexicon("Apples is")] == ["LOW", "BE"]  # one word at the start: no name


# --- the brain ------------------------------------------------------------------------------------------------------

def decide(expected: str, grammar_first: bool = False):
    return BuiltinBrain(grammar_first=grammar_first).decide(ScenarioStep(action="Click Save", expected=expected), 0)


def test_the_brain_checks_each_claim_in_its_place() -> None:
    decision = decide("The Fruits panel shows Apples, and Kiwi is no longer in the sidebar", grammar_first=True)
    assert decision.unsupported is None, decision.unsupported
    assert [(i.kind, i.target, i.role_hint, i.value) for i in decision.intents[1:]] == [
        ("assert_in_section", "Fruits", "panel", "Apples"), ("assert_not_inside", None, "sidebar", "Kiwi")]


def test_a_place_the_rules_drop_is_kept_by_the_grammar_read_first() -> None:
    expected = '"Printer jams" is no longer listed in the table'
    assert [i.kind for i in decide(expected).intents[1:]] == ["assert_absent"]  # the rules: anywhere on the page
    decision = decide(expected, grammar_first=True)
    assert [(i.kind, i.role_hint) for i in decision.intents[1:]] == [("assert_not_inside", "table")]


@pytest.mark.parametrize(("expected", "unused"), [
    ('The orders are grouped under headings such as "Paid" and "Unpaid"', "'grouped'"),
    ('The note "Call back" appears in the "Messages" panel', '"note"'),  # what the text is: no check uses it
    ('"Apples" is shown in the panel', "which panel is not said"),  # a part of a kind no check can find
])
def test_a_result_saying_more_than_its_claims_check_has_no_checks_and_says_why(expected, unused) -> None:
    reason = BuiltinBrain().claim_checks(expected)
    assert isinstance(reason, str) and unused in reason


def test_a_text_said_to_be_a_heading_or_a_button_is_checked_in_one() -> None:
    decision = decide('The heading "Files" is shown and the "Upload" button is no longer shown', grammar_first=True)
    assert [(i.kind, i.role_hint, i.value) for i in decision.intents[1:]] == [
        ("assert_inside", "heading", "Files"), ("assert_not_inside", "button", "Upload")]


def test_texts_said_with_a_text_or_a_part_that_opens_are_checked_where_said() -> None:
    decision = decide('The heading "Components" is shown with Backend and Mobile app in the table', grammar_first=True)
    assert [(i.kind, i.role_hint, i.value) for i in decision.intents[1:]] == [
        ("assert_inside", "heading", "Components"), ("assert_inside", "table", "Backend"),
        ("assert_inside", "table", "Mobile app")]
    assert read_claims("The Fruits dialog opens with Apples and Pears") == [
        Claim("Apples", True, "Fruits", "dialog"), Claim("Pears", True, "Fruits", "dialog")]
    assert read('"Kiwi" is gone with Apples').refusal  # what goes with a text that is gone is not said


def test_the_verb_of_one_text_is_told_after_what_the_texts_are_said_to_be() -> None:
    assert read('The heading "A" and the "B" button is shown').claims == ()
    assert read_claims('The heading "A" and the "B" button are shown') == [
        Claim("A", True, said_as="heading"), Claim("B", True, said_as="button")]


def test_the_brain_gives_what_it_read_each_sentence_as_claim_by_claim_with_its_characters() -> None:
    expected = "The Fruits panel shows Apples"
    decision = decide(expected, grammar_first=True)
    assert decision.meaning == {"Click Save": ["click 'Save' (0-10)"],  # the action, read by the commands grammar
                                expected: ["'Apples' shown, under 'Fruits' (panel) (text 23-29, place 0-16)"]}
    assert decide('"Apples" is shown').meaning == {}  # read by the rules: their operations say what was read


def test_the_kind_of_a_control_is_never_a_word_of_its_name() -> None:
    expected = 'The heading "Sign in" is shown with a Password field and a "Go" button'
    assert read_claims(expected)[1:] == [Claim("Password", True, said_as="field"), Claim("Go", True, said_as="button")]
    checks = BuiltinBrain().claim_checks(expected)
    assert not isinstance(checks, str)
    # a field's name is its label, outside it: the field so labelled is there, never a text inside a field
    assert [(i.kind, i.target, i.role_hint, i.value) for i in checks[1:]] == [
        ("assert_state", "Password", "field", "visible"), ("assert_inside", None, "button", "Go")]
    negated = BuiltinBrain().claim_checks('The "Sign in" heading is shown and the Password field is not shown')
    assert isinstance(negated, str) and '"field" is not used' in negated  # never a text gone from the page


# --- elements in a state, and the value one element shows ------------------------------------------------------------

_CONTROLS = [('the "Save" button', "Save", "button"), ('the Remember me checkbox', "Remember me", "checkbox"),
             ("the newsletter checkbox", "newsletter", "checkbox"), ('"Blog posts"', "Blog posts", None),
             ("the Details section", "Details", "section")]
_STATES_SAID = ["disabled", "enabled", "ticked", "unchecked", "selected", "expanded", "collapsed", "greyed out",
                "empty"]


@given(st.sampled_from(_CONTROLS), st.sampled_from(_STATES_SAID), st.sampled_from(["is", "should be", "is still"]),
       st.sampled_from(["is not", "isn't", "is no longer", "should not be"]))
def test_an_element_said_in_a_state_or_not_is_one_claim_of_that_state_whose_denial_flips_it(
        control, state: str, be: str, nbe: str) -> None:
    said, name, kind = control
    claims, denied = read_claims(f"{said} {be} {state}"), read_claims(f"{said} {nbe} {state}")
    if kind == "section":  # a section is a part, not a control: no state of it is read here
        assert claims == [] and denied == []
        return
    assert [(c.text, c.said_as, c.state, c.shown) for c in claims] == [(name, kind, state, True)]
    assert [(c.text, c.said_as, c.state, c.shown) for c in denied] == [(name, kind, state, False)]


def test_states_are_checked_as_the_page_reads_them_and_a_denial_as_the_opposite_state() -> None:
    decision = decide('The "Save" button is greyed out, and the Remember me checkbox is no longer ticked',
                      grammar_first=True)
    assert decision.unsupported is None, decision.unsupported
    assert [(i.kind, i.target, i.role_hint, i.value) for i in decision.intents[1:]] == [
        ("assert_state", "Save", "button", "disabled"), ("assert_state", "Remember me", "checkbox", "unchecked")]
    assert read_claims('"Apples" and "Pears" are selected') == [
        Claim("Apples", True, state="selected"), Claim("Pears", True, state="selected")]
    assert read('"Apples" and "Pears" is selected').claims == ()  # one verb, two texts


@pytest.mark.parametrize(("expected", "label", "kind", "value"), [
    ("The Priority field shows minor", "Priority", "field", "minor"),
    ("the status is new", "status", None, "new"),
    ('the "Title" field reads "Draft v2"', "Title", "field", "Draft v2"),
    ("The Owner is Nadia Okafor", "Owner", None, "Nadia Okafor"),
    ("the total should be 1,250.00", "total", None, "1,250.00"),
    ("The status changes to Closed", "status", None, "Closed"),  # what it shows now, a word of closing included
    ('The Priority field is set to "High"', "Priority", "field", "High"),
    ("the Owner becomes Nadia Okafor", "Owner", None, "Nadia Okafor"),
])
def test_a_label_said_to_show_a_value_is_one_claim_of_that_element_s_value(expected, label, kind, value) -> None:
    assert [(c.place, c.said_as, c.text, c.kind) for c in read_claims(expected)] == [(label, kind, value, "value")]


def test_values_states_and_texts_are_read_together_and_each_checked() -> None:
    expected = 'The summary is Fix login bug, the status is new and "Saved" is shown'
    decision = decide(expected, grammar_first=True)
    assert [(i.kind, i.target, i.value) for i in decision.intents[1:]] == [
        ("assert_value", "summary", "Fix login bug"), ("assert_value", "status", "new"), ("assert_text", None, "Saved")]
    # many results: no one element's value, the texts the page shows
    assert [c.said() for c in read("The results show Apples").claims] == ["'Apples' shown, on the page (text 17-23)"]
    assert read('"Priority" shows "minor"').claims == (Claim("minor", True, "Priority"),)  # a quoted title: its part


@pytest.mark.parametrize(("expected", "near", "place", "kind"), [
    ('"Wrong password" is shown above the form', "above", None, "form"),
    ('"8 matches" is shown next to the "Custom Query" heading', "beside", "Custom Query", "heading"),
    ('"Saved" appears beneath the Notes field', "below", "Notes", "field"),
    ('"Total" is below "Fuel"', "below", "Fuel", None),
])
def test_a_text_said_above_below_or_beside_a_part_is_one_claim_of_that_relation(expected, near, place, kind) -> None:
    assert [(c.near, c.place, c.kind, c.shown) for c in read_claims(expected)] == [(near, place, kind, True)]
    checks = BuiltinBrain().claim_checks(expected)
    assert [(i.kind, i.target) for i in checks] == [(f"assert_{near}", place)]


def test_a_text_denied_beside_a_part_is_refused_never_checked_as_gone_from_the_page() -> None:
    reason = BuiltinBrain().claim_checks('"A" is shown below the table, but "B" is not')
    assert isinstance(reason, str) and "not shown below a part cannot be checked" in reason


def test_a_page_named_is_one_claim_and_what_it_shows_is_checked_on_it() -> None:
    said = read('the ticket page opens showing "Printer jams", and does not show Drafts').claims
    assert [c.said() for c in said] == [
        "the page is 'ticket' (text 4-10)", "'Printer jams' shown, on the page (text 30-44)",
        "'Drafts' not shown, on the page (text 64-70)"]
    checks = BuiltinBrain().claim_checks('The "New Ticket" page loads')
    assert [(i.kind, i.value) for i in checks] == [("assert_page", "New Ticket")]
    assert read("The Roadmap page is not shown").claims == ()  # which page it is not: no check of it here


def test_but_not_denies_its_texts_where_the_clause_before_said_its_own() -> None:
    assert read_claims("The roadmap lists 1.1 Beta and Someday, but not 1.0 Alpha") == [
        Claim("1.1 Beta", True, "roadmap"), Claim("Someday", True, "roadmap"), Claim("1.0 Alpha", False, "roadmap")]
    assert read('"Sam" is not listed, but not "Ann"').claims == ()  # a denial of a denial


def test_a_short_number_is_a_text_only_with_the_words_after_it_and_never_a_count_of_records() -> None:
    assert read_claims("The page says 8 matches") == [Claim("8 matches", True)]
    assert read("The table shows 3 rows").claims == ()  # how many rows: a count, not a text
    assert read('"A" is shown 3 times').claims == ()
    assert read_claims("Manage Milestones (4) lists 1.0 Alpha") == [Claim("1.0 Alpha", True, "Manage Milestones (4)")]


def test_a_dropdown_that_opens_shows_its_texts_in_what_it_opens() -> None:
    checks = BuiltinBrain().claim_checks("A dropdown opens with Our History and Our Team")
    assert [(i.kind, i.role_hint, i.value) for i in checks] == [
        ("assert_inside", "dropdown", "Our History"), ("assert_inside", "dropdown", "Our Team")]


def test_a_control_said_in_a_state_in_a_place_is_looked_for_there() -> None:
    checks = BuiltinBrain().claim_checks('The "closed" checkbox in the "Status" row is not ticked')
    assert [(i.kind, i.target, i.anchor, i.value) for i in checks] == [
        ("assert_state", "closed", "Status", "unchecked")]
    checks = BuiltinBrain().claim_checks("The Daily checkbox in the sidebar is ticked")
    assert [(i.kind, i.target, i.anchor, i.description) for i in checks] == [
        ("assert_state", "Daily", "sidebar", "Verify the Daily checkbox is checked in the sidebar")]


def test_a_step_that_states_what_the_page_shows_is_read_as_its_claims_by_the_grammar_reader() -> None:
    step = ScenarioStep(action="Manage Components lists Backend and Frontend")
    decision = BuiltinBrain(grammar_first=True).decide(step, 0)
    assert [(i.kind, i.target, i.value) for i in decision.intents] == [
        ("assert_in_section", "Manage Components", "Backend"), ("assert_in_section", "Manage Components", "Frontend")]


def test_a_kind_said_in_the_plural_before_a_list_is_what_each_text_is() -> None:
    assert read_claims('The tabs "Readme" and "Versions" are shown') == [
        Claim("Readme", True, said_as="tab"), Claim("Versions", True, said_as="tab")]
    checks = BuiltinBrain().claim_checks("the buttons Save and Cancel are shown")
    assert [(i.kind, i.role_hint, i.value) for i in checks] == [
        ("assert_inside", "button", "Save"), ("assert_inside", "button", "Cancel")]


def test_a_part_that_opens_stays_open_or_closes_is_a_claim_of_the_part_itself() -> None:
    checks = BuiltinBrain().claim_checks('"Wrong password" appears and the dialog stays open')
    assert [(i.kind, i.value) for i in checks] == [("assert_text", "Wrong password"), ("assert_part_shown", "dialog")]
    checks = BuiltinBrain().claim_checks('The "Edit user" dialog closes')
    assert [(i.kind, i.value) for i in checks] == [("assert_part_gone", "Edit user dialog")]
    assert read('The "Fuel" row opens').claims == ()  # a row is no part that opens


def test_a_reading_with_no_meaning_is_dropped_and_the_others_decide() -> None:
    from workers.agent.reading.claims import _agrees, _claims, _NoReading, _parser, lexicon, one_meaning

    sentence = 'The sidebar shows Apples and "Kiwi" and Pears are gone'  # two readings: is "Kiwi" shown or gone?
    seen: list[object] = []

    def all_but_the_first(reading, words, said):
        seen.append(reading)
        if len(seen) == 1:
            raise _NoReading("no meaning")
        return _claims(reading, words, said)

    words = lexicon(sentence)
    meaning = one_meaning(_parser(), words, sentence, all_but_the_first, _agrees, ends="", unread="", quote="text")
    assert len(seen) == 2 and isinstance(meaning, tuple) and meaning  # the other reading is the meaning
    never = one_meaning(_parser(), words, sentence, lambda *a: (_ for _ in ()).throw(_NoReading("none")), _agrees,
                        ends="", unread="", quote="text")
    assert never == "none"  # no reading has a meaning: the sentence is refused, saying why


def test_who_a_text_is_by_is_a_claim_of_that_text_s_own_record() -> None:
    claims = read_claims('"Great value" by Sam Lee and "Too small" by "Kim" are listed in the Reviews list')
    assert [(c.text, c.shown, c.place, c.kind) for c in claims] == [
        ("Great value", True, "Reviews", "list"), ("Too small", True, "Reviews", "list"),
        ("Sam Lee", True, "Great value", "row"), ("Kim", True, "Too small", "row")]
    # denied: is the text gone, or only its author? neither is read
    assert read('The comment "Nice" by "Ann" is not shown').claims == ()


def test_a_check_said_with_that_or_make_sure_is_read_as_its_claims() -> None:
    assert read_claims('Check that the sidebar lists "A" and does not list "B"') == read_claims(
        'The sidebar lists "A" and does not list "B"')
    assert read_claims('Make sure that "Save" is disabled') == read_claims('"Save" is disabled')


def test_a_second_check_said_with_that_is_read_as_its_claims_too() -> None:
    assert read_claims('Check that "A" is listed and that "B" is not') == read_claims('"A" is listed and "B" is not')


def test_the_page_s_heading_or_title_is_a_claim_of_the_page_itself_never_of_a_field() -> None:
    said = [(c.text, c.kind) for c in read_claims('The page heading reads "Orders (3)" and "Paid" is listed')]
    assert said == [("Orders (3)", "main heading"), ("Paid", None)]
    assert [(c.text, c.kind) for c in read_claims('The main heading is "Roadmap"')] == [("Roadmap", "main heading")]
    assert [(c.text, c.kind) for c in read_claims('The page\'s title says "Timeline"')] == [("Timeline", "title")]
    assert read('The search heading reads "Results"').refusal  # a heading of something else: not the page's


def test_what_a_parenthesis_after_a_text_says_is_shown_in_that_text_s_record() -> None:
    said = [(c.text, c.place, c.kind) for c in read_claims("The table lists Backend (alice) and @acme/icons (2.3.0)")]
    assert said == [("Backend", None, "table"), ("@acme/icons", None, "table"), ("alice", "Backend", "row"),
                    ("2.3.0", "@acme/icons", "row")]
    assert [c.text for c in read_claims('"Manage Milestones (4)" is shown')] == ["Manage Milestones (4)"]  # quoted: whole
    assert read('"A" (the first one) is shown').refusal  # a parenthesis that says more than a text


def test_a_count_said_before_a_list_counts_the_records_of_the_list_holding_its_texts() -> None:
    said = [(c.text, c.place, c.kind) for c in read_claims("The sidebar lists two categories: Books and Events")]
    assert said == [("Books", None, "sidebar"), ("Events", None, "sidebar"), ("Events", "two categories", "count")]
    assert read_claims('The list shows exactly 3 rows: "A", "B" and "C"')[-1].place == "exactly 3 rows"
    assert read('The list shows 2 unread: "A" and "B"').refusal  # what is counted is said in the plural


def test_a_part_or_page_said_with_its_title_after_it_is_the_one_of_that_title() -> None:
    assert read_claims('A dialog titled "Configuration" opens') == read_claims('The "Configuration" dialog opens')
    assert [(c.text, c.kind) for c in read_claims('A page titled "Open issues" opens')] == [("Open issues", "page")]
    assert [(c.text, c.place) for c in read_claims('The dialog titled "Login" shows "Username"')] == [
        ("Username", "Login")]


def test_a_text_said_under_or_next_to_it_is_beside_the_element_the_step_named() -> None:
    said = [(c.text, c.place, c.near) for c in read_claims('"All" and "Draft" appear under it')]
    assert said == [("All", IT, "below"), ("Draft", IT, "below")]
    assert [c.near for c in read_claims('"Saved" is shown next to it')] == ["beside"]
    assert read('"All" is listed in it').refusal  # 'it' as a part: not read
    brain = BuiltinBrain(grammar_first=True)
    checks = brain.claim_checks('"All" appears under it', it="By Status")
    assert [(i.kind, i.target, i.value) for i in checks] == [("assert_below", "By Status", "All")]
    assert "what 'it' is" in brain.claim_checks('"All" appears under it')  # nothing named before: refused


def test_a_part_that_has_a_record_shows_its_text_in_a_record_of_its_own_and_a_heading_is_its_text() -> None:
    said = [(c.text, c.place, c.kind) for c in read_claims('The table has a "Billing" row with "alice"')]
    assert said == [("Billing", None, "table"), ("Billing", "Billing", "row"), ("alice", "Billing", "row")]
    assert [(c.text, c.kind) for c in read_claims('The heading is "people: 7"')] == [("people: 7", "heading")]
    assert read('The table is "X"').refusal and read('The table has a "Billing" column').refusal


def test_a_row_said_by_its_order_shows_the_texts_said_of_it() -> None:
    said = [(c.text, c.place, c.kind) for c in read_claims('The first row is "Ann" and "Zed" is in the last row')]
    assert said == [("Ann", "first", "row at"), ("Zed", "last", "row at")]
    checks = BuiltinBrain(grammar_first=True).claim_checks('The first row is "Ann"')
    assert [(i.kind, i.value, i.ordinal) for i in checks] == [("assert_row_at", "Ann", 0)]


def test_a_label_a_colon_and_a_value_is_the_value_of_the_element_that_label_names() -> None:
    said = [(c.text, c.place, c.kind) for c in read_claims("Reported by: anonymous, Priority: minor, Milestone: 2.0 Beta")]
    assert said == [("anonymous", "Reported by", "value"), ("minor", "Priority", "value"),
                    ("2.0 Beta", "Milestone", "value")]


def test_a_text_under_a_title_is_in_the_part_it_heads_and_under_a_part_below_it() -> None:
    said = [(c.text, c.place, c.kind, c.near) for c in read_claims('"None yet" is shown under the Comments heading')]
    assert said == [("None yet", "Comments", "heading", None)]
    assert read('"Sorted" is listed under "Queries"').refusal  # a section's content or a tree's child: the rules'
    assert [(c.place, c.near) for c in read_claims('"Sorted" is listed under the "Queries" heading')] == [
        ("Queries", None)]
    assert [(c.kind, c.near) for c in read_claims('"Next page" is shown under the table')] == [("table", "below")]
    assert read('"Next page" is not shown under the table').refusal  # a text gone from below a part: not read
    assert read('"X" is listed under the "Alice" row').refusal


def test_a_number_said_with_a_hash_is_a_text_whole() -> None:
    assert [c.text for c in read_claims("#13 and #7 are listed")] == ["#13", "#7"]


def test_texts_offered_are_texts_shown() -> None:
    assert read_claims('"Events" and "News" are offered') == read_claims('"Events" and "News" are shown')
    assert read_claims('The dropdown opens offering "A" and "B"') == read_claims('The dropdown opens showing "A" and "B"')


def test_a_part_said_in_lower_case_words_is_a_claim_of_the_part() -> None:
    assert [(c.text, c.shown, c.kind) for c in read_claims("The login form is still shown")] == [
        ("login form", True, "part")]
    assert [(c.text, c.shown) for c in read_claims("The confirmation dialog is not shown")] == [
        ("confirmation dialog", False)]


def test_a_capitalised_contraction_inside_a_sentence_is_a_word_of_a_name() -> None:
    assert [c.text for c in read_claims("The sidebar lists Open and Won't fix")] == ["Open", "Won't fix"]
    assert read_claims('"Open" isn\'t shown')[0].shown is False


def test_an_identifier_written_unquoted_is_a_text_whole() -> None:
    assert [c.text for c in read_claims("The list shows ann.lee@example.test, @acme/icons, lead_id and 1.2.0")] == [
        "ann.lee@example.test", "@acme/icons", "lead_id", "1.2.0"]
    assert [c.text for c in read_claims('"Total" shows 12.50.')] == ["12.50"]  # a number stays a number


def test_a_capitalised_contraction_before_a_verb_is_still_a_denial() -> None:
    assert not any(c.shown for c in read("Export Doesn't appear").claims)  # never "Export Doesn't" shown
    assert [(c.text, c.shown) for c in read_claims('The "Export" button doesn\'t appear')] == [("Export", False)]


@pytest.mark.parametrize(("expected", "claims"), [
    ('There is "Alpha" in the sidebar', ["'Alpha' shown, inside the sidebar (text 9-16, place 20-31)"]),
    ('There are "Alpha" and "Beta"', ["'Alpha' shown, on the page (text 10-17)", "'Beta' shown, on the page (text 22-28)"]),
    ('There is no "Draft" in the list', ["'Draft' not shown, inside the list (text 12-19, place 23-31)"]),
    ("The query now reports 12 matches", ["'12 matches' shown, on the page (text 22-32)"]),
    ('The results no longer show "Kiwi"', ["'Kiwi' not shown, on the page (text 27-33)"]),
    ('The heading changes to "Manage Components (5)"',
     ["'Manage Components (5)' shown, inside the heading (text 23-46, place 0-11)"]),
])
def test_there_is_what_a_query_returns_and_what_a_part_changes_to_are_texts_shown(expected, claims) -> None:
    assert [c.said() for c in read_claims(expected)] == claims


def test_a_state_an_element_becomes_is_a_claim_of_that_state() -> None:
    assert [(c.text, c.state, c.shown) for c in read_claims('The "Save" button becomes enabled')] == [
        ("Save", "enabled", True)]
    assert read('There is "Alpha" or "Beta"').claims == ()  # alternatives: no reading
    assert read("The status changes to").claims == ()  # no value


def test_a_part_said_shown_or_gone_by_its_name_or_kind_is_a_claim_of_the_part_and_the_text_of_a_text_is_its_own():
    assert [c.said() for c in read_claims("The Configuration dialog is displayed")] == [
        "the Configuration dialog is shown (text 0-24)"]
    assert [c.said() for c in read_claims("The dialog is no longer shown")] == ["the dialog is gone (text 0-10)"]
    # a quoted name with its kind is a text said to be of that kind, not the part's name
    assert [(c.text, c.kind) for c in read_claims('The "Login" dialog is shown')] == [("Login", None)]
    assert [c.text for c in read_claims('The text "No uplinks." is displayed')] == ["No uplinks."]


def test_a_listed_name_goes_on_with_the_small_words_of_a_label_but_never_holds_a_place() -> None:
    assert [c.text for c in read_claims("A menu opens with Sort ascending, Facet by this and Hide this column")] == [
        "Sort ascending", "Facet by this", "Hide this column"]
    # the structure of the sentence first: a place after the list is the list's place
    assert [(c.text, c.kind) for c in read_claims('"Apples", Pears and Plums are shown in the sidebar')] == [
        ("Apples", "sidebar"), ("Pears", "sidebar"), ("Plums", "sidebar")]
    # a place inside a name is no reading: the list's place cannot be told from a label's words
    refused = read("The Fruits list shows Apples, Pears and Plums in the sidebar")
    assert refused.claims == () and "place said inside an unquoted name" in refused.refusal
    # one name alone never runs on (a single text is said by its capitalised words only)
    assert read("Hide this column is shown").claims == ()


def test_a_look_is_never_a_part_and_a_labelled_value_is_read_before_a_described_box() -> None:
    for expected in ('"Error" is not shown in red colour', '"Alpha" is not in lower case', '"Total" is in large font'):
        assert read(expected).claims == (), expected
    [claim] = read_claims('The error message says "Wrong password"')
    assert (claim.kind, claim.place, claim.text) == ("value", "error message", "Wrong password")


def test_a_part_described_in_words_ending_in_a_kind_is_no_box_of_those_classes() -> None:
    # a search box's value, a suggestion list the page may draw without those classes: no reading here
    assert read('The search box now contains "npm install x"').claims == ()
    assert read('the suggestion list says "No results found"').claims == ()
    assert [(c.place, c.kind) for c in read_claims("The owner facet shows Open 47 and Closed 32")] == [
        ("owner facet", "described"), ("owner facet", "described")]


def test_a_result_written_as_a_note_names_the_texts_shown_and_the_records_it_counts() -> None:
    assert read_claims('"Posts by Ann" with two posts, Tea Time and Rain Songs') == [
        Claim("Posts by Ann", True), Claim("Tea Time", True), Claim("Rain Songs", True),
        Claim("Rain Songs", True, "two posts", "count")]
    # without a count, what "with" says of two texts (one record) is not checked: no reading
    assert read('"Alice" with role "Admin"').refusal and read('"Saved" with "Apples"').refusal
    # only as the whole result: with another clause, which of its texts a denial is of is not told
    assert read('"Saved" with two posts, "Apples" and "Tea", and "Pears" is not shown').refusal


def test_texts_said_with_more_words_than_a_list_are_never_denied_one_by_one() -> None:
    # the rules read it by its clauses: "A" with "B" shown, "C" not shown; never "A" and "B" not shown
    decision = decide('"A" with "B", and "C" is not shown')
    assert [(i.kind, i.value) for i in decision.intents[1:]] == [
        ("assert_text", "A"), ("assert_text", "B"), ("assert_absent", "C")]
    assert "not shown" in decide('"A" next to "B" is not shown').unsupported
