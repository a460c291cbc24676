"""`stepforge generate` with STEPFORGE_S3_BUCKET set keeps its artifacts in S3 (a moto server, over HTTP)."""

from __future__ import annotations

import json

import boto3
import pytest

from .conftest import generate

pytestmark = [pytest.mark.e2e, pytest.mark.service]  # Chromium, and an S3 server

SCENARIO = """
scenarios:
  - id: OWN-4
    title: Searching from the keyboard
    text: >
      Open /owners/find.
      Type "McTavish" into the last name field and press Enter.
      Verify "2387 S. Fair Way" is shown.
"""


def test_artifacts_go_to_the_bucket(tmp_path, petclinic, s3_endpoint, monkeypatch):
    for name, value in {"S3_BUCKET": "cli-artifacts", "S3_ENDPOINT_URL": s3_endpoint, "S3_PREFIX": "nightly",
                        "S3_ACCESS_KEY_ID": "test", "S3_SECRET_ACCESS_KEY": "test"}.items():
        monkeypatch.setenv(f"STEPFORGE_{name}", value)
    path = tmp_path / "s.yaml"
    path.write_text(SCENARIO)
    result = generate(path, petclinic, tmp_path)
    assert result.exit_code == 0
    s3 = boto3.client("s3", endpoint_url=s3_endpoint, aws_access_key_id="test", aws_secret_access_key="test",
                      region_name="us-east-1")
    keys = {o["Key"] for o in s3.list_objects_v2(Bucket="cli-artifacts", Prefix="nightly/")["Contents"]}
    assert {"nightly/OWN-4/attempt-1/run.json", "nightly/OWN-4/attempt-1/trace.zip",
            "nightly/OWN-4/attempt-1/replay.json"} <= keys
    assert any(k.startswith("nightly/OWN-4/attempt-1/screenshots/") and k.endswith(".png") for k in keys)
    record = json.loads(s3.get_object(Bucket="cli-artifacts", Key="nightly/OWN-4/attempt-1/run.json")["Body"].read())
    assert record["verdict"]["status"] == "passed"
    head = s3.head_object(Bucket="cli-artifacts", Key="nightly/OWN-4/attempt-1/trace.zip")
    assert head["ContentType"] == "application/zip"
    assert json.loads(result.report.read_text())["scenarios"]["OWN-4"]["verdict"] == "passed"


def test_an_unreachable_bucket_is_a_clear_error(tmp_path, petclinic, monkeypatch, capfd):
    monkeypatch.setenv("STEPFORGE_S3_BUCKET", "nowhere")
    monkeypatch.setenv("STEPFORGE_S3_ENDPOINT_URL", "http://127.0.0.1:9")  # nothing listens on the discard port
    monkeypatch.setenv("STEPFORGE_S3_TIMEOUT_S", "1")
    monkeypatch.setenv("STEPFORGE_S3_MAX_ATTEMPTS", "1")
    path = tmp_path / "s.yaml"
    path.write_text(SCENARIO)
    result = generate(path, petclinic, tmp_path)
    assert result.exit_code == 2
    err = capfd.readouterr().err
    assert "nowhere" in err and "Traceback" not in err
