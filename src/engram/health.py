"""``mem.health``: is this ``Memory`` ready to serve, and the cheap numbers an operator
watches (memories per namespace, the job queue).

``engram serve`` answers ``/ready`` and ``/metrics`` from these (docs/operations.md);
a program embedding the library can call them too.
"""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from engram.core import Part

log = logging.getLogger("engram")

#: The text embedded to prove the embedder answers (any short text would do).
PROBE_TEXT = "engram readiness probe"


@dataclass(frozen=True, slots=True)
class Readiness:
    """The answer of :meth:`Health.ready`: ready or not, and why, per check."""

    ready: bool
    checks: dict[str, str]
    """Check name (``store``, ``embedder``) -> ``"ok"`` or what is wrong."""
    reasons: tuple[str, ...] = ()
    """One line per failed check, naming the check; empty when ready."""
    duration_ms: float = 0.0

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict."""
        return {
            "status": "ready" if self.ready else "not_ready",
            "checks": dict(self.checks),
            "reasons": list(self.reasons),
            "duration_ms": round(self.duration_ms, 3),
        }


@dataclass(frozen=True, slots=True)
class Snapshot:
    """Counts for monitoring: cheap grouped counts, no scan of content."""

    memories: dict[str, int] = field(default_factory=dict)
    """Live memories per namespace."""
    jobs: dict[str, int] = field(default_factory=dict)
    """Jobs per status, every namespace (``pending`` is the queue's depth)."""
    embed_failures: int = 0
    """Memories this process failed to embed (they wait for the backfill)."""


class Health(Part):
    """Readiness and monitoring counts of a ``Memory``."""

    def ready(self, *, embedder: bool = True, wait: float | None = None) -> Readiness:
        """Check that the store answers a query and that the embedder embeds a short text.

        Never raises: a failing check is reported in ``reasons``. ``embedder=False``
        skips the embedder check (a remote embedder costs one request per check). A
        ``Memory`` without an embedder (keyword recall) is ready with the store alone.
        ``wait``: wait at most this many seconds for a store connection while the
        database is unreachable (``Store.bounded_wait``), not ``[postgres] pool_timeout``.
        """
        start = time.perf_counter()
        checks: dict[str, str] = {}
        reasons: list[str] = []
        core = self._core
        try:
            core.check_open()
            with core.bounded(wait):
                core.store.schema_version()  # one indexed read: the connection works
            checks["store"] = "ok"
        except Exception as exc:
            checks["store"] = f"unavailable: {exc}"
            reasons.append(f"store: {exc}")
        if core.embedder is None:
            checks["embedder"] = "none configured (keyword recall)"
        elif not embedder:
            checks["embedder"] = "not checked"
        else:
            try:
                vectors = core.embedder.embed_batch([PROBE_TEXT])
                if vectors.shape != (1, core.embedder.dimension) or not np.isfinite(vectors).all():
                    raise ValueError(f"it returned an array of shape {vectors.shape}")
                checks["embedder"] = "ok"
            except Exception as exc:
                checks["embedder"] = f"unavailable: {exc}"
                reasons.append(f"embedder {core.embedder.name}: {exc}")
        if reasons:
            log.warning("not ready: %s", "; ".join(reasons))
        return Readiness(
            ready=not reasons,
            checks=checks,
            reasons=tuple(reasons),
            duration_ms=(time.perf_counter() - start) * 1000,
        )

    def snapshot(self, *, wait: float | None = None) -> Snapshot:
        """Live memories per namespace and jobs per status (two grouped counts).
        ``wait`` as ``ready``'s."""
        core = self._core
        core.check_open()
        with core.bounded(wait):
            return Snapshot(
                memories=core.store.memories.namespaces(),
                jobs=core.store.jobs.counts(None),
                embed_failures=core.embed_failures,
            )
