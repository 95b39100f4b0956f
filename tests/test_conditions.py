"""Standing instructions' conditions (issue 24, C1): read from the text, written as a
second vector at add time and by reindex, and pooled into the dense leg."""

from __future__ import annotations

import pytest

from conftest import HashEmbedder
from engram.config import Config
from engram.memory import Memory
from engram.recall.chunks import PooledDense
from engram.recall.conditions import SUFFIX, condition_model, condition_of

RULE = (
    "user: Always include version numbers, release dates and changelog links when I ask "
    "about software dependencies."
)
QUERY = "software dependencies of the build"
# Each shares "the build" with the question: nearer it than the whole rule (which
# shares only "software dependencies" among sixteen words), farther than the rule's
# condition alone ("software dependencies").
NOTES = [
    "notes on the build pipeline and its flaky tests",
    "the build server was restarted on Monday",
    "we moved the build cache to a bigger disk",
    "the build badge on the readme turned green",
]


@pytest.mark.parametrize(
    ("text", "condition"),
    [
        (RULE, "software dependencies"),
        # A comma inside the action does not end the instruction.
        (
            "Always format dates as Month Day, Year when I ask about timeline details.",
            "timeline details",
        ),
        ("Always answer in French.", None),
        ("Never use emojis if we are chatting about work topics.", "work topics"),
        ("user: always cite sources when discussing history, please.", "history"),
        ("From now on, use metric units for questions about recipes!", "recipes"),
        ("Going forward, whenever I ask you about flights, give the times in UTC", "flights"),
        ('Always answer with code when I ask about "Rust".', "Rust"),
        # A condition said first ends at its comma (issue 24, C2), also past the
        # opening recall reads.
        ("When I ask about flights, always give the times in UTC", "flights"),
        ("user: If I mention a deadline, remind me a day before.", "a deadline"),
        ("For anything about my health, be concise.", "my health"),
        ("Whenever we discuss the garden, don't suggest pesticides", "the garden"),
        (
            "When I ask you questions about software dependencies or libraries used in the "
            "project, always include version numbers",
            "software dependencies or libraries used in the project",
        ),
        ("If I finish the report early, I will call you.", None),
        ("assistant: When you deploy, always run the migrations first.", None),
        # Not standing instructions: no condition even when the words are there.
        ("user: I always wanted a dog when I ask about pets", None),
        ("Can you tell me what to do when I ask about taxes?", None),
    ],
)
def test_the_condition_is_read_from_a_standing_instruction(
    text: str, condition: str | None
) -> None:
    assert condition_of(text) == condition


def dense_order(mem: Memory, **settings: object) -> list[str]:
    found = mem.recall(
        QUERY,
        limit=10,
        strategy="dense",
        min_relevance=0.0,
        context_dense=0.0,
        session_dense=0.0,
        **settings,
    )
    return [h.memory.id for h in found.hits]


def test_an_instruction_is_found_by_its_condition(mem: Memory) -> None:
    rule = mem.add(RULE).id
    for note in NOTES:
        mem.add(note)
    assert mem.store.chunks.count(condition_model("test-hash")) == 1
    assert mem.store.chunks.count("test-hash") == 0, "no long-message chunk was written"
    # By its own vector the rule is last: every note shares more with the question.
    assert dense_order(mem, condition_weight=0.0)[-1] == rule
    # By its condition it is first.
    assert dense_order(mem)[0] == rule
    # The dense leg's search: the rule is not among the memories' own top 2, and the
    # conditions' search brings it in first.
    core = mem._core
    assert core.index is not None and core.embedder is not None
    query = core.embedder.embed_batch([QUERY])[0]
    namespace = mem.config.default_namespace
    assert rule not in dict(core.index.search(namespace, query, 2))
    pooled = PooledDense(core.index, mem.store.chunks, 1.0, SUFFIX)
    assert [i for i, _ in pooled.search(namespace, query, 2)][0] == rule


RULE_FIRST = (
    "user: Whenever I ask about software dependencies, list version numbers, release "
    "dates and changelog links."
)


def test_a_condition_said_first_is_written_at_add_time(mem: Memory) -> None:
    rule = mem.add(RULE_FIRST).id
    for note in NOTES:
        mem.add(note)
    assert mem.store.chunks.count(condition_model("test-hash")) == 1
    assert dense_order(mem)[0] == rule


def test_a_changed_instruction_loses_its_condition(mem: Memory) -> None:
    rule = mem.add(RULE).id
    for note in NOTES:
        mem.add(note)
    mem.update(rule, content="user: our team meets on Fridays")
    assert dense_order(mem)[0] != rule, "the old condition no longer counts"
    mem.update(rule, content=RULE)
    assert dense_order(mem)[0] == rule


@pytest.mark.parametrize(
    ("text", "filler"),
    [
        (RULE, "user: always good to hear from you, number"),
        # A condition said first (C2): openings holding "when" are read, and skipped.
        (RULE_FIRST, "user: when I get home I will water plant number"),
    ],
)
def test_reindex_writes_the_conditions_of_older_instructions(
    config: Config, reopenable: str, text: str, filler: str
) -> None:
    # No standing-item rows either (recall/standing_items.py): no chunk row at all.
    off = config.with_overrides(recall={"condition_weight": 0.0, "standing_items": 0})
    with Memory(reopenable, config=off, embedder=HashEmbedder()) as before:
        # More memories whose opening holds an instruction's word than one reindex
        # batch, before the rule: reindex pages past them.
        for n in range(3):
            before.add(f"{filler} {n}")
        rule = before.add(text).id
        for note in NOTES:
            before.add(note)
        assert before.store.chunks.count() == 0
    with Memory(reopenable, config=config, embedder=HashEmbedder()) as after:
        assert dense_order(after)[0] != rule
        after.admin.reindex(batch_size=2)
        assert after.store.chunks.count(condition_model("test-hash")) == 1
        assert dense_order(after)[0] == rule
        after.admin.reindex(rebuild=True)
        assert after.store.chunks.count(condition_model("test-hash")) == 1
        assert dense_order(after)[0] == rule


def test_a_namespace_is_checked_for_conditions_once_then_off_the_recall_after_refresh(
    config: Config, reopenable: str
) -> None:
    with (
        Memory(reopenable, config=config, embedder=HashEmbedder()) as reader,
        Memory(reopenable, config=config, embedder=HashEmbedder()) as writer,
    ):
        for note in NOTES:
            writer.add(note)
        holders = reader._core.retriever.conditioned
        namespace = reader.config.default_namespace
        assert not holders.holds(namespace)  # checked at the first ask: none
        # Another process's instruction: unread by its condition until the refresh ...
        rule = writer.add(RULE).id
        assert dense_order(reader)[0] != rule
        # ... then checked again off the recall, and read.
        holders.refresh = 0.0
        dense_order(reader)
        holders.refresh = 60.0
        assert holders.last is not None
        holders.last.result()
        assert holders.holds(namespace)
        assert dense_order(reader)[0] == rule
