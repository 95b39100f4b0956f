"""Round eleven's add cost, read closer than a whole ``mem.add``: the change readers a
write runs on its text, timed over every LoCoMo dev turn ("Speaker: text"). Round nine's
script (``changes27_cost.py``) timed ``change_signals.read``, ``change_firsts.firsts``
and ``cued``; this one adds round eleven's ``change_passing.firsts`` and ``cued`` when
the source on the ``PYTHONPATH`` has them, so the base (which lacks them) runs the same
turns. Run once per side, the sides alternating; prints the median of 5 passes in
microseconds a turn.

Usage: PYTHONPATH=<src> python scripts/changes29_cost.py locomo_dev.json
"""

from __future__ import annotations

import importlib
import importlib.util
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

from engram.pipeline import change_firsts, change_signals

_spec = importlib.util.spec_from_file_location(
    "round9", Path(__file__).resolve().parent / "changes27_cost.py"
)
assert _spec is not None and _spec.loader is not None
_round9 = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_round9)


def _readers() -> list[Callable[[str], object]]:
    readers: list[Callable[[str], object]] = [
        change_signals.read, change_firsts.firsts, change_firsts.cued
    ]  # fmt: skip
    try:
        passing = importlib.import_module("engram.pipeline.change_passing")
    except ImportError:  # the base: round eleven's readers do not exist there
        return readers
    return [*readers, passing.firsts, passing.cued]


def main() -> None:
    texts = _round9.turns(sys.argv[1])
    readers = _readers()
    passes = []
    for _ in range(5):
        start = time.perf_counter()
        for text in texts:
            for read in readers:
                read(text)
        passes.append((time.perf_counter() - start) / len(texts) * 1e6)
    median = statistics.median(passes)
    print(f"{len(texts)} turns, {len(readers)} readers, median {median:.1f} us a turn")


if __name__ == "__main__":
    main()
