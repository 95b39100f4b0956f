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
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engram.compat.mem0_infer import ACTOR
from engram.compat.mem0_items import SEEN
from engram.memory import Memory as EngramMemory
from engram.records import MemoryRecord

#: The history event of the door's bookkeeping of those pairs.
RESCOPED = "mem0_seen_again"


def _pairs(record: MemoryRecord) -> list[list[str | None]]:
    seen = record.metadata.get(SEEN)
    if isinstance(seen, list) and seen:
        return [list(p) for p in seen if isinstance(p, list) and len(p) == 2]
    return [[record.agent_id, record.run_id]]


def note_again(
    native: EngramMemory, record: MemoryRecord, agent_id: str | None, run_id: str | None
) -> None:
    """``record`` was added again under ``agent_id``/``run_id``: note the pair."""
    pairs = _pairs(record)
    if [agent_id, run_id] in pairs:
        return
    native.store.memories.update(
        record.namespace,
        record.id,
        {"metadata": {**record.metadata, SEEN: [*pairs, [agent_id, run_id]]}},
        event=RESCOPED,
        actor=ACTOR,
        reason="mem0 add: the same text added under another agent or run",
    )


def keeps(native: EngramMemory, record: MemoryRecord, ids: Mapping[str, Any]) -> bool:
    """Whether ``delete_all`` of ``ids`` leaves ``record`` because another scope said
    it too; if so the memory now carries that scope's ids."""
    if SEEN not in record.metadata:
        return False  # said under one scope only
    left = [
        p
        for p in _pairs(record)
        if not (
            (ids.get("agent_id") is None or p[0] == ids["agent_id"])
            and (ids.get("run_id") is None or p[1] == ids["run_id"])
        )
    ]
    if not left:
        return False
    meta = {k: v for k, v in record.metadata.items() if k != SEEN}
    if len(left) > 1:
        meta[SEEN] = left
    native.store.memories.update(
        record.namespace,
        record.id,
        {"agent_id": left[0][0], "run_id": left[0][1], "metadata": meta},
        event=RESCOPED,
        actor=ACTOR,
        reason="mem0 delete_all: the text was added under another agent or run too",
    )
    return True
