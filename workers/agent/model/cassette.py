"""Model requests and their answers kept in a folder, so that a run made once against an endpoint can be scored,
diffed and run again anywhere with no endpoint at all.

    ModelClient(..., cassette=Cassette(Path("cassettes/run-1"), "record"))   # asks the endpoint, keeps each answer
    ModelClient(..., cassette=Cassette(Path("cassettes/run-1"), "replay"))   # answers from the folder, asks no one

It sits under the OpenAI SDK as its HTTP transport: every exchange is kept as it was, refusals (a 400 naming
response_format, a 500) included, so a replay steps down and retries exactly as the recorded run did. One file per
request, named by the sha256 of its method, path and canonical JSON body, less what differs between two runs of the
same scenario without changing the question (a local application's port, a screenshot's pixels); the file holds
the request (images as their sha256, to keep it readable) beside the answer. Replaying a request the folder does not
hold fails at once (CassetteMiss), naming the folder, the request's key and the start of its last message.
"""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path
from typing import Any, Literal

import httpx

MODES = ("record", "replay")
_DATA_URL = re.compile(r"data:image/[a-z]+;base64,[A-Za-z0-9+/=]+")
# What differs from one run of the same scenario to the next without changing the question: the port the
# application was started on, and the pixels of a screenshot (its page is in the text beside it).
_LOCAL_PORT = re.compile(r"\b(127\.0\.0\.1|localhost|\[::1\]):\d{2,5}\b")


class CassetteMiss(httpx.TransportError):
    """A replayed request the cassette does not hold."""


def request_key(method: str, path: str, body: bytes) -> str:
    """The request's name in a cassette: the sha256 of its method, the last two parts of its path (the endpoint's
    own: chat/completions, whatever base URL it was recorded at) and its body (JSON canonical: key order and
    spacing do not change it)."""
    path = "/".join(path.rstrip("/").split("/")[-2:])
    try:
        canonical = json.dumps(json.loads(body), sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()
    except ValueError:
        canonical = body
    text = _LOCAL_PORT.sub(r"\1:port", _DATA_URL.sub("image", canonical.decode("utf-8", errors="replace")))
    canonical = text.encode()
    return hashlib.sha256(method.encode() + b" " + path.encode() + b"\n" + canonical).hexdigest()[:32]


def _readable(body: bytes) -> Any:
    """The request as kept beside its answer: JSON, each image replaced by its sha256."""
    text = body.decode("utf-8", errors="replace")
    text = _DATA_URL.sub(lambda m: "image sha256:" + hashlib.sha256(m.group(0).encode()).hexdigest()[:16], text)
    try:
        return json.loads(text)
    except ValueError:
        return text


def _last_words(readable: Any) -> str:
    """The start of a chat request's last message, to say which request a cassette does not hold."""
    try:
        content = readable["messages"][-1]["content"]
    except (KeyError, IndexError, TypeError):
        return ""
    if isinstance(content, list):
        content = " ".join(part.get("text", "") for part in content if isinstance(part, dict))
    return " ".join(str(content).split())[:80]


class Cassette(httpx.BaseTransport):
    def __init__(self, folder: Path, mode: Literal["record", "replay"], inner: httpx.BaseTransport | None = None
                 ) -> None:
        if mode not in MODES:
            raise ValueError(f"a cassette is recorded or replayed, not {mode!r}")
        self.folder = Path(folder)
        self.mode = mode
        if mode == "replay" and not self.folder.is_dir():
            raise ValueError(f"no cassette at {self.folder}: record one first (its folder does not exist)")
        self._inner = inner if inner is not None or mode == "replay" else httpx.HTTPTransport()

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        body = request.read()
        key = request_key(request.method, request.url.path, body)
        path = self.folder / f"{key}.json"
        if self.mode == "replay":
            if not path.is_file():
                words = _last_words(_readable(body))
                raise CassetteMiss(f"the cassette {self.folder} holds no answer to {request.method} {request.url.path} "
                                   f"(request {key}{': ' + repr(words) if words else ''}): record it again")
            kept = json.loads(path.read_text(encoding="utf-8"))
            return httpx.Response(kept["status"], headers={"content-type": kept["content_type"]},
                                  content=kept["body"].encode("utf-8"), request=request)
        assert self._inner is not None
        response = self._inner.handle_request(request)
        content = response.read()
        self.folder.mkdir(parents=True, exist_ok=True)
        kept = {"request": _readable(body), "status": response.status_code,
                "content_type": response.headers.get("content-type", "application/json"),
                "body": content.decode("utf-8", errors="replace")}
        temporary = path.with_suffix(".tmp")
        temporary.write_text(json.dumps(kept, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
        temporary.replace(path)
        headers = {name: value for name, value in response.headers.items()
                   if name.lower() not in ("content-encoding", "content-length", "transfer-encoding")}  # read already
        return httpx.Response(response.status_code, headers=headers, content=content, request=request)

    @staticmethod
    def missed(error: BaseException | None) -> bool:
        """Whether an error is a replayed request this cassette does not hold."""
        return isinstance(error, CassetteMiss)

    def close(self) -> None:
        if self._inner is not None:
            self._inner.close()
