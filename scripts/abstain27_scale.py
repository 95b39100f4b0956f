"""Task abstain27: the attribute test's cost at 100k, side by side in one process.

Opens a copy of an ``engram bench scale`` store (100,000 sessionless LoCoMo-turn
memories in one namespace) and asks the scale bench's distinct LoCoMo questions, each
recalled with ``attribute_floor`` at its default value and at 0 alternately (the order
swapped every question), the query vector cache emptied before each recall so both
sides pay the model for the question. Prints each side's median and p95, their ratio,
how many recalls read a residual and how many answers the test marked.

    python scripts/abstain27_scale.py STORE.db LOCOMO.json [QUERIES]
"""

from __future__ import annotations

import statistics
import sys
import time

from engram import Memory
from engram.bench.scale import NAMESPACE, locomo_turns_and_questions
from engram.config import Config
from engram.embed.cache import QueryVectorCache
from engram.recall import abstain_attribute


def main() -> None:
    store, locomo = sys.argv[1], sys.argv[2]
    queries = int(sys.argv[3]) if len(sys.argv) > 3 else 200
    _, questions = locomo_turns_and_questions(locomo)
    asked = list(dict.fromkeys(questions))[: queries + 20]
    read = 0
    touched = False
    reading = 0  # recalls that read a residual
    made = abstain_attribute.cosines_with

    def counted(*args, **kwargs):  # type: ignore[no-untyped-def]
        measure = made(*args, **kwargs)

        def inner(items):  # type: ignore[no-untyped-def]
            nonlocal read, touched
            read += 1
            touched = True
            return measure(items)

        return inner

    abstain_attribute.cosines_with = counted  # type: ignore[assignment]
    times: dict[str, list[float]] = {"on": [], "off": []}
    marked = {"on": 0, "off": 0}
    with Memory(store, config=Config.load()) as mem:
        retriever = mem._core.retriever  # noqa: SLF001 - the benchmark empties its cache
        for q in asked[:20]:  # the model loaded, the index read, before timing
            mem.recall(q, namespace=NAMESPACE)
        read = reading = 0
        for n, q in enumerate(asked[20:]):
            for side in ("on", "off") if n % 2 else ("off", "on"):
                retriever.query_vectors = QueryVectorCache()
                floor = abstain_attribute.FLOOR if side == "on" else 0.0
                touched = False
                start = time.perf_counter()
                recall = mem.recall(q, namespace=NAMESPACE, attribute_floor=floor)
                reading += touched
                times[side].append((time.perf_counter() - start) * 1000)
                marked[side] += recall.low_confidence
    for side, values in times.items():
        values.sort()
        print(
            f"{side}: n={len(values)} p50={statistics.median(values):.2f} ms "
            f"p95={values[int(0.95 * len(values))]:.2f} ms marked={marked[side]}"
        )
    on, off = (statistics.median(times[s]) for s in ("on", "off"))
    print(
        f"ratio p50 on/off {on / off:.3f}; a residual read in {reading} of "
        f"{len(times['on'])} recalls ({read} masked questions embedded)"
    )


if __name__ == "__main__":
    main()
