"""Recall's facts from a namespace's arrays are made once and kept (``fact_block``):
the kept ones equal the arrays', a changed row still wins over them, a memory no longer
live is not answered from them, and at the limit they are dropped, not grown."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from engram.store.protocols.memories import MemoryFacts
from engram.store.sqlite import fact_block
from engram.store.sqlite.fact_block import FactBlock

AT = "2026-11-29T12:00:00.123456+00:00"


def _block(n: int) -> FactBlock:
    rows = [
        (seq, f"m{seq:03d}", AT, None if seq % 3 == 0 else f"s{seq % 2}", 10 + seq, f"head {seq}")
        for seq in range(1, n + 1)
    ]
    return FactBlock.of_rows(rows)


def test_kept_facts_equal_the_arrays_and_are_reused() -> None:
    block = _block(20)
    ids = ["m005", "m001", "m020", "missing"]
    first = block.facts(ids)
    assert set(first) == {"m005", "m001", "m020"}
    assert first["m005"] == MemoryFacts(
        datetime(2026, 11, 29, 12, 0, 0, 123456, tzinfo=UTC), "s1", 15, "head 5"
    )
    assert first["m001"].session_id == "s1" and first["m020"].chars == 30
    again = block.facts(["m001", "m005", "m020"])
    assert again == {i: first[i] for i in ("m001", "m005", "m020")}
    assert again["m005"] is first["m005"]  # made once, kept


def test_a_changed_row_wins_over_the_kept_facts() -> None:
    block = _block(6)
    assert block.facts(["m002", "m004"])["m002"].chars == 12
    changed = (2, "m002", "2026-11-30T00:00:00+00:00", "s9", 99, "new head")
    block.apply([2, 4], [changed])  # m002 rewritten, m004 no longer live
    now = block.facts(["m002", "m004"])
    assert set(now) == {"m002"}
    assert now["m002"].chars == 99 and now["m002"].session_id == "s9"


def test_kept_facts_are_dropped_at_the_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(fact_block, "MADE_LIMIT", 5)
    block = _block(12)
    first = block.facts(["m001", "m002", "m003"])
    block.facts(["m004", "m005", "m006"])  # 3 + 3 > 5: the kept three are dropped
    assert len(block._made) == 3
    again = block.facts(["m001"])
    assert again == {"m001": first["m001"]} and again["m001"] is not first["m001"]
