"""The diff a person reads before accepting a regenerated script."""

from __future__ import annotations

from workers.agent.regeneration.candidate import script_diff
from workers.agent.scripting.build import Suite


def suite(feature: str, steps: str) -> Suite:
    return Suite(scripts=[], definitions=[], features={"features/petclinic.feature": feature}, steps_text=steps)


def test_the_diff_shows_only_what_changed_in_the_feature_and_the_step_definitions():
    verified = suite("Scenario: s\n  When Click \"Find Owner\"\n", "a();\nclick('Find Owner');\n")
    regenerated = suite("Scenario: s\n  When Search for \"Davis\"\n", "a();\nclick('Search');")
    diff = script_diff(verified, regenerated)
    assert "--- verified/features/petclinic.feature\n+++ regenerated/features/petclinic.feature\n" in diff
    assert "-  When Click \"Find Owner\"\n+  When Search for \"Davis\"\n" in diff
    assert "-click('Find Owner');\n+click('Search');\n" in diff  # a last line without its newline still ends one
    assert " a();\n" in diff
    assert script_diff(verified, verified) == ""
