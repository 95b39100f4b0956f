"""Archive compaction: the bound on each namespace's archive (issue 16's "store stays
bounded"; ours — the seeds set no archive cap, so it is documented as our design).

Consolidation keeps every folded original verbatim in the archive for ``restore``, so
under seed 002's default retention (null = forever) the archive grows with the writes.
``archive_max_per_agent`` (default: seed 002's ``max_memories_per_agent``, 10000; null
keeps the archive whole) bounds it: a retention sweep, right after the retention rules
expired what they expire, drops the verbatim records of the oldest archived originals
(by their original creation time) beyond the cap. Their summary memory stays live and
each dropped original gets a ``compact`` history row naming it, so ``restore`` can say
what happened instead of "not found".
"""

from __future__ import annotations

from datetime import datetime

from engram.errors import NotFoundError, shown
from engram.ids import MIN_ID_PREFIX, resolve_prefix
from engram.lifecycle.aging import SUMMARY_TAG
from engram.records import iso
from engram.store.protocols import ListQuery
from engram.store.protocols.backend import Store
from engram.store.protocols.lifecycle import COMPACT_EVENT, LifecycleStore

#: Where a caller finds archived ids, on each surface.
ARCHIVE_LISTED = (
    "the archive is listed by `engram lifecycle status`, the MCP tool archived_memories "
    "and GET /v1/lifecycle/archive"
)

#: Summary memories read per page when looking for the one that folded an original.
_PAGE = 1000


def compact(
    store: LifecycleStore,
    namespaces: list[str],
    cap: int | None,
    now: datetime,
    *,
    limit: int,
) -> int:
    """One compaction step over ``namespaces``: at most ``limit`` originals in all,
    each namespace in its own short transaction. Returns how many were compacted."""
    if cap is None:
        return 0
    held = store.counts()
    done = 0
    for namespace in namespaces:
        if done >= limit:
            break
        if held.get(namespace, 0) > cap:
            done += len(store.compact(namespace, keep=cap, now=now, limit=limit - done))
    return done


def _folded_by(store: Store, namespace: str, original_id: str) -> str | None:
    """The live summary memory whose ``metadata.consolidated.originals`` names
    ``original_id``, or None."""
    offset = 0
    while True:
        page = store.memories.select(
            namespace, ListQuery(tags=(SUMMARY_TAG,), limit=_PAGE, offset=offset)
        )
        for record in page:
            folded = record.metadata.get("consolidated")
            if isinstance(folded, dict) and original_id in (folded.get("originals") or ()):
                return record.id
        if len(page) < _PAGE:
            return None
        offset += _PAGE


def archived_id(store: Store, namespace: str, wanted: str) -> str:
    """The full id of the archived original or summary ``wanted`` names in
    ``namespace``: the id itself or a unique prefix (``engram.ids.resolve_prefix``, as
    every id a user types). ``not_archived`` when nothing matches."""
    lifecycle = store.lifecycle

    def known(key: str) -> bool:
        return bool(
            lifecycle.entries(namespace, original_id=key, limit=1)
            or lifecycle.entries(namespace, summary_id=key, limit=1)
        )

    def starting(prefix: str, limit: int) -> list[str]:
        originals = lifecycle.entries(namespace, original_prefix=prefix, limit=limit)
        live = store.memories.select(namespace, ListQuery(id_prefix=prefix, limit=limit))
        return [e.original_id for e in originals] + [r.id for r in live if known(r.id)]

    if len(wanted) < MIN_ID_PREFIX and not known(wanted):
        # An unknown short id is "not archived" (what it is not), as before prefixes.
        raise not_archived(store, namespace, wanted)
    try:
        return resolve_prefix(
            wanted,
            exact=known,
            starting=starting,
            what="archived memory",
            where=f" in namespace {shown(namespace)}",
            listed=ARCHIVE_LISTED,
        )
    except NotFoundError:  # says when a full id was compacted, and what holds it
        raise not_archived(store, namespace, wanted) from None


def not_archived(store: Store, namespace: str, memory_id: str) -> NotFoundError:
    """The error ``restore`` raises for an id that is neither archived nor a summary:
    it says when the original was compacted and which summary holds it, when that is
    known; otherwise that the id is unknown."""
    trail = [h for h in store.memories.history(namespace, memory_id) if h.event == COMPACT_EVENT]
    if trail:
        last = trail[-1]
        summary_id = (last.after or {}).get("summary_id", "?")
        return NotFoundError(
            f"archived memory {memory_id!r} was compacted at {iso(last.created_at)}: namespace "
            f"{namespace!r} held more archived originals than archive_max_per_agent, so its "
            f"verbatim text was dropped and cannot be restored; summary memory "
            f"{summary_id!r} holds it"
        )
    summary = store.memories.get(namespace, memory_id)
    if summary is not None and isinstance(summary.metadata.get("consolidated"), dict):
        return NotFoundError(
            f"summary memory {memory_id!r} has no archived originals left: they were "
            "compacted past archive_max_per_agent or expired by a retention rule, and the "
            "summary itself is what holds them now"
        )
    summary_id = _folded_by(store, namespace, memory_id)
    if summary_id is not None:
        return NotFoundError(
            f"archived memory {memory_id!r} is no longer in the archive: its verbatim text "
            "was dropped (compacted past archive_max_per_agent, or expired by a retention "
            f"rule; the audit row saying when has aged out of history); summary memory "
            f"{summary_id!r} holds it"
        )
    return NotFoundError(
        f"{memory_id!r} is neither an archived memory nor a summary in namespace "
        f"{namespace!r} (as an id or id prefix); {ARCHIVE_LISTED}"
    )
