"""Targets people name by place, icon, picture and order, grounded on real pages (Chromium)."""

from __future__ import annotations

import pytest

from shared.records import Intent, Node, PageSnapshot
from workers.agent.execution.page_scripts import SETTLE_SCRIPT
from workers.agent.grounding.hte import ground
from workers.agent.grounding.locators import best_locator
from workers.agent.grounding.places import listed_texts, names_nothing, narrow, parts
from workers.agent.grounding.tree import snapshot

pytestmark = pytest.mark.e2e  # its tier (tests/conftest.py)


def load(page, html: str) -> PageSnapshot:
    """The page served from an address, with the script generation installs in every document."""
    page.add_init_script(script=SETTLE_SCRIPT)
    page.route("http://app.test/", lambda route: route.fulfill(body=html, content_type="text/html"))
    page.goto("http://app.test/")
    return snapshot(page)


def found(snap: PageSnapshot, **intent) -> list[int]:
    wanted = Intent(description="", **intent)
    return [c.node_id for c in narrow(wanted, snap, ground(wanted, snap))]


ROWS = """<h2>Savings account</h2>
<table>
  <tr><td>Checking account</td><td><button>Remove</button></td><td><input type="checkbox"></td></tr>
  <tr><td>Savings account</td><td><button>Remove</button></td><td><input type="checkbox"></td></tr>
  <tr><td>Brokerage</td><td><button>Remove</button></td><td><input type="checkbox"></td></tr>
</table>"""


def test_a_row_s_own_text_anchors_its_control_not_the_heading_above(page):
    snap = load(page, ROWS)
    (remove,) = found(snap, kind="click", target="Remove", anchor="Savings account")
    assert snap.node(remove).bbox[1] == snap.node(found(snap, kind="click", target="Remove", ordinal=1)[0]).bbox[1]
    (box,) = found(snap, kind="check", target="", role_hint="checkbox", anchor="Brokerage")
    locator = best_locator(page, snap, box)
    assert (locator.within.css, locator.within.text, locator.role) == ("tr", "Brokerage", "checkbox")
    assert found(snap, kind="click", target="Remove", anchor="Pension fund") == []


SECTIONS = """<section><h2>Profile</h2><input class="name"> <input class="team"> <button>Save</button></section>
<section><h2>Notifications</h2><input class="digest"> <button>Save</button></section>
<aside><h3>Trending topics</h3><a href="#p1">python</a></aside><div><h3>Your topics</h3><a href="#p2">python</a></div>"""


def test_sections_by_their_heading_and_fields_by_their_order_there(page):
    snap = load(page, SECTIONS)
    second = found(snap, kind="fill", target="", role_hint="field", section="Profile", ordinal=1)
    assert [snap.node(n).xpath.endswith("input[2]") for n in second] == [True]
    locator = best_locator(page, snap, second[0])
    assert (locator.within.css, locator.within.text, locator.role, locator.nth) == ("section", "Profile", "textbox", 1)
    (save,) = found(snap, kind="click", target="Save", section="Notifications")
    assert "Notifications" in (snap.node(save).context or "")
    (topic,) = found(snap, kind="click", target="python", section="Trending topics")
    assert snap.node(topic).text == "python" and page.locator("a").nth(0).bounding_box()["y"] == snap.node(topic).bbox[1]
    assert found(snap, kind="fill", target="", role_hint="field", section="Profile", ordinal=2) == []


ICONS = """<table><tr class="task"><td>Water the plants</td>
  <td><button title="Star"><svg viewBox="0 0 10 10" width="16" height="16"><polygon points="5,0 10,10 0,10"/></svg></button>
      <button class="btn"><i class="fa fa-trash"></i></button>
      <button><svg viewBox="0 0 10 10" width="16" height="16"><title>Archive</title><rect width="9" height="9"/></svg></button>
  </td></tr></table>
<label><input type="checkbox" id="urgent"> <img alt="Urgent" width="8" height="8" src="data:image/gif;base64,R0lGODlhAQABAAAAACw="></label>
<ul><li class="card">Book the dinner</li><li class="card">Renew the certificate</li></ul>
<script>for (const li of document.querySelectorAll("li.card")) li.addEventListener("click", () => li.remove());</script>"""


def test_icons_pictures_and_clickable_items_are_named_as_a_user_sees_them(page):
    snap = load(page, ICONS)
    by = {n.icon or n.a11y_name or n.title: n for n in snap.nodes if n.operable and not n.text}
    assert by["trash"].tag == "button"  # an icon named by nothing but its class words
    assert by["Archive"].a11y_name == "Archive"  # Chromium's name from the SVG <title>
    assert by["Urgent"].input_type == "checkbox"  # Chromium's name from the image in its label
    assert snap.node(found(snap, kind="click", target="trash")[0]).icon == "trash"
    assert snap.node(found(snap, kind="check", target="Urgent")[0]).id_attr == "urgent"
    archive = best_locator(page, snap, found(snap, kind="click", target="Archive")[0])
    assert (archive.strategy, archive.role, archive.value) == ("role", "button", "Archive")
    # list items with a click listener of their own (no pointer, no role): clickable, found by their text
    (card,) = [n for n in snap.nodes if n.text == "Renew the certificate"]
    assert card.operable
    assert found(snap, kind="click", target="Renew the certificate")[0] == card.id


DELEGATION = """<form id="login"><label for="e">Email</label><input id="e"><button>Sign in</button></form>
<table><tr class="row"><td>Water the plants</td><td><input type="checkbox"></td></tr></table>
<style>tr.row { cursor: pointer }</style>
<script>
  document.getElementById("login").addEventListener("click", () => {});  // delegation: it holds controls
  document.querySelector("tr.row").addEventListener("click", () => {});  // a row that opens, with a pointer
</script>"""


def test_a_listener_on_an_element_holding_controls_is_delegation_unless_it_looks_clickable(page):
    snap = load(page, DELEGATION)
    form = next(n for n in snap.nodes if n.tag == "form")
    row = next(n for n in snap.nodes if n.tag == "tr")
    assert not form.operable and row.operable
    assert snap.node(found(snap, kind="click", target="Sign in")[0]).tag == "button"
    assert found(snap, kind="click", target="Water the plants")[0] == row.id


def test_the_value_dropdown_of_a_filter_row_is_the_one_offering_the_option(page):
    # A query builder's filter rows: the field's name, a mode dropdown, then the dropdown of the values.
    modes = "<select><option>is</option><option>is not</option></select>"
    values = "<select><option></option><option>Backend</option><option>Mobile app</option></select>"
    snap = load(page, f"""<table>
        <tr><th>Component</th><td>{modes}</td><td>{values}</td></tr>
        <tr><th>Milestone</th><td>{modes}</td><td>{values}</td></tr></table>
        <p><label for="v">Value</label> <select id="v"><option>Backend</option><option>Mobile app</option></select>""")
    (chosen,) = found(snap, kind="select", target="value", role_hint="dropdown", value="Mobile app",
                      anchor="Component")
    assert snap.node(chosen).options == ["", "Backend", "Mobile app"]
    assert snap.node(chosen).bbox[1] < snap.node(found(snap, kind="select", target="", value="is not",
                                                        anchor="Milestone")[0]).bbox[1]
    named = found(snap, kind="select", target="value", role_hint="dropdown", value="Mobile app")
    assert snap.node(named[0]).label == "Value"  # one named so comes first by its name


def _value_check(target: str, value: str) -> Intent:
    return Intent(kind="assert_value", description="d", target=target, value=value)


@pytest.mark.parametrize("target, value, alone", [
    ("counter", "4 / 4", True), ("status facet", "Open 7, Closed 4 and In progress 3", True),
    ("status of the first order", "Shipped", False), ("old price", "$30.00", False), ("total", "$30", False),
])
def test_only_a_plain_name_the_page_shows_nowhere_is_read_as_what_a_text_is(target, value, alone):
    page = PageSnapshot(url="http://x/", title="t", nodes=[Node(id=0, tag="body", text="nothing of it")])
    assert names_nothing(_value_check(target, value), page) is alone


def test_a_list_of_texts_is_split_at_commas_between_words_never_inside_a_number():
    assert listed_texts(_value_check("facet", "Open 7, Closed 4 and Won't fix 3")) == ["Open 7", "Closed 4",
                                                                                        "Won't fix 3"]
    assert listed_texts(_value_check("total", "1,250,000.00")) == ["1,250,000.00"]


PARTS_DRAWN = """<div class="app-header"><div class="inner"><button>Help</button></div></div>
<div id="metanav" class="nav"><ul><li><a href="#w">Wiki</a></li></ul></div>
<div id="mainnav" class="nav"><ul><li><a href="#w2">Wiki</a></li></ul></div>
<div class="side-bar"><a href="#c">Checking</a></div>
<main><a href="#m">Checking</a>
<div class="bar"><table class="progress" style="width:300px"><tr><td style="height:8px"></td></tr></table>
<a href="#x">active: 4</a></div>
<div class="bar"><table class="progress" style="width:300px"><tr><td style="height:8px"></td></tr></table>
<span>closed: 2</span></div>
</main>"""


def test_a_part_drawn_as_a_box_of_its_own_class_is_found_and_among_several_the_one_with_the_target(page):
    snap = load(page, PARTS_DRAWN)
    (checking,) = found(snap, kind="click", target="Checking", anchor="sidebar")
    assert snap.node(checking).xpath.startswith("/html[1]/body[1]/div[4]")  # the side-bar's, not the main one
    assert len(found(snap, kind="click", target="Help", anchor="header")) == 1
    (wiki,) = found(snap, kind="click", target="Wiki", anchor="main menu")
    assert "div[3]" in snap.node(wiki).xpath  # the main navigation's, not the meta one's
    # two progress bars: the link is just under one of them
    assert len(parts(snap, "progress bar")) == 2
    assert len(found(snap, kind="click", target="active: 4", section="progress bar")) == 1
    assert found(snap, kind="click", target="Checking", anchor="footer") == []


COLUMNS = """<style>body{margin:0} .a{display:flex;height:100vh} .b{width:220px} .c{flex:1}</style>
<div class="a"><div class="b"><a href="#1">Cash Wallet</a><a href="#2">Checking</a></div>
<div class="c"><a href="#3">Cash Wallet</a><p>Accounts</p></div></div>"""


def test_a_sidebar_drawn_with_no_word_for_it_is_the_column_on_the_page_s_edge(page):
    snap = load(page, COLUMNS)
    (wallet,) = found(snap, kind="click", target="Cash Wallet", anchor="sidebar")
    assert snap.node(wallet).bbox[0] < 220
    # said by its side: the column on that edge, never the other
    assert found(snap, kind="click", target="Cash Wallet", anchor="right-hand panel") == []
    assert found(snap, kind="click", target="Cash Wallet", anchor="left-hand panel") == [wallet]


def _snap(*nodes: Node) -> PageSnapshot:
    return PageSnapshot(url="about:blank", title="", nodes=list(nodes))


def test_lines_whose_common_box_is_the_page_are_no_table_and_a_header_over_a_table_is_not_at_its_top():
    from workers.agent.grounding.places import _in_corner, drawn_tables
    from shared.records import Candidate
    links = [Node(id=i, parent=1, tag="a", operable=True, text=f"L{i}", bbox=((i - 2) * 300, 0, 300, 30)) for i in (2, 3, 4)]
    cards = [Node(id=i, parent=5, tag="div", text=f"C{i}", bbox=((i - 6) * 300, 40, 300, 200)) for i in (6, 7, 8)]
    page = _snap(Node(id=0, tag="body", children=[1, 5], bbox=(0, 0, 900, 800)),
                 Node(id=1, parent=0, tag="nav", children=[2, 3, 4], bbox=(0, 0, 900, 30)), *links,
                 Node(id=5, parent=0, tag="div", children=[6, 7, 8], bbox=(0, 40, 900, 200)), *cards)
    assert drawn_tables(page) == []  # a nav bar over three cards
    header = _snap(Node(id=0, tag="body", children=[1, 3], bbox=(0, 0, 1000, 800)),
                   Node(id=1, parent=0, tag="header", role="banner", children=[2], bbox=(0, 0, 1000, 90)),
                   Node(id=2, parent=1, tag="button", role="button", operable=True, text="Settings",
                        bbox=(900, 70, 80, 20)),
                   Node(id=3, parent=0, tag="table", role="table", children=[4], bbox=(0, 110, 1000, 300)),
                   Node(id=4, parent=3, tag="td", text="x", bbox=(0, 110, 100, 20)))
    assert _in_corner(header, [Candidate(node_id=2, score=1.0)], "top right", "table") == []


def test_a_link_titles_only_the_list_right_after_it():
    nav = _snap(Node(id=0, tag="body", children=[1], bbox=(0, 0, 300, 800)),
                Node(id=1, parent=0, tag="div", children=[2, 3, 5, 6], bbox=(0, 0, 300, 400)),
                Node(id=2, parent=1, tag="a", role="link", operable=True, text="Site", bbox=(0, 0, 100, 20)),
                Node(id=3, parent=1, tag="ul", role="list", children=[4], bbox=(0, 20, 300, 20)),
                Node(id=4, parent=3, tag="a", role="link", operable=True, text="Sites", bbox=(0, 20, 100, 20)),
                Node(id=5, parent=1, tag="a", role="link", operable=True, text="Users", bbox=(0, 40, 100, 20)),
                Node(id=6, parent=1, tag="ul", role="list", children=[7], bbox=(0, 60, 300, 20)),
                Node(id=7, parent=6, tag="a", role="link", operable=True, text="Settings", bbox=(0, 60, 100, 20)))
    from workers.agent.grounding.places import _under
    assert _under(nav, nav.node(7), "Users", by_context=False)
    assert not _under(nav, nav.node(7), "Site", by_context=False)


def test_a_palette_or_tray_drawn_as_a_box_of_its_class_is_that_part():
    palette = _snap(Node(id=0, tag="body", children=[1], bbox=(0, 0, 900, 800)),
                    Node(id=1, parent=0, tag="div", class_words="red ui palette", children=[2, 3], bbox=(0, 0, 200, 800)),
                    Node(id=2, parent=1, tag="input", operable=True, placeholder="filter nodes", bbox=(0, 0, 200, 20)),
                    Node(id=3, parent=1, tag="div", class_words="red ui palette node", text="inject",
                         bbox=(0, 40, 200, 20)))
    assert [n.id for n in parts(palette, "palette")] == [1]
    assert parts(palette, "tray") == []
