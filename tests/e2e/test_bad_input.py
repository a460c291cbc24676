"""Bad input gets one clear line naming the problem and exit status 2, never a traceback."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
from http.server import ThreadingHTTPServer

import pytest

from tests.http_site import POLL_S, SiteHandler

from .conftest import ROOT, generate

pytestmark = pytest.mark.e2e  # its tier (tests/conftest.py)

GOOD = "scenarios: [{id: A, title: t, steps: ['Go to the Find Owners page']}]\n"


def stepforge(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "workers.cli", "generate", *args], cwd=ROOT, capture_output=True, text=True,
        env={**os.environ, **(env or {})}, timeout=120,
    )


def assert_clear_error(done: subprocess.CompletedProcess[str], message: str) -> None:
    assert done.returncode == 2, done.stdout + done.stderr
    assert "Traceback" not in done.stderr + done.stdout
    assert message in " ".join(done.stderr.split()), done.stderr


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("scenarios:\n  - id: A\n\ttitle: t\n", "not valid YAML at line 3, column 1"),
        ("scenarios: [{id: A, steps: [Click X]}]\n", "scenarios[0] (id A).title: Field required"),
        ("scenarios: [{id: A, title: t, steps: [Click X], data: [{a: 1}]}, 3]\n", "scenarios[1]"),
    ],
)
def test_malformed_scenario_files(tmp_path, petclinic, content, message):
    path = tmp_path / "s.yaml"
    path.write_text(content)
    assert_clear_error(stepforge(str(path), "--base-url", petclinic), message)


def test_a_step_yaml_reads_as_a_mapping_says_to_quote_it(tmp_path, petclinic):
    path = tmp_path / "s.yaml"
    path.write_text('scenarios:\n  - id: A\n    title: t\n    steps:\n      - Go to the Find Owners page\n'
                    '      - Verify the page shows "Status: open"\n')
    assert_clear_error(stepforge(str(path), "--base-url", petclinic),
                       "scenarios[0] (id A).steps[1]: Value error, the step 'Verify the page shows \"Status: open\"' "
                       "holds ': ', so YAML read it as a mapping; put the whole step in quotes")


def test_the_model_step_writer_without_an_endpoint(tmp_path, petclinic):
    path = tmp_path / "s.yaml"
    path.write_text(GOOD)
    done = stepforge(str(path), "--base-url", petclinic, "--step-writer", "model", env={"STEPFORGE_MODEL_BASE_URL": ""})
    assert_clear_error(done, "the model step writer needs a model endpoint: set STEPFORGE_MODEL_BASE_URL")


def test_only_an_unknown_scenario_id(tmp_path, petclinic):
    path = tmp_path / "s.yaml"
    path.write_text(GOOD)
    assert_clear_error(stepforge(str(path), "--base-url", petclinic, "--only", "A,NOPE"),
                       "--only: no scenario 'NOPE' in the file (its ids: A)")


def test_file_that_is_not_utf8(tmp_path, petclinic):
    path = tmp_path / "s.yaml"
    path.write_bytes("scenarios: [{id: A, title: caf\u00e9, steps: [x]}]".encode("latin-1"))
    assert_clear_error(stepforge(str(path), "--base-url", petclinic), "s.yaml: not UTF-8 text")


def test_scenario_id_that_is_no_folder_name(tmp_path, petclinic):
    path = tmp_path / "s.yaml"
    path.write_text("scenarios: [{id: '..', title: t, steps: [x]}]")
    assert_clear_error(stepforge(str(path), "--base-url", petclinic), "scenarios[0] (id ..).id")


def test_invalid_setting(tmp_path, petclinic):
    path = tmp_path / "s.yaml"
    path.write_text(GOOD)
    done = stepforge(str(path), "--base-url", petclinic, env={"STEPFORGE_ACTION_TIMEOUT_MS": "soon"})
    assert_clear_error(done, "invalid setting STEPFORGE_ACTION_TIMEOUT_MS")


def test_out_folder_with_other_files_is_refused(tmp_path, petclinic):
    path = tmp_path / "s.yaml"
    path.write_text(GOOD)
    project = tmp_path / "project"
    project.mkdir()
    (project / "README.md").write_text("mine")
    assert_clear_error(stepforge(str(path), "--base-url", petclinic, "--out", str(project)),
                       "is not empty and was not written by stepforge")
    assert (project / "README.md").read_text() == "mine"
    done = stepforge(str(path), "--base-url", petclinic, "--out", str(tmp_path / "new"), "--report", str(project))
    assert_clear_error(done, "--report " + str(project) + " is a folder")


def test_missing_file(tmp_path, petclinic):
    assert_clear_error(stepforge(str(tmp_path / "nope.yaml"), "--base-url", petclinic), "nope.yaml: cannot read")


def test_no_base_url(tmp_path):
    path = tmp_path / "s.yaml"
    path.write_text(GOOD)
    assert_clear_error(stepforge(str(path)), "no base URL: pass --base-url")


def test_unreachable_base_url(tmp_path):
    path = tmp_path / "s.yaml"
    path.write_text(GOOD)
    assert_clear_error(stepforge(str(path), "--base-url", "http://127.0.0.1:9"), "cannot reach the base URL http://127.0.0.1:9")


def test_refused_base_url(tmp_path):
    path = tmp_path / "s.yaml"
    path.write_text(GOOD)
    assert_clear_error(stepforge(str(path), "--base-url", "http://169.254.169.254/"), "link-local")
    assert_clear_error(stepforge(str(path), "--base-url", "ftp://127.0.0.1/"), "only http and https")


def test_missing_browser(tmp_path, petclinic):
    path = tmp_path / "s.yaml"
    path.write_text(GOOD)
    done = stepforge(str(path), "--base-url", petclinic, "--out", str(tmp_path / "suite"),
                     "--artifacts", str(tmp_path / "artifacts"), env={"STEPFORGE_BROWSER_PATH": "/nowhere/chromium"})
    assert_clear_error(done, "Chromium not found at /nowhere/chromium")


class SlowPages(SiteHandler):
    """/ answers at once; /slow answers only after the test is over."""

    def do_GET(self) -> None:  # noqa: N802
        if self.path.startswith("/slow"):
            time.sleep(8)
        body = b"<h1>Home</h1>"
        self.send(body)


@pytest.mark.e2e
def test_a_page_that_never_loads_gets_a_verdict(tmp_path, monkeypatch):
    server = ThreadingHTTPServer(("127.0.0.1", 0), SlowPages)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, kwargs={"poll_interval": POLL_S}, daemon=True).start()
    base = f"http://127.0.0.1:{server.server_port}"
    path = tmp_path / "s.yaml"
    path.write_text("scenarios: [{id: SLOW, title: t, start: /slow, steps: ['Verify \"Home\" is shown']}]\n")
    monkeypatch.setenv("STEPFORGE_NAVIGATION_TIMEOUT_MS", "1500")
    try:
        run = generate(path, base, tmp_path)
    finally:
        server.shutdown()
    import json

    entry = json.loads(run.report.read_text())["scenarios"]["SLOW"]
    assert run.exit_code == 1
    assert (entry["verdict"], entry["failure_kind"]) == ("failed", "error")
    assert entry["reason"] == f"could not open the start page: {base}/slow did not load within 1.5 s (the server did not answer)"


@pytest.mark.parametrize("command", [("regenerate",), ("accept", "OWN-1")])
def test_regenerate_and_accept_refuse_a_folder_stepforge_did_not_write(tmp_path, command):
    done = subprocess.run([sys.executable, "-m", "workers.cli", command[0], str(tmp_path), *command[1:]], cwd=ROOT,
                          capture_output=True, text=True, timeout=120)
    assert_clear_error(done, f"{tmp_path} is not a suite folder written by stepforge")


def test_accept_names_a_scenario_without_a_regenerated_script(tmp_path):
    (tmp_path / ".stepforge-suite").write_text("")
    done = subprocess.run([sys.executable, "-m", "workers.cli", "accept", str(tmp_path), "OWN-1"], cwd=ROOT,
                          capture_output=True, text=True, timeout=120)
    assert_clear_error(done, "OWN-1 has no regenerated script to accept")
