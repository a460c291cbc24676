"""A regeneration's first pass is split for the fleet: about two chunks per worker process, never chunks so small
that starting cucumber-js costs more than their replay, nor so large that one outlasts a task's time limit."""

from __future__ import annotations

import pytest

from shared.job_queue import MAX_CHUNK, MIN_CHUNK, chunk_size


@pytest.mark.parametrize(("jobs", "fleet", "size"), [
    (400, 1, MAX_CHUNK),  # one process: the fewest, largest chunks
    (400, 4, 50),  # 8 chunks for 4 processes
    (400, 20, MIN_CHUNK),  # 40 chunks for 20 processes
    (2000, 20, MAX_CHUNK),
    (240, 8, 15),
    (3, 4, MIN_CHUNK),  # a small suite: one chunk
    (0, 0, MIN_CHUNK),  # no fleet known: as one process
])
def test_chunk_size_follows_the_suite_and_the_fleet(jobs, fleet, size):
    assert chunk_size(jobs, fleet) == size


def test_every_process_of_a_fleet_gets_work_when_the_suite_allows():
    for fleet in (1, 2, 4, 8, 16):
        for jobs in (100, 400, 2000):
            chunks = -(-jobs // chunk_size(jobs, fleet))
            assert chunks >= min(fleet, jobs // MIN_CHUNK), (jobs, fleet, chunks)
