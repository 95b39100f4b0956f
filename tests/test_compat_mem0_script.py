"""Issue 27: a mem0-style script run unchanged against the mem0 door, compared step by
step with what mem0 2.2.1 returns (tests/data/mem0_script.json, written by
scripts/mem0_script_fixture.py and checked against real mem0 2.2.1 run offline by
scripts/mem0_script_real.py), on both backends.

tests/mem0_script.py runs the script and normalises results (the same code runs real
mem0). docs/compat-mem0.md reports the share.
"""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest

from conftest import HashEmbedder
from engram import Config
from engram.compat.mem0 import Memory
from mem0_script import SCRIPT, run

#: The steps whose result differs from mem0's, and why (docs/compat-mem0.md lists them).
KNOWN = {
    # A second add of the same text is the stored memory (event NONE) in engram, whose
    # seed 004 dedupes a namespace on content; mem0 stores a second copy...
    17: "same text added twice: engram dedupes",
    # ... so deleting mem0's second copy by its id has nothing to delete here.
    18: "the second copy's id does not exist",
    # mem0 raises its own ValidationError (no ValueError); the door's error is one.
    85: "add without an owner raises a ValueError",
}


@pytest.fixture
def door(config: Config, store_location: str) -> Iterator[Memory]:
    with Memory(store_location, config=config, embedder=HashEmbedder()) as m:
        yield m


def test_the_script_is_mem0_style_and_long_enough() -> None:
    steps = SCRIPT["steps"]
    assert len(steps) >= 60
    assert {s["call"] for s in steps} == {
        "add",
        "get",
        "get_all",
        "search",
        "update",
        "delete",
        "delete_all",
        "history",
        "reset",
    }
    operators = json.dumps([s["kwargs"].get("filters") for s in steps])
    for op in ("eq", "ne", "in", "nin", "gt", "gte", "lt", "lte", "contains", "icontains"):
        assert f'"{op}"' in operators, op
    for logic in ('"AND"', '"OR"', '"NOT"', '"*"'):
        assert logic in operators


def test_the_door_gives_mem0s_results(door: Memory) -> None:
    _, differ = run(door)
    detail = {n: differ[n] for n in sorted(set(differ) - set(KNOWN))}
    assert not detail, json.dumps(detail, indent=1, default=str)
    assert sorted(differ) == sorted(KNOWN)  # a known difference that went away: update docs
    identical = len(SCRIPT["steps"]) - len(differ)
    assert identical / len(SCRIPT["steps"]) >= 0.95
