"""One check that a scan's cost grows linearly with its input (the injection scan's tests).

Timed by the calling thread's CPU time (``time.thread_time``), not the wall clock: in CI
at load 14 the larger of two texts took 67 times the smaller on the wall clock (session
thirty-five) though the scan is linear (twice the text, twice the time, quietly); a
thread's CPU time does not count the time it waited for a core. The two sizes take turns
and the fastest of ``runs`` counts, so a stall slows one run of each, not every run of one.
"""

from __future__ import annotations

import time
from collections.abc import Callable


def growth(
    work: Callable[[str], object], small: str, large: str, *, runs: int = 3
) -> tuple[float, float]:
    """The fastest CPU seconds of ``work`` on ``small`` and on ``large``."""
    best = [float("inf"), float("inf")]
    for _ in range(runs):
        for i, text in enumerate((small, large)):
            start = time.thread_time()
            work(text)
            best[i] = min(best[i], time.thread_time() - start)
    return best[0], best[1]
