"""Where ``add_many``'s time goes as ``bench scale`` calls it (issue 29, build25).

Adds ``--n`` composed scale texts (``compose_corpus``, no embedder, ``injection_mode =
"flag"``) into a fresh store, timing each group of 2,048 (the rate as the store grows)
and, with ``--profile``, under cProfile (the top functions by cumulative time).

    PYTHONPATH=src python scripts/build25_profile.py --n 20000 --store /tmp/b/p.db --profile
"""

from __future__ import annotations

import argparse
import cProfile
import json
import pstats
import resource
import shutil
import time
from pathlib import Path


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--n", type=int, default=20000)
    parser.add_argument("--start", type=int, default=0, help="first corpus row to add")
    parser.add_argument("--store", required=True)
    parser.add_argument("--profile", help="write the profile's top functions here")
    parser.add_argument("--base", help="a store to copy to --store first (never written)")
    parser.add_argument("--cache-kib", type=int, help="SQLite's page cache per connection")
    parser.add_argument("--data", default="/work/shared/bench/locomo/locomo10_dev.json")
    args = parser.parse_args()

    import engram
    from engram.bench.pg_scale import compose_corpus
    from engram.bench.scale import base_vectors, locomo_turns_and_questions
    from engram.config import Config
    from engram.memory import Memory

    if args.base:
        for suffix in ("", "-wal", "-shm"):
            if Path(args.base + suffix).exists():
                shutil.copy2(args.base + suffix, args.store + suffix)
    if args.cache_kib:
        from engram.store.sqlite import db

        db.PAGE_CACHE_KIB = args.cache_kib
    turns, _ = locomo_turns_and_questions(args.data)
    config = Config.load(env={}).with_overrides(injection_mode="flag")
    vectors = base_vectors(config, turns, config.home_path / "bench-cache")
    texts = compose_corpus(turns, vectors, args.start + args.n)[0][args.start :]
    marks: list[tuple[int, float]] = []
    profiler = cProfile.Profile() if args.profile else None
    with Memory(args.store, config=config, embedder=None) as mem:
        began = time.perf_counter()
        cpu = time.process_time()
        marks.append((0, began))

        def progress(done: int, total: int) -> None:
            marks.append((done, time.perf_counter()))

        if profiler is not None:
            profiler.enable()
        mem.add_many(texts, namespace="bench-scale", progress=progress)
        if profiler is not None:
            profiler.disable()
        seconds = time.perf_counter() - began
        cpu = time.process_time() - cpu
    # The rate per tenth of the run, to see what grows with the store's size.
    tenths = []
    step = max(1, len(marks) // 10)
    for a in range(0, len(marks) - 1, step):
        b = min(a + step, len(marks) - 1)
        (d0, t0), (d1, t1) = marks[a], marks[b]
        tenths.append({"from": d0, "to": d1, "per_s": round((d1 - d0) / (t1 - t0), 1)})
    print(
        json.dumps(
            {
                "engram": engram.__file__,
                "n": args.n,
                "seconds": round(seconds, 2),
                "per_s": round(args.n / seconds, 1),
                "cpu_s": round(cpu, 2),
                "first_write_s": round(marks[1][1] - began, 2) if len(marks) > 1 else None,
                "rate_by_part": tenths,
                "peak_rss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024),
                "load": Path("/proc/loadavg").read_text().split()[:3],
            }
        )
    )
    if profiler is not None:
        profiler.dump_stats(args.profile + ".prof")
        with Path(args.profile).open("w") as out:
            stats = pstats.Stats(profiler, stream=out)
            stats.sort_stats("cumulative").print_stats(70)
            stats.sort_stats("tottime").print_stats(40)


if __name__ == "__main__":
    main()
