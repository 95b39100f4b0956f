"""What a full garbage collection walks in a process serving a kept store, and its cost.

    PYTHONPATH=src python scripts/tail28_gc.py STORE.db [--out OUT.json] [--queries 600]

Readings in one process, each the best of 5 explicit ``gc.collect()`` calls timed in
thread CPU time, with the count of objects the collector tracks (``gc.get_objects()``):
after ``import numpy``, after ``import engram``, and after opening the store as
``engram bench scale --reuse`` does (``injection_mode="flag"``), one recall and the
background index work. Then it asks ``--queries`` distinct LoCoMo questions (those the
other scripts ask) with a ``gc.callbacks`` hook counting the collections of each
generation, the objects each collected and the wall time of each, and takes the last
reading again. The tracked objects are split by type and by the top-level package of
the module that defined them (functions, classes) or of their type (instances), and
those the open added (not there after ``import engram``) by type and by the module of
their functions.
"""

from __future__ import annotations

import argparse
import gc
import json
import time
from collections import Counter
from pathlib import Path
from typing import Any


def full_pass() -> dict[str, Any]:
    gc.collect()
    best = float("inf")
    for _ in range(5):
        began = time.thread_time_ns()
        gc.collect()
        best = min(best, (time.thread_time_ns() - began) / 1e6)
    return {"cpu_ms": round(best, 2), "tracked": len(gc.get_objects())}


def package_of(obj: Any) -> str:
    module = getattr(obj, "__module__", None) if callable(obj) else None
    module = module or getattr(type(obj), "__module__", None) or "?"
    return str(module).split(".")[0]


#: The LoCoMo dev split beside the checkout (``engram.cli.bench_options.SHARED_BENCH``,
#: not imported here: the first reading is taken before engram is).
LOCOMO = Path("..") / "shared" / "bench" / "locomo" / "locomo10_dev.json"


def main() -> None:
    parser = argparse.ArgumentParser(description="What a full collection walks, and its cost.")
    parser.add_argument("store", type=Path, help="a copy of a kept store (scale-N.db)")
    parser.add_argument("--out", type=Path, help="also write the readings here (JSON)")
    parser.add_argument("--locomo", type=Path, default=LOCOMO)
    parser.add_argument("--queries", type=int, default=600, help="questions asked (600)")
    args = parser.parse_args()
    import numpy  # noqa: F401  (the reading after numpy alone)

    readings = {"numpy": full_pass()}
    from engram import Config, Memory
    from engram.bench.scale import locomo_turns_and_questions
    from engram.bench.scale_cold import NAMESPACE, wait_for_index

    readings["engram imported"] = full_pass()
    imported = {id(o) for o in gc.get_objects()}
    _, questions = locomo_turns_and_questions(args.locomo)
    questions = list(dict.fromkeys(questions))
    asked = [questions[(300 + 20 + i) % len(questions)] for i in range(args.queries)]
    config = Config().with_overrides(injection_mode="flag")
    events: list[dict[str, Any]] = []
    began: list[int] = [0]

    def hook(phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            began[0] = time.perf_counter_ns()
        else:
            wall = (time.perf_counter_ns() - began[0]) / 1e6
            events.append(info | {"wall_ms": round(wall, 2)})

    with Memory(str(args.store), config=config) as mem:
        mem.recall(asked[0], namespace=NAMESPACE)
        wait_for_index(mem)
        readings["store open"] = full_pass()
        opened = [o for o in gc.get_objects() if id(o) not in imported]
        # What the open added, by type and by the module of the functions among it.
        added = {
            "by_type": Counter(type(o).__name__ for o in opened).most_common(10),
            "functions_by_module": Counter(
                str(getattr(o, "__module__", "?")).rsplit(".", 1)[0]
                for o in opened
                if type(o).__name__ == "function"
            ).most_common(10),
        }
        del opened, imported
        gc.callbacks.append(hook)
        for q in asked:
            mem.recall(q, namespace=NAMESPACE)
        gc.callbacks.remove(hook)
        readings["after the questions"] = full_pass()
        objects = gc.get_objects()
        by_type = Counter(type(o).__name__ for o in objects).most_common(15)
        by_package = Counter(package_of(o) for o in objects).most_common(15)
        largest = sorted(
            ((len(gc.get_referents(o)), type(o).__name__) for o in objects), reverse=True
        )[:5]
        del objects
    per_generation = Counter(e["generation"] for e in events)
    full = [e for e in events if e["generation"] == 2]
    result = {
        "store": str(args.store),
        "questions": len(asked),
        "readings": readings,
        "collections": {str(g): n for g, n in sorted(per_generation.items())},
        "full_collections": full,
        "added_by_the_open": added,
        "by_type": by_type,
        "by_package": by_package,
        "largest_containers": largest,
        "threshold": gc.get_threshold(),
    }
    text = json.dumps(result, indent=2)
    if args.out:
        args.out.write_text(text)
    print(text)


if __name__ == "__main__":
    main()
