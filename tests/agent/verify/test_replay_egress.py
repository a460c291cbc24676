"""A replay's guard sessions: one per scenario, their refusals on that scenario's result, named in a failure."""

from __future__ import annotations

import pytest

from shared.records import ReplayResult
from shared.settings import Settings
from workers.agent.verify.replay import replay_egress

pytestmark = pytest.mark.e2e  # its tier (tests/conftest.py)


def test_each_scenario_gets_its_own_session_and_its_own_refusals():
    with replay_egress(["A", "B", "A"], Settings(allow_private_targets=True), "http://127.0.0.1:8080") as egress:
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


def test_the_scenarios_sessions_time_other_hosts_with_one_timer_and_a_failure_names_what_was_cut_off():
    with replay_egress(["A", "B"], Settings(allow_private_targets=True, third_party_timeout_ms=1500),
                       "http://localhost:8080/app") as egress:
        timers = {id(s.third_party) for s in (egress.untagged, *egress.by_id.values())}
        assert len(timers) == 1 and egress.background.third_party is None
        assert egress.third_party.timeout_s == 1.5 and "127.0.0.1" in egress.third_party.app_hosts
        assert egress.env()["STEPFORGE_EGRESS_THIRD_PARTY"] == "1"  # the suite routes nothing itself
        egress.by_id["A"].stalled.append("GET http://cdn.test/x.css: no answer within 1.5 s; cdn.test is cut off")
        results = egress.judge({"A": ReplayResult(passed=False, error="boom"), "B": ReplayResult(passed=True)})
    assert results["A"].error == ("boom\n(a host other than the application's did not answer and was cut off: "
                                  "GET http://cdn.test/x.css: no answer within 1.5 s; cdn.test is cut off)")
    with replay_egress(["A"], Settings(third_party_timeout_ms=0), "http://localhost:8080") as egress:
        assert egress.third_party is None and egress.env()["STEPFORGE_EGRESS_THIRD_PARTY"] == "0"
