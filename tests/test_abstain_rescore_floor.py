"""``engram bench abstain`` re-scores the relative floor with recall's own rule (task
err26): recall floors a thread question per time bucket (``coverage.floor_kept``,
session twenty-two), and the offline re-score used to floor every row against its best
hit alone (``packing.floor_kept``), so a policy's figures for thread questions were not
what recall does. The rows now carry whether recall read the query as a thread question
and each hit's bucket, and the re-score calls the same function recall does.
"""

from __future__ import annotations

from collections.abc import Sequence

from conftest import HashEmbedder, ranked_hit
from engram import Config, Memory
from engram.bench import abstain as bench
from engram.config import RecallConfig
from engram.recall import coverage
from engram.records import Hit

THREAD = "Can you summarize how my garden went?"


def row_of(hits: Sequence[Hit], *, thread: bool, buckets: bool = True) -> bench.Row:
    """A row whose hits are ``hits`` (their cosines and fused scores), as ``ask`` saves."""
    return bench.Row(
        "answerable",
        "paraphrase",
        0,
        "q1",
        "ns",
        hits[0].breakdown.sim,
        0.0,
        3,
        False,
        hits[0].breakdown.fused,
        hits[0].score,
        0,
        1.0,
        hit_sims=[h.breakdown.sim for h in hits],
        hit_fused=[h.breakdown.fused for h in hits],
        hit_scores=[h.score for h in hits],
        gold_ranks=[0],
        thread=thread,
        hit_buckets=[coverage.bucket_of(h) for h in hits] if buckets else [],
    )


def ranks(hits: Sequence[Hit], kept: Sequence[Hit]) -> list[int]:
    ids = [h.id for h in hits]
    return [ids.index(h.id) for h in kept]


def test_a_thread_rows_floor_is_recalls_per_session_floor() -> None:
    hits = [ranked_hit("a1", 0.9, session="a"), ranked_hit("a2", 0.8, session="a")]
    hits += [ranked_hit("b1", 0.6, session="b"), ranked_hit("b2", 0.4, session="b")]
    hits += [ranked_hit("c1", 0.3, session="c"), ranked_hit("a3", 0.2, session="a")]
    floored = bench.Policy("floor", None, None, floor=0.6)
    on = RecallConfig()
    recall_keeps = ranks(hits, coverage.relative_floor(THREAD, on, hits, 0.6))
    assert recall_keeps == [0, 1, 2, 3]  # b2 kept: judged against b's best
    assert bench.shown(row_of(hits, thread=True), floored, limit=10) == recall_keeps
    # An ordinary question: the floor against the best hit alone, as recall.
    plain = ranks(hits, coverage.relative_floor("where is b?", on, hits, 0.6))
    assert plain == [0, 1, 2]
    assert bench.shown(row_of(hits, thread=False), floored, limit=10) == plain
    # Rows saved before the buckets were recorded: as before, the whole list.
    assert bench.shown(row_of(hits, thread=True, buckets=False), floored, limit=10) == plain


def test_one_bucket_scores_as_before() -> None:
    # The paraphrase set's stores: every memory written in one bucket.
    hits = [ranked_hit(f"m{n}", s, session="one") for n, s in enumerate((0.9, 0.7, 0.5, 0.2))]
    floored = bench.Policy("floor", None, None, floor=0.6)
    assert bench.shown(row_of(hits, thread=True), floored, limit=10) == [0, 1]
    assert bench.shown(row_of(hits, thread=False), floored, limit=10) == [0, 1]


def test_ask_records_what_recall_floors_by(config: Config, store_location: str) -> None:
    with Memory(store_location, config=config, embedder=HashEmbedder(1024)) as mem:
        for n in range(5):
            mem.add(f"garden plan {n}: garden beds and soil", namespace="g", session_id="spring")
        mem.add("the garden tomatoes ripened", namespace="g", session_id="summer")
        mem.add("the garden closed for winter", namespace="g", session_id="autumn")
        row = bench.ask(mem, "answerable", "paraphrase", 0, "q", "g", THREAD, frozenset())
        hits = mem.recall(THREAD, namespace="g", limit=bench.DEPTH, abstain=False).hits
        assert row.thread is True
        assert row.hit_buckets == [coverage.bucket_of(h) for h in hits]
        assert {"s:spring", "s:summer", "s:autumn"} <= set(row.hit_buckets)
        for share in (0.5, 0.7, 0.9):
            floored = bench.Policy("floor", None, None, floor=share)
            kept = coverage.relative_floor(THREAD, mem.config.recall, list(hits), share)
            assert bench.shown(row, floored, limit=bench.DEPTH) == ranks(hits, kept)
        ordinary = bench.ask(
            mem, "answerable", "paraphrase", 0, "q", "g", "garden soil?", frozenset()
        )
        assert ordinary.thread is False
