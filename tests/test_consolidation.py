"""``mem.lifecycle`` consolidation (seed 002, FEATURES S8): the density classifier, the
two archival modes (LLM on a loopback server, extractive fallback offline), the cap,
the archival index and exact restore — on both backends, with a hand-moved clock."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from conftest import HashEmbedder, run_doc_example
from engram import Memory
from engram.config import Config
from engram.errors import InvalidInputError, NotFoundError
from engram.lifecycle import archival, density
from engram.records import MemoryRecord
from llmserver import ScriptedLlm, fenced

T0 = datetime(2026, 1, 1, 9, 0, tzinfo=UTC)

PROSE = [
    f"Caroline told Mel about the picnic on day {i}; they laughed about the weather."
    for i in range(12)
]
CODE = [
    f'def handler_{i}(event):\n    cfg = {{"retry_count": {i}, "url": "https://x.io/a_b_c"}}\n'
    f"    return process_event_payload(cfg)\n    # id 9f86d081884c7d659a2feaa0c55ad015\n"
    for i in range(12)
]


class Clock:
    """A clock the test moves."""

    def __init__(self) -> None:
        self.now = T0

    def __call__(self) -> datetime:
        return self.now


def _config(tmp_path: Path, llm_url: str | None = None, **lifecycle: Any) -> Config:
    env = {"ENGRAM_PIPELINE_ENABLED": "false"}
    if llm_url is not None:
        env |= {"ENGRAM_LLM_PROVIDER": "ollama", "ENGRAM_LLM_BASE_URL": llm_url}
    settings = {"max_memories_per_agent": 10, "group_size": 5} | lifecycle
    return Config.load(env=env, home=str(tmp_path / "home")).with_overrides(lifecycle=settings)


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def mem(tmp_path: Path, store_location: str, clock: Clock) -> Iterator[Memory]:
    with Memory(store_location, config=_config(tmp_path), embedder=HashEmbedder()) as m:
        m.lifecycle.clock = clock
        yield m


def _fill(mem: Memory, texts: list[str], namespace: str = "agent-a") -> list[MemoryRecord]:
    items = [
        {"content": t, "created_at": T0 - timedelta(days=len(texts) - i), "category": "episodic"}
        for i, t in enumerate(texts)
    ]
    batch = mem.add_many(items, namespace=namespace)
    return list(batch.records)


# -- the classifier ------------------------------------------------------------------
def test_the_five_weights_sum_to_one_and_the_threshold_is_half() -> None:
    assert set(density.WEIGHTS) == {"code", "structured", "identifiers", "numeric", "lines"}
    assert sum(density.WEIGHTS.values()) == pytest.approx(1.0)
    assert density.DENSE_THRESHOLD == 0.5


def test_code_is_dense_and_conversation_is_sparse() -> None:
    assert density.classify(CODE[0]) is density.Density.DENSE
    assert density.classify(PROSE[0]) is density.Density.SPARSE
    assert density.density_score(CODE[0]) > density.density_score(PROSE[0])


def test_groups_are_classified_by_majority_vote() -> None:
    assert density.classify_group([*CODE[:3], *PROSE[:2]]) is density.Density.DENSE
    assert density.classify_group([*CODE[:2], *PROSE[:3]]) is density.Density.SPARSE
    assert density.classify_group([*CODE[:2], *PROSE[:2]]) is density.Density.SPARSE


def test_extractive_keeps_anchors_and_dense_facts_verbatim() -> None:
    texts = [
        "start of it all here",
        "plain words only now",
        "middle anchor text here",
        "deploy v2.14.3 to 10.0.0.12 on 2026-03-04",
        "the very end of it",
    ]
    out = archival.extractive(texts, max_facts=1, max_chars=2000)
    assert "start of it all here" in out and "the very end of it" in out
    assert "middle anchor text here" in out
    assert "deploy v2.14.3 to 10.0.0.12 on 2026-03-04" in out
    assert "plain words only now" not in out


# -- consolidation -------------------------------------------------------------------
def test_under_the_cap_nothing_is_consolidated(mem: Memory) -> None:
    _fill(mem, PROSE[:10])
    result = mem.lifecycle.consolidate()
    assert result.archived == 0 and result.summaries == ()
    assert mem.store.memories.count("agent-a") == 10


def test_consolidation_brings_the_namespace_under_the_cap(mem: Memory) -> None:
    originals = _fill(mem, PROSE)
    result = mem.lifecycle.consolidate()
    assert mem.store.memories.count("agent-a") <= 10
    archived_ids = {e.original_id for e in result.archival_index}
    oldest = {r.id for r in originals[: len(archived_ids)]}
    assert archived_ids == oldest  # the oldest go first
    for summary_id in result.summaries:
        summary = mem.get(summary_id, namespace="agent-a")
        assert "consolidated" in summary.tags
        assert summary.metadata["consolidated"]["mode"] == result.modes[summary_id]
    # Archived originals are out of recall (and of get) but kept in the archive.
    for memory_id in archived_ids:
        assert mem.store.memories.get("agent-a", memory_id) is None
    assert mem.store.lifecycle.counts("agent-a") == {"agent-a": len(archived_ids)}
    assert mem.index is not None
    hits = mem.search("picnic", namespace="agent-a", limit=50)
    assert not archived_ids & {h.memory.id for h in hits}


def test_sparse_groups_are_abstractive_with_the_extractive_fallback_offline(
    mem: Memory,
) -> None:
    _fill(mem, PROSE)
    result = mem.lifecycle.consolidate()
    assert set(result.modes.values()) == {"abstractive"}
    summary = mem.get(result.summaries[0], namespace="agent-a")
    assert summary.metadata["consolidated"]["method"] == "extractive"  # no LLM configured


def test_dense_groups_are_extractive(mem: Memory) -> None:
    _fill(mem, CODE)
    result = mem.lifecycle.consolidate()
    assert result.modes and set(result.modes.values()) == {"extractive"}
    summary = mem.get(result.summaries[0], namespace="agent-a")
    assert "def handler_0(event):" in summary.content  # the start anchor, verbatim


def test_dual_mode_off_makes_every_group_abstractive(tmp_path: Path, store_location: str) -> None:
    config = _config(tmp_path, dual_mode=False)
    with Memory(store_location, config=config, embedder=None) as mem:
        _fill(mem, CODE)
        assert set(mem.lifecycle.consolidate().modes.values()) == {"abstractive"}


def test_abstractive_summary_comes_from_the_llm(tmp_path: Path, store_location: str) -> None:
    with ScriptedLlm() as llm:
        llm.fallback = fenced({"summary": "Caroline and Mel had many picnics."})
        config = _config(tmp_path, llm.url)
        with Memory(store_location, config=config, embedder=None) as mem:
            _fill(mem, PROSE)
            result = mem.lifecycle.consolidate()
            summary = mem.get(result.summaries[0], namespace="agent-a")
        assert summary.content == "Caroline and Mel had many picnics."
        assert summary.metadata["consolidated"]["method"] == "llm"
        assert "Caroline told Mel about the picnic on day 0" in llm.requests[0].body["prompt"]


# -- restore -------------------------------------------------------------------------
def test_restore_brings_one_original_back_exactly(mem: Memory) -> None:
    originals = {r.id: r for r in _fill(mem, PROSE)}
    result = mem.lifecycle.consolidate()
    entry = result.archival_index[0]
    [back] = mem.lifecycle.restore(entry.original_id, namespace="agent-a")
    before = originals[entry.original_id]
    assert (back.id, back.content, back.created_at, back.category) == (
        before.id,
        before.content,
        before.created_at,
        before.category,
    )
    assert mem.get(entry.original_id, namespace="agent-a").content == before.content
    assert mem.lifecycle.archived(namespace="agent-a", summary_id=entry.summary_id)
    assert entry.original_id not in {
        e.original_id for e in mem.lifecycle.archived(namespace="agent-a")
    }


def test_restoring_a_summary_restores_all_its_originals_and_drops_it(mem: Memory) -> None:
    originals = {r.id: r for r in _fill(mem, PROSE)}
    result = mem.lifecycle.consolidate()
    summary_id = result.summaries[0]
    members = {e.original_id for e in result.archival_index if e.summary_id == summary_id}
    back = mem.lifecycle.restore(summary_id, namespace="agent-a")
    assert {r.id for r in back} == members
    assert all(r.content == originals[r.id].content for r in back)
    assert mem.store.memories.get("agent-a", summary_id) is None  # tombstoned
    hits = mem.search("picnic", namespace="agent-a", limit=50)
    assert members <= {h.memory.id for h in hits}  # re-embedded: recall finds them


def test_restore_of_an_unknown_id_says_what_to_do(mem: Memory) -> None:
    with pytest.raises(NotFoundError, match="neither an archived memory nor a summary"):
        mem.lifecycle.restore("nope", namespace="agent-a")


def test_restore_refuses_when_the_same_content_is_live_and_loses_nothing(mem: Memory) -> None:
    _fill(mem, PROSE)
    entry = mem.lifecycle.consolidate().archival_index[0]
    text = mem.store.lifecycle.take("agent-a", entry.original_id)
    assert text is not None
    # Put the original back into the archive by hand, and a live copy in its place.
    with mem.store.transaction():
        mem.store.memories.insert([text])
        mem.store.lifecycle.archive(
            "agent-a", [text], summary_id=entry.summary_id, mode="abstractive", now=T0
        )
    mem.add(text.content, namespace="agent-a")
    with pytest.raises(InvalidInputError, match="same content is live"):
        mem.lifecycle.restore(entry.original_id, namespace="agent-a")
    assert mem.lifecycle.archived(namespace="agent-a", summary_id=entry.summary_id)


def test_namespaces_are_consolidated_apart(mem: Memory) -> None:
    _fill(mem, PROSE, namespace="agent-a")
    _fill(mem, PROSE[:5], namespace="agent-b")
    result = mem.lifecycle.consolidate()
    assert {e.namespace for e in result.archival_index} == {"agent-a"}
    assert mem.store.memories.count("agent-b") == 5
    with pytest.raises(NotFoundError):
        mem.lifecycle.restore(result.archival_index[0].original_id, namespace="agent-b")


# -- the schedule --------------------------------------------------------------------
@pytest.mark.parametrize(
    ("interval", "gaps"),
    [("hourly", timedelta(hours=1)), ("daily", timedelta(days=1)), ("weekly", timedelta(weeks=1))],
)
def test_consolidation_runs_on_its_interval(
    tmp_path: Path, store_location: str, interval: str, gaps: timedelta
) -> None:
    clock = Clock()
    config = _config(tmp_path, consolidation_interval=interval)
    with Memory(store_location, config=config, embedder=None) as mem:
        mem.lifecycle.clock = clock
        assert mem.lifecycle.upkeep() == (None, None)  # the first round starts the schedule
        clock.now += gaps - timedelta(seconds=1)
        assert mem.lifecycle.upkeep()[0] is None
        clock.now += timedelta(seconds=1)
        assert mem.lifecycle.upkeep()[0] is not None
        clock.now += gaps - timedelta(seconds=1)
        assert mem.lifecycle.upkeep()[0] is None
        clock.now += timedelta(seconds=1)
        assert mem.lifecycle.upkeep()[0] is not None


def test_never_never_consolidates(tmp_path: Path, store_location: str) -> None:
    clock = Clock()
    config = _config(tmp_path, consolidation_interval="never")
    with Memory(store_location, config=config, embedder=None) as mem:
        mem.lifecycle.clock = clock
        _fill(mem, PROSE)
        for _ in range(3):
            assert mem.lifecycle.upkeep()[0] is None
            clock.now += timedelta(weeks=2)
        assert mem.store.memories.count("agent-a") == 12


def test_the_docs_example_runs(capsys: pytest.CaptureFixture[str]) -> None:
    run_doc_example(capsys, "lifecycle.md", printed="prints\n\n```text\n")


def test_erasing_a_namespace_erases_its_archive_too(mem: Memory) -> None:
    _fill(mem, PROSE)
    assert mem.lifecycle.consolidate().archived
    mem.lifecycle.set_retention(30, namespace="agent-a")
    mem.erasure.erase(namespace="agent-a")
    assert mem.store.lifecycle.counts("agent-a") == {}
    assert "agent-a" not in mem.store.lifecycle.overrides()


# -- periodic compression of old memories, below the cap (seed 002) -----------------------
def _aged(mem: Memory, days: int, count: int, namespace: str = "agent-a") -> list[MemoryRecord]:
    items = [
        {
            "content": f"Old note {days}-{i}: Mel and Caroline planned the picnic by the lake.",
            "created_at": T0 - timedelta(days=days, minutes=count - i),
            "category": "episodic",
        }
        for i in range(count)
    ]
    return list(mem.add_many(items, namespace=namespace).records)


@pytest.fixture
def aging(tmp_path: Path, store_location: str, clock: Clock) -> Iterator[Memory]:
    """A store far under its cap that compresses memories older than 30 days."""
    config = _config(tmp_path, max_memories_per_agent=1000, compress_after_days=30)
    with Memory(store_location, config=config, embedder=HashEmbedder()) as m:
        m.lifecycle.clock = clock
        yield m


def test_old_memories_are_compressed_below_the_cap_in_full_groups(
    aging: Memory, clock: Clock
) -> None:
    old = _aged(aging, 100, 12)  # 12 old: two full groups of 5, two left waiting
    young = _aged(aging, 3, 3)
    result = aging.lifecycle.consolidate()
    assert len(result.summaries) == 2
    assert {e.original_id for e in result.archival_index} == {r.id for r in old[:10]}
    live = {r.id for r in aging.get_all(namespace="agent-a", limit=100)}
    assert {r.id for r in old[10:] + young} | set(result.summaries) == live
    assert aging.lifecycle.consolidate().archived == 0  # two old are not a full group
    clock.now += timedelta(days=400)  # everything is old now, summaries included
    later = aging.lifecycle.consolidate()
    folded = {e.original_id for e in later.archival_index}
    assert folded == {r.id for r in old[10:] + young}  # one full group of 5
    assert not folded & set(result.summaries)  # a summary is never folded again
    back = aging.lifecycle.restore(result.summaries[0], namespace="agent-a")
    assert {r.id for r in back} == {r.id for r in old[:5]}


def test_the_schedule_compresses_old_memories_and_null_turns_it_off(
    aging: Memory, tmp_path: Path, store_location: str, clock: Clock
) -> None:
    _aged(aging, 60, 5)
    assert aging.lifecycle.upkeep() == (None, None)  # the first round starts the schedule
    clock.now += timedelta(days=1)
    done, _ = aging.lifecycle.upkeep()
    assert done is not None and done.archived == 5
    assert Config().lifecycle.compress_after_days == 90
    off = _config(tmp_path, max_memories_per_agent=1000, compress_after_days=None)
    with Memory(store_location, config=off, embedder=HashEmbedder()) as mem:
        mem.lifecycle.clock = clock
        _aged(mem, 200, 5, namespace="agent-b")
        assert mem.lifecycle.consolidate(namespace="agent-b").archived == 0
