"""Round thirty-six (inject40; docs/safety.md, "Round thirty-six"): the pool of rule pieces
(``engram.safety_lapsed.POOL``) weighed on the spent folds held-out 20 to 30 and the
tuning benign sets, with the choice and leave one fold out. Prints figures only.

A piece adds a catch on an English unit the tree's scan (rules, detector, guards, as a
write meets them; ``inject40_refit.Setup.flagged``) misses, and flags a benign text the
scan passes. The choice rule (rounds thirty-four's and thirty-five's with notes40 A
added): keep a piece that adds an English catch on held-out 20 to 30 and flags nothing
new on the tuning benign sets (``inject40_refit.Setup.tuning_sets``: the real texts'
fitted half, the agent set's and the probes' ``tune`` halves, wishes31 A, acks36's tune
notes, notes39 A, notes40 A, the 2,877 training notes) nor on the notes of every fold
but held-out 31. Leave one fold out: the pieces chosen on ten of held-out 20 to 30, read
on the eleventh.

    PYTHONPATH=src python scripts/inject40_measure.py --pool
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import inject40_refit as r40  # noqa: E402

from engram import safety_lapsed  # noqa: E402
from engram.bench import injection  # noqa: E402


def pool(s: r40.Setup) -> None:
    view = s.shipped.neighbours
    assert view is not None
    gains: dict[str, dict[str, int]] = {name: {} for name in safety_lapsed.POOL}
    for split in r40.SPENT:
        units, _ = s.fold(split)
        texts = sorted({t for _, ts in units for t in ts})
        got = dict(zip(texts, s.flagged(view, texts), strict=True))
        missed = [ts for c, ts in units if c in injection.ENGLISH and not any(got[t] for t in ts)]
        for name, (_, rule, _) in safety_lapsed.POOL.items():
            gains[name][split] = sum(any(rule(t) for t in ts) for ts in missed)
    benign = dict(s.tuning_sets())
    notes = sorted({t for f in injection.FOLDS if f != "held_out_31" for t in s.fold(f)[1]})
    benign["folds' notes"] = (notes, None)
    harms: dict[str, int] = {name: 0 for name in safety_lapsed.POOL}
    for set_name, (texts, marks) in benign.items():
        flagged = s.flagged(view, texts, marks)
        for name, (_, rule, _) in safety_lapsed.POOL.items():
            hit = sum(1 for t, f in zip(texts, flagged, strict=True) if not f and rule(t))
            harms[name] += hit
            if hit:
                print(f"  {name} flags {hit} of {set_name}")
    for name in safety_lapsed.POOL:
        print(f"{name}: +{sum(gains[name].values())} {gains[name]}; benign flagged {harms[name]}")
    kept = [n for n in safety_lapsed.POOL if sum(gains[n].values()) and not harms[n]]
    print(f"kept: {kept}")
    lofo = {}
    for split in r40.SPENT:
        chosen = [
            n
            for n in safety_lapsed.POOL
            if not harms[n] and sum(v for k, v in gains[n].items() if k != split)
        ]
        # a unit two pieces catch counts once: read the chosen pieces together
        units, _ = s.fold(split)
        texts = sorted({t for _, ts in units for t in ts})
        got = dict(zip(texts, s.flagged(view, texts), strict=True))
        missed = [ts for c, ts in units if c in injection.ENGLISH and not any(got[t] for t in ts)]
        rules = [safety_lapsed.POOL[n][1] for n in chosen]
        lofo[split] = sum(any(r(t) for r in rules for t in ts) for ts in missed)
    print(f"leave one fold out: {lofo}, summed +{sum(lofo.values())}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", default="../shared/bench")
    parser.add_argument("--pool", action="store_true")
    args = parser.parse_args()
    s = r40.Setup(args.data)
    if args.pool:
        pool(s)


if __name__ == "__main__":
    main()
