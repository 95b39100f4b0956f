"""Round five's real-data check (changes23): every LoCoMo dev turn told through
``mem.add`` ("Speaker: text", one namespace a conversation, graph and linker on, no
pipeline, no embedder), then every relation listed with whether it is closed. Run once
with the base's source and once with the branch's on the ``PYTHONPATH``; the two JSON
files are compared and the add rate is printed beside them."""

from __future__ import annotations

import json
import sys
import time
from datetime import UTC, datetime, timedelta

from engram import Memory
from engram.config import Config


def main() -> None:
    with open(sys.argv[1], encoding="utf-8") as f:
        data = json.load(f)
    cfg = Config().with_overrides(pipeline={"enabled": False, "graph": True, "linker": True})
    rows: list[list[object]] = []
    turns = 0
    start = time.perf_counter()
    with Memory(":memory:", config=cfg, embedder=None) as mem:
        for conv in data:
            chat = conv["conversation"]
            namespace = f"locomo-{conv['sample_id']}"
            at = datetime(2023, 1, 1, tzinfo=UTC)
            n = 1
            while f"session_{n}" in chat:
                for turn in chat[f"session_{n}"]:
                    at += timedelta(minutes=1)
                    mem.add(
                        f"{turn['speaker']}: {turn['text']}", namespace=namespace, created_at=at
                    )
                    turns += 1
                n += 1
        elapsed = time.perf_counter() - start
        for conv in data:
            namespace = f"locomo-{conv['sample_id']}"
            for r in mem.graph.relations(current_only=False, limit=10_000, namespace=namespace):
                if r.relation_type != "talks_about":
                    rows.append(
                        [namespace, r.source, r.relation_type, r.target, r.valid_to is None]
                    )
    with open(sys.argv[2], "w", encoding="utf-8") as f:
        json.dump(rows, f, indent=0)
    closed = sum(1 for r in rows if not r[4])
    print(f"{turns} turns, {len(rows)} relations, {closed} closed, {turns / elapsed:.1f} adds/s")


if __name__ == "__main__":
    main()
