"""From run records to a whole suite: scripts, step definitions, rendered files and the seed's table 1 counts.

With a step registry, the suite reuses the steps the registry knows for the application's origin; the
pipeline registers the suite's new definitions (`new_steps(suite.new_definitions)`) once its scenarios
are verified.

With a step writer (say workers.agent.scripting.model_writer.ModelStepWriter), each scenario's grouping, step
text and parameter names are offered to it; `Suite.writer_notes` says per scenario whether its proposal was taken
or why the builtin rules' result stayed.
"""

from __future__ import annotations

import shutil
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from shared.logging import log
from shared.records import Locator, RunRecord, ScenarioScript, StepDefinition
from shared.scenarios import Scenario
from shared.step_registry import NewStep, RegistryError, StepRegistry
from workers.agent.actions import action
from workers.agent.scripting.expressions import definition_for_step
from workers.agent.scripting.gherkin import render_features
from workers.agent.scripting.javascript import PLAYWRIGHT_BDD_HEADER, render_definition, render_steps
from workers.agent.scripting.steps import generate_scripts
from workers.agent.scripting.suite import write_suite
from workers.agent.scripting.writer import StepWriter

DEFAULT_FEATURE = "Scenarios"  # the feature of scenarios that name none, when the caller names no default


@dataclass(frozen=True)
class ScenarioCounts:
    """As in the seed's table 1: user operations and the steps holding them (opening and assertions apart)."""

    operations: int
    steps: int


@dataclass
class Suite:
    """The suite itself, in memory: its feature files and step definitions, and the scripts and steps behind them.
    write() puts it in a folder (a cucumber-js or playwright-bdd project); the service zips that folder as
    suite.zip."""

    scripts: list[ScenarioScript]
    definitions: list[StepDefinition]
    features: dict[str, str]  # "features/<name>.feature" -> its text, in order
    steps_text: str
    title: str = DEFAULT_FEATURE  # the suite's name (its package.json and README)
    counts: dict[str, ScenarioCounts] = field(default_factory=dict)
    reused: frozenset[str] = frozenset()  # signatures of the definitions that came from the registry
    # With a step writer: scenario id -> the writer's name when its proposal was taken, else "builtin: <why>".
    writer_notes: dict[str, str] = field(default_factory=dict)

    @property
    def new_definitions(self) -> list[StepDefinition]:
        """The definitions this suite made (not taken from the registry): the ones to register."""
        return [d for d in self.definitions if d.signature not in self.reused]

    @property
    def feature_text(self) -> str:
        """Every feature file's text, in order (one text to compare or digest)."""
        return "\n".join(self.features.values())

    @property
    def operations_in_code(self) -> int:
        """User operations written in the step definitions (steps.js, reused registry steps included), after reuse."""
        return sum(_user_ops(d) for d in self.definitions if d.keyword != "Given")

    def step_definition(self, gherkin_step: str) -> StepDefinition | None:
        """The definition behind a Gherkin step as cucumber reports it ("And Click ..."); None if none matches."""
        return definition_for_step(gherkin_step, self.definitions)

    def step_locators(self, gherkin_step: str) -> list[Locator]:
        """The locators of the definition behind a Gherkin step as cucumber reports it ("And Click ...")."""
        definition = self.step_definition(gherkin_step)
        return [op.locator for op in definition.ops if op.locator is not None] if definition else []

    def write(self, out_dir: Path, base_url: str | None = None, files_dir: Path | None = None,
              suite_format: str = "cucumber-js") -> Path:
        """The suite's files in out_dir, as a cucumber-js project or (suite_format "playwright-bdd") a Playwright
        Test one; with base_url, stepforge.json makes it the suite's default address. When a step uploads files,
        the suite ships files_dir's files in its files/ folder. The features/ an earlier write left are replaced:
        a scenario dropped since must not linger."""
        shutil.rmtree(Path(out_dir) / "features", ignore_errors=True)
        uploads = any(op.kind == "upload" for d in self.definitions for op in d.ops)
        steps = render_steps(self.definitions, PLAYWRIGHT_BDD_HEADER) if suite_format == "playwright-bdd" \
            else self.steps_text
        return write_suite(out_dir, self.title, self.features, steps, base_url=base_url,
                           files_dir=files_dir if uploads else None, suite_format=suite_format)


def _user_ops(definition: StepDefinition) -> int:
    return sum(1 for op in definition.ops if not action(op.kind).is_assertion)


def new_steps(definitions: Sequence[StepDefinition]) -> list[NewStep]:
    """The definitions as the registry takes them, each with its JavaScript as steps.js holds it."""
    return [NewStep(definition=d, code=render_definition(d)) for d in definitions]


def build_suite(
    runs: Sequence[tuple[Scenario, RunRecord]],
    registry: StepRegistry | None = None,
    origin: str | None = None,
    writer: StepWriter | None = None,
    feature: str = DEFAULT_FEATURE,
    tags: Mapping[str, Sequence[str]] | None = None,
) -> Suite:
    """The suite of these runs; scenarios without a `feature:` of their own go into the `feature` one. `tags`: more
    tags for some scenarios, by id ("failing")."""
    made = generate_scripts([(scenario, record.operations) for scenario, record in runs], registry=registry,
                            origin=origin, writer=writer)
    scripts, definitions = made.scripts, made.definitions
    for script in scripts:
        script.tags = [*script.tags, *(tags or {}).get(script.scenario_id, ())]
    by_signature = {d.signature: d for d in definitions}
    counts = {}
    for script in scripts:
        used = [by_signature[s.signature] for s in script.steps[1:]]  # the opening Given is not a user step
        user_steps = [d for d in used if _user_ops(d)]
        counts[script.scenario_id] = ScenarioCounts(operations=sum(_user_ops(d) for d in user_steps),
                                                    steps=len(user_steps))
    return Suite(
        scripts=scripts,
        definitions=definitions,
        features=render_features(scripts, feature),
        steps_text=render_steps(definitions),
        title=feature,
        counts=counts,
        reused=made.reused,
        writer_notes=made.notes,
    )


def build_with_registry(runs: Sequence[tuple[Scenario, RunRecord]], registry: StepRegistry | None,
                        origin: str | None, feature: str = DEFAULT_FEATURE,
                        tags: Mapping[str, Sequence[str]] | None = None,
                        writer: StepWriter | None = None) -> tuple[Suite, str | None]:
    """build_suite with the registry's steps for `origin`; when the registry cannot be reached, without them, and
    why (else None)."""
    if registry is not None:
        try:
            return build_suite(runs, registry, origin, writer=writer, feature=feature, tags=tags), None
        except RegistryError as exc:
            log.warning("registry.lookup_failed", error=str(exc))
            return (build_suite(runs, writer=writer, feature=feature, tags=tags),
                    f"known steps could not be looked up, none were reused: {exc}")
    return build_suite(runs, writer=writer, feature=feature, tags=tags), None
