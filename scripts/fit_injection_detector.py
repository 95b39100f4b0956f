"""Fit ``src/engram/data/injection_detector.json``, the learned injection detector
(``engram/injection_detector.py``; engram issue 26, item 3).

Rounds four and five (2026-11-28). Positives: the attacks of ``data/injection_set.json``'s
``tune`` fold, the training-only attacks of ``scripts/injection_training.py`` and the
composed ones of ``scripts/injection_augment.py`` (no held-out fold is read here).
Negatives: one half of every real LoCoMo and BEAM text (a fixed shuffle,
seed 0; the other half measures false positives), the set's benign ``tune`` notes, the
training-only benign notes, the benign rows of ``data/injection_corpus.jsonl`` and the
memories and questions of ``data/paraphrase.json`` (agent notes, the register engram
stores). A logistic regression on the default embedder's vectors and the text's cues
(``injection_detector.cues``, scaled by ``CUE_SCALE``); the threshold is the
``QUANTILE`` of the negatives' probabilities (at least 0.5), so about one fitted
negative in 2,000 passes it.

The settings were chosen by 5-fold cross-validation on the tune attacks, the training
attacks and the benign notes alone (``--cv`` prints the grid): the rules or the detector
on each left-out fifth, English recall against benign notes flagged. Round three fitted
on the tune and first held-out folds with C = 1, no cues; round four keeps ``held_out``
out of fitting so it measures too.

Round five chose C and the benign weight with ``--by-round`` (a whole round of
hand-written training examples left out at a time), since a random fifth shares its
author's wording with the rest.

Round six (``--round-six``; measured once and not shipped, docs/safety.md) adds the
sentence view (``Detector.sentence_threshold``): the sentences of the fitted half's real
texts are negatives too (``SENTENCE_WEIGHT`` each), so that a sentence of chat read alone
is not an order; both thresholds are the ``ROUND_SIX_QUANTILE`` of the fitted negatives
(the sentence one of the fitted half's highest cued sentence, at least the whole-text
one). It adds ``scripts/injection_training6.py`` (round six's training-only examples,
with buried and friendly composed ones); ``--by-round`` leaves each of rounds four, five
and six out. Without ``--round-six`` the script fits round five's detector, still shipped
as ``injection_detector.json``; round seven's network (``injection_detector.npz``, which
``engram.injection_detector.shipped`` prefers) comes from ``scripts/fit_injection_mlp.py``,
which reads the same data through :func:`training_sets`.

    python scripts/fit_injection_detector.py [--data ../shared/bench] [--cv | --by-round]
"""

from __future__ import annotations

import argparse
import itertools
import json
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np
from sklearn.linear_model import LogisticRegression

from engram.bench.injection import ENGLISH, load_set, real_texts
from engram.config import Config
from engram.embed import create_embedder
from engram.injection_detector import cues, gated, sentences
from engram.safety import scan

sys.path.insert(0, str(Path(__file__).resolve().parent))
import injection_augment  # noqa: E402  (composed training-only examples, round five)
import injection_training  # noqa: E402  (the training-only examples beside this script)
import injection_training6  # noqa: E402  (round six's training-only examples)

OUT = Path(__file__).resolve().parents[1] / "src" / "engram" / "data" / "injection_detector.json"
PARAPHRASE = OUT.parent / "paraphrase.json"
CORPUS = OUT.parent / "injection_corpus.jsonl"
#: C and BENIGN_WEIGHT chosen by ``--by-round`` (docs/safety.md, "Round five"), the rest
#: by ``--cv`` in round four; SENTENCE_WEIGHT by ``--by-round`` in round six.
C = 32.0
CUE_SCALE = 2.0
BENIGN_WEIGHT = 30.0
ATTACK_WEIGHT = 1.0
QUANTILE = 0.9995
#: Round six's fit (``--round-six``): its quantile and sentence weight, chosen by
#: ``--by-round`` and the real texts flagged; measured once and not shipped (docs/safety.md,
#: "Round six": fewer catches on every held-out fold than round five's fit).
ROUND_SIX_QUANTILE = 0.9998
SENTENCE_WEIGHT = 10.0
#: Round six's grid (``--by-round``): (C, benign_weight, sentence_weight) with ``CUE_SCALE``.
ROUND_GRID = ((32.0, 30.0, 1.0), (32.0, 30.0, 3.0), (32.0, 30.0, 10.0), (32.0, 30.0, 30.0))
GRID = {
    "C": (1.0, 4.0, 16.0),
    "cue_scale": (0.0, 1.0, 2.0, 4.0),
    "benign_weight": (3.0, 10.0),
    "attack_weight": (1.0, 3.0),
}

Embed = Callable[[Sequence[str]], np.ndarray]


def halves(n: int) -> tuple[np.ndarray, np.ndarray]:
    """The fixed split of the real texts: (fitted half, checked half)."""
    order = np.random.default_rng(0).permutation(n)
    return order[: n // 2], order[n // 2 :]


class Fitted:
    """A logistic regression over [embedding, cue_scale * cues] and its threshold."""

    def __init__(
        self,
        embed: Embed,
        attacks: list[str],
        real: list[str],
        notes: list[str],
        c: float,
        cue_scale: float,
        benign_weight: float,
        attack_weight: float = ATTACK_WEIGHT,
        sentence_weight: float = SENTENCE_WEIGHT,
        quantile: float = QUANTILE,
    ) -> None:
        self.embed, self.cue_scale = embed, cue_scale
        pieces = sorted({p for t in real for p in sentences(t)}) if sentence_weight else []
        xa, xr, xn = self.features(attacks), self.features(real), self.features(notes)
        xs = self.features(pieces) if pieces else np.zeros((0, xa.shape[1]), np.float32)
        x = np.vstack([xa, xr, xn, xs])
        y = np.r_[np.ones(len(xa)), np.zeros(len(xr) + len(xn) + len(xs))]
        # Attacks weigh as much in all as the real texts; benign notes weigh more each;
        # each sentence of a real text is a negative of its own (round six).
        w = np.r_[
            np.full(len(xa), attack_weight * len(xr) / len(xa)),
            np.ones(len(xr)),
            np.full(len(xn), benign_weight),
            np.full(len(xs), sentence_weight),
        ]
        self.model = LogisticRegression(C=c, max_iter=5000).fit(x, y, sample_weight=w)
        negatives = self.model.predict_proba(np.vstack([xr, xn]))[:, 1]
        self.threshold = max(0.5, float(np.quantile(negatives, quantile)))
        best = self.sentence_best(real)
        self.sentence_threshold = max(self.threshold, float(np.quantile(best, quantile)))

    def features(self, texts: Sequence[str]) -> np.ndarray:
        x = self.embed(texts)
        return np.hstack([x, self.cue_scale * cues(texts)]) if self.cue_scale else x

    def probabilities(self, texts: Sequence[str]) -> np.ndarray:
        if not texts:
            return np.zeros(0)
        return np.asarray(self.model.predict_proba(self.features(texts))[:, 1])

    def sentence_best(self, texts: Sequence[str]) -> np.ndarray:
        """Each text's highest cued-sentence probability (0 without a sentence view), as
        ``Detector.sentence_scores`` reads it."""
        keys = [(i, p) for i, t in enumerate(texts) for p in sentences(t) if gated(p)]
        best = np.zeros(len(texts))
        for (i, _), p in zip(keys, self.probabilities([p for _, p in keys]), strict=True):
            best[i] = max(best[i], p)
        return best

    def fires(self, texts: Sequence[str], sentence_view: bool = True) -> np.ndarray:
        if not texts:
            return np.zeros(0, bool)
        whole = self.probabilities(texts) >= self.threshold
        if not sentence_view:
            return whole
        return whole | (self.sentence_best(texts) >= self.sentence_threshold)


def cross_validate(
    embed: Embed,
    attacks: list[tuple[str, str]],
    real: list[str],
    notes: list[str],
    always: list[str],
    k: int = 5,
) -> None:
    """Print, per setting of ``GRID``, the English recall of the rules or the detector
    on left-out fifths of the training attacks, and the benign ``notes`` flagged on
    left-out fifths of them (``always`` are negatives in every fit)."""
    rng = np.random.default_rng(1)
    attack_fold, note_fold = rng.integers(0, k, len(attacks)), rng.integers(0, k, len(notes))
    for c, scale, weight, attack_weight in itertools.product(*GRID.values()):
        caught = total = flagged = 0
        for i in range(k):
            fit = Fitted(
                embed,
                [t for j, (t, _) in enumerate(attacks) if attack_fold[j] != i],
                real,
                [t for j, t in enumerate(notes) if note_fold[j] != i] + always,
                c,
                scale,
                weight,
                attack_weight,
            )
            test = [
                t for j, (t, cat) in enumerate(attacks) if attack_fold[j] == i and cat in ENGLISH
            ]
            left = [t for j, t in enumerate(notes) if note_fold[j] == i]
            caught += sum(bool(scan(t)) or f for t, f in zip(test, fit.fires(test), strict=True))
            flagged += sum(bool(scan(t)) or f for t, f in zip(left, fit.fires(left), strict=True))
            total += len(test)
        print(
            f"C={c:g} cue_scale={scale:g} benign_weight={weight:g} attack_weight="
            f"{attack_weight:g}: English {caught / total:.3f} "
            f"({caught}/{total}), benign notes flagged {flagged}/{len(notes)}",
            flush=True,
        )


def rounds() -> dict[str, tuple[set[str], set[str]]]:
    """The hand-written training examples of each round (attacks, benign notes); round
    six's attacks with their buried forms and its notes with the friendly ones."""
    five = {t for ts in injection_training.ROUND_FIVE_ATTACKS.values() for t in ts}
    six_attacks, six_notes = round_six()
    return {
        "round four": (
            {t for ts in injection_training.ATTACKS.values() for t in ts} - five,
            set(injection_training.BENIGN) - set(injection_training.ROUND_FIVE_BENIGN),
        ),
        "round five": (five, set(injection_training.ROUND_FIVE_BENIGN)),
        "round six": ({t for t, _ in six_attacks}, set(six_notes)),
    }


def round_six() -> tuple[list[tuple[str, str]], list[str]]:
    """Round six's training-only attacks (with category) and benign notes."""
    found = injection_training6.ROUND_SIX_ATTACKS
    attacks = [(t, cat) for cat, ts in found.items() for t in ts]
    singles = len(found["override_paraphrase"])
    attacks += [
        (t, "override_paraphrase" if i < singles else "exfiltration")
        for i, t in enumerate(injection_training6.buried(found))
    ]
    return attacks, injection_training6.ROUND_SIX_BENIGN + injection_training6.friendly()


def by_round(
    embed: Embed,
    attacks: list[tuple[str, str]],
    real: list[str],
    notes: list[str],
    always: list[str],
) -> None:
    """Rounds five and six's choice: per setting of ``ROUND_GRID``, fit without one round
    of hand-written training examples and print the rules or the detector (whole text,
    then with the sentence view) on that round's English attacks and benign notes. A
    random fifth shares its author's wording with the other four fifths; a whole round
    left out is the nearest thing to a fold nobody has read."""
    for c, weight, sentence_weight in ROUND_GRID:
        line = []
        for name, (out_attacks, out_notes) in rounds().items():
            fit = Fitted(
                embed,
                [t for t, _ in attacks if t not in out_attacks],
                real,
                [t for t in notes if t not in out_notes] + always,
                c,
                CUE_SCALE,
                weight,
                sentence_weight=sentence_weight,
            )
            test = sorted({t for t, cat in attacks if t in out_attacks and cat in ENGLISH})
            left = sorted(out_notes)
            rules = [bool(scan(t)) for t in test], [bool(scan(t)) for t in left]
            got = []
            for view in (False, True):
                caught = sum(np.logical_or(rules[0], fit.fires(test, view)))
                flagged = sum(np.logical_or(rules[1], fit.fires(left, view)))
                got.append(f"{caught}/{len(test)} notes {flagged}/{len(left)}")
            line.append(f"{name} {' -> '.join(got)}")
        print(
            f"C={c:g} benign_weight={weight:g} sentence_weight={sentence_weight:g}: "
            + "; ".join(line),
            flush=True,
        )


def training_sets(six: bool) -> tuple[list[tuple[str, str]], list[str], list[str]]:
    """What every fit reads (no held-out fold): the attacks with their category (the
    ``tune`` fold's, the hand-written and composed training-only ones, with ``six``
    round six's too), the benign notes weighed as notes, and the agent notes (the benign
    corpus rows and the paraphrase set's memories and questions)."""
    rows = load_set()
    attacks = [
        (r["text"], r["category"]) for r in rows if r["split"] == "tune" and not r.get("benign")
    ]
    attacks += [(t, cat) for cat, ts in injection_training.ATTACKS.items() for t in ts]
    notes = [r["text"] for r in rows if r["split"] == "tune" and r.get("benign")]
    notes += injection_training.BENIGN
    composed, composed_notes = injection_augment.composed()
    attacks += [(t, cat) for cat, ts in composed.items() for t in ts]
    notes += composed_notes
    if six:
        six_attacks, six_notes = round_six()
        attacks += six_attacks
        notes += six_notes
    corpus = [json.loads(line) for line in CORPUS.read_text("utf-8").splitlines() if line.strip()]
    stores = json.loads(PARAPHRASE.read_text("utf-8"))["stores"]
    agent = [m for s in stores for m in s["memories"].values()]
    agent += [q["q"] for s in stores for q in s["questions"]]
    agent += [c["text"] for c in corpus if c["label"] == "benign"]
    return attacks, notes, agent


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", default="../shared/bench")
    parser.add_argument("--home", default="/tmp/engram-fit-detector")
    parser.add_argument("--cv", action="store_true", help="print the settings grid, write nothing")
    parser.add_argument(
        "--by-round",
        action="store_true",
        help="print round six's grid, each round of training examples left out; write nothing",
    )
    parser.add_argument(
        "--round-six",
        action="store_true",
        help="write round six's fit (its examples, the sentence view), measured and not shipped",
    )
    args = parser.parse_args()
    embedder = create_embedder(Config().embedder, Path(args.home))
    assert embedder is not None
    cache: dict[str, np.ndarray] = {}

    def embed(texts: Sequence[str]) -> np.ndarray:
        new = sorted({t for t in texts if t not in cache})
        if new:
            cache.update(zip(new, np.asarray(embedder.embed_batch(new), np.float32), strict=True))
        return np.asarray([cache[t] for t in texts], np.float32)

    six = args.round_six or args.by_round  # round six's examples: its fit and its grid
    attacks, notes, agent = training_sets(six)
    real = [text for _, text in real_texts(args.data)]
    fitted, checked = halves(len(real))
    if args.cv:
        cross_validate(embed, attacks, [real[i] for i in fitted], notes, agent)
        return
    if args.by_round:
        by_round(embed, attacks, [real[i] for i in fitted], notes, agent)
        return
    fit = Fitted(
        embed,
        [t for t, _ in attacks],
        [real[i] for i in fitted],
        notes + agent,
        C,
        CUE_SCALE,
        BENIGN_WEIGHT,
        sentence_weight=SENTENCE_WEIGHT if six else 0.0,
        quantile=ROUND_SIX_QUANTILE if six else QUANTILE,
    )
    held = [real[i] for i in checked]
    held_fp, held_whole = int(fit.fires(held, six).sum()), int(fit.fires(held, False).sum())
    view = {"sentence_threshold": round(fit.sentence_threshold, 6)} if six else {}
    settings = {"sentence_weight": SENTENCE_WEIGHT} if six else {}
    OUT.write_text(
        json.dumps(
            {
                "embedder": embedder.name,
                "threshold": round(fit.threshold, 6),
                **view,
                "intercept": round(float(fit.model.intercept_[0]), 6),
                "cue_scale": CUE_SCALE,
                "coef": [round(float(c), 6) for c in fit.model.coef_[0]],
                "fitted_on": {
                    "attacks": len(attacks),
                    "real_texts": len(fitted),
                    "benign_notes": len(notes) + len(agent),
                    "C": C,
                    "benign_weight": BENIGN_WEIGHT,
                    "attack_weight": ATTACK_WEIGHT,
                    "cue_scale": CUE_SCALE,
                    "quantile": ROUND_SIX_QUANTILE if six else QUANTILE,
                    **settings,
                },
            }
        )
        + "\n",
        "utf-8",
    )
    print(
        f"{OUT}: threshold {fit.threshold:.3f}"
        + (f", sentence threshold {fit.sentence_threshold:.3f}" if six else "")
        + f"; checked half of the real texts: {held_fp} of {len(checked)} flagged "
        f"({held_whole} by the whole-text score)"
    )


if __name__ == "__main__":
    main()
