"""The read path: candidates -> fusion -> quality and recency -> dedup -> floor -> budget.

Each stage is a small function elsewhere in this package; this module wires them
together, times them, and owns the fallback hierarchy (architecture principle 4): if
the embedder or the vector index fails, recall answers from BM25 with
``mode="keyword"`` and says so; if there is no keyword either, it answers with the most
recent memories (``mode="recent"``).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from concurrent.futures import Future
from dataclasses import replace
from functools import partial
from typing import Any

from engram.config import RecallConfig
from engram.embed.base import Embedder
from engram.embed.cache import QueryVectorCache
from engram.errors import RetrievalError, StoreClosedError, StoreConnectionError, StoreError
from engram.llm.base import LlmProvider
from engram.recall import (
    abstain,
    abstain_attribute,
    anchors,
    centred,
    completion,
    conditions,
    context,
    coverage,
    dampening,
    decompose,
    diversity,
    doc_windows,
    echoes,
    empty,
    fusion,
    judgement,
    keyword_share,
    lists,
    packing,
    ranking,
    rerank,
    restated,
    said,
    shared,
    standing_items,
    statement,
    temporal,
    waiting,
    workers,
)
from engram.recall import format as fmt
from engram.recall.chunks import PooledDense
from engram.recall.current import KindReader, StaleReader, closed, demoted, untimed
from engram.recall.directives import directive_ids
from engram.recall.graph_boost import boost as boost_by_graph
from engram.recall.hints import hint_matches, merge_by_max
from engram.recall.length import long_ids, self_contained
from engram.recall.recent import recent_hits
from engram.recall.request import Clock, Legs, RecallRequest
from engram.recall.standing import Standings, standing_reader
from engram.records import Hit, MemoryRecord, Recall, RecallMode
from engram.store.protocols import KeywordIndex, MemoryStore, VectorSearch, VectorStore
from engram.store.protocols.chunks import ChunkVectorStore
from engram.store.protocols.graph import GraphStore
from engram.store.protocols.hints import HintStore
from engram.store.protocols.keyword import DEPTH
from engram.store.protocols.vectors import FactsAlong
from engram.text import fts_query

log = logging.getLogger("engram.recall")


class Retriever:
    """Runs recall against a store's memories and keyword index, its dense search
    (``VectorSearch``) and an embedder."""

    def __init__(
        self,
        memories: MemoryStore,
        keyword: KeywordIndex,
        vectors: VectorStore,
        config: RecallConfig,
        embedder: Embedder | None,
        index: VectorSearch | None,
        *,
        llm: Callable[[], LlmProvider | None] | None = None,
        entity_mentions: dampening.EntityMentions | None = None,
        hints: HintStore | None = None,
        graph: GraphStore | None = None,
        chunks: ChunkVectorStore | None = None,
        calibration: abstain.Calibration = abstain.CALIBRATION,
        standings: Standings | None = None,
        stale: StaleReader | None = None,
        retimed: KindReader | None = None,
        overlap_reads: bool = False,
    ) -> None:
        self.memories, self.keyword, self.vectors = memories, keyword, vectors
        self.config, self.embedder, self.index = config, embedder, index
        # issue 24: the abstain floors for this embedder, and (round 5) the standing
        self.calibration, self.standings = calibration, standings
        self.query_vectors = QueryVectorCache()  # a repeated query skips the model
        self.sizes = anchors.NamespaceSizes()  # recall.anchor_share's namespace counts
        # Three workers: the keyword leg, the hint index's search and one read that
        # overlaps the main thread's (``overlap_reads``), so none waits for another.
        self._workers = workers.Workers(3, "engram-recall")
        self.conditioned = conditions.Holders(chunks, embedder, self._workers.submit)  # issue 24
        self.windowed = doc_windows.holders(chunks, embedder, self._workers.submit)
        # ``llm`` makes the provider for recall.rerank = "llm" on first use (e.g.
        # ``Core.llm``); ``entity_mentions`` is the entity graph's seam for hub
        # dampening (a no-op without it).
        self.rerankers = rerank.Rerankers(index, llm)
        self.entity_mentions = entity_mentions
        # seed 004's prospective index, searched with the keyword leg when recall.hints.
        self.hints = hints
        self.graph = graph  # seed 004's graph boost (G4), when recall.graph_boost
        self.chunks = chunks  # issue 13: chunk vectors of long memories
        self.stale, self.retimed = stale, retimed  # issue 28: memories of closed facts
        # FEATURES S4: text that heads every context (``mem.org``'s core policies).
        self.preamble: Callable[[], str] | None = None
        # conflict38: namespace -> (the two memories, a warning) per disagreement.
        self.disagreements: Callable[[str], list[tuple[frozenset[str], str]]] | None = None
        # FEATURES S3: a request's shared space is ranked beside it (seed 002).
        self.shared = shared.SharedLeg(lambda ns: self.memories.count(ns))
        # Each read is a round trip to a server (PostgreSQL): the reads that do not
        # depend on each other (the shared space's count, the policy block, the
        # keyword-only candidates' cosines) then run beside the main thread's instead
        # of after them (docs/benchmarks.md, issue 29, round 8). On SQLite a read costs
        # less than handing it to a thread.
        self.overlap_reads = overlap_reads

    def close(self) -> None:
        """Stop the worker threads keyword search and the shared leg run on."""
        self.shared.close()
        self._workers.close()

    def _dense(self, cfg: RecallConfig, namespace: str) -> VectorSearch | PooledDense:
        """The dense leg, with extra vectors pooled in (``conditions.dense_leg``)."""
        assert self.index is not None
        return conditions.dense_leg(
            self.index, self.chunks, cfg, self.conditioned, namespace, self.windowed
        )

    def _keyword_search(
        self, namespace: str, match: str, limit: int, search: Callable[..., Any] | None = None
    ) -> Future[Any]:
        # The keyword leg runs beside query embedding and dense search: SQLite and
        # onnxruntime release the GIL, so on two cores the legs overlap.
        return self._workers.submit(search or self.keyword.search, namespace, match, limit)

    def recall(self, request: RecallRequest) -> Recall:
        """Run the whole read path for one query. A store failure on the way is a
        ``RetrievalError`` (seed 002); a closed or disconnected store says so."""
        try:
            return self._recall(request)
        except (StoreClosedError, StoreConnectionError, RetrievalError):
            raise
        except StoreError as exc:
            raise RetrievalError(f"recall failed in the store: {exc}") from exc

    def _recall(self, request: RecallRequest) -> Recall:
        cfg = said.config_for(request.query, request.config or self.config)
        clock = Clock()
        warnings: list[str] = []
        # Reads whose answers recall needs only later, started before the legs when
        # reads are round trips, or when the model will run (SQLite: its run hides
        # them, off the calling thread, as one task): nothing in the recall changes them.
        ahead = self.overlap_reads or bool(
            cfg.strategy in ("hybrid", "dense") and self.embedder and self.index
        )
        with workers.Batch(self._workers, one_task=not self.overlap_reads) as reads:
            count = self.shared.probe(request, reads) if ahead else None
            lead = reads.submit(self.preamble) if ahead and self.preamble is not None else None
            told = self.disagreements if ahead else None  # conflict38: off the calling thread
            split = reads.submit(told, request.namespace) if told is not None else None
            # SQLite: the dense leg's count of memories without a vector there too.
            bare = waiting.count_bare(reads, self.vectors, request.namespace) if ahead else None
        legs = self._candidates(request, cfg, clock, warnings, bare)
        if legs.mode is RecallMode.RECENT:
            return self._recent(request, cfg, clock, warnings, lead)
        # Started once the query is embedded (the shared leg reuses its vector).
        pending = self.shared.start(request, cfg, lambda r: self._part(r, r.config or cfg), count)
        hits, found = self._rank(request, cfg, legs, clock, warnings)
        if pending is not None:  # seed 002: merged with personal hits, ranked together
            hits = shared.merge(hits, pending.result())
            clock.lap("shared")
        parts = lists.parts(request.query, cfg)
        if parts:  # issue 24: a question listing or joining things, also asked as its parts
            hits = decompose.interleave([hits, *(self._part(request, cfg, p) for p in parts)])
            clock.lap("decompose")
        done = self._finish(
            request, cfg, hits, legs.mode, clock, warnings, found=found, lead=lead, split=split
        )
        read = (self.chunks, self.memories, self.embedder, legs.query_vector)
        return standing_items.block(done, cfg, request, *read)  # issue 24: a request's rules

    def _part(
        self, request: RecallRequest, cfg: RecallConfig, query: str | None = None
    ) -> list[Hit]:
        """The ranked hits of one part of a decomposed query, or of the shared leg (its
        own timings and warnings are the whole query's business, so they are not kept)."""
        part = request if query is None else replace(request, query=query)
        clock = Clock()
        warnings: list[str] = []
        legs = self._candidates(part, cfg, clock, warnings)
        if legs.mode is RecallMode.RECENT:
            return []
        return self._rank(part, cfg, legs, clock, warnings)[0]

    def _rank(
        self,
        request: RecallRequest,
        cfg: RecallConfig,
        legs: Legs,
        clock: Clock,
        warnings: list[str],
    ) -> tuple[list[Hit], int]:
        """The candidates of ``legs`` fused, ranked (and reranked): the hits, and how
        many candidates were found before filters."""
        candidate_ids = list(
            dict.fromkeys([*legs.dense_ranking, *legs.keyword_ranking, *legs.time_ids])
        )
        records: dict[str, MemoryRecord] = {}
        found = len(candidate_ids)  # before filters: an empty answer says they excluded all
        if request.filtered:  # filters need the records before fusion
            records = request.kept(self.memories.get_many(request.namespace, candidate_ids))
            candidate_ids = [i for i in candidate_ids if i in records]
            clock.lap("filter")

        dense = dict(legs.dense)
        # The cosines of the candidates the dense leg did not rank: the keyword leg's
        # completion's, and the rest read beside the facts below when reads are round
        # trips (the session members' come after).
        unranked = [i for i in candidate_ids if i not in dense]
        covered = completion.cosines(legs, unranked, dense)
        rest = [i for i in unranked if i not in covered]
        early = None
        if rest and self.overlap_reads and legs.query_vector is not None and self.index:
            early = self._workers.submit(
                self._dense(cfg, request.namespace).scores,
                request.namespace,
                legs.query_vector,
                rest,
            )
        # Which candidates stated a fact since closed (issue 28), read beside the rest
        # when reads are round trips.
        stale = self.stale
        if self.overlap_reads and stale is not None:
            stale = waiting.StaleAhead.start(self._workers, stale, request, cfg, candidate_ids)
        # Creation time, session and length of every candidate, in one read.
        have = {**legs.time_records, **records}
        facts = waiting.facts_of(self.memories, request.namespace, candidate_ids, have, legs.facts)
        sessions = context.read(self.memories, request.namespace, cfg, legs.mode, facts)
        if sessions.session_of:
            # A turn is often relevant through its neighbour ("What did you do?" ->
            # "Went hiking!"), so the neighbours of candidates become candidates too.
            known = set(candidate_ids)
            extra = list(
                dict.fromkeys(
                    n
                    for i in candidate_ids
                    for n in sessions.neighbours(i)
                    if n is not None and n not in known
                )
            )
            if extra and request.filtered:
                records.update(request.kept(self.memories.get_many(request.namespace, extra)))
                extra = [i for i in extra if i in records]
            candidate_ids.extend(extra)
            facts.update(waiting.facts_of(self.memories, request.namespace, extra, records))
            clock.lap("sessions")
        if early is not None:
            completed = workers.joined(early, "the dense leg's completion")
            dense.update(completed)
        if legs.query_vector is not None and self.index is not None:
            # Complete the dense leg for every candidate and every session member, so
            # fusion and session context compare like with like (an id asked above
            # and not found has no vector: it is not asked again).
            done = covered.union(rest) if early is not None else covered
            wanted = [
                i for i in [*candidate_ids, *sessions.all_ids()] if i not in dense and i not in done
            ]
            if wanted:
                dense.update(
                    self._dense(cfg, request.namespace).scores(
                        request.namespace, legs.query_vector, wanted
                    )
                )
        if legs.keyword_match is not None:
            # Exact keyword scores of every candidate and session member not ranked.
            wanted = [i for i in [*candidate_ids, *sessions.all_ids()] if i not in legs.keyword]
            if wanted:
                legs.keyword.update(
                    self.keyword.scores(request.namespace, legs.keyword_match, wanted)
                )
        keyword = fusion.normalize_bm25(legs.keyword)
        times = waiting.time_scores(legs, candidate_ids, facts)
        long, directives = long_ids(facts, cfg), directive_ids(facts, cfg)
        # issue 28 (G2): asked about now, what stated a closed fact lends no context.
        old = closed(stale, request.namespace, request.query, cfg, candidate_ids, warnings)
        old -= untimed(self.retimed, request.namespace, request.query, old, warnings)
        sessions, turns = sessions.without(old), sessions  # turns: as stored (echoes)
        alone = context.sessionless(facts) if cfg.keyword_spread_rank else frozenset()  # round 9
        sets = long, directives, alone, self_contained(facts, cfg, request.query)  # C3
        fused, parts = ranking.fuse(
            legs, cfg, candidate_ids, dense, keyword, sessions, times, *sets
        )
        if (second := legs.second_legs(cfg)) and self.index is not None:  # R1's, Q1's legs
            scores = partial(self._dense(cfg, request.namespace).scores, request.namespace)
            fused = statement.fuse_legs(fused, second, scores, candidate_ids)
        if legs.judgement_sessions:  # hop39: a judgement question's session leg
            fused = judgement.fuse(fused, facts, legs.judgement_sessions, cfg)
        clock.lap("fuse")
        if cfg.graph_boost and self.graph is not None:  # seed 004 (G4): linked ids + weight
            fused = boost_by_graph(
                self.graph, request.namespace, request.query, cfg, fused, warnings
            )
            clock.lap("graph")
        # issue 28 (G2): asked about now, a fact since replaced ranks below its successor.
        fused = demoted(old, cfg, fused)
        fused = centred.reorder(request, cfg, fused, legs.query_vector, self.index)  # centre43
        pool = sorted(candidate_ids, key=lambda i: fused.get(i, 0.0), reverse=True)
        # seed 000: over-fetch SEMANTIC_CANDIDATES, re-rank, return MAX_CONTEXT_OBSERVATIONS.
        # A reranker sees its whole head (seed 003: "the top 20 candidates").
        head = cfg.rerank_top_n if cfg.rerank != "none" else 0
        pool = pool[: max(cfg.candidates, request.limit, head, coverage.depth(request.query, cfg))]
        if request.matches is None:
            missing = [i for i in pool if i not in records]
            records.update(self.memories.get_many(request.namespace, missing))
            pool = [i for i in pool if i in records]
            clock.lap("fetch")
        # A memory the pipeline replaced stays stored, but its successor answers.
        pool = [i for i in pool if records[i].superseded_by is None]
        if cfg.keyword_share:  # round 11: a note's keyword leg by its share of the query
            weights = keyword_share.alphas(long, directives, cfg)
            notes = context.sessionless(facts)
            args = (parts, dense, legs.keyword, cfg, notes, weights, bool(times))
            pool = keyword_share.rescored(request.query, pool, records, fused, *args)
        # seed 004 (C9): gravity, hub and resolution multiply the fused relevance after
        # fusion and before the final sort ({} when every stage is off); now26's echoes too.
        damp = dampening.factors(
            request.query,
            request.namespace,
            pool,
            records,
            fused,
            {i for i in pool if parts[i][0]},
            cfg,
            self.entity_mentions,
        )
        damp, pool = echoes.demoted(damp, request, pool, records, turns, self.memories, old, cfg)
        hits = ranking.rank(pool, records, fused, dense, keyword, parts, cfg, damp)
        clock.lap("rank")
        if cfg.rerank != "none":
            # seeds 003/004 (C10): rerank the head; a timeout or failure keeps the order.
            asked = rerank.RerankRequest(request.query, request.namespace, legs.query_vector)
            hits = self.rerankers.apply(cfg, asked, hits, warnings)
            clock.lap("rerank")
        hits = restated.ordered(request.query, hits, cfg)  # G2: a change told unparsed
        return diversity.apply(cfg, hits, self.embedder), found  # issue 24, off by default

    def _candidates(
        self,
        request: RecallRequest,
        cfg: RecallConfig,
        clock: Clock,
        warnings: list[str],
        bare: Future[int] | None = None,
    ) -> Legs:
        """Dense top-N, keyword top-N and time-matched memories, and the mode that
        answers (the fallback hierarchy); ``bare``: the count of memories without a
        vector, when it was started beside the model."""
        # Filters drop candidates after retrieval, so filtered recalls fetch deeper.
        depth = 4 if request.filtered else 1
        dense_n = max(cfg.dense_top_n, request.limit * 3) * depth
        keyword_n = max(cfg.bm25_top_n, request.limit * 3) * depth
        legs = Legs(windows=temporal.time_windows(request.query) if cfg.time_weight else [])
        match = fts_query(request.query)
        # Before the keyword leg starts on its worker: the lookup then never waits for a
        # connection that search holds.
        wants_dense = cfg.strategy in ("hybrid", "dense") and self.embedder and self.index
        dense_text = self._dense_text(request, cfg, warnings) if wants_dense else request.query
        hints = self.hints if cfg.hints else None
        if match is not None and hints is None and self.keyword.exact(request.namespace):
            # Every other candidate's score is looked up once candidates are known.
            keyword_depth = keyword_n
            legs.keyword_match = match
        else:
            # The index ranks the whole match anyway: reading deeper than the top-N
            # costs little, and the extra scores complete the other candidates (a
            # candidate below the depth scores about 0).
            keyword_depth = max(keyword_n, DEPTH)
        # The keyword leg runs on a worker thread beside query embedding and dense search
        # (in line after them, even the in-memory term index costs more: benchmarks, "Scale").
        # Its top ids' cosines and facts are read there (PostgreSQL), or facts (SQLite).
        scorer = self._dense(cfg, request.namespace) if wants_dense and self.index else None
        along = self.overlap_reads and isinstance(scorer, FactsAlong)
        handoff = completion.Handoff() if along and cfg.strategy == "hybrid" else None
        ahead = None if self.overlap_reads else self.memories.facts
        leg = completion.leg(self.keyword.search, scorer, handoff, keyword_n, ahead)
        pending = (
            self._keyword_search(request.namespace, match, keyword_depth, leg)
            if match is not None and cfg.strategy in ("hybrid", "bm25")
            else None
        )
        # The hint index is searched on the other worker thread, beside the content
        # index (PostgreSQL runs both at once; SQLite's search connection takes turns).
        pending_hints = (
            self._keyword_search(request.namespace, match, keyword_depth, hints.search)
            if pending is not None and match is not None and hints is not None
            else None
        )

        dense_ok = False
        if scorer is not None and self.embedder:
            try:
                legs.query_vector, legs.statement_vector = statement.vectors(
                    request.query, dense_text, cfg, self.embedder, self.query_vectors
                )
                clock.lap("embed")
                found = completion.dense_search(scorer, handoff, legs, request.namespace, dense_n)
                legs.dense_ranking = [memory_id for memory_id, _ in found]
                legs.dense = dict(found)
                dense_ok = True
                # Memories written but not embedded (a write stopped between its two
                # transactions, or the embedder failed) are invisible to this leg.
                unembedded = waiting.unembedded(self.vectors, request.namespace, bare)
                if unembedded:
                    warnings.append(
                        f"{unembedded} memories of this namespace have no vector yet, so "
                        "dense search cannot find them; `engram serve` embeds them in the "
                        "background, or run `engram reindex`"
                    )
            except Exception as exc:  # degrade loudly, never fail recall on vectors
                message = f"vector search unavailable, answering from keywords: {exc}"
                log.warning(message)
                warnings.append(message)
                legs.query_vector = None
            clock.lap("dense")
            wanted = dense_text == request.query and judgement.wanted(request.query, cfg)
            if dense_ok and wanted:  # R1's and hop39's second queries
                embed = partial(self.query_vectors.embed, self.embedder)
                reads = judgement.Reads(self.graph, self.memories, embed, self.sizes)
                dense = partial(self._dense, cfg, request.namespace)
                judgement.second_queries(request, cfg, legs, reads, dense, warnings, clock)
        elif cfg.strategy in ("hybrid", "dense"):
            warnings.append("no embedder configured; answering from keywords")

        if self.overlap_reads and waiting.waiting(pending) and not request.filtered:
            # PostgreSQL: the reads that need no keyword answer run while it is read.
            waiting.before_join(
                pending,
                partial(waiting.while_keyword, self.memories, request, cfg, legs, clock),
                "the keyword search",
            )
        if match is not None and (cfg.strategy in ("hybrid", "bm25") or not dense_ok):
            found_kw: list[tuple[str, float]] = (
                completion.joined(legs, workers.joined(pending, "the keyword search"))
                if pending is not None
                else self.keyword.search(request.namespace, match, keyword_depth)
            )
            if hints is not None:
                found_kw = merge_by_max(
                    found_kw,
                    hint_matches(
                        hints, pending_hints, request.namespace, match, keyword_depth, warnings
                    ),
                )
            legs.keyword_ranking = [memory_id for memory_id, _ in found_kw[:keyword_n]]
            legs.keyword = dict(found_kw)
            clock.lap("bm25")

        if dense_ok and cfg.strategy == "dense":
            legs.mode = RecallMode.DENSE
        elif dense_ok and cfg.strategy == "hybrid":
            legs.mode = RecallMode.HYBRID
        elif match is not None:
            legs.mode = RecallMode.KEYWORD
        else:
            legs.mode = RecallMode.RECENT
            return legs
        if not legs.near_read:
            waiting.time_leg(self.memories, request, cfg, legs, clock)
        return legs

    def _dense_text(self, request: RecallRequest, cfg: RecallConfig, warnings: list[str]) -> str:
        """The text the dense leg embeds: the query, without its anchor names when
        ``recall.anchor_share`` is set (issue 24, ``recall/anchors.py``)."""
        if cfg.anchor_share is None:
            return request.query
        return anchors.dense_query(
            request.query,
            request.namespace,
            self.graph,
            self.memories,
            cfg.anchor_share,
            warnings,
            self.sizes,
        ).text

    def _recent(
        self,
        request: RecallRequest,
        cfg: RecallConfig,
        clock: Clock,
        warnings: list[str],
        lead: Future[str] | None = None,
    ) -> Recall:
        hits, found = recent_hits(self.memories, request, cfg)
        warnings.append("query has no keywords and vectors are unavailable: most recent shown")
        clock.lap("recent")
        mode = RecallMode.RECENT
        return self._finish(
            request, cfg, hits, mode, clock, warnings, floor=False, found=found, lead=lead
        )

    def _finish(
        self,
        request: RecallRequest,
        cfg: RecallConfig,
        hits: list[Hit],
        mode: RecallMode,
        clock: Clock,
        warnings: list[str],
        *,
        floor: bool = True,
        found: int = 0,
        lead: Future[str] | None = None,
        split: Future[list[tuple[frozenset[str], str]]] | None = None,
    ) -> Recall:
        """The floor, the limit and the budget, then the context; ``lead``: the policy
        block, ``split``: the disagreements, when read beside the rest of the recall."""
        if cfg.dedup_by_title:
            hits = packing.dedup_by_title(hits)
        ranked = hits
        abstained: str | None = None
        low_confidence, tied = False, False
        if floor and cfg.min_relevance is not None:  # the caller's own floor overrides
            hits = packing.above(hits, cfg.min_relevance)
        elif floor and cfg.abstain:  # FEATURES E7: nothing related -> nothing at all
            model = None if self.embedder is None else self.embedder.name
            read = standing_reader(self.standings, cfg.standing, request.namespace, request.shared)
            answered = abstain_attribute.reader(self, cfg)  # issue 24: both when on
            hits, abstained, low_confidence, tied = abstain.screen(
                request.query, hits, model, cfg, self.calibration, read, answered, request.limit
            )
            clock.lap("abstain")
        if floor:  # issue 24: a question about a whole thread sees it spread over time
            hits = coverage.apply(request.query, cfg, hits)
        hits = fitted = packing.once_per_source(hits, cfg.derived_once)[: request.limit]
        if request.budget_tokens is not None:
            hits = packing.pack_budget(hits, request.budget_tokens, fmt.hit_cost(cfg.context_style))
        clock.lap("pack")
        shown = hits
        flagged = [h for h in hits if fmt.flags(h.memory)]
        if flagged and cfg.flagged_context == "omit":
            # Flag mode stored them; they stay in ``hits`` with their flags, but their
            # text never reaches a prompt unless recall.flagged_context = "mark".
            shown = [h for h in hits if not fmt.flags(h.memory)]
            warnings.append(
                f"{len(flagged)} flagged memories left out of the context (the injection "
                "scan flagged them; see metadata['injection_flags'])"
            )
        # issue 24: unsure -> one line, "Possibly related" (round 11: the nearest note;
        # round 12: a tied answer keeps its lines, only marked: recall/abstain_tie.py)
        if low_confidence and not tied:
            shown = abstain.possibly_related(shown)
        heading = fmt.POSSIBLY_RELATED if low_confidence else None
        cites = request.cite([h.memory.id for h in shown]) if request.cite and shown else None
        context = fmt.render(shown, cfg.context_style, cites, heading)
        if lead is not None:
            block = workers.joined(lead, "the policy block")
        else:
            block = self.preamble() if self.preamble is not None else ""
        if block:  # seed 002: core policies go into every context, first
            context = f"{block}\n\n{context}" if context else block
        if self.disagreements is not None and hits:
            ids = {h.memory.id for h in hits}
            told = self.disagreements(request.namespace) if split is None else split.result()
            warnings.extend(w for pair, w in told if pair & ids)
        stages = empty.Stages(found, ranked, fitted, hits, shown)
        clock.lap("format")
        return Recall(
            query=request.query,
            hits=tuple(hits),
            mode=mode,
            timings=clock.total(),
            context=context,
            warnings=tuple(warnings),
            abstain_reason=abstained,
            empty=empty.explain(request, cfg, stages, mode, abstained, self.memories),
            low_confidence=low_confidence,
            shown=tuple(h.memory.id for h in shown),
        )
