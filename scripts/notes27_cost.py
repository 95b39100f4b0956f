"""Task notes27's cost check: every note of src/engram/data/agent_notes.json and every row
of notes27.json stored with ``mem.add`` (then the worker), timed per note, in one
process. Run with the old and the new source on ``PYTHONPATH``, alternating; compare the
medians.

    PYTHONPATH=src python scripts/notes27_cost.py [--rounds 3]
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from pathlib import Path

DATA = Path(__file__).resolve().parents[1] / "src" / "engram" / "data"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    from engram import Memory

    texts = [r["text"] for r in json.loads((DATA / "agent_notes.json").read_text())["notes"]]
    texts += [r["text"] for r in json.loads((DATA / "notes27.json").read_text())["turns"]]
    times: list[float] = []
    for round_ in range(args.rounds):
        with Memory(":memory:", embedder=None) as mem:
            for number, text in enumerate(texts):
                start = time.perf_counter()
                mem.add(text, user_id=f"c{round_}-{number}")
                mem.jobs.process_pending()
                times.append(time.perf_counter() - start)
    print(
        json.dumps(
            {
                "notes": len(texts),
                "rounds": args.rounds,
                "median_ms": round(1000 * statistics.median(times), 3),
                "total_s": round(sum(times), 2),
            }
        )
    )


if __name__ == "__main__":
    main()
