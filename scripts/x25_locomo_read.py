"""Task x25's guard: every LoCoMo dev turn read by ``offline.analyse`` ("Speaker: text"),
and the same turns as the memory's owner would say them (no speaker, so the rules of
task x25 for the owner's requests and introductions apply), facts and triples dumped
and timed. Run with the old and the new source on ``PYTHONPATH``, old and new
alternating; compare the JSON files.

    PYTHONPATH=src python scripts/x25_locomo_read.py OUT.json [--rounds 3]
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from pathlib import Path

DATA = Path(__file__).resolve().parents[2] / "shared" / "bench" / "locomo" / "locomo10_dev.json"


def turns() -> list[tuple[str, str]]:
    data = json.loads(DATA.read_text())
    out = []
    for conv in data:
        chat = conv["conversation"]
        n = 1
        while f"session_{n}" in chat:
            out += [(t["speaker"], t["text"]) for t in chat[f"session_{n}"]]
            n += 1
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    from engram.pipeline import offline
    from engram.pipeline import turns as turn_rules

    said = turns()
    rates, rows = [], []
    for _ in range(args.rounds):
        offline._read.cache_clear()
        offline._triples.cache_clear()
        start = time.perf_counter()
        rows = []
        for speaker, text in said:
            a = offline.analyse(f"{speaker}: {text}")
            b = offline.analyse(text, speaker=turn_rules.OWNER)
            rows.append(
                [
                    [f.content for f in a.facts],
                    [[t.source, t.relationship, t.target] for t in a.triples],
                    [f.content for f in b.facts],
                    [[t.source, t.relationship, t.target] for t in b.triples],
                ]
            )
        rates.append(len(said) / (time.perf_counter() - start))
    args.out.write_text(json.dumps(rows, indent=0))
    print(
        json.dumps(
            {
                "turns": len(said),
                "facts": sum(len(r[0]) for r in rows),
                "triples": sum(len(r[1]) for r in rows),
                "owner_facts": sum(len(r[2]) for r in rows),
                "owner_triples": sum(len(r[3]) for r in rows),
                "turns_per_s_median": round(statistics.median(rates)),
                "rates": [round(r) for r in rates],
            }
        )
    )


if __name__ == "__main__":
    main()
