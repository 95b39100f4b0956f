"""Round thirty-four (inject38; docs/safety.md, "Round thirty-four"): held-out 29's checks
(``scripts/injection_round34.py``), printing figures only.

``--cosine``: each of the fold's texts against every earlier text the project holds (the
set's earlier rows, the training rows (notes and attacks), both probes' halves and
attacks, the benign agent set, round thirty's wishes probe, round thirty-one's wishes set
and round thirty-three's acks36), fp32 MiniLM as the detector was fitted: the highest
cosine, the median of the rows' highest, the highest within the fold, and the rows at
0.85 or more (to be rewritten before the commit).

``--read``: the fold with the scan of the tree on ``PYTHONPATH`` (the rules, the learned
detector with its stated-value guard, and the wish guard, as ``Core._quarantine`` reads
them): English, overall, rules alone and notes flagged, per category. Held-out 29 is read
this way twice: once at base, once at the end.

Read at base (main's scan, fp32, 09:38 UTC, before any rule of the round was written;
counts only): English 58 of 80 (0.725), overall 63 of 88, rules alone 34, notes 0 of 50;
addressed 12 of 20, paraphrased overrides 9 of 18, exfiltration 11 of 14, concealment 10
of 10, direct overrides 6 of 6, markers 4 of 4, tool calls 4 of 4, character tricks 2 of
4, languages 2 of 4, encoded 1 of 2, split pairs 2 of 2. Read once at the end (10:04 UTC,
the rules fixed and committed): English 67 of 80 (0.8375), overall 72 of 88, rules alone
47, notes 0 of 50; addressed 13, paraphrased overrides 15, exfiltration 13, every other
category the same.

    PYTHONPATH=src python scripts/inject38_fold_check.py --cosine
    PYTHONPATH=src python scripts/inject38_fold_check.py --read [--fold held_out_29]
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
import fit_injection_round19 as r19  # noqa: E402  (the lists probe)
import fit_injection_round21 as r21  # noqa: E402  (the user-facts probe)
import fit_injection_round25 as r25  # noqa: E402  (the training rows)
import fit_injection_round30 as r30  # noqa: E402  (the embedder, the wishes probe)

from engram import injection_detector, safety, safety_wishes  # noqa: E402
from engram.bench import injection  # noqa: E402

ROOT = Path(__file__).resolve().parents[1] / "src/engram/data"
CACHE = Path("/tmp/inject38/vectors.npz")
FOLD = "held_out_29"


def earlier(bench: str, fold: str) -> list[str]:
    """Every earlier text (see the module), the fold's own left out."""
    mine = {x["text"] for x in injection.load_set() if x["split"] == fold}
    real = [t for _, t in injection.real_texts(bench)]
    training = r25.training(real)
    lists, facts = r19.lists(), r21.facts()
    agent = injection.agent_writes()
    texts = {x["text"] for x in injection.load_set()}
    texts |= set(training.notes) | {a if isinstance(a, str) else a[0] for a in training.attacks}
    for probe in (lists, facts):
        for v in probe.values():
            texts |= set(v)
    texts |= set(agent["tune"]) | set(agent["check"]) | set(r30.WISHES)
    texts |= {r["text"] for r in json.loads((ROOT / "wishes31.json").read_text("utf-8"))}
    texts |= {r["text"] for r in json.loads((ROOT / "acks36.json").read_text("utf-8"))}
    return sorted(texts - mine)


def cosine(bench: str, fold: str) -> None:
    embed = r30.fp32_embed(CACHE)
    new = [x["text"] for x in injection.load_set() if x["split"] == fold]
    old = earlier(bench, fold)
    a = embed(new)
    b = embed(old)
    a = a / np.linalg.norm(a, axis=1, keepdims=True)
    b = b / np.linalg.norm(b, axis=1, keepdims=True)
    best = (a @ b.T).max(axis=1)
    within = a @ a.T
    np.fill_diagonal(within, -1.0)
    print(f"{len(new)} new texts against {len(old)} distinct earlier texts")
    print(f"highest {best.max():.3f}, median of the rows' highest {np.median(best):.3f}")
    print(f"highest within the fold {within.max():.3f}")
    for i in np.argsort(-best)[:5]:
        print(f"  {best[i]:.3f} {new[i][:90]!r}")


def flagged(found: injection_detector.Detector, texts: list[str]) -> dict[str, bool]:
    """The verdict a write meets: the rules, else the detector unless the wish guard
    passes it (``Core._quarantine``)."""
    embed = r30.fp32_embed(CACHE)
    reasons = found.reasons(embed(texts), texts, embed)
    return {
        t: bool(safety.scan(t)) or (r is not None and not safety_wishes.wish(t))
        for t, r in zip(texts, reasons, strict=True)
    }


def read(fold: str) -> None:
    found = injection_detector.shipped()
    assert found is not None
    rows = [x for x in injection.load_set() if x["split"] == fold]
    verdict = flagged(found, [x["text"] for x in rows])
    cats: dict[str, list[int]] = {}
    alone = 0
    attacks = [x for x in rows if not x.get("benign")]
    for row, texts in injection._units(attacks):
        c = cats.setdefault(str(row["category"]), [0, 0])
        c[0] += any(verdict[t] for t in texts)
        c[1] += 1
        alone += row["category"] in injection.ENGLISH and any(safety.scan(t) for t in texts)
    english = [v for k, v in cats.items() if k in injection.ENGLISH]
    notes = sum(verdict[x["text"]] for x in rows if x.get("benign"))
    print(
        f"{fold}: English {sum(v[0] for v in english)} of {sum(v[1] for v in english)}, "
        f"overall {sum(v[0] for v in cats.values())} of {sum(v[1] for v in cats.values())}, "
        f"rules alone {alone}, notes {notes} of {sum(1 for x in rows if x.get('benign'))}"
    )
    print(dict(sorted(cats.items())))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", default="../shared/bench")
    parser.add_argument("--fold", default=FOLD)
    parser.add_argument("--cosine", action="store_true")
    parser.add_argument("--read", action="store_true")
    args = parser.parse_args()
    CACHE.parent.mkdir(parents=True, exist_ok=True)
    if args.cosine:
        cosine(args.data, args.fold)
    if args.read:
        read(args.fold)


if __name__ == "__main__":
    main()
