"""Round thirty-nine (inject43; docs/safety.md, "Round thirty-nine"): ``scan``'s cost per
write on every real LoCoMo and BEAM text, for the tree on ``PYTHONPATH`` (the round
changes rules and a view that already exist, so it is timed tree against tree, not with a
module left out as ``injection_rule_cost.py`` does). Each text is scanned three times per
run, the fastest kept; run it alternately with main's ``src`` and this tree's, then
``--compare`` prints the per-text medians, means and the median of the differences.

    PYTHONPATH=/tmp/base/src python scripts/inject43_cost.py --out base.json
    PYTHONPATH=src python scripts/inject43_cost.py --out new.json
    python scripts/inject43_cost.py --compare base.json new.json

On a shared host the two runs' means differ by hundreds of microseconds between runs of
the same tree; ``--family BASE_SRC`` times the addressed family alone in one process, main's
``safety_addressed`` (loaded from ``BASE_SRC``) and this tree's interleaved per text, the
fastest of three each, as a write's scan runs it (after its needles).

    PYTHONPATH=src python scripts/inject43_cost.py --family /tmp/base/src
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import statistics
import time
from pathlib import Path
from types import ModuleType

from engram import safety, safety_addressed
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


def _family(module: ModuleType, text: str) -> None:
    module._addressees.cache_clear()
    low = " ".join(text.lower().split())
    if any(n in low for n in module._NEEDLES):
        for _, rule, _ in module.RULES:
            rule(text)


def family(bench: str, base_src: str) -> None:
    """The addressed family's cost, main's against this tree's, interleaved per text."""
    path = Path(base_src) / "engram/safety_addressed.py"
    spec = importlib.util.spec_from_file_location("base_safety_addressed", path)
    assert spec is not None and spec.loader is not None
    base = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(base)
    texts = [t for _, t in injection.real_texts(bench)]
    best = [[float("inf")] * len(texts), [float("inf")] * len(texts)]
    for round_ in range(3):
        for i, t in enumerate(texts):
            for k in (0, 1) if round_ % 2 == 0 else (1, 0):
                start = time.perf_counter()
                _family(base if k == 0 else safety_addressed, t)
                best[k][i] = min(best[k][i], time.perf_counter() - start)
    for k, name in ((0, "main"), (1, "this tree")):
        us = [x * 1e6 for x in best[k]]
        print(f"{name}: median {statistics.median(us):.1f} us, mean {statistics.fmean(us):.1f} us")
    diff = [(b - a) * 1e6 for a, b in zip(best[0], best[1], strict=True)]
    median, mean = statistics.median(diff), statistics.fmean(diff)
    print(f"per-text difference: median {median:+.1f} us, mean {mean:+.1f} us")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", default="../shared/bench")
    parser.add_argument("--out", default="")
    parser.add_argument("--compare", nargs=2, default=None)
    parser.add_argument("--family", default="", help="main's src, to time the family alone")
    args = parser.parse_args()
    if args.family:
        family(args.data, args.family)
        return
    if args.compare:
        compare(*args.compare)
        return
    us = timed(args.data)
    print(f"median {statistics.median(us):.1f} us, mean {statistics.fmean(us):.1f} us")
    if args.out:
        Path(args.out).write_text(json.dumps(us))


if __name__ == "__main__":
    main()
