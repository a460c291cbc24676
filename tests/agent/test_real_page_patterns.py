"""Patterns real applications are built from, each on a small page of its own (none is a copy of an application).

Above all, never a wrong action recorded as done: a step acts on the element the tester named or fails saying why.

What these tests hold is where a step acts and what it checks, so their steps run with `partial_readings="report"`:
a word of a sentence no operation used is recorded, not failed (the product's default fails it there). Those words are
the corpus benchmark's "partial" figure (`python -m bench.corpus`), which must come to 0; tests/agent/reading and
tests/agent/reading/test_whole_sentence_on_a_page.py hold that a step never passes on part of its sentence.
"""

from __future__ import annotations

import pytest

from shared.settings import Settings
from tests.agent.pages_site import (assert_failed_at, assert_green, assert_passed, assert_stopped_before_clicking, done,
                                    generate_on_page, passes_whole_and_replays, replays_and_catches, run_on_page)

pytestmark = pytest.mark.e2e  # its tier (tests/conftest.py)


@pytest.fixture(autouse=True)
def _words_left_unread_are_recorded(monkeypatch):
    monkeypatch.setenv("STEPFORGE_PARTIAL_READINGS", "report")

MOVER = """<!doctype html><html><body>
<h2>Publishing</h2>
<div class="toolbar">
  <button disabled title="Publish now">Publish</button>
  <button onclick="document.getElementById('log').textContent = 'Moved down'">Publish later</button>
</div>
<p id="log"></p>
</body></html>"""


def test_a_disabled_target_is_not_swapped_for_a_neighbour_that_fits_worse(tmp_path):
    record = run_on_page(MOVER, ["Click Publish"], tmp_path)
    assert record.verdict is not None and record.verdict.status == "failed", done(record)
    assert record.verdict.step == 1 and record.verdict.kind == "action"
    assert "disabled" in record.verdict.reason or "not enabled" in record.verdict.reason, record.verdict.reason
    assert not any("Publish later" in line for line in done(record)), done(record)


ADMIN_LIST = """<!doctype html><html><body>
<h2>Manage Milestones</h2>
<table><tr><th>sel</th><th>Name</th></tr>
<tr><td><input type="checkbox" name="sel" value="Someday"></td><td>Someday</td></tr></table>
<div class="buttons"><input type="submit" value="Remove selected items"> <input type="submit" value="Apply changes"></div>
</body></html>"""


def test_a_control_whose_name_swaps_a_word_of_the_target_is_another_control(tmp_path):
    # two words of three in common, but "Remove" is not "Archive": the step fails, nothing is removed
    record = run_on_page(ADMIN_LIST, ['Tick the checkbox in the "Someday" row', 'Click "Archive selected items"'],
                         tmp_path)
    assert_failed_at(record, 2, "action")
    assert not any("Remove" in line for line in done(record)), done(record)
    # a word left out is still the same control
    assert_passed(run_on_page(ADMIN_LIST, ['Click "Remove selected"'], tmp_path))


TODOS = """<!doctype html><html><body>
<section class="main">
  <input id="toggle-all" class="toggle-all" type="checkbox"><label for="toggle-all">Mark all as complete</label>
  <ul class="todo-list">
    <li><div class="view"><input class="toggle" type="checkbox"><label>Buy milk</label></div></li>
    <li><div class="view"><input class="toggle" type="checkbox"><label>Pay rent</label></div></li>
  </ul>
</section>
<p id="state"></p>
<script>
  for (const box of document.querySelectorAll('input[type=checkbox]'))
    box.addEventListener('change', () => {
      document.getElementById('state').textContent = Array.from(document.querySelectorAll('input.toggle'))
        .map((t) => t.nextElementSibling.textContent + (t.checked ? ' done' : ' open')).join(', ');
    });
  document.getElementById('toggle-all').addEventListener('change', (e) => {
    for (const t of document.querySelectorAll('input.toggle')) t.checked = e.target.checked;
  });
</script>
</body></html>"""


def test_the_checkbox_of_a_list_item_labelled_by_a_sibling_is_that_item_s_not_the_page_wide_one(tmp_path):
    record = run_on_page(TODOS, ['Check the checkbox of "Pay rent"', '"Buy milk open, Pay rent done" is shown'],
                         tmp_path)
    assert_passed(record)


GRID = """<!doctype html><html><body>
<h2>Bills</h2>
<div style="display: grid; grid-template-columns: 200px 100px; gap: 40px 10px; width: 320px">
  <span>Pay rent</span><button onclick="log.textContent = 'Deleted the rent'">Delete</button>
  <span>Buy milk</span><button onclick="log.textContent = 'Deleted the milk'">Delete</button>
  <span>Water plants</span><button onclick="log.textContent = 'Deleted the plants'">Delete</button>
</div>
<p id="log"></p>
<form style="margin-top: 400px"><label>Notes <input></label><button type="button">Save</button></form>
</body></html>"""


def test_next_to_in_a_flat_grid_is_the_element_nearest_the_text_on_screen(tmp_path):
    record = run_on_page(GRID, ['Click Delete next to "Buy milk"', '"Deleted the milk" is shown'], tmp_path)
    assert_passed(record)


def test_next_to_with_nothing_near_the_text_fails_instead_of_taking_a_far_element(tmp_path):
    record = run_on_page(GRID, ['Click Save next to "Bills"'], tmp_path)
    assert record.verdict is not None and record.verdict.status == "failed", done(record)
    assert record.verdict.step == 1 and record.verdict.kind == "action"


EDITOR = """<!doctype html><html><body>
<form id="post" onsubmit="event.preventDefault(); out.textContent = 'Saved: ' + body.value">
  <input type="hidden" name="csrf_token" value="abc123">
  <input type="hidden" name="body" id="body">
  <div contenteditable="true" role="textbox" aria-label="Description" style="border: 1px solid; min-height: 3em"></div>
  <button>Save</button>
</form>
<p id="out"></p>
<script>
  // The editor copies its text into the form a while after the last key, as rich-text editors do.
  const editor = document.querySelector('[contenteditable]');
  let timer = null;
  editor.addEventListener('input', () => {
    clearTimeout(timer);
    timer = setTimeout(() => { body.value = editor.innerHTML; }, 400);
  });
</script>
</body></html>"""


def test_text_typed_into_a_rich_text_editor_reaches_its_form_before_the_next_click(tmp_path):
    record = run_on_page(EDITOR, ['Type "Hello world" into the Description', "Click Save",
                                  '"Saved: Hello world" is shown'], tmp_path)
    assert_passed(record)


SIDEBAR = """<!doctype html><html><body>
<div class="layout" style="display: flex; gap: 40px">
  <div class="main"><p>Recent labels:</p><ul><li><a href="#" onclick="out.textContent='Opened billing (recent)'">billing</a></li></ul></div>
  <div class="sidebar">
    <div class="box"><div class="box-title" style="font-weight: bold">Popular labels</div>
      <ul><li><a href="#" onclick="out.textContent='Opened billing (popular)'">billing</a></li>
          <li><a href="#">support</a></li></ul></div>
  </div>
</div>
<p class="facets">Suggested facets: <a href="#" onclick="out.textContent='Faceted by status'">status</a>,
  <a href="#">project</a></p>
<p>Other: <a href="#" onclick="out.textContent='Wrong status'">status</a></p>
<p id="out"></p>
</body></html>"""


def test_a_list_led_by_its_own_title_is_a_section(tmp_path):
    record = run_on_page(SIDEBAR, ['In the "Suggested facets" line, click "status"', '"Faceted by status" is shown'],
                         tmp_path)
    assert_passed(record)


def test_a_section_titled_by_a_styled_div_that_is_not_a_heading(tmp_path):
    record = run_on_page(SIDEBAR, ['Click "billing" under "Popular labels"', '"Opened billing (popular)" is shown'],
                         tmp_path)
    assert_passed(record)


@pytest.mark.parametrize("reader", ["rules", "grammar"])
def test_a_place_said_before_its_clause_narrows_it(tmp_path, reader):
    record = run_on_page(SIDEBAR, ['Under "Recent labels", click "billing"', '"Opened billing (recent)" is shown'],
                         tmp_path, Settings(expected_reader=reader))
    assert_passed(record)


RECIPIENTS = """<!doctype html><html><body>
<h2>Recent contacts</h2>
<ul><li><a href="#" onclick="out.textContent = 'To: the recent Ann Lee'">Ann Lee</a></li></ul>
<h2>New message</h2>
<input aria-label="Recipient search" placeholder="Search people" autocomplete="off">
<div class="results"></div>
<p id="out"></p>
<script>
  // Results are a plain list of divs, not a listbox, rendered a while after each key (as a fetch would).
  const field = document.querySelector('input'), results = document.querySelector('.results');
  let timer = null;
  field.addEventListener('keyup', () => {
    clearTimeout(timer);
    timer = setTimeout(() => {
      const q = field.value.toLowerCase();
      results.innerHTML = ['Ann Lee', 'Anna Bell', 'Bob Ray'].filter((n) => n.toLowerCase().includes(q))
        .map((n) => `<div class="item" onclick="out.textContent = 'To: ' + this.textContent">${n}</div>`).join('');
    }, 200);
  });
</script>
</body></html>"""


def test_pick_from_results_that_are_not_a_listbox_takes_what_appeared_after_the_typing(tmp_path):
    result = generate_on_page(RECIPIENTS, ['Type "Ann" into the Recipient search and pick "Ann Lee" from the results',
                                           '"To: Ann Lee" is shown'], tmp_path)
    outcome = result.outcomes[0]
    assert outcome.verdict.status == "passed", (outcome.verdict, done(outcome.record))
    assert outcome.replay is not None and outcome.replay.passed  # the suite's pickOption chose the same


REDRAWN_ON_HOVER = """<!doctype html><html><body>
<input aria-label="Package search" placeholder="Search packages" autocomplete="off">
<div class="results"></div>
<p id="out"></p>
<script>
  // The results draw themselves again whenever the pointer moves over one (a highlight, as list widgets do): the
  // option found before the pointer reached it is no longer on the page when it is clicked.
  const field = document.querySelector('input'), results = document.querySelector('.results');
  let shown = [], lit = -1;
  function draw() {
    results.innerHTML = shown.map((n, i) => `<div class="item${i === lit ? ' lit' : ''}">${n}</div>`).join('');
    results.querySelectorAll('.item').forEach((el, i) => {
      el.addEventListener('mouseover', () => { if (lit !== i) { lit = i; draw(); } });
      el.addEventListener('click', () => { out.textContent = 'Chose ' + shown[i]; });
    });
  }
  field.addEventListener('keyup', () => {
    shown = ['express', 'express-session'].filter((n) => n.includes(field.value)); lit = -1; draw();
  });
</script>
</body></html>"""


def test_pick_from_results_drawn_again_as_the_pointer_reaches_them_replays(tmp_path):
    result = generate_on_page(REDRAWN_ON_HOVER, ['Type "express" into the Package search and pick "express-session" '
                                                 'from the results', '"Chose express-session" is shown'], tmp_path)
    outcome = result.outcomes[0]
    assert outcome.verdict.status == "passed", (outcome.verdict, done(outcome.record))
    assert outcome.replay is not None and outcome.replay.passed, outcome.replay


TABLE_LAYOUT = """<!doctype html><html><body>
<table>
  <tr><td colspan="2" class="title"><b>Sign in</b></td></tr>
  <tr><td>Username:</td><td><input name="u"></td></tr>
  <tr><td>Password:</td><td><input name="p" type="password"></td></tr>
  <tr><td></td><td><button onclick="out.textContent = 'Signed in as ' + document.querySelector('[name=u]').value
    + ' with ' + document.querySelector('[name=p]').value.length + ' characters'">Go</button></td></tr>
</table>
<table>
  <tr><td class="title"><b>Register</b></td></tr>
  <tr><td><input name="email" placeholder="Email"></td></tr>
</table>
<p id="out"></p>
</body></html>"""


def test_fields_under_a_title_in_another_row_of_a_table_layout(tmp_path):
    record = run_on_page(TABLE_LAYOUT, ['Type "bob" into the first field under "Sign in"',
                                        'Type "secret" into the second field under "Sign in"', "Click Go",
                                        '"Signed in as bob with 6 characters" is shown'], tmp_path)
    assert_passed(record)


SEARCH_BAR = """<!doctype html><html><body>
<form onsubmit="event.preventDefault(); out.textContent = 'Searched for ' + q.value">
  <label for="q">Search</label> <input id="q" placeholder="Search">
  <button>Search</button>
</form>
<p id="out"></p>
</body></html>"""


def test_click_takes_the_button_not_the_field_of_the_same_name(tmp_path):
    record = run_on_page(SEARCH_BAR, ['Type "lamp" into the Search field', "Click Search",
                                      '"Searched for lamp" is shown'], tmp_path)
    assert_passed(record)


FEED = """<!doctype html><html><body>
<h2>Posts</h2>
<a class="card" href="#weekly" onclick="out.textContent = 'Opened the weekly report'" style="display: block">
  <h3>Weekly report</h3>
  <p>The numbers for the quarter, the hiring plan and what the support team learned from the last outage.</p>
  <span>#reports</span> <span>#quarterly</span>
</a>
<a class="card" href="#roadmap" style="display: block">
  <h3>Roadmap</h3><p>What ships next and what waits for another quarter, with the reasons for each choice.</p>
</a>
<button id="like" onclick="this.textContent = 'Like (' + (++likes) + ')'">Like (3)</button>
<p id="out"></p>
<script>let likes = 3;</script>
</body></html>"""


def test_a_count_in_a_label_and_a_card_link_are_named_by_the_tester_s_words(tmp_path):
    result = generate_on_page(FEED, ["Click Like", '"Like (4)" is shown', 'Click the "Weekly report" card',
                                     '"Opened the weekly report" is shown'], tmp_path)
    outcome = result.outcomes[0]
    assert outcome.verdict.status == "passed", (outcome.verdict, done(outcome.record))
    assert outcome.replay is not None and outcome.replay.passed
    feature = next((tmp_path / "suite" / "features").glob("*.feature")).read_text()
    steps = "\n".join(line for line in feature.splitlines() if line.strip().startswith(("When", "And", "Then")))
    assert '"Like"' in steps and "(3)" not in steps, steps
    assert '"Weekly report"' in steps and "…" not in steps and "numbers" not in steps, steps
    code = (tmp_path / "suite" / "features" / "step_definitions" / "steps.js").read_text()
    assert "(3)" not in code and "numbers for the quarter" not in code, code


SIGN_IN = """<!doctype html><html><body>
<h2>Sign up</h2>
<p>New here? <a href="#">Create an account</a></p>
<div class="panel">
  <form onsubmit="event.preventDefault(); out.textContent = 'Welcome ' + email.value">
    <label>Email <input id="email" type="email"></label>
    <label>Password <input type="password"></label>
    <button>Sign in</button>
  </form>
</div>
<form aria-label="Newsletter" onsubmit="event.preventDefault(); out.textContent = 'Subscribed ' + news.value">
  <label>Your email <input id="news" type="email"></label>
  <label>Your name <input></label>
  <button>Subscribe</button>
</form>
<p id="out"></p>
</body></html>"""


def test_a_form_is_named_by_its_own_title_never_by_a_heading_elsewhere(tmp_path):
    result = generate_on_page(SIGN_IN, ["Type ann@example.com into Email", "Type secret into Password",
                                        "Click Sign in", '"Welcome ann@example.com" is shown',
                                        "Type bo@example.com into Your email", "Type Bo into Your name",
                                        "Click Subscribe", '"Subscribed bo@example.com" is shown'], tmp_path)
    outcome = result.outcomes[0]
    assert outcome.verdict.status == "passed", (outcome.verdict, done(outcome.record))
    feature = next((tmp_path / "suite" / "features").glob("*.feature")).read_text()
    assert "Sign up form" not in feature, feature
    assert "Newsletter form" in feature, feature


LOGIN = """<!doctype html><html><body>
<form onsubmit="event.preventDefault(); out.textContent = 'Subscribed'">
  <h3>Newsletter</h3><label>Email <input type="email"></label><button>Subscribe</button>
</form>
<div class="login">
  <h2>Sign in to the admin</h2>
  <label for="u">Username</label> <input id="u">
  <label for="p">Password</label> <input id="p" type="password">
  <button onclick="out.textContent = (u.value === 'admin' && p.value === 'admin123') ? 'Welcome, admin'
                                     : 'Wrong credentials for ' + u.value">Log in</button>
</div>
<p id="out"></p>
</body></html>"""


@pytest.mark.parametrize("sentence", ['Log in with username "admin" and password "admin123"',
                                      'Sign in as "admin" / "admin123"', 'Log in as admin (password "admin123")',
                                      'Sign in with "admin" and password "admin123"',
                                      # unquoted one-word credentials, and values said with the fields they go in
                                      "Log in as admin with password admin123", "Sign in as admin / admin123",
                                      "Log in with username admin and password admin123",
                                      'Sign in with "admin" in "Username" and "admin123" in "Password", then click '
                                      '"Log in"'])
def test_signing_in_as_a_tester_says_it(tmp_path, sentence):
    record = run_on_page(LOGIN, [sentence, '"Welcome, admin" is shown'], tmp_path)
    assert_passed(record)


CANVAS = """<!doctype html><html><body>
<h2>Home Automation</h2>
<svg width="400" height="120">
  <g class="node" ondblclick="out.textContent = 'Editing Wake up'"><rect x="10" y="10" width="120" height="30" fill="#ddd"/>
    <text x="20" y="30">Wake up</text></g>
  <g class="node" ondblclick="out.textContent = 'Editing Lamp'"><rect x="10" y="60" width="120" height="30" fill="#ddd"/>
    <text x="20" y="80">Lamp</text></g>
</svg>
<p id="out"></p>
</body></html>"""


def test_a_double_click_opens_what_a_single_click_does_not(tmp_path):
    result = generate_on_page(CANVAS, ['Double-click the "Wake up" node', '"Editing Wake up" is shown'], tmp_path)
    outcome = result.outcomes[0]
    assert outcome.verdict.status == "passed", (outcome.verdict, done(outcome.record))
    assert outcome.replay is not None and outcome.replay.passed
    assert ".dblclick()" in (tmp_path / "suite" / "features" / "step_definitions" / "steps.js").read_text()


LATE_LOGIN = """<!doctype html><html><body><div id="app">Loading...</div>
<script>
  // A single-page app that renders its sign-in form a while after the page has loaded.
  setTimeout(() => {
    document.getElementById('app').innerHTML = `<h2>Sign in</h2>
      <label for="p">Password</label> <input id="p" type="password">
      <button onclick="out.textContent = p.value === 'open sesame' ? 'Budgets' : 'Wrong password'">Sign in</button>
      <p id="out"></p>`;
  }, 600);
</script></body></html>"""


def test_a_sign_in_form_rendered_after_the_load_is_waited_for(tmp_path):
    record = run_on_page(LATE_LOGIN, ['Sign in with the password "open sesame"', '"Budgets" is shown'], tmp_path)
    assert_passed(record)


FILES = """<!doctype html><html><body>
<h2>Files</h2>
<div role="grid" aria-label="Saved files" tabindex="0">
  <div class="card" onclick="document.getElementById('opened').textContent = 'Opened Household Budget'">
    <div><b>Household Budget</b></div><small>Available for download</small>
  </div>
</div>
<p id="opened"></p>
</body></html>"""


def test_a_container_that_fits_only_through_the_one_element_it_holds_is_that_element(tmp_path):
    record = run_on_page(FILES, ["Click Household Budget", '"Opened Household Budget" is shown'], tmp_path)
    assert_passed(record)
    assert done(record)[1].endswith("Household Budget Available for download"), done(record)


NOTICES = """<!doctype html><html><head><meta charset="utf-8"></head><body>
<header style="display: flex; justify-content: flex-end">
  <button class="menu-toggle" onclick="log('menu opened')"><i class="fa fa-bars"></i></button>
  <button aria-label="Settings" onclick="log('settings opened')"><svg class="icon-gear" width="16" height="16"></svg></button>
</header>
<div class="toast" id="tips"><b>Tip of the day</b><p>Press ? for help.</p>
  <button onclick="this.parentElement.remove()">×</button></div>
<div class="toast" id="welcome"><b>Welcome to Ledger!</b><p>Your budget is ready.</p>
  <button onclick="this.parentElement.remove()">×</button></div>
<p id="log"></p>
<script>function log(t) { document.getElementById('log').textContent = t; }</script>
</body></html>"""


@pytest.mark.parametrize("sentence", ['Close the "Welcome to Ledger!" notification with its × button',
                                      "Close the welcome notification"])
def test_closing_a_notification_takes_its_own_close_button(tmp_path, sentence):
    record = run_on_page(NOTICES, [sentence, 'Verify "Welcome to Ledger!" is not shown', '"Tip of the day" is shown'],
                         tmp_path)
    assert_passed(record)


@pytest.mark.parametrize(("sentence", "shown"), [("Click the hamburger icon", "menu opened"),
                                                 ("Click the gear", "settings opened"),
                                                 ("Open the main menu with the three-line icon at the far top right",
                                                  "menu opened"),
                                                 ("Open the main menu", "menu opened")])
def test_an_icon_only_control_is_named_by_the_picture_people_see(tmp_path, sentence, shown):
    record = run_on_page(NOTICES, [sentence, f'"{shown}" is shown'], tmp_path)
    assert_passed(record)


CARD_MENUS = """<!doctype html><html><body>
<aside><button aria-label="More" onclick="out.textContent = 'sidebar more'"><svg width="16" height="16"></svg></button></aside>
<section class="card"><h2>Invoice 7</h2>
  <button aria-label="Invoice actions" onclick="out.textContent = 'invoice menu'"><svg class="icon-ellipsis" width="16" height="16"></svg></button></section>
<p id="out"></p>
</body></html>"""


def test_a_picture_s_words_never_name_a_control_whose_own_name_is_another_word(tmp_path):
    # "More" is what three dots mean, but that button shows no dots: the one showing them is taken, by its picture
    record = run_on_page(CARD_MENUS, ['Click the three-dots button', '"invoice menu" is shown'], tmp_path)
    assert_passed(record)
    record = run_on_page(CARD_MENUS, ['Click the gear button'], tmp_path)
    assert_failed_at(record, 1, "action")


FRUIT = """<!doctype html><html><body>
<label for="f">Filter</label> <input id="f" oninput="filter(this.value)">
<ul id="fruit"><li>Apples</li><li>Apricots</li><li>Bananas</li></ul>
<script>
  function filter(v) {
    for (const li of document.querySelectorAll('#fruit li'))
      li.style.display = li.textContent.toLowerCase().startsWith(v.toLowerCase()) ? '' : 'none';
  }
</script>
</body></html>"""


def test_an_expected_result_that_describes_the_list_checks_each_text_shown_or_not(tmp_path):
    step = {"action": 'Type "ap" into the Filter field',
            "expected": 'The list shows "Apples" and "Apricots" and does not show "Bananas"'}
    record = run_on_page(FRUIT, [step], tmp_path)
    assert_passed(record)
    wrong = dict(step, expected='The list shows "Apples" and no longer shows "Apricots"')
    record = run_on_page(FRUIT, [wrong], tmp_path)
    assert record.verdict is not None and record.verdict.status == "failed", done(record)
    assert record.verdict.kind == "expectation" and "Apricots" in record.verdict.reason, record.verdict


FACETS = """<!doctype html><html><body>
<p>Suggested facets: <a href="#" onclick="log('status')">status</a>, <a href="#" onclick="log('owner')">owner</a>,
  created (date)</p>
<p>Columns: <a href="#" onclick="log('status column')">status</a>, <a href="#">title</a></p>
<div class="bar" role="progressbar" aria-valuenow="40"><div style="width: 40%; height: 8px; background: #4a4"></div></div>
<a href="#" onclick="log('active tickets')">active: 4</a>
<div class="legend"><a href="#" onclick="log('closed tickets')">closed: 6</a></div>
<p id="log"></p>
<script>function log(t) { document.getElementById('log').textContent = 'Chose ' + t; }</script>
</body></html>"""


def test_a_line_led_by_its_own_title_and_a_colon_is_a_section(tmp_path):
    record = run_on_page(FACETS, ['In the "Suggested facets" line, click "status"', '"Chose status" is shown'], tmp_path)
    assert_passed(record)


def test_a_part_named_by_what_it_is_is_found_by_its_role_and_holds_the_target(tmp_path):
    record = run_on_page(FACETS, ['Click the "active: 4" link under the progress bar', '"Chose active tickets" is shown'],
                         tmp_path)
    assert_passed(record)
    # a link elsewhere on the page, not under the bar: the place keeps it out, whatever its name
    record = run_on_page(FACETS, ['Click "status" under the progress bar'], tmp_path)
    assert_failed_at(record, 1, "action")
    assert "status" in record.verdict.reason and not [op for op in record.operations if op.ok and op.kind == "click"]


def test_a_place_the_page_shows_nowhere_fails_the_step_naming_it_and_never_widens_to_the_page(tmp_path):
    # "active: 4" alone on the page bears that name: the place still has to be found first
    record = run_on_page(FACETS, ['Click the "active: 4" link under the status chart'], tmp_path)
    assert_failed_at(record, 1, "action")
    assert "place 'status chart' not found" in record.verdict.reason, record.verdict
    assert not [op for op in record.operations if op.ok and op.kind == "click"]


ACTIONS = """<!doctype html><html><body>
<fieldset><legend>Action</legend>
<table>
  <tr><td><input type="radio" name="a" id="leave" checked></td><td><label for="leave">leave as new</label></td><td></td></tr>
  <tr><td><input type="radio" name="a" id="re"></td><td><label for="re">reassign to</label></td>
      <td><input type="text" name="owner"></td></tr>
  <tr><td><input type="radio" name="a" id="acc"></td><td><label for="acc">accept</label></td>
      <td><input type="text" name="note"></td></tr>
</table></fieldset>
<button onclick="document.getElementById('out').textContent = 'Owner ' + document.querySelector('[name=owner]').value">Submit</button>
<p id="out"></p>
</body></html>"""


def test_next_to_it_is_next_to_the_element_named_before_it(tmp_path):
    record = run_on_page(ACTIONS, ['Select the "reassign to" option and type "carol" in the text box next to it',
                                   'Click Submit', '"Owner carol" is shown'], tmp_path)
    assert_passed(record)


ICON_BUTTONS = """<!doctype html><html><body>
<header>
  <button class="MuiButtonBase-root MuiIconButton-root" onclick="log('settings')"><svg class="MuiSvgIcon-root"
    data-testid="SettingsIcon" width="16" height="16"><path d="M1 1h14v14H1z"></path></svg></button>
  <button class="MuiButtonBase-root MuiIconButton-root" onclick="log('info')"><svg class="MuiSvgIcon-root"
    data-testid="InfoOutlinedIcon" width="16" height="16"><path d="M1 1h14v14H1z"></path></svg></button>
  <button class="MuiButtonBase-root MuiIconButton-root" onclick="log('help')"><svg class="MuiSvgIcon-root"
    data-testid="HelpIcon" width="16" height="16"><path d="M1 1h14v14H1z"></path></svg></button>
</header>
<p id="log"></p>
<script>function log(t) { document.getElementById('log').textContent = 'Opened ' + t; }</script>
</body></html>"""


@pytest.mark.parametrize(("sentence", "shown"), [("Click the gear icon in the header", "settings"),
                                                 ("Click the info icon", "info")])
def test_an_icon_named_only_by_its_library_s_name_for_it(tmp_path, sentence, shown):
    result = generate_on_page(ICON_BUTTONS, [sentence, f'"Opened {shown}" is shown'], tmp_path)
    outcome = result.outcomes[0]
    assert outcome.verdict.status == "passed", outcome.verdict


PLACES = """<!doctype html><html><body>
<h2 style="display: none">Context navigation</h2>
<h2>Custom Query <small>(8 matches)</small></h2>
<p class="errornote">Please enter the correct username and password.</p>
<form><label>Username <input name="u"></label><button type="button">Log in</button></form>
<p>Forgot your password?</p>
</body></html>"""


def test_a_text_shown_above_below_or_next_to_a_part_of_the_page(tmp_path):
    steps = [{"action": "Look at the sign-in page",
              "expected": 'The error "Please enter the correct username and password." is shown above the form'},
             'Verify "(8 matches)" is shown next to the "Custom Query" heading',
             'Verify "(8 matches)" is shown next to the heading',  # the one a person sees, not a hidden one
             'Verify the text "Forgot your password?" is shown below the form']
    result = generate_on_page(PLACES, steps, tmp_path)
    outcome = result.outcomes[0]
    assert outcome.verdict.status == "passed", outcome.verdict
    assert outcome.replay is None or outcome.replay.passed, outcome.replay
    wrong = generate_on_page(PLACES, [steps[0], 'Verify the text "Forgot your password?" is shown above the form'],
                             tmp_path / "wrong").outcomes[0]
    assert wrong.verdict.status == "failed" and wrong.verdict.step == 2, wrong.verdict
    assert wrong.verdict.kind == "expectation", wrong.verdict


FACET = """<!doctype html><html><head><meta charset="utf-8"></head><body>
<table><thead><tr><th>title</th><th>status</th></tr></thead>
<tbody><tr><td>Login fails</td><td><a href="#" onclick="log('the Login fails status')">Open</a></td></tr>
<tr><td>Slow search</td><td><a href="#" onclick="log('the Slow search status')">Closed</a></td></tr></tbody></table>
<div class="facet">
  <p class="facet-name"><strong>status <span>2</span></strong> <a href="#" onclick="log('cleared')">✖</a></p>
  <ul><li><a href="#" onclick="log('the Open facet')">Open</a> 1</li><li><a href="#" onclick="log('x')">Closed</a> 1</li></ul>
</div>
<p id="log"></p>
<script>function log(t) { document.getElementById('log').textContent = 'Chose ' + t; }</script>
</body></html>"""


def test_a_section_titled_with_a_count_and_a_glyph_holds_the_element_before_a_column_of_that_name(tmp_path):
    record = run_on_page(FACET, ['Click "Open" in the status facet', '"Chose the Open facet" is shown'], tmp_path)
    assert_passed(record)


STATES = """<!doctype html><html><body>
<h2>Import nodes</h2>
<label class="switch"><input type="checkbox" style="opacity: 0; position: absolute" id="keep">
  <span class="slider"></span> Keep the old flows</label>
<p>Paste here</p><textarea aria-label="Clipboard"></textarea>
<button id="import" disabled>Import</button>
<button aria-expanded="false" onclick="this.setAttribute('aria-expanded', 'true'); more.hidden = false">Options</button>
<div id="more" hidden>More options</div>
<script>
  document.querySelector('textarea').addEventListener('input', (e) => { document.getElementById('import').disabled = !e.target.value; });
</script>
</body></html>"""


def test_states_of_named_controls_are_checked_in_generation_and_in_the_replay(tmp_path):
    steps = ["Verify the Import button is disabled", "Verify the Clipboard field is empty",
             'Verify the "Keep the old flows" switch is unticked', 'Click the "Keep the old flows" switch',
             'Verify the "Keep the old flows" switch is ticked', 'Type "[]" into the Clipboard field',
             "Verify the Import button is no longer disabled", "Verify the Options button is collapsed",
             "Click Options", "Verify the Options button is expanded"]
    result = generate_on_page(STATES, steps, tmp_path)
    outcome = result.outcomes[0]
    assert outcome.verdict.status == "passed", (outcome.verdict, done(outcome.record))
    assert outcome.replay is not None and outcome.replay.passed, outcome.replay
    feature = next((tmp_path / "suite" / "features").glob("*.feature")).read_text()
    assert "the Import button is disabled" in feature and "the Import button is enabled" in feature, feature


@pytest.mark.parametrize("step", ["Verify the Import button is enabled", "Verify the Clipboard field is not empty",
                                  'Verify the "Keep the old flows" switch is ticked'])
def test_a_control_in_another_state_fails_the_step_saying_which_state_it_is_in(tmp_path, step):
    record = run_on_page(STATES, [step], tmp_path)
    assert_failed_at(record, 1, "expectation")
    assert any(w in record.verdict.reason for w in ("disabled", "empty", "unchecked")), record.verdict.reason


SEARCH_MODULE = """<!doctype html><html><body>
<div id="content"><h1>Select user to change</h1>
<table><tr><td><input type="checkbox" name="pick"></td><td>writer</td></tr></table></div>
<div class="module"><h2>Search</h2>
  <div id="toolbar"><form onsubmit="event.preventDefault(); out.textContent = 'Searched for ' + this.q.value">
    <div><input type="text" name="q" id="searchbar"> <input type="submit" value=""></div></form></div></div>
<div class="module"><h2>Filter</h2><a href="#">By staff status</a></div>
<p id="out"></p>
</body></html>"""


def test_a_field_nothing_names_is_named_by_the_heading_of_the_box_its_form_fills(tmp_path):
    record = run_on_page(SEARCH_MODULE, ['Type "writer" into the Search box and press Enter',
                                         '"Searched for writer" is shown'], tmp_path)
    assert_passed(record)


ROWS = """<!doctype html><html><body>
<h2>Transactions</h2>
<table><tr><th>Payee</th><th>Notes</th><th>Payment</th></tr>
  <tr><td>Starbucks</td><td>Team coffee</td><td>12.50</td></tr>
  <tr><td>Shell</td><td>Fuel</td><td>40.00</td></tr></table>
<h2>Budget</h2>
<div class="grid" style="display: grid; grid-template-columns: 150px 100px 100px">
  <div>Groceries</div><div>400.00</div><div>565.70</div>
  <div>Rent</div><div>1,200.00</div><div>0.00</div>
</div>
</body></html>"""


def test_the_texts_an_expected_result_says_a_row_holds_are_checked_in_that_row(tmp_path):
    steps = [{"action": "Look at the transactions",
              "expected": 'The table has a "Starbucks" row with the notes "Team coffee" and a payment of 12.50'},
             'Verify the page shows the "Groceries" row with 400.00 budgeted and a balance of 565.70']
    result = generate_on_page(ROWS, steps, tmp_path)
    outcome = result.outcomes[0]
    assert outcome.verdict.status == "passed", (outcome.verdict, done(outcome.record))
    assert outcome.replay is not None and outcome.replay.passed, outcome.replay
    feature = next((tmp_path / "suite" / "features").glob("*.feature")).read_text()
    assert 'in the row of "Starbucks"' in feature and 'in the row of "Groceries"' in feature, feature


@pytest.mark.parametrize("expected", ['The "Starbucks" row shows "Fuel"', 'The "Groceries" row shows "1,200.00"'])
def test_a_text_shown_in_another_row_fails_the_row_check(tmp_path, expected):
    record = run_on_page(ROWS, [{"action": "Look at the table", "expected": expected}], tmp_path)
    assert_failed_at(record, 1, "expectation")


SIDE_ICONS = """<!doctype html><html><head><meta charset="utf-8"></head><body>
<div style="width: 400px">
  <div style="display: flex; align-items: center; gap: 8px">
    <button aria-label="Settings" onclick="out.textContent = 'Page settings'">⚙</button><h3>Installation</h3>
    <button aria-label="Settings" onclick="out.textContent = 'Install settings'">⚙</button></div>
  <div style="display: flex; gap: 8px"><code>npm install csv-lite</code>
    <button title="Copy" onclick="out.textContent = 'Copied npm'">⧉</button></div>
  <div style="display: flex; gap: 8px"><code>pnpm install csv-lite</code>
    <button title="Copy" onclick="out.textContent = 'Copied pnpm'">⧉</button></div>
  <div style="display: flex; align-items: center; gap: 8px; margin-top: 300px"><h3>Readme</h3>
    <button aria-label="Settings" onclick="out.textContent = 'Readme settings'">⚙</button></div>
</div>
<p id="out"></p>
</body></html>"""


@pytest.mark.parametrize(("step", "shown"), [
    ('Click the gear icon to the right of the "Installation" heading', "Install settings"),
    ('Click the copy icon at the end of the "pnpm install csv-lite" line', "Copied pnpm"),
    ('Click the gear icon to the left of the "Installation" heading', "Page settings"),
])
def test_an_element_to_the_right_of_or_at_the_end_of_a_text_is_the_one_by_it(tmp_path, step, shown):
    record = run_on_page(SIDE_ICONS, [step, f'"{shown}" is shown'], tmp_path)
    assert_passed(record)


MENU_BUTTON = """<!doctype html><html><head><meta charset="utf-8"></head><body>
<div class="toolbar"><button>Import</button><button>Add New</button>
  <button aria-label="Reconcile">✓</button>
  <button aria-label="Account menu" onclick="menu.hidden = false">⋯</button></div>
<div id="menu" hidden><div role="menuitem" onclick="out.textContent = 'Closing the account'">Close account</div>
  <div role="menuitem">Export</div></div>
<p id="out"></p>
</body></html>"""


def test_a_button_whose_name_says_menu_is_the_menu_the_tester_names(tmp_path):
    record = run_on_page(MENU_BUTTON, ['Click the "..." icon button at the right end of the toolbar (its label is '
                                       '"Account menu") and choose "Close account"', '"Closing the account" is shown'],
                         tmp_path)
    assert_passed(record)


ACTION_RADIOS = """<!doctype html><html><body>
<fieldset id="action"><legend>Action</legend>
  <div><input type="radio" id="leave" name="action" checked> <label for="leave">leave</label> as new</div>
  <div><input type="radio" id="resolve" name="action"> <label for="resolve">resolve</label> as
    <select id="resolution"><option>fixed</option><option>duplicate</option></select></div>
  <div><input type="radio" id="reassign" name="action"> <label for="reassign">reassign</label> to
    <input id="owner" value="anonymous"></div>
</fieldset>
<button onclick="out.textContent = document.querySelector('[name=action]:checked').id + ' ' + resolution.value">Submit</button>
<p id="out"></p>
</body></html>"""


def test_a_radio_is_named_by_the_words_its_line_reads_after_its_label(tmp_path):
    record = run_on_page(ACTION_RADIOS, ['In the Action box, select the "resolve as" radio button and choose '
                                         '"duplicate" in the dropdown next to it', 'Click Submit',
                                         '"resolve duplicate" is shown'], tmp_path)
    assert_passed(record)


QUERY_EDITOR = """<!doctype html><html><body>
<form onsubmit="event.preventDefault(); out.textContent = 'Ran: ' + sql.value">
  <label for="sql">Custom SQL query</label><textarea id="sql">select * from issues</textarea>
  <button>Run SQL</button></form>
<p id="out"></p>
</body></html>"""


def test_deleting_the_text_of_the_editor_just_clicked_clears_it(tmp_path):
    record = run_on_page(QUERY_EDITOR, ['Click into the "Custom SQL query" editor and delete the query that is in it',
                                        'Type "select 1"', 'Click the "Run SQL" button', '"Ran: select 1" is shown'],
                         tmp_path)
    assert_passed(record)


PREFS = """<!doctype html><html><body>
<h1>Timeline</h1>
<form id="prefs" onchange="out.textContent = Array.from(document.querySelectorAll('input:checked')).map((i) => i.name).join(' ')">
  <fieldset><label><input type="checkbox" name="milestones" checked> Milestones</label>
    <label><input type="checkbox" name="wiki" checked> Wiki changes</label></fieldset></form>
<p id="out"></p>
</body></html>"""


def test_a_box_described_by_one_word_the_page_shows_nowhere_is_a_place_not_found(tmp_path):
    # nothing titles the box "options": the checkbox is not taken on its name alone
    record = run_on_page(PREFS, ['Untick "Wiki changes" in the options box at the top right',
                                 'Verify "milestones" is shown'], tmp_path)
    assert_failed_at(record, 1, "action")
    assert "place 'options' not found" in record.verdict.reason, record.verdict


SVG = '<svg width="16" height="16" viewBox="0 0 16 16"><path d="M2 2h12v12H2z"/></svg>'
UNNAMED_ICONS = f"""<!doctype html><html><body>
<div style="width: 420px">
  <div style="display: flex; justify-content: space-between"><h4>Installation</h4>
    <button id="basic-button" onclick="out.textContent = 'Settings opened'">{SVG}</button></div>
  <div style="display: flex; justify-content: space-between"><span>npm install csv-lite</span>
    <button aria-label="npm install csv-lite" onclick="out.textContent = 'Copied npm'">{SVG}</button></div>
  <div style="display: flex; justify-content: space-between"><span>pnpm install csv-lite</span>
    <button aria-label="pnpm install csv-lite" onclick="out.textContent = 'Copied pnpm'">{SVG}</button></div>
  <div style="display: flex; justify-content: space-between; margin-top: 200px"><h4>Versions</h4>
    <button onclick="out.textContent = 'Deleted'">{SVG}</button>
    <button onclick="out.textContent = 'Sorted'">{SVG}</button></div>
  <div style="display: flex; justify-content: space-between; margin-top: 200px"><h4>Readme</h4>
    <button aria-label="Settings" onclick="out.textContent = 'Readme settings'">{SVG}</button></div>
</div>
<p id="out"></p>
</body></html>"""


@pytest.mark.parametrize(("step", "shown"), [
    ('Click the small gear icon to the right of the "Installation" heading', "Settings opened"),
    ('Click the copy icon at the end of the "pnpm install csv-lite" line', "Copied pnpm"),
])
def test_an_icon_nothing_names_is_the_one_control_without_text_at_the_place_said(tmp_path, step, shown):
    record = run_on_page(UNNAMED_ICONS, [step, f'"{shown}" is shown'], tmp_path)
    assert_passed(record)


@pytest.mark.parametrize("step", ['Click the gear icon to the right of the "Versions" heading',  # two unnamed there
                                  'Click the trash icon next to "Readme"'])  # the only one there is Settings
def test_an_icon_by_place_is_never_a_guess_between_two_nor_one_named_for_another_purpose(tmp_path, step):
    record = run_on_page(UNNAMED_ICONS, [step], tmp_path)
    assert_failed_at(record, 1, "action")


def test_that_icon_is_the_element_acted_on_before_when_its_words_name_it(tmp_path):
    record = run_on_page(UNNAMED_ICONS, ['Hover over the copy icon at the end of the "pnpm install csv-lite" line',
                                         'Click that copy icon', '"Copied pnpm" is shown'], tmp_path)
    assert_passed(record)
    record = run_on_page(UNNAMED_ICONS, ['Hover over the copy icon at the end of the "pnpm install csv-lite" line',
                                         'Click that trash icon'], tmp_path)
    assert_failed_at(record, 2, "action")


STATELESS = """<!doctype html><html><body>
<label class="switch"><input type="checkbox" role="switch" id="dark"> Dark mode</label>
<p><span id="cart">Cart</span></p>
<table><tr><td>Starbucks Reserve</td><td>Team coffee</td></tr><tr><td>Starbucks</td><td>Fuel</td></tr></table>
</body></html>"""


@pytest.mark.parametrize("step", ['Verify the "Dark mode" switch is enabled',  # on, or not greyed out? say which
                                  'Verify "Cart" is not selected',  # a text is neither selected nor not
                                  'Verify the "Starbucks" row shows "Team coffee"'])  # that is "Starbucks Reserve"
def test_a_state_or_row_the_element_does_not_have_fails_rather_than_passes(tmp_path, step):
    record = run_on_page(STATELESS, [step], tmp_path)
    assert record.verdict is not None and record.verdict.status == "failed", done(record)
    assert record.verdict.step == 1, record.verdict


SEARCH_SCOPE = """<!doctype html><html><body>
<form onsubmit="event.preventDefault(); out.textContent = 'Searching ' + scope.value">
  <input name="q" placeholder="Search">
  <select id="scope"><option>Everything</option><option>Pages</option><option>Blog posts</option></select>
  <select id="sort"><option>Newest</option><option>Oldest</option></select>
  <button>Go</button></form>
<p id="out"></p>
</body></html>"""


def test_a_dropdown_is_named_by_the_option_it_shows(tmp_path):
    record = run_on_page(SEARCH_SCOPE, ['Choose "Pages" in the dropdown next to the box (it shows "Everything")',
                                        'Click "Go"', '"Searching Pages" is shown'], tmp_path)
    assert_passed(record)


SECTIONS = """<!doctype html><html><body>
<nav>
  <div class="group"><div class="group-title"><span>On budget</span> <span class="amount">1,250.00</span></div>
    <a href="#">Checking</a><a href="#">Savings</a></div>
  <div class="group"><div class="group-title"><span>Off budget</span> <span class="amount">80.00</span></div>
    <a href="#">Brokerage</a></div>
</nav>
<aside><h3 class="t">Labels</h3><ul><li>bug</li><li>docs</li></ul><h3 class="t">Archived</h3><ul><li>wontfix</li></ul>
</aside>
<div class="selector">
  <div class="available"><h2>Available categories</h2>
    <select multiple size="4" id="from"><option>News</option><option>Tips</option></select></div>
  <button type="button" onclick="document.getElementById('to').append(document.querySelector('#from option:last-child'))">
    Choose</button>
  <div class="chosen"><h2>Chosen categories</h2><select multiple size="4" id="to"></select></div>
</div>
<div class="selector">
  <div class="available"><h2>Available groups</h2><select multiple size="4"><option>Readers</option></select></div>
  <div class="chosen"><h2>Chosen groups</h2><select multiple size="4"><option>Editors</option></select></div>
</div>
</body></html>"""


def test_a_text_listed_under_a_title_is_checked_in_the_part_the_title_heads(tmp_path):
    steps = [{"action": "Look at the sidebar",
              "expected": '"Checking" and "Savings" are listed under "On budget", "Brokerage" under "Off budget", '
                          '"docs" is listed under "Labels" and "wontfix" is not'},
             {"action": 'Click "Choose"',
              "expected": '"Tips" is now in "Chosen categories" and no longer in "Available categories"'},
             {"action": "Look at the groups", "expected": '"Editors" is listed under "Chosen groups" and "Readers" is not'}]
    outcome = generate_on_page(SECTIONS, steps, tmp_path).outcomes[0]
    assert outcome.verdict.status == "passed" and outcome.replay.passed, (outcome.verdict, outcome.replay)
    for wrong in ('"Brokerage" is listed under "On budget"', 'Verify "wontfix" is listed under "Labels"',
                  '"Tips" is in "Available categories"', '"Tips" is no longer in "Chosen categories"',
                  '"Readers" is in "Chosen categories"', '"Editors" is in "Available groups"'):
        scenario = [{"action": steps[1]["action"], "expected": wrong}]
        outcome = generate_on_page(SECTIONS, scenario, tmp_path / str(len(wrong))).outcomes[0]
        assert (outcome.verdict.status, outcome.verdict.step, outcome.verdict.kind) == ("failed", 1, "expectation"), \
            (wrong, outcome.verdict)


SELECTOR = """<!doctype html><html><body><form>
<p><label for="title">Title</label> <input id="title"></p>
<div class="selector">
  <div class="available"><h2>Available categories</h2>
    <p><label for="filter">Filter</label> <input id="filter"></p>
    <select multiple size="4" id="from"><option>News</option><option>Tips</option></select></div>
  <a href="#" title="Choose" class="add" onclick="for (const o of [...document.querySelectorAll('#from option:checked')])
    document.getElementById('to').append(o); return false;">&rarr;</a>
  <div class="chosen"><h2>Chosen categories</h2><select multiple size="4" id="to"></select></div>
</div>
<div class="range"><h2>Dates</h2><input name="a"> <input name="b"></div>
</form></body></html>"""


def test_a_list_nothing_names_is_named_by_the_title_its_own_box_starts_with(tmp_path):
    steps = [{"action": 'Select "Tips" in the "Available categories" list and click the arrow whose tooltip is "Choose"',
              "expected": '"Tips" is now in "Chosen categories" and no longer in "Available categories"'}]
    outcome = generate_on_page(SELECTOR, steps, tmp_path).outcomes[0]
    assert outcome.verdict.status == "passed" and outcome.replay.passed, (outcome.verdict, outcome.replay)
    # two fields nothing names under one title: the title names neither
    record = run_on_page(SELECTOR, ['Type "2020" into the Dates field'], tmp_path / "dates")
    assert record.verdict.status == "failed" and record.verdict.step == 1, record.verdict


TIPPED_ICON = """<!doctype html><html><body>
<p>Published from: <input name="d"> <a href="#" onclick="log('date')"><span class="date-icon" title="Choose a Date"
  style="display: inline-block; width: 16px; height: 16px; background: #888"></span></a>
  <a href="#" onclick="log('time')"><span class="clock-icon" title="Choose a Time"
  style="display: inline-block; width: 16px; height: 16px; background: #888"></span></a></p>
<p id="log"></p><script>function log(t) { document.getElementById('log').textContent = 'Opened ' + t; }</script>
</body></html>"""


def test_an_icon_link_is_named_by_the_tooltip_of_the_picture_it_holds(tmp_path):
    record = run_on_page(TIPPED_ICON, [{"action": 'Next to "Published from", click the calendar icon "Choose a Date"',
                                        "expected": '"Opened date" is shown'}], tmp_path)
    assert_passed(record)


CONTROLS = """<!doctype html><html><body>
<h1>Sign in</h1><p><label>Password <input type="password"></label></p>
<div role="dialog" aria-label="Import nodes"><h2>Import nodes</h2><textarea aria-label="Notes"></textarea>
  <button disabled>Import</button><button>Close</button></div>
</body></html>"""


def test_the_controls_a_description_says_are_there_are_checked_in_generation_and_in_the_suite(tmp_path):
    steps = [{"action": "Look at the page",
              "expected": 'The "Import nodes" dialog is shown with a Password field, an empty Notes text area and a '
                          'disabled "Import" button'}]
    outcome = generate_on_page(CONTROLS, steps, tmp_path).outcomes[0]
    assert outcome.verdict.status == "passed" and outcome.replay.passed, (outcome.verdict, outcome.replay)
    for wrong in ('The dialog is shown with an enabled "Import" button', 'The page is shown with a "Sign up" button'):
        outcome = generate_on_page(CONTROLS, [{"action": "Look at the page", "expected": wrong}],
                                   tmp_path / str(len(wrong))).outcomes[0]
        assert (outcome.verdict.status, outcome.verdict.step) == ("failed", 1), (wrong, outcome.verdict)


COUNTED = """<!doctype html><html><body>
<input placeholder="filter modules" oninput="for (const m of document.querySelectorAll('.module'))
  m.style.display = m.querySelector('.name').textContent.includes(this.value) ? '' : 'none'">
<div class="modules">
  <div class="module"><span class="name">node-sqlite</span> <span class="version">1.1.0</span></div>
  <div class="module featured"><span class="name">node-email</span> <span class="version">2.0.1</span></div>
  <div class="module"><span class="name">dashboard</span> <span class="version">3.6.5</span></div>
</div>
<p>Mail alerts need node-email.</p>
<table>
  <tr><th>User</th><th>Email</th></tr>
  <tr><td>writer</td><td>writer@example.com</td></tr>
  <tr><td>admin</td><td>admin@example.com</td></tr>
</table>
</body></html>"""


def test_a_count_of_the_list_holding_a_text_is_checked_in_generation_and_in_the_replay(tmp_path):
    steps = [{"action": "Look at the modules",
              "expected": 'Three modules are listed, including "node-sqlite" and "dashboard"'},
             'Verify the table lists two rows: "writer" and "admin"',
             {"action": 'Type "sql" into the "filter modules" box',
              "expected": 'Only "node-sqlite" is left in the list and "dashboard" is no longer shown'}]
    result = generate_on_page(COUNTED, steps, tmp_path)
    outcome = result.outcomes[0]
    assert outcome.verdict.status == "passed", (outcome.verdict, done(outcome.record))
    assert outcome.replay is not None and outcome.replay.passed, outcome.replay
    counts = [op for op in outcome.record.operations if op.kind == "assert_count"]
    assert [(op.locator.value, op.value) for op in counts] == [
        ("node-sqlite", "Three modules"), ("writer", "two rows"), ("node-sqlite", "one")]


@pytest.mark.parametrize("expected", ['Two modules are listed, including "node-sqlite"',
                                      'Only "node-email" is left in the list',
                                      '"writer" is the only user listed'])
def test_a_wrong_count_fails_the_step_saying_how_many_there_are(tmp_path, expected):
    record = run_on_page(COUNTED, [{"action": "Look at the modules", "expected": expected}], tmp_path)
    assert_failed_at(record, 1, "expectation")
    assert "records, not" in record.verdict.reason, record.verdict.reason
    # a sentence that merely mentions the text is no list of one ("Mail alerts need node-email.")


FILTER_ROW = """<!doctype html><html><body><h1>issues</h1>
<form class="filters">
  <div class="search-row"><label for="s">Search:</label><input id="s" type="search" name="_search"></div>
  <div class="filter-row">
    <select name="_filter_column"><option value="">- column -</option><option>status</option><option>votes</option>
    </select>
    <select name="_filter_op"><option value="exact">=</option><option value="gt">&gt;</option></select>
    <input type="text" name="_filter_value">
  </div>
  <input type="submit" value="Apply">
</form>
</body></html>"""


def test_a_row_described_in_words_the_page_shows_nowhere_is_a_place_not_found(tmp_path):
    # the page names no "filter row" (only a class does): the dropdown is not taken on its name alone
    record = run_on_page(FILTER_ROW, ['Select "status" in the column dropdown of the filter row'], tmp_path)
    assert_failed_at(record, 1, "action")
    assert "place 'filter' not found" in record.verdict.reason, record.verdict
    record = run_on_page(FILTER_ROW, ['Select "status" in the priority dropdown of the filter row'], tmp_path)
    assert_failed_at(record, 1, "action")


STARTING = """<!doctype html><html><head><meta charset="utf-8"></head><body>
<div id="app"><p>Initializing the connection to the local database…</p></div>
<script>
  // an app that starts its local database (no request) before its first view
  setTimeout(() => { document.getElementById('app').innerHTML = '<h1>Sign in to this instance</h1>'; }, 3800);
</script>
</body></html>"""


def test_a_page_that_says_it_is_still_loading_is_waited_for_before_the_first_check(tmp_path):
    # the view comes later than a check waits (3 s), sooner than an action does (5 s)
    assert_green(generate_on_page(STARTING, ['Verify the heading "Sign in to this instance" is shown'], tmp_path))


BUILDING = """<!doctype html><html><head><meta charset="utf-8"></head><body><div id="root"></div>
<script>
  // an app whose scripts build its first view a while after the load, saying nothing meanwhile
  setTimeout(() => { document.getElementById('root').innerHTML = '<h1>Sign in to this instance</h1>'; }, 3800);
</script>
</body></html>"""


def test_a_page_that_shows_nothing_yet_is_waited_for_before_the_first_check(tmp_path):
    assert_green(generate_on_page(BUILDING, ['Verify the heading "Sign in to this instance" is shown'], tmp_path))


OPENING = """<!doctype html><html><head><meta charset="utf-8"></head><body>
<div id="app"><button onclick="open_()">Household Budget</button></div>
<script>
  // a file fetched and opened by a worker of the page's: no request of the page's own, only what the page says
  function open_() {
    document.getElementById('app').innerHTML = '<p>Downloading…</p>';
    setTimeout(() => { document.getElementById('app').innerHTML = '<nav><h3>On budget</h3><p>Checking</p></nav>'; },
               3800);
  }
</script>
</body></html>"""


def test_a_page_that_says_it_is_downloading_after_a_click_is_waited_for_before_the_next_check(tmp_path):
    steps = [{"action": 'Click "Household Budget"', "expected": '"Checking" is shown under "On budget"'}]
    assert_green(generate_on_page(OPENING, steps, tmp_path))


COUNTER = """<!doctype html><html><body><h2>Install</h2>
<ul><li>node-red-dashboard</li><li>node-red-node-email</li></ul><span class="count">2 / 2</span>
<label>Total <input id="t" value="12.50" readonly></label>
</body></html>"""


def test_a_value_of_words_that_name_no_element_is_a_text_those_words_say_what_it_is(tmp_path):
    record = run_on_page(COUNTER, [{"action": "Look at the list", "expected": 'the counter reads "2 / 2"'},
                                   "Verify the total shows 12.50"], tmp_path)
    assert_passed(record)
    kinds = [(op.kind, op.value) for op in record.operations if op.kind.startswith("assert")]
    assert kinds == [("assert_text", "2 / 2"), ("assert_value", "12.50")], kinds


@pytest.mark.parametrize("expected", ['the counter reads "3 / 3"', 'the Total reads "3 / 3"'])
def test_a_value_of_words_that_name_no_element_still_fails_when_the_text_is_not_shown(tmp_path, expected):
    record = run_on_page(COUNTER, [{"action": "Look at the list", "expected": expected}], tmp_path)
    assert_failed_at(record, 1, "expectation")


COLUMNS = """<!doctype html><html><body>
<table>
  <thead><tr><th><a href="#">title</a></th><th><a href="#">status</a> <svg width="10" height="10"></svg></th>
    <th>priority</th></tr></thead>
  <tbody>
    <tr><td>Login fails on the second try</td><td>Open</td><td>High</td></tr>
    <tr><td>Export stops at 500 photos</td><td>Closed</td><td>Open question</td></tr>
  </tbody>
</table>
<div style="display: grid; grid-template-columns: 220px 120px; margin-top: 30px">
  <div>Payee</div><div>Amount</div>
  <div>Starbucks Reserve Roastery</div><div>12.50</div>
</div>
</body></html>"""


def test_a_text_in_a_column_is_checked_below_its_header_in_generation_and_in_the_replay(tmp_path):
    steps = [{"action": "Look at the table", "expected": '"Closed" is listed in the status column'},
             'Verify "Starbucks Reserve Roastery" is shown in the "Payee" column']
    assert_green(generate_on_page(COLUMNS, steps, tmp_path))


@pytest.mark.parametrize("expected", ['"High" is listed in the status column', '"12.50" is shown in the Payee column'])
def test_a_text_in_another_column_fails_the_check(tmp_path, expected):
    record = run_on_page(COLUMNS, [{"action": "Look at the table", "expected": expected}], tmp_path)
    assert_failed_at(record, 1, "expectation")


DIAGRAM = """<!doctype html><html><body>
<div id="canvas" style="width: 600px; height: 300px; position: relative; border: 1px solid #ccc">
  <div class="node" style="position: absolute; left: 20px; top: 20px; padding: 8px; border: 1px solid">Alpha</div>
  <div class="node" style="position: absolute; left: 200px; top: 120px; padding: 8px; border: 1px solid">Beta</div>
  <div class="node" style="position: absolute; left: 400px; top: 220px; padding: 8px; border: 1px solid">Gamma</div>
  <svg width="600" height="300" style="position: absolute; left: 0; top: 0; pointer-events: none"></svg>
</div>
<p id="log"></p>
<script>
  // the canvas listens for every node (one listener, as diagram editors do)
  document.getElementById('canvas').addEventListener('dblclick', (e) => {
    const node = e.target.closest('.node');
    document.getElementById('log').textContent = node ? node.textContent + ' opened' : 'empty canvas';
  });
</script>
</body></html>"""


def test_a_node_of_a_canvas_is_the_element_showing_its_words_never_the_middle_of_the_canvas(tmp_path):
    record = run_on_page(DIAGRAM, ['Double-click the "Gamma" node', '"Gamma opened" is shown'], tmp_path)
    assert_passed(record)
    assert not any("empty canvas" in line for line in done(record)), done(record)


FACET_LIST = """<!doctype html><html><body><h1>issues</h1>
<div class="facet-info"><p><a href="#">status</a></p>
  <ul><li><a href="#">Open</a> 7</li><li><a href="#">Closed</a> 4</li><li><a href="#">Won't fix</a> 3</li></ul></div>
</body></html>"""


def test_a_list_of_texts_said_of_words_that_name_no_element_is_each_text_shown(tmp_path):
    record = run_on_page(FACET_LIST, ["Verify the status facet shows Open 7, Closed 4 and Won't fix 3"], tmp_path)
    assert_passed(record)
    assert [op.value for op in record.operations if op.kind == "assert_text"] == ["Open 7", "Closed 4", "Won't fix 3"]


def test_a_list_of_texts_with_one_not_shown_fails(tmp_path):
    record = run_on_page(FACET_LIST, ["Verify the status facet shows Open 7, Closed 5 and Won't fix 3"], tmp_path)
    assert record.verdict is not None and record.verdict.status == "failed", done(record)
    assert record.verdict.step == 1 and "Closed 5" in record.verdict.reason, record.verdict


TREE = """<!doctype html><html><body>
<p>Validation rules live in the flow.</p>
<ul class="tree">
  <li><span onclick="kids.hidden = !kids.hidden" style="cursor: pointer">Order Processing</span>
    <ul id="kids" hidden><li>Validation</li><li>New order</li></ul></li>
  <li><span style="cursor: pointer">Weather Station</span></li>
</ul>
</body></html>"""


def test_it_in_an_expected_result_places_texts_by_what_the_action_named(tmp_path):
    steps = [{"action": 'Click "Order Processing" in the tree',
              "expected": 'The entry opens and shows "Validation" and "New order" beneath it'}]
    assert_green(generate_on_page(TREE, steps, tmp_path))


SORTED = """<!doctype html><html><body>
<h3>3 rows</h3>
<table>
  <thead><tr><th><a href="#" onclick="sortVotes(); return false">votes</a></th><th>title</th></tr></thead>
  <tbody id="rows">
    <tr><td>12</td><td>Login fails on the second try</td></tr>
    <tr><td>40</td><td>Missing validation in login screen</td></tr>
    <tr><td>0</td><td>Password rules shows wrong value</td></tr>
  </tbody>
</table>
<script>
  function sortVotes() {
    const body = document.getElementById('rows');
    Array.from(body.rows).sort((a, b) => Number(a.cells[0].textContent) - Number(b.cells[0].textContent))
      .forEach((row) => body.appendChild(row));
  }
</script>
</body></html>"""


def test_a_row_picked_by_its_order_is_checked_in_generation_and_in_the_replay(tmp_path):
    steps = ['Verify the first row of the table is "Login fails on the second try" with 12 votes',
             {"action": 'Click the "votes" column header',
              "expected": 'The first row is "Password rules shows wrong value" with 0 votes and the last row shows '
                          '"Missing validation in login screen"'}]
    assert_green(generate_on_page(SORTED, steps, tmp_path))


def test_a_text_in_another_row_than_the_one_picked_fails_the_check(tmp_path):
    record = run_on_page(SORTED, ['Verify the first row shows "Missing validation in login screen"'], tmp_path)
    assert_failed_at(record, 1, "expectation")
    assert "Login fails on the second try" in record.verdict.reason, record.verdict.reason


def test_rows_said_in_that_order_are_checked_top_to_bottom_and_out_of_order_fail(tmp_path):
    steps = [{"action": 'Click the "votes" column header',
              "expected": "The table has the columns \"votes\" and \"title\" and its rows are 0 \"Password rules shows "
                          "wrong value\", 12 Login fails on the second try and \"Missing validation\" 40, in that order"}]
    assert_green(generate_on_page(SORTED, steps, tmp_path / "sorted"))
    record = run_on_page(SORTED, ['Verify its rows are "Missing validation" 40 and Login fails 12, in that order'],
                         tmp_path / "unsorted")
    assert_failed_at(record, 1, "expectation")
    assert "Login fails on the second try" in record.verdict.reason, record.verdict.reason


def test_sorting_the_table_by_a_column_clicks_that_column_s_header(tmp_path):
    steps = [{"action": "Sort the table by votes", "expected": 'The first row shows "Password rules shows wrong value"'}]
    assert_green(generate_on_page(SORTED, steps, tmp_path))


# the header shows an arrow once the table is sorted by it
SORTED_MARKED = SORTED.replace(".forEach((row) => body.appendChild(row));",
                               ".forEach((row) => body.appendChild(row));\n    document.querySelector('th a').innerHTML = "
                               "'votes&nbsp;&#9650;';")


@pytest.mark.parametrize("page", [SORTED, SORTED_MARKED], ids=["plain", "arrow"])
def test_rows_said_sorted_by_a_column_are_in_its_order_in_generation_and_in_the_replay(tmp_path, page):
    steps = [{"action": 'Click the "votes" column header', "expected": "The rows are sorted by votes"},
             {"action": 'Click the "votes" column header', "expected": "The rows are still sorted by votes, ascending"}]
    assert_green(generate_on_page(page, steps, tmp_path))


def test_rows_said_sorted_that_are_not_fail_saying_what_the_column_reads(tmp_path):
    record = run_on_page(SORTED, ['Verify the rows are sorted by "votes" in descending order'], tmp_path)
    assert_failed_at(record, 1, "expectation")
    assert "'12', '40', '0'" in record.verdict.reason, record.verdict.reason


SWITCHES = """<!doctype html><html><body>
<p><span id="dark-label">Dark mode</span>
  <button role="switch" aria-checked="false" aria-labelledby="dark-label" onclick="flip(this)"></button></p>
<p><span id="mail-label">Notifications</span>
  <button role="switch" aria-checked="true" aria-labelledby="mail-label" onclick="flip(this)"></button></p>
<p id="out"></p>
<script>
  function flip(b) {
    b.setAttribute('aria-checked', b.getAttribute('aria-checked') === 'true' ? 'false' : 'true');
    document.getElementById('out').textContent = Array.from(document.querySelectorAll('[role=switch]'))
      .map((x) => document.getElementById(x.getAttribute('aria-labelledby')).textContent + ' '
        + (x.getAttribute('aria-checked') === 'true' ? 'on' : 'off')).join(', ');
  }
</script>
</body></html>"""


def test_a_switch_is_turned_on_and_off_by_its_name(tmp_path):
    steps = ['Turn on the "Dark mode" toggle', 'Switch the "Notifications" toggle off',
             'Verify "Dark mode on, Notifications off" is shown']
    assert_green(generate_on_page(SWITCHES, steps, tmp_path))


DIV_GRID = """<!doctype html><html><body>
<nav class="accounts"><div class="account">Checking</div><div class="account">Savings</div>
  <div class="account">Cash</div></nav>
<h2>Uncategorized</h2>
<div class="grid">
  <div class="head" style="display: flex"><span style="width: 120px">Account</span><span style="width: 200px">Notes</span>
    <span style="width: 100px">Deposit</span></div>
  <div class="body"><div class="r1" style="display: flex"><span style="width: 120px">Savings</span>
    <span style="width: 200px">Monthly transfer</span><span style="width: 100px">500.00</span></div></div>
</div>
<div class="tags"><span class="tag">urgent</span> <span class="tag">docs</span> <span class="tag">ui</span></div>
</body></html>"""


def test_a_single_row_of_a_grid_drawn_without_table_markup_counts_as_one(tmp_path):
    record = run_on_page(DIV_GRID, [{"action": "Look at the page", "expected":
                                     'The "Uncategorized" page lists one row, on "Savings", with the notes '
                                     '"Monthly transfer" and a deposit of 500.00'}], tmp_path)
    assert_passed(record)


def test_only_one_of_a_list_laid_out_across_is_not_a_list_of_one(tmp_path):
    record = run_on_page(DIV_GRID, [{"action": "Look at the tags", "expected": 'Only "urgent" is left'}], tmp_path)
    assert record.verdict is not None and record.verdict.status == "failed", done(record)
    assert "holds 3 records" in record.verdict.reason, record.verdict.reason


LATE_LIST = """<!doctype html><html><body>
<ul class="accounts"><li>Checking</li><li>Savings</li><li>Cash</li></ul>
<button onclick="setTimeout(() => { document.getElementById('rows').innerHTML =
  '<tr><td>Savings</td><td>Monthly transfer</td><td>500.00</td></tr>'; }, 800)">Show uncategorized</button>
<table><thead><tr><th>Account</th><th>Notes</th><th>Deposit</th></tr></thead><tbody id="rows"></tbody></table>
</body></html>"""


def test_a_count_sees_the_list_that_renders_after_the_check_began(tmp_path):
    # "Savings" is in the sidebar at once; the table's row comes 800 ms after the click, with no request
    record = run_on_page(LATE_LIST, [{"action": 'Click "Show uncategorized"',
                                      "expected": 'The table lists one row, on "Savings", with the notes '
                                                  '"Monthly transfer"'}], tmp_path)
    assert_passed(record)


CLICK_TO_EDIT = """<!doctype html><html><body>
<div class="grid"><div class="row" style="display: flex">
  <div class="cell" style="width: 150px">12.50</div><div class="cell payee" style="width: 150px">Starbucks</div>
  <div class="cell" style="width: 150px">Team coffee</div></div></div>
<p id="saved"></p>
<script>
  // a cell turns into a field nothing names when clicked, and saves on Enter
  document.querySelector('.payee').addEventListener('click', (e) => {
    const cell = e.currentTarget;
    const input = document.createElement('input');
    input.value = cell.textContent;
    cell.replaceWith(input);
    input.focus();
    input.addEventListener('keydown', (k) => {
      if (k.key === 'Enter') document.getElementById('saved').textContent = 'Payee saved: ' + input.value;
    });
  });
</script>
</body></html>"""


def test_typing_after_a_click_goes_into_the_field_the_click_focused_in_generation_and_in_the_replay(tmp_path):
    steps = ['Click "Starbucks" and type "Shell"', {"action": "Press Enter", "expected": '"Payee saved: Shell" is shown'}]
    assert_green(generate_on_page(CLICK_TO_EDIT, steps, tmp_path))


STRIPED = """<!doctype html><html><body>
<h1>Savings</h1>
<table><thead><tr><th>Account</th><th>Amount</th></tr></thead><tbody>
  <tr class="odd"><td>Savings</td><td>10.00</td></tr><tr class="even"><td>Savings</td><td>20.00</td></tr>
  <tr class="odd"><td>Savings</td><td>30.00</td></tr><tr class="even"><td>Savings</td><td>40.00</td></tr>
</tbody></table>
<ul class="menu"><li class="active">Home</li><li>About</li><li>Contact</li></ul>
<ul class="deps"><li class="subheader">Dependencies (1)</li><li class="item">tiny-logger</li></ul>
<div class="facet"><p><a href="#">status</a></p><ul><li>Closed 4</li></ul></div>
<table><thead><tr><th>title</th><th>status</th></tr></thead><tbody><tr><td>Login fails</td><td>Open</td></tr></tbody>
</table>
</body></html>"""


@pytest.mark.parametrize("expected", [
    'Two rows are listed, including "Savings"',  # striped rows are four, whatever their classes
    'The table lists one row, on "Savings"',  # the heading "Savings" is in no list
    'Only "Home" is left',  # an active item is one of three
    '"Closed 4" is listed in the status column',  # a facet under a link "status" is no column
])
def test_records_that_differ_by_class_or_stand_in_no_list_never_pass_a_wrong_count(tmp_path, expected):
    record = run_on_page(STRIPED, [{"action": "Look at the page", "expected": expected}], tmp_path)
    assert_failed_at(record, 1, "expectation")


FOCUSED_ELSEWHERE = """<!doctype html><html><body>
<input id="search" placeholder="Search" autofocus>
<div class="grid"><div class="row" style="display: flex">
  <div class="cell" style="width: 150px">12.50</div><div class="cell" style="width: 150px"
    onmousedown="event.preventDefault()">Starbucks</div></div></div>
</body></html>"""


def test_typing_after_a_click_never_goes_into_a_field_focused_elsewhere(tmp_path):
    record = run_on_page(FOCUSED_ELSEWHERE, ['Click "Starbucks" and type "Shell"'], tmp_path)
    assert record.verdict is not None and record.verdict.status == "failed", done(record)
    assert not any(op.kind in ("fill", "type") and op.ok for op in record.operations), done(record)


# A diagram's node: its body (a rect) is drawn over its label, which lets the pointer through to it.
COVERED_NODE = """<!doctype html><html><body>
<h2>Flow</h2>
<svg width="400" height="120">
  <g class="node" transform="translate(20,20)">
    <g class="label"><text x="10" y="20" style="pointer-events: none">New order</text></g>
    <rect width="120" height="30" fill="#a6bbcf" fill-opacity="0.6"></rect>
  </g>
</svg>
<p id="log"></p>
<div id="page-wide" style="position: fixed; inset: 0; display: none"></div>
<script>
  document.querySelector('g.node').addEventListener('dblclick', () => {
    document.getElementById('log').textContent = 'Editing New order';
  });
</script>
</body></html>"""


def test_a_label_its_own_widget_s_shape_covers_is_double_clicked_as_a_person_does_and_replayed(tmp_path):
    result = generate_on_page(COVERED_NODE, ['Double-click the "New order" node', '"Editing New order" is shown'], tmp_path)
    assert_green(result)
    steps = "\n".join(p.read_text() for p in (tmp_path / "suite").rglob("*.js") if "step_definitions" in str(p))
    assert "dblclick({ force: true })" in steps, steps


def test_a_label_under_a_shape_of_no_widget_of_its_own_is_never_forced(tmp_path):
    covered = COVERED_NODE.replace('display: none"></div>', 'display: block"></div>')  # a page-wide pane over everything
    record = run_on_page(covered, ['Double-click the "New order" node', '"Editing New order" is shown'], tmp_path)
    assert_failed_at(record, 1, "action")
    assert "intercepts pointer events" in record.verdict.reason, record.verdict.reason
    assert not any(op.forced for op in record.operations), done(record)


# A search box named by its placeholder, with a clear link drawn by an icon font at its right end.
CLEARABLE = """<!doctype html><html><body>
<div style="display: flex; align-items: center; width: 300px">
  <i class="fa fa-search" style="display: inline-block; width: 12px; height: 12px; background: #888"></i>
  <form class="search-form"><input type="text" class="search-input" placeholder="filter nodes"></form>
  <a class="search-clear" href="#"><i class="fa fa-times" style="display: inline-block; width: 12px; height: 12px;
     background: #888"></i></a>
</div>
<ul><li>inject</li><li>debug</li></ul>
<script>
  document.querySelector('a.search-clear').addEventListener('click', (e) => {
    e.preventDefault(); document.querySelector('input').value = '';
  });
</script>
</body></html>"""


def test_the_x_at_the_end_of_a_field_named_by_its_placeholder_is_its_clear_link(tmp_path):
    result = generate_on_page(CLEARABLE, ['Type "inj" into the "filter nodes" box',
                                          'Click the small "×" at the right end of the "filter nodes" box',
                                          'Verify the "filter nodes" box is empty'], tmp_path)
    assert_green(result)


# Column headers with an unnamed SVG icon each (its class says it opens a dropdown menu), drawn as a gear.
COLUMN_MENUS = """<!doctype html><html><body>
<table class="rows"><thead><tr>
  <th class="col-id"><a href="#">id</a> <svg class="dropdown-menu-icon" width="14" height="14"><circle cx="7" cy="7"
      r="5"/></svg></th>
  <th class="col-priority"><a href="#">priority</a> <svg class="dropdown-menu-icon" width="14" height="14"><circle
      cx="7" cy="7" r="5"/></svg></th>
</tr></thead><tbody><tr><td>1</td><td>High</td></tr></tbody></table>
<div class="dropdown-menu" style="display: none"><ul><li><a href="#" class="facet">Facet by this</a></li>
  <li><a href="#">Sort ascending</a></li></ul></div>
<p id="log"></p>
<script>
  let column = null;
  for (const icon of document.querySelectorAll('svg.dropdown-menu-icon'))
    icon.addEventListener('click', () => {
      column = icon.closest('th').querySelector('a').textContent;
      document.querySelector('.dropdown-menu').style.display = 'block';
    });
  document.querySelector('a.facet').addEventListener('click', (e) => {
    e.preventDefault();
    document.querySelector('.dropdown-menu').style.display = 'none';
    document.getElementById('log').textContent = 'Faceted by ' + column;
  });
</script>
</body></html>"""


def test_an_unnamed_icon_that_opens_a_menu_is_the_gear_a_tester_sees_in_its_header_cell(tmp_path):
    result = generate_on_page(COLUMN_MENUS, ['Click the gear icon next to the "priority" column header',
                                             'Choose "Facet by this" in the menu that opens',
                                             '"Faceted by priority" is shown'], tmp_path)
    assert_green(result)
    steps = "\n".join(p.read_text() for p in (tmp_path / "suite").rglob("*.js") if "step_definitions" in str(p))
    assert "svg.dropdown-menu-icon" in steps, steps


def test_an_icon_whose_class_gives_another_purpose_is_never_the_pictured_one(tmp_path):
    record = run_on_page(COLUMN_MENUS, ['Click the trash icon next to the "priority" column header'], tmp_path)
    assert_failed_at(record, 1, "action")


# A tree whose rows each hold a toggle and a kind icon alike (the same class), then the row's text.
TREE_ROWS = """<!doctype html><html><body>
<h3>Flows</h3>
<ol class="tree">
  <li><div class="tree-label"><span class="tree-icon"><i class="fa fa-angle-right" style="display: inline-block;
      width: 10px; height: 10px; background: #444"></i></span><span class="tree-icon"><i class="kind-flow"
      style="display: inline-block; width: 10px; height: 10px; background: #aaa"></i></span><div>Home</div></div>
      <ol hidden><li>Wake up</li></ol></li>
  <li><div class="tree-label"><span class="tree-icon"><i class="fa fa-angle-right" style="display: inline-block;
      width: 10px; height: 10px; background: #444"></i></span><span class="tree-icon"><i class="kind-flow"
      style="display: inline-block; width: 10px; height: 10px; background: #aaa"></i></span><div>Orders</div></div>
      <ol hidden><li>New order</li></ol></li>
</ol>
<script>
  for (const label of document.querySelectorAll('.tree-label')) {
    label.style.display = 'flex';
    label.querySelector('span.tree-icon').addEventListener('click', () => {
      const children = label.parentElement.querySelector('ol');
      children.hidden = !children.hidden;
    });
  }
</script>
</body></html>"""


def test_the_arrow_to_the_left_of_a_tree_row_is_its_toggle_not_its_kind_icon(tmp_path):
    result = generate_on_page(TREE_ROWS, ['Click the small arrow to the left of "Orders"',
                                          '"New order" is shown', '"Wake up" is not shown'], tmp_path)
    assert_green(result)


# Dropdowns drawn without a <select>: a design system's combobox, and a Chosen-like box showing its value in a link.
CUSTOM_DROPDOWNS = """<!doctype html><html><body>
<form>
<div class="field"><span class="label">Status</span>
  <div class="select" role="combobox" aria-label="Status" aria-expanded="false" tabindex="0">Open</div>
  <ul class="options" role="listbox" hidden><li role="option">Open</li><li role="option">Closed</li></ul></div>
<div class="chosen-container"><a class="chosen-single" href="javascript:void(0)"><span>---------</span><div><b></b></div></a>
  <div class="chosen-drop" style="display: none"><ul class="chosen-results"><li class="active-result">---------</li>
  <li class="active-result">Delete selected posts</li></ul></div></div>
</form>
<p id="log"></p>
<script>
  const select = document.querySelector('.select'), options = document.querySelector('.options');
  select.addEventListener('click', () => { options.hidden = false; select.setAttribute('aria-expanded', 'true'); });
  for (const o of options.children) o.addEventListener('click', () => {
    select.textContent = o.textContent; options.hidden = true; document.getElementById('log').textContent = 'Status ' + o.textContent;
  });
  const single = document.querySelector('.chosen-single'), drop = document.querySelector('.chosen-drop');
  single.addEventListener('click', () => { drop.style.display = 'block'; });
  for (const o of drop.querySelectorAll('li')) o.addEventListener('click', () => {
    single.querySelector('span').textContent = o.textContent; drop.style.display = 'none';
    document.getElementById('log').textContent = 'Action ' + o.textContent;
  });
</script>
</body></html>"""


def test_an_option_of_a_dropdown_drawn_without_a_select_is_chosen_by_opening_it_and_replayed(tmp_path):
    result = generate_on_page(CUSTOM_DROPDOWNS, ['Select "Closed" in the Status dropdown', '"Status Closed" is shown'],
                              tmp_path)
    assert_green(result)
    assert [op.kind for op in result.outcomes[0].record.operations][1] == "choose"


def test_opening_a_dropdown_by_the_value_it_shows_and_choosing_an_option_is_one_selection(tmp_path):
    steps = ['Open the action dropdown showing "---------" and choose "Delete selected posts"',
             '"Action Delete selected posts" is shown']
    assert_green(generate_on_page(CUSTOM_DROPDOWNS, steps, tmp_path))


NATIVE_ACTION = """<!doctype html><html><body>
<form><label>Action: <select name="action"><option value="" selected>---------</option>
  <option value="delete">Delete selected posts</option></select></label>
<button type="button" onclick="document.getElementById('log').textContent = 'Chose ' +
  document.querySelector('select').value">Go</button></form>
<p id="log"></p></body></html>"""


def test_opening_a_native_select_and_choosing_an_option_selects_it(tmp_path):
    steps = ['Open the action dropdown showing "---------" and choose "Delete selected posts"', 'Click "Go"',
             '"Chose delete" is shown']
    assert_green(generate_on_page(NATIVE_ACTION, steps, tmp_path))


def test_the_x_drawn_over_the_right_end_of_a_field_is_at_its_right_end(tmp_path):
    inside = CLEARABLE.replace('<div style="display: flex; align-items: center; width: 300px">',
                               '<div style="position: relative; width: 300px">').replace(
        '<a class="search-clear" href="#">', '<a class="search-clear" href="#" style="position: absolute; left: 150px; '
        'top: 2px">').replace('class="search-input"', 'class="search-input" style="width: 170px"')
    result = generate_on_page(inside, ['Type "inj" into the "filter nodes" box',
                                       'Click the small "×" at the right end of the "filter nodes" box',
                                       'Verify the "filter nodes" box is empty'], tmp_path)
    assert_green(result)


def test_a_list_drawn_inside_a_label_offers_its_options(tmp_path):
    wrapped = CUSTOM_DROPDOWNS.replace('<div class="chosen-container">', '<label>Action <div class="chosen-container">'
                                       ).replace('</ul></div></div>\n</form>', '</ul></div></div></label>\n</form>')
    assert wrapped != CUSTOM_DROPDOWNS
    steps = ['Open the action dropdown showing "---------" and choose "Delete selected posts"',
             '"Action Delete selected posts" is shown']
    assert_green(generate_on_page(wrapped, steps, tmp_path))


def test_expanding_a_tree_row_clicks_its_toggle_not_its_text_and_is_replayed(tmp_path):
    # the row's text only selects it; its arrow opens it
    selecting = TREE_ROWS.replace("</script>", """  for (const label of document.querySelectorAll('.tree-label > div'))
    label.addEventListener('click', () => { label.style.fontWeight = 'bold'; });
</script>""")
    result = generate_on_page(selecting, ['Expand "Orders"', '"New order" is shown', '"Wake up" is not shown'], tmp_path)
    assert_green(result)


ACCORDION = """<!doctype html><html><body>
<h3>Package managers</h3>
<div class="accordion"><div class="summary" onclick="this.nextElementSibling.hidden = !this.nextElementSibling.hidden"
  style="cursor: pointer">npm</div><div hidden>npm set registry http://localhost</div></div>
<div class="accordion"><div class="summary" onclick="this.nextElementSibling.hidden = !this.nextElementSibling.hidden"
  style="cursor: pointer">yarn</div><div hidden>yarn config set registry http://localhost</div></div>
</body></html>"""


def test_expanding_a_section_without_a_toggle_clicks_its_header(tmp_path):
    result = generate_on_page(ACCORDION, ['Expand the "npm" section', '"npm set registry http://localhost" is shown',
                                          '"yarn config set registry http://localhost" is not shown'], tmp_path)
    assert_green(result)


def test_a_tree_row_without_aria_is_expanded_or_collapsed_as_its_class_says(tmp_path):
    marked = TREE_ROWS.replace("children.hidden = !children.hidden;",
                               "children.hidden = !children.hidden; label.parentElement.classList.toggle('expanded');")
    steps = ['Verify the "Orders" entry is collapsed', 'Expand "Orders"', 'Verify the "Orders" entry is expanded',
             {"action": 'Collapse "Orders"', "expected": 'The "Orders" entry is collapsed and "New order" is not shown'}]
    assert_green(generate_on_page(marked, steps, tmp_path))


def test_a_state_is_read_on_the_equally_named_element_that_has_it_not_on_a_tab_link_of_that_name(tmp_path):
    marked = TREE_ROWS.replace("children.hidden = !children.hidden;",
                               "children.hidden = !children.hidden; label.parentElement.classList.toggle('expanded');")
    tabbed = marked.replace("<body>", '<body><ul class="tabs"><li><a href="#orders">Orders</a></li>'
                                      '<li><a href="#home">Home</a></li></ul>', 1)
    assert tabbed != marked
    steps = ['Expand "Orders"', 'Verify the "Orders" entry is expanded',
             {"action": 'Collapse "Orders"', "expected": 'The "Orders" entry is collapsed'}]
    assert_green(generate_on_page(tabbed, steps, tmp_path))


# Menu items ticked by the icon they show (no ARIA): the page's CSS shows the check or the empty box.
TICKED_MENU = """<!doctype html><html><head><style>
  a i { display: inline-block; width: 10px; height: 10px; background: #444; margin-right: 4px }
  a .fa-check-square, a.active .fa-square { display: none }
  a.active .fa-check-square { display: inline-block }
</style></head><body>
<ul class="menu">
  <li><a href="#" class="active"><i class="fa fa-square"></i><i class="fa fa-check-square"></i><span>Show palette</span></a></li>
  <li><a href="#"><i class="fa fa-square"></i><i class="fa fa-check-square"></i><span>Show grid</span></a></li>
  <li><a href="#"><span>Event log</span></a></li>
</ul>
<script>
  for (const a of document.querySelectorAll('a')) a.addEventListener('click', (e) => {
    e.preventDefault(); if (a.querySelector('i')) a.classList.toggle('active');
  });
</script>
</body></html>"""


def test_a_menu_item_is_ticked_as_the_icon_it_shows_says(tmp_path):
    steps = [{"action": "Look at the menu",
              "expected": '"Show palette" (ticked) and "Event log" are listed and "Show grid" is unticked'},
             'Click "Show grid"', 'Verify "Show grid" is ticked']
    assert_green(generate_on_page(TICKED_MENU, steps, tmp_path))


def test_a_menu_item_said_ticked_that_is_not_fails_the_check(tmp_path):
    record = run_on_page(TICKED_MENU, ['Verify "Show grid" is ticked'], tmp_path)
    assert_failed_at(record, 1, "expectation")


SQL_FORM = """<!doctype html><html><body>
<form><h3>Custom SQL query</h3><p><textarea name="sql" rows="4" cols="60">select 1</textarea></p>
<p><button type="button">Run SQL</button> <button type="button">Format SQL</button></p></form>
</body></html>"""


def test_clicking_into_an_editor_named_by_its_form_s_heading_is_that_field_not_a_button(tmp_path):
    steps = ['Click into the "Custom SQL query" editor and delete the query that is in it',
             'Type "select 2" into it', 'Verify the "Custom SQL query" editor shows "select 2"']
    assert_green(generate_on_page(SQL_FORM, steps, tmp_path))


# A grid whose cells a handler on the document turns into a field (click delegation: no cell looks clickable).
DELEGATED_CELLS = """<!doctype html><html><body>
<div class="grid">
  <div class="row" style="display: flex; gap: 150px"><span>Groceries</span><span class="cell">400.00</span></div>
  <div class="row" style="display: flex; gap: 150px"><span>Rent</span><span class="cell">900.00</span></div>
</div>
<script>
  document.addEventListener('click', (e) => {
    if (!e.target.matches('span.cell')) return;
    const input = document.createElement('input');
    input.value = e.target.textContent;
    input.addEventListener('keydown', (k) => { if (k.key === 'Enter') { const s = document.createElement('span');
      s.className = 'cell'; s.textContent = Number(input.value).toFixed(2); input.replaceWith(s); } });
    e.target.replaceWith(input); input.focus();
  });
</script>
</body></html>"""


def test_a_text_nothing_marks_clickable_is_clicked_where_no_control_bears_its_name(tmp_path):
    steps = ['Click 400.00 in the row of "Groceries", replace it with "450" and press Enter',
             '"450.00" is shown and "900.00" is shown']
    assert_green(generate_on_page(DELEGATED_CELLS, steps, tmp_path))


def test_a_button_under_a_pane_in_its_own_box_is_never_forced(tmp_path):
    # the box holding both shows only the button's text, but the button handles its own click: an event on the pane
    # never reaches it
    covered = """<!doctype html><html><body>
    <div style="position: relative; display: inline-block">
      <button onclick="document.getElementById('log').textContent = 'Saved'">Save</button>
      <div style="position: absolute; inset: -5px; z-index: 2"></div>
    </div>
    <p id="log"></p></body></html>"""
    record = run_on_page(covered, ['Click "Save"', '"Saved" is shown'], tmp_path)
    assert_failed_at(record, 1, "action")
    assert not any(op.forced for op in record.operations), done(record)


# A part of the page named by what it is: a palette named only by its class words, a menu that hides it, a form
# drawn without <form>, a site search form beside the form the steps fill.
PARTS = """<!doctype html><html><body style="margin: 0">
<div class="app-header"><button id="menu-button" onclick="menu.hidden = !menu.hidden">Menu</button>
  <ul id="menu" role="menu" hidden><li role="menuitem" onclick="palette.hidden = !palette.hidden; menu.hidden = true">
  Toggle palette</li></ul></div>
<div style="display: flex">
  <div id="palette" class="app-palette" style="width: 200px"><div class="app-palette-header">Nodes</div>
    <div class="app-palette-node">inject</div></div>
  <div class="workspace" style="flex: 1"><p>Flow 1</p></div>
</div>
<form action="#" onsubmit="return false"><input name="q" placeholder="Search the site"><button>Go</button></form>
<div class="sign-in">
  <h3>Sign in to this instance</h3>
  <label>Password <input type="password" id="pw"></label>
  <button onclick="note.textContent = pw.value === 'right' ? '' : 'Invalid password';
                   if (pw.value === 'right') this.parentElement.remove()">Sign in</button>
</div>
<p id="note"></p>
</body></html>"""


def test_a_part_named_by_its_class_words_is_seen_to_go_and_come_back(tmp_path):
    steps = ['Click "Menu"',
             {"action": 'Click "Toggle palette"', "expected": 'The palette on the left disappears and the menu closes'},
             {"action": 'Click "Menu" and click "Toggle palette"', "expected": "The palette is back"}]
    assert_green(generate_on_page(PARTS, steps, tmp_path))


def test_a_part_said_to_go_that_stays_fails_the_check(tmp_path):
    steps = [{"action": 'Click "Menu"', "expected": "The palette disappears"}]
    record = run_on_page(PARTS, steps, tmp_path)
    assert_failed_at(record, 1, "expectation")
    assert "palette" in (record.verdict.reason or ""), record.verdict


def test_a_form_drawn_without_a_form_element_is_found_by_its_words_and_the_focus(tmp_path):
    steps = [{"action": 'Type "wrong" into the Password field and click "Sign in"',
              "expected": 'The message "Invalid password" is shown and the page stays on the sign-in form'},
             {"action": 'Type "right" into the Password field and press Enter', "expected": "The form is gone"}]
    record = run_on_page(PARTS, steps, tmp_path)
    # Enter in a field outside any form submits nothing here: the sign-in box stays, and the check says so
    assert_failed_at(record, 2, "expectation")
    steps[1] = {"action": 'Type "right" into the Password field and click "Sign in"', "expected": "The form is gone"}
    assert_green(generate_on_page(PARTS, steps, tmp_path))


def test_a_part_whose_words_name_none_on_the_page_fails(tmp_path):
    record = run_on_page(PARTS, [{"action": 'Click "Menu"', "expected": "The sign-up form is shown"}], tmp_path)
    assert_failed_at(record, 1, "expectation")


ISSUES_TABLE = """<!doctype html><html><body>
<table>
  <thead><tr><th>id</th><th>title</th><th>status</th><th>assignee</th></tr></thead>
  <tbody>
    <tr><td>1</td><td>Login fails</td><td>Open</td><td>Gustav Berg</td></tr>
    <tr><td>2</td><td>Slow export</td><td>In progress</td><td>Gustav Berg</td></tr>
    <tr><td>3</td><td>Old layout</td><td>Closed</td><td>Dana Okafor</td></tr>
  </tbody>
</table>
<button onclick="for (const r of document.querySelectorAll('tbody tr'))
  if (r.cells[2].textContent === 'Closed') r.remove()">Hide closed</button>
</body></html>"""


def test_every_row_of_a_table_shows_one_of_the_texts_in_a_column(tmp_path):
    steps = ['Click "Hide closed"',
             'Verify every row of the results has "Open" or "In progress" in the status column and "Gustav Berg" in '
             'the assignee column']
    assert_green(generate_on_page(ISSUES_TABLE, steps, tmp_path))


def test_a_row_that_shows_another_text_in_the_column_fails_the_check(tmp_path):
    record = run_on_page(ISSUES_TABLE, ['Verify every row has "Open" or "In progress" in the status column'], tmp_path)
    assert_failed_at(record, 1, "expectation")
    assert "Closed" in (record.verdict.reason or ""), record.verdict


# One chip under a title of its own, in one of the tab panels of a page: a list of one, never a panel among panels.
TITLED_CHIPS = """<!doctype html><html><body>
<div class="tabs"><div role="tabpanel" class="panel"><h6>dependencies (1)</h6>
  <div><div role="button" tabindex="0"><span>tiny-logger: ^1.1.0</span></div></div></div>
  <div role="tabpanel" class="panel"><h6>devDependencies (2)</h6>
  <div><div role="button" tabindex="0" class="chip"><span>mocha: ^10.0.0</span></div>
       <div role="button" tabindex="0" class="chip"><span>chai: ^4.3.0</span></div></div></div>
</div></body></html>"""


def test_one_record_alone_under_its_title_is_a_list_of_one(tmp_path):
    steps = ['Verify "tiny-logger: ^1.1.0" is the only dependency listed under "dependencies (1)"',
             'Verify two dev dependencies are listed, including "mocha: ^10.0.0"']
    assert_green(generate_on_page(TITLED_CHIPS, steps, tmp_path))


def test_one_of_two_records_under_a_title_is_not_the_only_one(tmp_path):
    record = run_on_page(TITLED_CHIPS, ['Verify "mocha: ^10.0.0" is the only dependency listed'], tmp_path)
    assert_failed_at(record, 1, "expectation")


# A code editor drawn over a hidden input (CodeMirror's way): its lines cover the input, a click on them focuses it,
# the keys it gets edit the document; select-all and Backspace empty it, emptying the input alone does nothing.
CODE_EDITOR = """<!doctype html><html><body>
<form><h3>Custom SQL query</h3>
<div class="editor" style="position: relative; width: 400px; height: 80px; border: 1px solid #999">
  <div style="position: absolute; overflow: hidden; width: 3px; height: 0; top: 8px; left: 8px">
    <textarea id="input" style="position: absolute; width: 1px; height: 1em; padding: 0"></textarea></div>
  <div class="lines" style="position: absolute; inset: 0"><pre id="line">select 1</pre></div>
</div>
<button type="button" onclick="out.textContent = 'ran: ' + doc">Run SQL</button></form>
<p id="out"></p>
<script>
  let doc = 'select 1', all = false;
  const input = document.getElementById('input'), line = document.getElementById('line');
  document.querySelector('.lines').addEventListener('mousedown', (e) => { e.preventDefault(); input.focus(); });
  input.addEventListener('keydown', (e) => {
    if ((e.ctrlKey || e.metaKey) && e.key === 'a') { all = true; e.preventDefault(); }
    else if (e.key === 'Backspace') { doc = all ? '' : doc.slice(0, -1); all = false; e.preventDefault(); }
    line.textContent = doc;
  });
  input.addEventListener('input', () => { doc = (all ? '' : doc) + input.value; all = false; input.value = '';
    line.textContent = doc; });
</script>
</body></html>"""


def test_a_code_editor_over_its_hidden_input_is_clicked_emptied_and_typed_into(tmp_path):
    steps = ['Click into the "Custom SQL query" editor and delete the query that is in it',
             'Type "select 2"', 'Click the "Run SQL" button', '"ran: select 2" is shown']
    assert_green(generate_on_page(CODE_EDITOR, steps, tmp_path))


PAGE_TREE = """<!doctype html><html><body>
<ul class="tree" style="list-style: none">
  <li><a href="#" onclick="kids.hidden = !kids.hidden; return false">+</a> About Us
    <ul id="kids" hidden style="list-style: none; padding-left: 24px"><li>Our History</li><li>Our Team</li></ul></li>
  <li>Services</li>
</ul>
</body></html>"""


def test_a_tree_s_children_appear_indented_under_their_parent(tmp_path):
    steps = [{"action": 'Click the "+" toggle of the "About Us" row',
              "expected": '"Our History" and "Our Team" appear indented under "About Us"'}]
    assert_green(generate_on_page(PAGE_TREE, steps, tmp_path))


def test_a_text_below_but_not_indented_fails_the_check(tmp_path):
    record = run_on_page(PAGE_TREE, ['"Services" is indented under "About Us"'], tmp_path)
    assert_failed_at(record, 1, "expectation")
    nested = run_on_page(PAGE_TREE, ['"Services" is nested under "About Us"'], tmp_path / "nested")
    assert_failed_at(nested, 1, "expectation")


# An edit tray whose values are in fields, and a list of rules whose texts are field values too.
TRAY = """<!doctype html><html><body>
<div class="tray"><h3>Edit switch node</h3>
  <label>Property <input value="payload.priority"></label>
  <ol class="rules"><li><input value="high"></li><li><input value="normal"></li><li><input value="otherwise"></li></ol>
  <label>Secret <input type="password" value="hunter2"></label>
</div></body></html>"""


def test_a_value_a_field_shows_is_a_text_the_page_shows(tmp_path):
    steps = [{"action": "Look at the tray", "expected": 'The "Edit switch node" tray shows Property "payload.priority" '
                                                        'and the rules "high", "normal" and "otherwise"'}]
    assert_green(generate_on_page(TRAY, steps, tmp_path))


def test_a_value_no_visible_text_field_shows_is_not_shown(tmp_path):
    record = run_on_page(TRAY, ['"hunter2" is shown'], tmp_path)
    assert_failed_at(record, 1, "expectation")


COPY_BUTTON = """<!doctype html><html><body>
<code>pnpm install csv-lite@0.3.0</code>
<button title="Copy" onclick="navigator.clipboard.writeText('pnpm install csv-lite@0.3.0')">Copy</button>
<label>Search Packages <input></label>
</body></html>"""


def test_a_copied_text_is_pasted_with_the_keys_said(tmp_path):
    steps = ['Click "Copy"', 'Click into the "Search Packages" box',
             {"action": "Paste with Ctrl+V", "expected": 'The "Search Packages" box shows "pnpm install csv-lite@0.3.0"'}]
    assert_green(generate_on_page(COPY_BUTTON, steps, tmp_path))


# Tabs of workspaces, the chosen one marked by its class only; the canvas shows the chosen workspace's nodes.
WORKSPACES = """<!doctype html><html><body>
<ul class="tabs" style="display: flex; gap: 20px; list-style: none">
  <li class="tab active"><a>Home Automation</a></li><li class="tab"><a>Order Processing</a></li></ul>
<div class="canvas"><div class="node" ondblclick="log.textContent = 'Editing Wake up'">Wake up</div></div>
<p id="log"></p>
</body></html>"""


def test_an_element_on_the_chosen_tab_is_on_the_view_the_page_shows(tmp_path):
    steps = ['Double-click the "Wake up" node on the "Home Automation" flow', '"Editing Wake up" is shown']
    assert_green(generate_on_page(WORKSPACES, steps, tmp_path))


def test_an_element_said_on_a_tab_that_is_not_chosen_is_not_taken(tmp_path):
    record = run_on_page(WORKSPACES, ['Double-click the "Wake up" node on the "Order Processing" flow'], tmp_path)
    assert_failed_at(record, 1, "action")


# Rows of a form whose labels are tied to nothing (for=""): each names the one control of its row.
UNTIED_LABELS = """<!doctype html><html><body>
<div class="form-row"><label for="">Name</label><input id="node-input-name" value="Wake up"></div>
<div class="form-row"><label for=""><i class="fa fa-repeat"></i> <span>Repeat</span></label>
  <select id="repeat-type"><option>none</option><option>interval</option></select>
  <input type="hidden" id="node-input-repeat" value=""></div>
</body></html>"""


def test_a_label_tied_to_nothing_names_the_one_control_of_its_row(tmp_path):
    steps = [{"action": "Look at the form", "expected": 'The form shows "Wake up" in the Name field and a Repeat dropdown set to "none"'},
             'Select "interval" in the Repeat dropdown', 'Verify the Repeat dropdown shows "interval"']
    assert_green(generate_on_page(UNTIED_LABELS, steps, tmp_path))


LONG_PAGE = """<!doctype html><html><body>
<h1>Ticket #2</h1>
<p id="seen">Nothing seen yet</p>
<div style="height: 3000px"></div>
<h2 id="history">Change History</h2>
<div style="height: 3000px"></div>
<footer id="footer">Powered by nobody</footer>
<script>
  const seen = document.getElementById('seen');
  new IntersectionObserver((entries) => {
    for (const e of entries) if (e.isIntersecting) seen.textContent = e.target.id + ' seen';
  }).observe(document.getElementById('history'));
  new IntersectionObserver((entries) => {
    for (const e of entries) if (e.isIntersecting) document.title = 'footer seen';
  }).observe(document.getElementById('footer'));
  seen.style.position = 'fixed';
</script>
</body></html>"""


def test_scrolling_to_a_section_brings_it_into_view_in_generation_and_in_the_replay(tmp_path):
    result = generate_on_page(LONG_PAGE, [
        {"action": "Scroll down to the Change History section", "expected": '"history seen" is shown'},
        "Scroll to the bottom of the page", "Scroll up"], tmp_path)
    assert_green(result)
    feature = next((tmp_path / "suite").rglob("*.feature")).read_text()
    assert 'Scroll to "Change History"' in feature and "Scroll to the bottom of the page" in feature, feature


def test_scrolling_to_something_the_page_lacks_fails_at_that_step(tmp_path):
    record = run_on_page(LONG_PAGE, ["Scroll down to the Archive section", '"history seen" is shown'], tmp_path)
    assert_failed_at(record, 1, "action")


PROPERTIES = """<!doctype html><html><body>
<h1>#2 assigned enhancement</h1>
<table class="properties">
  <tr><th>Reported by:</th><td>anonymous</td><th>Owned by:</th><td><a href="#">Carol Jensen</a></td></tr>
  <tr><th>Priority:</th><td>major</td><th>Component:</th><td>Backend</td></tr>
</table>
<h2>Change History</h2>
<p>Owner changed from Bob Tanaka to Carol Jensen</p>
</body></html>"""


def test_a_value_said_of_a_quoted_label_is_read_beside_that_label(tmp_path):
    steps = ['Verify "Owned by:" shows Carol Jensen and "Reported by:" shows anonymous', 'Verify "Priority:" reads "major"',
             'Verify "Change History" shows "Owner changed from Bob Tanaka to Carol Jensen"']
    assert_green(generate_on_page(PROPERTIES, steps, tmp_path))
    # "Bob Tanaka" is on the page, but not beside the label
    record = run_on_page(PROPERTIES, ['Verify "Owned by:" shows Bob Tanaka'], tmp_path)
    assert_failed_at(record, 1, "expectation")


SELECTS = """<!doctype html><html><body>
<form onsubmit="event.preventDefault(); out.textContent = [type.value, by.value, summary.value].join(' / ')">
  <label for="summary">Summary</label> <input id="summary">
  <label for="type">Type</label> <select id="type"><option>defect</option><option>enhancement</option></select>
  <label for="by">Ticket status by</label>
  <select id="by"><option>Component</option><option>Priority</option></select>
  <button>Create</button>
</form>
<p id="out"></p>
</body></html>"""


def test_setting_a_field_that_is_a_native_dropdown_selects_the_option(tmp_path):
    steps = ['Set Summary to "Crash" and Type to "enhancement"',
             'Change "Ticket status by" from Component to "Priority"',
             {"action": "Click Create", "expected": '"enhancement / Priority / Crash" is shown'}]
    assert_green(generate_on_page(SELECTS, steps, tmp_path))
    # an option the dropdown does not offer fails the step
    record = run_on_page(SELECTS, ['Set Type to "task"'], tmp_path)
    assert_failed_at(record, 1, "action")


NESTED_MENU = """<!doctype html><html><body>
<div id="tabs"><ul>
  <li>General<ul><li><a href="#basics" onclick="out.textContent = 'basics'">Basic Settings</a></li>
    <li><a href="#perm" onclick="out.textContent = 'general components'">Components</a></li></ul></li>
  <li class="active">
     Ticket System
     <ul><li><a href="#comp" onclick="out.textContent = 'ticket components'">Components</a></li>
       <li><a href="#ms">Milestones</a></li></ul>
  </li>
</ul></div>
<p id="out"></p>
</body></html>"""


def test_a_list_item_s_own_words_title_its_sub_list(tmp_path):
    steps = ['Under "Ticket System" in the left menu, click "Components"', '"ticket components" is shown']
    assert_green(generate_on_page(NESTED_MENU, steps, tmp_path))


FILTER_ROWS = """<!doctype html><html><body>
<table class="clauses">
<tr><th><label>Status</label></th><td><select><option>is</option><option>is not</option></select></td>
  <td><button onclick="out.textContent = 'status removed'">Remove</button></td></tr>
<tr><th><label>Component</label></th><td><select><option>is</option><option>is not</option></select></td>
  <td><button onclick="out.textContent = 'component removed'">Remove</button></td></tr>
</table>
<p id="out"></p>
</body></html>"""


def test_a_row_said_with_words_that_describe_it_is_the_row_of_its_capitalised_title(tmp_path):
    steps = ['In the new Component filter row, click "Remove"', '"component removed" is shown']
    assert_green(generate_on_page(FILTER_ROWS, steps, tmp_path))


OPTION_ALONE = """<!doctype html><html><body>
<form onsubmit="event.preventDefault(); out.textContent = 'component ' + document.getElementById('c').value">
  <label for="c">Component</label>
  <select id="c"><option>Frontend</option><option>Backend</option></select>
  <button>Update</button>
</form>
<button onclick="out.textContent = 'express'">Express shipping</button>
<p id="out"></p>
</body></html>"""


def test_an_option_said_alone_is_selected_in_the_one_dropdown_that_offers_it(tmp_path):
    steps = ['Select "Backend"', {"action": "Click Update", "expected": '"component Backend" is shown'},
             {"action": 'Choose "Express shipping"', "expected": '"express" is shown'}]
    assert_green(generate_on_page(OPTION_ALONE, steps, tmp_path))
    # an option no dropdown offers and no element bears fails the step
    assert_failed_at(run_on_page(OPTION_ALONE, ['Select "Database"'], tmp_path), 1, "action")


PASSWORD_ONLY = """<!doctype html><html><body>
<h2>Sign in to this instance</h2>
<label for="p">Password</label> <input id="p" type="password">
<button onclick="out.textContent = p.value === 'actual123' ? 'Files' : 'Invalid password'">Sign in</button>
<p id="out"></p>
</body></html>"""


@pytest.mark.parametrize("sentence", ['Sign in with "actual123"', "Sign in (password actual123)"])
def test_signing_in_with_a_password_alone(tmp_path, sentence):
    assert_passed(run_on_page(PASSWORD_ONLY, [sentence, '"Files" is shown'], tmp_path))


ARCHIVE = """<!doctype html><html><body>
<h3>Archive</h3>
<ul><li><a href="#june">June</a> (2)</li><li><a href="#may">May</a> (5)</li></ul>
<table><tr><th>Total</th><td>12.50</td></tr></table>
</body></html>"""


def test_a_value_said_of_an_element_that_is_no_field_may_be_beside_it_in_its_record(tmp_path):
    steps = ['In the "Archive" section, check that June shows (2)', "Verify the Total shows 12.50"]
    assert_green(generate_on_page(ARCHIVE, steps, tmp_path))
    # May's count is not June's
    assert_failed_at(run_on_page(ARCHIVE, ["Verify June shows (5)"], tmp_path), 1, "expectation")


GREYED = """<!doctype html><html><body>
<div class="header"><a id="deploy" class="deploy-button disabled" href="#">Deploy</a>
  <button class="btn" onclick="deploy.classList.remove('disabled')">Change</button></div>
</body></html>"""


def test_a_control_greyed_out_by_its_class_is_disabled(tmp_path):
    steps = ['Check that the "Deploy" button in the header is greyed out',
             {"action": 'Click "Change"', "expected": 'The "Deploy" button is enabled'}]
    assert_green(generate_on_page(GREYED, steps, tmp_path))
    assert_failed_at(run_on_page(GREYED, ['Verify the "Deploy" button is enabled'], tmp_path), 1, "expectation")


SEARCH_WITH_KIND = """<!doctype html><html><body>
<form onsubmit="event.preventDefault(); out.textContent = 'in ' + kind.value">
  <input placeholder="Search" name="q"> <select id="kind"><option>Everything</option><option>Blog posts</option></select>
  <button>Go</button>
</form>
<div style="margin-top: 400px"><label for="sort">Sort</label>
  <select id="sort"><option>Newest</option><option>Blog posts</option></select></div>
<p id="out"></p>
</body></html>"""


def test_a_control_said_by_its_kind_places_what_is_next_to_it(tmp_path):
    steps = ['Select "Blog posts" in the drop-down next to the search box',
             {"action": 'Click "Go"', "expected": '"in Blog posts" is shown'}]
    assert_green(generate_on_page(SEARCH_WITH_KIND, steps, tmp_path))


def test_a_value_in_the_same_row_but_of_another_label_is_not_the_label_s_value(tmp_path):
    # "anonymous" is in the row of "Owned by:", but beside "Reported by:"
    assert_failed_at(run_on_page(PROPERTIES, ["Verify the Owned by shows anonymous"], tmp_path), 1, "expectation")


def test_every_page_of_this_module_has_a_name_of_its_own():
    # a page defined twice under one name silently replaces the first one's tests' page
    import re
    from pathlib import Path

    names = re.findall(r"^([A-Z][A-Z0-9_]*) = ", Path(__file__).read_text(), re.M)
    assert len(names) == len(set(names)), sorted({n for n in names if names.count(n) > 1})


# One document at every path; its script draws the page the path names, as a server would.
PAGES_BY_PATH = """<!doctype html><html><head><title>Lighthouse</title></head><body>
<nav><a href="/">Home</a> <a href="/roadmap">Roadmap</a> <a href="/timeline">Timeline</a>
  <a href="/newticket">New Ticket</a></nav>
<h1 id="title">Welcome to Lighthouse</h1>
<h2>Latest tickets</h2>
<script>
  const pages = {"/roadmap": ["Roadmap", "Roadmap"], "/timeline": ["Timeline", "Timeline"],
                 "/newticket": ["New Ticket", "Create New Ticket"]};
  const [title, heading] = pages[location.pathname] || ["", "Welcome to Lighthouse"];
  document.title = title ? `${title} – Lighthouse` : "Lighthouse";
  document.getElementById("title").textContent = heading;
</script>
</body></html>"""


def test_the_page_one_is_on_is_named_by_its_title_heading_or_address(tmp_path):
    steps = [{"action": 'Click "Roadmap"', "expected": "The Roadmap page is displayed"},
             {"action": 'Click "New Ticket"', "expected": "I am taken to the New Ticket page"},
             'Verify the page title contains "New Ticket"', 'The URL contains "/newticket"',
             {"action": 'Click "Home"', "expected": "The user is redirected to the home page"}]
    result = generate_on_page(PAGES_BY_PATH, steps, tmp_path)
    assert_green(result)
    feature = next((tmp_path / "suite").rglob("*.feature")).read_text()
    assert 'the "Roadmap" page is shown' in feature and 'the address holds "/newticket"' in feature, feature


@pytest.mark.parametrize("expected", [
    "I am on the Ticket page",  # "New Ticket" starts no title with "Ticket", and /newticket is no "ticket"
    "The Timeline page opens",
    'The page title contains "Timeline"',
    'The URL contains "/timeline"',
])
def test_a_page_other_than_the_one_shown_fails_its_check(tmp_path, expected):
    record = run_on_page(PAGES_BY_PATH, [{"action": 'Click "New Ticket"', "expected": expected}], tmp_path)
    assert_failed_at(record, 1, "expectation")


# A menu of plain divs opened by its button, and a link of the same name as one of its items elsewhere on the page.
MORE_MENU = """<!doctype html><html><body>
<aside><a href="#" onclick="document.getElementById('said').textContent = 'sidebar link'">Reports</a></aside>
<header><button id="more" aria-haspopup="menu" aria-expanded="false">More</button>
  <div id="menu" hidden><div class="item">Reports</div><div class="item">Settings</div></div></header>
<p id="said">nothing yet</p>
<script>
  const more = document.getElementById('more'), menu = document.getElementById('menu');
  more.onclick = () => { menu.hidden = !menu.hidden; more.setAttribute('aria-expanded', String(!menu.hidden)); };
  for (const item of menu.querySelectorAll('.item')) item.onclick = () => {
    document.getElementById('said').textContent = item.textContent + ' from the menu';
    menu.hidden = true; more.setAttribute('aria-expanded', 'false');
  };
</script>
</body></html>"""


@pytest.mark.parametrize("steps", [
    [{"action": "Choose Reports from the More menu", "expected": '"Reports from the menu" is shown'}],
    # opened by the step before: it stays open
    ['Click "More"', {"action": 'From the "More" menu, select "Reports"', "expected": '"Reports from the menu" is shown'}],
])
def test_a_menu_named_by_its_button_is_opened_and_its_own_item_picked(tmp_path, steps):
    assert_green(generate_on_page(MORE_MENU, steps, tmp_path))


def test_an_item_the_named_menu_lacks_fails_there(tmp_path):
    record = run_on_page(MORE_MENU, ["Choose Invoices from the More menu", '"Invoices" is shown'], tmp_path)
    assert_failed_at(record, 1, "action")


# A filter row of two dropdowns and a box nothing labels but its placeholder, a table, tabs, and a sign-in form whose
# error shows under its password field.
FILTER_TABS_SIGN_IN = """<!doctype html><html><body>
<div class="filters">
  <select aria-label="Column"><option>status</option><option>team</option></select>
  <select aria-label="Operator"><option>=</option><option>!=</option></select>
  <input placeholder="Value" id="value"> <button id="apply">Apply</button>
</div>
<p id="summary">4 rows</p>
<table><tr><th>title</th></tr><tr><td>Login fails</td></tr><tr><td>Credit note is slow</td></tr></table>
<div role="tablist"><button role="tab" aria-selected="true" id="t1">Readme</button>
  <button role="tab" aria-selected="false" id="t2">Dependencies</button></div>
<div id="panel">Readme text</div>
<form onsubmit="event.preventDefault(); document.getElementById('err').hidden = false">
  <label>Username <input name="u"></label><br><label>Password <input name="p" type="password"></label>
  <p id="err" hidden>Wrong password</p><button>Log in</button></form>
<script>
  document.getElementById('apply').onclick = () => {
    document.getElementById('summary').textContent = 'rows where team = ' + document.getElementById('value').value;
    document.querySelector('table').rows[2].remove();
  };
  for (const tab of document.querySelectorAll('[role=tab]')) tab.onclick = () => {
    for (const t of document.querySelectorAll('[role=tab]')) t.setAttribute('aria-selected', String(t === tab));
    document.getElementById('panel').textContent = tab.textContent + ' text';
  };
</script>
</body></html>"""


def test_steps_said_as_testers_say_them_on_a_filter_row_tabs_and_a_form(tmp_path):
    steps = ['Leave the second dropdown (the operator) on "="',
             {"action": 'Click in the "Value" box and type Platform, then press Apply',
              "expected": '"rows where team = Platform" is shown and "Credit note is slow" is not in the table'},
             'Click the "Dependencies" tab', {"action": "Go back to the Readme tab", "expected": '"Readme text" is back'},
             {"action": 'Click "Log in"', "expected": '"Wrong password" should be displayed below the Password field'}]
    result = generate_on_page(FILTER_TABS_SIGN_IN, steps, tmp_path)
    assert_green(result)


def test_a_dropdown_left_on_another_option_fails_there(tmp_path):
    record = run_on_page(FILTER_TABS_SIGN_IN, ['Leave the second dropdown on "!="', 'Click "Apply"'], tmp_path)
    assert_failed_at(record, 1, "expectation")


# A search box a keyboard shortcut opens, focused, and results that follow the typing.
SHORTCUT_SEARCH = """<!doctype html><html><body>
<p>Press Ctrl+F to search</p>
<div id="search" hidden><input placeholder="Search flows" id="q"><ul id="results"></ul></div>
<script>
  const names = ['rejected orders', 'accepted orders', 'Wake up'];
  document.addEventListener('keydown', (e) => {
    if (e.ctrlKey && e.key.toLowerCase() === 'f') { e.preventDefault(); document.getElementById('search').hidden = false;
                                      document.getElementById('q').focus(); }
  });
  document.getElementById('q').addEventListener('input', (e) => {
    document.getElementById('results').innerHTML = names.filter((n) => e.target.value && n.includes(e.target.value))
      .map((n) => `<li>${n}</li>`).join('');
  });
</script>
</body></html>"""


def test_typing_with_no_field_said_goes_where_the_keyboard_focus_is(tmp_path):
    steps = ["Press Ctrl+F", {"action": "Type rejected", "expected": '"rejected orders" is listed'}]
    assert_green(generate_on_page(SHORTCUT_SEARCH, steps, tmp_path))


# An admin table of components with a count per row, sorted by name; a select that keeps its default.
COMPONENT_USAGE = """<!doctype html><html><body>
<h1>Components</h1>
<label for="sort">Sort by</label> <select id="sort"><option>Name</option><option>Usage</option></select>
<table><thead><tr><th>Name</th><th>Owner</th><th>Usage count</th></tr></thead><tbody>
<tr><td><a href="#backend">Backend</a></td><td>alice</td><td>100</td></tr>
<tr><td><a href="#frontend">Frontend</a></td><td>bob</td><td>300</td></tr>
<tr><td><a href="#mobile">Mobile app</a></td><td>carol</td><td>1,200</td></tr>
</tbody></table></body></html>"""


def test_a_number_said_with_its_label_a_row_listed_first_and_a_select_left_as_it_is(tmp_path):
    steps = ['Leave "Name" selected in the Sort by dropdown',
             {"action": 'Look at the "Frontend" row', "expected": '"Frontend" is listed with a usage count of 300'},
             {"action": "Look at the table", "expected": '"Backend" is listed first and "Mobile app" has a usage count of 1,200'}]
    assert_green(generate_on_page(COMPONENT_USAGE, steps, tmp_path))


@pytest.mark.parametrize("step", ['"Backend" is listed with a usage count of 300', '"Frontend" is listed first',
                                  'Leave "Usage" selected in the Sort by dropdown'])
def test_a_count_another_row_holds_a_row_not_first_or_another_option_fails_there(tmp_path, step):
    steps = [{"action": 'Look at the "Backend" row', "expected": step} if "listed" in step else step]
    assert_failed_at(run_on_page(COMPONENT_USAGE, steps, tmp_path), 1, "expectation")


# An issue tracker's query: tickets said by their number, a comment box labelled by a heading, who reported what.
TICKET_QUERY = """<!doctype html><html><body>
<h1>Custom Query (2 matches)</h1>
<table class="listing"><thead><tr><th>Ticket</th><th>Summary</th><th>Component</th><th>Reporter</th></tr></thead><tbody>
<tr><td><a href="#t2">#2</a></td><td>Add dark mode</td><td>Frontend</td><td>alice</td></tr>
<tr><td><a href="#t3">#3</a></td><td>Write the guide</td><td>Documentation</td><td>bob</td></tr>
</tbody></table>
<h2>Add a comment</h2>
<form onsubmit="event.preventDefault(); document.getElementById('said').textContent = 'Comment: ' +
  document.getElementById('c').value;">
<fieldset><legend>Comment</legend><textarea id="c" rows="3"></textarea></fieldset>
<input type="submit" value="Submit changes"></form><p id="said"></p>
</body></html>"""


def test_tickets_said_by_their_number_and_a_comment_added(tmp_path):
    steps = [{"action": "Look at the results",
              "expected": 'The row for #3 shows "Documentation" in the Component column, reported by bob'},
             {"action": 'Add the comment "Looks good to me" and click "Submit changes"',
              "expected": '"Comment: Looks good to me" is shown'}]
    assert_green(generate_on_page(TICKET_QUERY, steps, tmp_path))


def test_a_text_another_ticket_shows_fails_in_the_row_said_by_number(tmp_path):
    steps = [{"action": "Look at the results", "expected": 'The row for #2 shows "Documentation" in the Component column'}]
    assert_failed_at(run_on_page(TICKET_QUERY, steps, tmp_path), 1, "expectation")


# A sidebar of accounts in titled groups, names unquoted in the testers' words.
ACCOUNT_GROUPS = """<!doctype html><html><body>
<nav><div><b>On budget</b><ul><li>Checking 6,147.28</li><li>Savings 8,504.12</li></ul></div>
<div><b>Off budget</b><ul><li>Brokerage 15,250.00</li></ul></div></nav>
<main><h1>All accounts</h1><button onclick="this.closest('body').querySelector('nav li').remove()">Close the first account</button></main>
</body></html>"""


def test_a_name_said_unquoted_before_its_place_is_checked_there(tmp_path):
    steps = [{"action": 'Look at the sidebar', "expected": 'Brokerage is listed under "Off budget"'},
             {"action": 'Click "Close the first account"', "expected": 'Checking is gone from the On budget list'}]
    assert_green(generate_on_page(ACCOUNT_GROUPS, steps, tmp_path))


def test_a_name_said_unquoted_that_the_place_lacks_fails_never_dropped(tmp_path):
    # (the name was read past and only the place's title checked: a false green)
    steps = [{"action": 'Look at the sidebar', "expected": 'Savings is listed under "Off budget"'}]
    assert_failed_at(run_on_page(ACCOUNT_GROUPS, steps, tmp_path), 1, "expectation")


# A data grid's column headers: a sort link and an unnamed cog drawn by a script, one per column.
COG_HEADER = """<!doctype html><html><head><style>
svg.dropdown-menu-icon { display: inline-block; position: relative; top: 2px; cursor: pointer; opacity: 0.8; }
.menu { position: absolute; background: white; border: 1px solid #ccc; } .menu[hidden] { display: none; }
</style></head><body>
<p>3 rows</p>
<table class="rows-and-columns"><thead><tr>
<th scope="col"><a href="?_sort=name">name</a></th><th scope="col"><a href="?_sort=status">status</a></th>
</tr></thead><tbody><tr><td>Ann</td><td>open</td></tr><tr><td>Bob</td><td>closed</td></tr></tbody></table>
<div class="menu" hidden><ul><li><a href="#asc">Sort ascending</a></li><li><a href="#facet">Facet by this</a></li></ul></div>
<script>
const ICON = `<svg xmlns="http://www.w3.org/2000/svg" width="14" height="14" viewBox="0 0 24 24" fill="none" stroke="currentColor" stroke-width="2"><circle cx="12" cy="12" r="3"></circle><path d="M19.4 15a1.65 1.65 0 0 0 .33 1.82l.06.06a2 2 0 0 1 0 2.83"></path></svg>`;
document.querySelectorAll('th').forEach((th) => {
  const holder = document.createElement('div'); holder.innerHTML = ICON; const svg = holder.querySelector('svg');
  svg.classList.add('dropdown-menu-icon');
  svg.addEventListener('click', (e) => { const m = document.querySelector('.menu'); m.hidden = false;
    m.dataset.column = th.textContent; document.querySelector('p').textContent = 'menu for ' + th.textContent; });
  th.appendChild(svg);
});
</script></body></html>"""


def test_the_icon_of_a_named_column_header_opens_that_column_s_menu(tmp_path):
    steps = [{"action": 'Click the gear icon in the "status" column header',
              "expected": '"menu for status" is shown and "Facet by this" is shown'}]
    assert_green(generate_on_page(COG_HEADER, steps, tmp_path))


# An admin list whose action select is hidden and drawn again by a script right after it (as Chosen does): a link
# showing the chosen option, and a list of the options moved on screen when it opens.
REDRAWN_SELECT = """<!doctype html><html><head><style>
.drop { position: absolute; left: -9000px; } .open .drop { left: 0; } li { cursor: pointer; }
</style></head><body>
<h1>Select blog post to change</h1>
<div class="actions"><label><select name="action" style="display: none">
  <option value="" selected>---------</option><option value="delete_selected">Delete selected Blog posts</option>
  <option value="publish">Publish selected Blog posts</option></select><div class="chzn-container" id="c">
  <a href="javascript:void(0)" class="chzn-single"><span>---------</span></a>
  <div class="drop"><ul><li>---------</li><li>Delete selected Blog posts</li><li>Publish selected Blog posts</li></ul></div>
</div></label> <button type="button" onclick="document.getElementById('out').textContent =
  'Run: ' + document.querySelector('select').value">Go</button></div>
<p id="out"></p>
<script>
  const c = document.getElementById('c'), sel = document.querySelector('select');
  c.querySelector('a').addEventListener('click', (e) => { e.preventDefault(); c.classList.toggle('open'); });
  c.querySelectorAll('li').forEach((li, i) => li.addEventListener('click', () => {
    sel.selectedIndex = i; c.querySelector('span').textContent = li.textContent; c.classList.remove('open'); }));
</script></body></html>"""


def test_a_select_drawn_again_by_a_script_goes_by_the_hidden_select_s_name(tmp_path):
    steps = ['Select "Publish selected Blog posts" from the action dropdown',
             {"action": 'Click "Go"', "expected": '"Run: publish" is shown'}]
    assert_green(generate_on_page(REDRAWN_SELECT, steps, tmp_path))


def test_an_option_the_redrawn_select_lacks_fails_there(tmp_path):
    record = run_on_page(REDRAWN_SELECT, ['Select "Archive selected Blog posts" from the action dropdown'], tmp_path)
    assert_failed_at(record, 1, "action")


# A single-page app's screen with no heading element: its title is a big styled box.
STYLED_TITLE = """<!doctype html><html><head><title>Budget</title></head><body>
<span class="material-icons" style="font-size: 48px">settings</span>
<div style="font-size: 14px">Signed in <button onclick="document.getElementById('screen').hidden = false;
  this.parentElement.hidden = true">Open</button></div>
<div id="screen" hidden><div style="font-size: 30px; font-weight: 700">Files</div>
<div style="font-size: 14px">Household Budget</div></div></body></html>"""


def test_a_screen_titled_by_its_biggest_text_is_the_page_of_that_name(tmp_path):
    steps = [{"action": 'Click "Open"', "expected": 'The "Files" page opens and lists "Household Budget"'}]
    assert_green(generate_on_page(STYLED_TITLE, steps, tmp_path))


@pytest.mark.parametrize("name", ["Household Budget", "Settings"])  # ("settings": an icon font's ligature)
def test_a_screen_whose_biggest_text_is_another_name_fails_its_page_check(tmp_path, name):
    steps = [{"action": 'Click "Open"', "expected": f'The "{name}" page opens'}]
    assert_failed_at(run_on_page(STYLED_TITLE, steps, tmp_path), 1, "expectation")


BARS = """<!doctype html><html><body>
<h2>Milestone 2</h2>
<table class="progress" style="width: 400px"><tr><td style="width: 40%; height: 10px; background: #4a4"></td>
  <td style="height: 10px; background: #ddd"></td></tr></table>
<p><a href="#" onclick="out.textContent = 'chose the link under the bar'">active: 4</a></p>
<table class="milestones"><tr><td><a href="#" onclick="out.textContent = 'chose the link of the table'">active: 4</a></td></tr></table>
<p id="out"></p>
</body></html>"""


def test_a_place_described_by_its_look_is_the_one_box_whose_class_says_it(tmp_path):
    # two links read "active: 4": the one under the bar the page draws with class "progress" is meant
    record = run_on_page(BARS, ['Click the "active: 4" link under the progress bar',
                                '"chose the link under the bar" is shown'], tmp_path)
    assert_passed(record)


SHORTCUTS = """<!doctype html><html><body>
<aside><h3>Shortcuts</h3><ul><li>Reports</li><li>Settings</li></ul></aside>
<main><h2>Folders</h2><ul id="folders"><li>Inbox</li><li>Archived</li></ul>
<button onclick="document.getElementById('folders').lastElementChild.remove()">Tidy up</button></main>
<footer>Acme Corp</footer>
</body></html>"""


def test_a_text_said_in_a_part_named_by_its_kind_is_checked_inside_that_part_and_replays(tmp_path):
    grammar = Settings(expected_reader="grammar")
    steps = [{"action": 'Click "Tidy up"', "expected": '"Reports" and Settings are still listed in the sidebar, and '
                                                        "Archived is no longer shown"}]
    assert_green(generate_on_page(SHORTCUTS, steps, tmp_path, grammar))
    # "Inbox" is on the page, but not in the sidebar: the claim of the sentence fails, never the page-wide one
    inbox = [{"action": 'Click "Tidy up"', "expected": "The sidebar shows Reports and Inbox"}]
    assert_failed_at(run_on_page(SHORTCUTS, inbox, tmp_path / "inbox", grammar), 1, "expectation")
    # a text gone from the sidebar only: still on the page elsewhere
    gone = [{"action": 'Click "Tidy up"', "expected": '"Inbox" is not in the sidebar'}]
    record = run_on_page(SHORTCUTS, gone, tmp_path / "gone", grammar)
    assert_passed(record)
    # what it was read as, with the characters each claim came from, kept beside the sentence
    assert [r.meaning for r in record.readings] == [["click 'Tidy up' (0-15)"],
                                                    ["'Inbox' not shown, inside the sidebar (text 0-7, place 18-29)"]]
    # the part itself showing the text holds it
    footer = [{"action": 'Click "Tidy up"', "expected": "Acme Corp is shown in the footer"}]
    assert_passed(run_on_page(SHORTCUTS, footer, tmp_path / "footer", grammar))


TICKET = """<!doctype html><html><body>
<h1>Ticket #7</h1>
<table class="properties"><tr><th>Priority:</th><td>minor</td><th>Owner:</th><td>Nadia Okafor</td></tr></table>
<label><input type="checkbox" id="notify" checked> Notify me</label>
<label>Summary <input id="summary" value="Printer jams"></label>
<p>One line, please</p>
<button id="save" disabled>Save</button>
<button onclick="document.getElementById('notify').checked = false; document.getElementById('save').disabled = false">
Edit</button>
</body></html>"""


def test_states_and_values_said_together_are_each_checked_on_their_element_and_replay(tmp_path):
    grammar = Settings(expected_reader="grammar")
    steps = [{"action": 'Click "Edit"',
              "expected": 'The Priority is minor, the Owner is Nadia Okafor, the Summary field shows "Printer jams", '
                          'the "Save" button is enabled and the Notify me checkbox is no longer ticked'}]
    record = run_on_page(TICKET, steps, tmp_path, grammar)
    assert_passed(record)
    assert [o.kind for o in record.operations][1:] == ["click"] + ["assert_value"] * 3 + ["assert_state"] * 2
    assert_green(generate_on_page(TICKET, steps, tmp_path / "suite", grammar))
    # each false claim fails its step: a value the label does not show, a state the control is not in
    for n, wrong in enumerate(["The Priority is major", 'the "Save" button is disabled',
                               "the Notify me checkbox is ticked"]):
        failed = run_on_page(TICKET, [{"action": 'Click "Edit"', "expected": wrong}], tmp_path / f"wrong{n}", grammar)
        assert_failed_at(failed, 1, "expectation")


def test_a_text_said_above_or_below_a_control_is_checked_there_and_replays(tmp_path):
    grammar = Settings(expected_reader="grammar")
    steps = [{"action": 'Click "Edit"', "expected": '"One line, please" is shown below the Summary field'}]
    wrong = [{"action": 'Click "Edit"', "expected": '"One line, please" is shown above the Summary field'}]
    replays_and_catches(TICKET, steps, wrong, tmp_path, grammar)


TWO_ARCHIVES = """<!doctype html><html><body>
<main><h2>Notes</h2><button onclick="document.getElementById('said').textContent = 'Main archived'">Archive</button></main>
<aside><h3>Shortcuts</h3><button onclick="document.getElementById('said').textContent = 'Sidebar archived'">Archive</button>
<label><input type="checkbox" checked> Daily digest</label></aside>
<p id="said"></p>
</body></html>"""


def test_an_action_said_in_a_part_acts_only_there_and_replays(tmp_path):
    grammar = Settings(expected_reader="grammar")
    steps = [{"action": 'Click "Archive" in the sidebar and untick Daily digest',
              "expected": '"Sidebar archived" is shown and the Daily digest checkbox is unticked'}]
    record = run_on_page(TWO_ARCHIVES, steps, tmp_path, grammar)
    assert_passed(record)
    assert [r.meaning for r in record.readings][0][:1] == ["click 'Archive' inside the sidebar (0-30)"]
    assert_green(generate_on_page(TWO_ARCHIVES, steps, tmp_path / "suite", grammar))
    # a part the page does not have: the step fails there, never acting elsewhere on the page
    nowhere = [{"action": 'Click "Archive" in the footer', "expected": '"Main archived" is shown'}]
    failed = run_on_page(TWO_ARCHIVES, nowhere, tmp_path / "nowhere", grammar)
    assert failed.verdict.status == "failed" and failed.verdict.step == 1 and "footer" in failed.verdict.reason


DRAWN_SIDEBAR = """<!doctype html><html><body>
<div id="app"><div class="sidebar"><a href="#" onclick="document.getElementById('said').textContent = 'Budget opened'">Budget</a>
<span>Reports</span></div>
<div class="content"><a href="#" onclick="document.getElementById('said').textContent = 'Other opened'">Budget</a>
<p id="said"></p><p>Archive</p></div></div>
</body></html>"""


def test_a_sidebar_drawn_as_a_box_of_its_class_is_where_a_step_acts_and_checks(tmp_path):
    grammar = Settings(expected_reader="grammar")
    steps = [{"action": 'Click "Budget" in the sidebar',
              "expected": '"Budget opened" is shown and "Reports" is listed in the sidebar'}]
    wrong = [{"action": 'Click "Budget" in the sidebar', "expected": '"Archive" is listed in the sidebar'}]
    replays_and_catches(DRAWN_SIDEBAR, steps, wrong, tmp_path, grammar)


TWO_EXPORTS = """<!doctype html><html><body>
<h2>Recent orders</h2>
<button onclick="document.getElementById('said').textContent = 'Exported from the top'">Export</button>
<table><tr><th>Order</th><th>Total</th></tr><tr><td>A-1</td><td>12.00</td></tr></table>
<button onclick="document.getElementById('said').textContent = 'Exported from the bottom'">Export</button>
<p><label>Notes <input id="notes"></label></p>
<button onclick="document.getElementById('said').textContent = 'Saved'">Save</button>
<p id="said"></p>
</body></html>"""


def test_an_element_said_above_or_below_a_part_is_the_one_standing_there_and_replays(tmp_path):
    grammar = Settings(expected_reader="grammar")
    below = [{"action": 'Click the "Export" button below the table', "expected": '"Exported from the bottom" is shown'}]
    record = run_on_page(TWO_EXPORTS, below, tmp_path, grammar)
    assert_passed(record)
    assert record.readings[0].meaning == ["click 'Export' button below 'table' (0-41)"]
    assert_green(generate_on_page(TWO_EXPORTS, below, tmp_path / "suite", grammar))
    above = [{"action": 'Click "Export" above the Recent orders table', "expected": '"Exported from the top" is shown'}]
    assert_passed(run_on_page(TWO_EXPORTS, above, tmp_path / "above", grammar))
    # a table described in lower-case words: the page's one table
    described = [{"action": 'Click "Export" below the order list table', "expected": '"Exported from the bottom" is shown'}]
    assert_passed(run_on_page(TWO_EXPORTS, described, tmp_path / "described", grammar))
    # a field by its label: the button below it
    save = [{"action": 'Click the button below the "Notes" field', "expected": '"Saved" is shown'}]
    assert_passed(run_on_page(TWO_EXPORTS, save, tmp_path / "save", grammar))
    # a landmark the page lacks: the step fails naming it, never clicking either button
    nowhere = [{"action": 'Click "Export" below the form', "expected": '"Exported from the bottom" is shown'}]
    failed = run_on_page(TWO_EXPORTS, nowhere, tmp_path / "nowhere", grammar)
    assert_stopped_before_clicking(failed)
    assert "'form' not found" in failed.verdict.reason


INLINE_TABLE = """<!doctype html><html><body>
<table><thead><tr><th>Item</th><th>Quantity</th><th>Note</th></tr></thead>
<tbody><tr><td>Apples</td><td><input type="number" value="1"></td><td><input></td></tr>
<tr><td>Pears</td><td><input type="number" value="2"></td><td><input></td></tr></tbody></table>
<button onclick="out.textContent = [...document.querySelectorAll('input')].map(i => i.value).join(',')">Save</button>
<p id="out"></p></body></html>"""


def test_an_inline_table_s_input_is_named_by_its_column_header_in_its_row_and_replays(tmp_path):
    steps = [{"action": 'Type "5" into the Quantity field in the row of "Pears" and click Save',
              "expected": '"1,,5," is shown'}]
    assert_green(generate_on_page(INLINE_TABLE, steps, tmp_path))
    # a column the table does not have names none of its inputs
    price = [{"action": 'Type "5" into the Price field in the row of "Pears"', "expected": '"1,,5," is shown'}]
    assert_failed_at(run_on_page(INLINE_TABLE, price, tmp_path / "price"), 1, "action")
    # a header spanning two columns puts headers and cells out of line: no header names the inputs
    spanned = INLINE_TABLE.replace("<th>Quantity</th>", '<th colspan="2">Quantity</th>').replace(
        "<td><input></td></tr>", "<td><input></td><td><input></td></tr>")
    note = [{"action": 'Type "5" into the Note field in the row of "Pears"', "expected": '"1,,5," is shown'}]
    assert_failed_at(run_on_page(spanned, note, tmp_path / "spanned"), 1, "action")


TWO_LOG_OUTS = """<!doctype html><html><body style="margin:0">
<header style="display:flex;justify-content:space-between;padding:8px"><b>Library</b>
<a href="#" onclick="said.textContent = 'Signed out from the header'">Log out</a></header>
<main style="height:900px"><h1>Welcome</h1>
<aside style="position:absolute;left:0;top:120px;width:240px;border:1px solid">
<div style="display:flex;justify-content:space-between"><button onclick="said.textContent = 'Left menu'">Menu</button>
<button onclick="said.textContent = 'Right menu'">Menu</button></div><p>Shortcuts</p><p>More</p></aside>
<p id="said"></p></main>
<footer><a href="#" onclick="said.textContent = 'Signed out from the footer'">Log out</a></footer>
</body></html>"""


def test_an_element_said_at_a_corner_of_the_page_or_of_a_part_is_the_one_standing_there_and_replays(tmp_path):
    grammar = Settings(expected_reader="grammar")
    header = [{"action": 'Click "Log out" at the top right', "expected": '"Signed out from the header" is shown'}]
    assert_green(generate_on_page(TWO_LOG_OUTS, header, tmp_path, grammar))
    corner = [{"action": 'Click the "Menu" button in the top right corner of the sidebar',
               "expected": '"Right menu" is shown'}]
    record = run_on_page(TWO_LOG_OUTS, corner, tmp_path / "corner", grammar)
    assert_passed(record)
    assert not record.readings[0].unused
    # the bottom of the page is its last screen: the footer's
    footer = [{"action": 'Click "Log out" at the bottom', "expected": '"Signed out from the footer" is shown'}]
    assert_passed(run_on_page(TWO_LOG_OUTS, footer, tmp_path / "footer", grammar))
    # nothing of that name stands there: the step fails, never clicking the other one
    nowhere = [{"action": 'Click "Log out" at the bottom right', "expected": '"Signed out from the footer" is shown'}]
    assert_stopped_before_clicking(run_on_page(TWO_LOG_OUTS, nowhere, tmp_path / "nowhere", grammar))


COMMENT_BOX = """<!doctype html><html><body>
<h3>Description</h3><p>Printer jams on page two.</p>
<h3>Add Comment</h3>
<fieldset><label for="c">You may use WikiFormatting here.</label><p><textarea id="c"></textarea></p></fieldset>
<h3>Notes</h3><textarea aria-label="Public note"></textarea><textarea aria-label="Private note"></textarea>
<button onclick="out.textContent = 'Comment: ' + document.getElementById('c').value">Submit changes</button>
<p id="out"></p></body></html>"""


def test_a_text_area_is_named_by_the_heading_over_it_whatever_hint_its_label_gives_and_replays(tmp_path):
    steps = [{"action": 'Type "Same here" into the Add Comment box and click "Submit changes"',
              "expected": '"Comment: Same here" is shown'}]
    assert_green(generate_on_page(COMMENT_BOX, steps, tmp_path))
    # two text areas under one heading: the heading does not say which
    notes = [{"action": 'Type "Same here" into the Notes box', "expected": '"Comment: Same here" is not shown'}]
    failed = run_on_page(COMMENT_BOX, notes, tmp_path / "notes")
    assert failed.verdict.status == "failed" and failed.verdict.step == 1, failed.verdict
    assert not [o for o in failed.operations if o.kind == "fill" and o.ok]


CATEGORIES_TWICE = """<!doctype html><html><body style="margin:0">
<main style="margin-right:300px;min-height:700px"><h2>Categories</h2>
<a href="#" onclick="said.textContent = 'Main list'">Book Reviews</a><p id="said"></p></main>
<aside style="position:absolute;right:0;top:0;width:260px"><h3>Categories</h3>
<a href="#" onclick="said.textContent = 'Sidebar list'">Book Reviews</a></aside>
</body></html>"""


def test_a_title_and_a_part_said_first_are_both_where_the_element_is(tmp_path):
    grammar = Settings(expected_reader="grammar")
    steps = [{"action": "Under Categories in the right sidebar, click Book Reviews", "expected": '"Sidebar list" is shown'}]
    record = run_on_page(CATEGORIES_TWICE, steps, tmp_path, grammar)
    assert_passed(record)
    assert not record.readings[0].unused


ACTIONS_BOX = """<!doctype html><html><body>
<fieldset><legend>Action</legend>
<div><input type="radio" name="action" id="leave" checked><label for="leave">leave</label> as new</div>
<div><input type="radio" name="action" id="reassign"><label for="reassign">reassign</label> to
<input id="owner" value="anonymous"></div>
<div><input type="radio" name="action" id="accept"><label for="accept">accept</label></div>
</fieldset><input id="cc" aria-label="Cc">
<button onclick="said.textContent = 'Owner: ' + owner.value + (reassign.checked ? ' (reassigned)' : '')">Submit</button>
<p id="said"></p></body></html>"""


def test_a_field_next_to_it_is_the_one_beside_the_element_said_before_and_replays(tmp_path):
    grammar = Settings(expected_reader="grammar")
    steps = [{"action": 'Click the "reassign to" radio button and type "carol" into the field next to it, then click '
                        "Submit", "expected": '"Owner: carol (reassigned)" is shown'}]
    record = run_on_page(ACTIONS_BOX, steps, tmp_path, grammar)
    assert_passed(record)
    assert record.readings[0].meaning[1].startswith("fill field with 'carol' next to 'it'")
    assert_green(generate_on_page(ACTIONS_BOX, steps, tmp_path / "suite", grammar))


STATUS_ROWS = """<!doctype html><html><body>
<table><tr><th>Title</th><th>Status</th></tr>
<tr><td>Autumn Sale</td><td><label><input type="radio" name="s1" checked> Draft</label>
<label><input type="radio" name="s1" id="p1"> Published</label></td></tr>
<tr><td>Summer Reading</td><td><label><input type="radio" name="s2"> Draft</label>
<label><input type="radio" name="s2" id="p2" checked> Published</label></td></tr></table>
<button onclick="said.textContent = 'Autumn Sale ' + (p1.checked ? 'published' : 'draft')">Save</button>
<p id="said"></p></body></html>"""


def test_a_radio_button_selected_by_name_in_a_row_is_ticked_there_and_replays(tmp_path):
    grammar = Settings(expected_reader="grammar")
    steps = [{"action": 'In the row for "Autumn Sale", select the Published radio button and click Save',
              "expected": '"Autumn Sale published" is shown'}]
    record = passes_whole_and_replays(STATUS_ROWS, steps, tmp_path, grammar)
    assert record.readings[0].meaning[0].startswith("choose 'Published' radio button in the row of 'Autumn Sale'")


TWO_TABLES = """<!doctype html><html><body>
<table><tr><td>A-1</td></tr></table>
<button onclick="said.textContent = 'First export'">Export</button>
<table><tr><td>B-1</td></tr></table>
<button onclick="said.textContent = 'Second export'">Export</button>
<p id="said"></p></body></html>"""


def test_a_landmark_the_page_has_twice_is_no_place_and_nothing_is_clicked(tmp_path):
    steps = [{"action": 'Click the "Export" button below the table', "expected": '"Second export" is shown'}]
    failed = run_on_page(TWO_TABLES, steps, tmp_path, Settings(expected_reader="grammar"))
    assert_stopped_before_clicking(failed)
    assert "not found (the page has 2" in failed.verdict.reason


DRAWN_TABLE = """<!doctype html><html><body style="margin:0;width:900px">
<style>.line{display:flex} .line>div{width:150px;height:28px} .bar{display:flex;gap:12px;padding:6px}</style>
<div class="bar"><button onclick="said.textContent = 'Added over the grid'">Add</button><button>Import</button>
<span style="flex:1"></span><input placeholder="Search" oninput="said.textContent = 'Searching the grid'"></div>
<div><div class="line"><div>Date</div><div>Payee</div><div>Notes</div><div>Amount</div></div>
<div class="line"><div>May 2</div><div>Grocer</div><div></div><div>12.50</div></div>
<div class="line"><div>May 3</div><div>Bakery</div><div>bread</div><div>4.10</div></div></div>
<div style="margin-top:120px"><input placeholder="Search" oninput="said.textContent = 'Searching the page'"></div>
<button onclick="said.textContent = 'Added under the grid'">Add</button>
<p id="said"></p></body></html>"""


def test_a_table_drawn_with_boxes_is_its_lines_of_cells_in_columns_and_replays(tmp_path):
    grammar = Settings(expected_reader="grammar")
    above = [{"action": 'Click "Add" above the transaction table', "expected": '"Added over the grid" is shown'}]
    assert_green(generate_on_page(DRAWN_TABLE, above, tmp_path, grammar))
    below = [{"action": 'Click "Add" below the table', "expected": '"Added under the grid" is shown'}]
    assert_passed(run_on_page(DRAWN_TABLE, below, tmp_path / "below", grammar))
    # the toolbar over the table is at its top: its search box, not the one far under it
    corner = [{"action": 'Type "bread" into the Search box at the top right of the table',
               "expected": '"Searching the grid" is shown'}]
    assert_passed(run_on_page(DRAWN_TABLE, corner, tmp_path / "corner", grammar))
    # lines whose cells stand in other columns are no table: the place is not found, nothing clicked
    ragged = DRAWN_TABLE.replace('<div>May 2</div><div>Grocer</div><div></div><div>12.50</div>',
                                 '<div style="width:500px">May 2</div><div style="width:50px">Grocer</div>'
                                 '<div style="width:50px">12.50</div>').replace(
        '<div>May 3</div><div>Bakery</div><div>bread</div><div>4.10</div>',
        '<div style="width:50px">May 3</div><div style="width:50px">Bakery</div><div style="width:500px">4.10</div>')
    assert_stopped_before_clicking(run_on_page(ragged, below, tmp_path / "ragged", grammar))


STATUS_PAGE = """<!doctype html><html><body>
<label for="s">Status</label> <input id="s" value="open">
<button onclick="s.value = 'Closed'; drafts.remove()">Close</button>
<ul><li>Published</li><li id="drafts">Draft</li></ul></body></html>"""


def test_what_a_field_changes_to_and_what_there_is_no_more_are_checked_and_replay(tmp_path):
    grammar = Settings(expected_reader="grammar")
    steps = [{"action": "Click Close",
              "expected": 'The Status changes to Closed and there is no "Draft" in the list any more'}]
    # a value the field did not change to fails there
    wrong = [{"action": "Click Close", "expected": "The Status changes to Resolved"}]
    replays_and_catches(STATUS_PAGE, steps, wrong, tmp_path, grammar)


SIDE_MENU_GROUPS = """<!doctype html><html><body style="margin:0">
<div id="side-panel" style="position:fixed;left:0;top:0;width:220px;height:100%"><ul>
<li><a href="#">Content</a><ul><li><a href="#" onclick="said.textContent = 'Content settings'">Settings</a></li></ul></li>
<li><a href="#">Site</a><ul><li><a href="#">Sites</a></li>
<li><a href="#" onclick="said.textContent = 'Site settings from the menu'">Settings</a></li></ul></li></ul></div>
<main style="margin-left:260px"><table><caption>Site</caption><tr><td>
<a href="#" onclick="said.textContent = 'Site settings from the table'">Settings</a></td></tr></table>
<p id="said"></p></main></body></html>"""


def test_a_link_over_a_list_titles_that_list_in_a_side_menu_and_replays(tmp_path):
    grammar = Settings(expected_reader="grammar")
    steps = [{"action": 'Click "Settings" in the sidebar under Site', "expected": '"Site settings from the menu" is shown'}]
    passes_whole_and_replays(SIDE_MENU_GROUPS, steps, tmp_path, grammar)
    # a title the menu does not have: nothing clicked
    users = [{"action": 'Click "Settings" in the sidebar under Users', "expected": '"Site settings" is shown'}]
    assert_stopped_before_clicking(run_on_page(SIDE_MENU_GROUPS, users, tmp_path / "users", grammar))


TWO_NAV_BARS = """<!doctype html><html><body style="margin:0">
<nav><a href="#" onclick="said.textContent = 'Contact from the top'">Contact</a></nav>
<main style="height:1200px"><p id="said"></p></main>
<nav><a href="#" onclick="said.textContent = 'Contact from the bottom'">Contact</a></nav></body></html>"""


def test_a_part_said_with_where_it_stands_is_the_one_standing_there_and_replays(tmp_path):
    grammar = Settings(expected_reader="grammar")
    top = [{"action": 'Click "Contact" in the top navigation bar', "expected": '"Contact from the top" is shown'}]
    assert_green(generate_on_page(TWO_NAV_BARS, top, tmp_path, grammar))
    bottom = [{"action": 'Click "Contact" in the bottom navigation bar', "expected": '"Contact from the bottom" is shown'}]
    assert_passed(run_on_page(TWO_NAV_BARS, bottom, tmp_path / "bottom", grammar))
    # no navigation bar stands on the left: nothing clicked
    left = [{"action": 'Click "Contact" in the left navigation bar', "expected": '"Contact from the top" is shown'}]
    assert_stopped_before_clicking(run_on_page(TWO_NAV_BARS, left, tmp_path / "left", grammar))


TWO_TRAYS = """<!doctype html><html><body>
<section><h2>Edit inject node</h2><button onclick="said.textContent = 'Inject above'">inject now</button>
<ul><li>payload</li><li>topic</li></ul>
<button onclick="said.textContent = 'Inject below'">inject now</button></section>
<section><h2>Edit debug node</h2><ul><li>output</li></ul>
<button onclick="said.textContent = 'Debug below'">inject now</button></section>
<p id="said"></p></body></html>"""


def test_a_title_said_first_and_a_landmark_after_both_place_the_element_and_replay(tmp_path):
    grammar = Settings(expected_reader="grammar")
    steps = [{"action": 'In the "Edit inject node" section, click the "inject now" button below the list',
              "expected": '"Inject below" is shown'}]
    passes_whole_and_replays(TWO_TRAYS, steps, tmp_path, grammar)


def test_a_menu_drawn_as_a_box_of_its_class_shows_the_labels_listed_unquoted_and_replays(tmp_path):
    grammar = Settings(expected_reader="grammar")
    steps = [{"action": 'Click the gear icon next to the "priority" column header',
              "expected": "A menu opens with Facet by this and Sort ascending"}]
    # a label the menu lacks fails there
    wrong = [{"action": 'Click the gear icon next to the "priority" column header',
              "expected": "A menu opens with Facet by this and Hide this column"}]
    replays_and_catches(COLUMN_MENUS, steps, wrong, tmp_path, grammar)


CLASSED_FACETS = """<!doctype html><html><body>
<div class="facet-info facet-tracker-issues-status" id="facet-status"><p><strong>status</strong></p>
<ul><li><a href="#">Open</a> 47</li><li><a href="#">Closed</a> 32</li></ul></div>
<div class="facet-info facet-tracker-issues-priority" id="facet-priority"><p><strong>priority</strong></p>
<ul><li><a href="#">High</a> 29</li><li><a href="#">Low</a> 25</li></ul></div>
<p>Also: Low 7</p></body></html>"""


def test_a_part_described_in_lower_case_words_is_the_box_whose_class_says_them_and_replays(tmp_path):
    grammar = Settings(expected_reader="grammar")
    steps = [{"action": 'Verify "Open" is shown', "expected": "A status facet appears listing Open 47 and Closed 32"}]
    passes_whole_and_replays(CLASSED_FACETS, steps, tmp_path, grammar)
    # a text of another box, or of the page outside the box, fails there
    other = [{"action": 'Verify "Open" is shown', "expected": "A status facet appears listing Open 47 and Low 7"}]
    assert_failed_at(run_on_page(CLASSED_FACETS, other, tmp_path / "other", grammar), 1, "expectation")
    # a box no class or id describes: the part is not found
    nowhere = [{"action": 'Verify "Open" is shown', "expected": "The owner facet shows Open 47 and Closed 32"}]
    assert_failed_at(run_on_page(CLASSED_FACETS, nowhere, tmp_path / "nowhere", grammar), 1, "expectation")


SIGN_IN_AND_INBOX = """<!doctype html><html><body style="margin:0">
<form id="login" onsubmit="event.preventDefault(); login.hidden = true; app.hidden = false">
<label for="u">Username</label> <input id="u"> <label for="p">Password</label> <input id="p" type="password">
<button>Log in</button></form>
<div id="app" hidden><div id="welcome" role="status"><span>Welcome back!</span>
<button onclick="welcome.remove()">Close</button></div>
<aside><a href="#" onclick="said.textContent = 'Reports of the menu'">Reports</a>
<a href="#" onclick="said.textContent = 'Archive of the menu'">Archive</a></aside>
<main><a href="#" onclick="said.textContent = 'Reports of the page'">Reports</a>
<button onclick="said.textContent += ', exported'">Export</button>
<table><tr><th>Invoice</th><th>Total</th></tr><tr><td>INV-7</td><td>12.50</td></tr></table>
<p id="said"></p></main></div></body></html>"""


def test_a_verb_said_once_for_two_elements_a_part_looked_at_and_a_message_are_read_whole_and_replay(tmp_path):
    grammar = Settings(expected_reader="grammar")
    steps = [{"action": 'Sign in as "dana" with the password "s3cret"',
              "expected": 'The message "Welcome back!" is shown'},
             {"action": "Close the welcome message", "expected": '"Welcome back!" is no longer shown'},
             {"action": 'Click "Reports" in the sidebar, then the "Export" button',
              "expected": '"Reports of the menu, exported" is shown'},
             {"action": 'Open "Archive" from the sidebar', "expected": '"Archive of the menu" is shown'},
             {"action": "Look at the table", "expected": '"INV-7" is shown'}]
    record = run_on_page(SIGN_IN_AND_INBOX, steps, tmp_path, grammar)
    assert_passed(record)
    # 'Close the welcome message' is the rules' reading: the Close button of the box holding "Welcome"; 'message'
    # says what that box is, which the page says too (a status region): every word used
    assert {r.sentence: r.unused for r in record.readings if r.unused} == {}, done(record)
    assert any("(a message: of role \"status\")" in op.description for op in record.operations), done(record)
    assert_green(generate_on_page(SIGN_IN_AND_INBOX, steps, tmp_path / "suite", grammar))
    # the table looked at must be there: a page without one fails at that step
    no_table = SIGN_IN_AND_INBOX.replace("<table>", "<div>").replace("</table>", "</div>")
    assert_failed_at(run_on_page(no_table, steps, tmp_path / "no-table", grammar), 5, "expectation")


ORDERS_HEADING = """<!doctype html><html><head><title>Shop - Orders (3)</title></head><body>
<h1>Orders (3)</h1><h2>Archive</h2><ul><li>#13 Paid</li><li>#14 Unpaid</li></ul></body></html>"""


def test_the_page_heading_is_its_main_heading_alone_and_replays(tmp_path):
    grammar = Settings(expected_reader="grammar")
    steps = [{"action": 'Check that the page heading reads "Orders (3)" and that #13 is listed'}]
    replays_and_catches(ORDERS_HEADING, steps, [{"action": 'Check that the page heading reads "Archive"'}], tmp_path,
                        grammar)
    # the browser's title is no heading, and the heading reads the text whole: "Orders" is not "Orders (3)"
    for said in ("Shop", "Orders"):
        assert_failed_at(run_on_page(ORDERS_HEADING, [{"action": f'Check that the page heading reads "{said}"'}],
                                     tmp_path / said, grammar), 1, "expectation")


POSTS_BY_MONTH = """<!doctype html><html><body><h1>Blog</h1><p>Viewing posts from June</p>
<ul class="posts"><li><a href="#">Opening Hours</a> by Emma</li><li><a href="#">Reading Challenge</a> by Tom</li></ul>
<aside><h2>Archive</h2><ul><li>May</li><li>June</li><li>July</li></ul></aside></body></html>"""


def test_a_count_said_before_unquoted_names_counts_their_list_and_replays(tmp_path):
    grammar = Settings(expected_reader="grammar")
    steps = [{"action": "Look at the page",
              "expected": '"Viewing posts from June" is shown and the page shows two posts: Opening Hours (Emma) and '
                          "Reading Challenge (Tom)"}]
    wrong = [{"action": "Look at the page", "expected": "The page shows three posts: Opening Hours and Reading Challenge"}]
    replays_and_catches(POSTS_BY_MONTH, steps, wrong, tmp_path, grammar)


FILES_AND_CHIPS = """<!doctype html><html><body><h1>Library</h1>
<h2>Files</h2><ul><li><a href="#" onclick="said.textContent = 'Opened Budget'">Household Budget</a></li></ul>
<h2>Tags</h2><span class="tag-chip" onclick="said.textContent = 'Filtered by logger'">logger</span>
<p id="said"></p></body></html>"""


def test_what_a_step_says_an_element_is_is_used_when_the_page_says_so_and_reported_when_not(tmp_path):
    grammar = Settings(expected_reader="grammar")
    steps = [{"action": 'Click the "Household Budget" file', "expected": '"Opened Budget" is shown'},
             {"action": 'Click the chip "logger"', "expected": 'The file "Household Budget" is listed'}]
    record = passes_whole_and_replays(FILES_AND_CHIPS, steps, tmp_path, grammar)
    assert any('(a file: under "Files")' in o.description for o in record.operations), done(record)
    # a word the page does not say of the element: done, and reported as not used (never a reason to pick another)
    ticket = run_on_page(FILES_AND_CHIPS, [{"action": 'Click the "Household Budget" ticket'}], tmp_path / "t", grammar)
    assert_passed(ticket)
    assert [r.unused for r in ticket.readings if r.unused] == [["ticket"]], ticket.readings
    # a text's own words never say what it is: a heading "Budget files" names no file "Budget"
    folder = "<!doctype html><html><body><h1>Budget files</h1><p>Empty</p></body></html>"
    record = run_on_page(folder, [{"action": "Look at the page", "expected": 'The file "Budget" is listed'}], tmp_path / "f",
                         grammar)
    assert [r.unused for r in record.readings if r.unused] == [["file"]], done(record)


PAGE_TREE_BY_ID = """<!doctype html><html><body><h1>Pages</h1>
<p><a href="#" onclick="said.textContent = 'Recent: Opening Hours'">Opening Hours</a></p>
<div id="tree"><ol><li><a href="#" onclick="said.textContent = 'Tree: Opening Hours'">Opening Hours</a></li>
<li><a href="#">About</a></li></ol></div><p id="said"></p></body></html>"""


def test_a_tree_the_page_marks_by_its_id_is_a_place_and_replays(tmp_path):
    grammar = Settings(expected_reader="grammar")
    steps = [{"action": 'Click "Opening Hours" in the tree', "expected": '"Tree: Opening Hours" is shown'}]
    passes_whole_and_replays(PAGE_TREE_BY_ID, steps, tmp_path, grammar)


MILESTONES_TABLE = """<!doctype html><html><body><h2>Manage Milestones (2)</h2>
<table><tr><th>Name</th><th>Owner</th></tr><tr><td>Someday</td><td>alice</td></tr><tr><td>1.0</td><td>bob</td></tr>
</table><p>Someday is the default.</p></body></html>"""


def test_a_table_that_has_a_row_and_a_heading_that_reads_a_text_are_checked_and_replay(tmp_path):
    grammar = Settings(expected_reader="grammar")
    steps = [{"action": 'Make sure the heading reads "Manage Milestones (2)" and the table has a "Someday" row with '
                        '"alice"'}]
    replays_and_catches(MILESTONES_TABLE, steps, [{"action": 'Check that the table has a "Someday" row with "bob"'}],
                        tmp_path, grammar)


DIALOG_TO_CLOSE = """<!doctype html><html><body><h1>Packages</h1><button>CLOSE ALL</button>
<div role="dialog" id="about" aria-label="About"><h2>About</h2><p>Version 6</p>
<button onclick="about.remove()">CLOSE</button></div></body></html>"""


def test_closing_a_dialog_clicks_the_control_said_inside_it_and_replays(tmp_path):
    grammar = Settings(expected_reader="grammar")
    steps = [{"action": "Close the dialog with CLOSE", "expected": '"Version 6" is no longer shown'}]
    passes_whole_and_replays(DIALOG_TO_CLOSE, steps, tmp_path, grammar)
    # no dialog: nothing is clicked, not even a control of that name elsewhere
    no_dialog = DIALOG_TO_CLOSE.replace('role="dialog" ', "").replace("CLOSE ALL", "CLOSE")
    assert_stopped_before_clicking(run_on_page(no_dialog, steps, tmp_path / "none", grammar))


PEOPLE_ROWS = """<!doctype html><html><body><h1>people: 3</h1><table>
<tr><th>name</th><th>team</th></tr><tr><td>Ann Lee</td><td>Platform</td></tr><tr><td>Chen Wei</td><td>Growth</td></tr>
<tr><td>Julia Moreau</td><td>Growth</td></tr></table></body></html>"""


def test_a_row_said_by_its_order_is_checked_and_replays(tmp_path):
    grammar = Settings(expected_reader="grammar")
    steps = [{"action": "Look at the table",
              "expected": 'The heading reads "people: 3", the first row is "Ann Lee" and "Julia Moreau" is in the last '
                          "row"}]
    wrong = [{"action": "Look at the table", "expected": 'The first row is "Chen Wei"'}]
    replays_and_catches(PEOPLE_ROWS, steps, wrong, tmp_path, grammar)


TICKET_BOX = """<!doctype html><html><body><h1>Ticket #13 <span>new defect</span></h1>
<table><tr><th>Reported by:</th><td>anonymous</td><th>Owned by:</th><td>Bob Tanaka</td></tr>
<tr><th>Priority:</th><td>minor</td><th>Component:</th><td>Frontend</td></tr></table></body></html>"""


def test_labels_with_their_values_after_a_colon_are_checked_each_and_replay(tmp_path):
    grammar = Settings(expected_reader="grammar")
    steps = [{"action": "Look at the table", "expected": "Reported by: anonymous, Owned by: Bob Tanaka, Priority: minor"}]
    wrong = [{"action": "Look at the table", "expected": "Priority: major"}]
    replays_and_catches(TICKET_BOX, steps, wrong, tmp_path, grammar)


COMMENTS_SECTION = """<!doctype html><html><body><h1>A post</h1><p>There are currently no comments</p>
<h2>Comments</h2><p>Be the first to comment</p><table><tr><td>1</td></tr></table><a href="#">Next page</a>
</body></html>"""


def test_a_text_under_a_heading_is_in_its_section_and_under_a_table_below_it_and_replays(tmp_path):
    grammar = Settings(expected_reader="grammar")
    steps = [{"action": "Look at the table", "expected": '"Be the first to comment" is shown under the Comments heading '
                                                          'and "Next page" is shown under the table'}]
    # a text of the page, but above the heading: not under it
    wrong = [{"action": "Look at the table",
              "expected": '"There are currently no comments" is shown under the Comments heading'}]
    replays_and_catches(COMMENTS_SECTION, steps, wrong, tmp_path, grammar)


TWO_NOTICES = """<!doctype html><html><body><h1>Budget</h1>
<div class="notification"><span>Welcome back!</span><button aria-label="Close" onclick="this.parentElement.remove()">×</button></div>
<div class="notification"><span>Sync done</span><button aria-label="Close" onclick="this.parentElement.remove()">×</button></div>
</body></html>"""


def test_closing_a_named_notification_clicks_the_close_control_in_its_own_box_and_replays(tmp_path):
    grammar = Settings(expected_reader="grammar")
    steps = [{"action": 'Close the "Welcome back!" notification with its × button',
              "expected": '"Welcome back!" is no longer shown and "Sync done" is shown'}]
    record = passes_whole_and_replays(TWO_NOTICES, steps, tmp_path, grammar)
    assert any("(a notification: of class" in o.description for o in record.operations), done(record)
