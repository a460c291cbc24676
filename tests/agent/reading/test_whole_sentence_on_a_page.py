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


def test_a_corner_of_a_part_titled_by_its_heading_is_where_the_target_is_looked_for(tmp_path: Path) -> None:
    # the card whose heading says "Invoice", and its bottom left corner, where its menu button stands
    placed = run_on_page(CARDS, ['Click the "Open menu" button in the bottom left corner of the invoice card'], tmp_path)
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
