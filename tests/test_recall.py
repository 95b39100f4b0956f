"""The read path end to end: candidates, fusion, quality, recency, packing, fallbacks."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path

import pytest

from conftest import FailingEmbedder, HashEmbedder
from engram import Config, Memory, RecallMode
from engram.recall import format as fmt
from engram.recall import packing, scoring
from engram.records import Recall, utcnow
from engram.spotlight import DATA_MARKER

DOCS = [
    "The deploy script lives in ops/deploy.sh and needs a VPN",
    "Alice likes green tea in the afternoon",
    "Bob prefers espresso, never tea",
    "The staging database is db-staging-2 on port 5433",
    "Quarterly planning happens in the second week of January",
]


@pytest.fixture
def filled(mem: Memory) -> Memory:
    mem.add_many(DOCS)
    return mem


@pytest.fixture
def kw(config: Config, store_location: str) -> Iterator[Memory]:
    """Keyword-only memory: no embedder configured."""
    with Memory(store_location, config=config, embedder=None) as m:
        yield m


def ids(recall: Recall) -> list[str]:
    return [h.id for h in recall.hits]


def contents(recall: Recall) -> list[str]:
    return [h.memory.content for h in recall.hits]


# -- ranking and modes ----------------------------------------------------------------


def test_hybrid_recall_ranks_the_obvious_match_first(filled: Memory) -> None:
    recall = filled.recall("where is the deploy script?")
    assert recall.mode is RecallMode.HYBRID
    assert contents(recall)[0] == DOCS[0]
    top = recall.hits[0].breakdown
    assert top.sim is not None and top.sim > 0
    assert top.bm25 == 1.0  # the best keyword match normalises to 1
    assert recall.hits == tuple(sorted(recall.hits, key=lambda h: h.score, reverse=True))
    assert recall.warnings == ()


# Session context and time nearness off: the legs are then the seeds' raw scores.
PLAIN = {
    "context_dense": 0.0,
    "session_dense": 0.0,
    "context_keyword": 0.0,
    "session_keyword": 0.0,
    "time_weight": 0.0,
}


def test_breakdown_follows_the_formulas(filled: Memory) -> None:
    cfg = filled.config.recall
    for hit in filled.recall("tea espresso deploy", limit=5).hits:
        b = hit.breakdown
        assert b.dense is not None and b.keyword is not None
        # seed 004: alpha * vector + (1 - alpha) * keyword, over the (context-blended) legs
        assert b.fused == pytest.approx(cfg.alpha * b.dense + (1 - cfg.alpha) * b.keyword)
    # The legs as the seeds score them: round 11's share of the query off (it scales a
    # note's keyword leg, as the breakdown shows: tests/test_keyword_share.py).
    for hit in filled.recall("tea espresso deploy", limit=5, keyword_share=False, **PLAIN).hits:
        b = hit.breakdown
        m = hit.memory
        assert b.dense == pytest.approx(max(0.0, b.sim or 0.0))
        assert b.keyword == pytest.approx(b.bm25 or 0.0)
        expected_fused = cfg.alpha * max(0.0, b.sim or 0.0) + (1 - cfg.alpha) * (b.bm25 or 0.0)
        assert b.fused == pytest.approx(expected_fused)
        assert b.quality_factor == scoring.q_adjust(m.quality)
        assert b.quality_weight == scoring.quality_weight(m.score)
        assert b.rank_score == pytest.approx(scoring.rank_score(b.fused, m.score, m.quality))
        expected = (1 - cfg.recency_weight) * b.rank_score + cfg.recency_weight * b.recency
        assert b.final == pytest.approx(expected) == hit.score


@pytest.mark.parametrize(
    ("strategy", "mode"),
    [("hybrid", RecallMode.HYBRID), ("dense", RecallMode.DENSE), ("bm25", RecallMode.KEYWORD)],
)
def test_strategy_sets_mode(filled: Memory, strategy: str, mode: RecallMode) -> None:
    recall = filled.recall("green tea", strategy=strategy)
    assert recall.mode is mode
    assert recall.mode.value == mode.value
    assert contents(recall)[0] == DOCS[1]
    b = recall.hits[0].breakdown
    if strategy == "dense":
        assert b.bm25 is None and b.sim is not None
    if strategy == "bm25":
        assert b.sim is None and b.bm25 == 1.0


def test_strategy_from_config(config: Config, store_location: str) -> None:
    cfg = config.with_overrides(recall={"strategy": "bm25"})
    with Memory(store_location, config=cfg, embedder=HashEmbedder()) as mem:
        mem.add_many(DOCS)
        assert mem.recall("green tea").mode is RecallMode.KEYWORD


def test_keyword_mode_without_embedder(kw: Memory) -> None:
    kw.add_many(DOCS)
    recall = kw.recall("green tea")
    assert recall.mode is RecallMode.KEYWORD
    assert contents(recall)[0] == DOCS[1]
    assert any("no embedder" in w for w in recall.warnings)


def test_stopword_query_without_embedder_is_recent(kw: Memory) -> None:
    kw.add_many(DOCS)
    recall = kw.recall("what is the it?")
    assert recall.mode is RecallMode.RECENT
    assert contents(recall) == DOCS[::-1][:4]  # newest first, default limit 4
    assert recall.warnings
    assert recall.context.startswith("<memory_context>")


def test_stopword_query_with_embedder_still_dense(filled: Memory) -> None:
    recall = filled.recall("what is the it?")
    assert recall.mode is RecallMode.HYBRID
    assert all(h.breakdown.bm25 is None for h in recall.hits)


def test_recall_on_empty_store(mem: Memory, kw: Memory) -> None:
    for m in (mem, kw):
        recall = m.recall("anything at all")
        assert recall.hits == () and recall.context == ""
        assert m.recall("the").hits == ()


# -- seed 000: over-fetch 12, return 4 -------------------------------------------------


def test_default_limits(filled: Memory) -> None:
    filled.add_many([f"tea fact number {i}" for i in range(10)])
    assert filled.config.recall.limit == 4
    assert len(filled.recall("tea")) == 4
    assert len(filled.search("tea")) == 10
    assert len(filled.recall("tea", limit=7)) == 7


def test_overfetch_pool_is_twelve(kw: Memory) -> None:
    # 14 keyword matches; BM25 prefers shorter documents, so the fused order is by length
    filler = [f"w{i}" for i in range(20)]
    docs = [" ".join(["kite", *filler[:i]]) for i in range(14)]
    kw.add_many(docs)
    ranked = ids(kw.recall("kite", limit=14, quality_weighting=False, recency_weight=0.0))
    assert len(ranked) == 14
    # bury the top 11 with downvotes and lift the 12th (last in the pool) and the 13th
    # (first outside it) with upvotes: both would now beat every buried memory
    for memory_id in ranked[:11]:
        for _ in range(3):
            kw.feedback(memory_id, "down")
    for memory_id in ranked[11:13]:
        for _ in range(3):
            kw.feedback(memory_id, "up")
    default = ids(kw.recall("kite"))
    assert len(default) == 4
    assert default[0] == ranked[11]  # re-ranking lifted the 12th candidate to the top
    assert ranked[12] not in default  # the 13th was never a candidate
    wider = ids(kw.recall("kite", candidates=13))
    assert wider[:2] == [ranked[11], ranked[12]]


# -- seed 000: quality weighting -------------------------------------------------------


def test_upvoted_outranks_equal_similarity(mem: Memory) -> None:
    first = mem.add("friday deploy freeze policy")
    second = mem.add("policy freeze deploy friday")  # same words: same vector, same BM25
    before = mem.recall("deploy freeze friday policy", limit=2)
    assert before.hits[0].breakdown.fused == pytest.approx(before.hits[1].breakdown.fused)
    for _ in range(3):
        mem.feedback(second.id, +1)
    after = mem.recall("deploy freeze friday policy", limit=2)
    assert ids(after) == [second.id, first.id]
    assert after.hits[0].breakdown.quality_factor == pytest.approx(1.45)
    for _ in range(7):
        mem.feedback(second.id, "down")
    assert mem.get(second.id).quality == -3
    assert ids(mem.recall("deploy freeze friday policy", limit=2)) == [first.id, second.id]


def test_soft_floor_score_demotes(mem: Memory) -> None:
    low = mem.add("kubernetes cluster upgrade notes", score=6.0)
    neutral = mem.add("notes upgrade cluster kubernetes")
    recall = mem.recall("kubernetes cluster upgrade", limit=2)
    assert ids(recall) == [neutral.id, low.id]
    assert recall.hits[1].breakdown.quality_weight == pytest.approx(0.30)
    assert recall.hits[0].breakdown.quality_weight == pytest.approx(0.5)
    high = mem.add("upgrade notes kubernetes cluster", score=9.1)
    assert ids(mem.recall("kubernetes cluster upgrade", limit=3)) == [high.id, neutral.id, low.id]


def test_quality_weighting_can_be_turned_off(mem: Memory) -> None:
    mem.add("kubernetes cluster upgrade notes", score=1.0)
    recall = mem.recall("kubernetes cluster upgrade", quality_weighting=False, recency_weight=0.0)
    assert recall.hits[0].breakdown.rank_score == recall.hits[0].breakdown.fused


# -- after ranking ---------------------------------------------------------------------


def test_dedup_by_title(mem: Memory) -> None:
    best = mem.add("deploy checklist: tests, tag, release, deploy", title="Deploy checklist")
    worse = mem.add("an older deploy checklist", title="deploy CHECKLIST")
    other = mem.add("deploy rollback steps", title="Rollback")
    recall = mem.recall("deploy checklist release")
    assert best.id in ids(recall) and worse.id not in ids(recall) and other.id in ids(recall)
    both = mem.recall("deploy checklist release", dedup_by_title=False)
    assert {best.id, worse.id, other.id} <= set(ids(both))


def test_min_relevance(filled: Memory) -> None:
    everything = filled.recall("green tea espresso", limit=5)
    assert len(everything) == 5
    scores = sorted(h.score for h in everything.hits)
    cut = (scores[2] + scores[3]) / 2  # between two clearly different scores
    floored = filled.recall("green tea espresso", limit=5, min_relevance=cut)
    assert all(h.score >= cut for h in floored.hits)
    assert ids(floored) == [h.id for h in everything.hits if h.score >= cut]
    assert 0 < len(floored) < 5
    nothing = filled.recall("green tea espresso", min_relevance=9.0)
    assert nothing.hits == () and nothing.context == ""


def test_budget_tokens_packs_greedily(mem: Memory) -> None:
    mem.add("tea " + "long " * 200)
    mem.add("tea short note")
    mem.add("tea another short note")
    unbounded = mem.recall("tea", limit=3)
    cost = fmt.hit_cost(mem.config.recall.context_style)
    costs = [cost(h) for h in unbounded.hits]
    budget = sum(sorted(costs)[:2])
    packed = mem.recall("tea", limit=3, budget_tokens=budget)
    assert ids(packed) == [h.id for h in packing.pack_budget(unbounded.hits, budget, cost)]
    assert sum(cost(h) for h in packed.hits) <= budget
    assert len(packed) == 2
    assert "long long" not in packed.context
    assert mem.recall("tea", budget_tokens=1).hits == ()


def test_recency_weight(mem: Memory) -> None:
    old = mem.add("release train schedule", created_at=utcnow() - timedelta(days=730))
    new = mem.add("schedule train release")
    timeless = mem.recall("release train schedule", limit=2, recency_weight=0.0)
    assert timeless.hits[0].score == pytest.approx(timeless.hits[1].score)
    recent = mem.recall("release train schedule", limit=2, recency_weight=0.5)
    assert ids(recent) == [new.id, old.id]
    by_id = {h.id: h.breakdown for h in recent.hits}
    assert by_id[old.id].recency == pytest.approx(
        scoring.recency(utcnow() - timedelta(days=730), utcnow(), 0.001), rel=1e-3
    )
    assert by_id[new.id].recency == pytest.approx(1.0, abs=1e-4)


# -- filters ---------------------------------------------------------------------------


@pytest.fixture
def tagged(mem: Memory) -> Memory:
    mem.add("tea fact about oolong", tags=["tea", "china"], metadata={"source": "book"})
    mem.add("tea decision: buy sencha", type="decision", tags=["tea"], metadata={"source": "chat"})
    mem.add("tea preference: green", type="preference", metadata={"source": "chat", "n": 2})
    mem.add("tea from a run", run_id="r1", agent_id="planner", namespace="default")
    return mem


@pytest.mark.parametrize(
    ("filters", "expected"),
    [
        ({"tags": ["tea"]}, {"tea fact about oolong", "tea decision: buy sencha"}),
        ({"tags": "china"}, {"tea fact about oolong"}),
        ({"tags": ["tea", "china"]}, {"tea fact about oolong"}),
        ({"type": "decision"}, {"tea decision: buy sencha"}),
        (
            {"type": ["decision", "preference"]},
            {"tea decision: buy sencha", "tea preference: green"},
        ),
        ({"metadata.source": "chat"}, {"tea decision: buy sencha", "tea preference: green"}),
        ({"metadata.source": "chat", "metadata.n": 2}, {"tea preference: green"}),
        ({"agent_id": "planner"}, {"tea from a run"}),
        ({"metadata.source": "nowhere"}, set()),
    ],
)
def test_filters(tagged: Memory, filters: dict[str, object], expected: set[str]) -> None:
    for strategy in ("hybrid", "bm25", "dense"):
        recall = tagged.recall("tea", limit=10, filters=filters, strategy=strategy)
        assert set(contents(recall)) == expected, strategy
    assert {h.memory.content for h in tagged.search("tea", filters=filters)} == expected


def test_filters_in_recent_mode(kw: Memory) -> None:
    kw.add("first", type="decision")
    kw.add("second")
    assert contents(kw.recall("the", filters={"type": "decision"})) == ["first"]


# -- the context block -----------------------------------------------------------------


def test_context_block(filled: Memory) -> None:
    recall = filled.recall("green tea", limit=2)
    lines = recall.context.splitlines()
    assert lines[0] == "<memory_context>" and lines[-1] == "</memory_context>"
    assert lines[1] == DATA_MARKER  # issue 26: what follows is quoted data
    assert len(lines) == 3 + 2
    top = recall.hits[0].memory
    assert lines[2] == f"- [{top.created_at.date().isoformat()}] {top.content} (id: {top.id})"


def test_context_empty_when_nothing_matched(kw: Memory) -> None:
    kw.add_many(DOCS)
    recall = kw.recall("zeppelin")
    assert recall.mode is RecallMode.KEYWORD
    assert recall.hits == () and recall.context == ""


def test_prior_work_style(mem: Memory) -> None:
    mem.add(
        "Covered context engineering techniques",
        title="Context Engineering",
        score=8.7,
        facts=["RAG beats static context for dynamic tasks"],
        narrative="Covered the top 5 context engineering techniques",
    )
    recall = mem.recall("context engineering", context_style="prior_work")
    assert recall.context.startswith("Prior work on related topics:\n\n")
    assert "[Context Engineering — score 8.7]" in recall.context
    assert "Key facts:\n• RAG beats static context for dynamic tasks" in recall.context
    assert mem.recall("zeppelin", context_style="prior_work", min_relevance=5.0).context == ""


def test_prior_work_says_an_untitled_short_memory_once(mem: Memory) -> None:
    """An untitled memory's title is its content's head (seed 000); a short one was
    then printed again as the body, the same line twice in the agent's context."""
    note = "Production database credentials are in Vault under db/prod."
    long_note = "Rotate the staging credentials every 30 days. " * 4
    mem.add(note)
    mem.add(long_note.strip())
    context = mem.recall("rotate the database credentials", context_style="prior_work").context
    assert context.count("Production database credentials are in Vault") == 1
    assert f"[{note}]" in context
    # Longer than a title: the head is the title and the whole text follows it.
    assert "Rotate the staging credentials every 30 days. Rotate the" in context
    assert context.count("Rotate the staging credentials every 30 days.") > 1


def test_title_and_facts_in_memory_context(mem: Memory) -> None:
    r = mem.add("body text", title="The Title", facts=["fact one", "fact two"])
    context = mem.recall("title body").context
    assert f"The Title: body text (id: {r.id})\n  - fact one\n  - fact two" in context


def test_timings(filled: Memory, kw: Memory) -> None:
    recall = filled.recall("deploy script")
    for stage in ("embed", "dense", "bm25", "fuse", "fetch", "rank", "pack", "format", "total"):
        assert stage in recall.timings, stage
        assert recall.timings[stage] >= 0
    assert recall.timings["total"] >= max(v for k, v in recall.timings.items() if k != "total")
    filtered = filled.recall("deploy script", filters={"type": "fact"})
    assert "filter" in filtered.timings
    recent = kw.recall("the")
    assert {"recent", "pack", "format", "total"} <= set(recent.timings)


# -- fusion ----------------------------------------------------------------------------


@pytest.mark.parametrize("fusion", ["weighted", "rrf"])
def test_both_fusions_work(filled: Memory, fusion: str) -> None:
    recall = filled.recall("staging database port", fusion=fusion, limit=5)
    assert recall.mode is RecallMode.HYBRID
    assert contents(recall)[0] == DOCS[3]
    assert all(0.0 <= h.breakdown.fused <= 1.0 for h in recall.hits)
    if fusion == "rrf":
        assert recall.hits[0].breakdown.fused == 1.0  # first in both lists


def test_rrf_from_config(config: Config, store_location: str) -> None:
    cfg = config.with_overrides(recall={"fusion": "rrf", "rrf_k": 1})
    with Memory(store_location, config=cfg, embedder=HashEmbedder()) as mem:
        mem.add_many(DOCS)
        recall = mem.recall("staging database port", limit=5)
        assert contents(recall)[0] == DOCS[3]
        assert sorted(h.breakdown.fused for h in recall.hits)[0] == 0.0  # min-max normalised


# -- fallbacks: recall never fails on vectors ------------------------------------------


@pytest.fixture
def failing(config: Config, store_location: str) -> Iterator[Memory]:
    with Memory(store_location, config=config, embedder=FailingEmbedder()) as m:
        yield m


def test_failing_embedder_add_is_raw_first(
    failing: Memory, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.WARNING, logger="engram"):
        record = failing.add("The deploy script lives in ops/deploy.sh")
        failing.add_many(DOCS[1:])
    assert failing.get(record.id).content == "The deploy script lives in ops/deploy.sh"
    assert len(failing.get_all()) == 5
    assert failing.embed_failures == 5
    assert failing.store.stats("test-failing").missing_vectors == 5
    assert "embedding failed" in caplog.text
    assert "model server unreachable" in caplog.text


def test_failing_embedder_recall_falls_back_to_keywords(
    failing: Memory, caplog: pytest.LogCaptureFixture
) -> None:
    failing.add_many(DOCS)
    caplog.clear()
    with caplog.at_level(logging.WARNING, logger="engram"):
        recall = failing.recall("green tea")
    assert recall.mode is RecallMode.KEYWORD
    assert contents(recall)[0] == DOCS[1]
    assert any("vector search unavailable" in w for w in recall.warnings)
    [warning] = [r for r in caplog.records if r.name == "engram.recall"]
    assert warning.levelno == logging.WARNING
    assert "model server unreachable" in warning.getMessage()
    for strategy in ("dense", "hybrid", "bm25"):
        assert failing.recall("green tea", strategy=strategy).mode is RecallMode.KEYWORD
    assert failing.recall("the it is").mode is RecallMode.RECENT
    assert len(failing.search("espresso")) >= 1


def test_failing_then_working_embedder_reindexes(config: Config, tmp_path: Path) -> None:
    path = tmp_path / "e.db"
    with Memory(path, config=config, embedder=FailingEmbedder()) as m:
        m.add_many(DOCS)
    working = HashEmbedder()  # the model is back: same name, working
    working.name = "test-failing"
    with Memory(path, config=config, embedder=working) as m:
        assert m.recall("green tea").mode is RecallMode.HYBRID
        assert m.reindex() == 5
        assert m.store.stats("test-failing").missing_vectors == 0
        assert m.recall("green tea", strategy="dense").hits[0].memory.content == DOCS[1]


def test_a_named_day_draws_memories_written_then(mem: Memory) -> None:
    """Time-aware recall: the memory written on the named day wins over better wording,
    and comes in as a candidate even when its words do not match the query at all."""
    ns = "timeline"
    mem.add(
        "Nate tried a new recipe for coconut dessert",
        namespace=ns,
        created_at="2022-05-02T12:00:00Z",
    )
    then = mem.add(
        "Cooked something sweet with the kids", namespace=ns, created_at="2022-11-09T18:00:00Z"
    )
    for day in range(1, 28):
        mem.add(
            f"Weekly note {day} about gardening and weather",
            namespace=ns,
            created_at=f"2023-03-{day:02d}T09:00:00Z",
        )
    plain = mem.recall("What dessert recipe did Nate try?", namespace=ns, limit=3)
    assert plain.hits[0].memory.id != then.id
    dated = mem.recall(
        "What dessert recipe did Nate try on 9 November, 2022?", namespace=ns, limit=3
    )
    assert dated.hits[0].memory.id == then.id
    assert "time" in dated.timings
    off = mem.recall(
        "What dessert recipe did Nate try on 9 November, 2022?",
        namespace=ns,
        limit=3,
        time_weight=0.0,
    )
    assert off.hits[0].memory.id != then.id


def test_session_neighbours_carry_context(mem: Memory) -> None:
    """A reply that shares no word with the query is recalled through its session
    neighbour, and the session-context weights can switch that off."""
    ns = "chat"
    mem.add_many(
        [
            {"content": "Ben: where did you go hiking last weekend?", "session_id": "s1"},
            {"content": "Ann: Up Mount Tamalpais, the views were stunning", "session_id": "s1"},
            {"content": "Ann: I bought a new lamp for the study", "session_id": "s2"},
            {"content": "Ben: my cat knocked over a vase", "session_id": "s2"},
        ],
        namespace=ns,
    )
    hits = mem.recall("hiking trip", namespace=ns, limit=4, strategy="bm25").hits
    ids = [h.memory.content for h in hits]
    assert ids[:2] == [
        "Ben: where did you go hiking last weekend?",
        "Ann: Up Mount Tamalpais, the views were stunning",
    ]
    plain = mem.recall(
        "hiking trip",
        namespace=ns,
        limit=4,
        strategy="bm25",
        context_keyword=0.0,
        session_keyword=0.0,
    )
    assert [h.memory.content for h in plain.hits] == ["Ben: where did you go hiking last weekend?"]
