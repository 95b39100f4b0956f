"""seed 004's embedding tracker (``mem.maintenance.track``): memories whose vectors are
missing, stale or from another model are re-embedded a batch at a time, newest first;
an unavailable provider skips the cycle; a failing memory is counted, not fatal. Both
backends, time moved by hand."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from conftest import NO_PIPELINE, Clock, HashEmbedder, section_config
from engram import Memory
from engram.config import Config
from engram.embed.base import Vectors
from engram.errors import InvalidInputError

T0 = datetime(2026, 6, 1, 8, 0, tzinfo=UTC)


class FlakyEmbedder(HashEmbedder):
    """The hash embedder, which can be down, or fail on texts holding a bad word."""

    def __init__(self, name: str = "test-hash") -> None:
        super().__init__()
        self.name = name
        self.down = False
        self.bad = "poison"

    def embed_batch(self, texts: Sequence[str]) -> Vectors:
        if self.down:
            raise RuntimeError("embedding server unreachable")
        if any(self.bad in t for t in texts):
            raise RuntimeError("the model choked")
        return super().embed_batch(texts)


def _config(tmp_path: Path, **maintenance: Any) -> Config:
    return section_config(tmp_path, NO_PIPELINE, "maintenance", maintenance)


@pytest.fixture
def embedder() -> FlakyEmbedder:
    return FlakyEmbedder()


@pytest.fixture
def mem(
    tmp_path: Path, store_location: str, clock: Clock, embedder: FlakyEmbedder
) -> Iterator[Memory]:
    with Memory(store_location, config=_config(tmp_path), embedder=embedder) as m:
        m.maintenance.clock = clock
        yield m


def _add_unembedded(
    mem: Memory, embedder: FlakyEmbedder, n: int, topic: str = "kites"
) -> list[str]:
    embedder.down = True
    ids = [mem.add(f"fact number {i} about {topic}").id for i in range(n)]
    embedder.down = False
    return ids


def test_missing_vectors_are_embedded_newest_first_in_batches_of_eight(
    mem: Memory, embedder: FlakyEmbedder
) -> None:
    ids = _add_unembedded(mem, embedder, 10)
    assert mem.maintenance.diagnose().counts.vectors_missing == 10
    first = mem.maintenance.track()
    # seed 004: batchSize 8, ordered by updated_at DESC.
    assert first.embedded == {"missing": 8} and first.failed == 0
    assert first.queue_depth == 2
    left = {r.id for r in mem.get_all(limit=20) if r.embedding_model is None}
    assert left == set(ids[:2])
    second = mem.maintenance.track()
    assert second.embedded == {"missing": 2} and second.queue_depth == 0
    assert mem.maintenance.track().embedded == {}
    stats = mem.maintenance.tracker_stats()
    assert (stats.processed, stats.failed, stats.skipped_cycles) == (10, 0, 0)
    assert stats.queue_depth == 0 and not stats.running
    assert mem.search("fact number 3 about kites", strategy="dense")[0].memory.id == ids[3]


def test_a_stale_vector_is_reembedded_from_the_current_content(
    mem: Memory, embedder: FlakyEmbedder
) -> None:
    record = mem.add("the harbour office opens at nine")
    embedder.down = True  # the update's own embedding fails: the old vector stays
    mem.update(record.id, "the harbour office moved to the marina")
    embedder.down = False
    counts = mem.maintenance.diagnose().counts
    assert (counts.vectors_missing, counts.vectors_stale, counts.vectors_other_model) == (0, 1, 0)
    cycle = mem.maintenance.track()
    assert cycle.embedded == {"stale": 1}
    assert mem.maintenance.diagnose().vector_backlog == 0
    assert mem.get(record.id).embedding_model == embedder.name


def test_vectors_of_another_model_are_reembedded(
    tmp_path: Path, reopenable: str, clock: Clock
) -> None:
    config = _config(tmp_path)
    with Memory(reopenable, config=config, embedder=HashEmbedder()) as old:
        ids = [old.add(f"note {i} on tides and currents").id for i in range(3)]
    switched = FlakyEmbedder(name="test-hash-v2")
    with Memory(reopenable, config=config, embedder=switched) as mem:
        mem.maintenance.clock = clock
        counts = mem.maintenance.diagnose().counts
        assert (counts.vectors_missing, counts.vectors_other_model) == (0, 3)
        assert "reembed" in mem.maintenance.diagnose().recommendations()
        assert mem.maintenance.track().embedded == {"model": 3}
        assert {mem.get(i).embedding_model for i in ids} == {"test-hash-v2"}
        assert mem.maintenance.diagnose().vector_backlog == 0


def test_batch_size_comes_from_the_config_or_the_call(
    tmp_path: Path, store_location: str, clock: Clock, embedder: FlakyEmbedder
) -> None:
    config = _config(tmp_path, tracker_batch_size=3)
    with Memory(store_location, config=config, embedder=embedder) as mem:
        mem.maintenance.clock = clock
        _add_unembedded(mem, embedder, 5)
        assert mem.maintenance.track().embedded == {"missing": 3}
        assert mem.maintenance.track(batch_size=1).embedded == {"missing": 1}
        with pytest.raises(InvalidInputError, match="batch_size"):
            mem.maintenance.track(batch_size=0)


def test_the_seeds_ranges_hold_for_the_tracker_settings(tmp_path: Path) -> None:
    from engram.errors import ConfigError

    with pytest.raises(ConfigError):
        _config(tmp_path, tracker_batch_size=21)
    with pytest.raises(ConfigError):
        _config(tmp_path, tracker_poll_ms=999)
    defaults = Config.load(env={}, home=str(tmp_path)).maintenance
    assert (defaults.tracker_enabled, defaults.tracker_poll_ms, defaults.tracker_batch_size) == (
        True,
        5000,
        8,
    )


def test_an_unavailable_provider_skips_the_cycle_with_a_30_second_health_cache(
    mem: Memory, embedder: FlakyEmbedder, clock: Clock
) -> None:
    _add_unembedded(mem, embedder, 2)
    embedder.down = True
    cycle = mem.maintenance.track()
    assert cycle.skipped is not None and "provider unavailable" in cycle.skipped
    embedder.down = False
    clock.advance(seconds=29)  # the failed health check is cached for 30 s
    assert mem.maintenance.track().skipped is not None
    assert mem.maintenance.tracker_stats().skipped_cycles == 2
    clock.advance(seconds=2)
    assert mem.maintenance.track().embedded == {"missing": 2}


def test_a_failing_memory_is_counted_and_the_rest_are_embedded(
    mem: Memory, embedder: FlakyEmbedder
) -> None:
    _add_unembedded(mem, embedder, 2)
    embedder.down = True
    poisoned = mem.add("a poison pill the model cannot embed")
    embedder.down = False
    cycle = mem.maintenance.track()
    assert cycle.embedded == {"missing": 2} and cycle.failed == 1
    assert cycle.queue_depth == 1
    assert mem.get(poisoned.id).embedding_model is None
    assert mem.maintenance.tracker_stats().failed == 1


def test_upkeep_runs_a_tracker_cycle_every_poll_interval(
    mem: Memory, embedder: FlakyEmbedder, clock: Clock
) -> None:
    _add_unembedded(mem, embedder, 1)
    assert mem.maintenance.upkeep()["tracker"].embedded == {"missing": 1}
    _add_unembedded(mem, embedder, 1, topic="gliders")
    clock.advance(milliseconds=4999)  # seed 004: pollMs 5000
    assert "tracker" not in mem.maintenance.upkeep()
    clock.advance(milliseconds=1)
    assert mem.maintenance.upkeep()["tracker"].embedded == {"missing": 1}


def test_without_an_embedder_the_tracker_has_nothing_to_do(
    tmp_path: Path, store_location: str
) -> None:
    with Memory(store_location, config=_config(tmp_path), embedder=None) as mem:
        mem.add("keyword only")
        assert mem.maintenance.track().skipped == "no embedder"
