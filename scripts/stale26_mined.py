"""stale26: what superseding the facts of a closed statement does on a mined chat
(docs/benchmarks.md, "2026-12-01, derived facts of a closed statement").

LoCoMo dev conversations mined as chats (speaker_a the user, speaker_b the assistant,
one ``palace.mine_conversation`` per session, the worker's jobs after each), with the
pipeline in ``--mode``: the review items queued, the pipeline's supersession decisions
on derived facts of a closed statement (audit event ``supersession``, reason "derived
fact ..."), each pair printed for reading, and the time the jobs took.

    PYTHONPATH=src python scripts/stale26_mined.py [--conversations 2] [--mode controlled]
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path

from engram import Memory
from engram.store.protocols import ListQuery

DATA = Path(__file__).resolve().parents[2] / "shared/bench/locomo/locomo10_dev.json"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--data", default=str(DATA))
    ap.add_argument("--conversations", type=int, default=2)
    ap.add_argument("--mode", choices=["controlled", "full"], default="controlled")
    args = ap.parse_args(argv)
    convs = json.loads(Path(args.data).read_text())[: args.conversations]
    with tempfile.TemporaryDirectory() as home:
        mem = Memory(str(Path(home) / "engram.db"))
        if args.mode == "full":
            core = mem._core
            flags = replace(core.config.pipeline, allow_update_delete=True)
            core.config = replace(core.config, pipeline=flags)
        jobs_s = 0.0
        try:
            for c in convs:
                conv, user = c["conversation"], c["sample_id"]
                a = conv["speaker_a"]
                n = 1
                while f"session_{n}" in conv:
                    msgs = [
                        {"role": "user" if t["speaker"] == a else "assistant", "content": t["text"]}
                        for t in conv[f"session_{n}"]
                        if t.get("text")
                    ]
                    mem.palace.mine_conversation(msgs, wing="locomo", session=f"s{n}", user_id=user)
                    t0 = time.perf_counter()
                    mem.jobs.process_pending()
                    jobs_s += time.perf_counter() - t0
                    n += 1
                items = mem.review.list(user_id=user, limit=500)
                ns = mem.get_all(user_id=user, limit=1)[0].namespace
                store = mem._core.store
                every = store.memories.select(ns, ListQuery(limit=100_000))
                ours = [
                    h
                    for m in every
                    if m.source_memory_id is not None
                    for h in store.memories.history(ns, m.id)
                    if h.event == "supersession" and (h.reason or "").startswith("derived fact")
                ]
                print(f"{user}: memories {len(every)}, review items {len(items)}, "
                      f"derived-fact decisions {len(ours)}")  # fmt: skip
                for h in ours:
                    after = h.after or {}
                    print(f"   {after.get('outcome')}: {after.get('older')!r} -> "
                          f"{after.get('newer')!r} ({after.get('closed')})")  # fmt: skip
        finally:
            mem.close()
    print(f"jobs took {jobs_s:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
