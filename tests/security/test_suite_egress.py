"""A generated suite run by hand (npx cucumber-js in a team's CI, no stepforge service around it) keeps its own
egress guard (features/support/egress.js): the cloud metadata addresses in every form, and the networks in
STEPFORGE_REFUSED_NETWORKS, are refused before any connection, whatever the page uses to reach them; the
application itself is reached; STEPFORGE_EGRESS_GUARD=off is the documented way out, and then the hostile page
does reach the refused address (which shows the test can fail)."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

from shared.settings import Settings
from workers.agent.scripting.suite import write_suite
from workers.agent.verify.node_runtime import ensure_runtime

from .hostile import REFUSED_NETWORK

pytestmark = pytest.mark.e2e  # its tier (tests/conftest.py)

# What the hostile page asks of the refused address and then waits to see end (tests/security/hostile.py); the
# popup opens a page of its own.
ENDING = ["img", "mapped", "redirected", "fetch", "frame", "ws", "events", "form", "refresh"]
FEATURE = "Feature: Hostile\n\n  @HOST-1\n  Scenario: The welcome page greets\n    Given the welcome page is open\n"
STEPS = f"""const {{ Given }} = require("@cucumber/cucumber");
const assert = require("assert");

Given("the welcome page is open", async function () {{
  await this.page.goto(this.url("/"));
  await this.page.waitForFunction((ending) => ending.every((k) => window.__ended.has(k)), {json.dumps(ENDING)});
  assert.strictEqual(await this.page.innerText("h1"), "Welcome");
}});
"""


@pytest.fixture(scope="module")
def suite(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("suite")
    write_suite(root, "Hostile", {"features/hostile.feature": FEATURE}, STEPS)
    return root


def run(suite: Path, site: str, **env: str) -> subprocess.CompletedProcess[str]:
    node_modules = ensure_runtime(Settings())  # the npm packages stepforge installed, instead of npm install
    return subprocess.run([str(node_modules / ".bin/cucumber-js")], cwd=suite, capture_output=True, text=True,
                          timeout=300, env={"PATH": os.environ["PATH"], "NODE_PATH": str(node_modules),
                                            "HOME": os.environ.get("HOME", "/root"), "STEPFORGE_BASE_URL": site,
                                            **env})


def node(suite: Path, script: str, **env: str) -> object:
    node_modules = ensure_runtime(Settings())
    done = subprocess.run(["node", "-e", script], cwd=suite / "features" / "support", capture_output=True, text=True,
                          timeout=60, env={"PATH": os.environ["PATH"], "NODE_PATH": str(node_modules), **env})
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_a_suite_run_by_hand_refuses_every_request_of_the_page_to_a_refused_network(suite, site, listener):
    before = len(listener.accepted)
    done = run(suite, site, STEPFORGE_REFUSED_NETWORKS=json.dumps([REFUSED_NETWORK]))
    assert done.returncode == 0, done.stdout + done.stderr
    assert "1 scenario (1 passed)" in done.stdout  # the application itself is reached through the guard
    refusals = [line for line in (done.stdout + done.stderr).splitlines() if line.startswith("stepforge: refused")]
    assert refusals and all("is in a refused network (127.0.0.2/32, STEPFORGE_REFUSED_NETWORKS)" in line
                            for line in refusals), refusals
    assert any(f"{listener.origin}/hop:" in line for line in refusals)  # the last hop of a redirect chain
    assert any("::ffff:7f00:2 (that is 127.0.0.2)" in line for line in refusals)  # an IPv6 form of it
    assert len(listener.accepted) == before and listener.datagrams == []

    # Without the guard the page reaches the address (whose listener never answers: the page does not load), so
    # the check above can fail.
    opened = run(suite, site, STEPFORGE_REFUSED_NETWORKS=json.dumps([REFUSED_NETWORK]), STEPFORGE_EGRESS_GUARD="off")
    assert "stepforge: refused" not in opened.stdout + opened.stderr
    assert len(listener.accepted) > before, opened.stdout + opened.stderr


def test_the_cloud_metadata_addresses_are_refused_in_every_form_by_default(suite):
    forms = ["169.254.169.254", "::ffff:169.254.169.254", "::ffff:a9fe:a9fe", "64:ff9b::a9fe:a9fe",
             "2002:a9fe:a9fe::1", "::169.254.169.254", "fd00:ec2::254", "169.254.170.2", "100.100.100.200",
             "168.63.129.16", "fe80::1", "127.0.0.1", "::1", "10.1.2.3", "192.168.1.20", "93.184.216.34"]
    seen = node(suite, f"console.log(JSON.stringify({json.dumps(forms)}.map(require('./egress').refusal)))")
    refused = dict(zip(forms, seen, strict=True))
    assert all("cloud metadata or link-local" in refused[form] for form in forms[:11]), refused
    assert [refused[form] for form in forms[11:]] == [None] * 5  # the application's own addresses are not judged
    assert "(that is 169.254.169.254)" in refused["2002:a9fe:a9fe::1"]
    teredo = node(suite, "console.log(JSON.stringify(require('./egress').refusal('2001:0:4136:e378:8000:63bf:"
                         "5601:5601')))")
    assert "(that is 169.254.169.254)" in teredo  # Teredo's client address, inverted
    private = node(suite, "console.log(JSON.stringify(require('./egress').refusal('10.1.2.3')))",
                   STEPFORGE_REFUSED_NETWORKS='["10.0.0.0/8"]')
    assert private == "10.1.2.3 is in a refused network (10.0.0.0/8, STEPFORGE_REFUSED_NETWORKS)"


def test_a_request_through_the_guard_to_a_metadata_host_is_answered_403_before_any_connection(suite):
    script = """
const http = require("http");
const egress = require("./egress");
egress.guardAddress().then((proxy) => {
  const { hostname, port } = new URL(proxy);
  const asks = ["http://169.254.169.254/latest/meta-data/", "http://metadata.google.internal/computeMetadata/v1/"];
  Promise.all(asks.map((url) => new Promise((resolve) => {
    http.get({ host: hostname, port, path: url, headers: { host: new URL(url).host } }, (answer) => {
      let body = "";
      answer.on("data", (chunk) => { body += chunk; });
      answer.on("end", () => resolve([answer.statusCode, body.trim()]));
    });
  }))).then((answers) => console.log(JSON.stringify(answers)));
});
"""
    answers = node(suite, script)
    assert answers == [
        [403, "stepforge egress guard: 169.254.169.254 is a cloud metadata or link-local address (169.254.0.0/16)"],
        [403, "stepforge egress guard: metadata.google.internal is a cloud metadata host"]]


def test_a_malformed_refused_network_stops_the_run_naming_it(suite, site):
    done = run(suite, site, STEPFORGE_REFUSED_NETWORKS='["10.0.0.0/33"]')
    assert done.returncode != 0
    assert 'STEPFORGE_REFUSED_NETWORKS: "10.0.0.0/33" has no valid prefix length' in done.stdout + done.stderr


def test_a_connection_left_open_through_the_guard_does_not_keep_the_run_alive(suite):
    """cucumber-js ends when nothing is left to do: a browser's idle keep-alive or a half-sent request to the
    guard must not hold the test process (it would hang after its last scenario)."""
    script = """
const net = require("net");
require("./egress").guardAddress().then((proxy) => {
  const client = net.connect(Number(new URL(proxy).port), "127.0.0.1", () => {
    client.write("GET http://127.0.0.1:9/ HTTP/1.1\\r\\nHost: 127.0.0.1:9\\r\\n");  // never finished
    client.unref();  // only the guard's side may keep the process alive
    console.log(JSON.stringify("sent"));
  });
});
"""
    assert node(suite, script) == "sent"  # and node exited by itself (node() times out at 60 s otherwise)
