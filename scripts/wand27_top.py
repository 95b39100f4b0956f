"""``TermBlock.top`` before and after wand27, side by side, on the same questions.

    PYTHONPATH=src python scripts/wand27_top.py STORE.db OUT.json --locomo FILE
        [--queries 300] [--k 50] [--rounds 3] [--old /work/base25/src]
    PYTHONPATH=src python scripts/wand27_top.py - OUT.json --locomo FILE --compose 1000000

``--compose N`` builds the block in this process from the N texts ``engram bench scale``
stores (``compose_corpus`` over LoCoMo's turns, content only), for sizes whose store is
not kept; ``--keep DIR`` saves its arrays and ``--arrays DIR`` reads them back.

Reads the store's saved term block (``term_snapshot``, the newest namespace's) read-only,
makes the old block over the same arrays from the old tree's ``term_index.py`` and
``term_rank.py`` (loaded under other module names; everything else they import is this
tree's), then asks ``--queries`` distinct LoCoMo questions (those ``engram bench scale
--reuse`` and ``tail27_laps.py`` ask after their 20 warm-up questions) as the keyword leg
turns them into terms, ``top(terms, k)`` on each block, old and new interleaved (which
goes first alternates), ``--rounds`` times. Per question: each block's thread CPU time
(the median over the rounds), the posting rows its plan covers, and whether the two
answers agree (same rows in the same order, scores to 1e-6), and where they do not,
which is the exhaustive top k (every live row scored, ties by row). A first round makes
the bitmaps both blocks keep (``term_rank``), timed on its own.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import sqlite3
import statistics
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from engram.bench.pg_scale import compose_corpus
from engram.bench.scale import locomo_turns_and_questions
from engram.store.sqlite import term_snapshot
from engram.store.sqlite.term_index import Doc, TermBlock
from engram.store.sqlite.term_search import query_of
from engram.text import fts_query, match_terms

WARM = 20


def _exec(name: str, path: Path) -> Any:
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def old_module(src: Path) -> Any:
    """The old tree's ``term_index``, bound to the old tree's ``term_rank`` too (the
    lookups in the longest lists are part of what is compared)."""
    here = src / "engram" / "store" / "sqlite"
    rank = "engram.store.sqlite.term_rank"
    new_rank = sys.modules[rank]
    sys.modules[rank] = _exec("wand27_old_term_rank", here / "term_rank.py")
    try:
        return _exec("wand27_old_term_index", here / "term_index.py")
    finally:
        sys.modules[rank] = new_rank


def load(store: Path) -> TermBlock:
    directory = Path(f"{store}.vindex")
    names = sorted(directory.glob("terms-*.json"), key=lambda p: p.stat().st_size)
    conn = sqlite3.connect(f"file:{store}?mode=ro", uri=True)
    namespace = conn.execute(
        "SELECT namespace FROM memories GROUP BY namespace ORDER BY count(*) DESC LIMIT 1"
    ).fetchone()[0]
    assert names, "no saved term block beside the store"
    block, _ = term_snapshot.load(directory, namespace, conn)
    conn.close()
    return block


def composed(turns: list[str], n: int) -> TermBlock:
    texts, _ = compose_corpus(turns, np.zeros((len(turns), 1), np.float32), n)
    docs = [Doc(i + 1, f"m{i + 1:08d}", (t, None, None, None, None)) for i, t in enumerate(texts)]
    del texts
    return TermBlock(docs)


def cpu_ms(fn: Any) -> tuple[float, Any]:
    t = time.thread_time_ns()
    out = fn()
    return (time.thread_time_ns() - t) / 1e6, out


def agree(a: list[tuple[int, float]], b: list[tuple[int, float]]) -> bool:
    if [r for r, _ in a] != [r for r, _ in b]:
        return False
    return all(abs(x - y) <= 1e-6 * max(1.0, abs(y)) for (_, x), (_, y) in zip(a, b, strict=True))


def exact(block: TermBlock, terms: Sequence[str], k: int, got: dict[str, Any]) -> dict[str, bool]:
    """Whether each answer is the exhaustive top k: every live row scored by ``scores``
    (lookups, no scatter), best first, ties by row; scores to 1e-6."""
    every = np.asarray(block.scores(terms, np.arange(block.size, dtype=np.int32)))
    every[~block.alive[: block.size]] = 0.0
    hits = np.flatnonzero(every > 0)
    order = hits[np.lexsort((hits, -every[hits]))][:k]
    want = [(int(r), float(every[r])) for r in order]
    return {name: agree(answer, want) for name, answer in got.items()}


def pct(values: list[float]) -> dict[str, float]:
    v = np.asarray(values)
    return {f"p{q}": round(float(np.percentile(v, q)), 3) for q in (50, 90, 95, 99)} | {
        "mean": round(float(v.mean()), 3)
    }


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("store", type=Path)
    parser.add_argument("out", type=Path)
    parser.add_argument("--locomo", required=True)
    parser.add_argument("--queries", type=int, default=300)
    parser.add_argument("--k", type=int, default=50)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--old", type=Path, default=Path("/work/base25/src"))
    parser.add_argument("--compose", type=int, default=0)
    parser.add_argument("--keep", type=Path, help="save the composed block's arrays here")
    parser.add_argument("--arrays", type=Path, help="read a block --keep saved")
    args = parser.parse_args()
    turns, questions = locomo_turns_and_questions(args.locomo)
    began = time.perf_counter()
    if args.arrays:
        new = TermBlock.from_arrays(
            {p.stem: np.load(p, mmap_mode="r") for p in args.arrays.glob("*.npy")}
        )
    else:
        new = composed(turns, args.compose) if args.compose else load(args.store)
    if args.keep:
        args.keep.mkdir(parents=True, exist_ok=True)
        for part, array in new.arrays().items():
            np.save(args.keep / f"{part}.npy", array)
    build_s = time.perf_counter() - began
    old = old_module(args.old).TermBlock.from_arrays(new.arrays())
    questions = list(dict.fromkeys(questions))
    asked = [questions[(300 + WARM + i) % len(questions)] for i in range(args.queries)]
    queries: list[tuple[str, tuple[str, ...]]] = []
    for q in asked:
        match = fts_query(q)
        terms = query_of(match_terms(match)) if match is not None else None
        if terms:
            queries.append((q, terms))
    first: dict[str, list[float]] = {"old": [], "new": []}
    for terms in (t for _, t in queries):  # the first round: bitmaps made
        for name, block in (("old", old), ("new", new)):
            first[name].append(cpu_ms(lambda b=block, t=terms: b.top(t, args.k))[0])
    times: dict[str, list[list[float]]] = {
        "old": [[] for _ in queries],
        "new": [[] for _ in queries],
    }
    mismatches = []
    for r in range(args.rounds):
        for j, (q, terms) in enumerate(queries):
            order = (
                (("old", old), ("new", new)) if (j + r) % 2 == 0 else (("new", new), ("old", old))
            )
            got: dict[str, Any] = {}
            for name, block in order:
                block._planned = None  # each call plans, as recall's first call does
                ms, got[name] = cpu_ms(lambda b=block, t=terms: b.top(t, args.k))
                times[name][j].append(ms)
            if r == 0 and not agree(got["new"], got["old"]):
                mismatches.append({"q": q, "exact": exact(new, terms, args.k, got)})
    med = {name: [statistics.median(t) for t in per] for name, per in times.items()}
    ratio = [n / o for n, o in zip(med["new"], med["old"], strict=True) if o > 0]
    postings = [sum(len(s.postings.rows) for s in new._plan(t)) for _, t in queries]
    by_postings = np.argsort(postings)
    slow = by_postings[int(0.9 * len(by_postings)) :]
    result = {
        "store": str(args.arrays or (f"composed {args.compose}" if args.compose else args.store)),
        "rows": new.size,
        "postings_total": len(new.rows),
        "block_s": round(build_s, 1),
        "questions": len(queries),
        "k": args.k,
        "rounds": args.rounds,
        "cpu_ms": {name: pct(v) for name, v in med.items()},
        "first_round_cpu_ms": {name: pct(v) for name, v in first.items()},
        "ratio_new_over_old": pct(ratio),
        "most_postings_10pct": {
            name: round(float(np.mean([med[name][j] for j in slow])), 3) for name in med
        },
        "postings": pct([float(p) for p in postings]),
        "disagree": mismatches,
        "per_question": [
            {"terms": t, "old": med["old"][j], "new": med["new"][j], "postings": postings[j]}
            for j, (_, t) in enumerate(queries)
        ],
    }
    args.out.write_text(json.dumps(result, indent=2))
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
