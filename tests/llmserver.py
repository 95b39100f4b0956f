"""A scripted model server for tests: a real HTTP server on 127.0.0.1 that speaks
Ollama's and OpenAI's protocols and answers from a script.

Tests of anything that asks an LLM or a remote embedder use it instead of the network::

    from llmserver import Reply, ScriptedLlm, fenced, thinking, truncated

    @pytest.fixture
    def llm() -> Iterator[ScriptedLlm]:
        with ScriptedLlm() as server:
            yield server

    def test_something(llm: ScriptedLlm) -> None:
        llm.script(
            fenced({"facts": []}),                 # 200, the model's text in a ``` fence
            Reply(status=500, body="boom"),        # an HTTP error, body sent verbatim
            Reply(text='{"ok": true}', delay=5),   # a slow answer (past a short timeout)
        )
        provider = OllamaProvider(base_url=llm.url)            # or
        provider = OpenAICompatProvider(base_url=llm.openai_url)
        ...
        assert llm.requests[0].body["format"] == schema      # what was sent
        assert llm.pending == 0                              # the script was used up

The server answers:

- ``POST /api/generate``, ``POST /api/chat`` (Ollama) and ``POST .../chat/completions``
  (OpenAI) from the generation script (:meth:`ScriptedLlm.script`), each entry wrapped
  in that protocol's envelope;
- ``POST /api/embed``, ``POST /api/embeddings`` (Ollama) and ``POST .../embeddings``
  (OpenAI) from the embedding script (:meth:`ScriptedLlm.script_embeddings`), or, when it
  is empty, with deterministic vectors of ``embed_dimension`` floats per input text;
- ``GET /api/tags`` and ``GET .../models``: 200 listing ``models`` while ``healthy``,
  else 503.

A script entry is the model's text (``str``), a :class:`Reply` (status, raw body, delay,
vectors), or a callable that takes the :class:`Request` and returns either (to answer by
prompt). When the generation script is empty, ``fallback`` answers if set; otherwise the
server answers 500 saying the script is empty, so a test that asks more than it scripted
fails loudly. Every request is recorded in :attr:`ScriptedLlm.requests`.
"""

from __future__ import annotations

import hashlib
import json
import threading
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, replace
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


@dataclass(frozen=True)
class Reply:
    """One scripted answer.

    ``text`` is the model's answer, wrapped in the protocol's envelope; ``body`` is sent
    verbatim instead (for HTTP errors and malformed envelopes); ``vectors`` answer an
    embedding request; ``delay`` is waited before answering (a slow model); ``trickle``
    sends the body one byte per that many seconds (a server that stalls mid-answer).
    """

    text: str | None = None
    status: int = 200
    body: str | None = None
    delay: float = 0.0
    vectors: list[list[float]] | None = None
    trickle: float = 0.0
    content_type: str = "application/json"


@dataclass(frozen=True)
class Request:
    """One request the server received."""

    method: str
    path: str
    headers: dict[str, str]
    """Header names in lower case."""
    body: Any
    """The JSON body, or None when there was none or it was not JSON."""
    raw: bytes

    @property
    def prompt(self) -> str | None:
        """The prompt: Ollama's ``prompt``, or the last chat message's content."""
        if not isinstance(self.body, dict):
            return None
        if isinstance(self.body.get("prompt"), str):
            return str(self.body["prompt"])
        messages = self.body.get("messages")
        if isinstance(messages, list) and messages and isinstance(messages[-1], dict):
            content = messages[-1].get("content")
            return content if isinstance(content, str) else None
        return None


Entry = str | Reply | Callable[[Request], "str | Reply"]


def fenced(value: Any, lang: str = "json") -> str:
    """``value`` as JSON inside a Markdown code fence, as chatty models answer."""
    return f"Here is the JSON:\n```{lang}\n{json.dumps(value, indent=2)}\n```\n"


def thinking(value: Any, thought: str = "Let me think. {not json} [nor this]") -> str:
    """``value`` as JSON after a qwen3-style ``<think>`` block."""
    return f"<think>\n{thought}\n</think>\n\n{json.dumps(value)}"


def truncated(value: Any) -> str:
    """``value`` as JSON cut off half way (a model that hit its token limit)."""
    text = json.dumps(value)
    return text[: max(1, len(text) // 2)]


def vector_for(text: str, dimension: int) -> list[float]:
    """The deterministic vector the server gives ``text`` when no embedding is scripted."""
    digest = hashlib.shake_256(text.encode()).digest(dimension)
    return [(b - 127.5) / 127.5 for b in digest]


_GENERATE = ("/api/generate", "/api/chat", "/chat/completions")
_EMBED = ("/api/embed", "/api/embeddings", "/embeddings")


class ScriptedLlm:
    """The scripted server (see the module docstring). Use it as a context manager."""

    def __init__(self, *, models: tuple[str, ...] = ("qwen3:4b",), embed_dimension: int = 8):
        self.models = list(models)
        self.embed_dimension = embed_dimension
        self.healthy = True
        self.fallback: Callable[[Request], str | Reply] | None = None
        self.requests: list[Request] = []
        self._generate: deque[Entry] = deque()
        self._embed: deque[Entry] = deque()
        self._lock = threading.Lock()
        self._closing = threading.Event()
        self._server = _Server(("127.0.0.1", 0), _Handler)
        self._server.owner = self
        self._thread = threading.Thread(
            target=self._server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True
        )

    # -- the API tests use ----------------------------------------------------------
    @property
    def url(self) -> str:
        """The base URL (Ollama's ``base_url``)."""
        host, port = self._server.server_address[:2]
        return f"http://{host!s}:{port}"

    @property
    def openai_url(self) -> str:
        """The OpenAI-compatible base URL (``{url}/v1``)."""
        return self.url + "/v1"

    def script(self, *entries: Entry) -> None:
        """Queue answers for generation requests, in order."""
        with self._lock:
            self._generate.extend(entries)

    def script_embeddings(self, *entries: Entry) -> None:
        """Queue answers for embedding requests, in order (a :class:`Reply` with
        ``vectors``, status or delay)."""
        with self._lock:
            self._embed.extend(entries)

    @property
    def pending(self) -> int:
        """Scripted answers not yet used (both scripts)."""
        with self._lock:
            return len(self._generate) + len(self._embed)

    def requests_to(self, suffix: str) -> list[Request]:
        """The recorded requests whose path ends with ``suffix``."""
        with self._lock:
            return [r for r in self.requests if r.path.endswith(suffix)]

    # -- lifecycle ------------------------------------------------------------------
    def start(self) -> ScriptedLlm:
        """Start serving (``with ScriptedLlm()`` does this)."""
        self._thread.start()
        return self

    def close(self) -> None:
        """Stop serving; releases answers still waiting out a ``delay``."""
        self._closing.set()
        if self._thread.is_alive():
            self._server.shutdown()
            self._thread.join(timeout=5)
        self._server.server_close()

    def __enter__(self) -> ScriptedLlm:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- answering ------------------------------------------------------------------
    def _record(self, request: Request) -> None:
        with self._lock:
            self.requests.append(request)

    def _next(self, queue: deque[Entry]) -> Entry | None:
        with self._lock:
            return queue.popleft() if queue else None

    def answer(self, request: Request) -> Reply:
        """The answer to ``request``, its ``body`` the exact bytes to send."""
        path = request.path
        if request.method == "GET" and path.endswith(("/api/tags", "/models")):
            return self._health(path)
        if request.method == "POST" and path.endswith(_GENERATE):
            entry = self._next(self._generate)
            if entry is None:
                entry = self.fallback
            if entry is None:
                return Reply(
                    status=500, body=f"ScriptedLlm: the script is empty ({request.method} {path})"
                )
            return self._generation(request, _resolve(entry, request))
        if request.method == "POST" and path.endswith(_EMBED):
            entry = self._next(self._embed)
            reply = _resolve(entry, request) if entry is not None else Reply()
            return self._embedding(request, reply)
        return Reply(status=404, body="404 page not found")

    def _health(self, path: str) -> Reply:
        if not self.healthy:
            return Reply(status=503, body="unhealthy")
        if path.endswith("/api/tags"):
            body: Any = {"models": [{"name": m, "model": m} for m in self.models]}
        else:
            body = {"object": "list", "data": [{"id": m, "object": "model"} for m in self.models]}
        return Reply(body=json.dumps(body))

    def _generation(self, request: Request, reply: Reply) -> Reply:
        if reply.body is not None or reply.text is None:
            return replace(reply, body=reply.body or "")
        model = request.body.get("model", "") if isinstance(request.body, dict) else ""
        text = reply.text
        envelope: Any
        if request.path.endswith("/api/generate"):
            envelope = {"model": model, "response": text, "done": True, "done_reason": "stop"}
        elif request.path.endswith("/api/chat"):
            message = {"role": "assistant", "content": text}
            envelope = {"model": model, "message": message, "done": True}
        elif isinstance(request.body, dict) and request.body.get("stream") is True:
            # OpenAI's streaming: one chat.completion.chunk per word, then [DONE].
            return replace(reply, body=sse(text, model), content_type="text/event-stream")
        else:
            envelope = {
                "id": "chatcmpl-scripted",
                "object": "chat.completion",
                "created": 0,
                "model": model,
                "choices": [
                    {
                        "index": 0,
                        "message": {"role": "assistant", "content": text},
                        "finish_reason": "stop",
                    }
                ],
            }
        return replace(reply, body=json.dumps(envelope))

    def _embedding(self, request: Request, reply: Reply) -> Reply:
        if reply.body is not None or reply.status >= 400:
            return replace(reply, body=reply.body or "")
        body = request.body if isinstance(request.body, dict) else {}
        raw = body.get("input", body.get("prompt", ""))
        texts = [str(t) for t in raw] if isinstance(raw, list) else [str(raw)]
        vectors = reply.vectors
        if vectors is None:
            vectors = [vector_for(t, self.embed_dimension) for t in texts]
        model = body.get("model", "")
        envelope: Any
        if request.path.endswith("/api/embed"):
            envelope = {"model": model, "embeddings": vectors}
        elif request.path.endswith("/api/embeddings"):
            envelope = {"embedding": vectors[0] if vectors else []}
        else:
            data = [
                {"object": "embedding", "index": i, "embedding": v} for i, v in enumerate(vectors)
            ]
            envelope = {"object": "list", "data": data, "model": model}
        return replace(reply, body=json.dumps(envelope))


def sse(text: str, model: str) -> str:
    """``text`` as OpenAI's server-sent events: a chunk per word, a finish, ``[DONE]``."""
    words = [w + " " for w in text.split(" ")]
    words[-1] = words[-1][:-1]
    events = []
    for i, piece in enumerate([*words, None]):
        delta = {"content": piece} if piece is not None else {}
        if i == 0:
            delta["role"] = "assistant"
        choice = {"index": 0, "delta": delta, "finish_reason": None if piece else "stop"}
        chunk = {
            "id": "chatcmpl-scripted",
            "object": "chat.completion.chunk",
            "created": 0,
            "model": model,
            "choices": [choice],
        }
        events.append(f"data: {json.dumps(chunk)}\n\n")
    return "".join(events) + "data: [DONE]\n\n"


def _resolve(entry: Entry, request: Request) -> Reply:
    value = entry(request) if callable(entry) else entry
    return Reply(text=value) if isinstance(value, str) else value


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    # The default backlog of 5 drops connections from many concurrent callers, which
    # then wait a second to retry.
    request_queue_size = 128
    owner: ScriptedLlm

    def handle_error(self, request: Any, client_address: Any) -> None:
        """Quiet: a client that gave up (timed out) closes its socket mid-answer."""


class _Handler(BaseHTTPRequestHandler):
    server: _Server

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - the base's name
        """Quiet: the test output is no place for an access log."""

    def _serve(self) -> None:
        owner = self.server.owner
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length) if length else b""
        try:
            body = json.loads(raw) if raw else None
        except ValueError:
            body = None
        request = Request(
            method=self.command,
            path=self.path.split("?", 1)[0],
            headers={k.lower(): v for k, v in self.headers.items()},
            body=body,
            raw=raw,
        )
        owner._record(request)
        reply = owner.answer(request)
        if reply.delay and owner._closing.wait(reply.delay):
            return  # the server is closing: nobody is waiting for this answer
        data = (reply.body or "").encode()
        try:
            self.send_response(reply.status)
            self.send_header("Content-Type", reply.content_type)
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            if not reply.trickle:
                self.wfile.write(data)
                return
            for i in range(len(data)):
                self.wfile.write(data[i : i + 1])
                self.wfile.flush()
                if owner._closing.wait(reply.trickle):
                    return
        except (BrokenPipeError, ConnectionResetError):
            pass  # the client timed out and left

    do_GET = _serve
    do_POST = _serve
