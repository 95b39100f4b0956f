"""``mem.review``: what a person reviews in a memory store (seed 000's memory panel,
seed 004's review queue).

- the queue of proposals the write pipeline held back (``list``, ``approve``,
  ``reject``; ``engram.review.queue``);
- prune candidates and bulk delete with a dry run (``prune_candidates``, ``prune``;
  ``engram.review.prune``);
- the feedback log as a preference data set (``export_feedback``;
  ``engram.review.export``);
- novelty of new search results against what is known (``assess_novelty``;
  ``engram.review.novelty``);
- the 2-D graph view of recent memories (``graph``, ``warm_up``;
  ``engram.review.graph_view``).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any, Unpack

from engram.records import Page
from engram.review import export, graph_view, novelty, projection, prune
from engram.review.graph_view import GraphView
from engram.review.novelty import Novelty, ResultNovelty
from engram.review.prune import PruneOutcome, PruneReport
from engram.review.queue import ReviewQueue
from engram.scoping import ScopeArgs, scoped

__all__ = ["GraphView", "Novelty", "PruneOutcome", "PruneReport", "ResultNovelty", "Review"]


class Review(ReviewQueue):
    """The review part of a ``Memory``: the queue, pruning, export, novelty, graph."""

    @scoped
    def prune_candidates(
        self, *, limit: int = 100, offset: int = 0, **who: Unpack[ScopeArgs]
    ) -> Page:
        """Live memories seed 000 would prune: quality <= -2, or score < 6 with quality
        < 0; worst first. A ``Page`` (a list with ``total``)."""
        core = self._core
        scope = core.open_scope(**who)
        return prune.candidates(core, scope, limit, offset)

    @scoped
    def prune(
        self,
        ids: Sequence[str],
        *,
        dry_run: bool = True,
        only_candidates: bool = True,
        actor: str | None = None,
        **who: Unpack[ScopeArgs],
    ) -> PruneReport:
        """Tombstone ``ids``; by default only says what it would do (``dry_run``). Ids
        that are not prune candidates are skipped unless ``only_candidates=False`` (a
        hand-picked selection). Each deletion leaves a ``prune`` history row."""
        core = self._core
        scope = core.open_scope(**who)
        return prune.prune(
            core, scope, ids, dry_run=dry_run, only_candidates=only_candidates, actor=actor
        )

    @scoped
    def feedback_rows(
        self, *, after: int = 0, limit: int = 1000, **who: Unpack[ScopeArgs]
    ) -> list[dict[str, Any]]:
        """One page of the preference export: lines after the log row ``after``; the
        ``cursor`` of the next page is the last line's ``id``."""
        core = self._core
        scope = core.open_scope(**who)
        return [
            {"id": row.id, **export.as_line(row)} for row in export.page(core, scope, after, limit)
        ]

    @scoped
    def export_feedback(self, **who: Unpack[ScopeArgs]) -> Iterator[dict[str, Any]]:
        """The feedback log as a preference data set, streamed oldest first: one
        ``{memory_id, content, title, rating, comment, at, quality}`` per rating."""
        core = self._core
        return export.stream(core, core.open_scope(**who))

    @scoped
    def assess_novelty(
        self,
        results: Sequence[object],
        context: str | Sequence[str] | None = None,
        *,
        use_memories: bool = True,
        **who: Unpack[ScopeArgs],
    ) -> Novelty:
        """How much new ``results`` add to ``context`` and the namespace's memories:
        a score in [0, 1] and each result's novelty (seed 000's ``assess_novelty``)."""
        core = self._core
        scope = core.open_scope(**who)
        return novelty.assess(core, scope, results, context, use_memories=use_memories)

    @scoped
    def graph(
        self,
        *,
        limit: int | None = None,
        type: str | None = None,
        method: str = "umap",
        **who: Unpack[ScopeArgs],
    ) -> GraphView:
        """The newest ``limit`` memories with a vector (``review.graph_max_nodes``, 600)
        projected to 2-D by UMAP and clustered by KMeans with k = min(8, max(1, N // 3))
        (seed 000). ``method="pca"`` projects by PCA; ``"auto"`` uses UMAP once this
        process has compiled it and PCA (starting the compilation) until then. Without
        the [viz] extra, PCA and a numpy KMeans answer and ``note`` says so."""
        core = self._core
        scope = core.open_scope(**who)
        return graph_view.build(core, scope, limit, type, method)

    def warm_up(self) -> dict[str, Any]:
        """Import UMAP and compile its numba code once (``engram serve`` does it in a
        background thread at start), so the first ``graph`` is fast."""
        return projection.warm_up()
