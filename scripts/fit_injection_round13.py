"""Round thirteen of the learned injection detector (engram issue 26, item 3;
docs/safety.md, "Round thirteen"): round twelve's lexical view (a hashed word n-gram
logistic model, ``fit_injection_lexical.Lexical``) beside the **shipped** network, with
the benign notes weighed more in the lexical model, its threshold read off the notes, a
small logistic on the two scores instead of ``max``, and round thirteen's training
examples (``scripts/injection_training13.py``, written after held-out 12).

Why: round twelve's lexical view lifted the catches on every left-out round and every
fold, but flagged two more benign held-out notes than the shipped detector (25 against
23 over held-out 2 to 11), so it did not ship. Its notes there weighed as the network's
(x2); here they weigh more, or the threshold is read off the notes themselves.

The network is the shipped setting and file (round eleven's ``notes x2``, 130 epochs,
fitted 0.9995 quantile; ``src/engram/data/injection_detector.npz``), refitted once per
left-out round (``--by-round``: rounds four, five, six, eight and nine, as in rounds ten
to twelve; it also keeps its scores of the checked half of the real texts, the half no
fit reads). The lexical cells (``--combine``; ``words`` only, as character n-grams
failed round twelve's time limit), each fitted per left-out round on the texts the
network read there, and once on everything:

- ``LEXICAL``: the lexical model's notes weighed x2 (round twelve's reference: 60, the
  network's), x3 (90) and x4 (120), each with and without round thirteen's examples
  (``+ r13``; the network never reads them);
- ``max, fitted``: a text fires when the network or the lexical model reaches its
  threshold, the lexical one at the fitted negatives' 0.9995 quantile (round twelve's);
- ``max, notes``: the same with the lexical threshold read off the notes: the lowest
  threshold (at least 0.5) at which the combination flags no more left-out notes than
  the network alone, read on the **other four** left-out rounds for each left-out round
  (so a round's own notes never set its threshold), and on all five for the fit on
  everything;
- ``logistic, notes``: a logistic regression on the two scores' logits instead of
  ``max``, fitted on the other four rounds' left-out attacks against their left-out notes
  and the checked real texts (scores of fits that never read them), its threshold read
  off the notes as above; for the fit on everything, fitted on all five rounds.

The rule, fixed and committed before the grid ran: the most English catches summed over
the five left-out rounds, over the network alone and every cell above, subject to
(a) the left-out rounds' benign notes flagged, summed, no more than the network alone
    flags there (the shipped detector; 16 in rounds eleven and twelve);
(b) the shipped network with the cell's lexical model fitted on everything flagging at
    most 2 of the 8,288 real texts (the shipped detector flags 2) and at most 2 of the
    checked half;
(c) more catches than the network alone (else nothing is read and the shipped detector
    stays);
(d) the shipped files at most 512 KB together, and a write's median time within 0.2 ms
    of the shipped detector's (``fit_injection_lexical.py --timing``, side by side,
    measured after the choice; a cell that fails it gives way to the next).
Ties go to fewer left-out notes, then fewer real texts, then ``max`` before the
logistic, then the fitted threshold before the notes', then fewer notes weight, then
without round thirteen's examples.

Ran (load 6-9; every cell, five network fits and 36 lexical fits): the network alone
95 / 124 / 58 / 123 / 72 = 472 catches, 17 left-out notes, 2 real texts (2 checked).
Every combined cell flags more left-out notes: ``max, fitted`` 501-505 catches with 19
notes and 4-5 real texts (the fitted quantile sits at its 0.5 floor); ``max, notes``
483-487 with 18 notes and 2 real texts (thresholds 0.85-0.88); ``logistic, notes``
523-528 with 21-29 notes and 5-9 real texts. **No cell meets the rule**: nothing was
chosen, no candidate was read, and the shipped detector stays. Held-out 12 was read
once with the shipped detector alone (``--read SHIPPED ""``): 70 of 98 English attacks
(0.71), 78 of 106 overall, 6 of 54 benign notes, 2 real texts (docs/safety.md, "Round
thirteen", every cell and fold).

The ship rule, fixed and committed before held-out 12 (fresh) and held-out 10 and 11
(checks; partly seen) are read, once, side by side with the shipped detector on the same
cached embeddings (``--read``): the choice ships if its English catches on held-out 12
are at least the shipped detector's, it flags at most 2 of the 8,288 real texts, and it
flags no more benign notes than the shipped detector summed over held-out 2 to 12. If
no cell meets the rule above, nothing is read against a candidate and the shipped
detector stays (held-out 12 is then read with the shipped detector alone, for its test).

    python scripts/fit_injection_round13.py [--data ../shared/bench] [--by-round]
        [--round NAME] [--lexical] [--combine] [--read BEFORE LEXICAL]
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from engram.bench.injection import real_texts
from engram.injection_detector import Detector
from engram.safety import scan

sys.path.insert(0, str(Path(__file__).resolve().parent))
import fit_injection_lexical as lex  # noqa: E402  (round twelve's lexical view)
import fit_injection_mlp as mlp  # noqa: E402  (round eight's network, data and harness)
import fit_injection_notes as notes  # noqa: E402  (round eleven's fit: the shipped setting)
import fit_injection_window as window  # noqa: E402  (round nine's rounds and grid setup)
import injection_training13  # noqa: E402  (round thirteen's training-only examples)

#: The shipped setting, read as it ships: 130 epochs, the fitted 0.9995 quantile.
NETWORK = notes.GRID["notes x2"]
EPOCH_INDEX = window.EPOCHS.index(130)
NET_THRESHOLD = ("fitted", 0.9995)
#: The lexical model's notes weight (round ten's 30 per note times 2, 3, 4), and whether
#: it reads round thirteen's examples.
LEXICAL: dict[str, dict[str, float]] = {
    f"notes x{k}{' + r13' if r13 else ''}": {"benign_weight": 30.0 * k, "r13": r13}
    for r13 in (0, 1)
    for k in (2, 3, 4)
}
SHIPPED = Path(__file__).resolve().parents[1] / "src/engram/data/injection_detector.npz"
#: What ``--write`` fits: (lexical setting, mode, threshold the grid read for the fit on
#: everything); None until the grid has run.
CHOSEN: tuple[str, str, float] | None = None
MODES = ("max, fitted", "max, notes", "logistic, notes")


#: What a setting leaves out: round twelve's rule, and round thirteen's examples unless
#: ``r13`` is set.
#: Round thirteen's training-only examples.
THIRTEEN = notes.examples(
    injection_training13.ROUND_THIRTEEN_ATTACKS, injection_training13.ROUND_THIRTEEN_BENIGN
)
dropped = notes.adding(lex.dropped, "r13", THIRTEEN)


def training(real_all: list[str]) -> mlp.Training:
    """Round twelve's training data and round thirteen's examples (``dropped`` decides)."""
    return notes.with_examples(lex.training(real_all), THIRTEEN)


def checked(t: mlp.Training) -> list[str]:
    """The real texts no fit reads (the half outside ``t.fitted``)."""
    fitted = set(t.fitted)
    return [x for i, x in enumerate(t.real_all) if i not in fitted]


def by_round(data: mlp.Data, t: mlp.Training, only: str, out: Path) -> None:
    """Per left-out round, the shipped setting refitted without it: its scores of the
    round's English attacks, notes and the checked real texts, and its threshold."""
    real = [t.real_all[i] for i in t.fitted]
    for name, (out_attacks, out_notes) in window.rounds().items():
        if only and name != only:
            continue
        test, left, rules_t, rules_n = mlp.left_out(t.attacks, out_attacks, out_notes)
        drop_a, drop_n = out_attacks | dropped(NETWORK)[0], out_notes | dropped(NETWORK)[1]
        fit = notes.Fit(
            data,
            NETWORK,
            [a for a, _ in t.attacks if a not in drop_a],
            real,
            [n for n in t.notes if n not in drop_n] + t.agent,
            t.real_all,
        )
        i = EPOCH_INDEX
        th = fit.threshold(*NET_THRESHOLD, i)
        st, sl = fit.scores(test, 0)[i], fit.scores(left, 0)[i]
        sr = fit.scores(checked(t), 0)[i]
        np.savez(out / f"net--{name}.npz", st=st, sl=sl, sr=sr, th=th)
        caught = int((rules_t | (st >= th)).sum())
        flagged = int((rules_n | (sl >= th)).sum())
        print(f"{name}: {caught}/{len(test)} notes {flagged}/{len(left)} (th {th:.4f})", flush=True)


def lexical_model(t: mlp.Training, name: str, out_a: set[str], out_n: set[str]) -> lex.Lexical:
    """The lexical setting ``name`` fitted on what the network reads without ``out_a`` and
    ``out_n`` (and round thirteen's examples when the setting names them)."""
    ls = LEXICAL[name]
    s = {**NETWORK, "benign_weight": ls["benign_weight"], "r13": ls["r13"]}
    return lexical_of(t, s, dropped(s), out_a, out_n)


def lexical_of(
    t: mlp.Training,
    s: dict[str, Any],
    drops: tuple[set[str], set[str]],
    out_a: set[str],
    out_n: set[str],
) -> lex.Lexical:
    """The lexical view with the settings ``s`` fitted on what the network reads without
    ``out_a`` / ``out_n`` and what the round's ``dropped(s)`` (``drops``) leaves out; round
    fourteen's fit uses it with its own ``dropped``."""
    drop_a, drop_n = out_a | drops[0], out_n | drops[1]
    return lex.Lexical(
        {"chars": 0},
        s,
        [a for a, _ in t.attacks if a not in drop_a],
        [t.real_all[i] for i in t.fitted],
        [n for n in t.notes if n not in drop_n] + t.agent,
    )


def _logit(p: np.ndarray) -> np.ndarray:
    q = np.clip(np.asarray(p, np.float64), 1e-6, 1 - 1e-6)
    return np.asarray(np.log(q / (1 - q)))


class Stack:
    """The small logistic on the two scores' logits, fitted on out-of-fold scores:
    attacks against notes (weighed as the lexical setting weighs them) and real texts
    (weighed ``real_weight``: 3, as the network weighs them; round fourteen tried more),
    the attacks as much in all as the rest."""

    def __init__(
        self,
        pos: np.ndarray,
        notes_x: np.ndarray,
        real_x: np.ndarray,
        w: float,
        real_weight: float = 3.0,
    ) -> None:
        from sklearn.linear_model import LogisticRegression

        x = np.vstack([pos, notes_x, real_x])
        neg = np.r_[np.full(len(notes_x), w), np.full(len(real_x), real_weight)]
        weights = np.r_[np.full(len(pos), neg.sum() / len(pos)), neg]
        y = np.r_[np.ones(len(pos)), np.zeros(len(neg))]
        self.model = LogisticRegression(C=1.0).fit(x, y, sample_weight=weights)

    def scores(self, net: np.ndarray, lexical: np.ndarray) -> np.ndarray:
        x = np.c_[_logit(net), _logit(lexical)]
        return np.asarray(self.model.predict_proba(x)[:, 1])


def notes_threshold(scores: np.ndarray, already: np.ndarray, budget: int) -> float:
    """The lowest threshold (at least 0.5) at which the notes flagged, ``already`` (the
    rules, or the rules and the network) or scoring at or above it, are at most
    ``budget``."""
    for th in sorted({0.5, *(float(np.nextafter(x, 2.0)) for x in scores if x >= 0.5)}):
        if int((already | (scores >= th)).sum()) <= budget:
            return th
    return 1.0


Fitter = Callable[[mlp.Training, str, set[str], set[str]], lex.Lexical]


def lexical_scores(
    t: mlp.Training,
    out: Path,
    only: str,
    settings: dict[str, dict[str, float]] | None = None,
    fitter: Fitter | None = None,
    rounds: dict[str, tuple[set[str], set[str]]] | None = None,
    prefix: str = "lex",
) -> None:
    """Per lexical setting (``settings``, fitted by ``fitter``: round thirteen's by
    default), each left-out round's model's scores of the round's English attacks, notes
    and the checked real texts, and its fitted threshold; and the model fitted on
    everything's scores of every real text (kept in ``out`` as ``{prefix}--...``).
    ``rounds``: the left-out rounds (``window.rounds()`` by default; round fifteen adds a
    part of its examples to each)."""
    fit = fitter or lexical_model
    for lname in settings or LEXICAL:
        if only and lname not in only.split("|"):
            continue
        for name, (out_attacks, out_notes) in (rounds or window.rounds()).items():
            test, left, _, _ = mlp.left_out(t.attacks, out_attacks, out_notes)
            model = fit(t, lname, out_attacks, out_notes)
            np.savez(
                out / f"{prefix}--{lname}--{name}.npz",
                lt=model.scores(test),
                ln=model.scores(left),
                lr=model.scores(checked(t)),
                th=model.threshold("fitted", 0.9995),
            )
        model = fit(t, lname, set(), set())
        np.savez(
            out / f"{prefix}--{lname}--everything.npz",
            real=model.scores(t.real_all),
            th=model.threshold("fitted", 0.9995),
        )
        print(f"lexical {lname}: kept", flush=True)


def alone_line(per: dict[str, dict[str, Any]], real: np.ndarray, checked: np.ndarray) -> str:
    """The grid's first line: what the network and the rules alone catch per left-out
    round, the notes they flag, and the real texts (all, and in the checked half)."""
    alone = [int(np.sum(p["net_t"])) for p in per.values()]
    notes = sum(int(np.sum(p["net_n"])) for p in per.values())
    return (
        f"cell | alone: {sum(alone)} ({' / '.join(map(str, alone))}) notes {notes} "
        f"real {int(real.sum())} ({int(real[checked].sum())})"
    )


def combine(data: mlp.Data, t: mlp.Training, out: Path, shipped: str, only: str) -> None:
    """Every cell of the rule (the docstring): per left-out round the network's saved
    scores and each lexical model fitted without the round; for the real texts the
    shipped network and each lexical model fitted on everything."""
    rounds = window.rounds()
    rules_real = np.array([bool(scan(x)) for x in t.real_all])
    checked_mask = np.ones(len(t.real_all), bool)
    checked_mask[t.fitted] = False
    net = Detector.from_arrays(dict(np.load(shipped)))
    vectors = data.features(t.real_all, 0.0)[:, : -mlp.N_CUES]
    net_real = net.probabilities(vectors, t.real_all)
    per: dict[str, dict[str, Any]] = {}
    for name, (out_attacks, out_notes) in rounds.items():
        test, left, rules_t, rules_n = mlp.left_out(t.attacks, out_attacks, out_notes)
        got = dict(np.load(out / f"net--{name}.npz"))
        per[name] = {**got, "rules_t": rules_t, "rules_n": rules_n}
        per[name]["net_t"] = rules_t | (got["st"] >= got["th"])
        per[name]["net_n"] = rules_n | (got["sl"] >= got["th"])
    alone_real = rules_real | (net_real >= net.threshold)
    alone_notes = sum(int(np.sum(p["net_n"])) for p in per.values())
    print(alone_line(per, alone_real, checked_mask), flush=True)
    for lname, ls in LEXICAL.items():
        if only and lname not in only.split("|"):
            continue
        scores: dict[str, tuple[np.ndarray, np.ndarray, np.ndarray, float]] = {}
        for name in rounds:
            got = np.load(out / f"lex--{lname}--{name}.npz")
            scores[name] = (got["lt"], got["ln"], got["lr"], float(got["th"]))
        got = np.load(out / f"lex--{lname}--everything.npz")
        lex_real, fitted_all = got["real"], float(got["th"])
        for mode in MODES:
            counts, flagged = [], 0
            for name, p in per.items():
                lt, ln_, _, fitted = scores[name]
                others = [o for o in per if o != name]
                budget = sum(int(np.sum(per[o]["net_n"])) for o in others)
                if mode == "max, fitted":
                    hit_t, hit_n = p["net_t"] | (lt >= fitted), p["net_n"] | (ln_ >= fitted)
                elif mode == "max, notes":
                    th = notes_threshold(
                        np.concatenate([scores[o][1] for o in others]),
                        np.concatenate([per[o]["net_n"] for o in others]),
                        budget,
                    )
                    hit_t, hit_n = p["net_t"] | (lt >= th), p["net_n"] | (ln_ >= th)
                else:
                    stack, th = _stack(per, scores, others, ls["benign_weight"], budget)
                    hit_t = p["rules_t"] | (stack.scores(p["st"], lt) >= th)
                    hit_n = p["rules_n"] | (stack.scores(p["sl"], ln_) >= th)
                counts.append(int(hit_t.sum()))
                flagged += int(hit_n.sum())
            if mode == "max, fitted":
                th = fitted_all
                hit_r = alone_real | (lex_real >= th)
            elif mode == "max, notes":
                th = notes_threshold(
                    np.concatenate([scores[o][1] for o in per]),
                    np.concatenate([per[o]["net_n"] for o in per]),
                    alone_notes,
                )
                hit_r = alone_real | (lex_real >= th)
            else:
                stack, th = _stack(per, scores, list(per), ls["benign_weight"], alone_notes)
                hit_r = rules_real | (stack.scores(net_real, lex_real) >= th)
            print(
                cell_line(f"{lname} | {mode}", th, counts, flagged, hit_r, checked_mask), flush=True
            )


def cell_line(
    name: str, th: float, counts: list[int], flagged: int, hit_r: np.ndarray, checked: np.ndarray
) -> str:
    """One cell's line: catches per left-out round, notes and real texts flagged."""
    return (
        f"cell | {name} (th {th:.4f}): {sum(counts)} ({' / '.join(map(str, counts))}) notes "
        f"{flagged} real {int(hit_r.sum())} ({int(hit_r[checked].sum())})"
    )


def _stack(
    per: dict[str, dict[str, Any]],
    scores: dict[str, tuple[np.ndarray, np.ndarray, np.ndarray, float]],
    rounds: list[str],
    weight: float,
    budget: int,
) -> tuple[Stack, float]:
    """The logistic on the two scores fitted on ``rounds``' out-of-fold scores, and its
    threshold read off those rounds' notes (at most ``budget`` flagged with the rules)."""
    pos = np.vstack([np.c_[_logit(per[o]["st"]), _logit(scores[o][0])] for o in rounds])
    neg_n = np.vstack([np.c_[_logit(per[o]["sl"]), _logit(scores[o][1])] for o in rounds])
    neg_r = np.vstack([np.c_[_logit(per[o]["sr"]), _logit(scores[o][2])] for o in rounds])
    stack = Stack(pos, neg_n, neg_r, weight)
    got = np.concatenate([stack.scores(per[o]["sl"], scores[o][1]) for o in rounds])
    rules = np.concatenate([per[o]["rules_n"] for o in rounds])
    return stack, notes_threshold(got, rules, budget)


def write(data: mlp.Data, t: mlp.Training, out: Path, path: Path) -> None:
    """``CHOSEN``'s lexical model fitted on everything, written as round twelve's
    ``injection_lexical.npz`` (``fit_injection_lexical.Saved`` reads it) with the
    threshold the grid read for it."""
    if CHOSEN is None:
        raise SystemExit("nothing chosen: run --by-round and --combine first")
    name, mode, value = CHOSEN
    if mode.startswith("logistic"):
        raise SystemExit("the logistic on the two scores is written by hand if chosen")
    model = lexical_model(t, name, set(), set())
    threshold = model.threshold("fitted", 0.9995) if mode == "max, fitted" else value
    np.savez_compressed(
        path,
        coef=model.coef.astype(np.float16),
        intercept=np.float32(model.intercept),
        threshold=np.float32(threshold),
        bits=np.int64(lex.BITS),
        chars=np.int64(0),
    )
    print(f"{path}: {path.stat().st_size} bytes, threshold {threshold:.4f}")


def main() -> None:
    parser = window.grid_parser(__doc__ or "", "round13-vectors.npz")
    parser.add_argument("--scores", default="/tmp/engram-fit-detector/round13-scores")
    parser.add_argument("--lexical", action="store_true", help="the lexical models' scores")
    parser.add_argument("--combine", action="store_true", help="every cell of the rule")
    parser.add_argument("--read", nargs=2, metavar=("BEFORE", "LEXICAL"))
    args, embedder, real_all = window.grid_setup(parser)
    out = Path(args.scores)
    out.mkdir(parents=True, exist_ok=True)
    t = training(real_all)
    data = mlp.Data(embedder, Path(args.cache))
    if args.by_round:
        by_round(data, t, args.round, out)
    if args.lexical:
        lexical_scores(t, out, args.only)
    if args.combine:
        combine(data, t, out, str(SHIPPED), args.only)
    if args.write:
        write(data, t, out, Path(args.write))
    if args.read:
        lex.read(data, real_texts(args.data), args.read[0], args.read[0], args.read[1])


if __name__ == "__main__":
    main()
