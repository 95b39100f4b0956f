"""Round ten of the learned injection detector (engram issue 26, item 3; docs/safety.md,
"Round ten"): round nine's training examples kept, and the false-positive limit held by
how the threshold is set rather than by dropping data.

Why: round nine's examples add catches on left-out rounds (475 -> 487), but the new
chat-register benign notes pull the threshold, a quantile of *all* fitted negatives
(the fitted half of the real texts and the benign notes together), down from 0.599 to
0.532, and a fit on everything flags 8 of the 8,288 real LoCoMo and BEAM texts (the
limit is 6). The benign notes are hard negatives weighed 30 each; letting them set the
threshold mixes two kinds of negatives. Here the threshold comes from the real texts
alone, and the benign notes are a separate constraint (left-out notes flagged):

- ``fitted q``: round nine's rule, the ``q`` quantile of the fitted real texts and the
  notes (for comparison);
- ``real q``: the ``q`` quantile of the fitted half's real texts only;
- ``cap k``: the lowest threshold at which at most ``k`` of the 8,288 real texts score
  at or above it (calibrated on every real text, the checked half too: the limit then
  holds by construction, so its out-of-sample check is ``--real``'s quarter split:
  calibrated on the real texts without one quarter of the checked half, at most
  ``round(k * 6216 / 8288)`` of them flagged, and counted on that quarter).

Every threshold is at least 0.5. ``GRID`` holds the fits (each read with every
threshold and at 100, 130 and 160 epochs): round nine's data with round eight's 256-unit
network (``h256``), round eight's data the same way (``h256 round-eight data``, the
baseline for the notes), two seeds of 128 units averaged (``h128 2 seeds``, one network
of 256 units, the same file size) and the real-text negatives weighed 3 each (``h256
real x3``).

The rule, fixed before the grid ran: the most English catches summed over the five
left-out rounds (four, five, six, eight, nine; ``--by-round``), over every epoch count
and threshold above, subject to
(a) the left-out rounds' benign notes flagged, summed, at most 22 (round eight's setting
    on round eight's data in round nine's grid; if ``h256 round-eight data`` runs here,
    at most its figure at 130 epochs and ``fitted 0.9995``);
(b) a fit on everything (``--real``) flagging at most 6 of the 8,288 real texts; for a
    quantile threshold also at most 3 of the checked half (round nine's rule); for a
    ``cap`` threshold, at most 2 of the quarter split's held-back 2,072 texts (0.1%);
(c) a file of at most 256 KB (every setting here is 401 x 256 in float16: 196 KB).
Ties go to fewer left-out notes flagged, then fewer real texts, then a quantile
threshold before a cap, then the single network. Run in this order, for time: ``h256``,
``h256 round-eight data``, ``h128 2 seeds``, ``h256 real x3`` (docs/safety.md says which
ran). The ship rule, fixed before held-out 9 is read: the chosen fit ships if its
English catches on held-out 9 are at least round eight's detector's, it flags at most 6
real texts, and no more benign held-out notes than round eight's on held-out 9 and
summed over held-out 2 to 9.

Measured (docs/safety.md, "Round ten"; every setting ran, load 4-10): with round nine's
data the threshold taken from the real texts alone adds nothing over round nine's rule
at the real-text limit (130 epochs, ``real 0.9998``: 475 catches, 16 notes, 3 real
texts), and a cap fails its quarter check at 130 and 160 epochs (3 of 2,072): the texts
that break the limit are in the half the fit never saw, so no threshold read off the
fitted half finds them. Two seeds of 128 units reach 483 (``cap 4``, 19 notes, 4 real,
1 of the quarter). Weighing the real-text negatives 3 each moves the real texts' scores
down instead: every threshold falls to its 0.5 floor, and at 160 epochs it catches 487
with 18 notes and 1 real text flagged (1 of the checked half): chosen (``CHOSEN``).
Read once after the choice (``fit_injection_window.py --read``): 84 of held-out 9's 98
English attacks against round eight's 80, 1 real text against 6, 5 of its 42 benign
notes as round eight, but 15 benign notes summed over held-out 2 to 9 against round
eight's 13 (one more on held-out 4 and on held-out 8): by the ship rule it does **not**
ship, and round eight's ``injection_detector.npz`` stays. ``--write`` reproduces it.

    python scripts/fit_injection_threshold.py [--data ../shared/bench] [--by-round]
        [--real] [--round NAME] [--only A|B] [--write PATH]
"""

from __future__ import annotations

import itertools
import sys
from collections.abc import Callable
from pathlib import Path

import numpy as np

from engram.bench.injection import real_texts
from engram.config import Config
from engram.embed import create_embedder
from engram.safety import scan

sys.path.insert(0, str(Path(__file__).resolve().parent))
import fit_injection_mlp as mlp  # noqa: E402  (round eight's network, data and harness)
import fit_injection_window as window  # noqa: E402  (round nine's data and fit)

_H256 = {**mlp._MLP, "hidden": 256}
#: Round ten's fits, each read with every threshold in ``THRESHOLDS`` and ``EPOCHS``.
GRID: dict[str, dict[str, float]] = {
    "h256": _H256,
    "h256 round-eight data": {**_H256, "r9": 0},
    "h128 2 seeds": {**mlp._MLP, "hidden": 128, "seeds": 2},
    "h256 real x3": {**_H256, "real_weight": 3.0},
}
EPOCHS = window.EPOCHS
#: What ``--write`` fits and how its threshold is set: (setting, epochs, kind, value),
#: chosen by the rule above from ``--by-round`` and ``--real`` (docs/safety.md); none
#: until the grid has run.
CHOSEN: tuple[str, int, str, float] | None = ("h256 real x3", 160, "fitted", 0.9995)
#: (kind, value): a quantile of the fitted negatives (``fitted``), of the fitted real
#: texts only (``real``), or the most real texts of all 8,288 at or above it (``cap``).
THRESHOLDS: tuple[tuple[str, float], ...] = (
    ("fitted", 0.9995),
    ("fitted", 0.9998),
    ("real", 0.9995),
    ("real", 0.9998),
    ("real", 0.9999),
    ("cap", 6),
    ("cap", 4),
)
#: The real texts of all: LoCoMo and BEAM dev, 8,288 (``engram bench injection``).
REAL_TOTAL = 8288


def dropped(s: dict[str, float]) -> tuple[set[str], set[str]]:
    """The training attacks and notes setting ``s`` leaves out (rounds eight's and nine's
    examples when ``r8`` or ``r9`` is 0)."""
    return window.without(s)[0] | mlp.without(s)[0], window.without(s)[1] | mlp.without(s)[1]


class Fit(window.Fit):
    """Round nine's fit (whole text only; ``real_weight`` weighs the real-text negatives,
    ``fit_injection_mlp.design``) with round ten's thresholds."""

    def __init__(
        self,
        data: mlp.Data,
        s: dict[str, float],
        attacks: list[str],
        real: list[str],
        notes: list[str],
        real_all: list[str],
    ) -> None:
        super().__init__(data, s, attacks, real, notes)
        self.real = real
        self.real_all_scores = self.scores(real_all, 0)
        self.fitted_scores = self.scores(real, 0)

    def rescore(self) -> None:
        """Score again what the thresholds are read off, after the weights changed
        (``write`` rounds them to float16); a subclass adds its own negatives."""

    def threshold(
        self, kind: str, value: float, index: int, among: np.ndarray | None = None
    ) -> float:
        """The threshold of kind ``kind`` at the ``index``-th epoch count; a ``cap``
        counts among the real texts ``among`` selects (all of them by default)."""
        if kind == "fitted":
            return self.thresholds(0, value)[index]
        if kind == "real":
            return max(0.5, float(np.quantile(self.fitted_scores[index], value)))
        scores = self.real_all_scores[index]
        if among is not None:
            scores = scores[among]
        cap = int(value)
        top = np.sort(scores)[::-1]
        # Just above the (cap + 1)-th highest score: at most ``cap`` reach it.
        return max(0.5, float(np.nextafter(top[cap], 1.0)) if len(top) > cap else 0.5)


def by_round(
    data: mlp.Data,
    attacks: list[tuple[str, str]],
    real: list[str],
    notes: list[str],
    agent: list[str],
    real_all: list[str],
    picked: list[str],
    only: str = "",
    grid: dict[str, dict[str, float]] | None = None,
    drop: Callable[[dict[str, float]], tuple[set[str], set[str]]] = dropped,
    fit_class: type[Fit] | None = None,
    thresholds: tuple[tuple[str, float], ...] = THRESHOLDS,
) -> None:
    """Per left-out round and setting, English catches and notes flagged at every epoch
    count and threshold (``grid``, ``drop``, ``fit_class`` and ``thresholds``: a later
    round's grid, default round ten's)."""
    grid, fit_class = grid or GRID, fit_class or Fit
    for name, (out_attacks, out_notes) in window.rounds().items():
        if only and name != only:
            continue
        test, left, rules_t, rules_n = mlp.left_out(attacks, out_attacks, out_notes)
        for label in picked:
            s = grid[label]
            drop_a, drop_n = out_attacks | drop(s)[0], out_notes | drop(s)[1]
            fit = fit_class(
                data,
                s,
                [t for t, _ in attacks if t not in drop_a],
                real,
                [t for t in notes if t not in drop_n] + agent,
                real_all,
            )
            st, sl = fit.scores(test, 0), fit.scores(left, 0)
            for (i, e), (kind, value) in itertools.product(enumerate(EPOCHS), thresholds):
                th = fit.threshold(kind, value, i)
                caught = int((rules_t | (st[i] >= th)).sum())
                flagged = int((rules_n | (sl[i] >= th)).sum())
                print(
                    f"{name} | {label} | epochs={e} {kind} {value}: {caught}/{len(test)} "
                    f"notes {flagged}/{len(left)} (th {th:.4f})",
                    flush=True,
                )


def everything_fit(
    data: mlp.Data,
    t: mlp.Training,
    s: dict[str, float],
    drop: Callable[[dict[str, float]], tuple[set[str], set[str]]] = dropped,
    fit_class: type[Fit] | None = None,
) -> Fit:
    """Setting ``s`` fitted on every training text (the fitted half of the real ones)."""
    out_a, out_n = drop(s)
    return (fit_class or Fit)(
        data,
        s,
        [a for a, _ in t.attacks if a not in out_a],
        [t.real_all[i] for i in t.fitted],
        [n for n in t.notes if n not in out_n] + t.agent,
        t.real_all,
    )


def real_flagged(
    data: mlp.Data,
    t: mlp.Training,
    picked: list[str],
    grid: dict[str, dict[str, float]] | None = None,
    drop: Callable[[dict[str, float]], tuple[set[str], set[str]]] = dropped,
    fit_class: type[Fit] | None = None,
    thresholds: tuple[tuple[str, float], ...] = THRESHOLDS,
) -> None:
    """Per setting fitted on everything: real texts flagged (all, checked half) at every
    epoch count and threshold, and a cap's quarter split."""
    grid = grid or GRID
    rules = np.array([bool(scan(x)) for x in t.real_all])
    checked = np.ones(len(t.real_all), bool)
    checked[t.fitted] = False
    # The quarter split: half of the checked half (fixed), held back from a cap.
    quarter = np.zeros(len(t.real_all), bool)
    quarter[np.flatnonzero(checked)[::2]] = True
    for label in picked:
        fit = everything_fit(data, t, grid[label], drop, fit_class)
        for (i, e), (kind, value) in itertools.product(enumerate(EPOCHS), thresholds):
            th = fit.threshold(kind, value, i)
            hit = rules | (fit.real_all_scores[i] >= th)
            line = (
                f"real | {label} | epochs={e} {kind} {value}: {int(hit.sum())} of "
                f"{len(t.real_all)}, checked half {int(hit[checked].sum())} (th {th:.4f})"
            )
            if kind == "cap":
                allowed = round(value * (~quarter).sum() / REAL_TOTAL)
                qth = fit.threshold(kind, allowed, i, ~quarter)
                held = rules[quarter] | (fit.real_all_scores[i][quarter] >= qth)
                line += f"; quarter split: cap {allowed}, {int(held.sum())} of {quarter.sum()}"
            print(line, flush=True)


def write(
    data: mlp.Data,
    t: mlp.Training,
    name: str,
    out: Path,
    chosen: tuple[str, int, str, float] | None = CHOSEN,
    grid: dict[str, dict[str, float]] | None = None,
    drop: Callable[[dict[str, float]], tuple[set[str], set[str]]] = dropped,
    fit_class: type[Fit] | None = None,
) -> None:
    """Fit ``chosen`` on everything and write ``out`` (round eight's layout, the hidden
    layer's input weights in float16; the threshold read off the rounded weights)."""
    if chosen is None:
        raise SystemExit("nothing chosen yet: run --by-round and --real, then set CHOSEN")
    label, epochs, kind, value = chosen
    fit = everything_fit(data, t, (grid or GRID)[label], drop, fit_class)
    index = EPOCHS.index(epochs)
    window.rounded(fit, index)
    fit.real_all_scores = fit.scores(t.real_all, 0)
    fit.fitted_scores = fit.scores([t.real_all[i] for i in t.fitted], 0)
    fit.rescore()
    fit._thresholds.clear()
    threshold = fit.threshold(kind, value, index)
    np.savez_compressed(out, **window.shipped_arrays(fit, name, index, threshold))  # type: ignore[arg-type]
    rules = np.array([bool(scan(x)) for x in t.real_all])
    hit = rules | (fit.real_all_scores[index] >= threshold)
    checked = np.ones(len(t.real_all), bool)
    checked[t.fitted] = False
    print(
        f"{out}: {label}, {epochs} epochs, {kind} {value}: threshold {threshold:.4f}, "
        f"{out.stat().st_size} bytes; real texts flagged {int(hit.sum())} of "
        f"{len(t.real_all)}, checked half {int(hit[checked].sum())}"
    )


def main() -> None:
    args = window.grid_parser(__doc__ or "", "round10-vectors.npz").parse_args()
    embedder = create_embedder(Config().embedder, Path(args.home))
    real_all = [text for _, text in real_texts(args.data)]
    data = mlp.Data(embedder, Path(args.cache))
    everything = window.training(real_all)
    attacks, notes, agent = everything.attacks, everything.notes, everything.agent
    real = [real_all[i] for i in everything.fitted]
    picked = args.only.split("|") if args.only else list(GRID)
    if args.write:
        write(data, everything, embedder.name, Path(args.write))
    if args.by_round:
        by_round(data, attacks, real, notes, agent, real_all, picked, args.round)
    if args.real:
        real_flagged(data, everything, picked)


if __name__ == "__main__":
    main()
