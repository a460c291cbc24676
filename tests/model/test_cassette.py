"""Cassettes: a run's model exchanges recorded against a server (the scripted one, refusing json_schema with a
500 as llama-cpp-python's server does) and replayed in other tests with no server at all: the same
answers, the same step-down, the same tokens counted; a request the cassette does not hold fails at once, naming
it."""

from __future__ import annotations

import json
import socket
from pathlib import Path

import pytest

from tests.model.fake_openai import FakeOpenAI, prompt_text, reply, status
from workers.agent.model import ModelClient, ModelUnavailable
from workers.agent.model.cassette import Cassette

SCHEMA = {"type": "object", "properties": {"target": {"type": "integer"}}, "required": ["target"],
          "additionalProperties": False}
PNG = b"\x89PNG\r\n\x1a\nfake-image-bytes"


def ask(client: ModelClient, text: str, images: list[bytes] | None = None) -> dict:
    return client.ask_json("plan", "You drive a browser.", text, images or [], schema=SCHEMA, schema_name="pick")


@pytest.fixture(scope="module")
def recorded(tmp_path_factory) -> tuple[Path, list[dict], dict]:
    """A cassette of three questions asked of a llama-cpp-like server; what was answered and counted."""
    folder = tmp_path_factory.mktemp("cassette") / "run-1"
    with FakeOpenAI() as server:
        server.respond_with(lambda body: status(500, "response_format type must be one of \"text\" or "
                                                        "\"json_object\", but got: json_schema")
                            if body.get("response_format", {}).get("type") == "json_schema"
                            else reply({"target": len(prompt_text(body))}, prompt_tokens=120, completion_tokens=7))
        client = ModelClient(server.base_url, "key", "small-model", cassette=Cassette(folder, "record"),
                             backoff_base_s=0.01)
        answers = [ask(client, "Click Save."), ask(client, "Click Find Owner."), ask(client, "Pick it.", [PNG])]
        requests = len(server.requests)
        client.close()
    assert requests == 4 and len(list(folder.glob("*.json"))) == 4  # the refused json_schema kept too
    return folder, answers, client.usage()


def closed_port() -> str:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return f"http://127.0.0.1:{probe.getsockname()[1]}/v1"  # nothing listens there once it is closed


def test_a_recorded_run_replays_with_no_server(recorded):
    folder, answers, usage = recorded
    client = ModelClient(closed_port(), None, "small-model", cassette=Cassette(folder, "replay"))
    again = [ask(client, "Click Save."), ask(client, "Click Find Owner."), ask(client, "Pick it.", [PNG])]
    assert again == answers
    replayed = client.usage()
    assert replayed["response_format"] == usage["response_format"] == "json_object"  # stepped down as recorded
    assert replayed["total"]["input_tokens"] == usage["total"]["input_tokens"] == 360
    assert replayed["total"]["calls"] == usage["total"]["calls"] == 4


def test_a_request_the_cassette_does_not_hold_fails_at_once_naming_it(recorded):
    folder, _, _ = recorded
    client = ModelClient(closed_port(), None, "small-model", cassette=Cassette(folder, "replay"), max_retries=3)
    ask(client, "Click Save.")  # steps down as recorded
    with pytest.raises(ModelUnavailable) as missed:
        ask(client, "Click Delete.")
    message = str(missed.value)
    assert f"the cassette {folder} holds no answer to POST /v1/chat/completions" in message
    assert "'Click Delete.'" in message and "record it again" in message
    assert client.usage()["phases"]["plan"]["retries"] == 0  # no endpoint to try again


def test_a_kept_exchange_reads_as_its_request_and_answer(recorded):
    folder, _, _ = recorded
    kept = [json.loads(path.read_text()) for path in sorted(folder.glob("*.json"))]
    assert sorted(k["status"] for k in kept) == [200, 200, 200, 500]
    refused = next(k for k in kept if k["status"] == 500)
    assert refused["request"]["response_format"]["type"] == "json_schema" and "json_schema" in refused["body"]
    with_image = next(k for k in kept if isinstance(k["request"]["messages"][-1]["content"], list))
    image = with_image["request"]["messages"][-1]["content"][1]["image_url"]["url"]
    assert image.startswith("image sha256:") and "base64" not in json.dumps(with_image["request"])


def test_a_cassette_is_recorded_or_replayed_and_a_replay_needs_one(tmp_path):
    with pytest.raises(ValueError, match="recorded or replayed"):
        Cassette(tmp_path, "rewind")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="no cassette at"):
        Cassette(tmp_path / "none", "replay")


def test_the_settings_choose_a_cassette_and_a_replay_needs_no_endpoint(recorded, tmp_path):
    from shared.settings import Settings
    from workers.agent.choice import AgentChoiceError, open_agent

    folder, _, _ = recorded
    agent = open_agent(Settings(brain="openai", model_base_url=None, model_cassette=folder,
                                model_cassette_mode="replay"))
    agent.close()
    with pytest.raises(AgentChoiceError, match="STEPFORGE_MODEL_CASSETTE: no cassette at"):
        open_agent(Settings(brain="openai", model_base_url=None, model_cassette=tmp_path / "none",
                            model_cassette_mode="replay"))
    with pytest.raises(AgentChoiceError, match="needs a model endpoint"):
        open_agent(Settings(brain="openai", model_base_url=None, model_cassette=None))


def test_a_request_is_the_same_request_on_another_port_and_with_other_pixels():
    from workers.agent.model.cassette import request_key

    def body(port: int, image: bytes, question: str = "Open the ticket") -> bytes:
        encoded = __import__("base64").b64encode(image).decode()
        return json.dumps({"messages": [{"role": "user", "content": [
            {"type": "text", "text": f"{question} at http://127.0.0.1:{port}/ticket/13"},
            {"type": "image_url", "image_url": {"url": f"data:image/png;base64,{encoded}"}}]}]}).encode()

    first = request_key("POST", "/v1/chat/completions", body(40001, b"pixels"))
    assert request_key("POST", "/openai/v1/chat/completions", body(51234, b"other pixels")) == first
    assert request_key("POST", "/v1/chat/completions", body(40001, b"pixels", "Close the ticket")) != first
