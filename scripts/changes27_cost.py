"""Round nine's add cost, read closer than a whole ``mem.add``: the change readers a
write runs on its text (``change_signals.read``, ``change_firsts.firsts`` and
``cued``), timed over every LoCoMo dev turn ("Speaker: text"). Run once per side with
its source on the ``PYTHONPATH``, the sides alternating; prints the median of 5 passes
in microseconds a turn."""

from __future__ import annotations

import json
import statistics
import sys
import time

from engram.pipeline import change_firsts, change_signals


def turns(path: str) -> list[str]:
    """Every LoCoMo dev turn at ``path`` as "Speaker: text" (round eleven's script too)."""
    with open(path, encoding="utf-8") as f:
        data = json.load(f)
    texts = []
    for conv in data:
        chat, n = conv["conversation"], 1
        while f"session_{n}" in chat:
            texts += [f"{t['speaker']}: {t['text']}" for t in chat[f"session_{n}"]]
            n += 1
    return texts


def main() -> None:
    texts = turns(sys.argv[1])
    passes = []
    for _ in range(5):
        start = time.perf_counter()
        for text in texts:
            change_signals.read(text)
            change_firsts.firsts(text)
            change_firsts.cued(text)
        passes.append((time.perf_counter() - start) / len(texts) * 1e6)
    print(f"{len(texts)} turns, median {statistics.median(passes):.1f} us a turn")


if __name__ == "__main__":
    main()
