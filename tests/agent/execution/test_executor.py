import time

import pytest

from shared.records import Node
from workers.agent.actions.kinds.assert_value import shown_value
from workers.agent.execution.browser import first_line
from workers.agent.execution.executor import absolute_url, is_redundant, text_is_shown
from workers.agent.execution.page_scripts import SETTLE_SCRIPT

pytestmark = pytest.mark.e2e  # its tier (tests/conftest.py)

PAGE = """<p>11 owners</p>
<h2 style="text-transform: uppercase">Owner
   Information</h2>
<p>Total: $30.00 (a+b)</p>
<p hidden>Secret word</p>
<table><tr><th>City</th><td> Sun   Prairie </td></tr></table>
<select id="type"><option value="1">cat</option><option value="2" selected>dog</option></select>
<input id="name" value="Leo">"""


@pytest.mark.parametrize(
    ("text", "shown"),
    [
        ("1 owner", False),  # not a substring of a longer word
        ("11 owners", True),
        ("owner information", True),  # any case, any spacing, CSS text-transform aside
        ("Total: $30.00 (a+b)", True),  # regular-expression characters are literal
        ("Secret word", False),  # hidden text is not shown
        ("owners", True),
    ],
)
def test_text_is_shown_as_whole_words(page, text, shown):
    page.set_content(PAGE)
    # A text that is there is found at the first look, however busy the machine; one that is not is waited for
    # only briefly.
    assert text_is_shown(page, text, timeout_ms=5_000 if shown else 300) is shown


def test_shown_value_reads_controls_and_cells(page):
    page.set_content(PAGE)
    page.add_script_tag(content=SETTLE_SCRIPT)  # what generation installs in every document
    assert shown_value(page.locator("td")) == "Sun Prairie"
    assert shown_value(page.locator("#type")) == "dog"  # the label, not the option value
    assert shown_value(page.locator("#name")) == "Leo"


@pytest.mark.parametrize(
    ("base", "path", "url"),
    [
        ("http://h:8080", "/owners/find", "http://h:8080/owners/find"),
        ("http://h:8080/petclinic", "/owners/find", "http://h:8080/petclinic/owners/find"),
        ("http://h:8080/petclinic/", "owners?lastName=Davis", "http://h:8080/petclinic/owners?lastName=Davis"),
        ("http://h:8080/app", "https://other.test/x", "https://other.test/x"),
        # a base URL's query: the slash after its path, the query kept where the path has none of its own
        ("http://h/path?x=1", "/owners/find", "http://h/path/owners/find?x=1"),
        ("http://h/path?x=1", "/", "http://h/path?x=1"),
        ("http://h/path?x=1", "", "http://h/path?x=1"),
        ("http://h/path/?x=1#top", "owners?lastName=Davis", "http://h/path/owners?lastName=Davis"),
    ],
)
def test_paths_are_opened_below_the_base_url(base, path, url):
    assert absolute_url(base, path) == url


def test_redundant_operations():
    filled = Node(id=1, tag="input", value="Madison", checked=None)
    ticked = Node(id=2, tag="input", input_type="checkbox", checked=True)
    assert is_redundant("fill", filled, "Madison", "http://h/x", "http://h")
    assert not is_redundant("fill", filled, "Verona", "http://h/x", "http://h")
    assert is_redundant("check", ticked, None, "http://h/x", "http://h")
    assert not is_redundant("uncheck", ticked, None, "http://h/x", "http://h")
    assert is_redundant("goto", None, "/x", "http://h/x", "http://h")
    assert not is_redundant("click", filled, None, "http://h/x", "http://h")


def test_timeout_reasons_come_from_the_call_log():
    log = ("Locator.click: Timeout 800ms exceeded.\nCall log:\n  - waiting for locator(\"#save\")\n"
           "    - locator resolved to <button id=\"save\">Save</button>\n  - attempting click action\n"
           "      - element is visible, enabled and stable\n      - <div></div> intercepts pointer events\n"
           "    - retrying click action\n      - waiting 100ms\n")
    assert first_line(log) == "Locator.click: Timeout 800ms exceeded. (<div></div> intercepts pointer events)"
    missing = 'Locator.fill: Timeout 800ms exceeded.\nCall log:\n  - waiting for locator("#nope")\n'
    assert first_line(missing) == 'Locator.fill: Timeout 800ms exceeded. (nothing matches locator("#nope"))'
    assert first_line("Error: net::ERR_CONNECTION_REFUSED at http://x/\n=== logs ===\n") == (
        "Error: net::ERR_CONNECTION_REFUSED at http://x/"
    )


def test_reset_command_failures_and_timeouts_are_clear_and_leave_nothing_running(tmp_path):
    import pathlib

    from shared.settings import Settings
    from workers.agent.scenario_run import ResetFailed, run_reset_command

    run_reset_command("true", Settings())
    with pytest.raises(ResetFailed, match=r"exited with 3: database is locked"):
        run_reset_command("echo starting; echo database is locked >&2; exit 3", Settings())
    marker = tmp_path / "still-running"
    with pytest.raises(ResetFailed, match=r"did not finish within 0.5 s"):
        run_reset_command(f"sleep 30 & echo $! > {marker}; wait", Settings(reset_timeout_s=0.5))
    stat = pathlib.Path(f"/proc/{marker.read_text().strip()}/stat")

    def sleep_is_dead() -> bool:
        # Gone, or a zombie waiting for an init that does not reap orphans.
        try:
            return stat.read_text().split(") ")[1].startswith(("Z", "X"))
        except FileNotFoundError:
            return True

    # SIGKILL has been sent to the whole group; the kernel finishes the exit asynchronously
    # (the pipe closes before the process turns zombie), so allow it a moment.
    deadline = time.monotonic() + 5
    while not sleep_is_dead() and time.monotonic() < deadline:
        time.sleep(0.02)
    assert sleep_is_dead()
