"""What the generated world.js does, checked by real replays (cucumber-js, playwright-core, Chromium)."""

from __future__ import annotations

import json
import re
import subprocess
from collections.abc import Sequence
from pathlib import Path

import pytest

from shared.records import ActionKind, Locator, Node, Operation
from shared.scenarios import Scenario
from shared.settings import Settings
from tests.agent.scripting.example import RUNS
from workers.agent.actions.shown import shown_text_pattern
from workers.agent.execution.executor import absolute_url
from workers.agent.scripting.gherkin import render_feature
from workers.agent.scripting.javascript import render_steps
from workers.agent.scripting.steps import build_scripts
from workers.agent.scripting.suite import template, write_suite
from workers.agent.verify.replay import replay, replay_scenarios

pytestmark = pytest.mark.e2e  # its tier (tests/conftest.py)

FAST = Settings(assertion_timeout_ms=1000)


def op(index: int, kind: ActionKind, value: str | None = None, css: str | None = None) -> Operation:
    target = Node(id=index + 1, tag="button", role="button", operable=True, text=css or "") if css else None
    locator = Locator(strategy="css", value=css) if css else None
    return Operation(index=index, step_index=index, kind=kind, description="", target=target, locator=locator,
                     value=value)


def answer(expected: str) -> Operation:
    return Operation(index=1, step_index=1, kind="assert_value", description="", value=expected,
                     target=Node(id=9, tag="p", id_attr="answer"), locator=Locator(strategy="css", value="#answer"))


def check(sid: str, start: str, *ops: Operation) -> tuple[Scenario, list[Operation]]:
    return Scenario(id=sid, title=sid, start=start, steps=["x"]), list(ops)


def write(out: Path, runs: Sequence[tuple[Scenario, list[Operation]]]) -> None:
    scripts, defs = build_scripts(runs)
    write_suite(out, "World", render_feature("World", scripts), render_steps(defs))


# --- text checks match whole words ------------------------------------------------------------------


def test_expected_text_matches_whole_words_ignoring_case_and_layout(tmp_path: Path, site: str,
                                                                     node_modules: Path) -> None:
    write(tmp_path, [
        check("inside-a-word", "/count", op(0, "assert_text", "1 owner")),
        check("whole", "/count", op(0, "assert_text", "11 OWNERS")),
        # The DOM says "owner\n      information", CSS shows it upper case: it is what the user sees.
        check("transformed", "/styled", op(0, "assert_text", "Owner Information")),
        check("invisible", "/styled", op(0, "assert_text", "hidden words")),
        check("specials", "/count", op(0, "assert_text", "1.* owners")),
    ])
    results = replay_scenarios(tmp_path, ["inside-a-word", "whole", "transformed", "invisible", "specials"], site,
                               FAST)
    assert not results["inside-a-word"].passed
    assert 'expected the page to show "1 owner"' in results["inside-a-word"].error
    assert results["whole"].passed, results["whole"]
    assert results["transformed"].passed, results["transformed"]
    assert not results["invisible"].passed
    assert not results["specials"].passed  # regular expression characters are literal


# --- dialogs are accepted ---------------------------------------------------------------------------


def test_dialogs_are_accepted(tmp_path: Path, site: str, node_modules: Path) -> None:
    write(tmp_path, [
        check("confirm", "/confirm", op(0, "click", css="#go"), op(1, "assert_text",
                                                                              "Deleted for good")),
        # Accepted, prompt() returns "" (no text is typed) and alert() undefined; dismissed, prompt() returns null.
        check("prompt", "/confirm", op(0, "click", css="#ask"), answer("undefined")),
    ])
    results = replay_scenarios(tmp_path, ["confirm", "prompt"], site, FAST)
    assert results["confirm"].passed, results["confirm"]
    assert results["prompt"].passed, results["prompt"]


# --- the viewport comes from the settings ------------------------------------------------------------


def test_the_viewport_comes_from_the_settings(tmp_path: Path, site: str, node_modules: Path) -> None:
    write(tmp_path, [check("size", "/viewport", op(0, "assert_text", "1000x700"))])
    assert replay(tmp_path, "size", site, Settings(viewport_width=1000, viewport_height=700)).passed
    assert not replay(tmp_path, "size", site, FAST).passed  # the default is 1280x800


# --- paths are resolved against the base URL's path --------------------------------------------------


def test_an_app_below_the_host_root(tmp_path: Path, prefixed_site: str, settings: Settings,
                                    node_modules: Path) -> None:
    scripts, defs = build_scripts(RUNS)
    write_suite(tmp_path, "Owners", render_feature("Owners", scripts), render_steps(defs))
    for base_url in (prefixed_site, prefixed_site + "/"):
        results = replay_scenarios(tmp_path, ["find-owner", "owner-details"], base_url, settings)
        assert all(r.passed for r in results.values()), (base_url, results)


def _world_function(name: str) -> str:
    source = template("stepforge.js")
    match = re.search(rf"^function {name}\(.*?^}}\n", source, re.DOTALL | re.MULTILINE)
    assert match, name
    return match.group(0)


URL_CASES = [
    ("http://h:8080/petclinic", "/owners/find"),
    ("http://h:8080/petclinic/", "/owners/find"),
    ("http://h:8080/petclinic/", "owners?lastName=Davis"),
    ("http://h:8080", "/"),
    ("http://h:8080/", ""),
    ("http://h:8080/a/b", "//owners/1"),
    ("http://h:8080/app", "https://other.test/x"),
    ("http://h:8080/app", "/a/../b"),
    ("http://h:8080/app?tenant=1", "/owners/find"),
    ("http://h:8080/app?tenant=1", "/"),
    ("http://h:8080/app/?tenant=1#top", "owners?lastName=Davis"),
    ("http://h:8080?lang=en", ""),
]
TEXT_CASES = ["1 owner", "Owner  Information", " a.b*c(d)[e]{f}|g^h$i?j+k\\l/m ", "", "naïve café", "x-y"]


def test_node_and_python_agree(tmp_path: Path) -> None:
    """resolveUrl and textPattern in stepforge.js give what the generation (executor.py) computes."""
    script = tmp_path / "probe.js"
    script.write_text(
        _world_function("resolveUrl") + _world_function("escapeRegExp") + _world_function("textPattern")
        + f"const urls = {json.dumps(URL_CASES)};\n"
        + f"const texts = {json.dumps([[t, shown_text_pattern(t).pattern] for t in TEXT_CASES])};\n"
        + "console.log(JSON.stringify({urls: urls.map(([b, p]) => resolveUrl(b, p)),"
        + ' texts: texts.map(([t, py]) => textPattern(t).source === new RegExp(py, "i").source'
        + ' && textPattern(t).flags === "i")}));\n'
    )
    done = subprocess.run(["node", str(script)], capture_output=True, text=True, timeout=60, check=True)
    seen = json.loads(done.stdout)
    assert seen["urls"] == [absolute_url(b, p) for b, p in URL_CASES]
    assert seen["texts"] == [True] * len(TEXT_CASES)


@pytest.mark.parametrize(("text", "page", "found"), [
    ("1 owner", "11 owners", False),
    ("1 owner", "Found 1 owner.", True),
    ("owner information", "OWNER\n  INFORMATION", True),
    ("Davis", "Davison", False),
    ("a.b", "axb", False),
])
def test_the_python_twin_of_the_pattern(text: str, page: str, found: bool) -> None:
    assert bool(shown_text_pattern(text).search(page)) is found


# --- each step waits for what the one before it asked the server for ---------------------------------


def test_a_check_after_a_step_sees_what_its_request_brought(tmp_path: Path, site: str, node_modules: Path) -> None:
    """The page answers the click 0.6 s later with an error: "the page does not show 'disk is full'" right after it
    must fail. Read before the answer, as a suite that does not settle after the click reads it, it would pass."""
    write(tmp_path, [check("late", "/late", op(0, "click", css="#save"), op(1, "assert_absent", "disk is full"))])
    result = replay(tmp_path, "late", site, FAST)
    assert not result.passed and 'expected the page not to show "disk is full"' in result.error, result
