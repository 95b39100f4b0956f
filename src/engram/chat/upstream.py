"""The model server the chat proxy forwards to, and what it reads back (issue 31).

The upstream is any OpenAI-compatible server: ``[chat] upstream_url``, else the ``[llm]``
server (``openai``: its ``base_url``; ``ollama``: its ``/v1`` endpoint, which speaks the
same protocol). Its API key comes from the environment variable ``[llm] api_key_env``
at each request and only goes into the upstream request's ``Authorization`` header: it
is never stored, never logged, and never part of a response.

The reply is relayed byte for byte; ``ReplyReader`` reads the assistant's text out of
the bytes as they pass (an SSE stream of ``chat.completion.chunk`` deltas, or one
``chat.completion`` body) so the exchange can be mined once it is complete.
"""

from __future__ import annotations

import json
import os
from collections.abc import AsyncIterator, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from engram.config import Config
from engram.errors import ConfigError, LlmError
from engram.llm.ollama import DEFAULT_BASE_URL as OLLAMA_URL
from engram.llm.openai_compat import DEFAULT_BASE_URL as OPENAI_URL

if TYPE_CHECKING:  # imported where a call starts: see engram.llm.http
    import httpx

#: Response headers of the upstream that describe its body and are passed on as they are
#: (hop-by-hop and length headers are the server's own business).
PASSED_HEADERS = ("content-type", "cache-control", "x-request-id", "openai-processing-ms")


def base_url(config: Config) -> str:
    """The upstream's OpenAI-compatible base URL (ending in ``/v1`` for the usual
    servers); ``ConfigError`` naming both settings when none is configured."""
    chosen = config.chat.upstream_url.strip()
    if not chosen:
        provider = config.llm.provider
        if provider == "openai":
            chosen = config.llm.base_url or OPENAI_URL
        elif provider == "ollama":
            chosen = f"{(config.llm.base_url or OLLAMA_URL).rstrip('/')}/v1"
        else:
            raise ConfigError(
                "the chat proxy has no upstream: set [chat] upstream_url to an "
                "OpenAI-compatible base URL, or [llm] provider to openai or ollama"
            )
    return chosen.rstrip("/")


def _key(config: Config) -> str | None:
    """The upstream's key from the environment, read per request (never kept)."""
    name = config.llm.api_key_env
    return os.environ.get(name) or None if name else None


def new_client(config: Config) -> httpx.AsyncClient:
    """An HTTP client for upstream calls. Making one costs milliseconds (its TLS
    context), so a server makes one and shares it (``engram serve`` does, for its whole
    run); its connections are kept alive between calls."""
    import httpx

    timeout = httpx.Timeout(config.chat.upstream_timeout_s, connect=10.0)
    return httpx.AsyncClient(timeout=timeout, trust_env=False)


class SharedClient:
    """A server run's one upstream client, made on the first chat call rather than at
    start: a server that never proxies a chat never imports httpx, whose ~13.5k tracked
    objects every full garbage collection would walk (docs/benchmarks.md, "mend29").
    Used from the event loop only, so the first call needs no lock."""

    def __init__(self, config: Config) -> None:
        self._config = config
        self._client: httpx.AsyncClient | None = None

    def get(self) -> httpx.AsyncClient:
        """The client, made now if this is the first call."""
        if self._client is None:
            self._client = new_client(self._config)
        return self._client

    async def aclose(self) -> None:
        """Close the client if one was made (safe to call twice)."""
        client, self._client = self._client, None
        if client is not None:
            await client.aclose()


@dataclass(slots=True)
class Opened:
    """An upstream response whose body has not been read yet."""

    status: int
    headers: dict[str, str]
    """The passed-on headers (``PASSED_HEADERS``)."""
    response: httpx.Response
    owned: httpx.AsyncClient | None = None
    """A client made for this call alone, closed with it."""

    async def chunks(self) -> AsyncIterator[bytes]:
        """The body as it arrives, unchanged; the response closes after it."""
        try:
            async for chunk in self.response.aiter_raw():
                yield chunk
        finally:
            await self.close()

    async def body(self) -> bytes:
        """The whole body; the response closes after it."""
        try:
            return await self.response.aread()
        finally:
            await self.close()

    async def close(self) -> None:
        """Release the connection (safe to call twice)."""
        await self.response.aclose()
        if self.owned is not None:
            await self.owned.aclose()


async def open_completion(
    config: Config, body: Mapping[str, Any], client: httpx.AsyncClient | None = None
) -> Opened:
    """Send ``body`` to the upstream's ``/chat/completions`` (with ``client``, else one
    made for this call) and return the response as soon as its headers arrive.
    ``LlmError`` when the upstream cannot be reached (its HTTP errors are relayed as
    they are: the caller's client knows the protocol)."""
    import httpx

    url = f"{base_url(config)}/chat/completions"
    headers = {"Content-Type": "application/json", "Accept": "*/*"}
    key = _key(config)
    if key:
        headers["Authorization"] = f"Bearer {key}"
    owned = new_client(config) if client is None else None
    sender = client or owned
    assert sender is not None
    try:
        request = sender.build_request("POST", url, headers=headers, content=json.dumps(body))
        response = await sender.send(request, stream=True)
    except httpx.HTTPError as exc:
        if owned is not None:
            await owned.aclose()
        # The URL, never the headers: they hold the key.
        raise LlmError(f"the chat upstream {url} failed: {_why(config, exc)}") from None
    passed = {k: v for k, v in response.headers.items() if k.lower() in PASSED_HEADERS}
    return Opened(response.status_code, passed, response, owned)


def _why(config: Config, exc: httpx.HTTPError) -> str:
    """What went wrong reaching the upstream, and what to check."""
    import httpx

    if isinstance(exc, httpx.TimeoutException) and not isinstance(exc, httpx.ConnectTimeout):
        return (
            f"no answer within [chat] upstream_timeout_s ({config.chat.upstream_timeout_s:g} s)"
            f" ({type(exc).__name__})"
        )
    if isinstance(exc, httpx.ConnectError | httpx.ConnectTimeout):
        return (
            f"could not connect ({type(exc).__name__}): is the model server running there? "
            "Check [chat] upstream_url ([llm] base_url when it is empty)"
        )
    return type(exc).__name__


class ReplyReader:
    """The assistant's text, read from the upstream's bytes as they pass through."""

    def __init__(self, streaming: bool) -> None:
        self.streaming = streaming
        self._buffer = b""
        self._parts: list[str] = []
        self.done = False
        """True once the reply is complete: ``[DONE]`` or a finish reason was seen (a
        stream), or a body with a message was read."""

    def feed(self, chunk: bytes) -> None:
        """Read one piece of the body."""
        self._buffer += chunk
        if not self.streaming:
            return
        *lines, self._buffer = self._buffer.split(b"\n")
        for line in lines:
            self._line(line.strip())

    def _line(self, line: bytes) -> None:
        if not line.startswith(b"data:"):
            return
        data = line[5:].strip()
        if data == b"[DONE]":
            self.done = True
            return
        try:
            event = json.loads(data)
        except ValueError:
            return
        for choice in event.get("choices") or [] if isinstance(event, dict) else []:
            if not isinstance(choice, dict) or choice.get("index", 0) != 0:
                continue
            delta = choice.get("delta") or {}
            piece = delta.get("content") if isinstance(delta, dict) else None
            if isinstance(piece, str):
                self._parts.append(piece)
            if choice.get("finish_reason"):
                self.done = True

    @property
    def text(self) -> str:
        """The reply's text so far (the whole reply once ``done``)."""
        if self.streaming:
            if self._buffer.strip():  # a last line without its line break
                self._line(self._buffer.strip())
                self._buffer = b""
            return "".join(self._parts)
        try:
            data = json.loads(self._buffer)
            content = data["choices"][0]["message"]["content"]
        except (ValueError, KeyError, IndexError, TypeError):
            return ""
        if isinstance(content, str):
            self.done = True
            return content
        return ""
