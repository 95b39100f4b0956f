"""Issue 24, task beam25: where the gold of one BEAM ability's questions ranks, in the
default ranking and by the dense leg alone (100 deep), with the gold messages' openings,
for reading a fold's misses before changing anything. Point it at a copy. Usage:

    PYTHONPATH=src python scripts/beam25_misses.py STORE ABILITY [A|B]
"""

from __future__ import annotations

import sys

from engram import Memory
from engram.bench import beam
from engram.bench.runner import MODES, namespace_for

DEPTH = 100


def turn_of(hit: object) -> str:
    return str(hit.memory.metadata.get("turn"))  # type: ignore[attr-defined]


def main(store: str, ability: str, fold: str) -> None:
    data = beam.load("../shared/bench/beam-100k")
    with Memory(store) as mem:
        for conv in data.conversations:
            chat = int(conv.id.rsplit("-", 1)[1])
            if (chat <= 5) != (fold == "A"):
                continue
            ns = namespace_for(data.name, conv.id)
            text = {t.id: t.text for t in conv.turns}
            for q in conv.questions:
                if q.category != ability:
                    continue
                ranks = {}
                for mode in ("best", "dense"):
                    settings = {"abstain": False, **MODES[mode]}
                    hits = mem.recall(q.text, namespace=ns, limit=DEPTH, **settings).hits
                    order = [turn_of(h) for h in hits]
                    ranks[mode] = {
                        g: (order.index(g) + 1 if g in order else None) for g in q.gold_turns
                    }
                print(f"\n[{conv.id}] {q.text[:160]}")
                for g in sorted(q.gold_turns, key=lambda x: int(x) if x.isdigit() else 0):
                    print(
                        f"  gold {g}: best {ranks['best'][g]} dense {ranks['dense'][g]} | "
                        f"{text.get(g, '?')[:110]!r}"
                    )


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2], sys.argv[3] if len(sys.argv) > 3 else "A")
