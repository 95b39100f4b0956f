"""Task abstain27: every question of a set asked through ``Memory.recall`` with the
defaults (the abstain decision on), recording the outcome (silent / marked low
confidence / confident), the gold among the context's lines and the hits shown (text,
cosine), so a rule that only demotes can be scored afterwards without recalling.

    python scripts/abstain27_measure.py OUT.json abstain27|paraphrase|locomo|beam [DB]

abstain27: the tune and check stores of engram/data/abstain27.json, each in a fresh
in-memory Memory; paraphrase: every held-out split of engram/data/paraphrase.json (its
answerable, unrelated and cross-domain questions); locomo / beam: the dev sets in a
store that holds them (``engram bench abstain --store``'s), answerable questions asked
of their own namespace, a third asked of the next conversation's namespace, BEAM's abstention
questions of their own.
"""

from __future__ import annotations

import json
import sys
from importlib import resources
from pathlib import Path
from typing import Any

from engram import Memory
from engram.bench import beam, locomo, paraphrase, runner
from engram.config import Config

SHARED = Path(__file__).resolve().parents[2] / "shared" / "bench"
if not SHARED.exists():
    SHARED = Path("/work/shared/bench")


def outcome(mem: Memory, text: str, namespace: str, gold: set[str], key: str) -> dict[str, Any]:
    """One question through recall's defaults."""
    r = mem.recall(text, namespace=namespace)
    shown = set(r.shown)
    hits = [h for h in r.hits]
    verdict = "silent" if not r.shown else ("marked" if r.low_confidence else "confident")
    marks = [str(h.memory.metadata.get(key)) for h in hits]
    return {
        "q": text,
        "verdict": verdict,
        "hits": [
            {
                "text": h.memory.content[:4000],
                "sim": h.breakdown.sim,
                "shown": h.memory.id in shown,
                "gold": m in gold,
            }
            for h, m in zip(hits, marks, strict=True)
        ],
        "gold_in_context": any(
            m in gold and h.memory.id in shown for h, m in zip(hits, marks, strict=True)
        ),
    }


def abstain27(out: list[dict[str, Any]]) -> None:
    path = Path(str(resources.files("engram") / "data" / "abstain27.json"))
    data = json.loads(path.read_text(encoding="utf-8"))
    for store in data["stores"]:
        with Memory(":memory:") as mem:
            mem.add_many(
                [{"content": t, "metadata": {"a27": k}} for k, t in store["memories"].items()],
                namespace="agent",
            )
            for q in store["questions"]:
                row = outcome(mem, q["q"], "agent", set(q["gold"]), "a27")
                out.append(
                    {"set": store["split"], "store": store["id"], "kind": "answerable", **row}
                )
            for u in store["unanswerable"]:
                row = outcome(mem, u["q"], "agent", set(), "a27")
                out.append(
                    {
                        "set": store["split"],
                        "store": store["id"],
                        "kind": "unanswerable",
                        "near": u["near"],
                        **row,
                    }
                )


def held_out(out: list[dict[str, Any]]) -> None:
    stores = [s for s in paraphrase.load() if s.held_out]
    for store in stores:
        with Memory(":memory:") as mem:
            mem.add_many(
                [
                    {"content": t, "metadata": {paraphrase.KEY: k}}
                    for k, t in store.memories.items()
                ],
                namespace="agent",
            )
            plan = [("answerable", q.text, set(q.gold)) for q in store.questions]
            plan += [("unanswerable", t, set()) for t in store.unrelated]
            plan += [
                ("cross", q.text, set())
                for other in stores
                if other.cross_target == store.id
                for q in other.questions
            ]
            for kind, text, gold in plan:
                row = outcome(mem, text, "agent", gold, paraphrase.KEY)
                out.append({"set": store.split, "store": store.id, "kind": kind, **row})


def dev(out: list[dict[str, Any]], name: str, db: str) -> None:
    config = Config.load().with_overrides(injection_mode="flag")
    data = (
        locomo.load(str(SHARED / "locomo" / "locomo10_dev.json"))
        if name == "locomo"
        else beam.load(str(SHARED / "beam-100k"))
    )
    # each store holds one dataset: a question is asked of the next conversation's
    # namespace (other people, other projects) as its unanswerable counterpart
    targets = [runner.namespace_for(data.name, c.id) for c in data.conversations]
    with Memory(db, config=config) as mem:
        for i, conv in enumerate(data.conversations):
            own = runner.namespace_for(data.name, conv.id)
            for n, q in enumerate(conv.questions):
                if name == "beam" and q.category == beam.ABSTENTION:
                    row = outcome(mem, q.text, own, set(), "turn")
                    out.append(
                        {
                            "set": name,
                            "store": conv.id,
                            "kind": "abstention",
                            "cat": q.category,
                            **row,
                        }
                    )
                elif q.gold_turns:
                    row = outcome(mem, q.text, own, set(q.gold_turns), "turn")
                    out.append(
                        {
                            "set": name,
                            "store": conv.id,
                            "kind": "answerable",
                            "cat": q.category,
                            **row,
                        }
                    )
                if n % 3 == 0:  # a third of the questions, asked of the other dataset
                    row = outcome(mem, q.text, targets[(i + 1) % len(targets)], set(), "turn")
                    out.append(
                        {"set": name, "store": conv.id, "kind": "cross", "cat": q.category, **row}
                    )


def main() -> None:
    target, which = sys.argv[1], sys.argv[2]
    out: list[dict[str, Any]] = []
    if which == "abstain27":
        abstain27(out)
    elif which == "paraphrase":
        held_out(out)
    else:
        dev(out, which, sys.argv[3])
    for row in out:  # keep the file small: long BEAM messages cut
        for h in row["hits"]:
            h["text"] = h["text"][:1500]
    Path(target).write_text(json.dumps(out), encoding="utf-8")
    print(which, len(out))


if __name__ == "__main__":
    main()
