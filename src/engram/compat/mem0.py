"""A mem0-compatible door (issue 14, FEATURES E2; issue 27): mem0 2.x's signatures,
shapes, defaults and errors over ``engram.Memory``.

``from engram.compat.mem0 import Memory`` in place of ``from mem0 import Memory`` keeps
mem0 code working: ``add`` stores one memory per message, ``search``/``get_all`` take
mem0's filter grammar (``engram.compat.mem0_filters``) and return mem0's items
(``engram.compat.mem0_items``). docs/compat-mem0.md lists every difference.

Scope: mem0 keeps every memory in one collection and filters on ``user_id``,
``agent_id`` and ``run_id``. engram keeps each owner's memories in a namespace of its
own (the namespace rule, FEATURES C2: ``user:<user_id>``, else ``agent:<agent_id>``,
else ``run:<run_id>``) with the narrower ids as record fields. A read that names a
``user_id`` reads that user's namespace; one that names only an ``agent_id`` or
``run_id`` reads every namespace that can hold such memories (so a memory added with
all three ids is found by ``{"agent_id": ...}`` alone, as on mem0).
"""

from __future__ import annotations

import asyncio
import logging
import os
from collections.abc import Callable, Iterator, Mapping
from typing import Any, TypedDict

from engram.aio import Awaitable, awaitable
from engram.compat.mem0_config import door_options
from engram.compat.mem0_filters import SCOPE_KEYS, Parsed, entity_id, parse
from engram.compat.mem0_ids import legacy_name, legacy_owner, name_of, owner_namespace
from engram.compat.mem0_infer import ACTOR, INHERITED, add_inferred, is_conversation, warn
from engram.compat.mem0_items import (
    expiration,
    expired,
    held,
    history_row,
    ignored,
    item,
    messages_of,
    own_metadata,
    verbatim,
)
from engram.compat.mem0_scores import relevance, score_details
from engram.compat.mem0_seen import RESCOPED, also_found, also_said, forget, keeps, note_again
from engram.config import Config
from engram.core import Scope
from engram.embed import Embedder
from engram.errors import InvalidInputError, NotFoundError, shown
from engram.lifetime import AsyncClosing, Closed, Closing
from engram.memory import Memory as EngramMemory
from engram.records import MemoryRecord, Outcome
from engram.validate import type_name

__all__ = ["AsyncMemory", "Memory", "MemoryNotFound"]

#: mem0 2.x's ``search`` default (mem0/memory/main.py ``Memory.search``).
DEFAULT_TOP_K = 20
#: mem0 2.x's ``search`` default ``threshold`` (on engram's fused score here).
DEFAULT_THRESHOLD = 0.1
#: mem0 2.x's ``get_all`` default.
DEFAULT_LIST_TOP_K = 20
#: How many ranked candidates a search reads per namespace before it filters them:
#: metadata conditions and expiry apply to what recall ranks, not to the whole store.
CANDIDATE_POOL = 200
#: The one ``memory_type`` mem0 2.x takes (``mem0.configs.enums.MemoryType.PROCEDURAL``).
PROCEDURAL = "procedural_memory"
#: The page size of the door's reads through a scope.
PAGE = 1000

log = logging.getLogger(__name__)

#: The scope of mem0's three ids; the fourth argument is the namespace when the ids
#: need an escaped one (``mem0_ids.owner_namespace``), else None.
ScopeOf = Callable[[str | None, str | None, str | None, str | None], Scope]


class Ids(TypedDict):
    """mem0's three scope ids, as keyword arguments of engram's verbs."""

    user_id: str | None
    agent_id: str | None
    run_id: str | None


class MemoryNotFound(NotFoundError, ValueError):  # noqa: N818 - says what it is, like mem0
    """No memory with that id: engram's ``NotFoundError`` that is also the
    ``ValueError`` mem0's ``update``/``delete`` raise."""


def _refuse_unknown(verb: str, unknown: Mapping[str, Any], supported: tuple[str, ...]) -> None:
    ids = sorted(k for k in unknown if k in SCOPE_KEYS)
    if ids:  # mem0 2.x: search and get_all take the ids in filters only
        raise InvalidInputError(
            f"Top-level entity parameters {ids} are not supported in {verb}(). "
            "Use filters={'user_id': '...'} instead."
        )
    if unknown:
        raise InvalidInputError(
            f"{verb}() got unsupported keyword(s) {', '.join(sorted(unknown))}; it takes "
            f"{', '.join(supported)}"
        )


def _holds(namespace: str, user_id: str | None, agent_id: str | None, run_id: str | None) -> bool:
    """Whether the namespace rule can have put a memory with these ids in ``namespace``
    (a memory goes to its widest owner's namespace)."""
    if user_id is not None:
        return namespace in _names("user", user_id)
    if agent_id is not None:
        return namespace in _names("agent", agent_id) or namespace.startswith("user:")
    return namespace in _names("run", run_id or "") or namespace.startswith(("user:", "agent:"))


def _names(kind: str, value: str) -> tuple[str | None, ...]:
    """The namespaces an id's memories can be in: its name, and the plain one an id
    with ``/`` had before it was escaped."""
    return (name_of(kind, value), legacy_name(kind, value))


class Memory(Closing):
    """mem0's ``Memory`` on engram.

    ``Memory()`` opens engram's default store; pass ``path``, ``config`` and
    ``embedder`` as to ``engram.Memory``, or ``memory=`` an ``engram.Memory`` you own
    (it is then yours to close). ``engram`` gives the wrapped native memory. ``scope``
    and ``reaches`` let a server confine the door to a caller's namespaces (the REST
    door passes its key's ``Principal.scope`` and ``may_reach``); ``writes``, the scope
    of an ``add`` (the REST door's ``Principal.acting_scope``: an agent's key stamps its
    agent), is ``scope`` when not given.
    """

    def __init__(
        self,
        path: str | os.PathLike[str] | None = None,
        *,
        memory: EngramMemory | None = None,
        config: Config | None = None,
        embedder: Embedder | None | str = "default",
        scope: ScopeOf | None = None,
        reaches: Callable[[str], bool] | None = None,
        notice: Callable[[str], None] = warn,
        writes: ScopeOf | None = None,
    ) -> None:
        if memory is not None and (path is not None or config is not None):
            raise InvalidInputError("pass either memory= or path=/config=, not both")
        self._owned = memory is None
        self.engram = memory or EngramMemory(path, config=config, embedder=embedder)
        native = self.engram
        self._scope_of: ScopeOf = scope or (
            lambda u, a, r, ns: native.scope(ns, user_id=u, agent_id=a, run_id=r)
        )
        self._writes_of: ScopeOf = writes or self._scope_of
        self._reaches = reaches or (lambda namespace: True)
        # What add(infer=True) kept in view and why: a warning to a library caller; a
        # server logs it (a warning there has no caller to reach, and -W error makes it a 500).
        self._notice = notice
        # mem0 addresses a memory by id alone, engram by namespace and id: the
        # namespaces of ids this door has seen, so a deleted one's history is found.
        self._seen: dict[str, str] = {}

    @classmethod
    def from_config(cls, config_dict: Mapping[str, Any], **options: Any) -> Memory:
        """mem0's ``Memory.from_config``: a mem0 config dict read as engram's settings
        (``compat.mem0_config``); ``options`` (``config=``, ``embedder=``) as to the door."""
        location, options = door_options(config_dict, options)
        return cls(location, **options)

    def close(self) -> None:
        """Close the store if this door opened it."""
        if self._owned:
            self.engram.close()

    # -- writes -------------------------------------------------------------------------
    def add(
        self,
        /,
        messages: Any,
        *,
        user_id: str | None = None,
        agent_id: str | None = None,
        run_id: str | None = None,
        metadata: Mapping[str, Any] | None = None,
        infer: bool = True,
        expiration_date: Any = None,
        memory_type: str | None = None,
        prompt: str | None = None,
        **unknown: Any,
    ) -> dict[str, Any]:
        """Store ``messages``. ``infer=False`` (mem0's verbatim mode) stores one memory
        per message but the system ones, with its ``role`` and its ``name`` as
        ``actor_id``. ``infer=True`` keeps the conversation as one raw memory, runs
        engram's extraction pipeline on it now and lists what it did, as mem0 lists
        what it inferred (``engram.compat.mem0_infer``)."""
        _refuse_unknown(
            "add",
            unknown,
            ("user_id", "agent_id", "run_id", "metadata", "infer", "expiration_date")
            + ("memory_type", "prompt"),
        )
        if memory_type is not None and memory_type != PROCEDURAL:
            # mem0 knows one memory type and refuses any other before it stores anything.
            raise InvalidInputError(
                f"Invalid 'memory_type'. Please pass {PROCEDURAL} to create procedural memories."
            )
        ignored("add", ["memory_type"] if memory_type is not None else [], "memories are verbatim")
        if infer:
            ignored("add", ["prompt"] if prompt is not None else [], "extraction uses its own")
        scope = self._write_scope(user_id, agent_id, run_id)
        base = own_metadata(metadata)
        expires = expiration(expiration_date)
        if expires is not None:
            base["expiration_date"] = expires
        listed = messages_of(messages)
        if infer:
            # The text as given: a string stays the speaker's line the extractor reads.
            said = messages if isinstance(messages, str) else listed
            item_in = {"content": said, **_ids(scope), "metadata": base}
            return add_inferred(self.engram, item_in, scope.namespace, self._seen, self._notice)
        kept = verbatim(listed)
        items, metas = [], []
        for text, role, actor in kept:
            meta = {**base, "role": role}
            if actor is not None:
                meta["actor_id"] = actor
            items.append({"content": text, **_ids(scope), "metadata": meta})
            metas.append(meta)
        done = self.engram.add_many(items, namespace=scope.namespace, on_blocked="raise").items
        results = []
        for (_, role, actor), meta, result in zip(kept, metas, done, strict=True):
            record = result.record
            assert record is not None  # on_blocked/on_invalid raise: a record was stored
            self._seen[record.id] = record.namespace
            event = "ADD" if result.outcome is Outcome.STORED else "NONE"
            if event == "NONE":  # said again: the run and agent it was said in are kept
                note_again(self.engram, record, scope.agent_id, scope.run_id, meta)
            added: dict[str, Any] = {"id": record.id, "memory": record.content, "event": event}
            results.append({**added, "actor_id": actor, "role": role})
        return {"results": results}

    def update(
        self,
        /,
        memory_id: str,
        text: str | None = None,
        metadata: Mapping[str, Any] | None = None,
        expiration_date: Any = ...,
        *,
        data: str | None = None,
        **unknown: Any,
    ) -> dict[str, Any]:
        """Replace a memory's text (``text=``, or mem0's older ``data=``) and merge
        ``metadata`` into its own, as mem0 does; the old text stays in ``history``.
        ``expiration_date=None`` clears the expiry."""
        _refuse_unknown("update", unknown, ("text", "metadata", "expiration_date", "data"))
        if data is not None:  # mem0 logs the same notice and still takes it
            log.warning(
                "mem0 door: the `data` argument to update() is deprecated (as in mem0); "
                "use `text` instead"
            )
            if text is None:
                text = data
        if text is None and metadata is None and expiration_date is ...:
            raise InvalidInputError(
                "At least one of text, metadata, or expiration_date must be provided."
            )
        record = self._locate(memory_id)
        meta: dict[str, Any] | None = None
        if metadata is not None or expiration_date is not ...:
            meta = dict(record.metadata)
            meta.update(own_metadata(metadata))  # mem0 merges; the ids stay as they are
            if expiration_date is not ...:
                expires = expiration(expiration_date)
                if expires is None:
                    meta.pop("expiration_date", None)
                else:
                    meta["expiration_date"] = expires
        self.engram.update(memory_id, text, namespace=record.namespace, metadata=meta)
        return {"message": "Memory updated successfully!"}

    def delete(self, memory_id: str) -> dict[str, Any]:
        """Delete one memory (engram tombstones it; ``history`` keeps the trail)."""
        try:
            record = self._locate(memory_id)
        except MemoryNotFound:  # mem0's delete words it without the update's advice
            raise MemoryNotFound(f"Memory with id {memory_id} not found") from None
        self.engram.delete(memory_id, namespace=record.namespace)
        return {"message": "Memory deleted successfully!"}

    def delete_all(
        self,
        /,
        *,
        user_id: str | None = None,
        agent_id: str | None = None,
        run_id: str | None = None,
        **unknown: Any,
    ) -> dict[str, Any]:
        """Delete every memory of a user, agent or run, one by one as mem0 does (each
        keeps its ``history``, ending in ``DELETE``). Like mem0 it refuses to run
        without a scope: ``reset`` empties everything."""
        _refuse_unknown("delete_all", unknown, SCOPE_KEYS)
        if user_id is None and agent_id is None and run_id is None:
            raise InvalidInputError(
                "At least one filter is required to delete all memories. If you want to "
                "delete all memories, use the `reset()` method."
            )
        ids = _given(user_id, agent_id, run_id)
        for namespace in self._read_namespaces(ids):
            while page := self.engram.get_all(namespace=namespace, **ids, limit=PAGE):
                for record in page:
                    self._seen[record.id] = namespace
                    if not keeps(self.engram, record, ids):  # said in another run too
                        self.engram.delete(record.id, namespace=namespace)
            for record in also_said(self.engram, namespace, ids):  # said again here
                forget(self.engram, record, ids)
        return {"message": "Memories deleted successfully!"}

    def reset(self) -> None:
        """Erase every namespace of the store (mem0's reset: memories and history), one
        audited erase each; the audit rows stay."""
        self.engram.erasure.erase_everything(actor=ACTOR)
        self._seen.clear()

    # -- reads --------------------------------------------------------------------------
    def get(self, memory_id: str) -> dict[str, Any] | None:
        """One memory as mem0's item (``score`` None), or None when there is none."""
        try:
            return item(self._locate(memory_id), scored=True)
        except NotFoundError:
            return None

    def get_all(
        self,
        /,
        *,
        filters: Mapping[str, Any] | None = None,
        top_k: int | None = None,
        show_expired: bool = False,
        limit: int | None = None,
        **unknown: Any,
    ) -> dict[str, Any]:
        """The memories of a scope that match ``filters``, newest first."""
        _refuse_unknown("get_all", unknown, ("filters", "top_k", "show_expired", "limit"))
        k = _top_k(top_k, limit, DEFAULT_LIST_TOP_K)
        parsed, ids = _scope(filters)
        found: list[MemoryRecord] = []
        for namespace in self._read_namespaces(ids):
            # Each namespace lists newest first: its first k matches are all it can add.
            mine = 0
            for record in self._pages(namespace, ids):
                if mine >= k:
                    break
                if _keep(record, parsed, show_expired):
                    self._seen[record.id] = namespace
                    found.append(record)
                    mine += 1
            # A text said again under the scope read (mem0 keeps that scope's copy).
            found += [
                r for r in also_said(self.engram, namespace, ids) if _keep(r, parsed, show_expired)
            ]
        found.sort(key=lambda r: r.created_at, reverse=True)
        return {"results": [item(r, scored=False) for r in found[:k]]}

    def _pages(self, namespace: str, ids: Ids) -> Iterator[MemoryRecord]:
        offset = 0
        while True:
            page = self.engram.get_all(namespace=namespace, **ids, limit=PAGE, offset=offset)
            yield from page
            if len(page) < PAGE:
                return
            offset += PAGE

    def search(
        self,
        /,
        query: str,
        *,
        filters: Mapping[str, Any] | None = None,
        top_k: int | None = None,
        threshold: float | None = DEFAULT_THRESHOLD,
        rerank: bool = False,
        explain: bool = False,
        show_expired: bool = False,
        limit: int | None = None,
        **unknown: Any,
    ) -> dict[str, Any]:
        """The ``top_k`` memories nearest ``query`` in a scope that match ``filters``,
        each with its ``score``; ``threshold`` drops hits whose similarity to the query
        is below it (``relevance``, as mem0 gates it), and
        ``explain`` adds each hit's ``score_details``: mem0's seven keys, then
        engram's own breakdown (``score_details``).

        Like mem0, it returns the nearest memories (engram's abstain decision is off
        here); ``rerank=True`` applies a configured reranker (``[recall] rerank``)."""
        _refuse_unknown(
            "search",
            unknown,
            ("filters", "top_k", "threshold", "rerank", "explain", "show_expired", "limit"),
        )
        k = _top_k(top_k, limit, DEFAULT_TOP_K)
        floor = DEFAULT_THRESHOLD if threshold is None else threshold
        if isinstance(floor, bool) or not isinstance(floor, int | float) or not 0 <= floor <= 1:
            raise InvalidInputError(
                f"Invalid threshold: {shown(floor)}. Must be between 0 and 1 (inclusive)."
            )
        if not isinstance(query, str) or not query:
            raise InvalidInputError("Invalid query: must be a non-empty string.")
        if not query.strip():
            raise InvalidInputError("Invalid query: cannot be empty or whitespace-only.")
        parsed, ids = _scope(filters)
        # derived27's one-of-a-family rule is off: the door leaves out the conversation
        # an inferred fact came from, so keeping that source would hide the fact.
        overrides: dict[str, Any] = {"abstain": False, "derived_once": False}
        if not rerank:
            overrides["rerank"] = "none"
        pool = max(k, CANDIDATE_POOL)
        results: list[dict[str, Any]] = []
        for namespace in self._read_namespaces(ids):
            hits = self.engram.search(query, namespace=namespace, **ids, limit=pool, **overrides)
            also = also_found(self.engram, namespace, ids, query, pool, overrides)
            for hit, shown_as in [(h, h.memory) for h in hits] + also:
                if relevance(hit.breakdown) < floor or not _keep(shown_as, parsed, show_expired):
                    continue
                self._seen[hit.memory.id] = namespace
                found = item(shown_as, scored=True, score=hit.score)
                if explain:
                    found["score_details"] = score_details(hit.breakdown, hit.score, floor)
                results.append(found)
        results.sort(key=lambda r: r["score"], reverse=True)
        return {"results": results[:k]}

    def history(self, memory_id: str) -> list[dict[str, Any]]:
        """Every change of a memory, oldest first, in mem0's history shape; ``[]`` for
        an id with no history (as mem0)."""
        try:
            record = self._locate(memory_id, include_deleted=True)
        except NotFoundError:
            return []
        entries = self.engram.history(memory_id, namespace=record.namespace)
        # The metadata an inferred fact got is part of mem0's one ADD, not a change; a
        # change of it held for review changed nothing yet (mem0 2.2.1's add never
        # changes an older memory, so its history has no such row).
        hidden = (INHERITED, RESCOPED)
        return [history_row(e) for e in entries if e.event not in hidden and not held(e)]

    # -- helpers ------------------------------------------------------------------------
    def _write_scope(self, user_id: str | None, agent_id: str | None, run_id: str | None) -> Scope:
        """Where a write goes (mem0 2.x refuses a write without an owner)."""
        if user_id is None and agent_id is None and run_id is None:
            raise InvalidInputError(
                "At least one of 'user_id', 'agent_id', or 'run_id' must be provided."
            )
        ids = _given(user_id, agent_id, run_id)
        return self._scope(ids["user_id"], ids["agent_id"], ids["run_id"], self._writes_of)

    def _scope(
        self,
        user_id: str | None,
        agent_id: str | None,
        run_id: str | None,
        of: ScopeOf | None = None,
    ) -> Scope:
        """The scope of mem0's ids, in an escaped namespace when an id needs one; an id
        with ``/`` whose memories the door stored under its plain name before
        (``mem0_ids.legacy_owner``) stays there, so they are still found."""
        namespace = owner_namespace(user_id, agent_id, run_id)
        legacy = legacy_owner(user_id, agent_id, run_id)
        if legacy is not None and self.engram.store.memories.count(legacy) > 0:
            namespace = None  # the plain rule names ``legacy``
        return (of or self._scope_of)(user_id, agent_id, run_id, namespace)

    def _read_namespaces(self, ids: Ids) -> list[str]:
        """The namespaces a read of these ids looks through (see the module docstring)."""
        user_id, agent_id, run_id = ids["user_id"], ids["agent_id"], ids["run_id"]
        if user_id is not None:
            return [self._scope(user_id, agent_id, run_id).namespace]
        live = self.engram.store.memories.namespaces()
        return [ns for ns in live if self._reaches(ns) and _holds(ns, user_id, agent_id, run_id)]

    def _locate(self, memory_id: str, *, include_deleted: bool = False) -> MemoryRecord:
        """The memory ``memory_id`` in a namespace this door reaches: one it saw it in,
        else the first live namespace holding it. ``MemoryNotFound`` otherwise, and for
        what mem0 would not have: the conversation ``add(infer=True)`` keeps, and a
        fact the pipeline closed (reported as ``DELETE``) unless ``include_deleted``."""
        if not isinstance(memory_id, str):
            raise InvalidInputError(f"memory_id must be a string, got {type_name(memory_id)}")
        memories = self.engram.store.memories
        known = self._seen.get(memory_id)
        places = [known] if known is not None else []
        places += [ns for ns in memories.namespaces() if ns != known and self._reaches(ns)]
        for namespace in places:
            found = memories.get(namespace, memory_id, include_deleted=include_deleted)
            if found is not None and is_conversation(found):
                break  # mem0 never stored it: the door has no such memory
            if found is not None and (include_deleted or found.superseded_by is None):
                self._seen[memory_id] = namespace
                return found
        raise MemoryNotFound(
            f"Memory with id {memory_id} not found. Please provide a valid 'memory_id'"
        )


def _given(user_id: Any, agent_id: Any, run_id: Any) -> Ids:
    """The ids a caller passed, read as mem0 reads them (``entity_id``)."""
    return Ids(
        user_id=entity_id(user_id, "user_id"),
        agent_id=entity_id(agent_id, "agent_id"),
        run_id=entity_id(run_id, "run_id"),
    )


def _ids(scope: Scope) -> Ids:
    return Ids(user_id=scope.user_id, agent_id=scope.agent_id, run_id=scope.run_id)


def _keep(record: MemoryRecord, parsed: Parsed, show_expired: bool) -> bool:
    """Whether a memory of the scope is one mem0 would list and passes the metadata
    condition and mem0's expiry (the promoted ``role``/``actor_id`` are metadata keys
    here, as in mem0's payload)."""
    if is_conversation(record) or record.superseded_by is not None:
        return False  # kept by engram, never stored (or deleted) on mem0
    if not show_expired and expired(record):
        return False
    return parsed.condition is None or parsed.condition(record.metadata)


def _top_k(top_k: int | None, limit: int | None, default: int) -> int:
    if top_k is not None and limit is not None and top_k != limit:
        raise InvalidInputError("pass top_k or its older name limit, not both")
    chosen = top_k if top_k is not None else limit
    chosen = default if chosen is None else chosen
    if isinstance(chosen, bool) or not isinstance(chosen, int) or chosen < 0:
        raise InvalidInputError(f"Invalid top_k: {shown(chosen)}. Must be a non-negative integer.")
    return chosen


def _scope(filters: Mapping[str, Any] | None) -> tuple[Parsed, Ids]:
    """The parsed filter and the scope ids it names; mem0 2.x refuses a read without
    one."""
    parsed = parse(filters)
    ids = Ids(
        user_id=parsed.scope.get("user_id"),
        agent_id=parsed.scope.get("agent_id"),
        run_id=parsed.scope.get("run_id"),
    )
    if all(v is None for v in ids.values()):
        raise InvalidInputError(
            "filters must contain at least one of: user_id, agent_id, run_id. "
            "Example: filters={'user_id': 'u1'}"
        )
    return parsed, ids


# mem0 ships ``AsyncMemory`` beside ``Memory`` with the same verbs and shapes, awaited
# (``await m.add(...)``); async agent code switching over changed only its import and
# failed at it (new-user pass, round three). Each verb runs the sync door's own method
# on a worker thread, as ``engram.AsyncMemory`` does, so there is no second copy of the
# mem0 mapping and the event loop never blocks on the store or the embedder. It lives
# here, not in a module of its own, because it wraps this module's Memory and mem0's
# import path (``from mem0 import AsyncMemory``) is this module's.
class AsyncMemory(Awaitable[Memory], AsyncClosing):
    """mem0's ``AsyncMemory``: ``AsyncMemory()`` opens engram's default store; ``path``,
    ``config``, ``embedder`` and ``memory=`` as ``engram.compat.mem0.Memory`` takes
    them. ``engram`` gives the wrapped native memory; ``async with`` closes it."""

    def __init__(self, path: str | os.PathLike[str] | None = None, **options: Any) -> None:
        # The options are the sync door's own (memory=, config=, embedder=), checked there.
        super().__init__(Memory(path, **options))
        self.engram = self.sync.engram

    @classmethod
    def from_config(cls, config_dict: Mapping[str, Any], **options: Any) -> AsyncMemory:
        """mem0's ``AsyncMemory.from_config`` (see ``Memory.from_config``)."""
        location, options = door_options(config_dict, options)
        return cls(location, **options)

    add = awaitable(Memory.add)
    search = awaitable(Memory.search)
    get = awaitable(Memory.get)
    get_all = awaitable(Memory.get_all)
    update = awaitable(Memory.update)
    delete = awaitable(Memory.delete)
    delete_all = awaitable(Memory.delete_all)
    history = awaitable(Memory.history)
    reset = awaitable(Memory.reset)

    def close(self) -> Closed:
        """Close the store if this door opened it, now: mem0's ``AsyncMemory.close()``
        is a plain method, so mem0 code calls it without ``await`` (a coroutine here
        left the store open and warned); ``await m.close()`` works too."""
        self.sync.close()
        return Closed()

    async def _aclose(self) -> None:
        await asyncio.to_thread(self.sync.close)
