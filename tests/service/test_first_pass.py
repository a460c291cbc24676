"""A regeneration's chunks store their replays of the batch's first-pass suite; the batch's suite build takes
them together only for the same text, and a scenario any of whose replays was red is red."""

from __future__ import annotations

from shared.artifacts.local import LocalArtifactStore
from shared.models import Batch
from shared.records import ReplayResult
from workers.service.batch_replay import first_pass_results, store_results

GREEN, RED = ReplayResult(passed=True, seconds=0.5), ReplayResult(passed=False, error="not shown", seconds=3)


def test_chunks_results_merge_for_one_text_and_a_red_replay_wins(tmp_path):
    store = LocalArtifactStore(tmp_path)
    batch = Batch(id=7, project_id=3, idempotency_key="k", request_hash="h", kind="nightly", base_url="http://a",
                  brain="builtin", grounding="hte", jobs_total=4)
    store_results(store, batch, "digest-a", 11, {"S-1": GREEN, "S-2": GREEN})
    store_results(store, batch, "digest-a", 13, {"S-3": RED})
    store_results(store, batch, "digest-b", 15, {"S-4": GREEN})  # another text: not this suite's replay
    assert first_pass_results(store, batch, "digest-a") == {"S-1": GREEN, "S-2": GREEN, "S-3": RED}
    # The chunk of job 11 run again (its worker died after replaying): S-2 red this time, S-1 not replayed.
    store_results(store, batch, "digest-a", 11, {"S-2": RED})
    assert first_pass_results(store, batch, "digest-a")["S-1"] == GREEN
    # S-2 replayed again after its worker died, green in another chunk's file: still red (any red replay wins).
    store_results(store, batch, "digest-a", 17, {"S-2": GREEN})
    assert first_pass_results(store, batch, "digest-a")["S-2"] == RED
    assert first_pass_results(store, batch, "digest-c") == {}
