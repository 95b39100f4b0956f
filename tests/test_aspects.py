"""Aspects and attributes as their own store part, and seed 004's aspect feedback:
confirmation, decay, the positive-rating trigger and the telemetry (FEATURES G5)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import httpx
import pytest

from engram import Config, Memory
from engram.api import create_app
from engram.api.server import serve_in_thread
from engram.errors import ConfigError, InvalidInputError
from engram.records import MemoryRecord
from engram.store import Store
from engram.store.protocols import AspectStore, GraphStore

JAN = datetime(2024, 1, 10, tzinfo=UTC)


@pytest.fixture
def config(tmp_path: Any) -> Config:
    """Without the write-time linker: each test files its own attributes."""
    return Config.load(env={"ENGRAM_PIPELINE_LINKER": "false"}, home=str(tmp_path / "home"))


def filed(mem: Memory, **scope: Any) -> tuple[MemoryRecord, MemoryRecord]:
    """Derek's battery memory (two attributes under "battery") and his job memory."""
    battery = mem.add("Derek's efoil has a 48V battery that charges in 2 hours", **scope)
    job = mem.add("Derek works at Acme", **scope)
    mem.graph.record(battery.id, [], entity_types={"Derek": "person"}, **scope)
    for content in ("battery is 48V", "battery charges in 2 hours"):
        mem.graph.add_attribute(
            "Derek", content, memory_id=battery.id, aspect="battery", now=JAN, **scope
        )
    mem.graph.add_attribute(
        "Derek", "works at Acme", memory_id=job.id, aspect="career", now=JAN, **scope
    )
    mem.graph.add_attribute("Derek", "unfiled fact", memory_id=job.id, now=JAN, **scope)
    return battery, job


def weights(mem: Memory, **scope: Any) -> dict[str, float]:
    return {a.name: round(a.weight, 6) for a in mem.graph.aspects("Derek", **scope)}


def test_aspects_are_a_store_part_of_their_own(any_store: Store) -> None:
    assert isinstance(any_store.aspects, AspectStore)
    assert not hasattr(any_store.graph, "upsert_aspect")
    assert isinstance(any_store.graph, GraphStore)


def test_confirmations_raise_the_weight_of_the_memorys_aspects(mem: Memory) -> None:
    battery, job = filed(mem)
    result = mem.graph.aspect_feedback({battery.id: 3, job.id: 0})
    # seed 004: + delta (0.05) x confirmations; a memory confirms each aspect once
    # however many of its attributes sit under it.
    assert result.to_dict() == {
        "aspects_updated": 1,
        "confirmations": 3,
        "propagated_attributes": 2,
    }
    assert weights(mem) == {"battery": 0.65, "career": 0.5}
    # an iterable of ids: each occurrence is one confirmation
    mem.graph.aspect_feedback([job.id, job.id, battery.id])
    assert weights(mem) == {"battery": 0.7, "career": 0.6}


def test_weights_are_clamped_and_stamped(mem: Memory) -> None:
    battery, _ = filed(mem)
    later = JAN + timedelta(days=3)
    mem.graph.aspect_feedback({battery.id: 100}, now=later)
    [top, _] = mem.graph.aspects("Derek")
    assert (top.name, top.weight, top.updated_at) == ("battery", 1.0, later)


def test_feedback_stays_in_its_namespace(mem: Memory) -> None:
    battery, _ = filed(mem)
    filed(mem, user_id="x")
    assert mem.graph.aspect_feedback({battery.id: 1}, user_id="x").aspects_updated == 0
    assert weights(mem, user_id="x") == {"battery": 0.5, "career": 0.5}
    assert mem.graph.aspect_feedback({}).aspects_updated == 0


def test_feedback_checks_its_argument(mem: Memory) -> None:
    with pytest.raises(InvalidInputError):
        mem.graph.aspect_feedback("not-a-list")  # type: ignore[arg-type]
    with pytest.raises(InvalidInputError):
        mem.graph.aspect_feedback({"x": -1})


def test_stale_aspects_decay_once_per_period_to_the_floor(mem: Memory) -> None:
    battery, _ = filed(mem)  # both aspects stamped JAN
    fresh = JAN + timedelta(days=29)
    mem.graph.aspect_feedback({battery.id: 1}, now=fresh)  # battery confirmed since
    at = JAN + timedelta(days=31)
    assert mem.graph.decay_aspects(now=at) == 1  # career: 31 days stale
    assert weights(mem) == {"battery": 0.55, "career": 0.45}
    assert mem.graph.decay_aspects(now=at) == 0  # just stamped: not stale again yet
    for n in range(2, 12):
        mem.graph.decay_aspects(now=JAN + timedelta(days=31 * n))
    assert weights(mem)["career"] == 0.1  # floored at aspect_min_weight


def test_a_thumbs_up_confirms_the_memorys_aspects(mem: Memory) -> None:
    battery, job = filed(mem)
    mem.feedback(battery.id, "up")
    mem.feedback(job.id, "down")  # a thumbs down changes no aspect
    assert weights(mem) == {"battery": 0.55, "career": 0.5}
    assert mem.get(battery.id).quality == 1


def test_telemetry_counts_since_the_memory_opened(mem: Memory) -> None:
    battery, job = filed(mem)
    mem.graph.aspect_feedback({battery.id: 2, job.id: 1})
    mem.graph.decay_aspects(now=datetime.now(UTC) + timedelta(days=60))
    assert mem.graph.feedback_telemetry() == {
        "aspects_updated": 2,
        "confirmations": 3,
        "decayed_aspects": 2,
        "propagated_attributes": 3,
    }


def test_telemetry_is_kept_per_namespace_and_served_with_the_pipeline_status(
    config: Config,
) -> None:
    with Memory(":memory:", config=config, embedder=None) as mem:
        alice = mem.keys.create("alice")[1]
        root = mem.keys.create("root", admin=True)[1]
        battery, _ = filed(mem, user_id="alice")
        mem.graph.aspect_feedback([battery.id], user_id="alice")
        mine = {"aspects_updated": 1, "confirmations": 1, "decayed_aspects": 0}
        assert mem.graph.feedback_telemetry(user_id="alice") == {
            **mine,
            "propagated_attributes": 2,
        }
        assert mem.graph.feedback_telemetry(user_id="bob")["aspects_updated"] == 0
        with serve_in_thread(create_app(mem, worker=False)) as url:
            for key, expected in ((alice, 1), (root, 1)):
                headers = {"Authorization": f"Bearer {key}"}
                with httpx.Client(base_url=url, timeout=10, headers=headers) as http:
                    status = http.get("/api/pipeline/status").json()
                assert status["aspect_feedback"]["aspects_updated"] == expected
            bob = mem.keys.create("bob")[1]
            headers = {"Authorization": f"Bearer {bob}"}
            with httpx.Client(base_url=url, timeout=10, headers=headers) as http:
                status = http.get("/api/pipeline/status").json()
            assert status["aspect_feedback"]["aspects_updated"] == 0  # not alice's


def test_the_graph_section_configures_feedback(tmp_path: Any) -> None:
    config = Config.load(
        env={"ENGRAM_GRAPH_ASPECT_DELTA": "0.2", "ENGRAM_PIPELINE_LINKER": "false"},
        home=str(tmp_path),
    )
    assert config.graph.aspect_delta == 0.2
    assert Config().graph.aspect_stale_days == 30
    with Memory(":memory:", config=config, embedder=None) as mem:
        battery, _ = filed(mem)
        mem.graph.aspect_feedback([battery.id])
        assert weights(mem)["battery"] == 0.7


def test_a_floor_above_the_ceiling_is_refused() -> None:
    with pytest.raises(ConfigError, match="aspect_min_weight .* above"):
        Config.load(env={}, graph={"aspect_min_weight": 0.9, "aspect_max_weight": 0.5})
