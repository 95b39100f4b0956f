"""Issue 24, task beam30: a thread-level view written at add time, offline.

A user message that opens a new topic of its thread is one no earlier user message of
the namespace is near: its *novelty* is one less its largest cosine to the earlier user
messages (a value known when it is added). An order question ("in what order did I
bring up ...") asks for the openings of the thread's aspects; a summary question for
the thread's course. Reads a ``beam29_pool.py`` dump and the store's vectors and scores,
per fold (A = chats 1-5, B = 6-10), in question-points of R@10 against the dump's own
top 10:

- the gold's novelty against the other user messages' (is the view informative?);
- ``open q d``: for a thread question of the shape, the top 10 refilled from the
  ranking's first ``d``, the user messages whose novelty is at least the chat's
  quantile ``q`` first (in ranking order), the rest after.

With ``--sessions``: a session's view, its messages nearest the session's mean vector,
in rounds over the sessions, for summary and order questions.

Usage: ``PYTHONPATH=src python scripts/beam30_views.py DUMP.pkl STORE [--sessions]``
"""

from __future__ import annotations

import pickle
import sys
from collections import defaultdict
from pathlib import Path
from typing import Any

import numpy as np

from engram import Memory
from engram.bench.runner import namespace_for
from engram.recall import coverage

DATA = Path("../shared/bench/beam-100k")
Row = dict[str, Any]


def novelty(mem: Memory, chat: int) -> dict[str, float]:
    """Each user message's novelty in its chat (messages in id order = time order)."""
    ns = namespace_for("beam", f"beam-{chat}")
    model = mem.embedder.name if mem.embedder else ""
    got = mem.store.vectors.load(ns, model)
    records = mem.store.memories.get_many(ns, got.ids)
    turn = {i: str(r.metadata.get("turn")) for i, r in records.items()}
    users = sorted(
        (int(turn[i]), k) for k, i in enumerate(got.ids) if records[i].content.startswith("user:")
    )
    out: dict[str, float] = {}
    for n, (t, k) in enumerate(users):
        if n == 0:
            out[str(t)] = 1.0
            continue
        earlier = got.matrix[[j for _, j in users[:n]]]
        out[str(t)] = float(1.0 - (earlier @ got.matrix[k]).max())
    return out


def _opened(path: str, store: str) -> tuple[list[Row], Memory]:
    """The dump's questions with evidence, and the store."""
    with open(path, "rb") as f:
        rows: list[Row] = [r for r in pickle.load(f) if r["gold"]]
    return rows, Memory(store)


def main(path: str, store: str) -> None:
    rows, mem = _opened(path, store)
    nov = {c: novelty(mem, c) for c in range(1, 11)}
    for want in (coverage.Shape.ORDER, coverage.Shape.SUMMARY):
        picked = [r for r in rows if coverage.shape(r["question"]) == want]
        gold_n, other_n = [], []
        for r in picked:
            for t, v in nov[r["chat"]].items():
                (gold_n if t in r["gold"] else other_n).append(v)
        print(
            f"{want}: {len(picked)} questions ({sorted({r['category'] for r in picked})}); "
            f"novelty median gold {np.median(gold_n):.3f} ({len(gold_n)} user gold), "
            f"others {np.median(other_n):.3f}"
        )
        for q in (0.5, 0.7, 0.8, 0.9):
            for d in (20, 30, 50):
                gained: dict[str, float] = defaultdict(float)
                per: dict[tuple[str, str], float] = defaultdict(float)
                for r in picked:
                    cut = float(np.quantile(list(nov[r["chat"]].values()), q))
                    head = r["final"][:d]
                    first = [t for t in head if nov[r["chat"]].get(t, -1.0) >= cut]
                    top = (first + [t for t in r["final"] if t not in first])[:10]
                    gold = set(r["gold"])
                    delta = (len(gold & set(top)) - len(gold & set(r["final"][:10]))) / len(gold)
                    fold = "A" if r["chat"] <= 5 else "B"
                    gained[fold] += delta
                    per[(fold, r["category"])] += delta
                shown = {k: round(v, 2) for k, v in sorted(per.items()) if v}
                print(f"  open {q} {d}: A {gained['A']:+.2f} B {gained['B']:+.2f} {shown}")


def central(mem: Memory, chat: int) -> tuple[dict[str, float], dict[str, int]]:
    """Each message's cosine to its session's mean vector, and its session."""
    ns = namespace_for("beam", f"beam-{chat}")
    got = mem.store.vectors.load(ns, mem.embedder.name if mem.embedder else "")
    records = mem.store.memories.get_many(ns, got.ids)
    session = {i: int(r.metadata.get("session", 0)) for i, r in records.items()}
    turn = {i: str(r.metadata.get("turn")) for i, r in records.items()}
    out: dict[str, float] = {}
    for s in set(session.values()):
        rows = [k for k, i in enumerate(got.ids) if session[i] == s]
        centre = got.matrix[rows].mean(axis=0)
        centre /= np.linalg.norm(centre)
        for k in rows:
            out[turn[got.ids[k]]] = float(got.matrix[k] @ centre)
    return out, {turn[i]: s for i, s in session.items()}


def sessions_view(path: str, store: str) -> None:
    """Summary and order questions: each session's most central messages (a session's
    view: the messages nearest its mean), in rounds over the sessions, for the top 10;
    or the ranking's first d reordered by centrality within each session's round."""
    rows, mem = _opened(path, store)
    views = {c: central(mem, c) for c in range(1, 11)}
    for want in (coverage.Shape.SUMMARY, coverage.Shape.ORDER):
        picked = [r for r in rows if coverage.shape(r["question"]) == want]
        for d in (10, 20, 50, 0):
            gained: dict[str, float] = defaultdict(float)
            for r in picked:
                cen, ses = views[r["chat"]]
                pool = r["final"][:d] if d else list(cen)
                by: dict[int, list[str]] = defaultdict(list)
                for t in sorted(pool, key=lambda t: -cen.get(t, 0.0)):
                    by[ses.get(t, 0)].append(t)
                top: list[str] = []
                while len(top) < 10 and any(by.values()):
                    for s in sorted(by):
                        if by[s] and len(top) < 10:
                            top.append(by[s].pop(0))
                gold = set(r["gold"])
                delta = (len(gold & set(top)) - len(gold & set(r["final"][:10]))) / len(gold)
                gained["A" if r["chat"] <= 5 else "B"] += delta
            print(
                f"{want} central rounds, pool {d or 'whole chat'}:",
                f"A {gained['A']:+.2f} B {gained['B']:+.2f}",
            )


if __name__ == "__main__":
    (sessions_view if "--sessions" in sys.argv else main)(sys.argv[1], sys.argv[2])
