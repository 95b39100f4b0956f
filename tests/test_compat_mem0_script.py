"""Issue 27: a mem0-style script run unchanged against the mem0 door, compared step by
step with what mem0 2.2.1 returns (tests/data/mem0_script.json, written by
scripts/mem0_script_fixture.py and checked against real mem0 2.2.1 run offline by
scripts/mem0_script_real.py), on both backends.

tests/mem0_script.py runs the script and normalises results (the same code runs real
mem0). docs/compat-mem0.md reports the share.

Then mem0's own quickstart and memory-operations pages (25 calls, most adding with
``infer=True``, mem0's default) and 7 more (tests/mem0_quickstart.py), compared call by
call with what real mem0 2.2.1 returned with a scripted LLM
(tests/data/mem0_quickstart.json, written by scripts/mem0_quickstart_real.py): the door
must list the extracted facts, never the conversation engram keeps as their source.
"""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest

from conftest import HashEmbedder
from engram import Config
from engram.compat.mem0 import Memory
from mem0_quickstart import CALLS, FIRST_MORE, compare
from mem0_quickstart import run as run_calls
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

#: The calls past the pages whose outcome differs from mem0's, and why
#: (docs/compat-mem0.md, "What differs").
KNOWN_CALLS = {
    # "I moved to Lisbon" after "I live in Berlin": the pipeline's change is held for
    # review (controlled mode), so the conversation stays listed until a person decides;
    # mem0's LLM adds the new fact and keeps the old one.
    27: "a change held for review: the conversation is listed",
    28: "... and get_all lists it",
    # Small talk: nothing extracted, so the conversation stays listed (the offline
    # extractor misses more than an LLM; hiding it could hide all that was said).
    30: "nothing extracted: the conversation is listed",
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


def test_the_pages_are_mostly_infer_true() -> None:
    pages = CALLS[: FIRST_MORE - 1]
    assert len(pages) == 25
    assert sum(kwargs.get("infer", True) for verb, _, kwargs in pages if verb == "add") == 3


def test_the_door_gives_mem0s_outcome_in_every_call_of_the_pages(door: Memory) -> None:
    differ = compare(run_calls(door))
    detail = {n: differ[n] for n in sorted(set(differ) - set(KNOWN_CALLS))}
    assert not detail, json.dumps(detail, indent=1)
    assert sorted(differ) == sorted(KNOWN_CALLS)  # a known difference that went away: update docs
