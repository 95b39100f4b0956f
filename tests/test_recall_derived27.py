"""derived27: a memory and the fact the extract job derived from it do not take two of
the context's places; the next memory moves up into the freed one (docs/recall.md,
"A memory and its derived facts")."""

from __future__ import annotations

from conftest import HashEmbedder
from engram import Config, Memory
from engram.compat.mem0 import Memory as Mem0

NOTES = [
    "Our north-star metric is weekly active merchants.",
    "We decided a merchant has churned after 60 days without an order.",
    "The weekly merchants report goes to the CFO every Monday.",
    "Marketing tracks active merchants by acquisition channel.",
    "Our biggest merchant segment is small cafés with fewer than ten staff.",
]
QUERY = "which weekly metric about active merchants do we track?"


def _store(mem: Memory) -> dict[str, str]:
    ids = {mem.add(text, user_id="lena").id: text for text in NOTES}
    mem.jobs.process_pending()
    return ids


def _roots(mem: Memory, shown: tuple[str, ...]) -> list[str]:
    return [(r := mem.get(i, user_id="lena")).source_memory_id or r.id for i in shown]


def test_a_memory_and_its_derived_fact_take_one_place(mem: Memory) -> None:
    raw = _store(mem)
    once = mem.recall(QUERY, user_id="lena", limit=4, abstain=False)
    roots = _roots(mem, once.shown)
    assert len(roots) == len(set(roots)) == 4  # the freed place goes to the next memory
    assert set(roots) <= set(raw)
    assert [h.memory.id for h in once.hits] == list(once.shown)
    assert once.context.count("(id: ") == 4
    both = mem.recall(QUERY, user_id="lena", limit=4, abstain=False, derived_once=False)
    roots = _roots(mem, both.shown)
    assert len(roots) > len(set(roots)), "off, the pair is shown as before"


def test_the_better_ranked_of_the_pair_is_kept(mem: Memory) -> None:
    _store(mem)
    both = mem.recall(QUERY, user_id="lena", limit=10, abstain=False, derived_once=False)
    once = mem.recall(QUERY, user_id="lena", limit=10, abstain=False)
    ranked = [h.memory for h in both.hits]
    kept = [h.memory.id for h in once.hits]
    assert kept == [m.id for m in ranked if m.id in kept]  # the order is kept
    for at, memory in enumerate(ranked):
        family = {memory.id, memory.source_memory_id}
        above = [m for m in ranked[:at] if m.id in kept]
        said = any(m.id in family or m.source_memory_id == memory.id for m in above)
        assert (memory.id in kept) is not said, memory.content
    assert len(kept) < len(ranked)


def test_a_derived_fact_without_its_source_among_the_hits_stays(mem: Memory) -> None:
    _store(mem)
    facts = [r for r in mem.get_all(user_id="lena") if r.source_memory_id]
    assert facts
    fact = facts[0]
    mem.delete(fact.source_memory_id or "", user_id="lena")
    found = mem.recall(fact.content, user_id="lena", limit=4, abstain=False)
    assert fact.id in found.shown


def test_the_mem0_door_still_finds_facts_whose_conversation_it_hides(
    config: Config, store_location: str
) -> None:
    # The door hides the conversation an inferred fact came from; were the rule on
    # there, the conversation ranked first would take its facts out with it.
    with Mem0(store_location, config=config, embedder=HashEmbedder()) as door:
        door.add("Derek: I work at Acme as an engineer. I live in Lisbon.", user_id="d")
        found = door.search("Derek Acme engineer Lisbon", filters={"user_id": "d"}, threshold=0.0)
    assert sorted(r["memory"] for r in found["results"]) == [
        "Derek lives in Lisbon.",
        "Derek works at Acme as an engineer.",
    ]
