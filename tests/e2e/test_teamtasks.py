"""The second demo application: a single-page app whose API answers late from another port, with htmx swaps and a
stylesheet host that never answers. Every scenario of examples/teamtasks.yaml (type-ahead, dialogs, icons, rows,
places, hover, tabs, uploads, history, waits, absence) is generated, verified, and replayed green twice by the
suite alone (the generation's own replay of the final text, then an installed copy's); failing variants fail at
the right step with the right kind."""

from __future__ import annotations

import json
from collections import Counter

import pytest

from shared.records import RunRecord
from shared.scenarios import load_scenarios
from tests.apps.reset import reset_command
from tests.apps.teamtasks import serve_in_thread
from tests.npm_install import installed_copy

from .conftest import ROOT, generate
from .test_generate_examples import run_cucumber

pytestmark = pytest.mark.e2e

EXAMPLES = ROOT / "examples" / "teamtasks.yaml"
ALL = [s.id for s in load_scenarios(EXAMPLES).scenarios]
NEW_KINDS = {"assert_absent", "history", "accept_dialog", "dismiss_dialog", "pick", "type", "hover", "upload",
             "switch_tab", "wait_for", "wait_gone"}


@pytest.fixture(scope="module")
def teamtasks():
    app = serve_in_thread()  # every API answer late (TEAMTASKS_DELAY_MS: tests/conftest.py)
    yield app
    app.stop()


@pytest.fixture(scope="module")
def reset(teamtasks) -> str:
    return reset_command(teamtasks.web_url)


@pytest.fixture(scope="module")
def run(teamtasks, reset, tmp_path_factory):
    return generate(EXAMPLES, teamtasks.web_url, tmp_path_factory.mktemp("teamtasks"), reset)


def test_every_scenario_is_verified(run, teamtasks):
    report = json.loads(run.report.read_text())
    assert len(ALL) >= 20
    assert run.exit_code == 0, {sid: e["reason"] for sid, e in report["scenarios"].items() if e["reason"]}
    assert list(report["scenarios"]) == ALL
    assert {sid: e["verdict"] for sid, e in report["scenarios"].items()} == dict.fromkeys(ALL, "passed")
    # The stylesheet host that never answers is cut off after its first request, and said so.
    stalled = [url for e in report["scenarios"].values() for url in e["stalled_requests"]]
    assert len(stalled) == 1 and stalled[0].startswith(teamtasks.stylesheet), stalled


def test_every_new_action_kind_is_exercised(run):
    kinds = Counter()
    for scenario in ALL:
        record = RunRecord.model_validate_json((run.artifacts / scenario / "attempt-1" / "run.json").read_text())
        kinds.update(op.kind for op in record.operations if op.ok and not op.redundant)
    assert NEW_KINDS <= set(kinds), f"missing: {NEW_KINDS - set(kinds)}"


def test_the_steps_say_it_in_playwright_s_terms(run):
    steps = (run.suite / "features/step_definitions/steps.js").read_text()
    assert "xpath=" not in steps
    expected = [
        # type-ahead: real key events, then the suggestion by its text
        '.fill(""); await this.page.locator("#assignee").pressSequentially(assignee);',
        "await this.pickOption(option);",
        # icon-only controls in the row named by the row's own text, an argument: one step for every row
        'locator("tr").filter({ hasText: absentText }).getByTitle("Delete", { exact: true }).click();',
        'getByRole("button", { name: "Star", exact: true }).click();',
        # dialogs answered as the step says, set up before the click
        "this.answerNextDialog(true);", "this.answerNextDialog(false);", "this.answerNextDialog(true, promptAnswer);",
        # a clickable row by a text of its own, not all its cells
        'locator("tr").filter({ hasText: rowText }).locator(":scope").click();',
        # unnamed fields by their section's heading and their order there
        'locator("section").filter({ hasText: "Profile" }).getByRole("textbox").nth(1)',
        # an unnamed checkbox by its row
        'locator("tr").filter({ hasText: rowText }).getByRole("checkbox").check();',
        ".hover();", 'await this.switchTab("new");', 'await this.switchTab("first");',
        "await this.page.goBack();", "await this.page.goForward();", "await this.page.reload();",
        ".setInputFiles(this.file(fileName));", "await this.waitForText(awaitedText);",
        "await this.waitForNoText(awaitedText);", "await this.expectNoText(absentText);",
        'await this.expectAbsent(this.page.getByRole("button", { name: "Mark done", exact: true }));',
        # a checkbox whose label is an image: grounded by the image's alt, located by its id
        '// Tick the "Urgent" checkbox', 'this.page.locator("#urgent").check();',
    ]
    missing = [line for line in expected if line not in steps]
    assert not missing, f"not in steps.js: {missing}\n{steps}"
    assert (run.suite / "files" / "notes.txt").read_text() == (ROOT / "examples/files/notes.txt").read_text()


def test_the_installed_suite_replays_green_as_the_generation_s_own_replay_did(run, teamtasks, reset, tmp_path):
    # Every scenario of the suite was replayed green against this very text by the generation (its verified digest);
    # this second replay runs it as a user does: its own npm install, `npx cucumber-js`, no stepforge around it.
    report = json.loads(run.report.read_text())
    scenarios = report["scenarios"]
    assert all(e["verdict"] == "passed" and e["replays"] >= 1 for e in scenarios.values()), scenarios
    suite = installed_copy(run.suite, tmp_path)
    rows = sum(len(s.data) or 1 for s in load_scenarios(EXAMPLES).scenarios)
    done = run_cucumber(suite, teamtasks.web_url, reset)
    assert done.returncode == 0, f"{done.stdout}\n{done.stderr}"
    assert f"{rows} scenarios ({rows} passed)" in done.stdout


SIGN_IN = """    start: /login
    steps:
      - Fill Email with alice@example.com
      - Fill Password with wonderland
      - Click Sign in
"""
# id, the steps after signing in, the 1-based step that must fail, its kind, words of the reason
FAILING = [
    ("BAD-WELCOME", ['"Welcome, Bob" is shown'], 4, "expectation", 'does not show "Welcome, Bob"'),
    ("BAD-BUTTON", ["Click Archive all"], 4, "action", "Archive all"),
    ("BAD-ABSENT", ["Click the trash icon next to Book the team dinner and dismiss the confirmation",
                    'Verify "Book the team dinner" is no longer listed'], 5, "expectation",
     'still shows "Book the team dinner"'),
    ("BAD-ELEMENT-ABSENT", ["Verify the Mark done button is not shown"], 4, "expectation", "still shows"),
    ("BAD-NO-DIALOG", ["Click Settings and accept the confirmation"], 4, "action", "no dialog appeared to accept"),
    ("BAD-PICK", ["Click New task", 'Type "car" into the Assignee field and pick Nobody Known from the suggestions'],
     5, "action", 'no open list offers "Nobody Known"'),
    ("BAD-HOVER", ["Hover over Help center"], 4, "action", "Help center"),
    ("BAD-UPLOAD", ["Click the Water the plants row", "Upload missing.txt as the Attachment"], 5, "action",
     "no file 'missing.txt'"),
    ("BAD-TAB", ["Switch to the new tab"], 4, "action", "no new tab or popup opened"),
    ("BAD-WAIT", ["Hover over More and click Reports", "Click Export CSV", 'Wait until "Export failed" is shown'],
     6, "action", '"Export failed" did not appear'),
    ("BAD-BACK", ["Click the Book the team dinner row", "Go back", 'Verify "Assigned to Carol Danvers" is shown'],
     6, "expectation", "Assigned to Carol Danvers"),
    ("BAD-ROW", ["Tick the checkbox of Feed the unicorn"], 4, "action", "checkbox"),
    ("BAD-ORDINAL", ["Click Settings", 'Type "x" into the third field under Profile'], 5, "action", "field"),
]


def test_failing_variants_fail_at_the_right_step_with_the_right_kind(teamtasks, reset, tmp_path, monkeypatch):
    monkeypatch.setenv("STEPFORGE_ACTION_TIMEOUT_MS", "3000")
    monkeypatch.setenv("STEPFORGE_WAIT_TIMEOUT_MS", "2000")
    scenarios = tmp_path / "failing.yaml"
    scenarios.write_text("scenarios:\n" + "".join(
        f"  - id: {sid}\n    title: {sid}\n{SIGN_IN}" + "".join(f"      - {json.dumps(step)}\n" for step in steps)
        for sid, steps, *_ in FAILING))
    generation = generate(scenarios, teamtasks.web_url, tmp_path, reset)
    report = json.loads(generation.report.read_text())["scenarios"]
    for sid, _, step, kind, reason in FAILING:
        entry = report[sid]
        assert (entry["verdict"], entry["failed_step"], entry["failure_kind"]) == ("failed", step, kind), (sid, entry)
        assert reason in entry["reason"], (sid, entry["reason"])


def test_the_feature_reads_the_same_for_every_record_and_keeps_the_tester_s_words(run):
    from .test_suite_ownership import assert_no_record_data_in_step_texts, assert_tester_words_kept

    scenarios = load_scenarios(EXAMPLES).scenarios
    feature = (run.suite / "features/teamtasks.feature").read_text()
    assert feature.startswith('Feature: Teamtasks\n\n  Background:\n    Given Open the page "/login"\n')
    # Rows are found by their text as a parameter: one step serves every row.
    assert 'Check the checkbox in the row of "<rowText>"' in feature
    assert 'Click the row of "<rowText>"' in feature  # a clickable row, by its own text
    assert_no_record_data_in_step_texts(run.suite, scenarios)
    assert_tester_words_kept(run.suite, scenarios)
