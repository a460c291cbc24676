"""The .feature file: a pure function of ScenarioScripts."""

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


def render_scenario(script: ScenarioScript) -> list[str]:
    tags = [_tag(script.scenario_id)] + [_tag(t) for t in script.tags if _tag(t) != _tag(script.scenario_id)]
    columns = list(script.examples[0]) if script.examples else []
    lines = [INDENT + " ".join(tags)]
    lines.append(INDENT + f"{'Scenario Outline' if columns else 'Scenario'}: {_line(script.title)}")
    previous = None
    for step in script.steps:
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


def render_feature(feature_title: str, scripts: Sequence[ScenarioScript]) -> str:
    """One Feature; a Scenario Outline (tagged @<scenario id>) per script with parameters, else a Scenario."""
    lines = [f"Feature: {_line(feature_title)}"]
    for script in scripts:
        lines.append("")
        lines.extend(render_scenario(script))
    return "\n".join(lines) + "\n"
