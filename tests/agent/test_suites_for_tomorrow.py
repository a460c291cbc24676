"""Suites that replay tomorrow and read as the tester wrote: each shape on a page of its own.

A row is never found by today's date, a form never named by an invisible heading or by one of a section inside it,
a field never by its `name` attribute in a step's words; a card is called what the tester called it; each value the
tester typed is a column of its own and a parameter is named for what it holds. Every suite here also replays green
in cucumber-js.
"""

from __future__ import annotations

import datetime

import pytest

from shared.volatile import volatile_parts
from tests.agent.pages_site import assert_green, generate_on_page

pytestmark = pytest.mark.e2e  # its tier (tests/conftest.py)


def generated(html: str, steps: list, tmp_path) -> tuple[str, str]:
    """The feature and step definitions generated from one scenario on a page serving `html`, once its suite replayed
    green in cucumber-js."""
    assert_green(generate_on_page(html, steps, tmp_path))
    suite = tmp_path / "suite" / "features"
    return next(suite.glob("*.feature")).read_text(), (suite / "step_definitions" / "steps.js").read_text()


def examples_header(feature: str) -> list[str]:
    lines = feature.splitlines()
    at = next(i for i, line in enumerate(lines) if line.strip().startswith("Examples:"))
    return [cell.strip() for cell in lines[at + 1].strip().strip("|").split("|")]


def _today(days: int = 0) -> str:
    day = datetime.date.today() + datetime.timedelta(days=days)
    return f"{day:%b}. {day.day}, {day.year}"


# Two notes by the same author, each under the date it was written (today's seed data): only the date and the
# title tell the items apart.
NOTES = f"""<!doctype html><html><body>
<h2>Notes</h2>
<ul class="notes">
  <li><span class="date">{_today()}</span> <a href="#a" onclick="show('Weekly sync')">dana</a>
      <span class="title">Weekly sync</span></li>
  <li><span class="date">{_today(-1)}</span> <a href="#b" onclick="show('Budget review')">dana</a>
      <span class="title">Budget review</span></li>
</ul>
<p id="shown"></p>
<script>function show(t) {{ document.getElementById('shown').textContent = 'Opened ' + t; }}</script>
</body></html>"""


def test_an_item_is_never_found_by_today_s_date(tmp_path):
    feature, steps = generated(NOTES, [{"action": 'Click the first "dana" link',
                                        "expected": '"Opened Weekly sync" is shown'}], tmp_path)
    assert volatile_parts(feature) == [] and volatile_parts(steps) == [], (feature, steps)
    assert _today() not in steps and str(datetime.date.today().year) not in steps


INVISIBLE_HEADING = """<!doctype html><html><head><meta charset="utf-8"></head><body>
<h2>\u200b</h2>
<form onsubmit="event.preventDefault(); document.getElementById('out').textContent = 'Saved ' + this.who.value">
  <label>Name <input name="who"></label> <label>Email <input name="mail"></label>
  <button>Save</button>
</form>
<p id="out"></p>
</body></html>"""


def test_a_form_is_never_named_by_an_invisible_heading(tmp_path):
    feature, _ = generated(INVISIBLE_HEADING, [
        {"action": 'Enter "Ann" in the Name field and "ann@example.com" in the Email field, then click "Save"',
         "expected": '"Saved Ann" is shown'}], tmp_path)
    assert "\u200b" not in feature and "Fill in the" not in feature, feature


ONLY_A_NAME = """<!doctype html><html><body>
<form onsubmit="event.preventDefault(); document.getElementById('out').textContent = 'Hello ' + this.__user_name.value">
  <input name="__user_name"> <button>Go</button>
</form>
<p id="out" role="status"></p>
</body></html>"""


def test_a_field_is_never_named_by_its_name_attribute_in_a_step(tmp_path):
    feature, steps = generated(ONLY_A_NAME, [{"action": 'Type "sam" in the user name field and click "Go"',
                                              "expected": 'The message "Hello sam" is shown'}], tmp_path)
    assert "__user_name" not in feature and "user name" in feature, feature
    assert "__user_name" in steps  # the locator may read the attribute
    assert examples_header(feature) == ["userName", "expectedMessage"], feature


INLINE_SECTION = """<!doctype html><html><body>
<h2>New customer</h2>
<form onsubmit="event.preventDefault(); document.getElementById('out').textContent = 'Created ' + this.name.value">
  <label>Name <input name="name"></label> <label>Email <input name="email"></label>
  <h3>Addresses</h3>
  <table><tr><th>Street</th><th>City</th></tr><tr><td>1 Main St</td><td>Springfield</td></tr></table>
  <button>Create</button>
</form>
<p id="out"></p>
</body></html>"""


def test_a_form_is_titled_by_the_heading_above_it_not_by_a_section_inside(tmp_path):
    feature, _ = generated(INLINE_SECTION, [
        {"action": 'Enter "Ann" in the Name field and "ann@example.com" in the Email field and click "Create"',
         "expected": '"Created Ann" is shown'}], tmp_path)
    assert "Addresses" not in feature and "Fill in the New customer form" in feature, feature


CARDS = """<!doctype html><html><body>
<h2>Articles</h2>
<div class="cards">
  <a class="card" href="#q" onclick="document.getElementById('out').textContent = 'Reading Quarterly report'">
    <h3>Quarterly report</h3><p>What the quarter brought in sales and hiring</p><span>Read more...</span>
    <span class="tag">finance</span></a>
  <a class="card" href="#h" onclick="document.getElementById('out').textContent = 'Reading Hiring plan'">
    <h3>Hiring plan</h3><p>Who joins the teams next year</p><span>Read more...</span><span class="tag">people</span></a>
</div>
<p id="out"></p>
</body></html>"""


def test_a_card_is_called_what_the_tester_called_it(tmp_path):
    feature, _ = generated(CARDS, [{"action": 'Click the "Quarterly report" card',
                                    "expected": '"Reading Quarterly report" is shown'}], tmp_path)
    step = next(line for line in feature.splitlines() if line.strip().startswith("When"))
    assert "Quarterly report" in step and "Read more" not in step and "finance" not in step, feature


SIGN_IN = """<!doctype html><html><body>
<form onsubmit="event.preventDefault();
  document.getElementById('out').textContent = 'Welcome ' + this.user.value + ' (' + this.pass.value.length + ')'">
  <label>User name <input name="user"></label> <label>Password <input name="pass" type="password"></label>
  <button>Sign in</button>
</form>
<p id="out" role="status"></p>
</body></html>"""


def test_two_fields_of_equal_value_are_two_columns(tmp_path):
    feature, _ = generated(SIGN_IN, [
        {"action": 'Enter "demo" in the User name field and "demo" in the Password field and click "Sign in"',
         "expected": 'The message "Welcome demo (4)" is shown'}], tmp_path)
    assert examples_header(feature) == ["userName", "password", "expectedMessage"], feature
