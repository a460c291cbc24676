"""A replay's guard sessions: one per scenario, their refusals on that scenario's result, named in a failure."""

from __future__ import annotations

import pytest

from shared.records import ReplayResult
from shared.settings import Settings
from workers.agent.verify.replay import replay_egress

pytestmark = pytest.mark.e2e  # its tier (tests/conftest.py)


def test_each_scenario_gets_its_own_session_and_its_own_refusals():
    with replay_egress(["A", "B", "A"], Settings(allow_private_targets=True)) as egress:
        proxies = egress.env()
        assert set(egress.by_id) == {"A", "B"} and len({s.url for s in egress.sessions}) == 4  # + background, "*"
        assert egress.background.policy.refuse_all
        egress.by_id["A"].refused.extend(["GET http://x/1: why", "GET http://x/2: why"])
        results = egress.judge({"A": ReplayResult(passed=False, error="expected the page to show \"X\""),
                                "B": ReplayResult(passed=True)})
    assert '"*"' in proxies["STEPFORGE_EGRESS_PROXIES"]
    assert results["A"].refused == ["GET http://x/1: why", "GET http://x/2: why"]
    assert results["A"].error == ('expected the page to show "X"\n(the target policy refused a request of the page: '
                                  "GET http://x/1: why and 1 more)")
    assert results["B"].refused == [] and results["B"].error is None
