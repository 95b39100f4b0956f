"""Decision auto-protection (P9) and structural classification (P10), offline: facts
become entity attributes at extraction, one classify job per entity files them under
aspects by rule and types the entity — on both backends."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from engram import Memory
from engram.pipeline.classify import (
    ASPECT_SUGGESTIONS,
    KEYWORD_FAMILIES,
    attribute_kind,
    enqueue_classify,
    parse_answer,
    rule_aspect,
)
from engram.pipeline.extract_job import handle_extract
from engram.store.protocols import Job

WORK = "Derek: I work at Acme as an engineer. I live in Lisbon."
EFOIL = "Derek: I own an efoil with a 12V20Ah battery"
DECISION = "Derek: I decided to switch to Postgres for the project."


def jobs_of(mem: Memory, kind: str, **scope: str) -> list[Job]:
    return list(mem.jobs.list(kind=kind, **scope))


def attributes(mem: Memory, entity: str = "Derek") -> dict[str, tuple[str, float, int | None]]:
    """content -> (kind, importance, aspect id) of the entity's attributes."""
    found = mem.graph.attributes(entity, user_id="d")
    return {a.content: (a.kind, a.importance, a.aspect_id) for a in found}


def with_pipeline(mem: Memory, **flags: Any) -> None:
    core = mem._core
    core.config = replace(core.config, pipeline=replace(core.config.pipeline, **flags))


# -- P9: decision auto-protection at write time ----------------------------------------------
def test_attribute_kind_follows_seed_004_decision_protection() -> None:
    assert attribute_kind("Derek lives in Lisbon.") == ("attribute", 0.5)
    assert attribute_kind("We decided to use Postgres.") == ("constraint", 0.85)
    # The source memory's decision language protects every fact taken from it.
    assert attribute_kind("Derek: we decided to use Postgres. I live in Lisbon.", "lives") == (
        "constraint",
        0.85,
    )
    assert attribute_kind("Have you decided on a name?") == ("attribute", 0.5)  # a question


def test_extraction_records_decisions_as_constraints_and_other_facts_as_attributes(
    mem: Memory,
) -> None:
    mem.add(WORK, user_id="d")
    source = mem.add(DECISION, user_id="d")
    assert mem.jobs.process_pending(limit=2) == 2  # the two extract jobs, not the classify one
    found = attributes(mem)
    inline = "I decided to switch to Postgres for the project."
    assert found == {
        "Derek works at Acme as an engineer.": ("attribute", 0.5, None),
        "Derek lives in Lisbon.": ("attribute", 0.5, None),
        # No triple names Derek here: the fact opens with the known entity.
        "Derek decided to switch to Postgres for the project.": ("constraint", 0.85, None),
        # The inline linker's write-time protection of the same decision (P9).
        inline: ("constraint", 0.85, None),
    }
    # Each extracted attribute points at the fact's own memory, written by the
    # pipeline; the write-time one at the memory that stated the decision.
    for attribute in mem.graph.attributes("Derek", user_id="d"):
        if attribute.content == inline:
            assert attribute.memory_id == source.id
        else:
            assert mem.get(attribute.memory_id, user_id="d").content == attribute.content


def test_a_fact_about_no_known_entity_gets_no_attribute(mem: Memory) -> None:
    with_pipeline(mem, linker=False)  # the inline linker (G3) would link the speaker
    mem.add("Caroline: I went hiking yesterday with the dog.", user_id="d")
    mem.jobs.process_pending()
    [job] = jobs_of(mem, "extract", user_id="d")
    assert job.result is not None
    assert job.result["attributes"] == {"added": 0, "entities": 0, "classify_jobs": 0}
    assert mem.graph.entities(user_id="d") == []
    assert jobs_of(mem, "classify", user_id="d") == []


def test_reprocessing_a_memory_adds_no_attribute_twice(mem: Memory) -> None:
    mem.add(WORK, user_id="d")
    mem.jobs.process_pending()
    before = mem.graph.attributes("Derek", user_id="d")
    assert len(before) == 2 and all(a.aspect_id is not None for a in before)
    [job] = jobs_of(mem, "extract", user_id="d")
    again = handle_extract(mem._core, job)  # a retry, or a worker that died mid-job
    assert again["attributes"] == {"added": 0, "entities": 1, "classify_jobs": 0}
    assert mem.graph.attributes("Derek", user_id="d") == before  # classification kept too
    assert len(jobs_of(mem, "classify", user_id="d")) == 1


# -- P10: one classify job per entity ----------------------------------------------------------
def test_one_pending_classify_job_per_entity_however_many_facts(mem: Memory) -> None:
    mem.add(WORK, user_id="d")  # two facts about Derek
    mem.add(EFOIL, user_id="d")  # one more
    assert mem.jobs.process_pending(limit=2) == 2
    [pending] = jobs_of(mem, "classify", user_id="d")
    derek = mem.graph.entity("Derek", user_id="d")
    assert pending.status == "pending" and pending.memory_id == f"entity:{derek.id}"
    assert pending.payload == {"entity_id": derek.id, "entity": "Derek"}
    # Queueing it again (a third memory about Derek) returns the same job.
    again = enqueue_classify(mem._core, "user:d", derek.id, "Derek")
    assert again.id == pending.id
    assert mem.jobs.process_pending() == 1
    [done] = jobs_of(mem, "classify", user_id="d")
    assert done.result is not None
    assert (done.result["batches"], done.result["classified"]) == (1, 3)
    assert done.result["by"] == {"llm": 0, "rules": 3}


def test_the_offline_classifier_files_facts_under_aspects_and_types_the_entity(
    mem: Memory,
) -> None:
    with_pipeline(mem, linker=False)  # the graph comes from the pipeline alone here
    mem.add(WORK, user_id="d")
    mem.add(EFOIL, user_id="d")
    mem.add(DECISION, user_id="d")
    assert mem.graph.entities(user_id="d") == []
    mem.jobs.process_pending()
    derek = mem.graph.entity("Derek", user_id="d")
    assert derek.entity_type == "person"  # the source of owns / works_at / lives_in
    aspects = {a.id: a.name for a in mem.graph.aspects("Derek", user_id="d")}
    filed = {content: (aspects[aid], kind) for content, (kind, _, aid) in attributes(mem).items()}
    assert filed == {
        "Derek works at Acme as an engineer.": ("work", "attribute"),
        "Derek lives in Lisbon.": ("location", "attribute"),
        "Derek owns an efoil with a 12V20Ah battery.": ("possessions", "attribute"),
        "Derek decided to switch to Postgres for the project.": ("plans", "constraint"),
    }
    # Entities with no attribute of their own (Acme, Lisbon, efoil) get no job.
    assert {j.payload["entity"] for j in jobs_of(mem, "classify", user_id="d")} == {"Derek"}
    assert mem.graph.entity("Acme", user_id="d").entity_type == "unknown"


def test_a_job_classifies_in_batches_of_classify_batch_size(mem: Memory) -> None:
    with_pipeline(mem, classify_batch_size=2)
    mem.add(WORK, user_id="d")
    mem.add(EFOIL, user_id="d")
    mem.add(DECISION, user_id="d")
    # The extract jobs: 4 facts about Derek, and the decision's write-time constraint (P9).
    assert mem.jobs.process_pending(limit=3) == 3
    assert mem.jobs.process_pending() == 1  # one job ...
    [job] = jobs_of(mem, "classify", user_id="d")
    assert job.result is not None
    assert (job.result["batches"], job.result["classified"]) == (3, 5)  # ... three calls' worth
    assert all(aid is not None for _, _, aid in attributes(mem).values())


def test_classification_off_records_attributes_but_queues_no_job(mem: Memory) -> None:
    with_pipeline(mem, classify=False)
    mem.add(WORK, user_id="d")
    mem.jobs.process_pending()
    assert jobs_of(mem, "classify", user_id="d") == []
    assert {kind for kind, _, _ in attributes(mem).values()} == {"attribute"}


def test_a_job_for_a_vanished_entity_is_skipped(mem: Memory) -> None:
    mem.add(WORK, user_id="d")
    mem.jobs.process_pending(limit=1)
    mem._core.store.jobs.enqueue(
        "classify",
        "user:d",
        memory_id="entity:999999",
        payload={"entity_id": 999999, "entity": "X"},
    )
    mem._core.store.jobs.enqueue("classify", "user:d", memory_id="entity:bad", payload={})
    mem.jobs.process_pending()
    skipped = [
        j.result["skipped"]
        for j in jobs_of(mem, "classify", user_id="d")
        if j.result and "skipped" in j.result
    ]
    assert len(skipped) == 2 and any("gone" in s for s in skipped)


# -- the rules and the answer's checks, without a store ----------------------------------------
def test_rule_aspects_pick_the_family_hit_most() -> None:
    assert rule_aspect("Derek swapped the battery for a 48V one.") == "possessions"
    assert rule_aspect("Caroline loves painting sunsets.") == "hobbies"  # painting + ties
    assert rule_aspect("Melanie's daughter is turning five.") == "relationships"
    assert rule_aspect("Jon went to a concert last week.") == "events"
    assert rule_aspect("Gina feels quietly optimistic.") == "general"
    assert ASPECT_SUGGESTIONS["person"] == tuple(name for name, _ in KEYWORD_FAMILIES)


def test_parse_answer_keeps_what_is_valid_and_warns_about_the_rest() -> None:
    answer = parse_answer(
        '{"facts": [{"i": 0, "aspect": "gear", "kind": "attribute", "new": true},'
        ' {"i": 0, "aspect": "twice", "kind": "attribute", "new": true},'
        ' {"i": 5, "aspect": "x", "kind": "attribute", "new": true},'
        ' {"i": 1, "aspect": "", "kind": "attribute", "new": true},'
        ' {"i": 2, "aspect": "plans", "kind": "rule", "new": false}, "junk"], "type": "robot"}',
        3,
        ask_type=True,
    )
    assert answer.facts == {0: ("gear", "attribute"), 2: ("plans", None)}
    assert answer.entity_type is None
    assert len(answer.warnings) == 6 and "robot" in answer.warnings[0]
    bare = parse_answer(
        '[{"i": 0, "aspect": "work", "kind": "constraint", "new": false}]', 1, ask_type=False
    )
    assert bare.facts == {0: ("work", "constraint")} and bare.warnings == ()
    prose = parse_answer("I would file these under work.", 1, ask_type=False)
    assert prose.facts == {} and "rules classified the batch" in prose.warnings[0]
