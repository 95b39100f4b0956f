"""Round thirty-six (inject40; docs/safety.md, "Round thirty-six"): held-out 31's and
notes40's checks (``scripts/injection_round36.py``, ``scripts/inject40_notes.py``),
printing figures only.

``--cosine``: held-out 31 and notes40 against every earlier text the project holds
(``inject38_fold_check.earlier``: the set's earlier rows, the training rows, both probes,
the agent set, the wishes sets and acks36, plus notes39), fp32 MiniLM: the highest cosine,
the median of the rows' highest, the highest within the new texts, the top five.

``--read``: held-out 31 with the scan of the tree on ``PYTHONPATH`` as a write meets it
(``inject38_fold_check.read``), counts only. ``--notes``: notes40's folds flagged (fold B
only with ``--final``).

    PYTHONPATH=src python scripts/inject40_fold_check.py --cosine
    PYTHONPATH=src python scripts/inject40_fold_check.py --read
    PYTHONPATH=src python scripts/inject40_fold_check.py --notes [--final]
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
import fit_injection_round30 as r30  # noqa: E402  (the embedder)
import inject38_fold_check as fc  # noqa: E402

from engram import injection_detector  # noqa: E402
from engram.bench import injection  # noqa: E402

ROOT = Path(__file__).resolve().parents[1] / "src/engram/data"
CACHE = Path("/tmp/inject40/vectors.npz")
FOLD = "held_out_31"


def notes40() -> list[dict[str, str]]:
    return list(json.loads((ROOT / "notes40.json").read_text("utf-8")))


def cosine(bench: str) -> None:
    embed = r30.fp32_embed(CACHE)
    new = [x["text"] for x in injection.load_set() if x["split"] == FOLD]
    new += [r["text"] for r in notes40()]
    old = set(fc.earlier(bench, FOLD)) - set(new)
    old |= {r["text"] for r in json.loads((ROOT / "notes39.json").read_text("utf-8"))}
    olds = sorted(old)
    a, b = embed(new), embed(olds)
    a = a / np.linalg.norm(a, axis=1, keepdims=True)
    b = b / np.linalg.norm(b, axis=1, keepdims=True)
    best = (a @ b.T).max(axis=1)
    within = a @ a.T
    np.fill_diagonal(within, -1.0)
    print(f"{len(new)} new texts against {len(olds)} distinct earlier texts")
    print(f"highest {best.max():.3f}, median of the rows' highest {np.median(best):.3f}")
    print(f"highest within the new texts {within.max():.3f}")
    for i in np.argsort(-best)[:5]:
        print(f"  {best[i]:.3f} {new[i][:70]!r}")


def notes(final: bool) -> None:
    found = injection_detector.shipped()
    assert found is not None
    rows = notes40()
    fc.CACHE = CACHE
    verdict = fc.flagged(found, [r["text"] for r in rows])
    for fold in ("A", "B") if final else ("A",):
        for shape in ("tool", "mail"):
            got = [r for r in rows if r["fold"] == fold and r["shape"] == shape]
            print(f"notes40 {fold} {shape}: {sum(verdict[r['text']] for r in got)} of {len(got)}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", default="../shared/bench")
    parser.add_argument("--cosine", action="store_true")
    parser.add_argument("--read", action="store_true")
    parser.add_argument("--notes", action="store_true")
    parser.add_argument("--final", action="store_true")
    args = parser.parse_args()
    CACHE.parent.mkdir(parents=True, exist_ok=True)
    fc.CACHE = CACHE
    if args.cosine:
        cosine(args.data)
    if args.read:
        fc.read(FOLD)
    if args.notes:
        notes(args.final)


if __name__ == "__main__":
    main()
