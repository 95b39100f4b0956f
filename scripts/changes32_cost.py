"""Round fourteen's add cost (changes32): the closing plan's gate for the pair readers,
timed over every LoCoMo dev turn ("Speaker: text"). The base asks
``change_named.stated_change``; the branch asks ``change_pairs.stated``, which reads a
swap (``change_swap.swap``) when no word of change is said. Both gates run in one
process on the same turns, the order alternating; prints each side's median of 5 passes
in microseconds a turn and their ratio, and how many turns pass each gate.

Usage: PYTHONPATH=src python scripts/changes32_cost.py locomo_dev.json
"""

from __future__ import annotations

import json
import statistics
import sys
import time
from collections.abc import Callable

from engram.pipeline import change_named, change_pairs


def _turns(path: str) -> list[str]:
    with open(path, encoding="utf-8") as f:
        data = json.load(f)
    out: list[str] = []
    for conv in data:
        chat = conv["conversation"]
        n = 1
        while f"session_{n}" in chat:
            out += [f"{t['speaker']}: {t['text']}" for t in chat[f"session_{n}"]]
            n += 1
    return out


def _pass(gate: Callable[[str], bool], turns: list[str]) -> float:
    start = time.perf_counter()
    for text in turns:
        gate(text)
    return (time.perf_counter() - start) / len(turns) * 1e6


def main() -> None:
    turns = _turns(sys.argv[1])
    gates: dict[str, Callable[[str], bool]] = {
        "base": lambda t: change_named.stated_change(t) is not None,
        "branch": change_pairs.stated,
    }
    times: dict[str, list[float]] = {name: [] for name in gates}
    for n in range(5):
        for name in sorted(gates, reverse=n % 2 == 1):
            times[name].append(_pass(gates[name], turns))
    base, branch = (statistics.median(times[k]) for k in ("base", "branch"))
    passed = {k: sum(1 for t in turns if g(t)) for k, g in gates.items()}
    print(f"{len(turns)} turns; base {base:.1f} us, branch {branch:.1f} us a turn, "
          f"ratio {branch / base:.2f}; passing the gate: {passed}")  # fmt: skip


if __name__ == "__main__":
    main()
