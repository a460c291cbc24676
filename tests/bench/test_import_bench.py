"""`python -m bench.importers` runs: a small export imported, its malformed copy refused naming its line."""

from __future__ import annotations

from bench.importers import main


def test_the_import_bench_runs_and_checks_the_malformed_export(capsys):
    # Its figures only: a timing on a machine busy with the other tests says nothing (the bench itself is timed).
    assert main(["--cases", "40", "--repeat", "1", "--figures-only"]) == 0
    out = capsys.readouterr().out
    assert "40 TestRail cases" in out and "malformed export refused" in out and "line " in out
