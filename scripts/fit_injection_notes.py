"""Round eleven of the learned injection detector (engram issue 26, item 3; docs/safety.md,
"Round eleven"): round ten's fit with the benign hand-written notes weighed more, a
threshold per kind of negative, and round eleven's training examples.

Why: round ten's fit (256 units, the real-text negatives weighed 3 each, 160 epochs;
``fit_injection_threshold.py --write``) caught more on every held-out fold and flagged 1
real text instead of 6, but 15 benign held-out notes over held-out 2 to 9 against the
shipped detector's 13, so it did not ship. Weighing the real texts 3 each halved the
notes' share of the negatives; here the notes (hand-written, composed and agent notes,
30 each in round ten) weigh 2, 3 or 5 times as much, and the threshold may also be
read per kind of negative:

- ``fitted q``, ``real q``: as in round ten (the fitted real texts and notes together;
  the fitted real texts alone);
- ``both q``: the higher of the fitted real texts' 0.9995 quantile and the fitted
  notes' ``q`` quantile (a threshold per kind of negative);
- ``fixed t``: the threshold ``t`` itself.

Every threshold is at least 0.5. ``GRID`` holds the fits, each read at 100, 130 and 160
epochs and with every threshold in ``THRESHOLDS``: the notes weighed x2, x3 and x5
(``notes x2`` ...), the same at x3 with round eleven's training examples
(``scripts/injection_training11.py``; ``notes x3 + r11``), and round ten's fit as the
baseline (``real x3``).

The rule, fixed and committed before the grid ran: the most English catches summed over
the five left-out rounds (four, five, six, eight, nine; ``--by-round``), over every fit,
epoch count and threshold above, subject to
(a) the left-out rounds' benign notes flagged, summed, at most 16 (round ten's chosen
    fit flagged 18 there, and 2 more benign held-out notes than the shipped detector);
(b) a fit on everything (``--real``) flagging at most 6 of the 8,288 real texts and at
    most 3 of the checked half (the half no fit reads);
(c) a shipped file of at most 512 KB (every fit here is 401 x 256 in float16: 196 KB).
Ties go to fewer left-out notes, then fewer real texts, then fewer epochs, then the fit
without round eleven's examples. Run in this order, two at a time, for time: ``notes
x2`` with ``notes x3``, then ``notes x5`` with ``notes x3 + r11``, then ``real x3``;
docs/safety.md says which ran. Not run, for time: the lexical view (a hashed n-gram
linear model beside the network, brief lever b).

Ran (load 7-13): ``notes x2`` and ``notes x3``; at 15:19 UTC, before their last two
left-out rounds were seen, the grid was stopped after them for time (``notes x5``,
``notes x3 + r11`` and ``real x3`` did not run). Within the rule: ``notes x2`` at 130
epochs, 95 / 125 / 59 / 123 / 71 = 473 catches, 16 notes, 2 real texts (2 checked);
at 160 epochs 479 but 17 notes; ``notes x3`` at 160 epochs 467, 14 notes, 3 real.
Round ten's fit (notes x1) caught 487 with 18 notes; round eight's shipped setting 475
with 22 (docs/safety.md, "Round eleven", every cell). Read once after the choice: 76
of held-out 10's 96 English attacks, as round eight's network; 2 real texts against 6;
benign notes 4 against 6 on held-out 10 and 16 against 19 over held-out 2 to 10: by the
ship rule it **ships** (``src/engram/data/injection_detector.npz``, ``--write``).

The ship rule, fixed and committed before held-out 9 and 10 are read (each once, with
``fit_injection_window.py --read``, side by side with the shipped detector on the same
cached embeddings): the chosen fit ships if its English catches on held-out 10 are at
least the shipped detector's, it flags at most 6 of the 8,288 real texts, and it flags
no more benign notes than the shipped detector on held-out 10 and summed over held-out
2 to 10. If no setting meets the rule above, nothing is read against a candidate and
the shipped detector stays.

    python scripts/fit_injection_notes.py [--data ../shared/bench] [--by-round]
        [--real] [--round NAME] [--only A|B] [--write PATH]
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path

import numpy as np

from engram.bench.injection import real_texts
from engram.config import Config
from engram.embed import create_embedder

sys.path.insert(0, str(Path(__file__).resolve().parent))
import fit_injection_mlp as mlp  # noqa: E402  (round eight's network, data and harness)
import fit_injection_threshold as threshold  # noqa: E402  (round ten's fit and thresholds)
import fit_injection_window as window  # noqa: E402  (round nine's data)
import injection_training11  # noqa: E402  (round eleven's training-only examples)

_X3 = threshold.GRID["h256 real x3"]
#: Round eleven's fits (``benign_weight`` is round ten's 30 times 2, 3 or 5).
GRID: dict[str, dict[str, float]] = {
    "notes x2": {**_X3, "benign_weight": 60.0},
    "notes x3": {**_X3, "benign_weight": 90.0},
    "notes x5": {**_X3, "benign_weight": 150.0},
    "notes x3 + r11": {**_X3, "benign_weight": 90.0, "r11": 1},
    "real x3": _X3,
}
#: (kind, value), as the docstring says.
THRESHOLDS: tuple[tuple[str, float], ...] = (
    ("fitted", 0.9995),
    ("fitted", 0.9998),
    ("real", 0.9998),
    ("both", 0.99),
    ("both", 0.995),
    ("fixed", 0.6),
    ("fixed", 0.7),
)
#: What ``--write`` fits: (setting, epochs, kind, value), chosen by the rule above from
#: ``notes x2`` and ``notes x3`` (the two that ran): 473 catches, 16 left-out notes, 2 real
#: texts (2 of the checked half); every threshold read at 130 epochs sits at the 0.5
#: floor and gives the same figures, so the first listed.
CHOSEN: tuple[str, int, str, float] | None = ("notes x2", 130, "fitted", 0.9995)


class Fit(threshold.Fit):
    """Round ten's fit with a threshold per kind of negative and a fixed one."""

    _notes_scores: list[np.ndarray] | None = None

    def rescore(self) -> None:
        self._notes_scores = None

    def notes_scores(self, index: int) -> np.ndarray:
        """The fitted notes' scores at the ``index``-th epoch count (the negatives after
        the fitted real texts)."""
        if self._notes_scores is None:
            self._notes_scores = self.scores(self.negatives[len(self.real) :], 0)
        return self._notes_scores[index]

    def threshold(
        self, kind: str, value: float, index: int, among: np.ndarray | None = None
    ) -> float:
        if kind == "fixed":
            return value
        if kind == "both":
            real = super().threshold("real", 0.9995, index)
            return max(real, float(np.quantile(self.notes_scores(index), value)))
        return super().threshold(kind, value, index, among)


Examples = Callable[[], tuple[list[tuple[str, str]], list[str]]]


def examples(attacks: dict[str, list[str]], benign: list[str]) -> Examples:
    """A training module's examples (attacks by category, benign notes) as ``Examples``."""

    def everything() -> tuple[list[tuple[str, str]], list[str]]:
        return [(t, cat) for cat, ts in attacks.items() for t in ts], list(benign)

    return everything


#: Round eleven's training-only examples.
ELEVEN = examples(
    injection_training11.ROUND_ELEVEN_ATTACKS, injection_training11.ROUND_ELEVEN_BENIGN
)


def unnamed(s: dict[str, float], flag: str, everything: Examples) -> tuple[set[str], set[str]]:
    """A round's training-only examples (``everything``) when setting ``s`` does not
    name them (``flag``): left out."""
    if s.get(flag):
        return set(), set()
    attacks, kept = everything()
    return {t for t, _ in attacks}, set(kept)


Drop = Callable[[dict[str, float]], tuple[set[str], set[str]]]


def adding(drop: Drop, flag: str, everything: Examples) -> Drop:
    """What a setting leaves out once a round's examples (``everything``) join the
    training data: what ``drop`` leaves out, and those examples unless it names ``flag``."""

    def dropped(s: dict[str, float]) -> tuple[set[str], set[str]]:
        attacks, kept = drop(s)
        more_attacks, more_notes = unnamed(s, flag, everything)
        return attacks | more_attacks, kept | more_notes

    return dropped


def with_examples(t: mlp.Training, everything: Examples) -> mlp.Training:
    """``t`` with a round's training-only examples added (the settings decide which)."""
    attacks, more = everything()
    return mlp.Training(t.attacks + attacks, t.real_all, t.fitted, t.notes + more, t.agent)


def dropped(s: dict[str, float]) -> tuple[set[str], set[str]]:
    """What setting ``s`` leaves out: round ten's rule, and round eleven's examples unless
    ``r11`` is set."""
    attacks, notes = threshold.dropped(s)
    eleven_attacks, eleven_notes = unnamed(s, "r11", ELEVEN)
    return attacks | eleven_attacks, notes | eleven_notes


def training(real_all: list[str]) -> mlp.Training:
    """Round ten's training data and round eleven's examples (``dropped`` decides)."""
    return with_examples(window.training(real_all), ELEVEN)


def main() -> None:
    args = window.grid_parser(__doc__ or "", "round11-vectors.npz").parse_args()
    embedder = create_embedder(Config().embedder, Path(args.home))
    real_all = [text for _, text in real_texts(args.data)]
    data = mlp.Data(embedder, Path(args.cache))
    t = training(real_all)
    real = [real_all[i] for i in t.fitted]
    picked = args.only.split("|") if args.only else list(GRID)
    if args.write:
        threshold.write(data, t, embedder.name, Path(args.write), CHOSEN, GRID, dropped, Fit)
    if args.by_round:
        threshold.by_round(
            data, t.attacks, real, t.notes, t.agent, real_all, picked, args.round,
            GRID, dropped, Fit, THRESHOLDS,
        )  # fmt: skip
    if args.real:
        threshold.real_flagged(data, t, picked, GRID, dropped, Fit, THRESHOLDS)


if __name__ == "__main__":
    main()
