"""The SQLite keyword leg timed old against new (task mend28: one cache of the match).

``build PATH N``: a keyword-only store (no embedder) of N memories in one namespace, the
LoCoMo dev turns and BEAM 100K dev messages of ``../shared/bench`` repeated (each copy
numbered) until N; its term index is built and saved.

``time PATH SRC``: in this process, with ``SRC`` (a checkout's ``src``) first on the
path, for each of the first 300 LoCoMo dev questions: empty the match caches, then time
the leg's search (``SQLiteKeyword.search``, top 50) and the other candidates' scores
(``SQLiteKeyword.scores`` of 40 ids of the store), as a recall calls them. Prints one
JSON line: the medians (µs) and a digest of every answer.

``ab PATH OLD_SRC NEW_SRC ROUNDS``: ``time`` in fresh processes, old and new alternated
round by round; prints each round and the medians of the rounds' medians.

    PYTHONPATH=src python scripts/mend28_keyword_leg.py build /tmp/mend28-kw/s.db 30000
    python scripts/mend28_keyword_leg.py ab /tmp/mend28-kw/s.db /work/base26-mend28/src src 4
"""

from __future__ import annotations

import hashlib
import json
import os
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path

BENCH = Path(__file__).resolve().parents[2] / "shared" / "bench"
NS = "bench"


def _texts() -> list[str]:
    texts: list[str] = []
    for conv in json.loads((BENCH / "locomo" / "locomo10_dev.json").read_text()):
        c = conv["conversation"]
        for key, turns in c.items():
            if key.startswith("session_") and isinstance(turns, list):
                texts += [f"{t['speaker']}: {t['text']}" for t in turns]
    for chat in sorted((BENCH / "beam-100k").iterdir()):
        for batch in json.loads((chat / "chat.json").read_text()):
            for turns in batch["turns"]:
                texts += [m["content"][:2000] for m in turns if m.get("content")]
    return texts


def _questions() -> list[str]:
    convs = json.loads((BENCH / "locomo" / "locomo10_dev.json").read_text())
    seen: dict[str, None] = {}
    for conv in convs:
        for qa in conv["qa"]:
            seen.setdefault(qa["question"], None)
    return list(seen)[:300]


def build(path: str, size: int) -> None:
    from engram import Config, Memory

    base = _texts()
    texts = [f"{t} (copy {i // len(base)})" for i, t in enumerate(base * (size // len(base) + 1))]
    config = Config.load(env={}).with_overrides(recall={"keyword_index_background": False})
    with Memory(path, config=config, embedder=None) as mem:
        for start in range(0, size, 2000):
            mem.add_many(texts[start : min(start + 2000, size)], namespace=NS)
        mem.store.keyword.search(NS, "warm", 1)
        print(mem.store.keyword.state())


def run(path: str) -> None:
    from engram import Config, Memory
    from engram.store.sqlite import keyword, term_search
    from engram.text import fts_query

    caches = [getattr(keyword, n) for n in ("_terms", "_query") if hasattr(keyword, n)]
    caches += [getattr(term_search, n) for n in ("_query_of",) if hasattr(term_search, n)]
    config = Config.load(env={}).with_overrides(recall={"keyword_index_background": False})
    with Memory(path, config=config, embedder=None) as mem:
        kw = mem.store.keyword
        kw.search(NS, "warm", 1)
        assert kw.exact(NS), "the term index did not load"
        ids = [r.id for r in mem.get_all(namespace=NS, limit=5000)]
        rng = random.Random(7)
        search_us, scores_us, digest = [], [], hashlib.sha256()
        for question in _questions():
            match = fts_query(question) or question
            others = rng.sample(ids, 40)
            for cache in caches:
                cache.cache_clear()
            t0 = time.perf_counter()
            found = kw.search(NS, match, 50)
            t1 = time.perf_counter()
            scored = kw.scores(NS, match, others)
            t2 = time.perf_counter()
            search_us.append((t1 - t0) * 1e6)
            scores_us.append((t2 - t1) * 1e6)
            digest.update(repr((found, sorted(scored.items()))).encode())
    print(
        json.dumps(
            {
                "search_us": statistics.median(search_us),
                "scores_us": statistics.median(scores_us),
                "leg_us": statistics.median(
                    a + b for a, b in zip(search_us, scores_us, strict=True)
                ),
                "answers": digest.hexdigest()[:16],
            }
        )
    )


def ab(path: str, old: str, new: str, rounds: int) -> None:
    rows: dict[str, list[dict[str, float]]] = {"old": [], "new": []}
    for r in range(rounds):
        for name, src in (("old", old), ("new", new))[:: 1 if r % 2 == 0 else -1]:
            env = {**os.environ, "PYTHONPATH": str(Path(src).resolve())}
            out = subprocess.run(
                [sys.executable, __file__, "time", path, src],
                env=env,
                capture_output=True,
                text=True,
                check=True,
            ).stdout
            row = json.loads(out.strip().splitlines()[-1])
            rows[name].append(row)
            print(r, name, row, "load", os.getloadavg()[0], flush=True)
    for name, got in rows.items():
        keys = ("search_us", "scores_us", "leg_us")
        medians = {k: round(statistics.median(g[k] for g in got), 1) for k in keys}
        print(name, medians, {g["answers"] for g in got})


def main() -> None:
    command, path = sys.argv[1], sys.argv[2]
    if command == "build":
        build(path, int(sys.argv[3]))
    elif command == "time":
        run(path)
    else:
        ab(path, sys.argv[3], sys.argv[4], int(sys.argv[5]))


if __name__ == "__main__":
    main()
