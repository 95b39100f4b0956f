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

import sys
import time

from abstain27_cost import Counting, report  # scripts/ is on the path when run

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
    counting = Counting()
    times: dict[str, list[float]] = {"on": [], "off": []}
    marked = reading = 0  # answers the test marked; recalls that read a residual
    with Memory(store, config=Config.load()) as mem:
        retriever = mem._core.retriever  # noqa: SLF001 - the benchmark empties its cache
        for q in asked[:20]:  # the model loaded, the index read, before timing
            mem.recall(q, namespace=NAMESPACE)
        counting.calls = 0
        for n, q in enumerate(asked[20:]):
            for side in ("on", "off") if n % 2 else ("off", "on"):
                retriever.query_vectors = QueryVectorCache()
                floor = abstain_attribute.FLOOR if side == "on" else 0.0
                counting.touched = False
                start = time.perf_counter()
                recall = mem.recall(q, namespace=NAMESPACE, attribute_floor=floor)
                times[side].append((time.perf_counter() - start) * 1000)
                reading += counting.touched
                marked += recall.low_confidence and side == "on"
    report(times, reading, counting)
    print(f"answers the test marked: {marked}")


if __name__ == "__main__":
    main()
