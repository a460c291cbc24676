"""The .feature files: a pure function of ScenarioScripts.

One file per feature (a scenarios file, or a `feature:` group it declares), named after its title
(`features/<slug>.feature`), scenarios in the order given. A feature whose scenarios (two or more) all open with
the same step gets it as its `Background:`. Above a step, `# ...` comments keep the tester's sentences whose words
the step's text does not hold (StepUse.said).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from shared.records import ScenarioScript

INDENT = "  "


def _line(text: str) -> str:
    return " ".join(text.split())


def _tag(tag: str) -> str:
    return "@" + re.sub(r"\s+", "-", tag.strip().lstrip("@"))


def example_cell(value: str) -> str:
    """A table cell for a value that lands inside "<placeholder>" quotes in a step.

    The quote gets a backslash for cucumber's {string} (which turns \\" back into "), then Gherkin's
    own cell escapes apply: backslash, pipe and newline.
    """
    return table_cell(value.replace('"', '\\"'))


def table_cell(text: str) -> str:
    """Gherkin's cell escapes: backslash, pipe, newline."""
    return text.replace("\\", "\\\\").replace("|", "\\|").replace("\n", "\\n")


def _table(rows: list[list[str]]) -> list[str]:
    widths = [max(len(row[column]) for row in rows) for column in range(len(rows[0]))]
    padded = ([cell.ljust(width) for cell, width in zip(row, widths, strict=True)] for row in rows)
    return ["| " + " | ".join(cells) + " |" for cells in padded]


def slug(text: str) -> str:
    """A file and package name: lower case letters, digits and dashes."""
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-") or "suite"


def render_scenario(script: ScenarioScript, skip: int = 0) -> list[str]:
    """A scenario's lines; its first `skip` steps are left out (they are the feature's Background)."""
    section = section_tag(_line(script.feature)) if script.feature else None
    more = [_tag(t) for t in script.tags if _tag(t) != _tag(script.scenario_id)] + ([section] if section else [])
    # its id first: the runners name a scenario's screenshots and traces after its first tag
    tags = [_tag(script.scenario_id)] + list(dict.fromkeys(more))
    columns = list(script.examples[0]) if script.examples else []
    lines = [INDENT + " ".join(tags)]
    lines.append(INDENT + f"{'Scenario Outline' if columns else 'Scenario'}: {_line(script.title)}")
    previous = None
    for step in script.steps[skip:]:
        lines.extend(INDENT * 2 + f"# {_line(said)}" for said in step.said)
        keyword = step.keyword
        if keyword == "And":
            keyword = previous or "Given"
        shown = "And" if keyword == previous else keyword
        previous = keyword
        lines.append(INDENT * 2 + f"{shown} {_line(step.text)}")
    if columns:
        header = [table_cell(column) for column in columns]
        rows = [header] + [[example_cell(row.get(column, "")) for column in columns] for row in script.examples]
        lines.append("")
        lines.append(INDENT * 2 + "Examples:")
        lines.extend(INDENT * 3 + row for row in _table(rows))
    return lines


def _background(scripts: Sequence[ScenarioScript]) -> int:
    """How many opening steps every scenario shares (the Background): its opening Given when two or more scenarios
    all open with the same one and each has steps after it, else 0."""
    if len(scripts) < 2 or any(len(s.steps) < 2 for s in scripts):
        return 0
    first = scripts[0].steps[0]
    if first.keyword != "Given" or "<" in first.text:
        return 0
    same = all(s.steps[0].text == first.text and s.steps[0].keyword == "Given" for s in scripts)
    return 1 if same else 0


def section_tag(feature_title: str) -> str | None:
    """The tag of a feature named by a test-management section path ("Owners > Search" -> @Owners/Search), on each
    of its scenarios after its id, so that a run can pick one section with --tags; None for any other title."""
    parts = [part.strip() for part in feature_title.split(" > ")]
    if len(parts) < 2 or not all(parts):
        return None
    return "@" + "/".join(re.sub(r"[\s@]+", "-", part) for part in parts)


def render_feature(feature_title: str, scripts: Sequence[ScenarioScript]) -> str:
    """One Feature; a Scenario Outline (tagged @<scenario id>, then its section's tag) per script with parameters,
    else a Scenario; a Background when every scenario opens the same way."""
    lines = [f"Feature: {_line(feature_title)}"]
    shared = _background(scripts)
    if shared:
        lines.append("")
        lines.append(INDENT + "Background:")
        for step in scripts[0].steps[:shared]:
            lines.append(INDENT * 2 + f"{step.keyword} {_line(step.text)}")
    for script in scripts:
        lines.append("")
        lines.extend(render_scenario(script, skip=shared))
    return "\n".join(lines) + "\n"


def render_features(scripts: Sequence[ScenarioScript], default_title: str) -> dict[str, str]:
    """`features/<slug>.feature` -> its text: one file per feature, features in the order their first scenario
    comes; a script without a feature of its own belongs to `default_title`'s. Features whose titles make the
    same file name share the file (under the first title). No scripts: the default feature, empty."""
    groups: dict[str, tuple[str, list[ScenarioScript]]] = {}
    for script in scripts:
        title = _line(script.feature or default_title)
        groups.setdefault(slug(title), (title, []))[1].append(script)
    if not groups:
        groups[slug(default_title)] = (_line(default_title), [])
    return {f"features/{name}.feature": render_feature(title, members) for name, (title, members) in groups.items()}
