"""The palace part of both store backends (``store.palace``) and its migration."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from conftest import sqlite_before
from engram.errors import InvalidInputError
from engram.records import MemoryRecord
from engram.store.protocols import NewDrawer, PalaceStore, Store
from engram.store.sqlite.backend import SQLiteStore
from engram.validate import build_record

T0 = datetime(2026, 4, 30, 19, 0, tzinfo=UTC)


def memory(store: Store, content: str, namespace: str = "default") -> str:
    record: MemoryRecord = build_record(content, namespace=namespace, max_chars=10_000)
    return store.memories.insert([record])[0].record.id


def test_the_part_implements_its_protocol(any_store: Store) -> None:
    assert isinstance(any_store.palace, PalaceStore)


def test_slugs_and_aliases_find_one_place(any_store: Store) -> None:
    palace = any_store.palace
    wing = palace.ensure_wing("ns", slug="derek", name="Derek", kind="person", now=T0)
    assert palace.ensure_wing("ns", slug="derek", name="DEREK", kind="topic", now=T0) == wing
    assert palace.add_alias("ns", "wing", 0, wing.id, "d-smith") is True
    assert palace.add_alias("ns", "wing", 0, wing.id, "d-smith") is False
    assert palace.wing("ns", "d-smith") == palace.wing("ns", 1) != wing  # now with its alias
    assert palace.wing("ns", "d-smith").aliases == ("d-smith",)  # type: ignore[union-attr]
    assert palace.wing("other", "derek") is None
    other = palace.ensure_wing("ns", slug="efoil", name="Efoil", kind="project", now=T0)
    with pytest.raises(InvalidInputError, match="already names another wing"):
        palace.add_alias("ns", "wing", 0, other.id, "derek")
    room = palace.ensure_room("ns", wing.id, slug="evening", name="Evening", now=T0)
    assert palace.ensure_room("ns", wing.id, slug="evening", name="x", now=T0) == room
    assert palace.ensure_room("ns", other.id, slug="evening", name="x", now=T0).number == 1
    assert palace.room("ns", wing.id, 1) == room == palace.room("ns", wing.id, "evening")


def test_drawers_are_filed_once_per_turn_and_closets_count_them(any_store: Store) -> None:
    palace = any_store.palace
    ids = [memory(any_store, f"message {i}", "ns") for i in range(3)]
    wing = palace.ensure_wing("ns", slug="w", name="W", kind="topic", now=T0)
    room = palace.ensure_room("ns", wing.id, slug="r", name="R", now=T0)
    new = [NewDrawer(i, m, "user", ("@p derek",)) for i, m in enumerate(ids)]
    made = palace.file_drawers("ns", room.id, new[:2], T0)
    assert [(d.number, d.turn, d.tags) for d in made] == [
        (1, 0, ("@p derek",)),
        (2, 1, ("@p derek",)),
    ]
    again = palace.file_drawers("ns", room.id, new, T0)
    assert [(d.number, d.turn) for d in again] == [(3, 2)]
    closet = palace.file_closet(
        "ns", room.id, slug="t", name="T", drawer_ids=[d.id for d in made], now=T0
    )
    assert closet.drawers == 2
    same = palace.file_closet("ns", room.id, slug="t", name="T", drawer_ids=[made[0].id], now=T0)
    assert same.id == closet.id and same.drawers == 2
    assert palace.drawer("ns", 1, 1, 3) == again[0]
    assert palace.drawer("other", 1, 1, 3) is None
    assert set(palace.pointers("ns", [*ids, "missing"])) == set(ids)
    assert palace.members("ns", [*ids, "missing"], wing_id=wing.id, room_id=None) == set(ids)
    assert palace.members("other", ids, wing_id=wing.id, room_id=room.id) == set()
    [node] = palace.tree("ns", None)
    assert node.drawers == 3 and node.rooms[0].closets[0].drawers == 2


def test_palace_writes_join_the_open_transaction(any_store: Store) -> None:
    with pytest.raises(RuntimeError), any_store.transaction():
        any_store.palace.ensure_wing("ns", slug="w", name="W", kind="topic", now=T0)
        raise RuntimeError("the mining failed after the wing")
    assert any_store.palace.wing("ns", "w") is None
    # The counter rolled back too: the next wing is still W-001.
    assert any_store.palace.ensure_wing("ns", slug="v", name="V", kind="topic", now=T0).number == 1


def test_sqlite_store_upgrades_to_the_palace(tmp_path: Path) -> None:
    path = sqlite_before(tmp_path / "old.db", "016_palace")
    store = SQLiteStore(path)
    try:
        wing = store.palace.ensure_wing("default", slug="w", name="W", kind="topic", now=T0)
        assert wing.code == "W-001"
        assert store.schema_version() >= "016_palace"
    finally:
        store.close()
