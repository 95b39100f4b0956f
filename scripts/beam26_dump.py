"""Issue 24, task beam26: every BEAM question's default ranking and dense-only ranking,
100 deep, with each hit's legs, kept once for offline reading (``beam26_probe.py``).

Each question is recalled twice with the abstain decision off, as ``engram bench beam``
ranks: ``best`` (the defaults) and ``dense`` (the dense leg alone, no session context,
no time leg). For each hit the dump keeps its message id, role, length and score
breakdown (cosine, normalised BM25, the legs after session context, fused, final).
Usage (a copy of a store ``engram bench beam --store`` wrote):

    PYTHONPATH=src python scripts/beam26_dump.py STORE OUT.pkl

The dump holds benchmark text: keep it under /tmp.
"""

from __future__ import annotations

import pickle
import sys
from typing import Any

from engram import Memory
from engram.bench import beam
from engram.bench.runner import MODES, namespace_for
from engram.records import Hit

DATA = "../shared/bench/beam-100k"
DEPTH = 100


def row(hit: Hit) -> dict[str, Any]:
    b = hit.breakdown
    content = hit.memory.content
    return {
        "turn": str(hit.memory.metadata.get("turn")),
        "role": content.split(":", 1)[0] if ":" in content[:20] else "",
        "chars": len(content),
        "head": content[:120],
        "sim": b.sim,
        "bm25": b.bm25,
        "dense": b.dense,
        "keyword": b.keyword,
        "fused": b.fused,
        "final": b.final,
        "score": hit.score,
    }


def main(store: str, out: str) -> None:
    data = beam.load(DATA)
    rows: list[dict[str, Any]] = []
    with Memory(store) as mem:
        for conv in data.conversations:
            ns = namespace_for(data.name, conv.id)
            for q in conv.questions:
                ranked = {}
                for mode, extra in (("best", MODES["best"]), ("dense", MODES["dense"])):
                    found = mem.recall(q.text, namespace=ns, limit=DEPTH, abstain=False, **extra)
                    ranked[mode] = [row(h) for h in found.hits]
                rows.append(
                    {
                        "conversation": conv.id,
                        "chat": int(conv.id.rsplit("-", 1)[1]),
                        "category": q.category,
                        "question": q.text,
                        "gold": sorted(q.gold_turns),
                        **ranked,
                    }
                )
    with open(out, "wb") as f:
        pickle.dump(rows, f)
    print(f"{len(rows)} questions -> {out}")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
