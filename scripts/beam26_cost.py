"""Issue 24, task beam26 (C2): what recognising a condition said first costs, uncached,
old and new alternated pass by pass in one process: ``is_directive`` on a memory's
opening (what recall asks of each candidate, cached per opening) and ``condition_of`` on
its whole text (what every add asks of each memory), microseconds per text, median of
the passes, on LoCoMo dev's turns and BEAM dev's messages; and ``said.asks_what_you_said``
(new) on the questions of LoCoMo dev, BEAM dev and the paraphrase sets. Usage (OLD: another tree's
``src``, e.g. an exported copy of the base commit):

    PYTHONPATH=src python scripts/beam26_cost.py OLD_SRC [PASSES]
"""

from __future__ import annotations

import importlib.util
import json
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any

from engram.bench import beam, paraphrase
from engram.recall import conditions, directives, said
from engram.store.protocols.memories import FACTS_HEAD_CHARS

BEAM = "../shared/bench/beam-100k"
LOCOMO = "../shared/bench/locomo/locomo10_dev.json"


def load(path: Path, name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def timed(fn: Callable[[str], Any], texts: list[str]) -> float:
    """Microseconds per text of one pass."""
    start = time.perf_counter()
    for text in texts:
        fn(text)
    return (time.perf_counter() - start) / len(texts) * 1e6


def main(old_src: str, passes: int) -> None:
    old_directives = load(Path(old_src) / "engram/recall/directives.py", "old_directives")
    old_conditions = load(Path(old_src) / "engram/recall/conditions.py", "old_conditions")
    old_conditions.is_directive = old_directives.is_directive  # its own tree's rule
    raw = json.loads(Path(LOCOMO).read_text(encoding="utf-8"))
    locomo = [
        f"{t['speaker']}: {t['text']}"
        for sample in raw
        for key, turns in sample["conversation"].items()
        if key.startswith("session_") and isinstance(turns, list)
        for t in turns
    ]
    data = beam.load(BEAM)
    messages = [t.text for conv in data.conversations for t in conv.turns]
    sides = {"old": (old_directives, old_conditions), "new": (directives, conditions)}
    for name, texts in (("LoCoMo turns", locomo), ("BEAM messages", messages)):
        heads = [t[:FACTS_HEAD_CHARS] for t in texts]
        runs: dict[tuple[str, str], list[float]] = {}
        for n in range(passes):
            # Which side goes first alternates: the first of a pair reads slower.
            for side in ("old", "new") if n % 2 else ("new", "old"):
                d, c = sides[side]
                runs.setdefault((side, "opening"), []).append(
                    timed(d.is_directive.__wrapped__, heads)
                )
                # condition_of asks is_directive (cached) of the opening: cleared per
                # text, so that both are timed uncached
                clear = d.is_directive.cache_clear
                whole = c.condition_of.__wrapped__
                runs.setdefault((side, "text"), []).append(
                    timed(lambda t, clear=clear, whole=whole: (clear(), whole(t)), texts)
                )
        medians = {k: statistics.median(v) for k, v in runs.items()}
        print(
            f"{name} ({len(texts)}), us per text, old -> new: is_directive "
            f"{medians['old', 'opening']:.2f} -> {medians['new', 'opening']:.2f}, "
            f"condition_of {medians['old', 'text']:.2f} -> {medians['new', 'text']:.2f}"
        )
    stores = paraphrase.load()
    questions = {
        "LoCoMo": [q["question"] for sample in raw for q in sample["qa"]],
        "BEAM": [q.text for conv in data.conversations for q in conv.questions],
        "paraphrase": [q.text for s in stores for q in s.questions]
        + [u for s in stores for u in s.unrelated],
    }
    for name, texts in questions.items():
        detect = said.asks_what_you_said.__wrapped__
        spent = statistics.median(timed(detect, texts) for _ in range(passes))
        fired = sum(map(detect, texts))
        print(f"{name} questions ({len(texts)}): asks_what_you_said {spent:.2f} us, fires {fired}")


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 9)
