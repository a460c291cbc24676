"""The Teamtasks demo app behaves as the modern pages it stands for: client-side routes, an API on another port
answering late, htmx swaps, keyup type-ahead, confirm() and prompt(), and a stylesheet host that never answers."""

from __future__ import annotations

import json
import socket
import time
import urllib.request
from urllib.parse import urlsplit

import pytest

from tests.apps.teamtasks import serve_in_thread

pytestmark = pytest.mark.e2e  # its tier (tests/conftest.py)

FAST = "50,100"  # the API's delay range for these tests (ms); the app's own default is 300-1000


@pytest.fixture(scope="module")
def app():
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("TEAMTASKS_DELAY_MS", FAST)
        running = serve_in_thread()
        yield running
        running.stop()


@pytest.fixture
def fresh(app):
    urllib.request.urlopen(urllib.request.Request(f"{app.api_url}/__reset", data=b"", method="POST"), timeout=5)
    return app


def submit_sign_in(page, app, password: str) -> None:
    # The stylesheet host never answers: abort it here, as the agent's guard does after its timeout.
    page.route(f"{app.stylesheet}*", lambda route: route.abort())
    page.goto(f"{app.web_url}/login")
    page.get_by_label("Email").fill("alice@example.com")
    page.get_by_label("Password").fill(password)
    page.get_by_role("button", name="Sign in").click()


def sign_in(page, app) -> None:
    submit_sign_in(page, app, "wonderland")
    page.get_by_text("Welcome, Alice").wait_for()


def test_the_api_runs_on_another_origin_and_answers_preflights(app):
    assert urlsplit(app.web_url).port != urlsplit(app.api_url).port
    assert urlsplit(app.api_url).hostname == "localhost" and urlsplit(app.web_url).hostname == "127.0.0.1"
    preflight = urllib.request.Request(f"{app.api_url}/api/tasks", method="OPTIONS",
                                       headers={"Origin": app.web_url, "Access-Control-Request-Headers": "authorization"})
    with urllib.request.urlopen(preflight, timeout=5) as answer:
        assert answer.status == 204
        assert answer.headers["Access-Control-Allow-Origin"] == app.web_url
    unauthorised = urllib.request.Request(f"{app.api_url}/api/tasks")
    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(unauthorised, timeout=5)
    assert refused.value.code == 401


def test_sign_in_is_posted_in_the_background_and_routes_do_not_reload(page, fresh):
    sign_in(page, fresh)
    page.evaluate("window.marker = 'kept'")
    page.get_by_role("link", name="Settings").click()
    page.get_by_role("heading", name="Profile").wait_for()
    assert page.url.endswith("/settings")
    assert page.evaluate("window.marker") == "kept"  # the same document: a client-side route
    page.go_back()
    page.get_by_text("Welcome, Alice").wait_for()


def test_a_wrong_password_is_refused_after_the_delay(page, fresh):
    submit_sign_in(page, fresh, "nope")
    page.get_by_text("Invalid email or password").wait_for()


def test_the_type_ahead_opens_on_typed_keys_only(page, fresh):
    sign_in(page, fresh)
    page.get_by_role("link", name="New task").click()
    field = page.get_by_label("Assignee")
    field.fill("car")
    page.wait_for_load_state("networkidle")
    assert page.get_by_role("option").count() == 0  # fill() sends no key events
    field.fill("")
    field.press_sequentially("car")
    page.get_by_role("option", name="Carol Danvers").click()
    assert field.input_value() == "Carol Danvers"


def test_delete_asks_for_confirmation_and_a_dismissal_keeps_the_task(page, fresh):
    sign_in(page, fresh)
    row = page.locator("tr").filter(has_text="Water the plants")
    page.once("dialog", lambda dialog: dialog.dismiss())
    row.locator(".icon-trash").click()
    page.wait_for_load_state("networkidle")
    assert row.count() == 1
    page.once("dialog", lambda dialog: dialog.accept())
    row.locator(".icon-trash").click()
    page.get_by_text("Task deleted").wait_for()
    assert page.locator("tr").filter(has_text="Water the plants").count() == 0


def test_rename_asks_with_a_prompt_and_rows_open_the_task(page, fresh):
    sign_in(page, fresh)
    page.get_by_role("cell", name="Book the team dinner").click()  # the row's click listener, not a link
    page.get_by_role("heading", name="Book the team dinner").wait_for()
    page.once("dialog", lambda dialog: dialog.accept("Book the team lunch"))
    page.get_by_role("button", name="Rename").click()
    page.get_by_role("heading", name="Book the team lunch").wait_for()


def test_htmx_swaps_fragments_from_the_api(page, fresh):
    sign_in(page, fresh)
    page.get_by_label("Search tasks").fill("report")
    page.get_by_role("button", name="Search").click()
    page.locator("#results").get_by_text("Write the quarterly report").wait_for()
    page.get_by_role("button", name="Load activity").click()
    page.get_by_text("Alice closed Fix the login page").wait_for()


def test_reset_restores_the_seed(fresh):
    token = json.loads(urllib.request.urlopen(urllib.request.Request(
        f"{fresh.api_url}/api/login", data=json.dumps({"email": "bob@example.com", "password": "builder"}).encode(),
        headers={"Content-Type": "application/json"}), timeout=5).read())["token"]
    add = urllib.request.Request(f"{fresh.api_url}/api/tasks", data=json.dumps({"title": "Extra"}).encode(),
                                 headers={"Content-Type": "application/json", "Authorization": f"Bearer {token}"})
    urllib.request.urlopen(add, timeout=5)
    urllib.request.urlopen(urllib.request.Request(f"{fresh.web_url}/__reset", data=b"", method="POST"), timeout=5)
    token = json.loads(urllib.request.urlopen(urllib.request.Request(
        f"{fresh.api_url}/api/login", data=json.dumps({"email": "bob@example.com", "password": "builder"}).encode(),
        headers={"Content-Type": "application/json"}), timeout=5).read())["token"]
    listed = urllib.request.Request(f"{fresh.api_url}/api/tasks", headers={"Authorization": f"Bearer {token}"})
    assert [t["title"] for t in json.loads(urllib.request.urlopen(listed, timeout=5).read())] == [
        "Write the quarterly report", "Water the plants", "Book the team dinner", "Renew the SSL certificate"]


def test_the_stylesheet_host_accepts_and_never_answers(app):
    parts = urlsplit(app.stylesheet)
    with socket.create_connection((parts.hostname, parts.port), timeout=2) as conn:
        conn.sendall(b"GET /theme.css HTTP/1.1\r\nHost: cdn\r\n\r\n")
        conn.settimeout(1.0)
        started = time.monotonic()
        with pytest.raises(socket.timeout):
            conn.recv(1)
        assert time.monotonic() - started >= 0.9


def test_switched_changes_reach_the_page_and_the_api(page, fresh):
    from tests.apps.teamtasks.changes import REMOVED_TASK, switch

    switch("renamed-id", "retitled-welcome", "removed-row", "relabelled-button")
    try:
        submit_sign_in(page, fresh, "wonderland")
        page.get_by_text("Hello, Alice").wait_for()
        assert page.get_by_role("button", name="Show activity").count() == 1
        assert page.get_by_text(REMOVED_TASK).count() == 0 and page.get_by_text("Water the plants").count() == 1
        page.goto(f"{fresh.web_url}/login")
        page.locator("#login-email").wait_for()
        assert page.locator("#email").count() == 0
    finally:
        switch()
    page.goto(f"{fresh.web_url}/login")
    page.locator("#email").wait_for()  # as it was
