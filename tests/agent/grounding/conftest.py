"""The model side of the model-grounding tests: the scripted server, its client, and how a page is viewed."""

from __future__ import annotations

import re

import pytest

from tests.model.fake_openai import FakeOpenAI, prompt_text, reply
from workers.agent.execution.view import PageView
from workers.agent.grounding.tree import snapshot
from workers.agent.model import ModelClient

LINE = re.compile(r"^\[(\d+)\] (.*)$", re.MULTILINE)


def target_of(text: str) -> str:
    return re.search(r"^Target: (.*)$", text, re.MULTILINE).group(1).strip().lower()


def pick(body: dict) -> dict:
    """The model: every numbered option whose line names the target, the first as the choice."""
    text = prompt_text(body)
    target = target_of(text)
    hits = [int(k) for k, line in LINE.findall(text) if target in line.lower()]
    return reply({"choice": hits[0] if hits else None, "ranked": hits[1:], "reason": "names it" if hits else "no"})


def view_of(page, html: str, scroll: int = 0) -> PageView:
    page.set_content(html)
    if scroll:
        page.evaluate("(y) => window.scrollTo(0, y)", scroll)
    return PageView(page, snapshot(page))


@pytest.fixture
def server():
    with FakeOpenAI() as fake:
        fake.respond_with(pick)
        yield fake


@pytest.fixture
def client(server):
    with ModelClient(server.base_url, "key", "fake-model", max_retries=0) as c:
        yield c
