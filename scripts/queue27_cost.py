"""Task queue27's cost check: every turn of src/engram/data/queue27_turns.json through the
chat proxy's path (``mem.chat.after``, then the worker), timed per turn, in one process.
Run with the old and the new source on ``PYTHONPATH``, alternating; compare the medians.

    PYTHONPATH=src python scripts/queue27_cost.py [--rounds 3]
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from pathlib import Path

SET = Path(__file__).resolve().parents[1] / "src" / "engram" / "data" / "queue27_turns.json"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    from engram import Memory

    rows = json.loads(SET.read_text())["turns"]
    times: list[float] = []
    for round_ in range(args.rounds):
        with Memory(":memory:", embedder=None) as mem:
            for row in rows:
                user = f"c{round_}-{row['id']}"
                messages = [{"role": "user", "content": row["text"]}]
                start = time.perf_counter()
                mem.chat.after(messages, row.get("reply") or "Understood.", user_id=user)
                mem.jobs.process_pending()
                mem.jobs.process_pending()
                times.append((time.perf_counter() - start) * 1000)
    print(json.dumps({"turns": len(times), "median_ms": round(statistics.median(times), 2)}))


if __name__ == "__main__":
    main()
