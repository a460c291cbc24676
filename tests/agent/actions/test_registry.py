"""Action kinds are modules: found by looking, each declaring everything about itself."""

from __future__ import annotations

import importlib
import sys
import textwrap

import pytest

import workers.agent.actions as actions
from shared.records import Locator, Operation, ScriptOp
from shared.scenarios import ScenarioStep
from workers.agent.actions import UnknownAction, action, all_actions
from workers.agent.brains import BuiltinBrain, clauses, grammar
from workers.agent.brains.model_brain import answer_schema, guidance
from workers.agent.scripting.javascript import statement
from workers.agent.scripting.wording import describe

CORE = {"click", "fill", "type", "select", "check", "uncheck", "press", "goto", "assert_text", "assert_value"}
NEW = {"assert_absent", "history", "accept_dialog", "dismiss_dialog", "pick", "hover", "upload", "switch_tab",
       "wait_for", "wait_gone", "clear", "double_click", "assert_above", "assert_below", "assert_beside", "assert_state", "assert_in_row",
       "assert_in_section", "assert_not_in_section", "assert_count", "assert_in_column", "assert_row_at", "choose", "expand",
       "assert_part_shown", "assert_part_gone", "assert_column_each", "assert_indented",
       "assert_sorted", "scroll", "assert_page", "assert_title", "assert_heading", "assert_address", "assert_inside",
       "assert_not_inside"}


def test_every_kind_is_a_module_of_its_own_name() -> None:
    names = [a.name for a in all_actions()]
    assert set(names) == CORE | NEW
    for kind in names:
        module = importlib.import_module(f"workers.agent.actions.kinds.{kind}")
        assert module.ACTION.name == kind


def test_an_unknown_kind_is_named_in_the_error() -> None:
    with pytest.raises(UnknownAction, match="unknown action kind 'teleport'"):
        action("teleport")


def test_the_model_is_offered_every_kind_that_acts_and_every_check() -> None:
    schema = answer_schema()
    offered = schema["properties"]["action"]["properties"]["kind"]["enum"]
    checks = schema["properties"]["assertions"]["items"]["properties"]["kind"]["enum"]
    assert set(offered) == {a.name for a in all_actions() if a.for_model} | {"none"}
    assert {"hover", "pick", "upload", "history", "accept_dialog", "dismiss_dialog", "switch_tab", "wait_for"} <= set(offered)
    assert set(checks) == {"text", "value", "absent"}
    text = guidance()
    assert "{actions}" not in text and "- hover: " in text and "- absent: " in text


@pytest.fixture
def extra_kind(tmp_path, monkeypatch):
    """A kind written as one module in a folder of kinds, as a developer adds one."""
    folder = tmp_path / "more_kinds"
    folder.mkdir()
    (folder / "scroll_to.py").write_text(textwrap.dedent('''
        from workers.agent.actions.base import Action, Rule
        from workers.agent.language.phrases import Op, target_phrase

        class ScrollTo(Action):
            name = "scroll_to"
            model_hint = "scroll_to: bring the target into view"
            verbs = frozenset({"bring"})
            rules = (Rule(r"bring\\s+(?P<t>.+?)\\s+into\\s+view", lambda m, s: [Op.on("scroll_to", target_phrase(s, m["t"]))], 5),)

            def describe(self, target, role, value):
                return f"Bring {target} into view"

            def perform(self, act):
                act.target.scroll_into_view_if_needed()

            def phrase(self, op, slot):
                return ["Bring it into view"]

            def comment(self, op, what):
                return "Scroll the element into view"

            def javascript(self, op, target, value):
                return f"await {target}.scrollIntoViewIfNeeded();"

        ACTION = ScrollTo()
    '''))
    from workers.agent.actions import kinds

    monkeypatch.setattr(kinds, "__path__", [*kinds.__path__, str(folder)])
    monkeypatch.setattr(actions, "_ACTIONS", {})
    for cached in (grammar._rules, grammar._statements, clauses.verbs, clauses._split, answer_schema, guidance):
        cached.cache_clear()
    yield
    sys.modules.pop("workers.agent.actions.kinds.scroll_to", None)
    monkeypatch.setattr(actions, "_ACTIONS", {})
    for cached in (grammar._rules, grammar._statements, clauses.verbs, clauses._split, answer_schema, guidance):
        cached.cache_clear()


def test_a_new_kind_is_one_module(extra_kind) -> None:
    step = ScenarioStep(action="Click Save and bring the Footer link into view")
    decision = BuiltinBrain().decide(step, 0)
    assert [(i.kind, i.target) for i in decision.intents] == [("click", "Save"), ("scroll_to", "Footer")]
    assert "scroll_to" in answer_schema()["properties"]["action"]["properties"]["kind"]["enum"]
    op = ScriptOp(kind="scroll_to", locator=Locator(strategy="text", value="Footer"), comment="")
    assert statement(op) == 'await this.page.getByText("Footer", { exact: true }).scrollIntoViewIfNeeded();'
    operation = Operation(index=1, step_index=0, kind="scroll_to", description="")
    assert describe(operation, None) == "Scroll the element into view"


def test_kinds_and_the_emitters_import_no_browser() -> None:
    """The emitters never import a browser, and neither do the kind modules they ask (perform goes through Act)."""
    import subprocess

    code = ("import sys, workers.agent.actions as a; a.all_actions(); import workers.agent.scripting.javascript, "
            "workers.agent.scripting.steps, workers.agent.scripting.gherkin; "
            "print(sorted(m for m in sys.modules if m.startswith('playwright')))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"
