"""Generation verdicts as the test-management systems import results: JUnit XML (TestRail's CLI, Xray) and
Cucumber JSON (Xray), one test case per scenario with its case key, the failed step, the reason and links to the
screenshots.

    results = [CaseResult(id="C101", title=..., feature=..., steps=[...], passed=False, failed_step=3, ...)]
    junit_xml(results)       # <testsuites><testsuite name=feature><testcase name="C101 title">...
    cucumber_json(results)   # [{"keyword": "Feature", "elements": [{"tags": [{"name": "@C101"}], "steps": ...}]}]

The key goes where each importer looks for it: JUnit's `test_key` property (Xray) and `test_id` (TestRail's CLI,
`--case-matcher property`) and the test case's name; Cucumber JSON's scenario tag (@C101, Xray's link to the
Test)."""

from __future__ import annotations

import base64
import json
import re
import socket
import xml.etree.ElementTree as ET
from dataclasses import dataclass, field
from datetime import UTC, datetime

from shared.scenarios import Scenario


@dataclass
class CaseResult:
    id: str  # the scenario's id: the case's key when it was imported
    title: str
    feature: str
    steps: list[str]  # the tester's steps, as written
    passed: bool
    failed_step: int | None = None  # 1-based
    kind: str | None = None  # action | expectation | unsupported | error
    reason: str = ""
    seconds: float = 0.0
    screenshots: list[str] = field(default_factory=list)  # links (or paths) to the failure's screenshots

    @property
    def could_not_run(self) -> bool:
        """Not a wrong expectation but a scenario that could not run: the environment, a timeout or a crash
        (kind error, or a job that ended without a verdict), or a sentence that could not be read (unsupported).
        JUnit calls it an <error>; a step whose action or expectation the application did not meet, a <failure>."""
        return not self.passed and self.kind not in ("action", "expectation")

    @property
    def failure(self) -> str:
        at = f"step {self.failed_step}" if self.failed_step else "the scenario"
        return f"{at} failed ({self.kind or 'error'}): {self.reason}"


_XML_UNSAFE = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


def _xml(text: str) -> str:
    return _XML_UNSAFE.sub("\ufffd", text)


def junit_xml(results: list[CaseResult], name: str = "stepforge", *, started_at: datetime | None = None,
              hostname: str | None = None) -> str:
    """The Ant/Jenkins JUnit format CI servers read (tests/schemas/junit.xsd): a <testsuite> per feature with its
    timestamp (when the run started, UTC, no zone as the format has it), hostname and time; a <failure> for a
    wrong expectation, an <error> for a scenario that could not run (CaseResult.could_not_run)."""
    stamp = (started_at or datetime.now(UTC)).astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S")
    host = hostname or socket.gethostname() or "localhost"
    errors = sum(r.could_not_run for r in results)
    root = ET.Element("testsuites", name=name, tests=str(len(results)),
                      failures=str(sum(not r.passed for r in results) - errors), errors=str(errors),
                      time=f"{sum(r.seconds for r in results):.3f}")
    suites: dict[str, ET.Element] = {}
    for result in results:
        suite = suites.get(result.feature)
        if suite is None:
            suite = suites[result.feature] = ET.SubElement(
                root, "testsuite", name=_xml(result.feature), tests="0", failures="0", errors="0", skipped="0",
                time="0.000", timestamp=stamp, hostname=_xml(host))
        suite.set("tests", str(int(suite.get("tests", "0")) + 1))
        suite.set("time", f"{float(suite.get('time', '0')) + result.seconds:.3f}")
        case = ET.SubElement(suite, "testcase", classname=_xml(result.feature),
                             name=_xml(f"{result.id} {result.title}"), time=f"{result.seconds:.3f}")
        properties = ET.SubElement(case, "properties")
        ET.SubElement(properties, "property", name="test_key", value=_xml(result.id))
        if re.fullmatch(r"[Cc]\d+", result.id):  # a TestRail case id
            ET.SubElement(properties, "property", name="test_id", value=result.id.upper())
        for link in result.screenshots:
            ET.SubElement(properties, "property", name="testrail_attachment", value=_xml(link))
        if not result.passed:
            tag = "error" if result.could_not_run else "failure"
            counter = "errors" if result.could_not_run else "failures"
            suite.set(counter, str(int(suite.get(counter, "0")) + 1))
            failure = ET.SubElement(case, tag, message=_xml(result.failure), type=result.kind or "error")
            lines = [result.failure]
            if result.failed_step and result.failed_step <= len(result.steps):
                lines.append(f"step {result.failed_step}: {result.steps[result.failed_step - 1]}")
            lines += [f"screenshot: {link}" for link in result.screenshots]
            failure.text = _xml("\n".join(lines))
    ET.indent(root)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, encoding="unicode") + "\n"


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-") or "scenario"


def cucumber_json(results: list[CaseResult]) -> str:
    features: dict[str, dict] = {}
    for result in results:
        feature = features.get(result.feature)
        if feature is None:
            feature = features[result.feature] = {
                "uri": f"features/{_slug(result.feature)}.feature", "id": _slug(result.feature),
                "keyword": "Feature", "name": result.feature, "line": 1, "description": "", "tags": [],
                "elements": []}
        steps = []
        per_step_ns = int(result.seconds * 1e9 / max(1, len(result.steps)))
        for number, text in enumerate(result.steps, start=1):
            if result.passed or (result.failed_step is not None and number < result.failed_step):
                outcome: dict = {"status": "passed", "duration": per_step_ns}
            elif number == result.failed_step or (result.failed_step is None and number == 1):
                outcome = {"status": "failed", "duration": per_step_ns, "error_message": result.failure}
            else:
                outcome = {"status": "skipped", "duration": 0}
            step = {"keyword": "* ", "name": text, "line": number + 3, "match": {"location": "stepforge"},
                    "result": outcome}
            if outcome["status"] == "failed" and result.screenshots:
                step["embeddings"] = [{"mime_type": "text/uri-list",
                                       "data": base64.b64encode("\n".join(result.screenshots).encode()).decode()}]
            steps.append(step)
        feature["elements"].append({
            "id": f"{feature['id']};{_slug(result.title)}", "keyword": "Scenario", "type": "scenario",
            "name": result.title, "line": 3, "description": "",
            "tags": [{"name": f"@{result.id}", "line": 2}], "steps": steps})
    return json.dumps(list(features.values()), indent=2, ensure_ascii=False) + "\n"


def step_texts(scenario: Scenario) -> list[str]:
    """A scenario's steps as the tester wrote them: the action, and its expected result after it."""
    return [f"{s.action} (expected: {s.expected})" if s.expected else s.action for s in scenario.steps]
