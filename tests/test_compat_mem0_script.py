"""Issue 27: a mem0-style script run unchanged against the mem0 door, compared step by
step with what mem0 2.2.1 returns (tests/data/mem0_script.json, written by
scripts/mem0_script_fixture.py from mem0's source), on both backends.

The normaliser ignores only what is random or embedder-made on mem0: ids (uuid4; a
step names them by ``@label``), history row ids, timestamps and float scores, and the
order of results the step marks ``unordered``. docs/compat-mem0.md reports the share.
"""

from __future__ import annotations

import json
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from conftest import HashEmbedder
from engram import Config
from engram.compat.mem0 import Memory

SCRIPT = json.loads((Path(__file__).parent / "data" / "mem0_script.json").read_text())
#: The steps whose result differs from mem0's, and why (docs/compat-mem0.md lists them).
KNOWN = {
    # A second add of the same text is the stored memory (event NONE) in engram, whose
    # seed 004 dedupes a namespace on content; mem0 stores a second copy...
    17: "same text added twice: engram dedupes",
    # ... so deleting mem0's second copy by its id has nothing to delete here.
    18: "the second copy's id does not exist",
    # mem0's default local Qdrant matches icontains case-sensitively (no full-text
    # index); the door follows mem0's documentation.
    31: "icontains is case-insensitive here",
    # mem0 raises its own ValidationError (no ValueError); the door's error is one.
    73: "add without an owner raises a ValueError",
}


@pytest.fixture
def door(config: Config, store_location: str) -> Iterator[Memory]:
    with Memory(store_location, config=config, embedder=HashEmbedder()) as m:
        yield m


class Labels:
    """mem0's random ids as the script's ``@labels``, both ways."""

    def __init__(self) -> None:
        self.ids: dict[str, str] = {}
        self.names: dict[str, str] = {}

    def learn(self, step: dict[str, Any], out: Any) -> None:
        if step["call"] != "add" or not isinstance(out, dict) or "results" not in out:
            return
        for label, result in zip(step["labels"], out["results"], strict=False):
            if result["id"] not in self.names:
                self.ids[label] = result["id"]
                self.names[result["id"]] = label

    def resolve(self, value: Any) -> Any:
        if isinstance(value, str) and value.startswith("@"):
            return self.ids.get(value, value)
        if isinstance(value, list):
            return [self.resolve(v) for v in value]
        if isinstance(value, dict):
            return {k: self.resolve(v) for k, v in value.items()}
        return value

    def normal(self, value: Any) -> Any:
        """The result with ids as labels, and timestamps, history row ids and float
        scores as placeholders."""
        if isinstance(value, list):
            return [self.normal(v) for v in value]
        if not isinstance(value, dict):
            return value
        out: dict[str, Any] = {}
        for key, v in value.items():
            if key in ("created_at", "updated_at") and v is not None:
                out[key] = "<ts>"
            elif key == "score" and isinstance(v, float):
                out[key] = "<score>"
            elif key == "id" and "memory_id" in value:
                out[key] = "<hid>"
            elif key in ("id", "memory_id") and isinstance(v, str):
                out[key] = self.names.get(v, f"<unknown {v}>")
            else:
                out[key] = self.normal(v)
        return out


def _sorted(result: Any) -> Any:
    if isinstance(result, dict) and isinstance(result.get("results"), list):
        return {**result, "results": sorted(result["results"], key=lambda r: r["memory"])}
    return result


def run(door: Memory) -> dict[int, tuple[Any, Any]]:
    """Every step's normalised result and expectation where they differ."""
    labels = Labels()
    differ: dict[int, tuple[Any, Any]] = {}
    for step in SCRIPT["steps"]:
        verb = getattr(door, step["call"])
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # mem0 logs what the door warns about
            try:
                out = verb(*labels.resolve(step["args"]), **labels.resolve(step["kwargs"]))
            except Exception as exc:  # the script compares the kind of error, as mem0 code sees it
                out = {"error": "ValueError" if isinstance(exc, ValueError) else type(exc).__name__}
        labels.learn(step, out)
        got, expected = labels.normal(out), step["expect"]
        if step["unordered"]:
            got, expected = _sorted(got), _sorted(expected)
        if got != expected:
            differ[step["n"]] = (got, expected)
    return differ


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
    differ = run(door)
    detail = {n: differ[n] for n in sorted(set(differ) - set(KNOWN))}
    assert not detail, json.dumps(detail, indent=1, default=str)
    assert sorted(differ) == sorted(KNOWN)  # a known difference that went away: update docs
    identical = len(SCRIPT["steps"]) - len(differ)
    assert identical / len(SCRIPT["steps"]) >= 0.95
