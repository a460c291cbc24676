"""A playwright-bdd batch's suite.zip is a Playwright Test project that runs green with Playwright's runner. (The
choices and a project's defaults as routes see them: tests/api/test_batch_choices.py.)"""

from __future__ import annotations

import io
import os
import subprocess
import uuid
import zipfile
from pathlib import Path

import pytest

from tests.npm_install import installed_copy
from tests.service.conftest import new_project
from tests.service.test_batches import demo_scenarios, wait_finished, wait_suite

pytestmark = pytest.mark.service  # its tier (tests/conftest.py)


def test_a_playwright_bdd_batch_s_suite_zip_runs_with_bddgen_and_playwright_test(client, worker, petclinic, settings,
                                                                                  tmp_path: Path):
    project = new_project(client, petclinic)
    ids = ("OWN-1", "VET-20")
    response = client.post("/v1/batches", json={"scenarios": demo_scenarios(*ids), "format": "playwright-bdd",
                                                "feature": "Owners and vets"},
                           headers={**project.headers, "Idempotency-Key": uuid.uuid4().hex})
    assert response.status_code == 202, response.text
    batch_id = response.json()["id"]
    assert wait_finished(client, project.headers, batch_id)[-1]["counts"]["passed"] == len(ids)
    built = wait_suite(client, project.headers, batch_id)
    assert built["suite_state"] == "ready" and built["suite_failed"] is None, built
    data = client.get(f"/v1/batches/{batch_id}/suite.zip", headers=project.headers).content
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        archive.extractall(tmp_path / "zip")
    suite = tmp_path / "zip" / "suite"
    assert (suite / "playwright.config.js").is_file() and (suite / "steps/steps.js").is_file()
    assert not (suite / "cucumber.js").exists()
    feature = (suite / "features/owners-and-vets.feature").read_text()
    assert feature.startswith("Feature: Owners and vets") and "@OWN-1" in feature and "@VET-20" in feature

    # As a team on Playwright Test runs it: npm install && npx bddgen && npx playwright test, the zip's base URL.
    copy = installed_copy(suite, tmp_path)
    env = {name: value for name, value in os.environ.items() if not name.startswith("STEPFORGE_")}
    env.update(STEPFORGE_BROWSER_PATH=settings.browser_path, NO_COLOR="1")
    ran = subprocess.run("npx bddgen && npx playwright test", shell=True, cwd=copy, env=env, capture_output=True,
                         text=True, timeout=600)
    assert ran.returncode == 0, ran.stdout[-3000:] + ran.stderr[-2000:]
    assert f"{len(ids)} passed" in ran.stdout
