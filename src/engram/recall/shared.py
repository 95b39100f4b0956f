"""Shared knowledge in recall (seed 002; FEATURES S3).

seed 002's injection pipeline: "Shared memories (from SharedKnowledgeStore) are fetched
in parallel, merged with personal memories (no personal_boost for shared), and ranked
together." A recall whose request names a shared space (``RecallRequest.shared``, set
by ``mem.recall``, ``mem.runs.get_context`` and so ``mem.inject.context``) runs a second
leg over that space's publications on its own worker thread, while the personal leg
ranks; the shared leg ranks with ``personal_boost = 0`` and the two lists are merged by
final score before the floor, the limit and the budget apply to both.

An empty shared space costs one ``count`` and nothing else (docs/benchmarks.md,
"Seeded behaviours"). Publications carry ``metadata.published_by``: memories someone
wrote into a shared space without publishing them are not shared knowledge, so they
never join a personal recall.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from concurrent.futures import Future
from dataclasses import replace

from engram.config import RecallConfig
from engram.recall.request import RecallRequest
from engram.recall.workers import Batch, Workers, joined
from engram.records import Hit, MemoryRecord

#: The shared namespace when none is named.
DEFAULT_SPACE = "shared:default"
#: The metadata key that names a publication's publisher.
PUBLISHED_BY = "published_by"


def space_of(namespace: str) -> str:
    """The shared space of a caller working in ``namespace``: ``user:<u>/shared`` for a
    user's namespace (its agents share with each other, not with other users), else
    ``shared:default``. The MCP tools and recall use it; the HTTP API does the same
    from the key."""
    if namespace.startswith("user:"):
        return namespace.split("/", 1)[0] + "/shared"
    return DEFAULT_SPACE


def recall_space(namespace: str, *, enabled: bool, filtered: bool) -> str | None:
    """The shared space a recall in ``namespace`` ranks beside its own memories, or
    None: shared knowledge is off (``[agents] shared_knowledge_base``), the recall is
    filtered (filters and palace places describe the caller's own memories), or
    ``namespace`` is a shared space itself."""
    if not enabled or filtered:
        return None
    space = space_of(namespace)
    if namespace == space or namespace.startswith("shared:") or namespace.endswith("/shared"):
        return None
    return space


def published(record: MemoryRecord) -> bool:
    """True for a publication (a memory some agent published into the space)."""
    return record.metadata.get(PUBLISHED_BY) is not None


def leg_request(request: RecallRequest, space: str, cfg: RecallConfig) -> RecallRequest:
    """The request of the shared leg over ``space``, the other space ``request`` names.
    seed 002: no personal boost for shared memories."""
    return replace(
        request,
        namespace=space,
        shared=None,
        centred_on=(request.namespace,),  # centred on the mean of both spaces together
        matches=published,
        restrict=None,
        cite=None,
        config=replace(cfg, personal_boost=0.0),
    )


def merge(personal: Sequence[Hit], shared: Sequence[Hit]) -> list[Hit]:
    """Both lists ranked together by final score (a stable sort: on a tie the personal
    hit comes first)."""
    return sorted([*personal, *shared], key=lambda h: h.score, reverse=True)


class SharedLeg:
    """Runs the shared leg beside the personal one, on a thread of its own (the
    retriever's keyword pool is not used: the leg itself submits keyword searches
    there, and waiting on a pool from inside it could starve it)."""

    def __init__(self, count: Callable[[str], int]) -> None:
        self._count = count  # live memories of a namespace: an empty space is skipped
        self._workers = Workers(1, "engram-shared")

    def probe(self, request: RecallRequest, batch: Batch | None = None) -> Future[int] | None:
        """Start counting the shared space ``request`` names (for ``start``: the count
        then overlaps the personal leg's reads), in ``batch`` when it queues (SQLite's
        reads ahead, one task), else on the leg's thread; None when it names none."""
        space = request.shared
        if space is None or space == request.namespace:
            return None
        if batch is not None and batch.queues:
            return batch.submit(self._count, space)
        return self._workers.submit(self._count, space)

    def start(
        self,
        request: RecallRequest,
        cfg: RecallConfig,
        run: Callable[[RecallRequest], list[Hit]],
        count: Future[int] | None = None,
    ) -> Future[list[Hit]] | None:
        """Start ranking the shared space's publications for ``request``; None when it
        names no shared space or the space holds nothing. ``count``: ``probe``'s, if
        it was started; else the space is counted here."""
        space = request.shared
        if space is None or space == request.namespace:
            return None
        # The count before the leg's request: a space that holds nothing (the usual
        # case) then costs one statement, not the two copies of the request and its
        # settings (~0.1 ms).
        if not (
            joined(count, "the shared space's count") if count is not None else self._count(space)
        ):
            return None
        return self._workers.submit(run, leg_request(request, space, cfg))

    def close(self) -> None:
        """Stop the worker thread (if one was started); no leg starts after this."""
        self._workers.close()
