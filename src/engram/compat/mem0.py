"""A mem0-compatible door (issue 14, FEATURES E2): mem0's signatures and shapes over
``engram.Memory``.

``from engram.compat.mem0 import Memory`` in place of ``from mem0 import Memory`` keeps
mem0 code working: ``add`` and ``search`` return ``{"results": [...]}``, filters take
mem0's grammar (``engram.compat.mem0_filters``), ``update`` takes ``text=`` or the
older ``data=``, ``delete_all`` needs a scope and ``reset`` empties the store (both
through engram's audited erase, ``mem.erasure``). Errors stay engram's
(``EngramError``; ``InvalidInputError`` is also a ``ValueError``, which is what mem0
raises). docs/compat-mem0.md lists every difference.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from typing import Any

from engram.compat.mem0_filters import SCOPE_KEYS, Parsed, parse
from engram.config import Config
from engram.embed import Embedder
from engram.errors import InvalidInputError, NotFoundError, shown
from engram.memory import Memory as EngramMemory
from engram.records import HistoryEntry, MemoryRecord, Outcome, iso
from engram.validate import positive_int, type_name

__all__ = ["Memory"]

#: mem0's ``search`` default (``top_k``, its current name for ``limit``).
DEFAULT_TOP_K = 10
#: mem0's ``get_all`` default.
DEFAULT_LIST_TOP_K = 100
#: How many ranked candidates a search with metadata conditions reads before it
#: filters them: the conditions apply to what recall ranks, not to the whole store.
CANDIDATE_POOL = 200
#: Who the erase audit names for this door's ``delete_all`` and ``reset``.
ACTOR = "mem0-compat"
#: engram history events -> mem0's.
_EVENTS = {"create": "ADD", "update": "UPDATE", "delete": "DELETE"}


def _refuse_unknown(verb: str, unknown: Mapping[str, Any], supported: Sequence[str]) -> None:
    if unknown:
        names = ", ".join(sorted(unknown))
        raise InvalidInputError(
            f"{verb}() got unsupported keyword(s) {names}; it takes {', '.join(supported)}"
        )


def _item(record: MemoryRecord) -> dict[str, Any]:
    """mem0's memory item: the text as ``memory``, its metadata, the ids that are set."""
    out: dict[str, Any] = {
        "id": record.id,
        "memory": record.content,
        "hash": record.content_hash,
        "metadata": dict(record.metadata),
        "created_at": iso(record.created_at),
        "updated_at": iso(record.updated_at),
    }
    for key in SCOPE_KEYS:
        if getattr(record, key) is not None:
            out[key] = getattr(record, key)
    return out


def _content(messages: object) -> str | list[Mapping[str, Any]]:
    """mem0's ``messages``: a string, one ``{role, content}`` dict, or a list of them."""
    if isinstance(messages, str):
        return messages
    if isinstance(messages, Mapping):
        return [messages]
    if isinstance(messages, list | tuple) and all(isinstance(m, Mapping) for m in messages):
        return list(messages)
    raise InvalidInputError(
        "messages must be a string, a {'role', 'content'} dict or a list of them, "
        f"got {type_name(messages)}"
    )


class Memory:
    """mem0's ``Memory`` on engram.

    ``Memory()`` opens engram's default store; pass ``path``, ``config`` and
    ``embedder`` as to ``engram.Memory``, or ``memory=`` an ``engram.Memory`` you own
    (it is then yours to close). ``engram`` gives the wrapped native memory.
    """

    def __init__(
        self,
        path: str | os.PathLike[str] | None = None,
        *,
        memory: EngramMemory | None = None,
        config: Config | None = None,
        embedder: Embedder | None | str = "default",
    ) -> None:
        if memory is not None and (path is not None or config is not None):
            raise InvalidInputError("pass either memory= or path=/config=, not both")
        self._owned = memory is None
        self.engram = memory or EngramMemory(path, config=config, embedder=embedder)
        # mem0 addresses a memory by id alone; engram by namespace and id. The
        # namespaces of ids this door has seen, so get/update/delete find them at once.
        self._seen: dict[str, str] = {}

    def close(self) -> None:
        """Close the store if this door opened it."""
        if self._owned:
            self.engram.close()

    def __enter__(self) -> Memory:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- writes -------------------------------------------------------------------------
    def add(
        self,
        messages: Any,
        *,
        user_id: str | None = None,
        agent_id: str | None = None,
        run_id: str | None = None,
        metadata: Mapping[str, Any] | None = None,
        infer: bool = True,
        **unknown: Any,
    ) -> dict[str, Any]:
        """Store ``messages`` verbatim (event ``ADD``, or ``NONE`` when the same text is
        already stored there); with ``infer=True`` also run the extraction pipeline on
        it now and report each fact it wrote (event ``ADD``). ``"infer"`` in the result
        says what the pipeline did."""
        _refuse_unknown("add", unknown, ("user_id", "agent_id", "run_id", "metadata", "infer"))
        item = {
            "content": _content(messages),
            "user_id": user_id,
            "agent_id": agent_id,
            "run_id": run_id,
            "metadata": metadata,
        }
        [done] = self.engram.add_many([item], on_blocked="raise").items
        record = done.record
        assert record is not None  # on_blocked/on_invalid raise: a record was stored
        self._seen[record.id] = record.namespace
        new = done.outcome is Outcome.STORED
        results = [{"id": record.id, "memory": record.content, "event": "ADD" if new else "NONE"}]
        out: dict[str, Any] = {"results": results}
        if infer:
            out["infer"] = self._infer(record, new, results)
        return out

    def _infer(self, record: MemoryRecord, new: bool, results: list[dict[str, Any]]) -> str:
        """Run the memory's extraction job now; append the facts it wrote."""
        if not self.engram.config.pipeline.enabled:
            return "skipped: the extraction pipeline is off ([pipeline] enabled = false)"
        if not new:
            return "skipped: the same text was stored and processed before"
        jobs = self.engram.jobs.list(kind="extract", namespace=record.namespace, limit=1000)
        mine = [j for j in jobs if j.memory_id == record.id]
        if not mine:
            return "skipped: no extraction job was queued for this memory"
        self.engram.jobs.process_pending()
        job = self.engram.jobs.get(mine[0].id, namespace=record.namespace)
        if job.status != "completed" or job.result is None:
            return f"queued: the extraction job is {job.status} ({job.error or 'not run yet'})"
        for fact_id in job.result.get("created", []):
            try:
                fact = self.engram.get(fact_id, namespace=record.namespace)
            except NotFoundError:
                continue  # a later job of the same run already superseded it
            self._seen[fact.id] = fact.namespace
            results.append({"id": fact.id, "memory": fact.content, "event": "ADD"})
        return f"ran: {len(results) - 1} fact(s) written ({job.result.get('mode', 'full')} mode)"

    def update(
        self,
        memory_id: str,
        text: str | None = None,
        *,
        data: str | None = None,
        metadata: Mapping[str, Any] | None = None,
        **unknown: Any,
    ) -> dict[str, Any]:
        """Replace a memory's text (``text=``, or mem0's older ``data=``); the old text
        stays in ``history``."""
        _refuse_unknown("update", unknown, ("text", "data", "metadata"))
        if text is not None and data is not None and text != data:
            raise InvalidInputError("pass the new text once: text= or data=, not both")
        new_text = text if text is not None else data
        if new_text is None and metadata is None:
            raise InvalidInputError("update needs the new text: update(memory_id, text='...')")
        namespace = self._namespace_of(memory_id)
        self.engram.update(memory_id, new_text, namespace=namespace, metadata=metadata)
        return {"message": "Memory updated successfully!"}

    def delete(self, memory_id: str) -> dict[str, Any]:
        """Delete one memory (engram tombstones it; ``history`` keeps the trail)."""
        self.engram.delete(memory_id, namespace=self._namespace_of(memory_id))
        return {"message": "Memory deleted successfully!"}

    def delete_all(
        self,
        *,
        user_id: str | None = None,
        agent_id: str | None = None,
        run_id: str | None = None,
        **unknown: Any,
    ) -> dict[str, Any]:
        """Erase every memory of a user, agent or run for good, through engram's audited
        erase (``mem.erasure``): the audit row stays. Like mem0 it refuses to run
        without one: ``reset`` empties everything."""
        _refuse_unknown("delete_all", unknown, SCOPE_KEYS)
        if user_id is None and agent_id is None and run_id is None:
            raise InvalidInputError(
                "delete_all needs user_id, agent_id or run_id; to delete every memory, call reset()"
            )
        self.engram.erasure.erase(user_id=user_id, agent_id=agent_id, run_id=run_id, actor=ACTOR)
        self._seen.clear()
        return {"message": "Memories deleted successfully!"}

    def reset(self) -> None:
        """Erase every namespace of the store (mem0's reset), one audited erase each;
        the audit rows stay."""
        self.engram.erasure.erase_everything(actor=ACTOR)
        self._seen.clear()

    # -- reads --------------------------------------------------------------------------
    def get(self, memory_id: str) -> dict[str, Any] | None:
        """One memory as mem0's item, or None when there is none with this id."""
        try:
            namespace = self._namespace_of(memory_id)
            return _item(self.engram.get(memory_id, namespace=namespace))
        except NotFoundError:
            return None

    def get_all(
        self,
        *,
        filters: Mapping[str, Any] | None = None,
        top_k: int | None = None,
        user_id: str | None = None,
        agent_id: str | None = None,
        run_id: str | None = None,
        limit: int | None = None,
        **unknown: Any,
    ) -> dict[str, Any]:
        """The memories of a scope, newest first, that match ``filters``."""
        _refuse_unknown(
            "get_all", unknown, ("filters", "top_k", "user_id", "agent_id", "run_id", "limit")
        )
        k = self._top_k(top_k, limit, DEFAULT_LIST_TOP_K)
        parsed, scope = self._scope(filters, user_id, agent_id, run_id)
        found: list[dict[str, Any]] = []
        offset = 0
        while len(found) < k:
            page = self.engram.get_all(**scope, limit=1000, offset=offset)
            for record in page:
                if parsed.condition is None or parsed.condition(record.metadata):
                    self._seen[record.id] = record.namespace
                    found.append(_item(record))
            if len(page) < 1000:
                break
            offset += 1000
        return {"results": found[:k]}

    def search(
        self,
        query: str,
        *,
        filters: Mapping[str, Any] | None = None,
        top_k: int | None = None,
        threshold: float | None = None,
        rerank: bool = True,
        user_id: str | None = None,
        agent_id: str | None = None,
        run_id: str | None = None,
        limit: int | None = None,
        **unknown: Any,
    ) -> dict[str, Any]:
        """The ``top_k`` memories nearest ``query`` in a scope that match ``filters``,
        each with its ``score``; ``threshold`` drops hits scoring below it.

        Like mem0, it always returns the nearest memories (engram's abstain decision is
        off here); ``rerank=False`` turns off a configured reranker."""
        _refuse_unknown(
            "search",
            unknown,
            (
                "filters",
                "top_k",
                "threshold",
                "rerank",
                "user_id",
                "agent_id",
                "run_id",
                "limit",
            ),
        )
        k = self._top_k(top_k, limit, DEFAULT_TOP_K)
        if threshold is not None and (
            isinstance(threshold, bool) or not isinstance(threshold, int | float)
        ):
            raise InvalidInputError(f"threshold must be a number, got {shown(threshold)}")
        parsed, scope = self._scope(filters, user_id, agent_id, run_id)
        overrides: dict[str, Any] = {"abstain": False}
        if not rerank:
            overrides["rerank"] = "none"
        pool = k if parsed.condition is None else max(k, CANDIDATE_POOL)
        hits = self.engram.search(query, **scope, limit=pool, **overrides)
        results: list[dict[str, Any]] = []
        for hit in hits:
            if parsed.condition is not None and not parsed.condition(hit.memory.metadata):
                continue
            if threshold is not None and hit.score < threshold:
                continue
            self._seen[hit.memory.id] = hit.memory.namespace
            results.append({**_item(hit.memory), "score": hit.score})
        return {"results": results[:k]}

    def history(self, memory_id: str) -> list[dict[str, Any]]:
        """Every change of a memory, oldest first, in mem0's history shape."""
        namespace = self._namespace_of(memory_id)
        return [_history(e) for e in self.engram.history(memory_id, namespace=namespace)]

    # -- helpers ------------------------------------------------------------------------
    @staticmethod
    def _top_k(top_k: int | None, limit: int | None, default: int) -> int:
        if top_k is not None and limit is not None and top_k != limit:
            raise InvalidInputError("pass top_k or its older name limit, not both")
        chosen = top_k if top_k is not None else limit
        return positive_int("top_k", chosen if chosen is not None else default)

    def _scope(
        self,
        filters: Mapping[str, Any] | None,
        user_id: str | None,
        agent_id: str | None,
        run_id: str | None,
    ) -> tuple[Parsed, dict[str, Any]]:
        """The parsed filter and the engram scope keywords it and the older keyword
        arguments name together."""
        parsed = parse(filters)
        scope: dict[str, Any] = {}
        for key, value in (("user_id", user_id), ("agent_id", agent_id), ("run_id", run_id)):
            chosen = parsed.scope.get(key)
            if value is not None and chosen is not None and value != chosen:
                raise InvalidInputError(
                    f"{key}={shown(value)} and filters {key}={shown(chosen)} differ"
                )
            scope[key] = chosen if chosen is not None else value
        return parsed, scope

    def _namespace_of(self, memory_id: str) -> str:
        """The namespace holding ``memory_id``: one this door saw it in, or the one a
        look through the live namespaces finds."""
        if not isinstance(memory_id, str):
            raise InvalidInputError(f"memory_id must be a string, got {type_name(memory_id)}")
        known = self._seen.get(memory_id)
        if known is not None:
            return known
        memories = self.engram.store.memories
        for namespace in memories.namespaces():
            if memories.get(namespace, memory_id) is not None:
                self._seen[memory_id] = namespace
                return namespace
        raise NotFoundError(f"no memory {shown(memory_id)} in any namespace")


def _history(entry: HistoryEntry) -> dict[str, Any]:
    """mem0's history row: the text before and after, the event in capitals."""
    before = (entry.before or {}).get("content")
    after = (entry.after or {}).get("content")
    event = _EVENTS.get(entry.event, entry.event.upper())
    return {
        "id": str(entry.id),
        "memory_id": entry.memory_id,
        "old_memory": before,
        "new_memory": after if event != "DELETE" else None,
        "event": event,
        "created_at": iso(entry.created_at),
        "updated_at": iso(entry.created_at),
        "is_deleted": event == "DELETE",
        "actor_id": entry.actor,
        "role": None,
    }
