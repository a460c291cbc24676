"""A project's reset request: a POST through the egress guard, carried as the command that makes it."""

from __future__ import annotations

import ipaddress
import subprocess
from collections.abc import Iterator

import pytest

from shared.reset_request import post_reset, reset_command
from shared.urls import TargetPolicy
from tests.http_site import SiteHandler, serve

LOCAL = TargetPolicy(allow_private=True)


@pytest.fixture(scope="module")
def app() -> Iterator[tuple[str, list[str]]]:
    """A server answering POST /ok with 204, POST /broken with 500 and /moved with a redirect; the paths asked."""
    asked: list[str] = []

    class Handler(SiteHandler):
        def do_POST(self) -> None:
            asked.append(f"{self.command} {self.path} {self.headers.get('user-agent')}")
            status = {"/ok": 204, "/broken": 500, "/moved": 307}.get(self.path, 404)
            self.send(b"", status, headers={"location": "/ok"} if status == 307 else None)

    base, stop = serve(Handler)
    yield base, asked
    stop()


def test_a_2xx_answer_is_a_reset_and_anything_else_says_what_it_was(app):
    base, asked = app
    asked.clear()
    assert post_reset(f"{base}/ok", LOCAL) is None
    assert post_reset(f"{base}/broken", LOCAL) == f"the reset request to {base}/broken answered HTTP 500"
    # A redirect is not followed: it could lead anywhere the policy never judged.
    assert post_reset(f"{base}/moved", LOCAL) == f"the reset request to {base}/moved answered HTTP 307"
    assert asked == ["POST /ok stepforge-reset/1", "POST /broken stepforge-reset/1", "POST /moved stepforge-reset/1"]


def test_the_policy_refuses_what_base_url_may_not_reach(app):
    base, asked = app
    asked.clear()
    assert post_reset(f"{base}/ok", TargetPolicy()).startswith("the reset request's URL is refused: ")
    refused = TargetPolicy(allow_private=True, refused_networks=(ipaddress.ip_network("127.0.0.0/8"),))
    assert "refused" in post_reset(f"{base}/ok", refused)
    assert "cloud metadata" in post_reset("http://169.254.169.254/latest", LOCAL)
    assert asked == []


def test_the_command_makes_the_request_and_its_exit_status_says_how_it_went(app, tmp_path):
    """Run from another folder, as a suite's replay runs it from its own."""
    base, asked = app
    asked.clear()
    ok = subprocess.run(reset_command(f"{base}/ok", LOCAL), shell=True, capture_output=True, text=True, timeout=60,
                        cwd=tmp_path)
    assert ok.returncode == 0 and asked == ["POST /ok stepforge-reset/1"]
    broken = subprocess.run(reset_command(f"{base}/broken", LOCAL), shell=True, capture_output=True, text=True,
                            timeout=60, cwd=tmp_path)
    assert broken.returncode == 1 and "answered HTTP 500" in broken.stdout
    # The policy travels with the command: a worker's refused networks hold in the reset's own process.
    strict = TargetPolicy(allow_private=True, refused_networks=(ipaddress.ip_network("127.0.0.1/32"),))
    refused = subprocess.run(reset_command(f"{base}/ok", strict), shell=True, capture_output=True, text=True,
                             timeout=60)
    assert refused.returncode == 1 and "refused" in refused.stdout and len(asked) == 2
