"""The `stepforge` command line, one module per command (generate, regenerate, accept) beside what they share
(common.py) and the entry point (main.py: `stepforge`, `python -m workers.cli`). A command loads its inputs, calls
the agent's job (workers/agent/) and puts the result where its user expects it: a folder, a report, a summary."""
