"""A mined conversation that branched: a reply regenerated, a message edited.

Mining keys a room's drawers by turn, so mining the same conversation again files only
the new turns. A chat client's "regenerate" sends the same request again and the
conversation goes on from the new answer: the turn is already filed, with the answer
nobody continues from. So when a filed turn's memory no longer holds the text the
conversation has at that turn, the conversation branched there: the drawers of that
turn and later (the abandoned branch) are unfiled and the new turns filed in their
place, and each abandoned memory is marked ``superseded_by`` the reply that replaced it
(kept, shown by ``get`` and ``history``, left out of recall), so the palace never holds
both answers as if both were said.

Where the conversation branched is found by ``palace.align`` (a request lined up with
the filed turns by content, so a client's sliding window or summary is no branch); a
memory edited since it was filed (``update`` of its content) is the user's word, not a
branch. A memory shared with another drawer or another conversation (deduplicated) is
unfiled here but not superseded: it is still said there.
"""

from __future__ import annotations

from collections.abc import Sequence

from engram.records import MemoryRecord
from engram.store.protocols import Store
from engram.store.protocols.palace import Drawer

#: The history event of a memory replaced by a regenerated or edited turn.
SUPERSEDED_EVENT = "superseded"


def edited(store: Store, namespace: str, memory: MemoryRecord) -> bool:
    """Whether the memory's content was changed after it was written."""
    return any(
        entry.before is not None and entry.after is not None and "content" in entry.after
        for entry in store.memories.history(namespace, memory.id)
    )


def retire(
    store: Store,
    namespace: str,
    *,
    session_id: str,
    abandoned: Sequence[Drawer],
    added: Sequence[Drawer],
    actor: str,
) -> int:
    """Mark each abandoned drawer's memory superseded by the new drawer of its turn (or,
    past the new branch's end, by the first new one); returns how many were marked.
    Runs in the caller's transaction, after the new drawers are filed."""
    if not added:
        return 0
    by_turn = {d.turn: d for d in added}
    still_filed = set(store.palace.pointers(namespace, [d.memory_id for d in abandoned]))
    memories = store.memories.get_many(namespace, [d.memory_id for d in abandoned])
    count = 0
    for drawer in abandoned:
        memory = memories.get(drawer.memory_id)
        if (
            memory is None
            or memory.superseded_by is not None
            or memory.session_id != session_id
            or drawer.memory_id in still_filed  # said elsewhere too
        ):
            continue
        successor = by_turn.get(drawer.turn, added[0])
        store.memories.update(
            namespace,
            memory.id,
            {"superseded_by": successor.memory_id},
            event=SUPERSEDED_EVENT,
            actor=actor,
            reason=f"turn {drawer.turn} of the conversation was answered again "
            f"({successor.pointer.split()[1]} holds the new turn)",
        )
        count += 1
    return count
