"""seed 004's graph boost at recall (FEATURES G4): the store's lookup on both backends,
and what recall does with it (exact additive weight, deadline, failure, caps)."""

from __future__ import annotations

import math
import time
from collections.abc import Iterator
from typing import Any

import pytest

from conftest import HashEmbedder
from engram import Memory
from engram.config import Config
from engram.recall import graph_boost
from engram.store.protocols.graph import BoostLookup
from engram.store.sql import graph_boost as store_boost

NS = "boost"
TURNS = [
    "Nate: I won the Valorant tournament last night!",
    "Nate: Xenoblade Chronicles is my favourite game.",
    "Joanna: my brother plays Valorant too.",
    "Joanna: I visited Paris with Maria in spring.",
    "Joanna: the weather was lovely and calm.",
]


@pytest.fixture
def linked(config: Config, store_location: str) -> Iterator[tuple[Memory, list[str]]]:
    with Memory(store_location, config=config, embedder=HashEmbedder()) as mem:
        result = mem.add_many(TURNS, namespace=NS)
        yield mem, [r.id for r in result]


def _lookup(mem: Memory, names: list[str], **caps: Any) -> BoostLookup:
    args: dict[str, Any] = {
        "entity_limit": 20,
        "neighbor_limit": 50,
        "memory_limit": 200,
        "hub_mentions": 0,
        # Not under test here (test_deadline_returns_what_was_found is): a lookup of
        # milliseconds must never be cut short by a loaded machine.
        "deadline": time.monotonic() + 60,
    }
    return mem.store.graph.boost_lookup(NS, names, **{**args, **caps})


def test_query_names_are_words_and_runs() -> None:
    names = graph_boost.query_names("What did Nate's team think of Bank of America?")
    assert {"nate", "team", "bank of america", "bank", "america"} <= set(names)
    assert "of" not in names and "what" not in names
    assert graph_boost.query_names("?!") == []


def test_lookup_matches_expands_and_orders(linked: tuple[Memory, list[str]]) -> None:
    mem, ids = linked
    found = _lookup(mem, ["nate"])
    nate = mem.graph.entity("nate", namespace=NS)
    assert found.entities == (nate.id,) and not found.timed_out
    # Nate's own turns first, then the turns naming what Nate talks about.
    assert set(found.memory_ids[:2]) == {ids[0], ids[1]}
    assert found.memory_ids[2:] == (ids[2],)
    names = {mem.graph.entity(n, namespace=NS).id for n in ("valorant", "xenoblade chronicles")}
    assert set(found.neighbors) == names
    # An alias resolves like the canonical name; unknown names find nothing.
    mem.graph.add_alias("Joanna", "Jo", namespace=NS)
    assert set(_lookup(mem, ["jo"]).memory_ids) >= {ids[2], ids[3], ids[4]}
    assert _lookup(mem, ["nobody"]) == BoostLookup(())
    assert _lookup(mem, []) == BoostLookup(())


def test_lookup_caps_hubs_and_deleted(linked: tuple[Memory, list[str]]) -> None:
    mem, ids = linked
    assert len(_lookup(mem, ["nate"], memory_limit=2).memory_ids) == 2
    # With one entity allowed, the most mentioned match (Joanna, 3 turns) wins.
    joanna = mem.graph.entity("joanna", namespace=NS)
    assert _lookup(mem, ["nate", "joanna"], entity_limit=1).entities == (joanna.id,)
    # A hub (more mentions than the cap) adds none of its turns and is not expanded:
    # at 1, Nate (2 mentions) and Valorant (2) are hubs, Xenoblade Chronicles (1) not.
    assert _lookup(mem, ["nate"], hub_mentions=1).memory_ids == ()
    assert _lookup(mem, ["nate", "xenoblade chronicles"], hub_mentions=1).memory_ids == (ids[1],)
    # Expanded from Xenoblade: Nate, a hub, adds nothing.
    assert _lookup(mem, ["xenoblade chronicles"], hub_mentions=1).memory_ids == (ids[1],)
    assert _lookup(mem, ["xenoblade chronicles"]).memory_ids[0] == ids[1]
    mem.delete(ids[1], namespace=NS)
    assert ids[1] not in _lookup(mem, ["nate"]).memory_ids


def test_deadline_returns_what_was_found(
    linked: tuple[Memory, list[str]], monkeypatch: pytest.MonkeyPatch
) -> None:
    mem, ids = linked
    real = time.monotonic()
    calls: list[int] = []

    def clock() -> float:
        # In time for the first check (entities), past the deadline from the second on.
        calls.append(1)
        return real if len(calls) == 1 else math.inf

    monkeypatch.setattr(store_boost, "now", clock)
    found = _lookup(mem, ["nate"], deadline=real + 1)
    assert found.timed_out and set(found.memory_ids) == {ids[0], ids[1]}  # no neighbours
    calls.clear()
    recall = mem.recall("What did Nate play?", namespace=NS, graph_boost=True)
    assert any("deadline" in w for w in recall.warnings)
    assert "graph" in recall.timings


def _fused(mem: Memory, query: str, **settings: Any) -> tuple[dict[str, float], tuple[str, ...]]:
    recall = mem.recall(query, namespace=NS, limit=10, **settings)
    return {h.memory.id: h.breakdown.fused for h in recall.hits}, recall.warnings


def test_boost_adds_exactly_the_weight_to_linked_candidates(
    linked: tuple[Memory, list[str]],
) -> None:
    mem, ids = linked
    query = "What games does Nate play?"
    off, _ = _fused(mem, query)
    on, warnings = _fused(mem, query, graph_boost=True, graph_boost_weight=0.1)
    assert warnings == ()
    assert set(on) == set(off)
    boosted = set(_lookup(mem, graph_boost.query_names(query)).memory_ids)
    assert boosted == {ids[0], ids[1], ids[2]}
    assert max(off.values()) < 0.85  # no score reaches the clip at 1.0
    for memory_id, before in off.items():
        extra = 0.1 if memory_id in boosted else 0.0
        assert on[memory_id] == pytest.approx(before + extra, abs=1e-9)


def test_any_failure_means_no_boost(
    linked: tuple[Memory, list[str]], monkeypatch: pytest.MonkeyPatch
) -> None:
    mem, _ = linked
    query = "What games does Nate play?"
    off, _ = _fused(mem, query)

    def broken(*args: Any, **kwargs: Any) -> BoostLookup:
        raise RuntimeError("graph tables are locked")

    monkeypatch.setattr(mem.store.graph, "boost_lookup", broken)
    on, warnings = _fused(mem, query, graph_boost=True)
    assert on == pytest.approx(off)
    assert any("graph tables are locked" in w for w in warnings)


def test_apply_is_additive_and_only_for_candidates() -> None:
    fused = {"a": 0.5, "b": 0.2}
    out, boosted = graph_boost.apply(fused, BoostLookup(("b", "z")), 0.15)
    assert out == {"a": 0.5, "b": pytest.approx(0.35)} and boosted == {"b"}
