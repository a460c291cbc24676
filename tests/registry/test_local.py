"""LocalStepRegistry (embedded mode) on a real SQLite file, and on PostgreSQL: same behaviour as the service."""

from __future__ import annotations

import pytest

from shared.registry.local import LocalStepRegistry
from shared.step_registry import RegistryError, StepRegistry
from tests.registry.helpers import new_step

pytestmark = pytest.mark.service  # its tier (tests/conftest.py)


@pytest.fixture(params=["sqlite", "postgresql"])
def local(request, tmp_path):
    url = f"sqlite:///{tmp_path / 'sub' / 'registry.sqlite3'}" if request.param == "sqlite" \
        else request.getfixturevalue("pg_url")
    with LocalStepRegistry(url) as registry:
        yield registry


def test_is_a_step_registry(local) -> None:
    registry: StepRegistry = local
    assert hasattr(registry, "lookup") and hasattr(registry, "register") and hasattr(registry, "steps")


def test_share_version_and_users(local, origin, sig) -> None:
    a, v2 = sig(), sig()
    first = local.register("project-a", origin, [new_step(a)])[a]
    assert local.lookup(origin, [a, sig()])[a].id == first.id
    assert local.lookup("http://elsewhere.test", [a]) == {}
    second = local.register("project-b", origin, [new_step(a), new_step(a), new_step(v2, selector="#other")])
    assert second[a].id == first.id and second[a].usage == {"project-a": 1, "project-b": 1}
    assert (second[v2].version, second[v2].supersedes) == (2, first.id)
    assert local.users(first.id) == {"project-a": 1, "project-b": 1}
    assert {s.signature for s in local.steps(origin=origin)} == {a, v2}
    assert {s.signature for s in local.steps(project="project-a")} >= {a}
    # two new signatures of one wording in one request: versions 3 and 4, chained
    v3, v4 = sorted([sig(), sig()])
    chained = local.register("project-c", origin, [new_step(v3, selector="#x"), new_step(v4, selector="#y")])
    assert sorted((s.version, s.supersedes) for s in chained.values()) == [(3, second[v2].id), (4, chained[v3].id)]


def test_clear_errors(local, origin, sig) -> None:
    with pytest.raises(RegistryError, match="project 'nobody' is unknown"):
        local.steps(project="nobody")
    with pytest.raises(RegistryError, match=r"signatures\[0\]: 'XYZ' is not a signature"):
        local.lookup(origin, ["XYZ"])
    with pytest.raises(RegistryError, match="origin: 'http://a.test/x' is not a canonical origin"):
        local.register("p", "http://a.test/x", [new_step(sig())])
    with pytest.raises(RegistryError, match="project: 'bad name'"):
        local.register("bad name", origin, [new_step(sig())])
    with pytest.raises(RegistryError, match="signatures: 1001 signatures; at most 1000"):
        local.lookup(origin, [sig() for _ in range(1001)])
    s = sig()
    with pytest.raises(RegistryError, match=r"steps\[1\].definition.signature: .* appears twice"):
        local.register("p", origin, [new_step(s), new_step(s, pattern="another")])


def test_unusable_database_is_a_registry_error(tmp_path) -> None:
    with pytest.raises(RegistryError, match="unusable"):
        LocalStepRegistry("mysql://nowhere/db")
    with pytest.raises(RegistryError, match="unusable"):
        LocalStepRegistry("postgresql+psycopg://postgres@127.0.0.1:1/nothing")
