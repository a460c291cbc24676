"""Import benchmark: `python -m bench.importers [--cases 5000] [--repeat 3]`.

Writes a TestRail CSV export of --cases cases (four separated steps each, HTML and markdown in the cells, Unicode,
a multi-line step, its sections) and one malformed by an unclosed quote near its end, then times, each --repeat
times: the import into a scenarios file (import_cases) and the YAML written (scenarios_yaml), as
`stepforge import` does them, and the loading of that scenarios file (parse_scenarios, as `stepforge generate` and
the service load one). Prints the medians and the ratios to the targets (5 s to import 5,000 cases, 1 s to load
them); exit 1 when the malformed export is not refused naming its line.
"""

from __future__ import annotations

import argparse
import csv
import io
import statistics
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from shared.importers import ImportFormatError, import_cases, scenarios_yaml  # noqa: E402
from shared.scenarios import parse_scenarios  # noqa: E402

TARGET_S = 5.0  # for 5,000 cases
LOAD_TARGET_S = 1.0  # loading the scenarios file of 5,000 cases


def export(cases: int) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(["ID", "Title", "Section", "Section Hierarchy", "Template", "Type", "Priority", "Preconditions",
                     "Steps (Step)", "Steps (Expected Result)", "References"])
    for n in range(1, cases + 1):
        writer.writerow([f"C{n}", f"Überweisung {n} prüfen", f"Section {n % 50}", f"Payments > Section {n % 50}",
                         "Test Case (Steps)", "Functional", "Medium", "Log in as a clerk",
                         "Open /transfers", "", ""])
        writer.writerow(["", "", "", "", "", "", "", "", f"Type \"IBAN {n}\" into the <b>IBAN</b> field", "", ""])
        writer.writerow(["", "", "", "", "", "", "", "", "Click **Send**\nand confirm",
                         f"<p>&quot;Transfer {n} sent&quot; is shown</p>", ""])
        writer.writerow(["", "", "", "", "", "", "", "", "Verify the balance shows € 1.234,50", "", ""])
    return "\ufeff" + out.getvalue()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.importers", description=__doc__.splitlines()[0])
    parser.add_argument("--cases", type=int, default=5000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--figures-only", action="store_true",
                        help="exit 1 only when the malformed export is not refused, whatever the times")
    args = parser.parse_args(argv)
    content = export(args.cases)
    imports, writes, loads = [], [], []
    for _ in range(args.repeat):
        started = time.perf_counter()
        report = import_cases(content, "testrail-csv", source="export.csv")
        imports.append(time.perf_counter() - started)
        started = time.perf_counter()
        written = scenarios_yaml(report, source="export.csv")
        writes.append(time.perf_counter() - started)
        started = time.perf_counter()
        loaded = parse_scenarios(written, source="scenarios.yaml")
        loads.append(time.perf_counter() - started)
    assert len(report.scenario_file.scenarios) == args.cases and not report.skipped
    assert loaded == report.scenario_file, "the scenarios file written does not load back as imported"
    total = statistics.median(imports) + statistics.median(writes)
    target = TARGET_S * args.cases / 5000
    print(f"stepforge import bench: {args.cases} TestRail cases ({len(content) / 1e6:.1f} MB of CSV), "
          f"{args.repeat} runs")
    print(f"  import_cases   median {statistics.median(imports):.2f} s  {[round(s, 2) for s in imports]}")
    print(f"  scenarios_yaml median {statistics.median(writes):.2f} s  {[round(s, 2) for s in writes]}")
    print(f"  total {total:.2f} s against the target {target:.1f} s: {total / target:.2f}x of it "
          f"({'PASS' if total <= target else 'FAIL'})")
    load, load_target = statistics.median(loads), LOAD_TARGET_S * args.cases / 5000
    print(f"  parse_scenarios median {load:.2f} s  {[round(s, 2) for s in loads]} against the target "
          f"{load_target:.1f} s: {load / load_target:.2f}x of it ({'PASS' if load <= load_target else 'FAIL'})")
    total_ok = total <= target and load <= load_target
    # The last case's title opens a quote it never closes: the line an editor shows it on must be named.
    start = content.rindex(f"\r\nC{args.cases},") + 2
    broken = content[:start] + content[start:].replace(",", ',"', 1)
    broken_line = content[:start].count("\n") + 1
    try:
        import_cases(broken, "testrail-csv", source="broken.csv")
    except ImportFormatError as error:
        named = f"line {broken_line}" in str(error)
        print(f"  malformed export refused: {error}"[:200] + ("" if named else "  (its line NOT named)"))
        return 0 if named and (total_ok or args.figures_only) else 1
    print("  malformed export NOT refused")
    return 1


if __name__ == "__main__":
    raise SystemExit(main())
