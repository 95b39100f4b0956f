"""engram for the OpenAI Agents SDK (``pip install engramdb[openai-agents]``).

Two pieces, usable apart or together:

- ``memory_tools(mem, user_id=...)``: function tools an agent calls itself:
  ``search_memory`` (engram's recall context for a query), ``remember`` (store a memory
  verbatim) and, when ``allow_forget=True``, ``forget`` (tombstone one by id).
- ``EngramSession(session_id, mem, user_id=...)``: the SDK's ``Session`` protocol
  (``get_items``, ``add_items``, ``pop_item``, ``clear_session``). Every item the
  runner saves is kept verbatim, in order, in the session log; each exchange (the user's
  input and the agent's final answer) is also remembered as a recallable memory, so a
  later session, or ``search_memory``, finds it.

The session log lives in its own namespace (``<namespace>/agent-sessions`` unless
``log_namespace`` says otherwise), so raw items such as tool calls never crowd recall in
the memory namespace; the exchanges are stored in the memory namespace itself.

Importing this module imports the SDK; ``import engram`` never does.
"""

from __future__ import annotations

import asyncio
import json
import secrets
from collections.abc import Mapping, Sequence
from typing import Any, Unpack, cast

from agents import FunctionTool, RunContextWrapper, function_tool
from agents.items import TResponseInputItem
from agents.memory import SessionSettings
from agents.memory.session_settings import coerce_session_settings, resolve_session_limit

from engram.errors import EngramError, InvalidInputError, shown
from engram.memory import Memory
from engram.recall.format import memory_line
from engram.records import MemoryRecord
from engram.scoping import OwnerArgs, scoped
from engram.spotlight import DATA_MARKER
from engram.validate import MAX_METADATA_BYTES, positive_int

__all__ = ["EngramSession", "memory_tools"]

#: Tags of what this adapter stores: the session log's items and the exchanges.
ITEM_TAG = "openai-agents:item"
EXCHANGE_TAG = "openai-agents"
#: The suffix of the default log namespace.
LOG_SUFFIX = "/agent-sessions"
#: Items read per page when the whole log is listed or cleared.
PAGE = 500
#: How far back ``add_items`` looks in the log for the user input an answer replies to,
#: when this session object has not seen it (a session reopened between two saves).
LOOKBACK = 50


@scoped
def memory_tools(
    memory: Memory,
    *,
    limit: int | None = None,
    allow_forget: bool = False,
    **who: Unpack[OwnerArgs],
) -> list[FunctionTool]:
    """``search_memory`` and ``remember`` (and ``forget`` with ``allow_forget``) bound to
    ``memory`` and one scope (engram's namespace rule: ``user_id`` names ``user:<id>``).

    A tool that fails with an engram error tells the model what was wrong (the error's
    message); any other failure gets the SDK's generic tool-error text."""
    memory.scope(**who)  # a bad scope fails here, not mid-run
    if limit is not None:  # and a bad limit: the model cannot mend the developer's code
        positive_int("limit", limit)
    scope: dict[str, Any] = dict(who)

    def search_memory(query: str) -> str:
        """Search long-term memory for what is relevant to a query.

        Args:
            query: What to look for, in plain words.
        """
        hits = memory.recall(query, limit=limit, **scope).hits
        if not hits:
            return "No stored memory matches that."
        # The lines of recall's context block without its <memory_context> wrapper: the
        # tool's output is saved in the session log, and engram refuses to store a
        # closing </memory_context> (a context breakout) inside a memory. The data
        # marker and the escaped lines still present them as quoted data (issue 26).
        return "\n".join([DATA_MARKER, *(memory_line(hit.memory) for hit in hits)])

    def remember(content: str) -> str:
        """Store something worth remembering in long-term memory, word for word.

        Args:
            content: The fact, preference or event to remember.
        """
        batch = memory.add_many([{"content": content, **scope}], on_blocked="raise")
        done = batch.items[0]
        if done.record is None:  # on_invalid="raise" leaves no other way
            raise InvalidInputError(done.reason or "the memory was not stored")
        if not done.created:
            return f"Already remembered as memory {done.record.id}."
        return f"Remembered as memory {done.record.id}."

    def forget(memory_id: str) -> str:
        """Forget one memory by its id (the id shown in search results).

        Args:
            memory_id: The id of the memory to forget.
        """
        record = memory.delete(memory_id, **scope)
        return f"Forgot memory {record.id}."

    chosen = [search_memory, remember] + ([forget] if allow_forget else [])
    return [function_tool(f, failure_error_function=_tool_error) for f in chosen]


def _tool_error(ctx: RunContextWrapper[Any], error: Exception) -> str:
    """engram's errors say what was wrong and what to do: the model gets that text."""
    if isinstance(error, EngramError):
        return f"The memory tool failed: {error}"
    return "An error occurred while running the tool. Please try again."


class EngramSession:
    """The Agents SDK's ``Session`` over an engram ``Memory``.

    ``Runner.run(agent, input, session=EngramSession("chat-1", mem, user_id="alice"))``
    loads the session's earlier items before the run and saves the new ones after it.
    Items are kept verbatim (the exact JSON the SDK gave) and returned in order.
    ``clear_session`` empties this session's log; the remembered exchanges stay in
    long-term memory (``mem.delete`` removes one).

    ``session_settings`` is a ``SessionSettings`` or a dict of its fields, as the SDK's
    own sessions take. Items the injection scan objects to are stored flagged (flag
    mode, whatever ``injection_mode`` says) and kept out of recall's context: a session
    log records what was said, it does not refuse it.
    """

    session_settings: SessionSettings | None

    @scoped
    def __init__(
        self,
        session_id: str,
        memory: Memory,
        *,
        log_namespace: str | None = None,
        remember_exchanges: bool = True,
        session_settings: SessionSettings | Mapping[str, Any] | None = None,
        **who: Unpack[OwnerArgs],
    ) -> None:
        if not isinstance(session_id, str) or not session_id.strip():
            raise InvalidInputError(f"session_id must be a non-empty string, got {session_id!r}")
        if not isinstance(memory, Memory):
            raise InvalidInputError(f"memory must be an engram Memory, got {type(memory).__name__}")
        self.session_id = session_id
        self.memory = memory
        self.session_settings = _settings(session_settings)
        self.remember_exchanges = remember_exchanges
        home = memory.scope(**who)
        self._scope: dict[str, Any] = dict(who)
        self.log_namespace = log_namespace or home.namespace + LOG_SUFFIX
        self._log: dict[str, Any] = {**self._scope, "namespace": self.log_namespace}
        memory.scope(**self._log)  # a log namespace engram cannot hold fails here
        self._last_input: str | None = None

    # -- the Session protocol -------------------------------------------------------
    async def get_items(self, limit: int | None = None) -> list[TResponseInputItem]:
        """The session's items in order; with ``limit``, the latest ``limit`` of them."""
        wanted = resolve_session_limit(limit, self.session_settings)
        if wanted is not None and wanted <= 0:
            return []
        records = await asyncio.to_thread(self._newest, wanted)
        return [cast(TResponseInputItem, r.metadata["item"]) for r in reversed(records)]

    async def add_items(self, items: list[TResponseInputItem]) -> None:
        """Append items to the log, verbatim; remember the exchange they complete."""
        if items:
            await asyncio.to_thread(self._add, [dict(cast(Mapping[str, Any], i)) for i in items])

    async def pop_item(self) -> TResponseInputItem | None:
        """Remove and return the latest item (None when the session is empty)."""
        return await asyncio.to_thread(self._pop)

    async def clear_session(self) -> None:
        """Remove every item of this session from the log."""
        await asyncio.to_thread(self._clear)

    # -- the work, on a worker thread -----------------------------------------------
    def _newest(self, count: int | None) -> list[MemoryRecord]:
        """The latest ``count`` items of the log (all with None), newest first."""
        found: list[MemoryRecord] = []
        while count is None or len(found) < count:
            page = PAGE if count is None else min(PAGE, count - len(found))
            rows = self.memory.get_all(
                filters={"session_id": self.session_id, "tags": [ITEM_TAG]},
                limit=page,
                offset=len(found),
                **self._log,
            )
            found.extend(rows)
            if len(rows) < page:
                break
        return found

    def _add(self, items: list[dict[str, Any]]) -> None:
        rows = [self._log_row(i, item) for i, item in enumerate(items)]
        # A session log records what was said: text the injection scan objects to (a
        # user who types "ignore all previous instructions") is stored flagged and kept
        # out of recall's context, never refused (engram issue 27).
        self.memory.add_many(rows, on_blocked="flag")
        if self.remember_exchanges:
            self._remember(items)

    def _log_row(self, position: int, item: dict[str, Any]) -> dict[str, Any]:
        size = len(json.dumps(item, ensure_ascii=False).encode("utf-8"))
        if size > MAX_METADATA_BYTES - 64:
            raise InvalidInputError(
                f"session item {position} ({item.get('type', 'message')}) is {size} bytes of "
                f"JSON, over the {MAX_METADATA_BYTES - 64} bytes one engram session item "
                "holds; nothing of this save was stored. Shorten the tool output, or keep "
                "this session in the SDK's SQLiteSession"
            )
        # The token keeps two equal items (a user who says "yes" twice) two rows: engram
        # merges identical content within a namespace.
        room = self.memory.config.max_content_chars - 40
        content = f"{_rendered(item)[:room]} (session item {secrets.token_hex(8)})"
        return {
            "content": content,
            "session_id": self.session_id,
            "tags": [ITEM_TAG],
            "metadata": {"item": item},
            **self._log,
        }

    def _remember(self, items: list[dict[str, Any]]) -> None:
        """Keep the exchange this save completes: a save that ends with an assistant
        message is the run's final answer (a turn that goes on ends with a tool call)."""
        for item in items:
            if item.get("role") == "user":
                self._last_input = _text(item.get("content")) or self._last_input
        last = items[-1]
        if last.get("role") != "assistant" or last.get("type", "message") != "message":
            return
        answer = _text(last.get("content"))
        question = self._last_input or self._input_from_log()
        if not answer.strip() or not question:
            return
        exchange = [{"role": "user", "content": question}, {"role": "assistant", "content": answer}]
        item = {"content": exchange, "session_id": self.session_id, "tags": [EXCHANGE_TAG]}
        self.memory.add_many([{**item, **self._scope}], on_blocked="flag")
        self._last_input = None

    def _input_from_log(self) -> str | None:
        for record in self._newest(LOOKBACK):
            item = record.metadata["item"]
            if item.get("role") == "user":
                return _text(item.get("content")) or None
        return None

    def _pop(self) -> TResponseInputItem | None:
        newest = self._newest(1)
        if not newest:
            return None
        self.memory.delete(newest[0].id, **self._log)
        return cast(TResponseInputItem, newest[0].metadata["item"])

    def _clear(self) -> None:
        while batch := self._newest(PAGE):
            for record in batch:
                self.memory.delete(record.id, **self._log)


def _settings(given: object) -> SessionSettings:
    """``SessionSettings`` from what a caller gave (None, the dataclass, or a dict)."""
    if given is None:
        return SessionSettings()
    try:
        return coerce_session_settings(cast(Any, given))
    except (TypeError, ValueError) as exc:
        raise InvalidInputError(
            f"session_settings must be a SessionSettings or a dict of its fields "
            f"(limit), got {shown(given)}: {exc}"
        ) from None


def _text(content: object) -> str:
    """The text of an item's content: a string, or its text/refusal parts joined."""
    if isinstance(content, str):
        return content
    if isinstance(content, Sequence):
        parts = [p.get("text") or p.get("refusal") for p in content if isinstance(p, Mapping)]
        return "\n".join(p for p in parts if isinstance(p, str))
    return ""


def _rendered(item: Mapping[str, Any]) -> str:
    """A readable line for an item: ``role: text``, a tool call, or the item's JSON."""
    kind = item.get("type", "message")
    if kind == "message" and "role" in item:
        return f"{item['role']}: {_text(item.get('content'))}"
    if kind == "function_call":
        return f"function_call {item.get('name')}({item.get('arguments')})"
    if kind == "function_call_output":
        output = item.get("output")
        return f"function_call_output: {output if isinstance(output, str) else _text(output)}"
    return f"{kind}: {json.dumps(item, ensure_ascii=False)}"
