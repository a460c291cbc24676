"""`stepforge accept SUITE_DIR ID...`: a person accepts app_changed scenarios' regenerated scripts (candidate.py).

Each accepted scenario's candidate (.stepforge/candidates/<id>.json, verified by a replay when it was generated)
becomes its verified script: the suite is written again from the verified scripts, the accepted scenarios no longer
tagged @failing, and their candidates are removed. Nothing is replayed and no model is called.
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from shared.scenarios import ID_PATTERN, natural_key
from shared.step_registry import RegistryError, StepRegistry, origin_of
from shared.triage import FAILING_TAG
from workers.agent.scripting.build import DEFAULT_FEATURE, build_with_registry, new_steps
from workers.agent.scripting.verified import (
    CANDIDATES_DIR,
    read_candidate,
    read_failing,
    read_feature,
    read_verified,
    write_verified,
)


class NothingToAccept(ValueError):
    """A scenario has no regenerated script waiting; the message names it and says where one comes from."""


@dataclass
class Accepted:
    scenario_id: str
    diff: str  # the kept script against the accepted one


def accept_candidates(suite_dir: Path, scenario_ids: Sequence[str], *, registry: StepRegistry | None = None,
                      project: str = "default", files_dir: Path | None = None) -> list[Accepted]:
    """See the module's doc. Raises NothingToAccept (changing nothing) when a scenario has no candidate."""
    accepted, diffs = {}, []
    for scenario_id in dict.fromkeys(scenario_ids):
        if not re.fullmatch(ID_PATTERN, scenario_id):
            raise NothingToAccept(f"{scenario_id!r} is not a scenario id")
        found = read_candidate(suite_dir, scenario_id)
        if found is None or found[0].scenario.id != scenario_id:
            raise NothingToAccept(
                f"{scenario_id} has no regenerated script to accept in {suite_dir / CANDIDATES_DIR}: `stepforge "
                f"regenerate` leaves one there when {scenario_id} is app_changed and, generated afresh, passes")
        accepted[scenario_id], diff = found
        diffs.append(Accepted(scenario_id, diff))
    scripts = {script.scenario.id: script for script in read_verified(suite_dir)}
    scripts.update(accepted)
    failing = [i for i in read_failing(suite_dir) if i not in accepted and i in scripts]
    order = sorted(scripts, key=natural_key)
    runs = [(scripts[i].scenario, scripts[i].record) for i in order]
    feature = read_feature(suite_dir, DEFAULT_FEATURE)
    origin = origin_of(runs[0][1].base_url) if registry is not None else None
    suite, _problem = build_with_registry(runs, registry, origin, feature, {i: [FAILING_TAG] for i in failing})
    suite.write(suite_dir, files_dir=files_dir)
    write_verified(suite_dir, [scripts[i] for i in order], feature, failing=failing)
    for scenario_id in accepted:
        for suffix in (".json", ".diff"):
            (suite_dir / CANDIDATES_DIR / f"{scenario_id}{suffix}").unlink(missing_ok=True)
    if registry is not None and origin is not None and suite.new_definitions:
        with contextlib.suppress(RegistryError):
            registry.register(project, origin, new_steps(suite.new_definitions))
    return diffs
