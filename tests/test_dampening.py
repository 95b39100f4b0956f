"""Post-fusion dampening (C9, seed 004): gravity, hub and resolution, alone and in recall."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import replace

import numpy as np
import pytest

from conftest import HashEmbedder
from engram import Config, Memory
from engram.embed.base import Vectors, normalize_rows
from engram.recall import dampening
from engram.recall.pipeline import Retriever
from engram.recall.request import RecallRequest
from engram.records import MemoryRecord, MemoryType

LONG = " and it stays that way for the rest of the quarter, whatever else happens"


def record(memory_id: str, content: str, kind: MemoryType = MemoryType.FACT) -> MemoryRecord:
    return MemoryRecord(
        id=memory_id, namespace="ns", content=content, content_hash=memory_id, type=kind
    )


OFF = Config().recall
ALL = replace(OFF, gravity=True, hub=True, resolution=True)


# -- gravity ----------------------------------------------------------------------------


def test_gravity_halves_a_semantic_hit_that_shares_no_query_term() -> None:
    terms = dampening.query_terms("Which feline sounds happy?")
    cat = record("a", "Cats purr loudly when they are content")
    assert dampening.gravity(terms, cat, 0.7, True, 0.5) == 0.5


def test_gravity_keeps_a_hit_that_shares_a_term_in_any_case() -> None:
    terms = dampening.query_terms("Which FELINE sounds happy?")
    cat = record("a", "The feline purrs")
    assert dampening.gravity(terms, cat, 0.9, True, 0.5) == 1.0


def test_gravity_ignores_shared_stopwords() -> None:
    terms = dampening.query_terms("what is the best feline")
    assert "the" not in terms and "feline" in terms
    assert dampening.gravity(terms, record("a", "The dog is what barks"), 0.9, True, 0.5) == 0.5


@pytest.mark.parametrize(
    ("score", "semantic"),
    [(0.3, True), (0.1, True), (0.9, False)],
    ids=["at-0.3", "below-0.3", "keyword-only"],
)
def test_gravity_spares_low_scores_and_non_semantic_hits(score: float, semantic: bool) -> None:
    terms = dampening.query_terms("feline")
    assert dampening.gravity(terms, record("a", "Cats purr"), score, semantic, 0.5) == 1.0


def test_gravity_reads_the_title_too() -> None:
    terms = dampening.query_terms("feline")
    titled = replace(record("a", "They purr"), title="Feline sounds")
    assert dampening.gravity(terms, titled, 0.9, True, 0.5) == 1.0


@pytest.mark.parametrize(
    ("text", "shares"),
    [
        ("A feline sat", True),
        ("FELINE!", True),
        ("felines everywhere", False),  # whole words only, as the tokenizer splits
        ("the feline_club", False),
        ("Ｆeline in full width", True),  # NFKC folds it, like query terms
        ("", False),
    ],
)
def test_shares_term_matches_whole_words(text: str, shares: bool) -> None:
    assert dampening.shares_term(text, dampening.query_terms("feline")) is shares


# -- hub --------------------------------------------------------------------------------

#: memory id -> its entities' mention counts, as the entity graph's seam returns them.
MENTIONS: dict[str, dict[str, int]] = {
    "hubby": {"signet": 90, "nicholai": 80},
    "mixed": {"signet": 90, "battery": 2},
    "plain": {"battery": 2, "charger": 3},
    **{f"m{n}": {f"e{n}": n} for n in range(1, 8)},
}


def test_hub_threshold_is_the_percentile_of_distinct_entities() -> None:
    # distinct counts: 1..7, 2, 3, 80, 90 -> sorted 1,2,2,3,3,4,5,6,7,80,90 (11 entities)
    assert dampening.hub_threshold(MENTIONS, 0.9) == 80.0
    assert dampening.hub_threshold(MENTIONS, 0.5) == 4.0
    assert dampening.hub_threshold({"a": {"x": 5, "y": 1}}, 0.9) == 1.0
    assert dampening.hub_threshold({"a": {"x": 5}}, 0.9) == 5.0
    assert dampening.hub_threshold({}, 0.9) is None


def test_hub_penalises_only_a_memory_whose_every_entity_is_a_hub() -> None:
    threshold = dampening.hub_threshold(MENTIONS, 0.5)
    assert dampening.hub(MENTIONS["hubby"], threshold, 0.7) == 0.7
    assert dampening.hub(MENTIONS["mixed"], threshold, 0.7) == 1.0
    assert dampening.hub(MENTIONS["plain"], threshold, 0.7) == 1.0
    assert dampening.hub({}, threshold, 0.7) == 1.0
    assert dampening.hub(MENTIONS["hubby"], None, 0.7) == 1.0


def fake_graph(namespace: str, ids: Sequence[str]) -> Mapping[str, Mapping[str, int]]:
    """The entity graph's seam, answered from ``MENTIONS``."""
    assert namespace == "ns"
    return {i: MENTIONS[i] for i in ids if i in MENTIONS}


def test_hub_goes_through_the_seam_and_is_a_no_op_without_one() -> None:
    pool = ["hubby", "mixed", "plain"]
    records = {i: record(i, "short") for i in pool}
    cfg = replace(OFF, hub=True, hub_percentile=0.5)
    with_graph = dampening.factors("q", "ns", pool, records, {}, set(), cfg, fake_graph)
    assert with_graph == {"hubby": 0.7, "mixed": 1.0, "plain": 1.0}
    without = dampening.factors("q", "ns", pool, records, {}, set(), cfg, None)
    assert without == {"hubby": 1.0, "mixed": 1.0, "plain": 1.0}


# -- resolution -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("content", "kind", "factor"),
    [
        ("We decided to use PostgreSQL for the event store" + LONG, MemoryType.DECISION, 1.2),
        ("Use PostgreSQL", MemoryType.DECISION, 1.0),
        ("The migration window is 2026-03-14 between two and four" + LONG, MemoryType.FACT, 1.1),
        ("Quarterly planning happens in the second week of January" + LONG, MemoryType.FACT, 1.1),
        ("In January", MemoryType.FACT, 1.0),
        (
            "We may move the planning to another week if people are away" + LONG,
            MemoryType.FACT,
            1.0,
        ),
        ("The staging database is db-staging-2 on port 5433" + LONG, MemoryType.FACT, 1.0),
    ],
    ids=["decision", "short-decision", "iso-date", "month", "short-month", "may-verb", "plain"],
)
def test_resolution_boost(content: str, kind: MemoryType, factor: float) -> None:
    assert dampening.resolution(record("a", content, kind), 1.2) == pytest.approx(factor)


@pytest.mark.parametrize(
    ("text", "anchored"),
    [
        ("Met on 2024-03-05 at noon", True),
        ("Back in March", True),
        ("(December)", True),
        ("The Mayor spoke", False),
        ("We may march on", False),
        ("SeptemberFest", False),
        ("Version 2024-3-5", False),
    ],
)
def test_temporal_anchors_are_iso_dates_and_month_names(text: str, anchored: bool) -> None:
    assert dampening.has_temporal_anchor(text) is anchored


def test_resolution_boost_follows_the_setting() -> None:
    dated = record("a", "Shipped on 2025-01-02, after the long review" + LONG)
    assert dampening.resolution(dated, 1.6) == pytest.approx(1.3)


# -- the stages together ----------------------------------------------------------------


def test_all_stages_off_is_no_dampening() -> None:
    pool = ["hubby"]
    records = {"hubby": record("hubby", "We decided on it" + LONG, MemoryType.DECISION)}
    assert dampening.factors("x", "ns", pool, records, {"hubby": 0.9}, {"hubby"}, OFF) == {}


def test_stages_multiply_and_switch_off_one_by_one() -> None:
    content = "Signet and Nicholai decided the schedule" + LONG
    pool = ["hubby", "plain"]
    records = {
        "hubby": record("hubby", content, MemoryType.DECISION),
        "plain": record("plain", "budget"),
    }
    fused, semantic = {"hubby": 0.9, "plain": 0.9}, {"hubby", "plain"}
    cfg = replace(ALL, hub_percentile=0.5)

    def factor(c: object) -> float:
        assert isinstance(c, type(OFF))
        return dampening.factors("budget", "ns", pool, records, fused, semantic, c, fake_graph)[
            "hubby"
        ]

    assert factor(cfg) == pytest.approx(0.5 * 0.7 * 1.2)
    assert factor(replace(cfg, gravity=False)) == pytest.approx(0.7 * 1.2)
    assert factor(replace(cfg, hub=False)) == pytest.approx(0.5 * 1.2)
    assert factor(replace(cfg, resolution=False)) == pytest.approx(0.5 * 0.7)


# -- in recall --------------------------------------------------------------------------


class SynonymEmbedder(HashEmbedder):
    """The hash embedder, except that "feline" embeds like "cats purr": a dense match
    that shares no word with its query."""

    name = "test-synonym"

    def embed_batch(self, texts: Sequence[str]) -> Vectors:
        swapped = [t.replace("feline", "cats purr") for t in texts]
        return normalize_rows(np.asarray(super().embed_batch(swapped)))


@pytest.fixture
def synonym_mem(config: Config, store_location: str) -> Iterator[Memory]:
    with Memory(store_location, config=config, embedder=SynonymEmbedder()) as m:
        m.add_many(["cats purr", "Dogs bark at the feline next door every morning"])
        yield m


def test_gravity_in_recall_halves_the_dense_only_match(synonym_mem: Memory) -> None:
    plain = synonym_mem.recall("feline", limit=2)
    damped = synonym_mem.recall("feline", limit=2, gravity=True)
    by_content = {h.memory.content: h.breakdown for h in damped.hits}
    assert plain.hits[0].memory.content == "cats purr"
    assert plain.hits[0].breakdown.dampening == 1.0
    assert by_content["cats purr"].dampening == 0.5
    assert by_content["Dogs bark at the feline next door every morning"].dampening == 1.0
    assert damped.hits[0].memory.content != "cats purr"


def test_resolution_in_recall_lifts_a_decision_over_an_equal_fact(mem: Memory) -> None:
    text = "The team picked the blue logo for the spring campaign launch event"
    fact = mem.add(text + " (fact)")
    decision = mem.add(text + " (decision)", type="decision")
    plain = mem.recall("blue logo campaign", limit=2)
    boosted = mem.recall("blue logo campaign", limit=2, resolution=True)
    assert {h.id: h.breakdown.dampening for h in boosted.hits} == {
        decision.id: pytest.approx(1.2),
        fact.id: 1.0,
    }
    assert boosted.hits[0].id == decision.id
    assert boosted.hits[0].score > max(h.score for h in plain.hits)


def test_hub_in_recall_through_the_retriever_seam(mem: Memory) -> None:
    hub_id = mem.add("Signet shipped the release notes on time").id
    other_id = mem.add("Signet shipped the release notes late").id
    counts = {hub_id: {"signet": 50}, other_id: {"signet": 50, "release-notes": 1}}

    def graph(namespace: str, ids: Sequence[str]) -> Mapping[str, Mapping[str, int]]:
        return {i: counts[i] for i in ids if i in counts}

    embedder = HashEmbedder()
    index = mem.store.vectors.index(embedder.name, embedder.dimension)
    cfg = replace(mem.config.recall, hub=True)
    retriever = Retriever(
        mem.store.memories,
        mem.store.keyword,
        mem.store.vectors,
        cfg,
        embedder,
        index,
        entity_mentions=graph,
    )
    try:
        ns = mem.scope().namespace
        recall = retriever.recall(RecallRequest("Signet release notes", ns, 2))
    finally:
        retriever.close()
    factors = {h.id: h.breakdown.dampening for h in recall.hits}
    assert factors == {hub_id: 0.7, other_id: 1.0}
    assert recall.hits[0].id == other_id


def test_hub_in_recall_reads_the_linkers_mention_counts(mem: Memory) -> None:
    """Wired end to end: the inline linker fills ``memory_entity_mentions`` and
    ``entities.mentions`` at write time, ``store.graph_counts.hub_mentions`` reads them
    in one query, and recall(hub=True) dampens the memory linked only to the hub."""
    for i in range(12):  # "Nate" speaks in every memory: a hub
        mem.add(f"Nate: shopping list number {i} has apples and pears")
    only_hub = mem.add("Nate: the ocean waves were huge this morning").id
    with_sam = mem.add("Nate: the ocean waves were huge with Sam").id
    ns = mem.scope().namespace
    counts = mem.store.graph_counts.hub_mentions(ns, [only_hub, with_sam, "no-such-id"])
    assert counts == {only_hub: {"nate": 14}, with_sam: {"nate": 14, "sam": 1}}
    assert mem.store.graph_counts.hub_mentions("elsewhere", [only_hub]) == {}
    assert mem.store.graph_counts.hub_mentions(ns, []) == {}
    plain = mem.recall("ocean waves huge", limit=2)
    assert {h.breakdown.dampening for h in plain.hits} == {1.0}
    damped = mem.recall("ocean waves huge", limit=2, hub=True)
    factors = {h.id: h.breakdown.dampening for h in damped.hits}
    # Sam (1 mention) is the P90 threshold among the candidates' entities; Nate is above.
    assert factors == {only_hub: 0.7, with_sam: 1.0}
    assert damped.hits[0].id == with_sam
