"""One text said under two runs (or agents) of an owner: what the door keeps of each
(round thirty, pass42).

mem0 stores every ``add(infer=False)`` as a memory of its own, so a fact said in two
sessions is two memories and ``delete_all(run_id=<the first>)`` leaves the second.
engram keeps one memory per text in a namespace (seed 004), carrying the ids it was
first added with; the second ``add`` answered ``NONE`` and kept nothing of its run, so
deleting the first run deleted the fact the second had said too.

The door now notes each (agent_id, run_id) the text was added under in the memory's
metadata (``SEEN``, hidden from mem0's items) and, when ``delete_all`` meets a memory
another scope said too, moves it to that scope instead of deleting it. Both writes
are audited under their own history event (``RESCOPED``), which mem0's ``history``
does not show (mem0's copy had its own one ``ADD``).

Round thirty-one (pass43): a read of a later run (``get_all``/``search`` with that
``run_id`` or ``agent_id``) missed the memory, which carries the first add's ids; on
mem0 that run's copy is listed. ``MARK`` (a metadata key the store compares in SQL)
lets the door find the memories said under more than one scope without reading the
whole namespace; ``also_said`` gives those a later scope said, shown with that scope's
ids as mem0 shows its copy, and ``delete_all`` of that scope drops it from the note
(``forget``) so the memory stops answering for it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engram.compat.mem0_infer import ACTOR
from engram.compat.mem0_items import SAID_AGAIN, SEEN
from engram.memory import Memory as EngramMemory
from engram.records import Hit, MemoryRecord

#: The history event of the door's bookkeeping of those pairs.
RESCOPED = "mem0_seen_again"
#: Metadata key set (to ``"yes"``) on a memory whose ``SEEN`` names more than one
#: scope: a string compared in SQL on both backends, so reads filter on it.
MARK = SAID_AGAIN


#: One scope a text was said under: ``[agent_id, run_id]``, or (from round thirty-one)
#: ``[agent_id, run_id, metadata]`` with the metadata that add gave it.
Pair = list[Any]


def _pairs(record: MemoryRecord) -> list[Pair]:
    seen = record.metadata.get(SEEN)
    if isinstance(seen, list) and seen:
        return [list(p) for p in seen if isinstance(p, list) and len(p) in (2, 3)]
    return [[record.agent_id, record.run_id]]


def _own(record: MemoryRecord, pair: Pair) -> dict[str, Any]:
    """The metadata mem0's copy of ``pair`` has: what that add gave, else the memory's."""
    if len(pair) == 3 and isinstance(pair[2], Mapping):
        return dict(pair[2])
    return {k: v for k, v in record.metadata.items() if k not in (SEEN, MARK)}


def _shown(record: MemoryRecord, pair: Pair) -> MemoryRecord:
    """``record`` as the scope ``pair`` shows it (mem0's copy of that add)."""
    return record.with_changes(agent_id=pair[0], run_id=pair[1], metadata=_own(record, pair))


def note_again(
    native: EngramMemory,
    record: MemoryRecord,
    agent_id: str | None,
    run_id: str | None,
    metadata: Mapping[str, Any],
) -> None:
    """``record`` was added again under ``agent_id``/``run_id`` with ``metadata``: note
    the scope and what that add gave it."""
    pairs = _pairs(record)
    if any(p[:2] == [agent_id, run_id] for p in pairs):
        return
    noted = [*pairs, [agent_id, run_id, dict(metadata)]]
    native.store.memories.update(
        record.namespace,
        record.id,
        {"metadata": {**record.metadata, SEEN: noted, MARK: "yes"}},
        event=RESCOPED,
        actor=ACTOR,
        reason="mem0 add: the same text added under another agent or run",
    )


def keeps(native: EngramMemory, record: MemoryRecord, ids: Mapping[str, Any]) -> bool:
    """Whether ``delete_all`` of ``ids`` leaves ``record`` because another scope said
    it too; if so the memory now carries that scope's ids."""
    if SEEN not in record.metadata:
        return False  # said under one scope only
    left = [p for p in _pairs(record) if not _said_under(p, ids)]
    if not left:
        return False
    meta = _noted(_own(record, left[0]), left)
    native.store.memories.update(
        record.namespace,
        record.id,
        {"agent_id": left[0][0], "run_id": left[0][1], "metadata": meta},
        event=RESCOPED,
        actor=ACTOR,
        reason="mem0 delete_all: the text was added under another agent or run too",
    )
    return True


def _noted(own: Mapping[str, Any], pairs: list[Pair]) -> dict[str, Any]:
    """The metadata ``own`` with ``pairs`` as its note (none when one scope is left)."""
    meta = dict(own)
    if len(pairs) > 1:
        meta[SEEN] = pairs
        meta[MARK] = "yes"
    return meta


def _said_under(pair: Pair, ids: Mapping[str, Any]) -> bool:
    return (ids.get("agent_id") is None or pair[0] == ids["agent_id"]) and (
        ids.get("run_id") is None or pair[1] == ids["run_id"]
    )


def also_said(native: EngramMemory, namespace: str, ids: Mapping[str, Any]) -> list[MemoryRecord]:
    """The memories of ``namespace`` (and ``ids``' user) that ``ids``' agent or run said
    again though they carry another scope's ids, each shown with the ids of the first
    scope of ``ids`` that said it (mem0 lists that scope's own copy). Empty when ``ids``
    name no agent or run: the owner's reads list every memory already."""
    if ids.get("agent_id") is None and ids.get("run_id") is None:
        return []
    found: list[MemoryRecord] = []
    offset = 0
    while True:
        page = native.get_all(
            namespace=namespace,
            user_id=ids.get("user_id"),
            filters={f"metadata.{MARK}": "yes"},
            limit=_PAGE,
            offset=offset,
        )
        for record in page:
            if _said_under([record.agent_id, record.run_id], ids):
                continue  # the plain read of the scope lists it already
            pair = next((p for p in _pairs(record) if _said_under(p, ids)), None)
            if pair is not None:
                found.append(_shown(record, pair))
        if len(page) < _PAGE:
            return found
        offset += _PAGE


def also_found(
    native: EngramMemory,
    namespace: str,
    ids: Mapping[str, Any],
    query: str,
    limit: int,
    overrides: Mapping[str, Any],
) -> list[tuple[Hit, MemoryRecord]]:
    """``also_said`` for a search: the hits among the memories said again under ``ids``'
    scope, each with the record as that scope shows it. The second search runs only
    when the scope said something again (a read of the marked memories first: a
    search costs tens of milliseconds, the read one)."""
    shown = {r.id: r for r in also_said(native, namespace, ids)}
    if not shown:
        return []
    hits = native.search(
        query,
        namespace=namespace,
        user_id=ids.get("user_id"),
        filters={f"metadata.{MARK}": "yes"},
        limit=limit,
        **overrides,
    )
    return [(hit, shown[hit.memory.id]) for hit in hits if hit.memory.id in shown]


def forget(native: EngramMemory, record: MemoryRecord, ids: Mapping[str, Any]) -> None:
    """``delete_all`` of ``ids`` met ``record`` through ``also_said``: it no longer
    answers for the scopes of ``ids``; it keeps its own ids, which ``ids`` do not name
    (mem0 deletes that scope's copy and keeps the first)."""
    stored = native.store.memories.get(record.namespace, record.id)
    if stored is None:
        return
    left = [p for p in _pairs(stored) if not _said_under(p, ids)]
    native.store.memories.update(
        stored.namespace,
        stored.id,
        {"metadata": _noted(_own(stored, [stored.agent_id, stored.run_id]), left)},
        event=RESCOPED,
        actor=ACTOR,
        reason="mem0 delete_all: a scope that said the text again was deleted",
    )


#: How many memories one read of ``also_said`` takes at a time.
_PAGE = 1000
