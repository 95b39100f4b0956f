"""seed 004's embedding tracker: re-embed, a small batch at a time, the memories whose
vectors are missing, stale (the content hash changed) or made by another model.

Each cycle (seed 004): (1) a provider health check, cached 30 s; an unavailable
provider skips the cycle (``skipped_cycles``); (2) the backlog query, newest
``updated_at`` first, capped at ``batch_size``; (3) embedding outside any transaction;
a failed memory counts in ``failed`` without ending the cycle; (4) one write of the
vectors. Steps 3-4 are ``Core.embed_and_store``, the write path's own (``reindex`` and
``backfill`` use it too); when the batch fails as a whole, each memory is retried alone
so one bad memory does not hold back the rest.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from typing import Any

from engram.core import Core
from engram.store.protocols.record import Record

#: seed 004: "calls the embedding provider's health endpoint (uses existing 30-second
#: cache)".
HEALTH_CACHE = timedelta(seconds=30)
#: What the health check embeds.
PROBE = "engram embedding tracker probe"


@dataclass(frozen=True, slots=True)
class TrackerStats(Record):
    """seed 004's ``getStats()``."""

    running: bool = False
    processed: int = 0
    failed: int = 0
    skipped_cycles: int = 0
    last_cycle_at: datetime | None = None
    queue_depth: int = 0
    """Memories still waiting after the last cycle."""


@dataclass(frozen=True, slots=True)
class TrackerCycle:
    """What one cycle did."""

    skipped: str | None = None
    """Why the cycle did nothing (``no embedder``, ``provider unavailable: ...``)."""
    embedded: dict[str, int] | None = None
    """Memories re-embedded per reason (``missing``, ``stale``, ``model``)."""
    failed: int = 0
    queue_depth: int = 0

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict."""
        return {
            "skipped": self.skipped,
            "embedded": dict(self.embedded or {}),
            "failed": self.failed,
            "queue_depth": self.queue_depth,
        }


class EmbeddingTracker:
    """The tracker's state in this process and its cycle."""

    def __init__(self, core: Core) -> None:
        self._core = core
        self._lock = threading.Lock()
        self._health: tuple[datetime, str | None] | None = None
        self.stats = TrackerStats()

    def _provider_problem(self, now: datetime) -> str | None:
        """None when the embedder answers (cached ``HEALTH_CACHE``), else what failed."""
        if self._health is not None and now - self._health[0] < HEALTH_CACHE:
            return self._health[1]
        embedder = self._core.embedder
        assert embedder is not None
        problem: str | None = None
        try:
            vectors = embedder.embed_batch([PROBE])
            if vectors.shape != (1, embedder.dimension):
                problem = f"it returned an array of shape {vectors.shape}"
        except Exception as exc:  # any provider failure means: skip this cycle
            problem = str(exc) or type(exc).__name__
        self._health = (now, problem)
        return problem

    def cycle(self, now: datetime, batch_size: int) -> TrackerCycle:
        """One cycle at ``now`` over at most ``batch_size`` memories."""
        core = self._core
        core.check_open()
        with self._lock:
            if core.embedder is None:
                return TrackerCycle(skipped="no embedder")
            self.stats = replace(self.stats, running=True)
            try:
                return self._cycle(now, batch_size)
            finally:
                self.stats = replace(self.stats, running=False, last_cycle_at=now)

    def _cycle(self, now: datetime, batch_size: int) -> TrackerCycle:
        core = self._core
        assert core.embedder is not None
        problem = self._provider_problem(now)
        if problem is not None:
            self.stats = replace(self.stats, skipped_cycles=self.stats.skipped_cycles + 1)
            return TrackerCycle(skipped=f"provider unavailable: {problem}")
        backlog = core.store.maintenance.embedding_backlog(core.embedder.name, limit=batch_size)
        embedded: dict[str, int] = {}
        failed = 0
        before = core.embed_failures
        core.embed_and_store([record for record, _ in backlog])
        if core.embed_failures == before:
            for _, reason in backlog:
                embedded[reason] = embedded.get(reason, 0) + 1
        else:  # seed 004: "Failed fetches increment the failed counter without aborting"
            core.embed_failures = before
            for record, reason in backlog:
                if core.embed_and_store([record]) is None:
                    failed += 1
                else:
                    embedded[reason] = embedded.get(reason, 0) + 1
        # A short batch was the whole backlog: only its failures are left (no count).
        short = len(backlog) < batch_size
        depth = failed if short else core.store.vectors.count_missing(core.embedder.name)
        self.stats = replace(
            self.stats,
            processed=self.stats.processed + sum(embedded.values()),
            failed=self.stats.failed + failed,
            queue_depth=depth,
        )
        return TrackerCycle(embedded=embedded, failed=failed, queue_depth=depth)
