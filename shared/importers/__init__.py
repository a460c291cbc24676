"""Test cases exported from a test-management system, as a stepforge scenarios file.

    report = import_cases(content, "testrail-csv", source="cases.csv")
    report.scenario_file    # ScenarioFile: one scenario per case, its key the id and tag, its folder the feature
    report.skipped          # cases that could not be mapped, each with where it is and why
    report.notes            # what a mapping left out (a precondition that states a fact)

Formats (FORMATS): testrail-csv, testrail-json (the API's get_cases), xray-json, xray-csv, zephyr-json. A file that
cannot be read at all raises ImportFormatError naming its line or its case and field, and nothing is imported;
a case that cannot be mapped is skipped and reported; none importable raises ImportFormatError too."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from shared.importers.formats import FormatError as ImportFormatError
from shared.importers.mapping import Case, CaseError, scenario_of
from shared.scenarios import ScenarioFile
from shared.words import counted


@dataclass
class Skipped:
    key: str
    where: str
    reason: str

    def __str__(self) -> str:
        return f"{self.key}: {self.reason}" if self.key == self.where else f"{self.key} ({self.where}): {self.reason}"


@dataclass
class ImportReport:
    format: str
    scenario_file: ScenarioFile
    skipped: list[Skipped] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    def summary(self) -> dict:
        return {"format": self.format, "imported": len(self.scenario_file.scenarios),
                "skipped": [{"case": s.key, "where": s.where, "reason": s.reason} for s in self.skipped],
                "notes": self.notes}


Reader = Callable[[str, str], Iterable[Case]]


def _readers() -> dict[str, Reader]:
    from shared.importers import testrail, xray, zephyr

    return {"testrail-csv": testrail.read_csv, "testrail-json": testrail.read_json, "xray-json": xray.read_json,
            "xray-csv": xray.read_csv, "zephyr-json": zephyr.read_json}


FORMATS = ("testrail-csv", "testrail-json", "xray-json", "xray-csv", "zephyr-json")
SYSTEMS = ("testrail", "xray", "zephyr")


def format_of(system: str | None, filename: str, content: str) -> str:
    """The format of an export: the system named (or, when None, told by the content) and CSV or JSON by the
    content (a JSON document starts with { or [)."""
    is_json = content.lstrip("\ufeff \t\r\n")[:1] in ("{", "[")
    if system is None:
        if not is_json:
            head = content.lstrip("\ufeff").split("\n", 1)[0].lower()
            system = "xray" if ("action" in head and "test" in head and "title" not in head) else "testrail"
        else:
            system = _system_of_json(content)
    if system not in SYSTEMS:
        raise ImportFormatError(f"{filename}: unknown system {system!r}; choose one of {', '.join(SYSTEMS)}")
    if system == "zephyr":
        if not is_json:
            raise ImportFormatError(f"{filename}: a Zephyr Scale export is JSON (its test cases); this is not JSON")
        return "zephyr-json"
    return f"{system}-{'json' if is_json else 'csv'}"


def _system_of_json(content: str) -> str:
    head = content[:20_000]
    if "testScript" in head or '"testscript"' in head.lower():
        return "zephyr"
    if "custom_steps" in head or '"section_id"' in head or '"cases"' in head:
        return "testrail"
    if "testtype" in head or '"getTests"' in head or '"xray_' in head or '"testType"' in head:
        return "xray"
    raise ImportFormatError("the JSON looks like no export these formats know (TestRail get_cases, Xray tests, "
                            "Zephyr Scale test cases); name the system with --from / source.format")


def _read(reader: Reader, content: str, source: str, fmt: str):
    """The reader's cases; an export its schema let through that the reader still cannot follow (a value of
    another type deep inside) is refused naming the last case read, never an internal error."""
    where = "its first case"
    try:
        for case in reader(content, source):
            where = f"after {case.key} ({case.where})"
            yield case
    except ImportFormatError:
        raise
    except (AttributeError, KeyError, TypeError, ValueError) as error:
        raise ImportFormatError(f"{source}: {where}: not the {fmt} format ({type(error).__name__}: {error})") from None


def import_cases(content: str, fmt: str, *, source: str = "<import>", feature: str | None = None) -> ImportReport:
    """The export's cases as a scenarios file (see the module's docstring)."""
    readers = _readers()
    if fmt not in readers:
        raise ImportFormatError(f"{source}: unknown format {fmt!r}; choose one of {', '.join(FORMATS)}")
    content = content.removeprefix("\ufeff")
    scenarios, skipped, notes, seen = [], [], [], {}
    for case in _read(readers[fmt], content, source, fmt):
        if case.key in seen:
            raise ImportFormatError(f"{source}: {case.where}: case {case.key} appears twice "
                                    f"(first at {seen[case.key]})")
        seen[case.key] = case.where
        try:
            mapped = scenario_of(case)
        except CaseError as exc:
            skipped.append(Skipped(case.key, case.where, str(exc)))
            continue
        scenarios.append(mapped.scenario)
        notes.extend(mapped.notes)
    if not scenarios:
        why = "; ".join(str(s) for s in skipped[:3]) or "it holds no test cases"
        raise ImportFormatError(f"{source}: no case could be imported: {why}")
    try:
        scenario_file = ScenarioFile.model_validate({"scenarios": scenarios, "feature": feature})
    except ValueError as exc:
        raise ImportFormatError(f"{source}: {exc}") from None
    return ImportReport(fmt, scenario_file, skipped, notes)


def scenarios_yaml(report: ImportReport, *, source: str, base_url: str | None = None) -> str:
    """The imported scenarios as a scenarios file a person reads and edits: a step without an expected result is
    its sentence, one with it an {action, expected} pair."""
    import yaml

    document: dict = {}
    if base_url:
        document["base_url"] = base_url
    if report.scenario_file.feature:
        document["feature"] = report.scenario_file.feature
    document["scenarios"] = []
    for scenario in report.scenario_file.scenarios:
        item: dict = {"id": scenario.id, "title": scenario.title}
        if scenario.feature:
            item["feature"] = scenario.feature
        item["steps"] = [step.action if step.expected is None else {"action": step.action, "expected": step.expected}
                         for step in scenario.steps]
        if scenario.data:
            item["data"] = scenario.data
        document["scenarios"].append(item)
    cases = counted(len(report.scenario_file.scenarios), "case")
    head = f"# Imported by stepforge from {source} ({report.format}): {cases}"
    if report.skipped:
        head += f", {len(report.skipped)} skipped:\n" + "\n".join(f"#   {s}" for s in report.skipped)
    dumper = getattr(yaml, "CSafeDumper", yaml.SafeDumper)  # libyaml's: a 5,000-case export in a fraction of a second
    body = yaml.dump(document, Dumper=dumper, sort_keys=False, allow_unicode=True, width=120)
    return head + "\n" + body
