"""ModelClient against a scripted OpenAI-compatible server: replies, retries, fallback, budgets, usage."""

from __future__ import annotations

import base64
import time

import pytest

from tests.model.fake_openai import FakeOpenAI, delay, format_unsupported, like_llama_cpp, reply, status
from workers.agent.model import (
    BudgetExhausted,
    ModelClient,
    ModelReplyError,
    ModelRequestRejected,
    ModelUnavailable,
)
from workers.agent.model.jsonreply import parse_json_reply

SCHEMA = {
    "type": "object",
    "properties": {
        "action": {"type": "string", "enum": ["click", "fill"]},
        "target": {"type": "integer"},
    },
    "required": ["action", "target"],
    "additionalProperties": False,
}
PNG = b"\x89PNG\r\n\x1a\nfake-image-bytes"


@pytest.fixture
def server():
    with FakeOpenAI() as fake:
        yield fake


def make_client(server: FakeOpenAI, **kwargs) -> ModelClient:
    kwargs.setdefault("backoff_base_s", 0.01)
    kwargs.setdefault("backoff_cap_s", 0.05)
    return ModelClient(server.base_url, "test-key", "fake-model", **kwargs)


def ask(client: ModelClient, phase: str = "plan", **kwargs):
    return client.ask_json(phase, "You drive a browser.", "Click Save.", schema=SCHEMA, schema_name="next_action", **kwargs)


def test_structured_reply_is_parsed_and_request_is_well_formed(server):
    server.script(reply({"action": "click", "target": 7}))
    client = make_client(server)
    assert ask(client) == {"action": "click", "target": 7}
    body = server.requests[0]
    assert body["model"] == "fake-model"
    assert body["messages"][0] == {"role": "system", "content": "You drive a browser."}
    assert body["messages"][1]["content"] == "Click Save."  # a string: some chat templates take nothing else
    assert body["response_format"] == {
        "type": "json_schema",
        "json_schema": {"name": "next_action", "schema": SCHEMA, "strict": True},
    }
    assert server.headers[0]["authorization"] == "Bearer test-key"
    assert client.usage()["phases"]["plan"]["retries"] == 0


def test_images_are_sent_as_png_data_urls(server):
    server.script(reply({"action": "fill", "target": 2}))
    client = make_client(server)
    ask(client, images=[PNG, b"second"])
    parts = server.requests[0]["messages"][1]["content"]
    urls = [p["image_url"]["url"] for p in parts if p["type"] == "image_url"]
    assert urls == [
        "data:image/png;base64," + base64.b64encode(PNG).decode(),
        "data:image/png;base64," + base64.b64encode(b"second").decode(),
    ]


def test_429_with_retry_after_then_success_counts_a_retry(server):
    server.script(status(429, "slow down", retry_after="0"), reply({"action": "click", "target": 1}))
    client = make_client(server, backoff_base_s=5, backoff_cap_s=5)  # Retry-After: 0 wins over backoff
    started = time.monotonic()
    assert ask(client) == {"action": "click", "target": 1}
    assert time.monotonic() - started < 2
    usage = client.usage()["phases"]["plan"]
    assert (usage["calls"], usage["retries"], usage["failures"]) == (2, 1, 1)
    assert len(server.requests) == 2


def test_500_until_retries_run_out_raises_model_unavailable(server):
    server.script(status(500, "boom"), status(500, "boom"), status(500, "boom"))
    client = make_client(server, max_retries=2)
    with pytest.raises(ModelUnavailable) as info:
        ask(client)
    assert "HTTP 500" in str(info.value) and "boom" in str(info.value)
    assert info.value.status == 500
    assert len(server.requests) == 3
    assert client.usage()["phases"]["plan"]["retries"] == 2


def test_other_4xx_is_not_retried(server):
    server.script(status(401, "bad key"), reply({"action": "click", "target": 1}))
    client = make_client(server)
    with pytest.raises(ModelRequestRejected, match="HTTP 401.*bad key"):
        ask(client)
    assert len(server.requests) == 1


def test_connection_refused_raises_model_unavailable():
    client = ModelClient("http://127.0.0.1:9/v1", "k", "m", max_retries=1, backoff_base_s=0.01)
    with pytest.raises(ModelUnavailable, match="connection failed"):
        ask(client)
    assert client.usage()["total"]["calls"] == 2


def test_timeout_then_success_on_retry(server):
    server.script(delay(1.5), reply({"action": "click", "target": 3}))
    client = make_client(server, timeout_s=0.5)
    assert ask(client) == {"action": "click", "target": 3}
    usage = client.usage()["phases"]["plan"]
    assert (usage["calls"], usage["retries"], usage["failures"]) == (2, 1, 1)


def test_response_format_unsupported_steps_down_to_json_object_then_to_plain_text_for_good(server):
    server.script(
        format_unsupported(),
        status(400, "Invalid parameter: 'response_format' of type 'json_object' is not supported with this model."),
        reply('Sure! Here it is:\n```json\n{"action": "fill", "target": 4}\n```\nAnything else?'),
        reply('{"action": "click", "target": 5} trailing words'),
    )
    client = make_client(server)
    assert ask(client) == {"action": "fill", "target": 4}
    assert ask(client) == {"action": "click", "target": 5}
    assert [(b.get("response_format") or {}).get("type") for b in server.requests] == [
        "json_schema", "json_object", None, None]
    assert server.requests[1]["response_format"]["schema"] == SCHEMA
    for body in server.requests[1:]:
        assert "JSON Schema" in body["messages"][0]["content"]
    assert client.usage()["structured_output"] is False and client.usage()["response_format"] == "text"
    assert client.usage()["phases"]["plan"]["retries"] == 0  # a refused form is no retry


def test_an_endpoint_that_answers_500_for_json_schema_and_list_content_is_asked_as_it_can_answer(server):
    """llama-cpp-python's server: json_schema is a 500 naming it (not an outage to retry), json_object with its own
    schema key is honoured, and only string content passes a text-only model's chat template."""
    server.respond_with(like_llama_cpp(lambda body: reply({"action": "click", "target": 3})))
    client = make_client(server, max_tokens=64)
    assert ask(client) == {"action": "click", "target": 3}
    assert ask(client) == {"action": "click", "target": 3}
    forms = [(b.get("response_format") or {}).get("type") for b in server.requests]
    assert forms == ["json_schema", "json_object", "json_object"]  # stepped down once, for good
    assert all(isinstance(m["content"], str) for b in server.requests for m in b["messages"])
    assert all(b["max_tokens"] == 64 and "max_completion_tokens" not in b for b in server.requests)
    usage = client.usage()
    assert usage["response_format"] == "json_object" and usage["phases"]["plan"]["retries"] == 0


def test_a_500_that_names_no_response_format_is_still_an_outage_retried(server):
    server.script(status(500, "CUDA out of memory"), reply({"action": "fill", "target": 1}))
    client = make_client(server)
    assert ask(client) == {"action": "fill", "target": 1}
    assert [(b.get("response_format") or {}).get("type") for b in server.requests] == ["json_schema", "json_schema"]
    assert client.usage()["phases"]["plan"]["retries"] == 1


def test_malformed_reply_is_reasked_once_then_accepted(server):
    server.script(reply({"action": "click"}), reply({"action": "click", "target": 9}))
    client = make_client(server)
    assert ask(client) == {"action": "click", "target": 9}
    reask = server.requests[1]["messages"]
    assert reask[-2] == {"role": "assistant", "content": '{"action": "click"}'}
    assert "'target' is a required property" in reask[-1]["content"]
    assert client.usage()["phases"]["plan"]["reasks"] == 1


def test_malformed_reply_twice_raises_model_reply_error(server):
    server.script(reply({"action": "click"}), reply("not json at all"))
    client = make_client(server)
    with pytest.raises(ModelReplyError, match="next_action.*no JSON object") as info:
        ask(client)
    assert info.value.reply == "not json at all"
    assert len(server.requests) == 2


def test_call_budget_stops_before_sending(server):
    server.script(*[reply({"action": "click", "target": i}) for i in range(3)])
    client = make_client(server, budget_calls=2)
    ask(client)
    ask(client)
    with pytest.raises(BudgetExhausted, match="call budget.*2 of 2") as info:
        ask(client)
    assert info.value.budget == "calls"
    assert len(server.requests) == 2


def test_cost_budget_stops_before_sending(server):
    server.script(*[reply({"action": "click", "target": i}, prompt_tokens=1000, completion_tokens=0) for i in range(2)])
    client = make_client(server, price_per_1k_input=0.5, budget_cost=0.5)
    ask(client)
    with pytest.raises(BudgetExhausted, match="cost budget"):
        ask(client)
    assert len(server.requests) == 1


def test_usage_per_phase_and_cost_from_prices(server):
    server.script(
        reply({"action": "click", "target": 1}, prompt_tokens=1200, completion_tokens=300),
        reply({"action": "click", "target": 2}, prompt_tokens=800, completion_tokens=100),
        reply({"action": "fill", "target": 3}, prompt_tokens=500, completion_tokens=50),
    )
    client = make_client(server, price_per_1k_input=0.01, price_per_1k_output=0.03)
    ask(client, "plan")
    ask(client, "plan")
    ask(client, "ground")
    usage = client.usage()
    plan, ground, total = usage["phases"]["plan"], usage["phases"]["ground"], usage["total"]
    assert (plan["calls"], plan["input_tokens"], plan["output_tokens"]) == (2, 2000, 400)
    assert plan["cost"] == pytest.approx(2.0 * 0.01 + 0.4 * 0.03)
    assert (ground["calls"], ground["input_tokens"], ground["output_tokens"]) == (1, 500, 50)
    assert ground["cost"] == pytest.approx(0.5 * 0.01 + 0.05 * 0.03)
    assert total["calls"] == 3 and total["input_tokens"] == 2500
    assert total["cost"] == pytest.approx(plan["cost"] + ground["cost"])
    assert plan["latency_ms"] > 0
    assert usage["structured_output"] is True


@pytest.mark.parametrize(
    "text, expected",
    [
        ('{"a": 1}', {"a": 1}),
        ('```json\n{"a": "}"}\n```', {"a": "}"}),
        ('```\n{"a": 2}\n```', {"a": 2}),
        ('Answer: {"a": {"b": [1, 2]}} and {"c": 3}', {"a": {"b": [1, 2]}}),
        ('{broken {"a": 4}', {"a": 4}),
    ],
)
def test_tolerant_parsing(text, expected):
    assert parse_json_reply(text) == expected
