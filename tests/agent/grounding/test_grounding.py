from __future__ import annotations

import pytest

from shared.records import Intent, PageSnapshot
from workers.agent.grounding.hte import ground
from workers.agent.grounding.locators import best_locator, resolve
from workers.agent.grounding.scoring import THRESHOLD, score, score_region, tokenize
from workers.agent.grounding.tree import element_handle, snapshot

from . import pages

pytestmark = pytest.mark.e2e  # its tier (tests/conftest.py)


def load(page, html: str) -> PageSnapshot:
    page.set_content(html)
    return snapshot(page)


def by_text(snap: PageSnapshot, text: str) -> list[int]:
    return [n.id for n in snap.nodes if n.text == text]


def top(snap: PageSnapshot, **kw) -> int:
    cands = ground(Intent(description="", **kw), snap)
    assert cands, f"nothing grounded for {kw}"
    return cands[0].node_id


# --- tokens -------------------------------------------------------------------------


def test_tokenize_splits_names_and_stems():
    assert tokenize("lastName") == ("last", "name")
    assert tokenize("first_name-field") == ("first", "name")
    assert tokenize("the Owners tab") == ("owner",)
    assert tokenize("Editing visits!") == ("edit", "visit")
    assert tokenize("Addresses") == ("address",)
    assert tokenize("the owner's first name") == ("owner", "first", "name")


# --- tree ---------------------------------------------------------------------------


def test_labelled_inputs(page):
    snap = load(page, pages.FORM)
    by_label = {n.label: n for n in snap.nodes if n.label}
    assert by_label["First Name"].id_attr == "firstName"
    assert by_label["Last name"].name_attr == "lastName"
    assert by_label["Type"].options == ["bird", "cat", "dog"]
    assert by_label["Type"].value == "cat"
    assert by_label["Subscribe to newsletter"].checked is False
    city = next(n for n in snap.nodes if n.aria_label == "City")
    tel = next(n for n in snap.nodes if n.placeholder == "Telephone number")
    form = next(n for n in snap.nodes if n.tag == "form")
    assert city.form == form.id and tel.form == form.id
    assert city.context == "New Owner"

    def fill(target):
        return snap.nodes[top(snap, kind="fill", target=target, role_hint="field")]

    assert fill("First Name").id_attr == "firstName"
    assert fill("last name field").name_attr == "lastName"
    assert fill("city").aria_label == "City"
    assert fill("telephone").placeholder == "Telephone number"
    assert fill("Phone").placeholder == "Telephone number"  # substring match
    assert snap.nodes[top(snap, kind="select", target="type dropdown", value="dog")].tag == "select"
    assert snap.nodes[top(snap, kind="check", target="subscribe to newsletter")].input_type == "checkbox"
    # fill never lands on a label or a button; a field named so that is a native select has its option selected
    for c in ground(Intent(kind="fill", description="", target="Type"), snap):
        assert snap.nodes[c.node_id].tag in ("input", "select")


def test_select_without_target_uses_options(page):
    snap = load(page, pages.FORM)
    nid = top(snap, kind="select", target=None, value="dog")
    assert snap.nodes[nid].tag == "select"
    assert ground(Intent(kind="select", description="", value="hamster"), snap) == []


def test_hidden_and_zero_size_pruned(page):
    snap = load(page, pages.HIDDEN)
    texts = {n.text for n in snap.nodes}
    assert not any(t.startswith("Gone") for t in texts)
    assert "Visible" in texts and "Shown child" in texts
    assert not any(n.input_type == "hidden" for n in snap.nodes)


def test_single_child_chain_collapsed(page):
    snap = load(page, pages.CHAIN)
    span = snap.nodes[by_text(snap, "Deep text")[0]]
    assert span.parent == snap.root
    row = snap.nodes[snap.nodes[by_text(snap, "One")[0]].parent]
    assert row.tag == "div" and len(row.children) == 2 and row.parent == snap.root
    # ids are positions and the tree is consistent
    for n in snap.nodes:
        assert snap.nodes[n.id] is n
        for c in n.children:
            assert snap.nodes[c].parent == n.id


def test_iframe_form(page):
    snap = load(page, pages.IFRAME)
    page.wait_for_load_state()
    snap = snapshot(page)
    card = next(n for n in snap.nodes if n.label == "Card number")
    assert card.frame == ["iframe#payment"]
    iframe_box = page.locator("iframe#payment").bounding_box()
    inner = page.frame_locator("iframe#payment").locator("#cc").bounding_box()
    assert abs(card.bbox[0] - inner["x"]) < 1.5 and abs(card.bbox[1] - inner["y"]) < 1.5
    assert card.bbox[0] > iframe_box["x"]
    inner_btn = next(n for n in snap.nodes if n.text == "Inner")
    assert inner_btn.frame == ['iframe[name="other"]']
    assert not any(n.text == "Cross origin" for n in snap.nodes)
    nid = top(snap, kind="fill", target="card number")
    assert nid == card.id
    loc = best_locator(page, snap, nid)
    assert loc.frames == ["iframe#payment"] and loc.strategy == "id" and loc.value == "#cc"
    resolve(page, loc).fill("4111")
    assert page.frame_locator("iframe#payment").locator("#cc").input_value() == "4111"
    pay = top(snap, kind="click", target="Pay button")
    assert snap.nodes[pay].frame == ["iframe#payment"]
    assert element_handle(page, snap, pay).evaluate("e => e.textContent") == "Pay"


def test_shadow_root_button(page):
    snap = load(page, pages.SHADOW)
    nid = top(snap, kind="click", target="Publish button")
    node = snap.nodes[nid]
    assert node.shadow and node.tag == "button" and node.text == "Publish"
    loc = best_locator(page, snap, nid)
    assert loc.strategy == "role" and loc.role == "button" and loc.value == "Publish"
    assert resolve(page, loc).count() == 1


def test_shadow_duplicates_are_named_by_their_order(page):
    snap = load(page, pages.SHADOW_DUPLICATES)
    same = [n.id for n in snap.nodes if n.text == "Same"]
    assert len(same) == 4 and all(snap.nodes[i].shadow for i in same)
    for order, nid in enumerate(same):
        loc = best_locator(page, snap, nid)
        assert (loc.strategy, loc.value, loc.nth) == ("text", "Same", order)
        assert resolve(page, loc).evaluate("(el, t) => el === t", element_handle(page, snap, nid))


def test_edit_links_in_table_rows(page):
    snap = load(page, pages.OWNERS)
    edits = by_text(snap, "Edit")
    assert len(edits) == 2
    assert snap.nodes[edits[1]].context == "Owners / Betty Davis / Actions"
    nid = top(snap, kind="click", target="Edit link for Betty Davis", role_hint="link")
    assert nid == edits[1]
    nid = top(snap, kind="click", target="Edit in the George Franklin row")
    assert nid == edits[0]
    # plain "Edit": both acceptable, higher on the page first
    cands = ground(Intent(kind="click", description="", target="Edit"), snap)
    assert [c.node_id for c in cands][:2] == edits
    assert cands[0].path[0] == snap.root and cands[0].path[-1] == edits[0]
    nav = top(snap, kind="click", target="Find owners link")
    assert snap.nodes[nav].text == "Find owners"


def test_delete_owner_does_not_match_add_owner(page):
    snap = load(page, pages.OWNERS)
    add = by_text(snap, "Add Owner")[0]
    intent = Intent(kind="click", description="", target="Delete Owner", role_hint="button")
    assert score(intent, snap.nodes[add]) < THRESHOLD
    assert ground(intent, snap) == []
    ok = Intent(kind="click", description="", target="Add Owner", role_hint="button")
    assert score(ok, snap.nodes[add]) >= 0.9
    assert ground(ok, snap)[0].node_id == add


def test_assert_value_finds_cell_by_row_header(page):
    snap = load(page, pages.DETAILS)
    nid = top(snap, kind="assert_value", target="Telephone", value="6085551023")
    assert snap.nodes[nid].tag == "td" and snap.nodes[nid].text == "6085551023"
    nid = top(snap, kind="assert_value", target="owner name")
    assert snap.nodes[nid].text == "George Franklin"
    snap = load(page, pages.FORM)
    page.fill("input[aria-label=City]", "Madison")
    snap = snapshot(page)
    nid = top(snap, kind="assert_value", target="City", value="Madison")
    assert snap.nodes[nid].aria_label == "City" and snap.nodes[nid].value == "Madison"


def test_legend_context_and_region_score(page):
    snap = load(page, pages.FIELDSETS)
    nid = top(snap, kind="fill", target="City in the shipping address")
    assert snap.nodes[nid].name_attr == "s_city"
    assert snap.nodes[nid].context == "Shipping address"
    nid = top(snap, kind="fill", target="billing zip")
    assert snap.nodes[nid].name_attr == "b_zip"
    sets = [n.id for n in snap.nodes if n.tag == "fieldset"]
    intent = Intent(kind="fill", description="", target="City in the shipping address")
    assert score_region(intent, snap, sets[1]) > score_region(intent, snap, sets[0])
    # the billing City is acceptable (city + address = 2/3 of the words) but ranked after the shipping one
    names = [snap.nodes[c.node_id].name_attr for c in ground(intent, snap)]
    assert names == ["s_city", "b_city"]


def test_tie_break_is_deterministic(page):
    snap = load(page, pages.TIES)
    intent = Intent(kind="click", description="", target="Save")
    first = [c.node_id for c in ground(intent, snap)]
    assert len(first) == 2
    # column-reverse: #b2 is higher on the page, so it wins the tie
    assert snap.nodes[first[0]].id_attr == "b2"
    for _ in range(3):
        assert [c.node_id for c in ground(intent, snapshot(page))] == first


def test_pluggable_chooser(page):
    snap = load(page, pages.OWNERS)
    intent = Intent(kind="click", description="", target="Edit")

    def last_first(intent, snap, parent, children):
        return [(c, 1.0) for c in reversed(children)]

    cands = ground(intent, snap, chooser=last_first)
    edits = by_text(snap, "Edit")
    assert [c.node_id for c in cands] == list(reversed(edits))


def test_best_locator_order_and_identity(page):
    snap = load(page, pages.LOCATORS)

    def loc_for(pred):
        n = next(n for n in snap.nodes if pred(n))
        return best_locator(page, snap, n.id)

    assert loc_for(lambda n: n.id_attr == "email").model_dump(include={"strategy", "value"}) == {
        "strategy": "id", "value": "#email"}
    assert loc_for(lambda n: n.id_attr == "1bad.id").value == '[id="1bad.id"]'
    assert loc_for(lambda n: n.testid == "go-btn").strategy == "testid"
    assert loc_for(lambda n: n.name_attr == "zip").value == 'input[name="zip"]'
    assert loc_for(lambda n: n.label == "Nickname").strategy == "label"
    role = loc_for(lambda n: n.text == "Submit order")
    assert (role.strategy, role.role, role.value) == ("role", "button", "Submit order")
    text = loc_for(lambda n: n.text == "Just text")
    assert (text.strategy, text.value) == ("text", "Just text")
    # An id a framework generated at run time (React's useId, Ember's counter, a counter or hex run) changes with
    # the next render: the element is found by what it is called instead, and the id is not even kept.
    assert not any(n.id_attr and n.id_attr not in ("email", "1bad.id") for n in snap.nodes)
    found = loc_for(lambda n: n.text == "Apply")
    assert (found.strategy, found.role, found.value) == ("role", "button", "Apply")
    for name in ("More actions", "Ember field", "Assignee", "Hex field", "Add account"):
        assert loc_for(lambda n, name=name: n.aria_label == name).model_dump(include={"strategy", "value"}) == {
            "strategy": "label", "value": name}
    # Two elements alike in every way but their order: the second is named by its order, never by a path.
    same = [n.id for n in snap.nodes if n.text == "Same"]
    second = best_locator(page, snap, same[1])
    assert (second.strategy, second.value, second.nth) == ("text", "Same", 1)


@pytest.mark.parametrize(
    "html",
    [pages.FORM, pages.OWNERS, pages.DETAILS, pages.LOCATORS, pages.SHADOW, pages.IFRAME],
    ids=["form", "owners", "details", "locators", "shadow", "iframe"],
)
def test_every_locator_resolves_to_its_target(page, html):
    page.set_content(html)
    page.wait_for_load_state()
    snap = snapshot(page)
    for n in snap.nodes:
        if n.id == snap.root or (n.children and not n.operable and not n.text):
            continue
        loc = best_locator(page, snap, n.id)
        target = element_handle(page, snap, n.id)
        pw = resolve(page, loc)
        assert pw.count() == 1, (n.tag, n.text, loc)
        assert pw.evaluate("(el, t) => el === t", target), (n.tag, n.text, loc)


def test_value_check_locator_comes_from_the_label_not_the_value(page):
    snap = load(page, pages.DETAILS)
    nid = top(snap, kind="assert_value", target="Telephone", value="6085551023")
    loc = best_locator(page, snap, nid, anchored=True)
    assert (loc.strategy, loc.value) == ("xpath", '//tr[th[normalize-space(.)="Telephone"]]/td[1]')
    page.evaluate("""() => { for (const td of document.querySelectorAll('td'))
                              if (td.textContent === '6085551023') td.textContent = '555'; }""")
    assert resolve(page, loc).inner_text() == "555"  # still the Telephone cell once the value changed


def test_literal_match_beats_a_stemmed_one_and_text_transform_is_ignored(page):
    snap = load(
        page,
        """<nav style="text-transform: uppercase"><a href="/owners/find">Find owners</a></nav>
           <form><input id="lastName" aria-label="Last name"><button type="submit">Find Owner</button></form>""",
    )
    link = next(n for n in snap.nodes if n.tag == "a")
    assert link.text == "Find owners"
    assert snap.nodes[top(snap, kind="click", target="Find Owner")].tag == "button"
    assert snap.nodes[top(snap, kind="click", target="Find owners")].tag == "a"
    loc = best_locator(page, snap, link.id)
    assert (loc.strategy, loc.role, loc.value) == ("role", "link", "Find owners")


def test_snapshot_carries_the_page_state_it_saw(page):
    from workers.agent.execution.executor import page_state, snapshot_state

    snap = load(page, "<title>Owners</title><h1>Owners</h1><p>Two rows</p>")
    assert snapshot_state(snap) == page_state(page)
    page.evaluate("document.querySelector('p').textContent = 'Three rows'")
    assert snapshot_state(snapshot(page)) == page_state(page) != snapshot_state(snap)


def test_controls_in_rows_are_found_through_the_row_text_never_a_path(page):
    snap = load(page, pages.ROWS)
    boxes = [n for n in snap.nodes if n.input_type == "checkbox"]
    removes = [n for n in snap.nodes if n.text == "Remove"]
    follows = [n for n in snap.nodes if n.text == "Follow"]
    expected = [
        (boxes[1], "li", "Walk the dog", ("role", "checkbox", "")),
        (removes[0], "tr", "Savings account", ("role", "link", "Remove")),
        (follows[1], "div.card", "Rust", ("role", "button", "Follow")),
    ]
    for node, css, text, inner in expected:
        loc = best_locator(page, snap, node.id)
        assert loc.within is not None and loc.within.css == css and loc.nth is None, loc
        assert (loc.within.text, loc.strategy, loc.role, loc.value) == (text, *inner)
        assert resolve(page, loc).evaluate("(el, t) => el === t", element_handle(page, snap, node.id))
        assert loc.strategy != "xpath"


def test_a_name_made_of_a_joining_word_only_tells_two_dropdowns_apart(page):
    # A query builder's two dropdowns of the same fields, labelled by the word that joins the next filter.
    options = "".join(f"<option>{o}</option>" for o in ("", "Component", "Owner"))
    snap = load(page, f"""<label for="a">And</label> <select id="a">{options}</select>
        <label for="o">Or</label> <select id="o">{options}</select>""")
    for word in ("And", "Or"):
        chosen = snap.nodes[top(snap, kind="select", target=word, role_hint="dropdown", value="Component")]
        assert chosen.label == word
    assert tokenize("And") == () and not ground(Intent(description="", kind="click", target="the"), snap)


def test_a_label_tied_to_nothing_first_in_its_row_titles_the_one_control_there(page):
    snap = load(page, """<div class="form-row"><label for=""><i class="fa fa-repeat"></i> <span>Repeat</span></label>
      <select id="repeat-type"><option>none</option></select><input type="hidden" value=""></div>
      <div class="form-row"><label for="">Name</label><input id="name"><input id="other"></div>""")
    select = next(n for n in snap.nodes if n.tag == "select")
    assert select.box_title == "Repeat"
    # two nameless fields in one row: the label names neither
    assert all(n.box_title is None for n in snap.nodes if n.tag == "input")
