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
