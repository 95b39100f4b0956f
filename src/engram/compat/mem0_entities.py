"""The users, agents and runs a caller's memories name: mem0's hosted client lists
them (``MemoryClient.users()``) and deletes them one by one (``delete_users()``, and
``reset()``, which is ``delete_users()`` of every entity) (pass42).

mem0's platform keeps entities as objects of their own; engram has only memories, so
an entity here is an id that at least one live memory in a namespace the caller
reaches carries. An entity is deleted by the door's ``delete_all`` of that id.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engram.memory import Memory as EngramMemory

#: mem0's entity types and the ids they are.
TYPES = {"user": "user_id", "agent": "agent_id", "run": "run_id"}
_PAGE = 500


def entities(memory: EngramMemory, reaches: Callable[[str], bool]) -> list[dict[str, Any]]:
    """``[{"type", "name", "total_memories"}]``, users first, then agents and runs, each
    by name: every id a live memory the caller reaches carries."""
    counts: dict[tuple[str, str], int] = {}
    for namespace in memory.store.memories.namespaces():
        if not reaches(namespace):
            continue
        offset = 0
        while page := memory.get_all(namespace=namespace, limit=_PAGE, offset=offset):
            for record in page:
                for kind, field in TYPES.items():
                    name = getattr(record, field)
                    if name:
                        counts[(kind, name)] = counts.get((kind, name), 0) + 1
            offset += len(page)
    order = list(TYPES)
    return [
        {"type": kind, "name": name, "total_memories": total}
        for (kind, name), total in sorted(
            counts.items(), key=lambda kv: (order.index(kv[0][0]), kv[0][1])
        )
    ]
