"""One read of the relations an entity (or a namespace) holds now, mentions left out.

The change readers ask the graph the same question in several places: which facts are
current, without the ``talks_about`` mentions every memory records. They differ only in
how many they read and whether the newest come first (a bounded read of a busy entity
keeps what it was told last), so those are the parameters (left39). And which relations
one memory stated, read back by the jobs that come after its write (session thirty-five).
"""

from __future__ import annotations

from engram.pipeline.linker import TALKS_ABOUT
from engram.store.protocols import Store
from engram.store.protocols.graph import Relation


def current_facts(
    store: Store,
    namespace: str,
    entity_id: int | None,
    *,
    limit: int,
    newest_first: bool = False,
) -> list[Relation]:
    """The current relations of ``entity_id`` (either end), or of the namespace when it
    is None, ``talks_about`` left out: at most ``limit``, oldest first unless
    ``newest_first``."""
    return store.graph.relations(
        namespace,
        entity_id=entity_id,
        current_only=True,
        at=None,
        limit=limit,
        offset=0,
        without=(TALKS_ABOUT,),
        newest_first=newest_first,
    )


def stated(
    store: Store, namespace: str, memory_id: str, *, current_only: bool, limit: int
) -> list[Relation]:
    """The relations ``memory_id`` stated (their ``source_memory_id``), oldest first,
    only those still current when ``current_only``: at most ``limit``."""
    return store.graph.relations(
        namespace,
        entity_id=None,
        current_only=current_only,
        at=None,
        limit=limit,
        offset=0,
        stated_by=memory_id,
    )
