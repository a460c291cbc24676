"""Known operation sequences first: the same operations make the same steps in every scenario and every run.

The seed's weak point: operations [a, b, c] abstracted as [a], [b, c] in one scenario and [a, b], [c] in another
leave the overlapping steps {[a], [a, b], [b, c], [c]}. Registry-backed tests use the real LocalStepRegistry on a
temporary SQLite file.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from pathlib import Path

import pytest

from shared.records import Locator, Node, Operation, RunRecord, StepDefinition
from shared.registry.local import LocalStepRegistry
from shared.scenarios import Scenario
from shared.step_registry import origin_of
from tests.agent.scripting.example import RUNS
from workers.agent.scripting.build import Suite, build_suite, new_steps
from workers.agent.scripting.javascript import render_definition
from workers.agent.scripting.steps import build_scripts, generate_scripts

ORIGIN = origin_of("http://app.test:8080/owners")
OTHER_ORIGIN = "http://other.test"
PROJECT = "petclinic-e2e"


class CountingRegistry(LocalStepRegistry):
    """The real registry, counting its lookups."""

    def __init__(self, database_url: str) -> None:
        super().__init__(database_url)
        self.lookups: list[list[str]] = []

    def lookup(self, origin, signatures):  # noqa: ANN001, ANN201
        self.lookups.append(list(signatures))
        return super().lookup(origin, signatures)


@pytest.fixture
def new_registry(tmp_path: Path) -> Iterator:
    """A factory of fresh registries, each on its own SQLite file."""
    made: list[LocalStepRegistry] = []

    def make() -> CountingRegistry:
        registry = CountingRegistry(f"sqlite:///{tmp_path / f'registry-{len(made)}.sqlite3'}")
        made.append(registry)
        return registry

    yield make
    for registry in made:
        registry.close()


@pytest.fixture
def registry(new_registry) -> CountingRegistry:  # noqa: ANN001
    return new_registry()


# --- the seed's example ----------------------------------------------------------------------------------------


def button(name: str, context: str | None = None) -> Node:
    return Node(id=ord(name[0]), tag="button", role="button", operable=True, text=name, context=context)


def click(index: int, step: int, name: str, text: str | None = None) -> Operation:
    """A click on the button #<name> (no form, no navigation); `text` is its visible text (default: name)."""
    return Operation(index=index, step_index=step, kind="click", description=f"Click {name}",
                     target=button(text or name), locator=Locator(strategy="id", value=f"#{name.lower()}"))


# Scenario 1: a in the first sentence, b and c in the second. Scenario 2: a and b in the first, c in the second.
ONE = Scenario(id="one", title="a | b c", start="/", steps=["a", "b c"])
TWO = Scenario(id="two", title="a b | c", start="/", steps=["a b", "c"])
ONE_OPS = [click(0, 0, "A"), click(1, 1, "B"), click(2, 1, "C")]
TWO_OPS = [click(0, 0, "A"), click(1, 0, "B"), click(2, 1, "C")]


def texts(script) -> list[str]:  # noqa: ANN001
    return [step.text for step in script.steps]


def runs(*pairs: tuple[Scenario, list[Operation]]) -> list[tuple[Scenario, RunRecord]]:
    return [(s, RunRecord(scenario_id=s.id, title=s.title, base_url="http://app.test:8080", operations=ops))
            for s, ops in pairs]


def op_sets(definitions: Sequence[StepDefinition]) -> list[list[str]]:
    """The acting operations of each When definition, by locator."""
    return [[op.locator.value for op in d.ops] for d in definitions if d.keyword == "When"]


def assert_no_overlap(definitions: Sequence[StepDefinition]) -> None:
    seen: list[str] = [value for ops in op_sets(definitions) for value in ops]
    assert len(seen) == len(set(seen)), op_sets(definitions)


def test_todays_rules_alone_group_the_seed_example_differently() -> None:
    one, _ = build_scripts([(ONE, ONE_OPS)])
    two, _ = build_scripts([(TWO, TWO_OPS)])
    assert texts(one[0]) == ['Open the page "/"', 'Click "A"', 'Click "B" and click "C"']
    assert texts(two[0]) == ['Open the page "/"', 'Click "A" and click "B"', 'Click "C"']


@pytest.mark.parametrize("registered", [False, True], ids=["no-registry", "fresh-registry"])
def test_in_one_run_both_scenarios_use_the_same_steps_in_either_order(
    registered: bool, new_registry  # noqa: ANN001
) -> None:
    for order, expected in (
        ([(ONE, ONE_OPS), (TWO, TWO_OPS)], ['Open the page "/"', 'Click "A"', 'Click "B" and click "C"']),
        ([(TWO, TWO_OPS), (ONE, ONE_OPS)], ['Open the page "/"', 'Click "A" and click "B"', 'Click "C"']),
    ):
        registry = new_registry() if registered else None
        made = generate_scripts(order, registry=registry, origin=ORIGIN if registered else None)
        first, second = made.scripts
        assert texts(first) == texts(second) == expected
        assert [s.signature for s in first.steps] == [s.signature for s in second.steps]
        assert len(made.definitions) == 3
        assert_no_overlap(made.definitions)
        assert made.reused == frozenset()  # the registry was empty
        if registry is not None:
            assert len(registry.lookups) == 2  # one lookup per scenario


@pytest.mark.parametrize("first,second", [((ONE, ONE_OPS), (TWO, TWO_OPS)), ((TWO, TWO_OPS), (ONE, ONE_OPS))],
                         ids=["one-then-two", "two-then-one"])
def test_a_later_run_reuses_the_registered_steps(first, second, registry) -> None:  # noqa: ANN001
    suite1 = build_suite(runs(first), registry=registry, origin=ORIGIN)
    assert suite1.reused == frozenset() and suite1.new_definitions == suite1.definitions
    registry.register(PROJECT, ORIGIN, new_steps(suite1.new_definitions))

    suite2 = build_suite(runs(second), registry=registry, origin=ORIGIN)
    assert texts(suite2.scripts[0]) == texts(suite1.scripts[0])
    assert [s.signature for s in suite2.scripts[0].steps] == [s.signature for s in suite1.scripts[0].steps]
    assert suite2.definitions == suite1.definitions
    assert suite2.new_definitions == []
    assert suite2.reused == frozenset(d.signature for d in suite1.definitions)
    assert suite2.steps_text == suite1.steps_text
    assert_no_overlap(list({d.signature: d for d in suite1.definitions + suite2.definitions}.values()))
    # Table 1 with reuse: 3 operations in 2 steps, the 3 operations written once in steps.js.
    assert {k: (c.operations, c.steps) for k, c in suite2.counts.items()} == {second[0].id: (3, 2)}
    assert suite2.operations_in_code == 3
    assert len(registry.lookups) == 2


def test_a_different_origin_gets_none_of_them(registry) -> None:  # noqa: ANN001
    suite1 = build_suite(runs((ONE, ONE_OPS)), registry=registry, origin=ORIGIN)
    registry.register(PROJECT, ORIGIN, new_steps(suite1.new_definitions))
    elsewhere = build_suite(runs((TWO, TWO_OPS)), registry=registry, origin=OTHER_ORIGIN)
    assert texts(elsewhere.scripts[0]) == ['Open the page "/"', 'Click "A" and click "B"', 'Click "C"']
    assert elsewhere.reused == frozenset()
    assert elsewhere.new_definitions == elsewhere.definitions
    assert registry.lookup(OTHER_ORIGIN, [d.signature for d in suite1.definitions]) == {}


def test_the_lookup_asks_once_for_every_run_that_could_be_one_step(registry) -> None:  # noqa: ANN001
    ops = [click(0, 0, "A"), click(1, 0, "B"),
           Operation(index=2, step_index=1, kind="assert_text", description="", value="Done"),
           click(3, 2, "C")]
    build_scripts([(ONE, ops)], registry=registry, origin=ORIGIN)
    (asked,) = registry.lookups
    # Given, [A], [A B], [B], [C] (When) and the Then: no run crosses the assertion.
    assert len(asked) == 6 and len(set(asked)) == 6


def test_runs_of_known_operations_never_cross_an_assertion() -> None:
    shown = Operation(index=1, step_index=0, kind="assert_text", description="", value="Shown")
    scripts, defs = build_scripts([
        (ONE, [click(0, 0, "A"), click(1, 0, "B")]),
        (TWO, [click(0, 0, "A"), shown, click(2, 0, "B")]),
    ])
    assert texts(scripts[1]) == ['Open the page "/"', 'Click "A"', 'the page shows "<expectedText>"', 'Click "B"']
    assert [d.keyword for d in defs] == ["Given", "When", "When", "Then", "When"]


def test_a_known_run_is_found_within_one_scenario_too() -> None:
    # a and b in two sentences, then a and b again in one sentence: the second time they reuse [a], [b].
    scripts, defs = build_scripts([(ONE, [click(0, 0, "A"), click(1, 1, "B"), click(2, 2, "A"), click(3, 2, "B")])])
    assert texts(scripts[0]) == ['Open the page "/"', 'Click "A"', 'Click "B"', 'Click "A"', 'Click "B"']
    assert len(defs) == 3


def test_runs_longer_than_eight_operations_are_not_matched_whole() -> None:
    long = [click(i, 0, name) for i, name in enumerate("ABCDEFGHI")]
    scripts, defs = build_scripts([(ONE, long), (TWO, long)])
    # Today's rules make one step of the nine clicks of one sentence; the second scenario takes the first eight
    # from nowhere (only the nine-long run is known, and runs longer than eight are not looked for), so it groups
    # them by the rules too and ends with the same nine-operation step.
    assert len(scripts[0].steps) == 2
    assert texts(scripts[1]) == texts(scripts[0])
    assert len(defs) == 2


def test_registry_steps_keep_their_wording(registry) -> None:  # noqa: ANN001
    suite1 = build_suite(runs((ONE, ONE_OPS)), registry=registry, origin=ORIGIN)
    registry.register(PROJECT, ORIGIN, new_steps(suite1.new_definitions))
    suite2 = build_suite(runs((TWO, TWO_OPS)), registry=registry, origin=ORIGIN)
    assert texts(suite2.scripts[0]) == ['Open the page "/"', 'Click "A"', 'Click "B" and click "C"']
    assert {s.signature for s in suite2.scripts[0].steps} <= suite2.reused


def test_a_registry_step_never_lends_its_words_to_an_element_now_named_otherwise(registry) -> None:  # noqa: ANN001
    suite1 = build_suite(runs((ONE, ONE_OPS)), registry=registry, origin=ORIGIN)
    registry.register(PROJECT, ORIGIN, new_steps(suite1.new_definitions))
    # The page now calls the buttons otherwise; the CSS selectors (which do not hold the names) are the same.
    renamed = [click(0, 0, "A", "Alpha"), click(1, 0, "B", "Beta"), click(2, 1, "C", "Gamma")]
    suite2 = build_suite(runs((TWO, renamed)), registry=registry, origin=ORIGIN)
    assert texts(suite2.scripts[0]) == ['Open the page "/"', 'Click "Alpha" and click "Beta"', 'Click "Gamma"']
    assert [d.keyword for d in suite2.definitions if d.signature in suite2.reused] == ["Given"]


def test_a_registry_step_whose_wording_clashes_with_this_runs_is_defined_anew(registry) -> None:  # noqa: ANN001
    owner = Operation(index=0, step_index=0, kind="click", description="", target=button("Edit"),
                      locator=Locator(strategy="id", value="#edit-owner"))
    pet = owner.model_copy(update={"locator": Locator(strategy="id", value="#edit-pet")})
    first = build_suite(runs((ONE, [owner])), registry=registry, origin=ORIGIN)
    registry.register(PROJECT, ORIGIN, new_steps(first.new_definitions))
    assert texts(first.scripts[0])[1] == 'Click "Edit"'

    # In this run "Click \"Edit\"" is the pet's already: the registry's owner step would make it ambiguous.
    suite = build_suite(runs((TWO, [pet]), (ONE, [owner])), registry=registry, origin=ORIGIN)
    assert [texts(s)[1] for s in suite.scripts] == ['Click "Edit"', 'Click "Edit" (the button)']
    owner_step = first.definitions[1]
    assert suite.scripts[1].steps[1].signature == owner_step.signature
    assert owner_step.signature not in suite.reused
    assert [d.pattern for d in suite.new_definitions] == ['Click "Edit"', 'Click "Edit" \\(the button\\)']
    # Registering it again is harmless: the registry keeps the step it has.
    kept = registry.register(PROJECT, ORIGIN, new_steps(suite.new_definitions))
    assert kept[owner_step.signature].definition == owner_step


# --- regeneration ----------------------------------------------------------------------------------------------

NAME = Node(id=31, tag="input", role="textbox", operable=True, label="Name", id_attr="name", form=30,
            context="New Pet")
TYPE = Node(id=32, tag="select", role="combobox", operable=True, label="Type", id_attr="type", form=30,
            input_type="select", context="New Pet")
ADD = Node(id=33, tag="button", role="button", operable=True, text="Add Pet", form=30, context="New Pet")
ADD_PET = Scenario(id="add-pet", title="Add a pet", start="/owners/1/pets/new", steps=["Add Leo, a cat"])
ADD_PET_OPS = [
    Operation(index=0, step_index=0, kind="fill", description="", target=NAME, value="Leo",
              locator=Locator(strategy="id", value="#name")),
    Operation(index=1, step_index=0, kind="select", description="", target=TYPE, value="cat",
              locator=Locator(strategy="id", value="#type")),
    Operation(index=2, step_index=0, kind="click", description="", target=ADD,
              locator=Locator(strategy="role", role="button", value="Add Pet")),
    Operation(index=3, step_index=1, kind="assert_text", description="", value="Leo"),
]
REPEATS = Scenario(id="repeats", title="a | b | a b", start="/", steps=["a", "b", "a b"])
REPEATS_OPS = [click(0, 0, "A"), click(1, 1, "B"), click(2, 2, "A"), click(3, 2, "B")]

ALL = [*RUNS, (ONE, ONE_OPS), (TWO, TWO_OPS), (ADD_PET, ADD_PET_OPS), (REPEATS, REPEATS_OPS)]


def register(registry: LocalStepRegistry, suite: Suite) -> None:
    registry.register(PROJECT, ORIGIN, new_steps(suite.new_definitions))


def test_regenerating_a_suite_gives_byte_identical_text(registry) -> None:  # noqa: ANN001
    first = build_suite(runs(*ALL), registry=registry, origin=ORIGIN)
    register(registry, first)
    second = build_suite(runs(*ALL), registry=registry, origin=ORIGIN)
    assert second.feature_text == first.feature_text
    assert second.steps_text == first.steps_text
    assert second.new_definitions == [] and second.reused == frozenset(d.signature for d in first.definitions)
    assert second.counts == first.counts and second.operations_in_code == first.operations_in_code
    assert first.feature_text == build_suite(runs(*ALL)).feature_text  # the registry was empty the first time
    assert len(registry.lookups) == 2 * len(ALL)


def test_regenerating_each_scenario_alone_gives_the_same_steps(registry) -> None:  # noqa: ANN001
    whole = build_suite(runs(*ALL), registry=registry, origin=ORIGIN)
    register(registry, whole)
    for index, pair in enumerate(ALL):
        alone = build_suite(runs(pair), registry=registry, origin=ORIGIN)
        assert alone.scripts[0] == whole.scripts[index]
        assert alone.new_definitions == []


# --- counts and registration ----------------------------------------------------------------------------------


def test_table_one_counts_in_one_run() -> None:
    suite = build_suite(runs((ONE, ONE_OPS), (TWO, TWO_OPS)))
    assert {k: (c.operations, c.steps) for k, c in suite.counts.items()} == {"one": (3, 2), "two": (3, 2)}
    assert suite.operations_in_code == 3  # [a] and [b, c], once each; the opening Given is not counted


def test_new_steps_carry_the_javascript_of_steps_js(registry) -> None:  # noqa: ANN001
    suite = build_suite(runs((ADD_PET, ADD_PET_OPS)), registry=registry, origin=ORIGIN)
    steps = new_steps(suite.new_definitions)
    assert [s.definition for s in steps] == suite.definitions
    assert [s.code for s in steps] == [render_definition(d) for d in suite.definitions]
    assert all(s.code in suite.steps_text for s in steps)
    stored = registry.register(PROJECT, ORIGIN, steps)
    assert {sig: s.code for sig, s in stored.items()} == {s.definition.signature: s.code for s in steps}


def test_a_registry_needs_an_origin(registry) -> None:  # noqa: ANN001
    with pytest.raises(ValueError, match="origin"):
        build_scripts([(ONE, ONE_OPS)], registry=registry)
