"""Centred cosines as recall's second ranking (``engram.recall.centred``, tasks centre42-43)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from engram import Memory
from engram.config import Config
from engram.recall import centred, coverage
from engram.recall.request import RecallRequest
from hashembed import HashEmbedder

NS = "user:centre"
QUESTION = "what palette did we pick for the kestrel dashboard charts"


def test_centred_cosines_match_the_vectors() -> None:
    """The closed form from three cosines equals cos(m - c, q - c) of unit vectors."""
    rng = np.random.default_rng(7)
    m = rng.normal(size=(20, 16)) + 2.0  # a shared component, as a one-topic namespace has
    m /= np.linalg.norm(m, axis=1, keepdims=True)
    q = rng.normal(size=16) + 2.0
    q /= np.linalg.norm(q)
    c = m.mean(axis=0)
    r = float(np.linalg.norm(c))
    unit = c / r
    want = (m - c) @ (q - c) / (np.linalg.norm(m - c, axis=1) * np.linalg.norm(q - c))
    got = centred.centred_cosines(m @ q, m @ unit, float(q @ unit), r)
    np.testing.assert_allclose(got, want, atol=1e-9)


def _order(held: list[int], cos: list[float], w: float, count: int = 5) -> list[int]:
    got = centred.fused_order(count, np.array(held, np.intp), np.array(cos), w, 10)
    return [int(p) for p in got]


def test_fused_order() -> None:
    assert _order([4, 3], [0.9, 0.8], 0.0) == [0, 1, 2, 3, 4]
    # w 0.01 at k 10 (+0.00091) lifts the fifth past three neighbours (1/61 - 1/65 is
    # 0.00101), not past the first
    assert _order([4], [0.5], 0.01) == [0, 4, 1, 2, 3]
    assert _order([4], [0.5], 1.0)[0] == 4
    # the centred rank is by cosine: the fourth, first there (1/64 + 0.01/11 > 1/61),
    # leads; the fifth, second there (1/65 + 0.01/12), passes the second and third
    assert _order([4, 3], [0.1, 0.9], 0.01) == [3, 0, 4, 1, 2]


def test_namespaces_are_the_union_with_the_shared_space() -> None:
    alone = RecallRequest(query="q", namespace=NS, limit=4)
    assert centred.namespaces(alone) == [NS]
    with_space = RecallRequest(query="q", namespace=NS, limit=4, shared="user:centre/shared")
    assert centred.namespaces(with_space) == [NS, "user:centre/shared"]
    leg = RecallRequest(query="q", namespace="user:centre/shared", limit=4, centred_on=(NS,))
    assert centred.namespaces(leg) == [NS, "user:centre/shared"]


def _store(location: str, home: Path, weight: float) -> Memory:
    # keyword_share off: it takes a note's keyword leg off by its share of the question,
    # which here would decide the order on its own.
    env = {"ENGRAM_RECALL_CENTRED_WEIGHT": str(weight), "ENGRAM_RECALL_KEYWORD_SHARE": "false"}
    return Memory(location, config=Config.load(env=env, home=str(home)), embedder=HashEmbedder())


def _fill(mem: Memory) -> str:
    # Thirty notes on the namespace's one topic, holding most of the question's words;
    # the one that answers holds only what the question adds to the topic.
    for i in range(30):
        mem.add(f"kestrel dashboard pick charts sprint{i}", namespace=NS)
    return mem.add("teal palette", namespace=NS).id


def _ranked(mem: Memory) -> list[tuple[str, float]]:
    # the fused relevance: the final score also holds recency, which moves as time passes
    hits = mem.recall(QUESTION, namespace=NS, limit=31).hits
    return [(h.memory.id, h.breakdown.fused) for h in hits]


def test_the_second_ranking_lifts_what_the_topic_hides(reopenable: str, tmp_path: Path) -> None:
    with _store(reopenable, tmp_path / "a", 0.0) as mem:
        target = _fill(mem)
        plain = [i for i, _ in _ranked(mem)]
    with _store(reopenable, tmp_path / "b", 0.2) as mem:
        lifted = [i for i, _ in _ranked(mem)]
    assert plain.index(target) >= 2
    assert lifted.index(target) == 0
    assert sorted(plain) == sorted(lifted)  # the same hits, in another order


def test_weight_zero_leaves_the_ranking_as_it_was(
    reopenable: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Weight 0 is the recall without the stage: the same hits and the same scores."""
    with _store(reopenable, tmp_path / "a", 0.0) as mem:
        _fill(mem)
        off = _ranked(mem)
        with monkeypatch.context() as patch:
            patch.setattr(centred, "reorder", lambda *args: args[2])  # no stage at all
            assert _ranked(mem) == off
    with _store(reopenable, tmp_path / "b", 0.2) as mem:
        assert _ranked(mem) != off


def test_thread_questions_are_left_alone(reopenable: str, tmp_path: Path) -> None:
    """A summary, order or total question (``coverage.thread``) keeps the default order:
    beam40 measured the lever losing there."""
    question = "Can you summarize what we discussed about the kestrel dashboard charts?"
    with _store(reopenable, tmp_path / "a", 0.0) as mem:
        assert coverage.thread(question, mem.config.recall)
        _fill(mem)
        plain = [h.memory.id for h in mem.recall(question, namespace=NS, limit=31).hits]
    with _store(reopenable, tmp_path / "b", 1.0) as mem:
        assert [h.memory.id for h in mem.recall(question, namespace=NS, limit=31).hits] == plain


def test_the_stage_orders_by_the_vectors_own_centred_cosines(mem: Memory) -> None:
    """The stage's second ranking is cos(m - c, q - c) of the stored vectors, with c the
    namespace's mean: read through the index's two cosines, not the vectors."""
    _fill(mem)
    assert mem.index is not None and mem.embedder is not None
    loaded = mem.store.vectors.load(NS, mem.index.model)
    c = loaded.matrix.astype(np.float64).mean(axis=0)
    q = np.asarray(mem.embedder.embed(QUESTION), dtype=np.float64).reshape(-1)
    q /= np.linalg.norm(q)
    m = loaded.matrix.astype(np.float64)
    want = (m - c) @ (q - c) / (np.linalg.norm(m - c, axis=1) * np.linalg.norm(q - c))
    by_id = dict(zip(loaded.ids, want.tolist(), strict=True))
    # the default order: the ids by their plain cosine (scores as the fused ones)
    base = sorted(loaded.ids, key=lambda i: -float(m[loaded.ids.index(i)] @ q))
    fused = {i: 1.0 / (1 + n) for n, i in enumerate(base)}
    request = RecallRequest(query=QUESTION, namespace=NS, limit=4)
    cfg = replace(mem.config.recall, centred_weight=1.0, centred_k=1.0)
    got = centred.reorder(request, cfg, fused, q.astype(np.float32), mem.index)
    assert sorted(got.values(), reverse=True) == sorted(fused.values(), reverse=True)
    # weight 1 at k 1 against 60: the centred first (its +0.5) leads the new order
    top = max(by_id, key=by_id.__getitem__)
    assert max(got, key=got.__getitem__) == top
    if top != base[0]:
        assert max(fused, key=fused.__getitem__) != top
