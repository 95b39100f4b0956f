"""Task resid28: the attribute test read from the question's token states, its cost at
100k, side by side in one process.

Opens a copy of an ``engram bench scale`` store (100,000 sessionless LoCoMo-turn
memories in one namespace) and asks the scale bench's distinct LoCoMo questions, each
recalled twice in turn (the order swapped every question), the query vector cache
emptied before each recall so both sides pay the model for the question:

- ``base``: as before resid28: a query embedded without its token states
  (``minilm.STATES_MAX_TOKENS = 0``: the graph's vector output alone) and
  ``attribute_floor=0`` (the test off);
- ``new``: the query's token states kept from the same call and the test on at its
  default floor.

Prints each side's median and p95, their ratio, the embed and abstain stages' medians,
and how many answers the test marked.

    python scripts/resid28_scale.py STORE.db LOCOMO.json [QUERIES]
"""

from __future__ import annotations

import statistics
import sys
import time

from engram import Memory
from engram.bench.scale import NAMESPACE, locomo_turns_and_questions
from engram.config import Config
from engram.embed import minilm
from engram.embed.cache import QueryVectorCache
from engram.recall import abstain_attribute


def main() -> None:
    store, locomo = sys.argv[1], sys.argv[2]
    queries = int(sys.argv[3]) if len(sys.argv) > 3 else 200
    _, questions = locomo_turns_and_questions(locomo)
    asked = list(dict.fromkeys(questions))[: queries + 20]
    kept = minilm.STATES_MAX_TOKENS
    times: dict[str, list[float]] = {"base": [], "new": []}
    stages: dict[str, dict[str, list[float]]] = {s: {"embed": [], "abstain": []} for s in times}
    marked = 0
    with Memory(store, config=Config.load()) as mem:
        retriever = mem._core.retriever  # noqa: SLF001 - the benchmark empties its cache
        for q in asked[:20]:  # the model loaded, the index read, before timing
            mem.recall(q, namespace=NAMESPACE)
        for n, q in enumerate(asked[20:]):
            for side in ("new", "base") if n % 2 else ("base", "new"):
                retriever.query_vectors = QueryVectorCache()
                minilm.STATES_MAX_TOKENS = kept if side == "new" else 0
                # both sides pass the setting (a per-call setting has its own cost)
                floor = abstain_attribute.FLOOR if side == "new" else 0.0
                start = time.perf_counter()
                recall = mem.recall(q, namespace=NAMESPACE, attribute_floor=floor)
                times[side].append((time.perf_counter() - start) * 1000)
                for stage, values in stages[side].items():
                    values.append(recall.timings.get(stage, 0.0))
                marked += recall.low_confidence and side == "new"
    minilm.STATES_MAX_TOKENS = kept
    for side, values in times.items():
        values.sort()
        parts = ", ".join(f"{k} {statistics.median(v):.3f}" for k, v in stages[side].items())
        print(
            f"{side}: n={len(values)} p50={statistics.median(values):.2f} ms "
            f"p95={values[int(0.95 * len(values))]:.2f} ms (stage medians: {parts})"
        )
    new, base = (statistics.median(times[s]) for s in ("new", "base"))
    print(f"ratio p50 new/base {new / base:.3f}; answers the test marked: {marked}")


if __name__ == "__main__":
    main()
