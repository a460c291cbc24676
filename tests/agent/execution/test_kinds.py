"""The action kinds of dialogs, history, hover, type-ahead, lists, uploads, tabs, waits and absence, performed in
Chromium on a small page, as generation performs them (BrowserSession, one tab, the executor's perform)."""

from __future__ import annotations

import pytest

from shared.settings import Settings
from tests.http_site import SiteHandler, serve
from workers.agent.actions import ActionFailed, CheckFailed
from workers.agent.execution.browser import BrowserSession
from workers.agent.execution.executor import check_page, perform
from workers.agent.grounding.tree import snapshot

from .test_waiting import in_thread

pytestmark = pytest.mark.e2e  # its tier (tests/conftest.py)

HOME = """<!doctype html><html><head><style>
  .items { display: none } .menu:hover .items { display: block }
</style></head><body>
  <h1>Home</h1>
  <a href="/second">Second</a> <a href="/popup" target="_blank">Open popup</a>
  <button id="del" onclick="out.textContent = confirm('Sure?') ? 'Deleted' : 'Kept'">Delete</button>
  <button id="ren" onclick="out.textContent = 'Name: ' + prompt('Name?')">Rename</button>
  <div class="menu"><span>More</span><div class="items"><a href="#reports">Reports</a></div></div>
  <label for="who">Assignee</label> <input id="who"><ul role="listbox" id="people"></ul>
  <label for="f">Attachment</label> <input type="file" id="f" onchange="out.textContent = 'File: ' + this.files[0].name">
  <button id="slow" onclick="out.textContent = 'Working'; setTimeout(() => out.textContent = 'Done', 1500)">Slow</button>
  <p id="out"></p><p id="note">Temporary</p>
  <script>
    const who = document.getElementById("who"), people = document.getElementById("people");
    who.addEventListener("keyup", () => {
      people.innerHTML = ["Carol Danvers", "Carl Sagan"].filter((n) => n.toLowerCase().includes(who.value.toLowerCase()))
        .map((n) => `<li role="option">${n}</li>`).join("");
    });
    people.addEventListener("click", (e) => { who.value = e.target.textContent; people.innerHTML = ""; });
    setTimeout(() => document.getElementById("note").remove(), 600);
  </script></body></html>"""


class Site(SiteHandler):
    def do_GET(self) -> None:  # noqa: N802
        pages = {"/": HOME, "/second": "<h1>Second page</h1>", "/popup": "<h1>Popup page</h1>"}
        self.send(pages.get(self.path, "<h1>Not found</h1>"), 200 if self.path in pages else 404)


@pytest.fixture(scope="module")
def site():
    url, stop = serve(Site)
    yield url
    stop()


def drive(site: str, work, **settings):
    config = Settings(**settings)

    def run():
        with BrowserSession(config) as session, session.tab(app_url=site) as tab:
            perform(tab.page, None, "goto", "/", site, config, tab=tab)
            return work(tab, config)

    return in_thread(run)


def test_dialogs_are_answered_as_the_step_says(site):
    def work(tab, config):
        seen = []
        for kind, value, button in [("dismiss_dialog", None, "#del"), ("accept_dialog", None, "#del"),
                                    ("accept_dialog", "Zed", "#ren")]:
            perform(tab.page, None, kind, value, site, config, tab=tab)
            perform(tab.page, tab.page.locator(button), "click", None, site, config, tab=tab)
            seen.append(tab.page.inner_text("#out"))
        perform(tab.page, tab.page.locator("#del"), "click", None, site, config, tab=tab)  # none armed: accepted
        return seen, tab.page.inner_text("#out"), tab.events.dialogs_answered, tab.events.dialog_answers

    seen, unarmed, answered, left = drive(site, work)
    assert seen == ["Kept", "Deleted", "Name: Zed"]
    assert (unarmed, answered, left) == ("Deleted", 4, [])


def test_history_goes_back_forward_and_reloads(site):
    def work(tab, config):
        urls = []
        perform(tab.page, tab.page.get_by_role("link", name="Second"), "click", None, site, config, tab=tab)
        for move in ("back", "forward", "reload"):
            perform(tab.page, None, "history", move, site, config, tab=tab)
            urls.append(tab.page.url.removeprefix(site))
        return urls

    assert drive(site, work) == ["/", "/second", "/second"]


def test_hover_opens_a_menu(site):
    def work(tab, config):
        reports = tab.page.get_by_role("link", name="Reports")
        before = reports.is_visible()
        perform(tab.page, tab.page.get_by_text("More", exact=True), "hover", None, site, config, tab=tab)
        return before, reports.is_visible()

    assert drive(site, work) == (False, True)


def test_a_field_that_listens_to_keys_is_typed_key_by_key_and_its_suggestion_picked(site):
    def work(tab, config):
        node = next(n for n in snapshot(tab.page).nodes if n.id_attr == "who")
        typed = snapshot(tab.page)  # a plain field next to it is not a type-ahead
        plain = [n.id_attr for n in typed.nodes if n.typeahead]
        field = tab.page.locator("#who")
        perform(tab.page, field, "fill", "car", site, config, tab=tab)  # one input event: no keyup, no list
        after_fill = tab.page.locator("#people li").count()
        perform(tab.page, field, "type", "car", site, config, tab=tab)
        options = tab.page.locator("#people li").all_inner_texts()
        perform(tab.page, None, "pick", "Carol Danvers", site, config, tab=tab)
        with pytest.raises(ActionFailed, match='no open list offers "Nobody"'):
            perform(tab.page, None, "pick", "Nobody", site, config, tab=tab)
        return node.typeahead, plain, after_fill, options, field.input_value()

    typeahead, marked, after_fill, options, value = drive(site, work, action_timeout_ms=800)
    assert typeahead and marked == ["who"]
    assert after_fill == 0 and options == ["Carol Danvers", "Carl Sagan"] and value == "Carol Danvers"


def test_an_upload_takes_a_file_of_the_files_folder_only(site, tmp_path):
    (tmp_path / "notes.txt").write_text("notes")

    def work(tab, config):
        perform(tab.page, tab.page.locator("#f"), "upload", "notes.txt", site, config, tab=tab)
        shown = tab.page.inner_text("#out")
        for missing in ("other.txt", "../notes.txt"):
            with pytest.raises(ActionFailed, match="no file"):
                perform(tab.page, tab.page.locator("#f"), "upload", missing, site, config, tab=tab)
        return shown

    assert drive(site, work, files_dir=tmp_path) == "File: notes.txt"


def test_a_new_tab_is_worked_in_and_left(site):
    def work(tab, config):
        perform(tab.page, tab.page.get_by_role("link", name="Open popup"), "click", None, site, config, tab=tab)
        perform(tab.page, None, "switch_tab", "new", site, config, tab=tab)
        popup = tab.page.inner_text("h1")
        perform(tab.page, None, "switch_tab", "close", site, config, tab=tab)
        back = tab.page.inner_text("h1")
        # Only the wait for a tab that never opens is short: the clicks keep the default time, as on a busy machine.
        with pytest.raises(ActionFailed, match="no new tab or popup opened"):
            perform(tab.page, None, "switch_tab", "new", site, config.model_copy(update={"action_timeout_ms": 500}),
                    tab=tab)
        return popup, back, len(tab.context.pages)

    assert drive(site, work) == ("Popup page", "Home", 1)


def test_waits_are_bounded_and_absence_is_waited_for(site):
    def work(tab, config):
        perform(tab.page, tab.page.locator("#slow"), "click", None, site, config, tab=tab)
        with pytest.raises(CheckFailed):  # an ordinary check gives up before the slow text comes
            check_page(tab.page, "assert_text", "Done", site, config.model_copy(update={"assertion_timeout_ms": 200}))
        perform(tab.page, None, "wait_for", "Done", site, config, tab=tab)
        perform(tab.page, None, "wait_gone", "Working", site, config, tab=tab)
        with pytest.raises(ActionFailed, match='"Never" did not appear within 0.3 s'):
            perform(tab.page, None, "wait_for", "Never", site, config.model_copy(update={"wait_timeout_ms": 300}),
                    tab=tab)
        check_page(tab.page, "assert_absent", "Temporary", site, config)  # removed 0.6 s after the load
        with pytest.raises(CheckFailed, match='still shows "Home"'):
            check_page(tab.page, "assert_absent", "Home", site, config.model_copy(update={"assertion_timeout_ms": 300}))
        return tab.page.inner_text("#out")

    assert drive(site, work, wait_timeout_ms=5000) == "Done"
