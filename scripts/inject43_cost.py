"""Round thirty-nine (inject43; docs/safety.md, "Round thirty-nine"): ``scan``'s cost per
write on every real LoCoMo and BEAM text, for the tree on ``PYTHONPATH`` (the round
changes rules and a view that already exist, so it is timed tree against tree, not with a
module left out as ``injection_rule_cost.py`` does). Each text is scanned three times per
run, the fastest kept; run it alternately with main's ``src`` and this tree's, then
``--compare`` prints the per-text medians, means and the median of the differences.

    PYTHONPATH=/tmp/base/src python scripts/inject43_cost.py --out base.json
    PYTHONPATH=src python scripts/inject43_cost.py --out new.json
    python scripts/inject43_cost.py --compare base.json new.json
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from pathlib import Path

from engram import safety
from engram.bench import injection


def timed(bench: str) -> list[float]:
    """Per real text, the fastest of three ``scan`` calls, in microseconds."""
    texts = [t for _, t in injection.real_texts(bench)]
    best = [float("inf")] * len(texts)
    for _ in range(3):
        for i, t in enumerate(texts):
            start = time.perf_counter()
            safety.scan(t)
            best[i] = min(best[i], time.perf_counter() - start)
    return [x * 1e6 for x in best]


def compare(base_path: str, new_path: str) -> None:
    base = json.loads(Path(base_path).read_text())
    new = json.loads(Path(new_path).read_text())
    for name, us in (("base", base), ("new", new)):
        print(f"{name}: median {statistics.median(us):.1f} us, mean {statistics.fmean(us):.1f} us")
    diff = [b - a for a, b in zip(base, new, strict=True)]
    print(
        f"per-text difference: median {statistics.median(diff):+.1f} us, "
        f"mean {statistics.fmean(diff):+.1f} us"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", default="../shared/bench")
    parser.add_argument("--out", default="")
    parser.add_argument("--compare", nargs=2, default=None)
    args = parser.parse_args()
    if args.compare:
        compare(*args.compare)
        return
    us = timed(args.data)
    print(f"median {statistics.median(us):.1f} us, mean {statistics.fmean(us):.1f} us")
    if args.out:
        Path(args.out).write_text(json.dumps(us))


if __name__ == "__main__":
    main()
