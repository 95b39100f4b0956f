"""Issue 24, task beam30: a namespace's standing items joined to a recall, offline.

Reads a ``beam29_pool.py`` dump (each question's default top 50) and the chats. A
chat's *standing items* are its user messages that open as a standing instruction
(``directives.is_directive``) or state a preference ("I prefer", "I'd rather", "my
preference"). Each is scored against a question by the larger of its whole text's and
its condition's (``conditions.condition_of``) cosine. Variants, scored as R@10 per
fold (A = chats 1-5, B = 6-10) in question-points against the dump's own top 10:

- ``near s t``: the question's s nearest standing items whose score is at least t put
  in the top 10's tail (in their order), the hits they displace dropped;
- ``broad s b``: the namespace's s broadest standing items (cosine to the mean vector
  of the namespace's user messages, at least b) put in every question's tail;
- ``... requests``: only for a request for help ("how do I", "can you", "walk me
  through", ...) that does not ask what the user said or did ("did I", "how many");
- ``block near s``: the question's s nearest standing items as a separate block beside
  the top 10 (not a ranking: the gold found in the top 10 or the block), a figure only;
  ``deeper, as many``: the fair comparison, the ranking's top 10 plus as many more of its
  own hits as the block added.

Usage: ``PYTHONPATH=src python scripts/beam30_standing.py DUMP.pkl STORE``
"""

from __future__ import annotations

import json
import pickle
import sys
from collections import defaultdict
from pathlib import Path
from typing import Any

import numpy as np

from engram import Memory
from engram.recall.conditions import condition_of
from engram.recall.directives import is_directive
from engram.recall.standing_items import is_request, is_standing
from engram.records import MemoryRecord

DATA = Path("../shared/bench/beam-100k")
Row = dict[str, Any]
VERBOSE = "-v" in sys.argv


def standing(chat: int) -> tuple[dict[str, str], list[str]]:
    """The chat's standing items (id -> text) and its user messages' texts."""
    items: dict[str, str] = {}
    users: list[str] = []
    for batch in json.loads((DATA / str(chat) / "chat.json").read_text(encoding="utf-8")):
        for group in batch["turns"]:
            for m in group:
                if m["role"] != "user":
                    continue
                text = m["content"].replace("\u2019", "'")
                users.append(text)
                record = MemoryRecord(id="", namespace="", content=f"user: {text}", content_hash="")
                if is_standing(record):
                    items[str(m["id"])] = text
    return items, users


def main(path: str, store: str) -> None:
    with open(path, "rb") as f:
        rows: list[Row] = [r for r in pickle.load(f) if r["gold"]]
    mem = Memory(store)
    embed = mem.embedder
    assert embed is not None
    near: dict[int, list[tuple[str, float]]] = {}  # row index -> items by score
    broad: dict[int, list[tuple[str, float]]] = {}  # chat -> items by breadth
    for chat in range(1, 11):
        items, users = standing(chat)
        ids = list(items)
        whole = embed.embed_many([items[i] for i in ids])
        cond = embed.embed_many([condition_of(f"user: {items[i]}") or items[i] for i in ids])
        centre = embed.embed_many(users).mean(axis=0)
        centre /= np.linalg.norm(centre)
        broad[chat] = sorted(zip(ids, (whole @ centre).tolist(), strict=True), key=lambda p: -p[1])
        for n, row in enumerate(rows):
            if row["chat"] == chat:
                q = embed.embed(row["question"]).reshape(-1)
                s = np.maximum(whole @ q, cond @ q)
                near[n] = sorted(zip(ids, s.tolist(), strict=True), key=lambda p: -p[1])
        print(f"chat {chat}: {len(ids)} standing items; broadest", broad[chat][:3])

    def scored(name: str, pick: Any, as_block: bool | str = False) -> None:
        gained: dict[str, float] = defaultdict(float)
        per: dict[tuple[str, str], float] = defaultdict(float)
        sizes = []
        for n, row in enumerate(rows):
            fold = "A" if row["chat"] <= 5 else "B"
            top = row["final"][:10]
            add = [i for i in pick(n, row) if i not in top]
            sizes.append(len(add))
            if as_block == "deeper":  # as many more ranked hits as the block holds
                after = row["final"][: 10 + len(add)]
            elif as_block:
                after = top + add
            else:
                keep = top[: 10 - len(add)] if add else top
                after = (keep + add)[:10]
            gold = set(row["gold"])
            d = (len(set(after) & gold) - len(set(top) & gold)) / len(gold)
            gained[fold] += d
            if d and VERBOSE:
                print(
                    f"   {fold} {row['chat']} {row['category'][:12]} {d:+.2f}",
                    f"{row['question'][:70]} add={add}",
                )
            per[(fold, row["category"])] += d
        moved = {k: round(v, 2) for k, v in sorted(per.items()) if abs(v) > 1e-9}
        mean = sum(sizes) / len(sizes)
        print(f"{name}: A {gained['A']:+.2f} B {gained['B']:+.2f} (added {mean:.1f}) {moved}")

    for s in (1, 2, 3):
        for t in (0.4, 0.425, 0.45, 0.475, 0.5, 0.525, 0.55):
            scored(f"near {s} {t}", lambda n, r, s=s, t=t: [i for i, v in near[n][:s] if v >= t])
            scored(
                f"near {s} {t} requests",
                lambda n, r, s=s, t=t: (
                    [i for i, v in near[n][:s] if v >= t] if is_request(r["question"]) else []
                ),
            )
    directive = {
        c: {i for i, t in standing(c)[0].items() if is_directive(f"user: {t}"[:64])}
        for c in range(1, 11)
    }
    for s in (1, 2, 3):
        for t in (0.4, 0.425, 0.45, 0.475, 0.5):
            scored(
                f"near {s} {t} requests instructions",
                lambda n, r, s=s, t=t: (
                    [
                        i
                        for i, v in [p for p in near[n] if p[0] in directive[r["chat"]]][:s]
                        if v >= t
                    ]
                    if is_request(r["question"])
                    else []
                ),
            )
    for s in (1, 2, 3):
        for b in (0.0, 0.5, 0.6):
            scored(
                f"broad {s} {b}",
                lambda n, r, s=s, b=b: [i for i, v in broad[r["chat"]][:s] if v >= b],
            )
    for s in (1, 2, 3, 8, 99):
        for how in (True, "deeper"):
            name = "block" if how is True else "deeper, as many"
            scored(f"{name} near {s}", lambda n, r, s=s: [i for i, _ in near[n][:s]], as_block=how)
            scored(
                f"{name} near {s} requests",
                lambda n, r, s=s: [i for i, _ in near[n][:s]] if is_request(r["question"]) else [],
                as_block=how,
            )


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
