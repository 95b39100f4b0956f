"""The OpenAI-compatible chat proxy: memory for any OpenAI-client app (issue 31, seed 003).

``POST /v1/proxy/chat/completions`` takes an OpenAI chat-completions request with an
engram key as its bearer token. Before the upstream call, ``mem.chat.before`` recalls
on the latest user message in the key's namespace and puts the ``<memory_context>``
block into the system prompt; the request then goes to the configured upstream
(``engram.chat.upstream``) and its reply comes back unchanged, SSE streams included.
Once the reply is complete (and after it was sent), ``mem.chat.after`` queues the
exchange for mining. The response names the injected memories in the
``X-Engram-Memories`` header, and a streamed one also in a final SSE comment
(``: engram-memories <ids>``), which SSE clients skip. Its ``Server-Timing`` header says
where the proxy's own milliseconds went (``engram.chat.stages``).

Who the turn is for: headers ``X-Engram-User``, ``X-Engram-Agent`` and
``X-Engram-Conversation``, or the body's ``engram`` object (``user_id``, ``agent_id``,
``conversation_id``; the OpenAI client's ``extra_body``), which is removed before the
request goes upstream. A user key works in its own namespace only.

``/v1/chat/settings`` reads, sets and resets a user's own chat settings (seed 003:
``enabled``, ``top_k``, ``rerank``, ``auto_mine`` and the per-agent override
``recall_off_agents``), which every later turn of that user runs with.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Mapping
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Depends, FastAPI, Request
from fastapi.responses import Response, StreamingResponse
from fastapi.security import HTTPAuthorizationCredentials
from pydantic import BaseModel, ConfigDict, Field
from starlette.background import BackgroundTask
from starlette.concurrency import run_in_threadpool

from engram.api.auth import Caller, ServerState, State, authenticate, bearer
from engram.api.routes import _ERRORS, ScopeQuery, _namespace
from engram.chat import ChatConfig, Turn
from engram.chat.stages import HEADER as TIMING_HEADER
from engram.chat.stages import Stages
from engram.chat.upstream import ReplyReader, SharedClient, open_completion
from engram.errors import InvalidInputError


@asynccontextmanager
async def _upstream_client(app: FastAPI) -> AsyncIterator[None]:
    """One HTTP client for the server's run: making one per call costs milliseconds.
    Made on the first chat call (``SharedClient``), closed when the server stops."""
    state: ServerState = app.state.engram
    shared = SharedClient(state.memory.config)
    app.state.chat_upstream = shared
    try:
        yield
    finally:
        await shared.aclose()


router = APIRouter(responses=_ERRORS, tags=["chat"], lifespan=_upstream_client)

#: The response header that lists the injected memory ids (comma-separated).
MEMORIES_HEADER = "X-Engram-Memories"
#: The response header naming the conversation the turn was recorded against.
CONVERSATION_HEADER = "X-Engram-Conversation"
#: Sent with a streamed reply: nginx (and proxies that read it) pass each event on as it
#: comes instead of buffering the whole reply.
NO_BUFFERING = ("X-Accel-Buffering", "no")
#: Request headers naming who the turn is for.
NAME_HEADERS = {
    "user_id": "x-engram-user",
    "agent_id": "x-engram-agent",
    "conversation_id": "x-engram-conversation",
}
#: The body field with the same names (removed before the request goes upstream).
BODY_FIELD = "engram"


def _names(request: Request, body: dict[str, Any]) -> dict[str, str | None]:
    """user_id, agent_id and conversation_id from the headers, else the body field."""
    given = body.pop(BODY_FIELD, None)
    if given is not None and not isinstance(given, Mapping):
        raise InvalidInputError(
            f"the body's '{BODY_FIELD}' field must be an object with user_id, agent_id "
            "and conversation_id"
        )
    extra = dict(given or {})
    unknown = set(extra) - set(NAME_HEADERS)
    if unknown:
        raise InvalidInputError(
            f"unknown field(s) {', '.join(sorted(unknown))} in '{BODY_FIELD}'; "
            f"known: {', '.join(NAME_HEADERS)}"
        )
    out: dict[str, str | None] = {}
    for name, header in NAME_HEADERS.items():
        value = request.headers.get(header) or extra.get(name)
        if value is not None and not isinstance(value, str):
            raise InvalidInputError(f"{BODY_FIELD}.{name} must be a string")
        out[name] = value or None
    return out


def _body(raw: bytes) -> dict[str, Any]:
    try:
        body = json.loads(raw)
    except (ValueError, RecursionError):
        raise InvalidInputError("the body must be an OpenAI chat-completions JSON object") from None
    if not isinstance(body, dict) or not isinstance(body.get("messages"), list):
        raise InvalidInputError(
            "the body must be an OpenAI chat-completions object with a 'messages' list"
        )
    return body


@dataclass(frozen=True, slots=True)
class _Prepared:
    """What the worker thread hands back: the parsed request and the prepared turn."""

    body: dict[str, Any]
    names: dict[str, str | None]
    namespace: str
    user_id: str | None
    turn: Turn


def _settle(
    future: asyncio.Future[_Prepared], value: _Prepared | None, exc: Exception | None
) -> None:
    if future.cancelled():  # the client went away: nothing waits for the turn
        return
    if exc is not None:
        future.set_exception(exc)
    else:
        assert value is not None
        future.set_result(value)


#: Record tasks still running (the event loop keeps only weak references to tasks).
_RECORDING: set[asyncio.Task[None]] = set()


@router.post(
    "/v1/proxy/chat/completions",
    summary="Chat through the memory proxy",
    response_class=Response,
    responses={200: {"description": "The upstream's reply, unchanged (JSON or SSE)."}},
)
async def proxy_chat_completions(
    request: Request,
    credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(bearer)],
) -> Response:
    """An OpenAI chat completion with memory: recalled context goes into the system
    prompt, the upstream's reply comes back as it is, and the exchange is queued for
    mining once the reply is complete."""
    state: ServerState = request.app.state.engram
    memory = state.memory
    stages = Stages()
    raw = await request.body()
    header = None if credentials is None else f"Bearer {credentials.credentials}"
    stages.lap("read")
    loop = asyncio.get_running_loop()
    ready: asyncio.Future[_Prepared] = loop.create_future()

    def prepare() -> _Prepared:
        stages.lap("queue")
        caller = authenticate(state, header)  # the key first: without one, any body is a 401
        stages.lap("auth")
        body = _body(raw)
        names = _names(request, body)
        # An agent's key chats as its agent (another X-Engram-Agent is 403), so the
        # turns it mines are that agent's (keys38).
        names["agent_id"] = caller.acting(names["agent_id"])
        scope = caller.scope(memory, user_id=names["user_id"])
        user = names["user_id"] or caller.user
        stages.lap("parse")
        turn = memory.chat.before(
            body["messages"],
            namespace=scope.namespace,
            user_id=user,
            agent_id=names["agent_id"],
            conversation_id=names["conversation_id"],
            record=False,
        )
        stages.split("prepare", {"recall": turn.recall_ms})
        return _Prepared(body, names, scope.namespace, user, turn)

    def work() -> None:
        # One hop to a worker thread for everything that blocks (each hop waits for a
        # thread to be scheduled: milliseconds on a busy machine). The turn goes back
        # to the loop as soon as it is ready; the S13 record follows on this thread
        # while the loop sends the request upstream.
        try:
            prepared = prepare()
        except Exception as exc:
            loop.call_soon_threadsafe(_settle, ready, None, exc)
            return
        loop.call_soon_threadsafe(_settle, ready, prepared, None)
        memory.chat.record(prepared.turn)

    def unblock(task: asyncio.Future[None]) -> None:
        # The thread died without handing a turn back (a BaseException): fail, not hang.
        if ready.done():
            return
        if task.cancelled():
            ready.cancel()
        else:
            ready.set_exception(task.exception() or RuntimeError("no chat turn was prepared"))

    recording = asyncio.ensure_future(run_in_threadpool(work))
    _RECORDING.add(recording)
    recording.add_done_callback(_RECORDING.discard)
    recording.add_done_callback(unblock)
    prepared = await ready
    stages.lap("hop")
    body, names, turn = prepared.body, prepared.names, prepared.turn
    body["messages"] = turn.messages
    streaming = body.get("stream") is True
    shared: SharedClient | None = getattr(request.app.state, "chat_upstream", None)
    try:
        client = shared.get() if shared is not None else None
        opened = await open_completion(memory.config, body, client)
        stages.lap("upstream")
    finally:
        await recording  # recorded (or its error raised) before any answer goes out
        stages.lap("record")
    headers = {
        **opened.headers,
        MEMORIES_HEADER: ",".join(turn.injected),
        CONVERSATION_HEADER: turn.conversation_id,
        TIMING_HEADER: stages.header(),
    }
    reader = ReplyReader(streaming)

    def mine() -> None:
        if opened.status == 200 and reader.done:
            memory.chat.after(
                body["messages"],
                reader.text,
                namespace=prepared.namespace,
                user_id=prepared.user_id,
                agent_id=names["agent_id"],
                conversation_id=turn.conversation_id,
            )

    if not streaming:
        content = await opened.body()
        reader.feed(content)
        reader.text  # noqa: B018 - reading it marks a complete reply done
        return Response(content, opened.status, headers, background=BackgroundTask(mine))

    async def relay() -> AsyncIterator[bytes]:
        async for chunk in opened.chunks():
            reader.feed(chunk)
            yield chunk
        reader.text  # noqa: B018 - flushes a last line without its line break
        yield f": engram-memories {','.join(turn.injected)}\n\n".encode()

    # A reverse proxy buffers a response by default (nginx's proxy_buffering), which held
    # every event of a streamed reply until its last one (dogfood19: 15 chunks over 5.7 s
    # all arrived at 5.7 s through nginx); this header turns that off for this response.
    headers[NO_BUFFERING[0]] = NO_BUFFERING[1]
    return StreamingResponse(relay(), opened.status, headers, background=BackgroundTask(mine))


class ChatSettingsIn(BaseModel):
    """The settings to change; those left out keep their value."""

    model_config = ConfigDict(extra="forbid")

    enabled: bool | None = None
    top_k: int | None = Field(default=None, ge=1, le=50)
    rerank: Literal["none", "embedding", "cross-encoder", "llm"] | None = None
    auto_mine: bool | None = None
    recall_off_agents: str | None = Field(default=None, max_length=10_000)


class ChatSettingsOut(BaseModel):
    """The settings the namespace's chat turns run with."""

    namespace: str
    enabled: bool
    top_k: int
    rerank: str
    auto_mine: bool
    recall_off_agents: str


def _settings_out(namespace: str, cfg: ChatConfig) -> dict[str, Any]:
    return {
        "namespace": namespace,
        "enabled": cfg.enabled,
        "top_k": cfg.top_k,
        "rerank": cfg.rerank,
        "auto_mine": cfg.auto_mine,
        "recall_off_agents": cfg.recall_off_agents,
    }


@router.get("/v1/chat/settings", response_model=ChatSettingsOut, summary="Chat settings")
def get_chat_settings(scope_in: ScopeQuery, caller: Caller, state: State) -> dict[str, Any]:
    """The chat settings of the caller's namespace: ``[chat]`` with the user's own."""
    ns = _namespace(caller, state, scope_in)
    return _settings_out(ns, state.memory.chat.settings(namespace=ns))


@router.put("/v1/chat/settings", response_model=ChatSettingsOut, summary="Set chat settings")
def put_chat_settings(
    body: ChatSettingsIn, scope_in: ScopeQuery, caller: Caller, state: State
) -> dict[str, Any]:
    """Store the user's own values of the named settings; returns the result."""
    ns = _namespace(caller, state, scope_in)
    values = body.model_dump(exclude_none=True)
    return _settings_out(ns, state.memory.chat.set_settings(values, namespace=ns))


@router.delete("/v1/chat/settings", response_model=ChatSettingsOut, summary="Reset chat settings")
def delete_chat_settings(scope_in: ScopeQuery, caller: Caller, state: State) -> dict[str, Any]:
    """Forget the user's own settings: ``[chat]`` applies again."""
    ns = _namespace(caller, state, scope_in)
    state.memory.chat.reset_settings(namespace=ns)
    return _settings_out(ns, state.memory.chat.settings(namespace=ns))
