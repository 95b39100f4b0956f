"""mem0's own quickstart and memory-operations pages (25 calls, tests/mem0_quickstart.py)
through the mem0 door, compared call by call with what real mem0 2.2.1 returned with
a scripted LLM (tests/data/mem0_quickstart.json, written by
scripts/mem0_quickstart_real.py), on both backends. Most calls add with ``infer=True``,
mem0's default: the door must list the extracted facts, never the conversation engram
keeps (raw-first) as their source. docs/compat-mem0.md reports the figure.
"""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest

from conftest import HashEmbedder
from engram import Config
from engram.compat.mem0 import Memory
from mem0_quickstart import CALLS, compare, run


@pytest.fixture
def door(config: Config, store_location: str) -> Iterator[Memory]:
    with Memory(store_location, config=config, embedder=HashEmbedder()) as m:
        yield m


def test_the_pages_are_mostly_infer_true() -> None:
    adds = [kwargs for verb, _, kwargs in CALLS if verb == "add"]
    assert len(CALLS) == 25
    assert sum(kwargs.get("infer", True) for kwargs in adds) == 3


def test_the_door_gives_mem0s_outcome_in_every_call(door: Memory) -> None:
    differ = compare(run(door))
    assert not differ, json.dumps(differ, indent=1)
