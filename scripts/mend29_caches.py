"""Recall's three string caches (``directives.is_directive``, ``coverage.shape``,
``said.asks_what_you_said``): the keys each is asked, and the hit rates an LRU and a
first-in-first-out memo of several sizes would give on them.

    PYTHONPATH=src python scripts/mend29_caches.py STORE.db OUT.json [--queries 300]
        [--chat-turns 400] [--locomo FILE]

Two runs in one process: the ``--queries`` LoCoMo questions ``engram bench scale
--reuse`` asks after its warm-up, on a copy of a kept scale store (as ``tail28_gc.py``
opens it), and a chat-proxy run: one LoCoMo conversation's turns sent one by one to
``mem.chat.before`` (what ``/v1/proxy/chat/completions`` calls), each recorded, into a
fresh store. Each cache's key sequence is replayed through an LRU and a FIFO of each
size; the hit rates are of those replays, so both orders see the same keys. Then the
walk: the caches filled to their size with distinct keys, and emptied, alternated: the
tracked objects and a full collection's CPU time (best of 5). Run it on the tree before
a change to the caches' sizes (the walk reads their ``maxsize``).
"""

from __future__ import annotations

import argparse
import json
import tempfile
from collections import OrderedDict
from collections.abc import Callable
from pathlib import Path
from typing import Any

from tail28_gc import full_pass  # this folder: the same reading tail28 took

from engram import Config, Memory
from engram.bench.scale import locomo_turns_and_questions
from engram.bench.scale_cold import NAMESPACE, wait_for_index
from engram.recall import conditions, coverage, directives, said

SIZES = (64, 256, 1024, 2048, 4096, 8192)
LOCOMO = Path("..") / "shared" / "bench" / "locomo" / "locomo10_dev.json"


def replay(keys: list[str], size: int, lru: bool) -> float:
    held: OrderedDict[str, None] = OrderedDict()
    hits = 0
    for key in keys:
        if key in held:
            hits += 1
            if lru:
                held.move_to_end(key)
            continue
        if len(held) >= size:
            held.popitem(last=False)
        held[key] = None
    return round(hits / len(keys), 4) if keys else 0.0


def recording() -> tuple[dict[str, list[str]], Callable[[], None]]:
    """Each cache's keys as recall asks them; the returned call undoes the patches."""
    keys: dict[str, list[str]] = {"is_directive": [], "shape": [], "asks_what_you_said": []}
    patched: list[tuple[Any, str, Any]] = []

    def wrap(modules: tuple[Any, ...], name: str) -> None:
        original = getattr(modules[0], name)

        def recorded(key: str) -> Any:
            keys[name].append(key)
            return original(key)

        for module in modules:
            patched.append((module, name, getattr(module, name)))
            setattr(module, name, recorded)

    wrap((directives, conditions), "is_directive")
    wrap((coverage,), "shape")
    wrap((said,), "asks_what_you_said")

    def undo() -> None:
        for module, name, original in patched:
            setattr(module, name, original)

    return keys, undo


def rates(keys: dict[str, list[str]]) -> dict[str, Any]:
    return {
        name: {
            "calls": len(seq),
            "distinct": len(set(seq)),
            "lru": {n: replay(seq, n, True) for n in SIZES},
            "fifo": {n: replay(seq, n, False) for n in SIZES},
        }
        for name, seq in keys.items()
    }


def walk(full: bool) -> dict[str, float]:
    """The three caches full of distinct keys (or emptied): the objects the collector
    tracks and a full collection's CPU time (``tail28_gc.full_pass``: best of 5). A
    function the tree no longer caches is left out."""
    every = (directives.is_directive, coverage.shape, said.asks_what_you_said)
    caches: list[Any] = [c for c in every if hasattr(c, "cache_info")]
    for cached in caches:
        cached.cache_clear()
        if full:
            for i in range(cached.cache_info().maxsize):
                cached(f"{i} always check the {i}th note before the meeting")
    sizes = {getattr(c, "__name__", "?"): c.cache_info().currsize for c in caches}
    return full_pass() | sizes


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("store", type=Path)
    parser.add_argument("out", type=Path)
    parser.add_argument("--queries", type=int, default=300)
    parser.add_argument("--chat-turns", type=int, default=400)
    parser.add_argument("--locomo", type=Path, default=LOCOMO)
    args = parser.parse_args()
    _, questions = locomo_turns_and_questions(args.locomo)
    questions = list(dict.fromkeys(questions))
    asked = [questions[(300 + 20 + i) % len(questions)] for i in range(args.queries)]
    config = Config().with_overrides(injection_mode="flag")
    result: dict[str, Any] = {"walk": {}}
    # The walk first, three times each, alternated, before the store adds its own objects.
    for full in (True, False) * 3:
        result["walk"].setdefault("full" if full else "empty", []).append(walk(full))
    with Memory(str(args.store), config=config) as mem:
        mem.recall(asked[0], namespace=NAMESPACE)
        wait_for_index(mem)
        keys, undo = recording()
        for q in asked:
            mem.recall(q, namespace=NAMESPACE)
        undo()
    result["bench_300"] = rates(keys)
    data = json.loads(args.locomo.read_text(encoding="utf-8"))
    conversation = data[0]["conversation"]
    turns = [
        (t["speaker"], t["text"])
        for k, v in conversation.items()
        if k.startswith("session_") and isinstance(v, list)
        for t in v
    ][: args.chat_turns]
    first = turns[0][0]
    with (
        tempfile.TemporaryDirectory(prefix="mend29-chat-") as home,
        Memory(str(Path(home) / "chat.db")) as mem,
    ):
        keys, undo = recording()
        history: list[dict[str, str]] = []
        for speaker, text in turns:
            role = "user" if speaker == first else "assistant"
            history.append({"role": role, "content": text})
            if role == "user":
                mem.chat.before(history[-8:], conversation_id="c1")
        undo()
    result["chat_proxy"] = rates(keys) | {"turns": len(turns)}
    args.out.write_text(json.dumps(result, indent=2))
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
