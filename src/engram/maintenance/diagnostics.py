"""seed 004's diagnostics: a report of queue, index and storage health, its composite
score in [0, 1], and the recommendations (repair actions) it calls for.

seed 004: "getDiagnostics produces a DiagnosticsReport that captures queue health (dead
rate, stale lease count), index health (FTS row count vs active memory count), and
storage health (tombstone ratio). A composite score in [0, 1] summarizes overall
health." The seed gives no formula; engram's (docs/maintenance.md, "Health score"):

- queue   = 1 - ½·min(1, 10·dead_rate) - ½·min(1, 10·stale_rate), where the rates are
  dead jobs and stale leases over all jobs (a 10 % rate costs the whole half);
- index   = 1 - min(1, index_mismatch / live); with an embedder, the mean of that and
  the vector coverage 1 - min(1, backlog / live);
- storage = 1 - tombstoned / (live + tombstoned);
- score   = the mean of the three.

Every part moves only when a repair moves it, so the halt tracker can tell a repair
that helped from one that did not.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engram.store.protocols.maintenance import HealthCounts

#: seed 004: "requeueDeadJobs when the dead job rate exceeds 1%".
DEAD_RATE_LIMIT = 0.01
#: seed 004: "triggerRetentionSweep when tombstones exceed 30% of total memories".
TOMBSTONE_LIMIT = 0.30
#: A rate of this much (10 %) costs a queue signal its whole weight.
_RATE_SCALE = 10.0
#: Status bands of a score (engram's, shown next to the number).
HEALTHY = 0.9
DEGRADED = 0.6

#: The repair actions, in the order a cycle runs them. seed 004 names the first four;
#: ``reembed`` is engram's use of the seed's reembed budget: the embedding tracker's
#: round, when vectors are missing, stale or from another model.
ACTIONS = (
    "requeue_dead_jobs",
    "release_stale_leases",
    "check_fts_consistency",
    "retention_sweep",
    "reembed",
)
#: Semantic dedup: a repair with its own cooldown and budget, run per namespace.
DEDUP = "semantic_dedup"


def _status(score: float) -> str:
    if score >= HEALTHY:
        return "healthy"
    return "degraded" if score >= DEGRADED else "unhealthy"


@dataclass(frozen=True, slots=True)
class Diagnostics:
    """One diagnostics report: the counts, each domain's score and the composite."""

    counts: HealthCounts
    vectors_checked: bool
    """True when an embedder is configured (vector coverage is part of the index)."""

    @property
    def dead_rate(self) -> float:
        """Dead jobs over all jobs (0 with no jobs)."""
        c = self.counts
        return c.jobs_dead / c.jobs_total if c.jobs_total else 0.0

    @property
    def stale_rate(self) -> float:
        """Stale leases over all jobs."""
        c = self.counts
        return c.stale_leases / c.jobs_total if c.jobs_total else 0.0

    @property
    def tombstone_ratio(self) -> float:
        """Tombstoned memories over all memories (0 with none)."""
        c = self.counts
        total = c.live + c.tombstoned
        return c.tombstoned / total if total else 0.0

    @property
    def vector_backlog(self) -> int:
        """Live memories whose vector is missing, stale or by another model."""
        c = self.counts
        return c.vectors_missing + c.vectors_stale + c.vectors_other_model

    @property
    def queue_score(self) -> float:
        """1 - ½·min(1, 10·dead_rate) - ½·min(1, 10·stale_rate)."""
        dead = min(1.0, _RATE_SCALE * self.dead_rate)
        stale = min(1.0, _RATE_SCALE * self.stale_rate)
        return 1.0 - 0.5 * dead - 0.5 * stale

    @property
    def index_score(self) -> float:
        """Keyword-index consistency, averaged with vector coverage when checked."""
        live = max(1, self.counts.live)
        fts = 1.0 - min(1.0, self.counts.index_mismatch / live)
        if not self.vectors_checked:
            return fts
        return (fts + 1.0 - min(1.0, self.vector_backlog / live)) / 2

    @property
    def storage_score(self) -> float:
        """1 - the tombstone ratio."""
        return 1.0 - self.tombstone_ratio

    @property
    def score(self) -> float:
        """The composite health score in [0, 1]: the mean of the three domains."""
        return round((self.queue_score + self.index_score + self.storage_score) / 3, 6)

    def recommendations(self) -> list[str]:
        """seed 004's ``buildRecommendations``: the repair actions this report calls for."""
        c = self.counts
        out: list[str] = []
        if self.dead_rate > DEAD_RATE_LIMIT:
            out.append("requeue_dead_jobs")
        if c.stale_leases > 0:
            out.append("release_stale_leases")
        if c.index_mismatch > 0:
            out.append("check_fts_consistency")
        if self.tombstone_ratio > TOMBSTONE_LIMIT:
            out.append("retention_sweep")
        if self.vectors_checked and self.vector_backlog > 0:
            out.append("reembed")
        return out

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready report."""
        c = self.counts
        return {
            "score": self.score,
            "status": _status(self.score),
            "queue": {
                "score": round(self.queue_score, 6),
                "jobs": c.jobs_total,
                "dead": c.jobs_dead,
                "dead_rate": round(self.dead_rate, 6),
                "stale_leases": c.stale_leases,
            },
            "index": {
                "score": round(self.index_score, 6),
                "live_memories": c.live,
                "indexed": c.indexed,
                "mismatch": c.index_mismatch,
                "vectors": {
                    "checked": self.vectors_checked,
                    "missing": c.vectors_missing,
                    "stale": c.vectors_stale,
                    "other_model": c.vectors_other_model,
                },
            },
            "storage": {
                "score": round(self.storage_score, 6),
                "tombstoned": c.tombstoned,
                "tombstone_ratio": round(self.tombstone_ratio, 6),
            },
            "recommendations": self.recommendations(),
        }
