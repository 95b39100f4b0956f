"""Rounds thirty-four to thirty-six (inject38 to inject40): ``scan``'s cost per write
without and with one module's rules (``--rules``: ``safety_standing``, round thirty-four's,
``safety_widened``, round thirty-five's, or ``safety_lapsed``, round
thirty-six's), on every real LoCoMo and BEAM text: three rounds, each
a pass without and a pass with the rules (the order turning per round), the fastest of the
three per text; prints the per-text medians, means and the median of the differences.

    PYTHONPATH=src python scripts/injection_rule_cost.py [--rules MODULE] [--data DIR]
"""

from __future__ import annotations

import argparse
import importlib
import statistics
import time

from engram import safety
from engram.bench import injection


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", default="../shared/bench")
    parser.add_argument("--rules", default="safety_standing", help="the module timed")
    args = parser.parse_args()
    rules = importlib.import_module(f"engram.{args.rules}").RULES
    texts = [t for _, t in injection.real_texts(args.data)]
    full = safety._RULES
    without = tuple(r for r in full if r not in rules)
    best = {False: [float("inf")] * len(texts), True: [float("inf")] * len(texts)}
    for round_ in range(3):
        for new in (round_ % 2 == 0, round_ % 2 == 1):
            safety._RULES = full if new else without  # type: ignore[assignment]
            for i, t in enumerate(texts):
                start = time.perf_counter()
                safety.scan(t)
                best[new][i] = min(best[new][i], time.perf_counter() - start)
    safety._RULES = full  # type: ignore[assignment]
    for new in (False, True):
        us = [x * 1e6 for x in best[new]]
        print(
            f"{'with' if new else 'without'}: median {statistics.median(us):.1f} us, "
            f"mean {statistics.fmean(us):.1f} us"
        )
    diff = [(b - a) * 1e6 for a, b in zip(best[False], best[True], strict=True)]
    print(
        f"per-text difference: median {statistics.median(diff):+.1f} us, "
        f"mean {statistics.fmean(diff):+.1f} us"
    )


if __name__ == "__main__":
    main()
