"""SQLite keyword search on large namespaces: when every query term is common, BM25
ranks only the newest ``COMMON_WINDOW`` memories holding the rarest terms."""

from __future__ import annotations

import pytest

from engram import Config, Memory
from engram.store.sqlite import fts


@pytest.fixture
def small_common(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(fts, "COMMON", 5)
    monkeypatch.setattr(fts, "COMMON_WINDOW", 4)


def _search(mem: Memory, query: str) -> list[str]:
    match = " OR ".join(f'"{w}"' for w in query.split())
    return [i for i, _ in mem.store.keyword.search("ns", match, 100)]


@pytest.mark.usefixtures("small_common")
def test_an_all_common_query_ranks_only_the_newest_matches(config: Config) -> None:
    with Memory(":memory:", config=config, embedder=None) as mem:
        records = mem.add_many([f"alpha beta note {i}" for i in range(10)], namespace="ns")
        found = _search(mem, "alpha beta")
        assert set(found) == {r.id for r in records[-4:]}


@pytest.mark.usefixtures("small_common")
def test_a_rare_term_keeps_the_whole_namespace_searchable(config: Config) -> None:
    with Memory(":memory:", config=config, embedder=None) as mem:
        first = mem.add("alpha beta gamma oldest", namespace="ns")
        mem.add_many([f"alpha beta note {i}" for i in range(10)], namespace="ns")
        assert _search(mem, "alpha gamma")[0] == first.id  # "gamma" is rare: no window


def test_namespaces_below_common_are_ranked_in_full(config: Config) -> None:
    with Memory(":memory:", config=config, embedder=None) as mem:
        records = mem.add_many([f"alpha beta note {i}" for i in range(10)], namespace="ns")
        assert set(_search(mem, "alpha beta")) == {r.id for r in records}


class _Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


@pytest.mark.usefixtures("small_common")
def test_the_rarest_terms_are_those_full_counts_would_pick(config: Config) -> None:
    # COMMON 5 caps the first count at 20: "alpha" (30) and "beta" (25) are over the cap
    # and need their full counts; "gamma" (8) is under it. The two rarest: gamma, beta.
    texts = [
        *(f"alpha beta gamma {i}" for i in range(8)),
        *(f"alpha beta {i}" for i in range(17)),
        *(f"alpha {i}" for i in range(5)),
    ]
    with Memory(":memory:", config=config, embedder=None) as mem:
        mem.add_many(texts, namespace="ns")
        with mem.store._db.search() as conn:  # type: ignore[attr-defined]
            table = fts.table_for(conn, "ns", create=False)
            assert table is not None
            full = sorted((fts._count(conn, table, t, None), t) for t in ("alpha", "beta", "gamma"))
            picked = fts._rarest(conn, table, ["alpha", "beta", "gamma"], 2, fts.TermCounts())
            assert picked == [t for _, t in full[:2]] == ["gamma", "beta"]
            # Two over the cap and none under it: both need (and get) full counts.
            assert fts._rarest(conn, table, ["alpha", "beta"], 1, fts.TermCounts()) == ["beta"]


def test_term_counts_are_kept_for_their_ttl_then_counted_again(config: Config) -> None:
    clock = _Clock()
    counts = fts.TermCounts(size=2, ttl=60.0, clock=clock)
    with Memory(":memory:", config=config, embedder=None) as mem:
        mem.add_many([f"alpha note {i}" for i in range(3)], namespace="ns")
        with mem.store._db.search() as conn:  # type: ignore[attr-defined]
            table = fts.table_for(conn, "ns", create=False)
            assert table is not None
            assert counts.get(conn, table, "alpha") == 3
        mem.add_many([f"alpha more {i}" for i in range(2)], namespace="ns")
        with mem.store._db.search() as conn:  # type: ignore[attr-defined]
            clock.now = 59.0
            assert counts.get(conn, table, "alpha") == 3  # still within its minute
            clock.now = 61.0
            assert counts.get(conn, table, "alpha") == 5  # counted again
            # The LRU bound: a third term evicts the least recently used.
            counts.get(conn, table, "note")
            counts.get(conn, table, "more")
            mem.add("alpha again", namespace="ns")
        with mem.store._db.search() as conn:  # type: ignore[attr-defined]
            assert counts.get(conn, table, "alpha") == 6  # evicted, so counted afresh


@pytest.mark.usefixtures("small_common")
def test_an_all_common_query_ranks_the_same_with_a_warm_count_cache(config: Config) -> None:
    with Memory(":memory:", config=config, embedder=None) as mem:
        mem.add_many(
            [f"alpha beta gamma {i}" for i in range(8)] + [f"alpha beta {i}" for i in range(17)],
            namespace="ns",
        )
        first = _search(mem, "alpha beta gamma")
        assert first == _search(mem, "alpha beta gamma")  # the second from cached counts
        assert len(first) == 4  # the window of the newest COMMON_WINDOW matches
