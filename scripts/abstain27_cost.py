"""Task abstain27: what the attribute test costs recall, side by side in one process.

Every question of engram/data/abstain27.json (both halves) and of the paraphrase set's
held-out stores is recalled with ``attribute_floor`` at its default (the test on) and at 0
(off), alternately, ROUNDS times (default 3); the query vector cache is
emptied before each recall so both sides pay the model for the question (and the test
for its masked questions). Prints the median and p95 of each side, their ratio, and
how many recalls the test read a residual for (a model call).

    python scripts/abstain27_cost.py [ROUNDS]
"""

from __future__ import annotations

import json
import statistics
import sys
import time
from importlib import resources
from pathlib import Path

from engram import Memory
from engram.bench import paraphrase
from engram.embed.cache import QueryVectorCache
from engram.recall import abstain_attribute


def stores() -> list[tuple[dict[str, str], list[str]]]:
    path = Path(str(resources.files("engram") / "data" / "abstain27.json"))
    out = []
    for s in json.loads(path.read_text(encoding="utf-8"))["stores"]:
        asked = [q["q"] for q in s["questions"]] + [u["q"] for u in s["unanswerable"]]
        out.append((s["memories"], asked))
    for p in paraphrase.load():
        if p.held_out:
            out.append((dict(p.memories), [q.text for q in p.questions] + list(p.unrelated)))
    return out


class Counting:
    """Counts the masked questions the attribute test embeds (``calls``) and whether
    the current recall read any (``touched``), by wrapping ``cosines_with``."""

    def __init__(self) -> None:
        self.calls, self.touched = 0, False
        made = abstain_attribute.cosines_with

        def counted(*args, **kwargs):  # type: ignore[no-untyped-def]
            measure = made(*args, **kwargs)

            def inner(items):  # type: ignore[no-untyped-def]
                self.calls, self.touched = self.calls + 1, True
                return measure(items)

            return inner

        abstain_attribute.cosines_with = counted  # type: ignore[assignment]


def report(times: dict[str, list[float]], reading: int, counting: Counting) -> None:
    """Each side's median and p95, their ratio, and what the test read."""
    for side, values in times.items():
        values.sort()
        print(
            f"{side}: n={len(values)} p50={statistics.median(values):.2f} ms "
            f"p95={values[int(0.95 * len(values))]:.2f} ms"
        )
    on, off = (statistics.median(times[s]) for s in ("on", "off"))
    print(
        f"ratio p50 on/off {on / off:.3f}; a residual read in {reading} of "
        f"{len(times['on'])} recalls ({counting.calls} masked questions embedded)"
    )


def main() -> None:
    rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 3
    counting = Counting()
    times: dict[str, list[float]] = {"on": [], "off": []}
    reading = 0  # recalls that read a residual
    for memories, asked in stores():
        with Memory(":memory:") as mem:
            mem.add_many([{"content": t} for t in memories.values()], namespace="agent")
            retriever = mem._core.retriever  # noqa: SLF001 - the benchmark empties its cache
            for n in range(rounds):
                for q in asked:
                    for side in ("on", "off") if (n + len(q)) % 2 else ("off", "on"):
                        retriever.query_vectors = QueryVectorCache()
                        # both sides pass the setting (a per-call override has its own cost)
                        floor = abstain_attribute.FLOOR if side == "on" else 0.0
                        counting.touched = False
                        start = time.perf_counter()
                        mem.recall(q, namespace="agent", attribute_floor=floor)
                        times[side].append((time.perf_counter() - start) * 1000)
                        reading += counting.touched
    report(times, reading, counting)


if __name__ == "__main__":
    main()
