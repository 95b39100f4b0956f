"""engram for LangChain (``pip install engramdb[langchain]``): a retriever and a chat
message history.

``EngramRetriever`` answers a query with engram's recall as LangChain ``Document``s,
ready for an LCEL chain::

    retriever = EngramRetriever(memory=Memory(), user_id="alice", k=4)
    chain = {"context": retriever, "question": RunnablePassthrough()} | prompt | llm

``EngramChatMessageHistory`` keeps a conversation as engram memories: one memory per
message, of type ``message``, with the session id on the record, so the conversation
is recallable later (``mem.search(..., filters={"session_id": ...})``) and engram's
recall treats it as one session. Each message is kept exactly (LangChain's own message
dict, roles, ids and tool calls included) in the memory's metadata; its content reads
``user: <text>`` then a line ``[session <id> #<n>]``. The turn number is part of what
engram hashes, so a message sent twice in a conversation is stored twice, in order.
A message the injection scan objects to is stored flagged, not refused: a chat history
records what was said, and recall keeps flagged text out of its context.

LangChain marks ``BaseChatMessageHistory`` and ``RunnableWithMessageHistory``
deprecated (removal in langchain-core 2.0, in favour of LangGraph persistence: see
``engram.adapters.langgraph``); they still work, and LangChain warns when they are used.

Importing this module imports langchain-core; ``import engram`` never does.
"""

from __future__ import annotations

import asyncio
import itertools
from collections.abc import Iterator, Mapping, Sequence
from typing import Any, Unpack

from langchain_core.callbacks import (
    AsyncCallbackManagerForRetrieverRun,
    CallbackManagerForRetrieverRun,
)
from langchain_core.chat_history import BaseChatMessageHistory
from langchain_core.documents import Document
from langchain_core.messages import BaseMessage, message_to_dict, messages_from_dict
from langchain_core.retrievers import BaseRetriever
from pydantic import Field

from engram.adapters.escape import escaped
from engram.errors import InvalidInputError, StoreError, shown
from engram.memory import Memory
from engram.recall.format import flags, untrusted
from engram.records import Hit, MemoryRecord, Outcome
from engram.scoping import OwnerArgs, scoped
from engram.validate import Transcript, positive_int

__all__ = ["EngramChatMessageHistory", "EngramRetriever"]

#: The tag on every memory that is a chat message of this adapter.
CHAT_TAG = "langchain-chat"
#: The metadata key that holds the message.
META = "langchain"
#: Memories read per ``get_all`` page.
PAGE = 1000
#: LangChain message types -> the role written in the memory's content.
ROLES = {
    "human": "user",
    "HumanMessageChunk": "user",
    "ai": "assistant",
    "AIMessageChunk": "assistant",
    "system": "system",
    "SystemMessageChunk": "system",
    "tool": "tool",
    "ToolMessageChunk": "tool",
}
#: How many turns ``add_messages`` tries for one message when a concurrent writer
#: stored the same message at the turn it counted.
RETRIES = 3
#: The most hits the retriever asks one recall for while it skips flagged memories.
MAX_RECALL = 1000


class EngramRetriever(BaseRetriever):
    """A LangChain retriever over engram's recall.

    ``k`` hits (engram's default, seed 000's 4, when None) from the namespace named by
    ``namespace``/``user_id``/``agent_id``/``run_id`` (engram's namespace rule),
    narrowed by engram's ``filters``; ``search_kwargs`` are recall overrides
    (``{"strategy": "bm25"}``, ``{"min_relevance": 0.3}``, ``{"abstain": True}``...).
    Keywords given to ``invoke`` win over both (``invoke(q, k=1)``). Each ``Document``
    has the memory's content and, in ``metadata``, its ``id``, ``score``, ``type``,
    ``created_at`` and the rest of the record. Memories the injection scan flagged are
    left out, as they are left out of recall's context block.
    """

    memory: Memory
    k: int | None = Field(default=None, ge=1, le=10_000)
    namespace: str | None = None
    user_id: str | None = None
    agent_id: str | None = None
    run_id: str | None = None
    filters: dict[str, Any] | None = None
    search_kwargs: dict[str, Any] = Field(default_factory=dict)

    def _get_relevant_documents(
        self, query: str, *, run_manager: CallbackManagerForRetrieverRun, **kwargs: Any
    ) -> list[Document]:
        """The documents for ``query``; call-time ``kwargs`` (``invoke(q, k=1)``,
        ``filters=``, recall overrides) win over the retriever's own settings, as
        LangChain's ``VectorStoreRetriever`` merges them over its ``search_kwargs``."""
        wanted = {**self.search_kwargs, **kwargs}
        wanted.pop("verbose", None)  # LangChain's tracing flag rides along in kwargs
        k = wanted.pop("k", self.k)
        if k is not None:  # named as the caller named it, not as recall's limit
            positive_int("k", k)
        filters = wanted.pop("filters", wanted.pop("filter", self.filters))
        # A retriever answers with its top k, as a vector store's does: recall's own hits
        # first, then the nearest others; engram abstains (FEATURES E7) only when asked
        # to, with search_kwargs={"abstain": True}.
        asked = wanted.pop("abstain", None)
        if asked is not None:
            wanted["abstain"] = asked
        return [
            document_of(hit)
            for hit in _shown_hits(
                self.memory,
                query,
                k,
                pad=not asked,
                namespace=self.namespace,
                user_id=self.user_id,
                agent_id=self.agent_id,
                run_id=self.run_id,
                filters=filters,
                **wanted,
            )
        ]

    async def _aget_relevant_documents(
        self, query: str, *, run_manager: AsyncCallbackManagerForRetrieverRun, **kwargs: Any
    ) -> list[Document]:
        """``_get_relevant_documents`` on a worker thread."""
        return await asyncio.to_thread(
            self._get_relevant_documents, query, run_manager=run_manager.get_sync(), **kwargs
        )


def _shown_hits(
    memory: Memory, query: str, k: int | None, *, pad: bool, **recall: Any
) -> list[Hit]:
    """The best ``k`` hits that may reach a prompt: recall's own hits first, in its
    order, then (``pad``) the nearest others up to ``k``.

    Recall's abstain decision (FEATURES E7) also drops hits far weaker than the best
    (issue 24's relative floor). Asking recall with ``abstain=False`` instead ranked those
    by score alone, so a memory recall shows could fall below unrelated padding and
    out of the top ``k`` (round twenty-five: "When is the Kyoto conference?" lost the
    conference to a hotel budget and a passport). So recall answers first, exactly as
    ``mem.recall`` does, and only the places it leaves empty are filled."""
    wanted = k if k is not None else memory.config.recall.limit
    hits = _clean_hits(memory, query, wanted, **recall)
    if pad and len(hits) < wanted:
        given = {hit.memory.id for hit in hits}
        nearest = _clean_hits(memory, query, wanted, **{**recall, "abstain": False})
        hits += [hit for hit in nearest if hit.memory.id not in given][: wanted - len(hits)]
    return hits


def _clean_hits(memory: Memory, query: str, wanted: int, **recall: Any) -> list[Hit]:
    """Recall's best ``wanted`` hits but the flagged ones. A memory the injection scan
    flagged (a chat message stored in flag mode) stays out, as it stays out of recall's
    context block (``recall.flagged_context = "omit"``, the default); recall is asked
    for more until ``wanted`` clean hits are found or nothing is left."""
    omit = memory.config.recall.flagged_context == "omit"
    limit = wanted
    while True:
        hits = memory.recall(query, limit=limit, **recall).hits
        kept = [h for h in hits if not (omit and flags(h.memory))]
        if len(kept) >= wanted or len(hits) < limit or limit >= MAX_RECALL:
            return kept[:wanted]
        limit = min(limit * 4, MAX_RECALL)


def document_of(hit: Hit) -> Document:
    """A recalled memory as a LangChain ``Document``."""
    record = hit.memory
    metadata: dict[str, Any] = {
        "id": record.id,
        "score": hit.score,
        "namespace": record.namespace,
        "type": record.type.value,
        "category": record.category.value if record.category is not None else None,
        "tags": list(record.tags),
        "created_at": record.created_at.isoformat(),
        "updated_at": record.updated_at.isoformat(),
        "user_id": record.user_id,
        "agent_id": record.agent_id,
        "run_id": record.run_id,
        "session_id": record.session_id,
        "metadata": record.metadata,
    }
    reasons = flags(record)
    # Only with recall.flagged_context = "mark" does a flagged memory get here: its text
    # goes out inside the same untrusted marker as in recall's context block.
    content = untrusted(record.content, reasons) if reasons else record.content
    return Document(id=record.id, page_content=content, metadata=metadata)


class EngramChatMessageHistory(BaseChatMessageHistory):
    """A LangChain chat message history stored in engram, one memory per message.

    ``session_id`` names the conversation; ``namespace``/``user_id``/``agent_id`` name
    where it is stored (engram's namespace rule), so ``user_id="alice"`` keeps all of
    Alice's conversations in ``user:alice``, each on its own session id.
    """

    @scoped
    def __init__(
        self,
        memory: Memory,
        session_id: str,
        **who: Unpack[OwnerArgs],
    ) -> None:
        super().__init__()
        if not isinstance(memory, Memory):
            raise InvalidInputError(f"memory must be an engram Memory, got {shown(memory)}")
        if not isinstance(session_id, str) or not session_id.strip():
            raise InvalidInputError(
                f"session_id must be a non-empty string, got {shown(session_id)}"
            )
        self.memory = memory
        self.session_id = session_id
        self._scope: dict[str, Any] = dict(who)
        memory.scope(**self._scope)  # a bad namespace fails here, not on the first message

    @property
    def messages(self) -> list[BaseMessage]:  # type: ignore[override]
        """The conversation, oldest message first."""
        # Two writers appending at once can give two messages one turn number: both
        # are kept, in the order they were stored.
        stored = sorted(self._stored(), key=lambda s: (s[0], s[2].created_at, s[2].id))
        return messages_from_dict([message for _, message, _ in stored])

    def add_messages(self, messages: Sequence[BaseMessage]) -> None:
        """Store ``messages`` after the ones already in the conversation, in order."""
        for message in messages:
            if not isinstance(message, BaseMessage):
                raise InvalidInputError(
                    f"messages must be LangChain messages, got {shown(message)}"
                )
        turn = 1 + max((turn for turn, _, _ in self._stored()), default=0)
        for message in messages:
            turn = self._append(message, turn) + 1

    def _append(self, message: BaseMessage, turn: int) -> int:
        """Store one message at ``turn``, or at the next turn free of its content;
        returns the turn it took. One message at a time, so that a taken turn never
        puts a later message before an earlier one."""
        for attempt in range(turn, turn + RETRIES):
            batch = self.memory.add_many(
                [self._item(message, attempt)],
                namespace=self._scope.get("namespace"),
                # A chat history records what was said: text the injection scan objects
                # to is stored flagged, out of recall's context, not refused (issue 27).
                on_blocked="flag",
            )
            # engram hands back a duplicate when the content (role, text, session, turn)
            # is stored already: another writer took this turn with the same text.
            if batch.items[0].outcome is not Outcome.DUPLICATE:
                return attempt
        raise StoreError(
            f"could not append a message to session {self.session_id!r}: turns "
            f"{turn}-{turn + RETRIES - 1} all hold the same message already; try again"
        )

    def clear(self) -> None:
        """Delete the conversation's messages (engram tombstones them; their history
        stays until ``mem.admin.purge``)."""
        for _, _, record in list(self._stored()):
            self.memory.delete(record.id, namespace=record.namespace)

    # -- helpers --------------------------------------------------------------------
    def _item(self, message: BaseMessage, turn: int) -> dict[str, Any]:
        """The ``add_many`` item of one message at position ``turn``."""
        role = ROLES.get(message.type, getattr(message, "role", None) or message.type)
        marker = f"[session {escaped(self.session_id)} #{turn}]"
        text = str(message.text).strip()
        return {
            # The adapter frames the turn, so its label is engram's (a Transcript): a
            # "user: " line inside the message's own text stays that text's.
            "content": Transcript(
                f"{role}: {text}\n{marker}" if text else f"{role}:\n{marker}", (0,)
            ),
            "user_id": self._scope.get("user_id"),
            "agent_id": self._scope.get("agent_id"),
            "session_id": self.session_id,
            "type": "message",
            "category": "episodic",
            "tags": [CHAT_TAG],
            "metadata": {META: {"turn": turn, "message": message_to_dict(message)}},
        }

    def _stored(self) -> Iterator[tuple[int, dict[str, Any], MemoryRecord]]:
        """(turn, message dict, memory) of every stored message of the session."""
        for offset in itertools.count(0, PAGE):
            page = self.memory.get_all(
                filters={"session_id": self.session_id, "tags": [CHAT_TAG]},
                limit=PAGE,
                offset=offset,
                **self._scope,
            )
            for record in page:
                carried = record.metadata.get(META)
                if isinstance(carried, Mapping) and isinstance(carried.get("turn"), int):
                    yield carried["turn"], carried["message"], record
            if len(page) < PAGE:
                return
