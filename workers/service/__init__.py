"""The distributed service's worker side: the Celery app and its tasks (tasks.py), each worker's browser pool
(pool.py), one job's run (scenario_job.py: a scenario version generated, or its verified script replayed and
triaged), a regeneration's first pass, in chunks any worker replays (batch_replay.py) and the batch's one suite
(batch_suite.py). The jobs themselves are the agent's (workers/agent/); this package only drives them."""
