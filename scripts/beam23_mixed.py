"""Issue 24, task beam23: thread questions asked of a store that holds two projects.

A BEAM chat is one project, so every session holds the thread a summary or order
question asks about; a user's store holds several. This builds five namespaces, each
holding chat k and chat k + 5 (two projects, their sessions apart), and dumps every
thread question of both chats asked of it, in ``scripts/beam23_dump.py``'s format (turn
ids made ``<chat>:<id>``, so the other project's messages are never gold), for
``scripts/beam23_sweep.py`` to score the floor rules on, with the share of the top 10
that comes from the other project. Usage:

    PYTHONPATH=src python scripts/beam23_mixed.py STORE OUT.pkl    # STORE: a new file
"""

from __future__ import annotations

import pickle
import sys
from dataclasses import replace
from typing import Any

from engram import Memory
from engram.bench import beam
from engram.config import Config
from engram.recall import abstain, coverage


def items(conv: Any) -> list[dict[str, Any]]:
    """The chat's turns as the bench stores them, session and turn ids made unique."""
    return [
        {
            "content": t.text,
            "type": "message",
            "session_id": f"{conv.id}/{t.session}",
            "created_at": t.created_at,
            "metadata": {"session": f"{conv.id}/{t.session}", "turn": f"{conv.id}:{t.id}"},
        }
        for t in conv.turns
    ]


def main(store: str, out: str) -> None:
    data = beam.load("../shared/bench/beam-100k")
    chats = {c.id: c for c in data.conversations}
    rows: list[dict[str, Any]] = []
    config = Config().with_overrides(injection_mode="flag")
    with Memory(store, config=config) as mem:
        retriever = mem._core.retriever
        model = mem.embedder.name if mem.embedder is not None else None
        share = retriever.calibration.relative_floor
        for k in range(1, 6):
            pair = [chats[f"beam-{k}"], chats[f"beam-{k + 5}"]]
            ns = f"mix-{k}"
            if not mem.store.memories.count(ns):
                for conv in pair:
                    mem.add_many(items(conv), namespace=ns)
                print(f"{ns} stored", flush=True)
            for conv in pair:
                for q in conv.questions:
                    if not q.gold_turns or coverage.shape(q.text) is None:
                        continue
                    found = mem.recall(
                        q.text, namespace=ns, limit=50, abstain=False, coverage_top_n=0
                    )
                    hits = list(found.hits)
                    decision = abstain.check(q.text, hits[:12], model, retriever.calibration)
                    gold = frozenset(f"{conv.id}:{t}" for t in q.gold_turns)
                    rows.append(
                        {
                            "question": replace(q, gold_turns=gold),
                            "conversation": conv.id,
                            "hits": hits,
                            "verdict": decision.verdict,
                            "share": share,
                        }
                    )
    with open(out, "wb") as f:
        pickle.dump({"dataset": "beam", "rows": rows}, f)
    print(f"{len(rows)} thread questions -> {out}")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
