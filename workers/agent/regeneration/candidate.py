"""An app_changed scenario's regenerated script (shared.triage.CandidateScript): what a person compares with the
verified one before accepting it.

A regeneration never replaces a verified script whose assertion failed or whose target is gone: the application may
have a bug. It generates the scenario afresh as a candidate beside it. A candidate that passes shows, as a diff, what
the scenario would assert and do from now on; a person accepts it (the service's accept route, the CLI's
`stepforge accept`) when the change was intended. A candidate that fails too says the application no longer does
what the scenario's own words say: a bug to report, or a scenario to rewrite.
"""

from __future__ import annotations

import difflib

from workers.agent.scripting.build import Suite

STEPS_FILE = "features/step_definitions/steps.js"


def script_diff(verified: Suite, regenerated: Suite) -> str:
    """A unified diff of the verified script and the regenerated one: their feature files and step definitions."""
    lines: list[str] = []
    for name in sorted(set(verified.features) | set(regenerated.features)):
        lines += difflib.unified_diff(verified.features.get(name, "").splitlines(keepends=True),
                                      regenerated.features.get(name, "").splitlines(keepends=True),
                                      f"verified/{name}", f"regenerated/{name}")
    lines += difflib.unified_diff(verified.steps_text.splitlines(keepends=True),
                                  regenerated.steps_text.splitlines(keepends=True),
                                  f"verified/{STEPS_FILE}", f"regenerated/{STEPS_FILE}")
    return "".join(line if line.endswith("\n") else line + "\n" for line in lines)
