"""hop39: what the judgement stage (``recall.judgement_weight``) costs a recall.

Every LoCoMo dev question asked twice in one process, interleaved (the stage off, then
on, then the other way round on the next question), on a kept store (``engram bench
locomo --store``, or any store whose namespaces hold the conversations as the bench
writes them). Prints the median and p95 of the whole recall, off and on, for the
questions the stage reads (a judgement question) and for the others, and the median of
the stage's own laps in the first round, before its text is cached (``residual``: the
question without its anchor names embedded; ``judgement``: the session search and its
read), plus the cost of the question test
alone on every question.

    python scripts/hop39_cost.py --store /tmp/l.db --rounds 3
    # at 100k: a copy of a kept `engram bench scale --keep DIR` store (recall writes)
    python scripts/hop39_cost.py --store /tmp/copy/scale-100000.db --namespace bench-scale
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections import defaultdict

from engram.bench import locomo
from engram.bench.runner import namespace_for
from engram.config import Config
from engram.memory import Memory
from engram.recall.judgement import asks_judgement


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--store", required=True)
    p.add_argument("--data", default="/work/shared/bench/locomo/locomo10_dev.json")
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--weight", type=float, default=1.0)
    p.add_argument(
        "--namespace",
        help="ask every question here (a kept `engram bench scale` store: bench-scale)",
    )
    args = p.parse_args()
    dataset = locomo.load(args.data)
    asked = [
        (args.namespace or namespace_for(dataset.name, c.id), q.text)
        for c in dataset.conversations
        for q in c.questions
    ]
    start = time.perf_counter()
    for _ in range(100):
        for _, text in asked:
            asks_judgement(text)
    test_us = (time.perf_counter() - start) / (100 * len(asked)) * 1e6
    total: dict[tuple[bool, float], list[float]] = defaultdict(list)
    laps: dict[str, list[float]] = defaultdict(list)
    with Memory(args.store, config=Config()) as mem:
        for ns, text in asked[:20]:  # warm the model and the indexes
            mem.recall(text, namespace=ns, limit=10, abstain=False)
        for r in range(args.rounds):
            for n, (ns, text) in enumerate(asked):
                judged = asks_judgement(text)
                order = (0.0, args.weight) if (n + r) % 2 == 0 else (args.weight, 0.0)
                for weight in order:
                    # a new text each time would miss the query cache; the same text hits
                    # it in both runs alike, so the stage's second embedding is what differs
                    got = mem.recall(
                        text, namespace=ns, limit=10, abstain=False, judgement_weight=weight
                    )
                    total[(judged, weight)].append(got.timings["total"])
                    if weight > 0 and judged and r == 0:  # cold: its text not yet cached
                        for stage in ("residual", "judgement"):
                            if stage in got.timings:
                                laps[stage].append(got.timings[stage])
    print(f"question test: {test_us:.2f} us a question")
    for judged in (True, False):
        for weight in (0.0, args.weight):
            v = total[(judged, weight)]
            kind = "judgement" if judged else "other"
            print(
                f"{kind} questions ({len(v) // args.rounds}), weight {weight}: "
                f"p50 {statistics.median(v):.2f} ms, p95 {pct(v, 0.95):.2f} ms"
            )
    for stage, v in laps.items():
        print(f"stage {stage}: median {statistics.median(v):.3f} ms over {len(v)}")


if __name__ == "__main__":
    main()
