"""``engram mcp`` on stdio: a line that is not a JSON-RPC message gets JSON-RPC's answer.

The SDK's stdio transport reads a line it cannot parse as an ``Exception`` item on its
read stream, and its session drops such items (logged at debug level): ``{not json``
got no reply, and a client waiting for one hung. JSON-RPC 2.0 (section 5.1) answers
text that is not JSON with -32700 "Parse error" and JSON that is not a request with
-32600 "Invalid Request", id null unless the message's id could be read.
:class:`AnsweringReadStream` sits between the transport and the server: it answers
each such item on the write stream and passes every message on unchanged.

A request whose ``id`` is neither a string nor an integer (``"id": true``, ``null``,
``1.5``) is read by the SDK's message union as a *notification* (its model ignores the
``id`` it cannot take), which is never answered, so that client hung too. The transport
parses each line through ``types.jsonrpc_message_adapter``; :func:`install` gives the
server's transport module (only it: the client's is untouched) a view of ``mcp_types``
whose adapter refuses such a line (:class:`UnreadableId`), so it reaches the filter as
an unreadable item and is answered -32600 naming the id's type. A notification, which
has no ``id`` member at all, parses as before.
"""

from __future__ import annotations

import json
from types import TracebackType
from typing import Any

import anyio
import mcp.server.stdio as transport
from mcp.server.stdio import stdio_server
from mcp.shared.message import SessionMessage
from mcp.types import INVALID_REQUEST, PARSE_ERROR, ErrorData, JSONRPCError, JSONRPCNotification
from pydantic import ValidationError

#: What a request line needs, said in the -32600 answer.
_REQUEST_SHAPE = (
    'a request is an object with "jsonrpc": "2.0", a "method" string, and an "id" '
    "(a string or an integer) unless it is a notification"
)


class UnreadableId(ValueError):
    """A line with an ``id`` member the SDK would have dropped, reading it as a
    notification: the id is neither a string nor an integer."""

    def __init__(self, value: object) -> None:
        super().__init__(f"id {value!r} is neither a string nor an integer")
        self.value = value


def _id_kind(value: object) -> str:
    """The id as JSON wrote it, and what kind of value that is."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return f"{json.dumps(value)} (a boolean)"
    if isinstance(value, float):
        return f"{json.dumps(value)} (a number that is not an integer)"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "a JSON object"
    return json.dumps(value)


class _Adapter:
    """``mcp_types.jsonrpc_message_adapter`` as the transport calls it, refusing a line
    it would read as a notification although the line carries an ``id``."""

    def __init__(self, inner: Any) -> None:
        self._inner = inner

    def validate_json(self, line: str | bytes, **options: Any) -> Any:
        message = self._inner.validate_json(line, **options)
        if isinstance(message, JSONRPCNotification):
            raw = json.loads(line)  # valid JSON: the adapter has just read it
            if isinstance(raw, dict) and "id" in raw:
                raise UnreadableId(raw["id"])
        return message

    def __getattr__(self, name: str) -> Any:
        return getattr(self._inner, name)


class _TypesView:
    """``mcp_types`` with :class:`_Adapter` as its message adapter."""

    def __init__(self, module: Any) -> None:
        self._module = module
        self.jsonrpc_message_adapter = _Adapter(module.jsonrpc_message_adapter)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._module, name)


def install() -> None:
    """Give the SDK's stdio server transport the adapter that refuses an unreadable id
    (once; an SDK whose transport reads messages some other way is left as it is)."""
    current = getattr(transport, "types", None)
    if current is None or isinstance(current, _TypesView):
        return
    if hasattr(current, "jsonrpc_message_adapter"):
        transport.types = _TypesView(current)  # type: ignore[assignment,attr-defined]


def unreadable_answer(exc: Exception) -> JSONRPCError:
    """The JSON-RPC error answering a line the transport could not read as a message."""
    if isinstance(exc, UnreadableId):
        message = (
            f"Invalid Request: the id must be a string or an integer, got {_id_kind(exc.value)}; "
            "a request without an id is a notification, which gets no answer"
        )
        return JSONRPCError(
            jsonrpc="2.0", id=None, error=ErrorData(code=INVALID_REQUEST, message=message)
        )
    problems = exc.errors() if isinstance(exc, ValidationError) else []
    parse = [p for p in problems if p.get("type") == "json_invalid"]
    if parse or not problems:
        why = str((parse[0].get("ctx") or {}).get("error", "")) if parse else type(exc).__name__
        message = (
            f"Parse error: the line is not valid JSON ({why}); send one JSON-RPC 2.0 "
            "message as JSON on each line"
        )
        return JSONRPCError(
            jsonrpc="2.0", id=None, error=ErrorData(code=PARSE_ERROR, message=message)
        )
    message = f"Invalid Request: the line is JSON but not a JSON-RPC 2.0 message; {_REQUEST_SHAPE}"
    return JSONRPCError(
        jsonrpc="2.0",
        id=_request_id(problems),
        error=ErrorData(code=INVALID_REQUEST, message=message),
    )


def _request_id(problems: list[Any]) -> str | int | None:
    """The message's id if it has one a reply can carry (JSON-RPC: a string or an
    integer; a boolean is neither), else None."""
    for problem in problems:
        value = problem.get("input")
        if isinstance(value, dict):
            found = value.get("id")
            if isinstance(found, str) or (isinstance(found, int) and not isinstance(found, bool)):
                return found
            return None
    return None


class AnsweringReadStream:
    """A transport's read stream without the lines it could not read: each is answered
    on ``write`` (:func:`unreadable_answer`) instead of being handed to the session,
    which would drop it. Messages, and the sender's context the SDK reads from
    ``last_context``, pass through as they came."""

    def __init__(self, inner: Any, write: Any) -> None:
        self._inner = inner
        self._write = write

    @property
    def last_context(self) -> Any:
        return getattr(self._inner, "last_context", None)

    async def receive(self) -> SessionMessage:
        while True:
            item = await self._inner.receive()
            if not isinstance(item, Exception):
                return item  # type: ignore[no-any-return]
            await self._write.send(SessionMessage(unreadable_answer(item)))

    async def aclose(self) -> None:
        await self._inner.aclose()

    def __aiter__(self) -> AnsweringReadStream:
        return self

    async def __anext__(self) -> SessionMessage:
        try:
            return await self.receive()
        except anyio.EndOfStream:
            raise StopAsyncIteration from None

    async def __aenter__(self) -> AnsweringReadStream:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc_val: BaseException | None,
        exc_tb: TracebackType | None,
    ) -> None:
        await self.aclose()


async def serve_stdio(lowlevel: Any) -> None:
    """Serve ``lowlevel`` (the SDK server under an ``MCPServer``) on stdin and stdout,
    each unreadable line answered."""
    install()
    async with stdio_server() as (read_stream, write_stream):
        await lowlevel.run(
            AnsweringReadStream(read_stream, write_stream),
            write_stream,
            lowlevel.create_initialization_options(),
        )
