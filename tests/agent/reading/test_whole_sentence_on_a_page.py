"""The whole-sentence check in a real run: each step's reading is recorded with the words it did not use, and (the
default, `partial_readings="fail"`) a step that did less than its sentence said fails there, naming those words."""

from __future__ import annotations

from pathlib import Path

from shared.settings import Settings
from tests.agent.pages_site import assert_failed_at, assert_passed, run_on_page

CARDS = """<!doctype html><html><body>
<nav><button aria-label="More">⋮</button></nav>
<section class="card"><h2>Invoice 12</h2><p>Total 40.00</p><button aria-label="Open menu">⋮</button></section>
<p id="done" hidden>Menu opened</p>
<script>for (const b of document.querySelectorAll('button')) b.onclick = () => { done.hidden = false; };</script>
</body></html>"""


def test_a_step_read_whole_records_every_word_used(tmp_path: Path) -> None:
    record = run_on_page(CARDS, [{"action": 'Click the "Open menu" button', "expected": '"Menu opened" is shown'}],
                         tmp_path)
    assert_passed(record)
    assert [(r.step, r.sentence, r.unused) for r in record.readings] == [
        (1, 'Click the "Open menu" button', []), (1, '"Menu opened" is shown', [])]
    assert record.readings[0].read_as[0].startswith("Click")


def test_words_of_a_place_the_step_did_not_use_fail_it(tmp_path: Path) -> None:
    steps = ['Click the "Open menu" button in the middle of the invoice card']
    reported = run_on_page(CARDS, steps, tmp_path / "report", Settings(partial_readings="report"))
    assert reported.readings[0].unused == ["middle of the invoice card"], reported.readings  # recorded either way
    failed = run_on_page(CARDS, steps, tmp_path / "fail", Settings(partial_readings="fail"))
    assert_failed_at(failed, 1, "unsupported")
    assert "read only part of the sentence" in failed.verdict.reason and "invoice card" in failed.verdict.reason
    # refused before anything is done: a reading of part of a sentence never acts (nor fails a check it misread)
    assert [op.kind for op in failed.operations if op.step_index == 0] == []


def test_a_corner_of_a_part_titled_by_its_heading_is_where_the_target_is_looked_for(tmp_path: Path) -> None:
    # the card whose heading says "Invoice", and its bottom left corner, where its menu button stands
    placed = run_on_page(CARDS, ['Click the "Open menu" button in the bottom left corner of the invoice card'],
                         tmp_path)
    assert_passed(placed)
    assert placed.readings[0].unused == []
    elsewhere = run_on_page(CARDS, ['Click the "Open menu" button in the top right corner of the invoice card'],
                            tmp_path / "top")
    assert_failed_at(elsewhere, 1, "action")  # never the button found outside the corner said
    missing = run_on_page(CARDS, ['Click the "Open menu" button in the bottom left corner of the order card'],
                          tmp_path / "order")
    assert_failed_at(missing, 1, "action")
    assert "place 'order card' not found" in missing.verdict.reason


KINDS = """<!doctype html><html><body>
<h1>Tasks</h1>
<table><tr><th>Task</th><th></th></tr>
<tr><td>Renew the certificate</td><td><button class="icon-delete"><svg width="8" height="8"></svg></button></td></tr>
</table>
<div role="status"><p>Saved</p></div>
<div class="title">Archive</div>
</body></html>"""


def test_a_kind_of_element_said_is_used_only_where_the_page_gives_the_element_that_role(tmp_path: Path) -> None:
    whole = run_on_page(KINDS, [
        {"action": "Look at the page", "expected": 'The "Tasks" heading is shown'},
        {"action": "Look at the page", "expected": 'The heading reads "Tasks"'},
        {"action": "Look at the page", "expected": 'The message "Saved" is shown'},
        {"action": "Look at the page", "expected": 'The heading "Draft" is not shown'},
        'Click the Delete icon in the row of "Renew the certificate"'], tmp_path / "whole")
    assert_passed(whole)
    assert all(not r.unused for r in whole.readings), whole.readings
    # a status region holds a message, never an error; a box whose class says "title" is no heading
    for n, expected in enumerate(['The error "Saved" is shown', 'The "Archive" heading is shown']):
        failed = run_on_page(KINDS, [{"action": "Look at the page", "expected": expected}], tmp_path / str(n))
        assert_failed_at(failed, 1, "unsupported")
        assert "read only part of the sentence" in failed.verdict.reason, failed.verdict.reason


FILES = """<!doctype html><html><body style="font-size: 13px">
<header style="display: flex; justify-content: space-between; height: 40px">
  <button onclick="out.textContent = 'Left help'">Help</button>
  <button onclick="out.textContent = 'Help opened'">Help</button>
</header>
<span style="font-size: 30px; font-weight: 600">Files</span>
<div role="grid" class="react-aria-grid-list">
  <div role="row"><div role="gridcell" tabindex="0" onclick="out.textContent = 'Opened Budget'">Budget</div></div>
</div>
<p>Pick a file to open it. Files you open are kept on this server.</p>
<p id="out"></p>
</body></html>"""


def test_a_text_set_as_a_heading_titles_the_list_under_it_and_the_header_s_corner_is_its_end(tmp_path: Path) -> None:
    # "Files" is a heading by its look alone: the list under it is the file list, and what it lists are files
    opened = run_on_page(FILES, [{"action": 'Open the "Budget" file from the file list',
                                  "expected": '"Opened Budget" is shown'}], tmp_path / "file")
    assert_passed(opened)
    assert opened.readings[0].unused == []
    assert any('(a file: under "Files")' in op.description for op in opened.operations), opened.operations
    # the header is a bar: its top right is its right end, whatever the height of the button in it
    helped = run_on_page(FILES, [{"action": 'Click the "Help" button at the top right of the header',
                                  "expected": '"Help opened" is shown'}], tmp_path / "help")
    assert_passed(helped)
    # a list the page titles otherwise is no file list: the place is not found, never the element taken elsewhere
    other = FILES.replace(">Files<", ">Reports<")
    assert_failed_at(run_on_page(other, ['Open the "Budget" file from the file list'], tmp_path / "other"), 1,
                     "action")


PARTS_AND_WORDS = """<!doctype html><html><body>
<header><button onclick="out.textContent = 'toggled'">Toggle sidebar</button>
  <a href="#" onclick="out.textContent = 'header settings'; return false">Settings</a></header>
<aside><a href="#" onclick="out.textContent = 'sidebar settings'; return false">Settings</a></aside>
<h2>Membership plans</h2><ul><li>Gold <button onclick="out.textContent = 'removed Gold'">Remove</button></li></ul>
<p id="out"></p>
</body></html>"""


def test_a_part_said_by_what_it_is_is_that_part_even_where_a_text_shows_its_word(tmp_path: Path) -> None:
    # "Toggle sidebar" shows the word; the sidebar is the <aside>, and its Settings link the one clicked
    sidebar = run_on_page(PARTS_AND_WORDS, [{"action": 'Click "Settings" in the sidebar',
                                             "expected": '"sidebar settings" is shown'}], tmp_path / "sidebar")
    assert_passed(sidebar)
    # 'the members list': no list is titled so ("Membership" is another word): never the plans' Remove button
    members = run_on_page(PARTS_AND_WORDS, ['Click "Remove" in the members list'], tmp_path / "members")
    assert members.verdict is not None and (members.verdict.status, members.verdict.step) == ("failed", 1)
    assert not [op for op in members.operations if op.kind == "click"], members.operations  # refused, or not found
    grammar = run_on_page(PARTS_AND_WORDS, ['Click "Remove" in the members list'], tmp_path / "grammar",
                          Settings(expected_reader="grammar"))
    assert_failed_at(grammar, 1, "action")
    assert "place 'members list' not found" in grammar.verdict.reason
