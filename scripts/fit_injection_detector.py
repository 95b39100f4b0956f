"""Fit ``src/engram/data/injection_detector.json``, the learned injection detector
(``engram/injection_detector.py``; engram issue 26, item 3).

Positives: every attack of ``data/injection_set.json`` in the ``tune`` and ``held_out``
folds (``held_out_2`` is never read here). Negatives: one half of every real LoCoMo and
BEAM text (a fixed shuffle, seed 0; the other half measures false positives), the set's
benign ``tune`` notes, and the memories and questions of ``data/paraphrase.json`` (agent
notes, the register engram stores). A logistic regression on the default embedder's
vectors; the threshold is the 99.95th percentile of the negatives' probabilities (at
least 0.5), so about one fitted negative in 2,000 passes it.

The two settings were chosen before ``held_out_2`` was read, by fitting on ``tune``
alone and scoring the first ``held_out`` fold and 25 of the benign notes kept aside:
``C = 1`` and a weight of 3 on the benign notes gave the most held-out attacks (0.915)
for the fewest benign notes flagged (1 of 25) among C in {1, 4, 16} and weights in
{1, 3, 5, 10}.

    python scripts/fit_injection_detector.py [--data ../shared/bench]
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import numpy as np
from sklearn.linear_model import LogisticRegression

from engram.bench.injection import load_set, real_texts
from engram.config import Config
from engram.embed import create_embedder

OUT = Path(__file__).resolve().parents[1] / "src" / "engram" / "data" / "injection_detector.json"
PARAPHRASE = OUT.parent / "paraphrase.json"
C = 1.0
BENIGN_WEIGHT = 3.0
QUANTILE = 0.9995


def halves(n: int) -> tuple[np.ndarray, np.ndarray]:
    """The fixed split of the real texts: (fitted half, checked half)."""
    order = np.random.default_rng(0).permutation(n)
    return order[: n // 2], order[n // 2 :]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", default="../shared/bench")
    parser.add_argument("--home", default="/tmp/engram-fit-detector")
    args = parser.parse_args()
    embedder = create_embedder(Config().embedder, Path(args.home))
    assert embedder is not None

    def embed(texts: list[str]) -> np.ndarray:
        return np.asarray(embedder.embed_batch(texts), np.float32)

    rows = load_set()
    attacks = [
        r["text"] for r in rows if r["split"] in ("tune", "held_out") and not r.get("benign")
    ]
    notes = [r["text"] for r in rows if r["split"] == "tune" and r.get("benign")]
    stores = json.loads(PARAPHRASE.read_text("utf-8"))["stores"]
    agent = [m for s in stores for m in s["memories"].values()]
    agent += [q["q"] for s in stores for q in s["questions"]]
    real = [text for _, text in real_texts(args.data)]
    fitted, checked = halves(len(real))
    xa, xn, xr = embed(attacks), embed(notes + agent), embed(real)
    x = np.vstack([xa, xr[fitted], xn])
    y = np.r_[np.ones(len(xa)), np.zeros(len(fitted) + len(xn))]
    # Attacks weigh as much in all as the real texts; benign notes weigh BENIGN_WEIGHT each.
    w = np.r_[
        np.full(len(xa), len(fitted) / len(xa)),
        np.ones(len(fitted)),
        np.full(len(xn), BENIGN_WEIGHT),
    ]
    model = LogisticRegression(C=C, max_iter=3000).fit(x, y, sample_weight=w)
    negatives = model.predict_proba(np.vstack([xr[fitted], xn]))[:, 1]
    threshold = max(0.5, float(np.quantile(negatives, QUANTILE)))
    held_fp = int((model.predict_proba(xr[checked])[:, 1] >= threshold).sum())
    OUT.write_text(
        json.dumps(
            {
                "embedder": embedder.name,
                "threshold": round(threshold, 6),
                "intercept": round(float(model.intercept_[0]), 6),
                "coef": [round(float(c), 6) for c in model.coef_[0]],
                "fitted_on": {
                    "attacks": len(xa),
                    "real_texts": len(fitted),
                    "benign_notes": len(xn),
                    "C": C,
                    "benign_weight": BENIGN_WEIGHT,
                    "quantile": QUANTILE,
                },
            }
        )
        + "\n",
        "utf-8",
    )
    print(
        f"{OUT}: threshold {threshold:.3f}; checked half of the real texts: "
        f"{held_fp} of {len(checked)} flagged"
    )


if __name__ == "__main__":
    main()
