"""The read path: candidates -> fusion -> quality and recency -> dedup -> floor -> budget.

Each stage is a small function elsewhere in this package; this module wires them
together, times them, and owns the fallback hierarchy (architecture principle 4): if
the embedder or the vector index fails, recall answers from BM25 with
``mode="keyword"`` and says so; if there is no keyword either, it answers with the most
recent memories (``mode="recent"``).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from engram.config import RecallConfig
from engram.embed.base import Embedder
from engram.recall import format as fmt
from engram.recall import fusion, packing, scoring
from engram.records import Hit, MemoryRecord, Recall, RecallMode, ScoreBreakdown, utcnow
from engram.store.base import Store
from engram.text import fts_query
from engram.vectors import VectorIndex

log = logging.getLogger("engram.recall")

Filter = Callable[[MemoryRecord], bool]

#: How deep keyword scores are read to complete dense-only candidates; a candidate
#: below this depth has a negligible keyword score and counts as 0.
KEYWORD_DEPTH = 1000


@dataclass(frozen=True, slots=True)
class RecallRequest:
    """Everything one recall needs to know."""

    query: str
    namespace: str
    limit: int
    budget_tokens: int | None = None
    matches: Filter | None = None
    config: RecallConfig | None = None


class _Clock:
    def __init__(self) -> None:
        self.timings: dict[str, float] = {}
        self._start = self._last = time.perf_counter()

    def lap(self, stage: str) -> None:
        now = time.perf_counter()
        self.timings[stage] = round((now - self._last) * 1000, 3)
        self._last = now

    def total(self) -> dict[str, float]:
        self.timings["total"] = round((time.perf_counter() - self._start) * 1000, 3)
        return self.timings


class Retriever:
    """Runs recall against a store, its derived vector index and an embedder."""

    def __init__(
        self,
        store: Store,
        config: RecallConfig,
        embedder: Embedder | None,
        index: VectorIndex | None,
    ) -> None:
        self.store = store
        self.config = config
        self.embedder = embedder
        self.index = index

    def recall(self, request: RecallRequest) -> Recall:
        """Run the whole read path for one query."""
        cfg = request.config or self.config
        clock = _Clock()
        warnings: list[str] = []
        # Filters drop candidates after retrieval, so filtered recalls fetch deeper.
        depth = 4 if request.matches is not None else 1
        dense_n = max(cfg.dense_top_n, request.limit * 3) * depth
        bm25_n = max(cfg.bm25_top_n, request.limit * 3) * depth

        dense: dict[str, float] = {}
        dense_ranking: list[str] = []
        dense_ok = False
        query_vector = None
        if cfg.strategy in ("hybrid", "dense") and self.embedder and self.index:
            try:
                query_vector = self.embedder.embed_batch([request.query])[0]
                clock.lap("embed")
                found = self.index.search(request.namespace, query_vector, dense_n)
                dense_ranking = [memory_id for memory_id, _ in found]
                dense = dict(found)
                dense_ok = True
            except Exception as exc:  # degrade loudly, never fail recall on vectors
                message = f"vector search unavailable, answering from keywords: {exc}"
                log.warning(message)
                warnings.append(message)
            clock.lap("dense")
        elif cfg.strategy in ("hybrid", "dense"):
            warnings.append("no embedder configured; answering from keywords")

        match = fts_query(request.query)
        bm25_raw: dict[str, float] = {}
        bm25_ranking: list[str] = []
        use_keywords = cfg.strategy in ("hybrid", "bm25") or not dense_ok
        if match is not None and use_keywords:
            # FTS5 scores every match to rank them anyway, so reading deeper than the
            # top-N is nearly free; the extra scores complete dense-only candidates.
            found_kw = self.store.keyword_search(
                request.namespace, match, max(bm25_n, KEYWORD_DEPTH)
            )
            bm25_ranking = [memory_id for memory_id, _ in found_kw[:bm25_n]]
            bm25_raw = dict(found_kw)
            clock.lap("bm25")

        if dense_ok and cfg.strategy == "dense":
            mode = RecallMode.DENSE
        elif dense_ok and (cfg.strategy == "hybrid"):
            mode = RecallMode.HYBRID
        elif match is not None:
            mode = RecallMode.KEYWORD
        else:
            mode = RecallMode.RECENT

        if mode is RecallMode.RECENT:
            return self._recent(request, cfg, clock, warnings)

        # Complete both legs' scores for every candidate so fusion compares like with like.
        candidate_ids = list(dict.fromkeys([*dense_ranking, *bm25_ranking]))
        # Keyword scores beyond the candidates only served to complete them.
        bm25_raw = {i: bm25_raw[i] for i in candidate_ids if i in bm25_raw}
        if mode is RecallMode.HYBRID and query_vector is not None and self.index is not None:
            missing_dense = [i for i in candidate_ids if i not in dense]
            if missing_dense:
                dense.update(self.index.scores(request.namespace, query_vector, missing_dense))
        records: dict[str, MemoryRecord] = {}
        if request.matches is not None:
            # Filters need the records before fusion; without filters only the pool is read.
            records = self.store.get_many(request.namespace, candidate_ids)
            records = {k: v for k, v in records.items() if request.matches(v)}
            candidate_ids = [i for i in candidate_ids if i in records]
            clock.lap("filter")

        bm25 = fusion.normalize_bm25(bm25_raw)
        fused = self._fuse(mode, cfg, candidate_ids, dense, bm25, dense_ranking, bm25_ranking)
        clock.lap("fuse")

        pool = sorted(candidate_ids, key=lambda i: fused.get(i, 0.0), reverse=True)
        # seed 000: over-fetch SEMANTIC_CANDIDATES, re-rank, return MAX_CONTEXT_OBSERVATIONS.
        pool = pool[: max(cfg.candidates, request.limit)]
        if request.matches is None:
            records = self.store.get_many(request.namespace, pool)
            pool = [i for i in pool if i in records]
            clock.lap("fetch")
        hits = self._rank(pool, records, fused, dense, bm25, cfg)
        clock.lap("rank")
        return self._finish(request, cfg, hits, mode, clock, warnings)

    def _fuse(
        self,
        mode: RecallMode,
        cfg: RecallConfig,
        ids: Sequence[str],
        dense: Mapping[str, float],
        bm25: Mapping[str, float],
        dense_ranking: Sequence[str],
        bm25_ranking: Sequence[str],
    ) -> dict[str, float]:
        if mode is RecallMode.DENSE:
            return {i: fusion.dense_relevance(dense.get(i, 0.0)) for i in ids}
        if mode is RecallMode.KEYWORD or cfg.strategy == "bm25":
            return {i: bm25.get(i, 0.0) for i in ids}
        if cfg.fusion == "rrf":
            keep = set(ids)
            return fusion.rrf(
                [[i for i in dense_ranking if i in keep], [i for i in bm25_ranking if i in keep]],
                cfg.rrf_k,
            )
        return fusion.weighted(ids, dense, bm25, cfg.alpha)

    def _rank(
        self,
        pool: Sequence[str],
        records: Mapping[str, MemoryRecord],
        fused: Mapping[str, float],
        dense: Mapping[str, float],
        bm25: Mapping[str, float],
        cfg: RecallConfig,
    ) -> list[Hit]:
        now = utcnow()
        hits: list[Hit] = []
        for memory_id in pool:
            memory = records[memory_id]
            relevance = min(1.0, fused.get(memory_id, 0.0) + cfg.personal_boost)
            if cfg.quality_weighting:
                rank = scoring.rank_score(relevance, memory.score, memory.quality)
            else:
                rank = relevance
            fresh = scoring.recency(memory.created_at, now, cfg.decay_rate)
            final = (1 - cfg.recency_weight) * rank + cfg.recency_weight * fresh
            hits.append(
                Hit(
                    memory=memory,
                    score=final,
                    breakdown=ScoreBreakdown(
                        sim=dense.get(memory_id),
                        bm25=bm25.get(memory_id),
                        fused=relevance,
                        quality_factor=scoring.q_adjust(memory.quality),
                        quality_weight=scoring.quality_weight(memory.score),
                        rank_score=rank,
                        recency=fresh,
                        final=final,
                    ),
                )
            )
        hits.sort(key=lambda h: h.score, reverse=True)
        return hits

    def _recent(
        self, request: RecallRequest, cfg: RecallConfig, clock: _Clock, warnings: list[str]
    ) -> Recall:
        now = utcnow()
        records = self.store.recent(request.namespace, request.limit * 4)
        if request.matches is not None:
            records = [r for r in records if request.matches(r)]
        hits = []
        for memory in records[: request.limit]:
            fresh = scoring.recency(memory.created_at, now, cfg.decay_rate)
            hits.append(
                Hit(
                    memory=memory,
                    score=fresh,
                    breakdown=ScoreBreakdown(
                        sim=None,
                        bm25=None,
                        fused=0.0,
                        quality_factor=scoring.q_adjust(memory.quality),
                        quality_weight=scoring.quality_weight(memory.score),
                        rank_score=0.0,
                        recency=fresh,
                        final=fresh,
                    ),
                )
            )
        warnings.append("query has no keywords and vectors are unavailable: most recent shown")
        clock.lap("recent")
        return self._finish(request, cfg, hits, RecallMode.RECENT, clock, warnings, floor=False)

    def _finish(
        self,
        request: RecallRequest,
        cfg: RecallConfig,
        hits: list[Hit],
        mode: RecallMode,
        clock: _Clock,
        warnings: list[str],
        *,
        floor: bool = True,
    ) -> Recall:
        if cfg.dedup_by_title:
            hits = packing.dedup_by_title(hits)
        if floor:
            hits = packing.above(hits, cfg.min_relevance)
        hits = hits[: request.limit]
        if request.budget_tokens is not None:
            hits = packing.pack_budget(hits, request.budget_tokens, fmt.hit_cost(cfg.context_style))
        clock.lap("pack")
        context = fmt.render(hits, cfg.context_style)
        clock.lap("format")
        return Recall(
            query=request.query,
            hits=tuple(hits),
            mode=mode,
            timings=clock.total(),
            context=context,
            warnings=tuple(warnings),
        )


def filter_from(filters: Mapping[str, Any] | None) -> Filter | None:
    """A predicate for ``filters``: equality on record fields, tags and metadata keys.

    Known record fields (``type``, ``category``, ``user_id``, ``agent_id``, ``run_id``,
    ``session_id``, ...) compare directly; ``tags`` requires every listed tag; any other
    key compares with ``metadata[key]``. A list value means "any of these".
    """
    if not filters:
        return None
    items = dict(filters)

    def matches(memory: MemoryRecord) -> bool:
        for key, wanted in items.items():
            if key == "tags":
                tags = [wanted] if isinstance(wanted, str) else list(wanted)
                if not set(tags) <= set(memory.tags):
                    return False
                continue
            if key in MemoryRecord.__dataclass_fields__ and key != "metadata":
                actual = getattr(memory, key)
                actual = getattr(actual, "value", actual)
            else:
                actual = memory.metadata.get(key)
            options = wanted if isinstance(wanted, list | tuple | set) else [wanted]
            if actual not in options:
                return False
        return True

    return matches
