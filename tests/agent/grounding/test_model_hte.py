"""ModelHteGrounder in a real Chromium against the scripted OpenAI-compatible server.

The model's side is a responder that reads the prompt and picks the numbered part whose summary
names the target phrase (null when none does): the test's script, written as a function.
"""

from __future__ import annotations

import io

import pytest
from PIL import Image

from shared.records import Intent
from tests.model.fake_openai import prompt_images, prompt_text, reply, schema_name, status
from workers.agent.execution.view import PageView
from workers.agent.grounding.crops import CHOICE_SCHEMA, ScreenshotError, eligible_counts, summarize
from workers.agent.grounding.model_hte import ModelHteGrounder
from workers.agent.model import ModelRequestRejected

from . import model_pages as pages
from .conftest import LINE, pick, view_of

pytestmark = pytest.mark.e2e  # its tier (tests/conftest.py)


def node_by(view: PageView, **fields):
    return next(n for n in view.snapshot.nodes if all(getattr(n, k) == v for k, v in fields.items()))


LAST_NAME = Intent(kind="fill", description="Type Franklin into the last name field",
                   target="Last name", role_hint="field", value="Franklin")


def options_of(view: PageView, intent: Intent, nid: int) -> list[int]:
    _, counts, _ = eligible_counts(intent, view.snapshot)
    return [c for c in view.snapshot.nodes[nid].children if counts[c] > 0]


def test_finds_the_field_with_one_crop_per_child_and_full_prompts(page, server, client):
    view = view_of(page, pages.CLINIC + pages.SPACER, scroll=120)
    g = ModelHteGrounder(client)
    found = g.locate(LAST_NAME, view)
    target = node_by(view, label="Last name")
    assert found and found[0].node_id == target.id and found[0].score == 1.0
    assert found[0].path[0] == view.snapshot.root and found[0].path[-1] == target.id
    # root (nav/main/aside) -> main (form/table) -> form (2 fieldsets, button bar) -> fieldset (2 rows);
    # the row holds one eligible element: taken without a call
    assert len(server.requests) == 4 == g.stats.calls
    assert g.stats.direct_picks == 1

    snap = view.snapshot
    form = node_by(view, tag="form").id
    main = node_by(view, tag="main").id
    levels = {0: snap.root, 1: main, 2: form}
    png = Image.open(io.BytesIO(view.screenshot()))
    for index, parent in levels.items():
        body = server.requests[index]
        assert schema_name(body) == "hte_choice"
        assert body["response_format"]["json_schema"]["schema"] == CHOICE_SCHEMA
        text = prompt_text(body)
        for line in ("Step: Type Franklin into the last name field", "Action: fill", "Target: Last name",
                     'Value: "Franklin"'):
            assert line in text
        children = options_of(view, LAST_NAME, parent)
        assert len(children) >= 2
        for k, child in enumerate(children, start=1):
            assert f"[{k}] " in text and summarize(LAST_NAME, snap, child) in text
        images = prompt_images(body)
        assert len(images) == len(children)
        for child, data in zip(children, images):
            crop = Image.open(io.BytesIO(data))
            _, _, w, h = snap.nodes[child].bbox
            assert abs(crop.width - w) <= 1 and abs(crop.height - h) <= 1, (child, crop.size, (w, h))
    # the crops come from the one full-page screenshot, scroll included: the aside's crop is its colour
    aside = node_by(view, tag="aside").id
    at = options_of(view, LAST_NAME, snap.root).index(aside)
    crop = Image.open(io.BytesIO(prompt_images(server.requests[0])[at]))
    colours = crop.convert("RGB").getcolors(crop.width * crop.height)
    assert max(colours)[1] == (255, 224, 160)
    assert png.height > 1000  # full page, not the viewport


def test_single_child_chain_costs_no_call(page, server, client):
    intent = Intent(kind="click", description="Click Save draft", target="Save draft")
    view = view_of(page, pages.CHAIN)
    g = ModelHteGrounder(client)
    found = g.locate(intent, view)
    assert [view.snapshot.nodes[c.node_id].text for c in found] == ["Save draft"]
    # root (form | other div) and the button bar: the form's single child is passed without a call
    assert len(server.requests) == 2 and g.stats.chain_skips == 1

    server.requests.clear()
    g = ModelHteGrounder(client, skip_chains=False)
    assert g.locate(intent, view_of(page, pages.CHAIN))[0].node_id == found[0].node_id
    assert len(server.requests) == 3 and g.stats.chain_skips == 0


def test_single_eligible_levels_cost_no_call(page, server, client):
    help_ = Intent(kind="click", description="Ask for help", target="Contact support")
    view = view_of(page, pages.CLINIC)
    g = ModelHteGrounder(client)
    found = g.locate(help_, view)
    assert view.snapshot.nodes[found[0].node_id].text == "Contact support"
    assert len(server.requests) == 1  # the root only: the aside holds one button, taken at once
    assert g.stats.direct_picks == 1

    # a page whose one operable element is the only possible answer: one question, is it the target?
    server.requests.clear()
    lone = "<h1>Done</h1><p>Saved.</p><div><span>x</span><a href='#'>Back</a></div>"
    view = view_of(page, lone)
    g = ModelHteGrounder(client)
    found = g.locate(Intent(kind="click", description="Go back", target="Back"), view)
    assert view.snapshot.nodes[found[0].node_id].text == "Back"
    assert len(server.requests) == 1 and "Back" in prompt_text(server.requests[0])
    # ... and when it is not, nothing is found rather than the lone element guessed
    found = g.locate(Intent(kind="click", description="Delete the owner", target="Delete Owner"),
                     view_of(page, lone))
    assert found == [] and len(server.requests) == 2

    # without the measure the same descents ask at every level
    server.requests.clear()
    g = ModelHteGrounder(client, skip_single=False)
    found = g.locate(help_, view_of(page, pages.CLINIC))
    assert found and len(server.requests) == 2 and g.stats.direct_picks == 0
    server.requests.clear()
    found = g.locate(LAST_NAME, view_of(page, pages.CLINIC))
    assert found and len(server.requests) == 5  # the row (label + field) costs a call now


def test_second_locate_on_the_same_region_is_answered_from_the_cache(page, server, client):
    g = ModelHteGrounder(client)
    first = g.locate(LAST_NAME, view_of(page, pages.CLINIC))
    calls = len(server.requests)
    again = view_of(page, pages.CLINIC)  # a fresh snapshot, as after a failed try
    second = g.locate(LAST_NAME, again)
    assert [c.node_id for c in second] == [c.node_id for c in first]
    assert len(server.requests) == calls and g.stats.cache_hits == calls
    assert again._png is None  # no call, no screenshot
    # another intent is another question
    g.locate(Intent(kind="fill", description="Type Madison", target="City", value="Madison"), again)
    assert len(server.requests) > calls

    server.requests.clear()
    g = ModelHteGrounder(client, cache=False)
    g.locate(LAST_NAME, view_of(page, pages.CLINIC))
    g.locate(LAST_NAME, view_of(page, pages.CLINIC))
    assert len(server.requests) == 2 * calls and g.stats.cache_hits == 0


def test_each_measure_switched_off_costs_more_calls(page, server, client):
    intents = [LAST_NAME, Intent(kind="click", description="Ask for help", target="Contact support")]

    def cost(**flags) -> int:
        before = len(server.requests)
        g = ModelHteGrounder(client, **flags)
        for _ in range(2):  # the second round is what a recovery or a rerun asks
            view = view_of(page, pages.CLINIC)
            for intent in intents:
                found = g.locate(intent, view)
                assert found, (flags, intent.target)
                assert view.snapshot.nodes[found[0].node_id].tag in ("input", "button")
        assert g.stats.calls == len(server.requests) - before
        return g.stats.calls

    all_on = cost()
    assert cost(cache=False) == 2 * all_on
    assert cost(skip_single=False) > all_on
    assert cost(batch=False) > all_on
    assert cost(max_per_call=2) > all_on  # chunks of two and a tournament among their choices


def test_none_backtracks_into_the_next_ranked_region(page, server, client):
    view = view_of(page, pages.CLINIC)
    snap = view.snapshot
    root_opts = options_of(view, LAST_NAME, snap.root)
    nav, main = (root_opts.index(node_by(view, tag=t).id) + 1 for t in ("nav", "main"))
    # the first pick is wrong (the nav), with main ranked next; inside the nav the model says none
    server.script(reply({"choice": nav, "ranked": [main], "reason": "menu"}))
    g = ModelHteGrounder(client)
    found = g.locate(LAST_NAME, view)
    assert found[0].node_id == node_by(view, label="Last name").id
    nav_body = server.requests[1]
    assert "Home" in prompt_text(nav_body) and len(prompt_images(nav_body)) == 3
    assert len(server.requests) == 5

    # none at the root: nothing anywhere
    server.requests.clear()
    server.script(reply({"choice": None, "ranked": [1, 2], "reason": "not on this page"}))
    assert ModelHteGrounder(client).locate(LAST_NAME, view_of(page, pages.CLINIC)) == []
    assert len(server.requests) == 1


def test_out_of_range_answer_is_none_and_alternatives_get_distinct_scores(page, server, client):
    server.script(reply({"choice": 7, "ranked": [1], "reason": "miscounted"}))
    assert ModelHteGrounder(client).locate(LAST_NAME, view_of(page, pages.CLINIC)) == []
    assert len(server.requests) == 1  # not re-asked

    # at the table's actions cell both links are ranked: the choice first, the other after it
    server.requests.clear()
    edit = Intent(kind="click", description="Edit the first owner", target="Edit")

    def edit_then_delete(body: dict) -> dict:
        text = prompt_text(body)
        nums = [int(k) for k, line in LINE.findall(text)]
        hits = [int(k) for k, line in LINE.findall(text) if "edit" in line.lower()]
        if len(nums) == 2 and all(line.startswith("element:") for _, line in LINE.findall(text)):
            return reply({"choice": hits[0], "ranked": [n for n in nums if n != hits[0]], "reason": "link"})
        return pick(body)

    server.respond_with(edit_then_delete)
    view = view_of(page, pages.CLINIC)
    found = ModelHteGrounder(client).locate(edit, view)
    assert [view.snapshot.nodes[c.node_id].text for c in found] == ["Edit", "Delete"]
    assert [c.score for c in found] == [1.0, 0.9]
    assert found[0].path[-2] == view.snapshot.nodes[found[0].node_id].parent


def test_errors_propagate(page, server, client):
    view = view_of(page, pages.CLINIC)
    broken = PageView(page, view.snapshot, _png=b"\x89PNG\r\n\x1a\nnot really")
    with pytest.raises(ScreenshotError, match="cannot be decoded"):
        ModelHteGrounder(client).locate(LAST_NAME, broken)
    assert server.requests == []
    server.script(status(401, "bad key"))
    with pytest.raises(ModelRequestRejected):
        ModelHteGrounder(client).locate(LAST_NAME, view)
