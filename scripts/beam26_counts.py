"""Issue 24, task beam26 (C2): BEAM's counting questions ("how many times / different /
in total ...", multi_session_reasoning and any other ability) and where their gold
messages rank in the whole chat, in each of recall's rankings: the default (``best``),
the dense leg alone and the keyword leg alone. For each question: the gold's ranks, its
percentile in the chat (0 = first, 1 = last), the R@10 a perfect picker over the three
rankings' top 10s would reach, and the depth at which every gold message is found.
Usage (a copy of a store ``engram bench beam --store`` wrote):

    PYTHONPATH=src python scripts/beam26_counts.py STORE
"""

from __future__ import annotations

import re
import statistics
import sys

from engram import Memory
from engram.bench import beam
from engram.bench.runner import MODES, namespace_for

DATA = "../shared/bench/beam-100k"
ALL = 1000  # deeper than any chat (at most 344 messages): every message is ranked
# A count of instances ("how many different / times / in total / across ..."), not a day
# count between two events (temporal_reasoning's arithmetic).
COUNTING = re.compile(
    r"\bhow many (?:different|distinct|times|total|kinds?|types?|ways)\b"
    r"|\bhow many\b[^?]*\b(?:in total|total|altogether|in all|across|so far)\b",
    re.I,
)
# The question names a category ("different user roles and security features") rather
# than the word its instances use ("project cards", "columns").
CATEGORY = re.compile(r"\bhow many (?:different|distinct|kinds?|types?|total ways)\b", re.I)


def main(store: str) -> None:
    data = beam.load(DATA)
    pooled: dict[tuple[str, str], list[float]] = {}
    print(
        "| fold | ability | question | gold | ranks best / dense / bm25 | picker R@10 | "
        "depth for all (best) |"
    )
    print("|---|---|---|---|---|---|---|")
    with Memory(store) as mem:
        for conv in data.conversations:
            ns = namespace_for(data.name, conv.id)
            fold = "A" if int(conv.id.rsplit("-", 1)[1]) <= 5 else "B"
            size = len(conv.turns)
            for q in conv.questions:
                if not q.gold_turns or not COUNTING.search(q.text) or "between" in q.text:
                    continue
                ranks: dict[str, dict[str, int | None]] = {}
                for mode in ("best", "dense", "bm25"):
                    hits = mem.recall(
                        q.text, namespace=ns, limit=ALL, abstain=False, **MODES[mode]
                    ).hits
                    order = [str(h.memory.metadata.get("turn")) for h in hits]
                    ranks[mode] = {
                        g: (order.index(g) + 1 if g in order else None) for g in q.gold_turns
                    }
                gold = sorted(q.gold_turns, key=lambda g: int(g) if g.isdigit() else 0)
                picked = sum(any((ranks[m][g] or ALL) <= 10 for m in ranks) for g in gold) / len(
                    gold
                )
                deepest = max((ranks["best"][g] or size) for g in gold)
                shown = " / ".join(",".join(str(ranks[m][g] or "-") for g in gold) for m in ranks)
                kind = "category" if CATEGORY.search(q.text) else "named"
                for mode in ranks:
                    pooled.setdefault((kind, mode), []).extend(
                        (r if r is not None else size) / size for r in ranks[mode].values()
                    )
                print(
                    f"| {fold} | {q.category} ({kind}) | {q.text[:70]} | {len(gold)} | "
                    f"{shown} | {picked:.2f} | {deepest} of {size} |"
                )
    print()
    for (kind, mode), values in sorted(pooled.items()):
        print(
            f"{kind}, {mode}: a gold message's place in its chat, median percentile "
            f"{statistics.median(values):.3f}, mean {statistics.mean(values):.3f} "
            f"(n {len(values)})"
        )


if __name__ == "__main__":
    main(sys.argv[1])
