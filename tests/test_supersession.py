"""Retroactive supersession (seed 004): a fact that lands on an entity aspect supersedes
the older sibling it contradicts — applied in full mode, queued for review in
controlled mode, audited only in shadow mode; raw memories never — on both backends."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from conftest import HashEmbedder
from engram import Config, Memory
from engram.llm import OllamaProvider
from engram.pipeline.supersession import change_verdict, check, supersede_siblings
from engram.records import PIPELINE_WHO, MemoryRecord, utcnow
from llmserver import Reply, ScriptedLlm

FIRST = "Derek: I own an efoil with a 12V20Ah battery"
SECOND = "Derek: I swapped the battery for a 48V one"
OLD = "Derek owns an efoil with a 12V20Ah battery."
NEW = "Derek swapped the battery for a 48V one."


def memory(config: Config, location: str, **pipeline: Any) -> Memory:
    config = replace(config, pipeline=replace(config.pipeline, **pipeline))
    return Memory(location, config=config, embedder=HashEmbedder())


def derek(mem: Memory) -> tuple[MemoryRecord, MemoryRecord]:
    """Tell Derek's battery twice, processing after each; (old fact, new fact)."""
    mem.add(FIRST, user_id="d")
    mem.jobs.process_pending()
    mem.add(SECOND, user_id="d")
    mem.jobs.process_pending()
    facts = {r.content: r for r in mem.get_all(user_id="d") if r.who == PIPELINE_WHO}
    return facts[OLD], facts[NEW]


def audit(mem: Memory, memory_id: str) -> list[dict[str, Any]]:
    rows = mem.history(memory_id, user_id="d")
    return [h.after for h in rows if h.event == "supersession" and h.after]


def test_full_mode_supersedes_the_older_sibling(config: Config, store_location: str) -> None:
    with memory(config, store_location, allow_update_delete=True) as mem:
        old, new = derek(mem)
        assert old.superseded_by == new.id and new.superseded_by is None
        [row] = audit(mem, old.id)
        assert (row["outcome"], row["mode"], row["successor_id"]) == ("superseded", "full", new.id)
        # stale26: the graph closed Derek's battery when the swap was told, so the
        # extract job's pass (``supersede_derived``) decides the pair before the
        # classify job's sibling pass would read "swapped the battery" (``change``)
        assert row["contradiction"]["method"] == "graph"
        # the holder of the closed relation: (efoil, has_battery, 12V20Ah)
        assert (row["older"], row["newer"], row["entity"]) == (OLD, NEW, "efoil")
        assert [h.event for h in mem.history(old.id, user_id="d")][-2:] == [
            "superseded",
            "supersession",
        ]
        hits = [h.memory for h in mem.recall("Derek's efoil battery", user_id="d").hits]
        facts = [m.content for m in hits if m.who == PIPELINE_WHO]
        assert facts[0] == NEW and OLD not in [m.content for m in hits]
        # Processing again decides nothing twice.
        assert mem.jobs.process_pending() == 0
        assert len(audit(mem, old.id)) == 1


def test_controlled_mode_queues_it_for_review(config: Config, store_location: str) -> None:
    with memory(config, store_location) as mem:
        old, new = derek(mem)
        assert old.superseded_by is None
        [item] = mem.review.list(user_id="d")
        assert (item.memory_id, item.target_id, item.action) == (new.id, old.id, "UPDATE")
        assert "battery" in item.reason
        [row] = audit(mem, old.id)
        assert (row["outcome"], row["review_id"]) == ("review", item.id)
        # Approving it supersedes through the same path as a held-back UPDATE.
        mem.review.approve(item.id, user_id="d")
        assert mem.get(old.id, user_id="d").superseded_by == new.id
        assert len([r for r in mem.get_all(user_id="d") if r.who == PIPELINE_WHO]) == 2


def test_shadow_mode_only_audits_it(config: Config, store_location: str) -> None:
    with memory(config, store_location, shadow_mode=True) as mem:
        first = mem.add(FIRST, user_id="d")
        mem.jobs.process_pending()
        second = mem.add(SECOND, user_id="d")
        mem.jobs.process_pending()
        records = mem.get_all(user_id="d")
        assert {r.id for r in records} == {first.id, second.id}  # no fact was written
        assert all(r.superseded_by is None for r in records)
        assert mem.review.list(user_id="d") == []
        [row] = audit(mem, first.id)  # the attributes sit on the raw memories
        assert (row["outcome"], row["mode"], row["successor_id"]) == ("shadow", "shadow", second.id)


# -- the pass itself, on attributes set up through mem.graph ---------------------------------
def siblings(mem: Memory, older: MemoryRecord, newer: MemoryRecord) -> Any:
    mem.graph.record(older.id, [("Derek", "owns", "efoil")], user_id="d")
    mem.graph.add_attribute("Derek", OLD, memory_id=older.id, aspect="possessions", user_id="d")
    return mem.graph.add_attribute(
        "Derek", NEW, memory_id=newer.id, aspect="possessions", user_id="d"
    )


def pipeline_fact(mem: Memory, content: str) -> MemoryRecord:
    [record] = mem.add_many([{"content": content, "who": PIPELINE_WHO, "user_id": "d"}])
    return record


def test_raw_memories_are_never_superseded(config: Config, store_location: str) -> None:
    with memory(config, store_location, allow_update_delete=True, enabled=False) as mem:
        raw = mem.add(OLD, user_id="d")
        newer = pipeline_fact(mem, NEW)
        landed = siblings(mem, raw, newer)
        entity = mem.graph.entity("Derek", user_id="d")
        report = supersede_siblings(mem._core, entity, [landed], provider=None, now=utcnow())
        assert report.outcomes == {"blocked": 1}
        assert mem.get(raw.id, user_id="d").superseded_by is None
        assert audit(mem, raw.id)[0]["block_reason"] == "raw memories are never rewritten"


def test_an_older_memory_landing_late_is_superseded_by_the_newer(
    config: Config, store_location: str
) -> None:
    with memory(config, store_location, allow_update_delete=True, enabled=False) as mem:
        older = pipeline_fact(mem, OLD)
        newer = pipeline_fact(mem, NEW)
        siblings(mem, older, newer)
        # The older fact is the one landing now (classified last): order is by time told.
        entity = mem.graph.entity("Derek", user_id="d")
        late = next(a for a in mem.graph.attributes("Derek", user_id="d") if a.content == OLD)
        report = supersede_siblings(mem._core, entity, [late], provider=None, now=utcnow())
        assert report.outcomes == {"superseded": 1}
        assert mem.get(older.id, user_id="d").superseded_by == newer.id
        again = supersede_siblings(mem._core, entity, [late], provider=None, now=utcnow())
        assert (again.compared, again.outcomes) == (0, {})  # settled pairs are not redone


def test_a_chain_of_changes_supersedes_each_fact_by_the_next(
    config: Config, store_location: str
) -> None:
    with memory(config, store_location, allow_update_delete=True, enabled=False) as mem:
        third = "Derek replaced the battery again with a 36V pack."
        a, b, c = (pipeline_fact(mem, text) for text in (OLD, NEW, third))
        siblings(mem, a, b)
        mem.graph.add_attribute("Derek", third, memory_id=c.id, aspect="possessions", user_id="d")
        landed = [x for x in mem.graph.attributes("Derek", user_id="d") if x.content != OLD]
        entity = mem.graph.entity("Derek", user_id="d")
        report = supersede_siblings(mem._core, entity, landed, provider=None, now=utcnow())
        assert report.outcomes == {"superseded": 2}
        chain = {r.id: r.superseded_by for r in (mem.get(x.id, user_id="d") for x in (a, b, c))}
        assert chain == {a.id: b.id, b.id: c.id, c.id: None}  # not a.id -> c.id


# -- the check ---------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("older", "newer", "method"),
    [
        (OLD, NEW, "change"),
        # the claim reader reads "switched to" as a change of what Alice uses (issue 28)
        ("Alice uses MySQL for billing", "Alice switched from MySQL to Postgres", "syntactic"),
        ("Derek likes sushi a lot", "Derek no longer likes sushi a lot", "syntactic"),
        ("Derek owns an efoil", "Derek swapped his car for a bike", None),  # another thing
        ("Derek works at Acme", "Derek lives in Lisbon", None),
    ],
)
def test_the_check_is_syntactic_then_change(older: str, newer: str, method: str | None) -> None:
    verdict = check(newer, older, provider=None, semantic_enabled=True, timeout=5)
    assert verdict.contradicts is (method is not None)
    if method is not None:
        assert verdict.method == method
    assert change_verdict(older, newer) is None  # only the newer statement's change counts


@pytest.fixture
def llm() -> Iterator[ScriptedLlm]:
    with ScriptedLlm() as server:
        yield server


def test_the_semantic_check_runs_only_when_enabled_and_fails_open(
    llm: ScriptedLlm, tmp_path: Path
) -> None:
    provider = OllamaProvider(base_url=llm.url, timeout=5)
    older = "Alice's team stores billing data in PostgreSQL"
    newer = "Alice's team stores billing data in MongoDB now"
    off = check(newer, older, provider=provider, semantic_enabled=False, timeout=5)
    assert not off.contradicts and llm.requests == []
    llm.script('{"contradicts": true, "confidence": 0.9, "reasoning": "moved stores"}')
    on = check(newer, older, provider=provider, semantic_enabled=True, timeout=5)
    assert (on.contradicts, on.method, on.reason) == (True, "semantic", "moved stores")
    llm.script(Reply(status=500, body="down"))
    down = check(newer, older, provider=provider, semantic_enabled=True, timeout=5)
    assert not down.contradicts  # advisory: a failure is no contradiction
