"""Task abstain29: what the attribute test costs recall with its ceiling, side by side.

Four sides, each question recalled once per side in a rotating order, the query vector
cache emptied before each recall so every side pays the model for the question (and the
test for its masked questions): ``off`` (``attribute_floor=0``), ``control`` (the same
again: how far two identical sides differ in the run), ``gated`` (the test at
``FLOOR`` with ``CEILING``, the default with MiniLM) and ``ungated`` (the test at
``FLOOR`` on every confident answer, session twenty-five's opt-in). Every side passes the
setting per call (a per-call override has its own cost). Prints each side's median and
p95, its ratio to ``off``, how many of its recalls read a masked question and how many
answers it marked, and the load average before and after.

    python scripts/abstain29_cost.py scale STORE.db LOCOMO.json [QUERIES]
    python scripts/abstain29_cost.py agent [ROUNDS]

scale: a copy of an ``engram bench scale`` store (100,000 sessionless LoCoMo turns) asked
the scale bench's distinct LoCoMo questions; agent: engram/data/abstain27.json (both
halves) and the paraphrase set's held-out stores, each in a fresh in-memory Memory.
"""

from __future__ import annotations

import os
import statistics
import sys
import time
from collections.abc import Iterable

from abstain27_cost import Counting, stores  # scripts/ is on the path when run

from engram import Memory
from engram.config import Config
from engram.embed.cache import QueryVectorCache
from engram.recall import abstain_attribute

CEILING = abstain_attribute.CEILING

#: side -> (attribute_floor, ceiling); ABSTAIN29_CEILINGS="0.55,0.58" adds a gated side
#: at each of those ceilings.
SIDES: dict[str, tuple[float, float]] = {
    "off": (0.0, CEILING),
    "control": (0.0, CEILING),
    "gated": (abstain_attribute.FLOOR, CEILING),
    "ungated": (abstain_attribute.FLOOR, 1.0),
}
for extra in filter(None, os.environ.get("ABSTAIN29_CEILINGS", "").split(",")):
    SIDES[f"gated-{extra}"] = (abstain_attribute.FLOOR, float(extra))


class Sides:
    """Each side's recall times, recalls that read a masked question, answers marked."""

    def __init__(self) -> None:
        self.times: dict[str, list[float]] = {s: [] for s in SIDES}
        self.reading = dict.fromkeys(SIDES, 0)
        self.marked = dict.fromkeys(SIDES, 0)
        self.stage: dict[str, list[float]] = {s: [] for s in SIDES}  # recall's abstain lap
        self.counting = Counting()

    def ask(self, mem: Memory, questions: Iterable[str], namespace: str, start: int = 0) -> None:
        retriever = mem._core.retriever  # noqa: SLF001 - the benchmark empties its cache
        names = list(SIDES)
        for n, q in enumerate(questions, start):
            for k in range(len(names)):
                side = names[(n + k) % len(names)]
                floor, ceiling = SIDES[side]
                retriever.query_vectors = QueryVectorCache()
                abstain_attribute.CEILING = ceiling  # reader() reads it at each recall
                self.counting.touched = False
                began = time.perf_counter()
                recall = mem.recall(q, namespace=namespace, attribute_floor=floor)
                self.times[side].append((time.perf_counter() - began) * 1000)
                self.reading[side] += self.counting.touched
                self.marked[side] += recall.low_confidence
                self.stage[side].append(recall.timings.get("abstain", 0.0))
        abstain_attribute.CEILING = CEILING

    def report(self) -> None:
        off = statistics.median(self.times["off"])
        # Paired by question (each side's n-th recall asked the same question): the
        # median of the per-question differences to ``off`` is steadier under load than
        # the ratio of two medians.
        paired = {
            side: statistics.median(
                a - b for a, b in zip(self.times[side], self.times["off"], strict=True)
            )
            for side in SIDES
        }
        for side in SIDES:
            values = sorted(self.times[side])
            p50 = statistics.median(values)
            p95 = values[int(0.95 * len(values))]
            print(f"{side}: median paired difference to off {paired[side]:+.3f} ms")
            print(
                f"{side}: n={len(values)} p50={p50:.2f} ms p95={p95:.2f}"
                f" ms ratio p50 {p50 / off:.3f}; read a masked question in "
                f"{self.reading[side]}, low confidence {self.marked[side]}; abstain stage "
                f"median {statistics.median(self.stage[side]):.3f} ms, mean "
                f"{statistics.mean(self.stage[side]):.3f} ms"
            )


def main() -> None:
    print("load before", os.getloadavg())
    sides = Sides()
    if sys.argv[1] == "scale":
        from engram.bench.scale import NAMESPACE, locomo_turns_and_questions

        store, locomo = sys.argv[2], sys.argv[3]
        queries = int(sys.argv[4]) if len(sys.argv) > 4 else 200
        _, questions = locomo_turns_and_questions(locomo)
        asked = list(dict.fromkeys(questions))[: queries + 20]
        with Memory(store, config=Config.load()) as mem:
            for q in asked[:20]:  # the model loaded, the index read, before timing
                mem.recall(q, namespace=NAMESPACE)
            sides.ask(mem, asked[20:], NAMESPACE)
    else:
        rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 2
        for memories, asked in stores():
            with Memory(":memory:") as mem:
                mem.add_many([{"content": t} for t in memories.values()], namespace="agent")
                for n in range(rounds):
                    sides.ask(mem, asked, "agent", n)
    sides.report()
    print("load after", os.getloadavg())


if __name__ == "__main__":
    main()
