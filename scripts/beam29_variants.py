"""Issue 24, task beam29: offline reorderings of the default top 10, scored per fold.

Reads a ``beam29_pool.py`` dump (each question's default ranking, 50 deep, and each
plain leg's ranking of the whole chat) and the chats' roles and sessions, and scores
R@10 on fold A (chats 1-5) and B (6-10) for each variant, as question-points against
the dump's own top 10:

- ``pairs``: after each user hit (of a summary question, or of the first K of any
  question) its reply, the next message when the assistant wrote it;
- ``leg``: a plain leg's (dense or BM25) first k messages of the chat put in the top 10;
- ``openings``: for a thread question, each session's first m user messages placed
  first, in rounds over the sessions (all of them, or those the default ranking holds
  in its first ``head``).

Usage: ``PYTHONPATH=src python scripts/beam29_variants.py DUMP.pkl``
"""

from __future__ import annotations

import json
import pickle
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from engram.recall import coverage

DATA = Path("../shared/bench/beam-100k")
Row = dict[str, Any]
Variant = Callable[[Row], list[str]]


def chats() -> tuple[dict[tuple[int, str], str], dict[tuple[int, int], list[str]]]:
    """Each message's role, and each session's user messages in order, per chat."""
    role: dict[tuple[int, str], str] = {}
    users: dict[tuple[int, int], list[str]] = {}
    for chat in range(1, 11):
        for batch in json.loads((DATA / str(chat) / "chat.json").read_text(encoding="utf-8")):
            for group in batch["turns"]:
                for m in group:
                    role[(chat, str(m["id"]))] = m["role"]
                    if m["role"] == "user":
                        users.setdefault((chat, batch["batch_number"]), []).append(str(m["id"]))
    return role, users


def r10(top: list[str], gold: list[str]) -> float:
    return len(set(top[:10]) & set(gold)) / len(gold)


def score(rows: list[Row], variant: Variant) -> str:
    gained = {"A": 0.0, "B": 0.0}
    totals = {"A": [0.0, 0], "B": [0.0, 0]}
    for row in rows:
        if not row["gold"]:
            continue
        fold = "A" if row["chat"] <= 5 else "B"
        after = r10(variant(row), row["gold"])
        gained[fold] += after - r10(row["final"], row["gold"])
        totals[fold][0] += after
        totals[fold][1] += 1
    return " / ".join(f"{totals[f][0] / totals[f][1]:.4f} ({gained[f]:+.2f})" for f in "AB")


def main(path: str) -> None:
    with open(path, "rb") as f:
        rows: list[Row] = pickle.load(f)
    role, users = chats()

    def reply(row: Row, hit: str) -> str | None:
        after = str(int(hit) + 1)
        chat = row["chat"]
        if role.get((chat, hit)) == "user" and role.get((chat, after)) == "assistant":
            return after
        return None

    def summary_pairs(row: Row) -> list[str]:
        asked = coverage.shape(row["question"])
        if asked is not coverage.Shape.SUMMARY:
            return list(row["final"])
        out: list[str] = []
        for hit in row["final"]:
            for t in (hit, reply(row, hit)):
                if t is not None and t not in out:
                    out.append(t)
        return out

    def head_pairs(k: int, depth: int) -> Variant:
        def apply(row: Row) -> list[str]:
            top = row["final"][:10]
            replies = [r for h in top[:k] if (r := reply(row, h)) in row["final"][10:depth]]
            kept = top[: 10 - len(replies)] + replies
            return sorted(kept, key=row["final"].index)

        return apply

    def leg(name: str, k: int) -> Variant:
        def apply(row: Row) -> list[str]:
            top: list[str] = row["final"][:10]
            added = [t for t in row["whole"][name][:k] if t not in top]
            return top[: 10 - len(added)] + added

        return apply

    def openings(shapes: set[str], m: int, head: int) -> Variant:
        def apply(row: Row) -> list[str]:
            asked = coverage.shape(row["question"])
            if asked is None or asked.value not in shapes:
                return list(row["final"])
            chat = row["chat"]
            queues: dict[int, list[str]] = {}
            if head > 50:  # wherever they rank: each session's first m, in order
                for (c, b), ids in sorted(users.items()):
                    if c == chat:
                        queues[b] = ids[:m]
            else:  # those the ranking holds in its first ``head``, in its order
                for t in row["final"][:head]:
                    for (c, b), ids in users.items():
                        if c == chat and t in ids[:m]:
                            queues.setdefault(b, []).append(t)
            first: list[str] = []
            for depth in range(m):
                first += [q[depth] for q in queues.values() if len(q) > depth]
            return first + [t for t in row["final"] if t not in first]

        return apply

    print("| variant | R@10 A / B (question-points gained) |\n|---|---|")
    print(f"| the dump's own top 10 | {score(rows, lambda r: r['final'])} |")
    print(f"| summary questions: each user hit then its reply | {score(rows, summary_pairs)} |")
    for k, depth in ((3, 15), (3, 20), (5, 20), (10, 50)):
        line = score(rows, head_pairs(k, depth))
        print(f"| any question: the replies of the first {k} user hits, from 11-{depth} | {line} |")
    for name in ("dense", "bm25"):
        for k in (1, 2, 3):
            print(f"| {name} alone's first {k} in the top 10 | {score(rows, leg(name, k))} |")
    for shapes in ({"order"}, {"summary"}, {"summary", "order"}):
        for m, head in ((1, 50), (1, 10_000), (2, 30)):
            line = score(rows, openings(shapes, m, head))
            where = "any" if head > 50 else f"in the first {head}"
            print(
                f"| {'/'.join(sorted(shapes))}: sessions' first {m} user message(s), "
                f"{where}, placed first | {line} |"
            )
    for m in (1, 2, 3, 5, 8):
        for head in (20, 30, 50):
            line = score(rows, openings({"order"}, m, head))
            print(f"| order: sessions' first {m} user messages in the first {head} | {line} |")


if __name__ == "__main__":
    main(sys.argv[1])
