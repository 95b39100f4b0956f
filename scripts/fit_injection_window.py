"""Round nine of the learned injection detector (engram issue 26, item 3;
``docs/safety.md``, "Round nine"): round eight's network with round nine's
training-only examples (``scripts/injection_training9.py``) and the **window view** of
a long note, measured with a whole round of hand-written training examples left out at
a time, beside round eight's setting in the same grid.

Why: a long note's mean-pooled embedding dilutes the one sentence that is an order to
its reader. The view (``injection_detector.windows``) cuts a text the whole-text score
passes into sentences (or runs of ``window`` consecutive sentences), embeds the pieces
that carry a cue in one extra call, scores them with the same network, and fires when
the best piece reaches ``sentence_threshold``. Its threshold is the same quantile of the
fitted negatives' best piece, and never lower than the whole-text threshold. With
``pieceneg`` the cued pieces of the fitted half's real texts are negatives too (round
six needed them for the linear probe: without, an ordinary chat sentence scored near 1).

The rule, fixed before the grid ran (``GRID``): the most English catches summed over the
five left-out rounds (four, five, six, eight, nine), over 100, 130 and 160 epochs and the
99.95th and 99.98th percentiles, subject to (a) the left-out rounds' benign notes
flagged, summed, no more than round eight's setting on round eight's data (``h256
round-eight data``, 130 epochs, 99.95th, whole text) in the same grid; (b) a fit on
everything flagging at most 6 of the 8,288 real texts and at most 3 of the checked half;
(c) a file of at most 256 KB; (d) a window view only when it catches at least 3 more
than the same fit and threshold without it (it costs an embedding call per cued
multi-sentence write). Ties go to fewer real texts flagged, then to no view, then to the
smaller network. Run in this order, for time (the shared machine's load was 11-13):
``h256 round-eight data``, ``h256``, ``h256 pieceneg 1``; the other settings of ``GRID``
only if time was left (docs/safety.md says which ran).

Measured (docs/safety.md, "Round nine"; ``h256 pieceneg 1`` stopped after two rounds,
``h128 2 seeds`` not run, for time): round nine's examples add 12 catches at round
eight's setting (475 -> 487 with 22 -> 18 notes) but flag 8 real texts (5 checked); the
window view of one sentence adds 4 more (491) for 13 real texts (7 checked); of round
nine's fits only 100 epochs stays within the real-text limit (464 catches, 6 real, 3
checked), under round eight's 475, which the rule keeps.

    python scripts/fit_injection_window.py [--data ../shared/bench] [--by-round] [--real]
        [--round NAME] [--only A|B] [--warm] [--write PATH] [--read BEFORE AFTER]
        [--timing BEFORE AFTER]
"""

from __future__ import annotations

import argparse
import itertools
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np

from engram.bench.injection import real_texts
from engram.config import Config
from engram.embed import create_embedder
from engram.injection_detector import Detector, cued_sentences
from engram.safety import scan

sys.path.insert(0, str(Path(__file__).resolve().parent))
import fit_injection_mlp as mlp  # noqa: E402  (round eight's network, data and harness)
import injection_training9  # noqa: E402  (round nine's training-only examples)

_H256 = {**mlp._MLP, "hidden": 256}
#: Round nine's grid: the fits, each read with every view in ``VIEWS``.
GRID: dict[str, dict[str, float]] = {
    "h256 round-eight data": {**_H256, "r9": 0},
    "h256": _H256,
    "h256 pieceneg 1": {**_H256, "pieceneg": 1},
    "h256 pieceneg 2": {**_H256, "pieceneg": 2},
    "h128 2 seeds": {**mlp._MLP, "hidden": 128, "seeds": 2},
}
#: The views read: 0 the whole text only; 1 or 2, the window view of that many sentences.
VIEWS = (0, 1, 2)
EPOCHS = [100, 130, 160]
QUANTILES = (0.9995, 0.9998)
#: What ``--write`` fits: round nine's data at round eight's setting, the most catches
#: of round nine's fits (487), which the rule above did **not** choose (8 real texts, 5
#: of the checked half). By the rule round eight's setting and data (475 catches, 22
#: notes, 6 real texts, 3 checked) stay: nothing of round nine ships (docs/safety.md).
CHOSEN: dict[str, float] = {**_H256, "epochs": 130, "quantile": 0.9995, "view": 0}


def round_nine() -> tuple[list[tuple[str, str]], list[str]]:
    """Round nine's training-only attacks (with category) and benign notes."""
    return injection_training9.everything()


def training(real_all: list[str]) -> mlp.Training:
    """Everything round nine's (and round ten's) fits read: the tune fold's, rounds four
    to nine's and the composed attacks and notes, the agent notes, every real text and
    the fitted half's indices."""
    attacks, notes, agent = mlp.linear.training_sets(True)
    eight_attacks, eight_notes = mlp.round_eight()
    nine_attacks, nine_notes = round_nine()
    fitted, _ = mlp.linear.halves(len(real_all))
    return mlp.Training(
        attacks + eight_attacks + nine_attacks,
        real_all,
        fitted,
        notes + eight_notes + nine_notes,
        agent,
    )


def rounds() -> dict[str, tuple[set[str], set[str]]]:
    """Each round of hand-written training examples: rounds four to eight's and nine's."""
    attacks, notes = round_nine()
    return {**mlp.rounds(), "round nine": ({t for t, _ in attacks}, set(notes))}


def without(s: dict[str, float]) -> tuple[set[str], set[str]]:
    """The training texts setting ``s`` leaves out: round nine's when ``r9`` is 0."""
    if s.get("r9", 1):
        return set(), set()
    attacks, notes = round_nine()
    return {t for t, _ in attacks}, set(notes)


def pieces(texts: Sequence[str], size: int) -> tuple[list[int], list[str]]:
    """The window view's cued pieces of ``texts``: the index of each piece's text, and
    the pieces."""
    keys, found = [], []
    for i, text in enumerate(texts):
        for piece in cued_sentences(text, size):
            keys.append(i)
            found.append(piece)
    return keys, found


def best(n: int, keys: list[int], scores: np.ndarray) -> np.ndarray:
    """Per text (``n`` of them), its best piece's score (0 without a piece)."""
    out = np.zeros(n)
    for key, p in zip(keys, scores, strict=True):
        out[key] = max(out[key], float(p))
    return out


class Fit:
    """One setting fitted on some training texts, read on others with every view."""

    def __init__(
        self,
        data: mlp.Data,
        s: dict[str, float],
        attacks: list[str],
        real: list[str],
        notes: list[str],
    ) -> None:
        self.data, self.s = data, s
        negatives = list(real)
        if s.get("pieceneg"):
            for size in (1, 2):
                negatives += pieces(real, size)[1]
        x, y, w, start = mlp.design(data, attacks, real, notes, s)
        if s.get("pieceneg"):
            extra = sorted(set(negatives[len(real) :]))
            xp = data.features(extra)
            x = np.vstack([x, xp])
            y = np.r_[y, np.zeros(len(extra), np.float32)]
            w = np.r_[w, np.full(len(extra), s["pieceneg"])]
        self.net = mlp.Mlp(
            int(s["hidden"]), s["decay"], int(s.get("seed", 0)), int(s.get("seeds", 1))
        )
        self.snaps = self.net.fit(x, y, w, EPOCHS)
        #: The fitted negatives the thresholds are read off: real texts and notes.
        self.negatives = real + notes
        self._thresholds: dict[tuple[int, float], list[float]] = {}

    def scores(self, texts: Sequence[str], view: int) -> list[np.ndarray]:
        """Per epoch count, each text's score: the whole text's (view 0), else its best
        piece's of ``view`` sentences."""
        if view == 0:
            x = self.data.features(texts)
            return [self.net.probabilities(x, p) for p in self.snaps]
        keys, found = pieces(texts, view)
        if not found:
            return [np.zeros(len(texts)) for _ in self.snaps]
        x = self.data.features(found)
        return [best(len(texts), keys, self.net.probabilities(x, p)) for p in self.snaps]

    def thresholds(self, view: int, q: float) -> list[float]:
        """Per epoch count, the whole-text threshold (at least 0.5), and for a view the
        same quantile of the negatives' best piece, never under the whole-text one."""
        if (view, q) not in self._thresholds:
            whole = [max(0.5, float(np.quantile(n, q))) for n in self.scores(self.negatives, 0)]
            self._thresholds[view, q] = (
                whole
                if view == 0
                else [
                    max(t, float(np.quantile(n, q)))
                    for t, n in zip(whole, self.scores(self.negatives, view), strict=True)
                ]
            )
        return self._thresholds[view, q]

    def fires(self, texts: Sequence[str], view: int, q: float) -> list[np.ndarray]:
        """Per epoch count, whether each text fires (whole text, or with the view)."""
        whole = self.scores(texts, 0)
        out = [w >= t for w, t in zip(whole, self.thresholds(0, q), strict=True)]
        if view:
            found = self.scores(texts, view)
            th = self.thresholds(view, q)
            out = [o | (f >= t) for o, f, t in zip(out, found, th, strict=True)]
        return out


def by_round(
    data: mlp.Data,
    attacks: list[tuple[str, str]],
    real: list[str],
    notes: list[str],
    agent: list[str],
    picked: list[str],
    only: str = "",
) -> None:
    for name, (out_attacks, out_notes) in rounds().items():
        if only and name != only:
            continue
        test, left, rules_t, rules_n = mlp.left_out(attacks, out_attacks, out_notes)
        for label in picked:
            s = GRID[label]
            drop_a = out_attacks | without(s)[0] | mlp.without(s)[0]
            drop_n = out_notes | without(s)[1] | mlp.without(s)[1]
            fit = Fit(
                data,
                s,
                [t for t, _ in attacks if t not in drop_a],
                real,
                [t for t in notes if t not in drop_n] + agent,
            )
            for view, q in itertools.product(VIEWS, QUANTILES):
                ft, fl = fit.fires(test, view, q), fit.fires(left, view, q)
                for e, hit_t, hit_l in zip(EPOCHS, ft, fl, strict=True):
                    print(
                        f"{name} | {label} | view={view} epochs={e} q={q}: "
                        f"{int((rules_t | hit_t).sum())}/{len(test)} "
                        f"notes {int((rules_n | hit_l).sum())}/{len(left)}",
                        flush=True,
                    )


def real_flagged(data: mlp.Data, t: mlp.Training, picked: list[str]) -> None:
    rules = np.array([bool(scan(x)) for x in t.real_all])
    checked = np.ones(len(t.real_all), bool)
    checked[t.fitted] = False
    real = [t.real_all[i] for i in t.fitted]
    for label in picked:
        s = GRID[label]
        out_a = without(s)[0] | mlp.without(s)[0]
        out_n = without(s)[1] | mlp.without(s)[1]
        fit = Fit(
            data,
            s,
            [a for a, _ in t.attacks if a not in out_a],
            real,
            [n for n in t.notes if n not in out_n] + t.agent,
        )
        for view, q in itertools.product(VIEWS, QUANTILES):
            for e, hit in zip(EPOCHS, fit.fires(t.real_all, view, q), strict=True):
                hit = rules | hit
                print(
                    f"real | {label} | view={view} epochs={e} q={q}: {int(hit.sum())} of "
                    f"{len(t.real_all)}, checked half {int(hit[checked].sum())}",
                    flush=True,
                )


def shipped_arrays(fit: Fit, name: str, index: int, threshold: float) -> dict[str, np.ndarray]:
    """The arrays ``Detector.from_arrays`` reads for the ``index``-th snapshot of ``fit``
    (round eight's layout: the hidden layer's input weights in float16), whose snapshot
    ``write`` has already rounded to float16 (the threshold is read off the rounded
    weights, which is what a write computes)."""
    p = fit.snaps[index]
    return {
        "embedder": np.array(name),
        "threshold": np.float32(threshold),
        "cue_scale": np.float32(mlp.linear.CUE_SCALE),
        "intercept": p["b2"][0],
        "coef": p["w2"],
        "mean": fit.net.mean.astype(np.float32),
        "std": fit.net.std.astype(np.float32),
        "w1": p["w1"].astype(np.float16),
        "b1": p["b1"],
    }


def rounded(fit: Fit, index: int) -> None:
    """Round the ``index``-th snapshot's input weights to float16, as shipped."""
    p = dict(fit.snaps[index])
    p["w1"] = p["w1"].astype(np.float16).astype(np.float32)
    fit.snaps = [p if i == index else q for i, q in enumerate(fit.snaps)]


def write(data: mlp.Data, t: mlp.Training, name: str, out: Path) -> None:
    """Fit ``CHOSEN`` on everything and write ``out`` (``shipped_arrays``; with a view,
    its ``sentence_threshold`` and ``window``)."""
    s = CHOSEN
    epochs = int(s["epochs"])
    real = [t.real_all[i] for i in t.fitted]
    fit = Fit(data, s, [a for a, _ in t.attacks], real, t.notes + t.agent)
    index = EPOCHS.index(epochs)
    rounded(fit, index)
    q, view = float(s["quantile"]), int(s.get("view", 0))
    threshold = fit.thresholds(0, q)[index]
    arrays = shipped_arrays(fit, name, index, threshold)
    if view:
        arrays["sentence_threshold"] = np.float32(fit.thresholds(view, q)[index])
        arrays["window"] = np.int64(view)
    np.savez_compressed(out, **arrays)  # type: ignore[arg-type]
    rules = np.array([bool(scan(x)) for x in t.real_all])
    checked = np.ones(len(t.real_all), bool)
    checked[t.fitted] = False
    print(f"{out}: threshold {threshold:.4f}, view {view}; {out.stat().st_size} bytes")
    for v, qq in itertools.product(VIEWS, QUANTILES):  # the same fit read with every view
        hit = rules | fit.fires(t.real_all, v, qq)[index]
        print(
            f"real | written fit | view={v} epochs={epochs} q={qq}: {int(hit.sum())} of "
            f"{len(t.real_all)}, checked half {int(hit[checked].sum())}",
            flush=True,
        )


Check = Callable[[str], tuple[str, ...]]


def read(
    data: mlp.Data,
    real_all: list[tuple[str, str]],
    before: str,
    after: str,
    wrap: Callable[[Check], Check] | None = None,
) -> None:
    """Every fold read once, the rules alone and each detector side by side on the same
    cached embeddings (the view's pieces too): English and overall catches per fold and
    per category, benign notes and real texts flagged (ids, never the
    texts of a held-out fold); ``wrap``, if given, wraps the ``after`` check (round
    twelve's lexical view)."""
    from engram.bench import injection

    rows = injection.load_set()
    texts = [r["text"] for r in rows] + [t for _, t in real_all]

    def embed(batch: Sequence[str]) -> np.ndarray:
        return data.features(list(batch), 0.0)[:, : -mlp.N_CUES]

    checks = {"rules": scan}
    for name, path in (("before", before), ("after", after)):
        detector = Detector.from_arrays(dict(np.load(path)))
        checks[name] = injection.with_detector(texts, embed, detector)
    if wrap is not None:
        checks["after"] = wrap(checks["after"])
    report(rows, real_all, checks)


def report(
    rows: list[dict[str, Any]],
    real_all: list[tuple[str, str]],
    checks: dict[str, Check],
) -> None:
    """Per check, English and overall catches per fold and per category, benign notes and
    real texts flagged (ids, never the texts of a held-out fold)."""
    from engram.bench import injection

    for name, check in checks.items():
        got = injection.measure(rows, real_all, check)
        for fold in injection.FOLDS[1:]:
            r = got["recall"][fold]
            line = f"{name} {fold}: english {r['english']['caught']}/{r['english']['total']}"
            line += f" overall {r['overall']['caught']}/{r['overall']['total']}"
            hard = got["hard_negatives"].get(fold)
            print(line + (f" notes {hard['flagged']}/{hard['total']}" if hard else ""))
            cats = got["recall"][fold]["categories"]
            print(f"  per category: { ({c: (v['caught'], v['total']) for c, v in cats.items()}) }")
        fp = got["false_positives"]
        print(
            f"{name} real texts flagged: {fp['flagged']} of {fp['texts']}:",
            [e[0] for e in fp["examples"]],
        )


def timing(embedder: object, real_all: list[str], before: str, after: str) -> None:
    """Per write, the rules and each detector (``before``: round eight's ``.npz``;
    ``after``: the candidate) on every eighth real text, one at a time, interleaved per
    text, the write's own vector not timed but the view's extra embedding call timed
    (the real model): median, mean and p95 in ms, and how many texts took the view."""
    detectors = {
        name: Detector.from_arrays(dict(np.load(path)))
        for name, path in (("before", before), ("after", after))
    }

    def embed(batch: list[str]) -> np.ndarray:
        return np.asarray(embedder.embed_batch(batch), np.float32)  # type: ignore[attr-defined]

    texts = real_all[::8]
    vectors = embed(texts)
    took: dict[str, list[float]] = {name: [] for name in detectors}
    viewed = 0
    for text, vector in zip(texts, vectors, strict=True):
        for name, detector in detectors.items():
            start = time.perf_counter()
            if not scan(text):
                detector.reasons(vector[None, :], [text], embed)
            took[name].append(1000 * (time.perf_counter() - start))
        viewed += bool(detectors["after"].sentence_threshold and cued_sentences(text))
    mlp.report_timings(took)
    print(f"texts with a cued piece (the view's extra call): {viewed}")


def grid_parser(doc: str, cache: str) -> argparse.ArgumentParser:
    """The switches round nine's and round ten's grid scripts share."""
    parser = argparse.ArgumentParser(description=doc.split("\n\n")[0])
    parser.add_argument("--data", default="../shared/bench")
    parser.add_argument("--home", default="/tmp/engram-fit-detector")
    parser.add_argument("--cache", default=f"/tmp/engram-fit-detector/{cache}")
    parser.add_argument("--by-round", action="store_true", help="the grid, rounds left out")
    parser.add_argument("--real", action="store_true", help="real texts a fit on all flags")
    parser.add_argument("--round", default="", help="with --by-round: leave out this one")
    parser.add_argument("--only", default="", help="run only the grid's settings named so (a|b)")
    parser.add_argument("--write", default="", help="fit CHOSEN on everything, write here")
    return parser


def grid_setup(parser: argparse.ArgumentParser) -> tuple[argparse.Namespace, Any, list[str]]:
    """The parsed switches, the embedder under ``--home`` and every real text."""
    args = parser.parse_args()
    # fp32 on every machine: ``auto`` embeds with int8 on a CPU with VNNI, which moves
    # single catches (docs/safety.md, "Round sixteen"); the shipped weights are fp32's.
    embedder = create_embedder(replace(Config().embedder, precision="fp32"), Path(args.home))
    return args, embedder, [text for _, text in real_texts(args.data)]


def main() -> None:
    parser = grid_parser(__doc__ or "", "round9-vectors.npz")
    parser.add_argument("--warm", action="store_true", help="embed every text and piece")
    parser.add_argument("--read", nargs=2, metavar=("BEFORE", "AFTER"), help="read every fold")
    parser.add_argument("--timing", nargs=2, metavar=("BEFORE", "AFTER"), help="two .npz files")
    args, embedder, real_all = grid_setup(parser)
    if args.timing:
        timing(embedder, real_all, *args.timing)
        return
    data = mlp.Data(embedder, Path(args.cache))
    everything = training(real_all)
    attacks, notes, agent, fitted = (
        everything.attacks,
        everything.notes,
        everything.agent,
        everything.fitted,
    )
    real = [real_all[i] for i in fitted]
    picked = args.only.split("|") if args.only else list(GRID)
    if args.read:
        read(data, real_texts(args.data), *args.read)
        return
    if args.warm:  # embed every text and piece once, so parallel runs only read the cache
        every = sorted({t for t, _ in attacks} | set(notes) | set(agent) | set(real_all))
        data.features(every)
        for size in (1, 2):
            data.features(pieces(every, size)[1])
    if args.write:
        write(data, everything, embedder.name, Path(args.write))
    if args.by_round:
        by_round(data, attacks, real, notes, agent, picked, args.round)
    if args.real:
        real_flagged(data, everything, picked)


if __name__ == "__main__":
    main()
