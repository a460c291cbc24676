"""An action sentence read as its commands by the grammar: what to do, to which element, with which value, where.

Most tests come from no scenario: a generator writes sentences from meanings (commands with their element, kind,
value and place) in the ways a tester says them, and the reader must give back the meaning it was written from;
quoting a name keeps the meaning, and a sentence with a word of no place has no reading.
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from shared.scenarios import ScenarioStep
from workers.agent.brains import BuiltinBrain
from workers.agent.reading.commands import Command, Where, read

_NAMES = ["Save", "Add Owner", "Order 1042", "Blue Harbour", "draft", "Remember me"]
_VALUES = ["Printer jams", "admin", "42", "Nadia Okafor"]
_KINDS = {"click": ["button", "link", "tab", None], "check": ["checkbox", None], "uncheck": ["checkbox", None],
          "fill": ["field", "box", None], "select": ["dropdown", None]}
_PLACES = [(Where(), ""), (Where(part="sidebar"), " in the sidebar"),
           (Where(section="Filters", kind="panel"), ' in the "Filters" panel'),
           (Where(anchor="Alice"), ' in the row of "Alice"'),
           (Where(anchor="Alice", side="beside"), ' next to "Alice"')]
_VERBS = {"click": ["Click", "Tap", "Click on"], "check": ["Tick", "Check"], "uncheck": ["Untick", "Uncheck"],
          "fill": ["Type {v} into", "Enter {v} in", "Fill in {t} with {v}"],
          "select": ["Select {v} from", "Choose {v} in"]}


def _quoted(text: str, quote: bool) -> str:
    # a lower-case name or value is quoted: unquoted, it is no name
    return f'"{text}"' if quote or text[0].islower() or text[0].isdigit() else text


@st.composite
def _command(draw) -> tuple[Command, str]:
    verb = draw(st.sampled_from(sorted(_KINDS)))
    name = draw(st.sampled_from(_NAMES))
    kind = draw(st.sampled_from(_KINDS[verb]))
    where, said_where = draw(st.sampled_from(_PLACES))
    value = draw(st.sampled_from(_VALUES)) if verb in ("fill", "select") else None
    quote = draw(st.booleans())
    element = f"the {_quoted(name, quote)} {kind}" if kind else _quoted(name, quote)
    wording = draw(st.sampled_from(_VERBS[verb]))
    said_value = _quoted(value, draw(st.booleans())) if value else ""
    if "{t}" in wording:
        sentence = wording.format(t=element, v=said_value).replace(" with ", f"{said_where} with ", 1)
    elif "{v}" in wording:
        sentence = f"{wording.format(v=said_value)} {element}{said_where}"
    else:
        sentence = f"{wording} {element}{said_where}"
    return Command(verb, name, kind, None, value, where), sentence


@st.composite
def _sentence(draw) -> tuple[list[Command], str]:
    said = draw(st.lists(_command(), min_size=1, max_size=3))
    joins = [draw(st.sampled_from([", then ", " and then ", "; ", ", and "])) for _ in said[1:]]
    text = said[0][1]
    for join, (_, sentence) in zip(joins, said[1:], strict=True):
        text += join + sentence[0].lower() + sentence[1:]
    return [c for c, _ in said], text


@given(_sentence())
def test_every_generated_action_sentence_reads_back_as_the_commands_it_was_written_from(said) -> None:
    commands, sentence = said
    reading = read(sentence)
    assert reading.refusal is None, (sentence, reading.refusal)
    assert list(reading.commands) == commands, sentence


def test_a_kind_said_once_after_a_list_is_each_element_s_kind() -> None:
    commands = read('Untick the "draft", "archived" and "deleted" checkboxes').commands
    assert [(c.verb, c.target, c.kind) for c in commands] == [
        ("uncheck", "draft", "checkbox"), ("uncheck", "archived", "checkbox"), ("uncheck", "deleted", "checkbox")]


def test_a_place_said_before_the_commands_is_where_each_acts() -> None:
    commands = read('In the "Add account" dialog, type "Cash" into Name and click Create').commands
    assert [(c.verb, c.target, c.value, c.where.section, c.where.kind) for c in commands] == [
        ("fill", "Name", "Cash", "Add account", "dialog"), ("click", "Create", None, "Add account", "dialog")]
    assert read('In the "Add account" dialog, click Create in the sidebar').refusal  # placed twice


def test_an_element_said_above_or_below_another_stands_on_that_side_of_it() -> None:
    said = [(c.target, c.kind, c.where.side, c.where.anchor) for c in read(
        'Click "Add New" above the transaction table, then click the button below the "Notes" field').commands]
    assert said == [("Add New", None, "above", "transaction table"), (None, "button", "below", "Notes field")]
    assert read("Click Export beneath Recent orders").commands[0].where.anchor == "Recent orders"


def test_a_verb_said_once_for_two_elements_keeps_each_element_s_own_place() -> None:
    said = [(c.verb, c.target, c.kind, c.where.part) for c in read(
        'Click "Reports" in the left menu, then the "Export" button').commands]
    assert said == [("click", "Reports", None, "left menu"), ("click", "Export", "button", None)]
    # with no place of the first's own, the two are one command's: both in the place said after them
    said = [(c.target, c.where.part) for c in read('Click "Reports" and "Export" in the toolbar').commands]
    assert said == [("Reports", "toolbar"), ("Export", "toolbar")]
    # a verb that takes a value is never said once for two elements
    assert read('Type "x" into the Name field in the form, then the "Notes" field').refusal


def test_a_titled_part_said_inside_another_part_is_that_title_inside_that_part() -> None:
    for sentence in ('In the Archive section of the sidebar, click "June"', 'Click "June" in the Archive section of the '
                                                                            'sidebar'):
        command, = read(sentence).commands
        assert (command.target, command.where.section, command.where.kind, command.where.part) == (
            "June", "Archive", "section", "sidebar")
    assert read('Click "June" in the toolbar of the sidebar').refusal  # a part in a part: not read


def test_closing_a_part_clicks_its_close_control_or_the_one_said_inside_it() -> None:
    said = [(c.verb, c.target, c.kind, c.where.part) for c in read("Close the dialog with CLOSE").commands]
    assert said == [("click", "CLOSE", None, "dialog")]
    command, = read('Dismiss the "Welcome" panel').commands
    assert (command.target, command.kind, command.where.section, command.where.kind) == (
        "Close", "button", "Welcome", "panel")
    assert read('Close the "Alice" row').refusal  # a record is no part that closes


@pytest.mark.parametrize("sentence", [
    'Type "Smith" into the last name field in the dialog',  # the last "name" field, or the field "last name"?
    'Hover over "Account" in the header, then "Sign out"',  # a hover is never said again
    'Click "A" in the sidebar, "B" and "C"',  # are B and C in the sidebar?
    'Open the "Settings" page',  # a page: the rules' link
])
def test_a_reading_that_could_take_another_element_is_left_to_the_rules(sentence: str) -> None:
    assert read(sentence).refusal


def test_an_element_taken_from_a_part_is_looked_for_inside_it() -> None:
    command, = read('Open "Invoices" from the sidebar').commands
    assert (command.verb, command.target, command.where.part) == ("click", "Invoices", "sidebar")


@pytest.mark.parametrize("sentence", [
    'Click "Add New" next to the search box',  # beside a part: not found by this reading
    "Click on the first ticket in the list",  # 'ticket' names no kind of element
    "Click Save or Cancel",
    'Check the heading and the first row',  # a heading is not ticked
    "Click it",
])
def test_an_action_sentence_with_a_word_of_no_place_has_no_reading(sentence: str) -> None:
    assert read(sentence).commands == ()


# --- the brain ------------------------------------------------------------------------------------------------------

def intents(action: str, grammar_first: bool = True):
    decision = BuiltinBrain(grammar_first=grammar_first).decide(ScenarioStep(action=action), 0)
    assert decision.unsupported is None, decision.unsupported
    return decision


def test_a_place_said_by_what_it_is_is_kept_by_both_readers() -> None:
    sentence = 'Click "Checking" in the sidebar'
    assert [(i.target, i.anchor, i.description) for i in intents(sentence, grammar_first=False).intents] == [
        ("Checking", "sidebar", "Click Checking in the sidebar")]
    decision = intents(sentence)
    assert [(i.kind, i.target, i.anchor, i.description) for i in decision.intents] == [
        ("click", "Checking", "sidebar", "Click Checking in the sidebar")]
    assert decision.meaning == {sentence: ["click 'Checking' inside the sidebar (0-31)"]}


def test_commands_become_the_operations_of_their_verbs_with_their_kinds_values_and_places() -> None:
    decision = intents('Type "Printer jams" as the Summary, choose major from the Priority list, tick the Notify me '
                       'box and press Enter')
    assert [(i.kind, i.target, i.role_hint, i.value) for i in decision.intents] == [
        ("fill", "Summary", "field", "Printer jams"), ("select", "Priority", "dropdown", "major"),
        ("check", "Notify me", "checkbox", None), ("press", None, None, "Enter")]


def test_a_sentence_the_grammar_reads_with_words_left_over_is_left_to_the_rules() -> None:
    # 'card' is used by no operation of the grammar's reading: the rules read it (and record what they left)
    assert intents('Click the Save link in the Billing card').meaning == {}
    # a column header is said so by the click on it
    assert intents('Click the "votes" column header').meaning == {
        'Click the "votes" column header': ["click 'votes' column header (0-31)"]}


def test_fields_said_by_their_label_and_value_are_each_filled() -> None:
    assert [(c.verb, c.target, c.value) for c in read("Fill in Username alice and Password secret").commands] == [
        ("fill", "Username", "alice"), ("fill", "Password", "secret")]
    assert read("Fill in Username").commands == ()  # no value


def test_a_field_said_in_lower_case_words_is_left_to_the_rules() -> None:
    # which the phrase rules tell from a list that opened after typing (a pick), and find by its label
    assert read("Select task-queue from the suggestions dropdown").commands == ()
    assert read('Type "Printer jams" as the summary').commands == ()


def test_a_title_said_with_under_or_a_row_said_first_is_where_the_commands_act() -> None:
    said = [(c.target, c.where.section, c.where.anchor) for c in read(
        'Under Queries, click "Open issues" and click Run').commands]
    assert said == [("Open issues", "Queries", None), ("Run", "Queries", None)]
    assert [(c.target, c.where.section) for c in read('Click "billing" under the "Popular labels" list').commands] \
        == [("billing", "Popular labels")]
    assert [(c.target, c.where.anchor) for c in read('In the row for "Alice", click Delete').commands] == [
        ("Delete", "Alice")]


def test_a_corner_or_side_of_the_page_or_of_a_part_is_where_the_element_is() -> None:
    said = [(c.target, c.where.corner, c.where.part) for c in read(
        'Click "Log out" at the top right and click the menu button in the upper left corner of the sidebar').commands]
    assert said == [("Log out", "top right", None), (None, "top left", "sidebar")]
    assert read("Click Save on the right").commands[0].where.corner == "right"
    assert read("Click Save at the left right").commands == ()  # no corner


def test_a_title_said_with_the_part_that_holds_it_is_both() -> None:
    for sentence in ("Under Categories in the right sidebar, click Book Reviews",
                     'Click "Book Reviews" under "Categories" in the right sidebar'):
        where = read(sentence).commands[0].where
        assert (where.section, where.part) == ("Categories", "right sidebar"), sentence


def test_a_radio_selected_by_itself_is_chosen_and_a_text_or_an_option_alone_is_not_read() -> None:
    assert [(c.verb, c.target, c.kind) for c in read('Select the "resolve as" radio button').commands] == [
        ("choose", "resolve as", "radio button")]
    assert read('Select the "High" option in the "Priority" list').commands == ()  # maybe one of a list's
    assert read('Select "Backend"').commands == ()  # from which list is not said: the rules read it


def test_a_key_chord_is_never_read_as_an_element_to_click() -> None:
    assert read("Press Ctrl+1").commands == ()  # the rules press it


def test_going_to_clearing_clicking_into_and_typing_into_the_field_in_use_are_commands() -> None:
    assert [(c.verb, c.target, c.kind) for c in read("Go to the TRANSLATIONS tab").commands] == [
        ("click", "TRANSLATIONS", "tab")]
    assert [(c.verb, c.target, c.kind) for c in read("Switch to the LICENSE tab").commands] == [
        ("click", "LICENSE", "tab")]
    decision = intents('Clear the Tagline field and type "Your harbor"')
    assert [(i.kind, i.target, i.value) for i in decision.intents] == [
        ("clear", "Tagline", None), ("fill", "Tagline", "Your harbor")]
    decision = intents('Click into the "Search" box in the header and type "acme"')
    assert [(i.kind, i.target, i.role_hint, i.value) for i in decision.intents] == [
        ("click", "Search", "field", None), ("fill", "Search", "field", "acme")]
    assert read("Go to").commands == ()  # nowhere said


def test_a_part_said_before_the_title_a_corner_of_the_page_and_the_top_bar_are_places() -> None:
    assert [(c.target, c.where.section, c.where.part) for c in read('Click "Settings" in the sidebar under Site').commands
            ] == [("Settings", "Site", "sidebar")]
    assert [(c.target, c.where.corner, c.where.part) for c in read('Click "Save" at the bottom of the page').commands
            ] == [("Save", "bottom", None)]
    assert [(c.target, c.where.part) for c in read('Click "View site" in the top bar').commands] == [
        ("View site", "top bar")]
    assert [(c.target, c.kind) for c in read("Click the Action drop-down").commands] == [("Action", "drop-down")]


def test_what_follows_a_verb_of_typing_and_a_colon_is_typed_whole() -> None:
    decision = intents('Clear the "Query" editor and type: select team, count(*) from people')
    assert [(i.kind, i.target, i.value) for i in decision.intents] == [
        ("clear", "Query", None), ("fill", "Query", "select team, count(*) from people")]
    # a quoted text after the colon is the value as usual
    assert [c.value for c in read('Click the Notes field and type: "Hi"').commands] == [None, "Hi"]


def test_that_row_is_the_row_said_before() -> None:
    assert [(c.target, c.where.anchor, c.where.part) for c in read('Click "Categorize" in that row').commands] == [
        ("Categorize", "that", None)]
    assert [(c.target, c.where.part) for c in read('Click "Save" in the row').commands] == [("Save", "row")]


def test_a_title_said_first_and_a_landmark_or_row_after_the_element_are_both_its_place() -> None:
    [command] = read('In the "Edit node" tray, click the "Run" button below the property list').commands
    assert (command.target, command.where.section, command.where.anchor, command.where.side) == (
        "Run", "Edit node", "property list", "below")
    # a part said first and another place after: which holds it is not one reading
    assert read('In the sidebar, click "A" below the list').commands == ()


def test_a_header_named_by_its_text_is_a_column_header_and_the_header_alone_no_control() -> None:
    decision = intents('Click the "votes" header again')
    assert [(i.kind, i.target, i.role_hint) for i in decision.intents] == [("click", "votes", "header")]
    assert BuiltinBrain(grammar_first=True).decide(ScenarioStep(action="Click the header"), 0).meaning == {}


def test_an_address_a_browser_tab_or_typing_whose_end_is_not_said_are_left_to_the_rules() -> None:
    for sentence in ('Go to "https://example.com/login"', 'Navigate to "/admin/users"', "Switch to the second tab",
                     "Switch to the new tab", "Type: hello world and press Enter",
                     "Enter: Alice into the Name field and click Save"):
        assert read(sentence).commands == (), sentence
