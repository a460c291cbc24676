"""A finished batch's verdicts posted to the project's test-management system (its report_to), in that system's
own API shape:

- testrail:    POST <url>/index.php?/api/v2/add_results_for_cases/<run_id>, HTTP basic (user, API key),
               {"results": [{"case_id": 101, "status_id": 1 | 5, "comment": ..., "elapsed": "12s"}]}: one result
               per case of the batch whose id is a TestRail case id (C101);
- xray-server: POST <url>/rest/raven/1.0/import/execution/cucumber, Bearer <personal access token>, the Cucumber
               JSON of the verdicts (each scenario tagged with its Test's key);
- xray-cloud:  POST <url>/api/v2/authenticate {"client_id", "client_secret"} (the secret is "<id>:<secret>") for
               a token, then POST <url>/api/v2/import/execution/cucumber with it.

- xray:        either, told by the address: Xray Cloud answers at *.getxray.app (xray.cloud.getxray.app and its
               regional hosts), a Server/DC Xray inside the team's own Jira anywhere else (`xray_kind`).

One call of `send_report` is one attempt (the caller logs it, retries and disables, as for webhooks); it never
raises for network errors and never logs the credential."""

from __future__ import annotations

import base64
import json
import re
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from urllib.parse import urlsplit

from shared.results import CaseResult, cucumber_json
from shared.urls import TargetPolicy
from shared.webhooks import DeliveryAttempt, post_once

REPORT_KINDS = ("testrail", "xray-server", "xray-cloud")
TESTRAIL_PASSED, TESTRAIL_FAILED = 1, 5  # TestRail's default status ids
TESTRAIL_CASE = re.compile(r"[Cc](\d+)")


@dataclass
class ReportTarget:
    kind: str
    url: str  # the system's base URL: https://acme.testrail.io, https://jira.acme.com, https://xray.cloud.getxray.app
    secret: str  # decrypted: TestRail API key, Xray Server token, or Xray Cloud "<client_id>:<client_secret>"
    run_id: int | None = None  # TestRail: the test run the results go to
    user: str | None = None  # TestRail: the user the API key belongs to


def xray_kind(url: str) -> str:
    """Xray Cloud or Xray Server/DC, by the address its API answers at: Cloud's is a host of getxray.app."""
    host = (urlsplit(url).hostname or "").lower().rstrip(".")
    return "xray-cloud" if host == "getxray.app" or host.endswith(".getxray.app") else "xray-server"


def jira_cloud_site(url: str) -> bool:
    """A Jira Cloud site (*.atlassian.net): Xray Server's import is not there; Xray Cloud's is, at getxray.app."""
    return (urlsplit(url).hostname or "").lower().rstrip(".").endswith(".atlassian.net")


def testrail_results(cases: list[CaseResult], links_base: str = "") -> list[dict]:
    results = []
    for case in cases:
        found = TESTRAIL_CASE.fullmatch(case.id)
        if not found:
            continue
        comment = "stepforge: generated and verified" if case.passed else f"stepforge: {case.failure}"
        if not case.passed and case.failed_step and case.failed_step <= len(case.steps):
            comment += f"\nstep {case.failed_step}: {case.steps[case.failed_step - 1]}"
        comment += "".join(f"\nscreenshot: {links_base}{link}" for link in case.screenshots)
        results.append({"case_id": int(found.group(1)), "status_id": TESTRAIL_PASSED if case.passed
                        else TESTRAIL_FAILED, "comment": comment, "elapsed": f"{max(1, round(case.seconds))}s"})
    return results


def _basic(user: str, secret: str) -> str:
    return "Basic " + base64.b64encode(f"{user}:{secret}".encode()).decode("ascii")


def send_report(target: ReportTarget, cases: list[CaseResult], *, msg_id: str, timeout_s: float,
                policy: TargetPolicy, links_base: str = "") -> DeliveryAttempt:
    base = target.url.rstrip("/")
    common = {"content-type": "application/json", "accept": "application/json"}
    if target.kind == "testrail":
        results = testrail_results(cases, links_base)
        if not results:
            return _nothing(target.url, msg_id, "no case of the batch is a TestRail case (an id like C101)")
        body = json.dumps({"results": results}).encode()
        url = f"{base}/index.php?/api/v2/add_results_for_cases/{target.run_id}"
        return post_once(url, body, {**common, "authorization": _basic(target.user or "", target.secret)},
                         msg_id=msg_id, timeout_s=timeout_s, policy=policy, what="report")
    # Xray links each scenario to its Test by the tag; the screenshots' links made absolute
    body = cucumber_json([replace(case, screenshots=[f"{links_base}{link}" for link in case.screenshots])
                          for case in cases]).encode()
    if target.kind == "xray-server":
        return post_once(f"{base}/rest/raven/1.0/import/execution/cucumber", body,
                         {**common, "authorization": f"Bearer {target.secret}"}, msg_id=msg_id, timeout_s=timeout_s,
                         policy=policy, what="report")
    client_id, _, client_secret = target.secret.partition(":")
    login = post_once(f"{base}/api/v2/authenticate",
                      json.dumps({"client_id": client_id, "client_secret": client_secret}).encode(), common,
                      msg_id=msg_id, timeout_s=timeout_s, policy=policy, what="report authentication",
                      read_bytes=16_384)  # the token
    if not login.ok:
        return login.model_copy(update={"error": f"authentication: {login.error}"})
    token = login.response_excerpt.strip().strip('"')
    return post_once(f"{base}/api/v2/import/execution/cucumber", body,
                     {**common, "authorization": f"Bearer {token}"}, msg_id=msg_id, timeout_s=timeout_s,
                     policy=policy, what="report")


def _nothing(url: str, msg_id: str, why: str) -> DeliveryAttempt:
    return DeliveryAttempt(url=url, msg_id=msg_id, ok=False, retryable=False, error=why, duration_ms=0,
                           attempted_at=datetime.now(UTC))
