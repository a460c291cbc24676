"""SomGrounder in a real Chromium against the scripted OpenAI-compatible server."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from shared.records import Intent
from tests.model.fake_openai import prompt_images, prompt_text, reply, schema_name
from workers.agent.execution.view import PageView
from workers.agent.grounding.crops import CHOICE_SCHEMA, ScreenshotError, describe
from workers.agent.grounding.som import SomGrounder

from . import model_pages as pages
from .conftest import LINE, view_of

pytestmark = pytest.mark.e2e  # its tier (tests/conftest.py)

ADD = Intent(kind="click", description="Click Add Owner", target="Add Owner", role_hint="button")


def test_one_marked_screenshot_and_a_numbered_list(page, server, client):
    view = view_of(page, pages.CLINIC)
    g = SomGrounder(client)
    found = g.locate(ADD, view)
    snap = view.snapshot
    assert [snap.nodes[c.node_id].text for c in found] == ["Add Owner"]
    assert found[0].score == 1.0 and found[0].path[0] == snap.root and found[0].path[-1] == found[0].node_id
    assert len(server.requests) == 1 == g.stats.calls
    body = server.requests[0]
    assert schema_name(body) == "som_choice"
    assert body["response_format"]["json_schema"]["schema"] == CHOICE_SCHEMA

    # one picture, the size of the page screenshot, with the marks drawn on it
    images = prompt_images(body)
    assert len(images) == 1
    marked = Image.open(io.BytesIO(images[0])).convert("RGB")
    shot = Image.open(io.BytesIO(view.screenshot())).convert("RGB")
    assert marked.size == shot.size
    assert marked.tobytes() != shot.tobytes()

    # every operable element is listed once, numbered in document order; nothing else is
    text = prompt_text(body)
    for line in ("Step: Click Add Owner", "Action: click", "Target: Add Owner", "Role hint: button"):
        assert line in text
    operable = [n for n in snap.nodes if n.operable]
    assert g.last_marks == [n.id for n in operable]
    listed = LINE.findall(text)
    assert [int(k) for k, _ in listed] == list(range(1, len(operable) + 1))
    assert [line for _, line in listed] == [describe(n) for n in operable]
    # the mark of the chosen element is drawn on its box: the box's border is no longer the page's
    add = snap.nodes[found[0].node_id]
    x, y, w, h = (round(v) for v in add.bbox)
    top = [marked.getpixel((x + i, y)) for i in range(2, w - 2)]
    assert top != [shot.getpixel((x + i, y)) for i in range(2, w - 2)]


def test_answering_a_number_picks_that_node_and_ranked_ones_follow(page, server, client):
    view = view_of(page, pages.CLINIC)
    g = SomGrounder(client)
    edits = [n.id for n in view.snapshot.nodes if n.text == "Edit"]
    operable = [n.id for n in view.snapshot.nodes if n.operable]
    server.script(reply({"choice": operable.index(edits[1]) + 1, "ranked": [operable.index(edits[0]) + 1, 999],
                         "reason": "second row"}))
    found = g.locate(Intent(kind="click", description="Edit Betty Davis", target="Edit for Betty Davis"),
                     view)
    assert [c.node_id for c in found] == [edits[1], edits[0]]
    assert [c.score for c in found] == [1.0, 0.9]


def test_out_of_range_or_null_is_none_without_a_re_ask(page, server, client):
    view = view_of(page, pages.CLINIC)
    g = SomGrounder(client)
    server.script(reply({"choice": 99, "ranked": [1], "reason": "miscounted"}))
    assert g.locate(ADD, view) == []
    assert len(server.requests) == 1
    gone = Intent(kind="click", description="Click Delete account", target="Delete account")
    assert g.locate(gone, view) == []  # the responder finds no line naming it: null
    assert len(server.requests) == 2


def test_marks_are_limited_to_the_best_scored(page, server, client):
    view = view_of(page, pages.CLINIC)
    g = SomGrounder(client, max_marks=3)
    found = g.locate(ADD, view)
    assert view.snapshot.nodes[found[0].node_id].text == "Add Owner"
    assert len(LINE.findall(prompt_text(server.requests[0]))) == 3 == len(g.last_marks)
    assert found[0].node_id in g.last_marks


def test_same_page_again_costs_no_call_and_errors_are_clear(page, server, client):
    g = SomGrounder(client)
    first = g.locate(ADD, view_of(page, pages.CLINIC))
    second = g.locate(ADD, view_of(page, pages.CLINIC))
    assert [c.node_id for c in second] == [c.node_id for c in first]
    assert len(server.requests) == 1 and g.stats.cache_hits == 1

    # no eligible element: no call; a corrupt screenshot: a clear error
    plain = view_of(page, "<h1>Nothing to click</h1><p>Just text.</p>")
    assert g.locate(ADD, plain) == [] and len(server.requests) == 1
    broken = PageView(page, view_of(page, pages.CHAIN).snapshot, _png=b"")
    with pytest.raises(ScreenshotError, match="empty"):
        g.locate(ADD, broken)
