"""Issue 24, task beam29: where each BEAM gold message is lost, by cause.

For every question the default recall (``best``, the abstain decision off, 50 deep as
``engram bench beam`` asks) is run once with ``ranking.fuse`` watched, which keeps the
whole candidate pool of the question's first ranking (the dense and keyword legs' top
ids and the session neighbours they bring in) with its fused scores; then the whole
chat is ranked by each plain leg alone (dense, BM25), 600 deep. Each gold message is
then one of:

- ``pool``: not among the candidates at all (which leg would have found it: its rank
  in the whole chat by each leg alone);
- ``ranked``: a candidate, placed past 10th (by which leg: its dense and keyword legs
  after session context against the 10th hit's);
- ``top10``: found.

``dump`` writes the rows (benchmark text: keep them under /tmp); ``read`` prints the
counts per fold, ability and cause. Usage (a copy of a store ``--store`` wrote):

    PYTHONPATH=src python scripts/beam29_pool.py dump STORE OUT.pkl [--limit=N] [KEY=VALUE ...]
    PYTHONPATH=src python scripts/beam29_pool.py read OUT.pkl [A|B]
"""

from __future__ import annotations

import pickle
import sys
from collections import defaultdict
from typing import Any

from engram import Memory
from engram.bench import beam
from engram.bench.runner import MODES, namespace_for
from engram.recall import ranking

DATA = "../shared/bench/beam-100k"
WHOLE = 600  # deeper than the largest chat (680 messages ask 3 × limit of each leg)
LONG = 1000  # characters: about the embedder's window (256 word pieces)


def _value(text: str) -> Any:
    try:
        return float(text)
    except ValueError:
        return {"true": True, "false": False}.get(text, text)


def dump(store: str, out: str, settings: dict[str, Any], limit: int = 50) -> None:
    data = beam.load(DATA)
    seen: list[dict[str, Any]] = []
    plain = ranking.fuse

    def watched(legs: Any, cfg: Any, ids: Any, dense: Any, keyword: Any, *rest: Any) -> Any:
        fused, parts = plain(legs, cfg, ids, dense, keyword, *rest)
        if not seen:  # the whole question's ranking, not a part's
            seen.append(
                {
                    "pool": list(ids),
                    "fused": dict(fused),
                    "legs": {i: parts[i] for i in ids},
                    "dense_top": list(legs.dense_ranking),
                    "keyword_top": list(legs.keyword_ranking),
                }
            )
        return fused, parts

    ranking.fuse = watched  # type: ignore[assignment]
    rows: list[dict[str, Any]] = []
    with Memory(store) as mem:
        for conv in data.conversations:
            ns = namespace_for(data.name, conv.id)
            length = {t.id: len(t.text) for t in conv.turns}
            role = {t.id: t.text.split(":", 1)[0] for t in conv.turns}
            for q in conv.questions:
                seen.clear()
                found = mem.recall(q.text, namespace=ns, limit=limit, abstain=False, **settings)
                turn = {h.memory.id: str(h.memory.metadata.get("turn")) for h in found.hits}
                got = seen[0] if seen else {"pool": [], "fused": {}, "legs": {}}
                ids = got["pool"]
                by_id = {i: str(m.metadata.get("turn")) for i, m in _records(mem, ns, ids)}
                whole = {}
                for mode in ("dense", "bm25"):
                    seen.append({})  # keep the watch off the plain runs
                    hits = mem.recall(
                        q.text, namespace=ns, limit=WHOLE // 3, abstain=False, **MODES[mode]
                    ).hits
                    whole[mode] = [str(h.memory.metadata.get("turn")) for h in hits]
                fused_rank = sorted(ids, key=lambda i: got["fused"].get(i, 0.0), reverse=True)
                rows.append(
                    {
                        "chat": int(conv.id.rsplit("-", 1)[1]),
                        "category": q.category,
                        "question": q.text,
                        "gold": sorted(q.gold_turns),
                        "final": [turn[h.memory.id] for h in found.hits],
                        "pool": [by_id[i] for i in fused_rank if i in by_id],
                        "legs": {by_id[i]: got["legs"][i] for i in ids if i in by_id},
                        "dense_top": [by_id[i] for i in got.get("dense_top", []) if i in by_id],
                        "keyword_top": [by_id[i] for i in got.get("keyword_top", []) if i in by_id],
                        "whole": whole,
                        "length": {g: length.get(g, 0) for g in q.gold_turns},
                        "role": {g: role.get(g, "") for g in q.gold_turns},
                        "size": len(conv.turns),
                    }
                )
    with open(out, "wb") as f:
        pickle.dump(rows, f)
    print(f"{len(rows)} questions -> {out}")


def _records(mem: Memory, ns: str, ids: list[str]) -> list[tuple[str, Any]]:
    records = mem.store.memories.get_many(ns, ids)
    return list(records.items())


def cause(row: dict[str, Any], gold: str) -> str:
    """Where one gold message is lost: found (top 10), ranked 11-20 / 21-50 / past 50 (a
    candidate), or pool (no candidate: which plain leg ranks it higher in the chat)."""
    if gold in row["final"][:10]:
        return "found"
    if gold in row["final"] or gold in row["pool"]:
        rank = (row["final"].index(gold) if gold in row["final"] else row["pool"].index(gold)) + 1
        return "ranked 11-20" if rank <= 20 else "ranked 21-50" if rank <= 50 else "ranked >50"
    dense, bm25 = (_rank(row["whole"][m], gold) for m in ("dense", "bm25"))
    return "pool, dense nearer" if dense <= bm25 else "pool, bm25 nearer"


def _rank(order: list[str], gold: str) -> int:
    return order.index(gold) + 1 if gold in order else 10_000


def read(path: str, fold: str) -> None:
    with open(path, "rb") as f:
        rows = pickle.load(f)
    points: dict[tuple[str, str], float] = defaultdict(float)
    counts: dict[tuple[str, str], int] = defaultdict(int)
    long_lost = plain_top10 = 0.0
    pool_share: list[float] = []
    for row in rows:
        if not row["gold"] or (row["chat"] <= 5) != (fold == "A"):
            continue
        pool_share.append(len(row["pool"]) / row["size"])
        share = 1.0 / len(row["gold"])
        for g in row["gold"]:
            c = cause(row, g)
            if c == "found":
                continue
            points[(row["category"], c)] += share
            counts[(row["category"], c)] += 1
            long_lost += share if row["length"][g] > LONG else 0.0
            if min(_rank(row["whole"]["dense"], g), _rank(row["whole"]["bm25"], g)) <= 10:
                plain_top10 += share
    causes = sorted({c for _, c in points})
    print(f"fold {fold}: question-points of R@10 lost (gold messages), per ability and cause")
    print("| ability | " + " | ".join(causes) + " | all |")
    print("|---|" + "---|" * (len(causes) + 1))
    for a in [*sorted({a for a, _ in points}), "all"]:
        cells = []
        for c in causes:
            pts = sum(v for (x, y), v in points.items() if y == c and a in (x, "all"))
            n = sum(v for (x, y), v in counts.items() if y == c and a in (x, "all"))
            cells.append(f"{pts:.2f} ({n})")
        total = sum(v for (x, _), v in points.items() if a in (x, "all"))
        print(f"| {a} | " + " | ".join(cells) + f" | {total:.2f} |")
    pool_share.sort()
    print(f"candidate pool: median {pool_share[len(pool_share) // 2]:.2f} of the chat")
    print(f"lost points whose gold is over {LONG} characters: {long_lost:.2f}")
    print(f"lost points whose gold a plain leg alone ranks in the chat's top 10: {plain_top10:.2f}")


if __name__ == "__main__":
    if sys.argv[1] == "dump":
        args = sys.argv[4:]
        depth = int(args.pop(0).split("=", 1)[1]) if args and args[0].startswith("--limit=") else 50
        extra = dict(a.split("=", 1) for a in args)
        dump(sys.argv[2], sys.argv[3], {k: _value(v) for k, v in extra.items()}, depth)
    else:
        read(sys.argv[2], sys.argv[3] if len(sys.argv) > 3 else "A")
