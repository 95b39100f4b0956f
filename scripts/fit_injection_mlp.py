"""Round seven of the learned injection detector (engram issue 26, item 3): a
one-hidden-layer network in numpy over the same features as the logistic regression of
``scripts/fit_injection_detector.py`` (the MiniLM embedding and ``CUE_SCALE`` times the
cues), measured against it with a whole round of hand-written training examples left
out at a time (``--by-round``), the way rounds five and six chose their settings.

Why: five held-out folds show the linear probe reaching about two thirds of wording
written after it was fitted. A hidden layer can combine features (an order *and* an
addressee that is the memory's reader *and* a target such as secrets or links) where a
linear model only adds them. Early stopping, the hidden width and the weight decay are
chosen on the left-out rounds, never on a held-out fold.

Measured (docs/safety.md, "Round seven"), per setting: English catches of the rules or
the model on the left-out round's attacks at the ``QUANTILE`` threshold of the fitted
negatives, the left-out round's benign notes flagged, and (with ``--real``) the real
LoCoMo and BEAM texts a fit on everything flags, rules or model.

Round seven's choice: 128 hidden units, L2 1e-4, 130 epochs, the threshold at the
99.95th percentile of the fitted negatives. Round eight's (``CHOSEN``, by the rule below):
256 units stored in float16, otherwise the same, fitted with round eight's examples too.
``--write`` fits it on everything and writes ``src/engram/data/injection_detector.npz``
(``Detector.from_arrays`` reads it); ``--timing`` times it per write beside round five's
linear ``injection_detector.json``, or beside an earlier network (``--before``).
Round seven's grids are ``GRIDS`` (``--grid first|second|third``).

Round eight (docs/safety.md, "Round eight") adds ``scripts/injection_training8.py`` (its
hand-written and wrapped examples, a fourth round left out by ``--by-round``) and the
``eighth`` grid. Its rule, fixed before that grid ran: the most English catches summed
over the four left-out rounds (four, five, six, eight), over every epoch count measured
and the 99.95th and 99.98th percentiles, subject to (a) the left-out rounds' benign notes
flagged, summed, no more than round seven's setting on round seven's data (``mlp h128
round-seven data``, 130 epochs, 99.95th) in the same grid; (b) a fit on everything
flagging at most 6 of the 8,288 real texts and at most 3 of the checked half; (c) a file
of at most 256 KB (wider than 128 units only if stored in float16). Ties go to fewer real
texts flagged, then to the smaller network.
Measured (``--epochs 100,130,160``; 32 units with L2 1e-3 and two seeds of 128 were in
the grid but not run, for time): 256 units, 130 epochs, 99.95th: 95 + 127 + 60 + 122 =
404 catches, 16 notes, 6 real texts (3 of the checked half), chosen; 128 units with round
eight's examples, 160, 99.98th: 401, 17, 4 (2); round seven's setting and data: 389, 17,
5 (2).

    python scripts/fit_injection_mlp.py [--data ../shared/bench] [--by-round] [--real]
        [--grid NAME] [--write] [--timing]
"""

from __future__ import annotations

import argparse
import hashlib
import itertools
import json
import re
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from sklearn.linear_model import LogisticRegression

from engram.bench.injection import ENGLISH, real_texts
from engram.config import Config
from engram.embed import create_embedder
from engram.injection_detector import N_CUES, Detector, cues
from engram.safety import scan

sys.path.insert(0, str(Path(__file__).resolve().parent))
import fit_injection_detector as linear  # noqa: E402  (the data and the linear fit)
import injection_training8  # noqa: E402  (round eight's training-only examples)

OUT = linear.OUT.with_suffix(".npz")
EPOCHS = [100, 130, 160, 200]
#: The thresholds measured (brief idea 4): quantiles of the fitted negatives' scores.
QUANTILES = (0.9995, 0.9998, 0.9999)
#: How many of the fitted half's real texts count as hard negatives (brief idea 3).
HARD = 40
_MLP = {"hidden": 64, "decay": 1e-4, "benign_weight": 30.0}
SWITCHES = {
    "--by-round": "print the grid, each round of training examples left out",
    "--real": "print the real texts each setting's fit on everything flags",
    "--timing": "time both detectors per write",
    "--write": "fit CHOSEN and write OUT",
}
#: The setting chosen by ``--by-round`` (docs/safety.md, "Round seven").
CHOSEN = {**_MLP, "hidden": 256, "epochs": 130, "quantile": 0.9995}
GRIDS: dict[str, dict[str, dict[str, float]]] = {
    "first": {
        "linear": {"C": 32.0, "benign_weight": 30.0},
        "mlp h64 d1e-4": _MLP,
        "mlp h32 d1e-3": {"hidden": 32, "decay": 1e-3, "benign_weight": 30.0},
    },
    "second": {
        "mlp h64 d1e-4 seed 1": {**_MLP, "seed": 1},
        "mlp h64 d1e-4 structural": {**_MLP, "structural": 1},
        "mlp h64 d1e-4 hard x10": {**_MLP, "hard": 10.0},
        "mlp h128 d1e-4": {**_MLP, "hidden": 128},
        "linear structural": {"C": 32.0, "benign_weight": 30.0, "structural": 1},
    },
    "third": {
        "mlp h64 d1e-4 3 seeds": {**_MLP, "seeds": 3},
        "mlp h128 d1e-4 3 seeds": {**_MLP, "hidden": 128, "seeds": 3},
        "mlp h64 d1e-4 3 seeds structural": {**_MLP, "seeds": 3, "structural": 1},
    },
    # Round eight: round seven's setting without and with round eight's examples, then
    # wider (256 units, or two seeds of 128), and a stronger weight decay.
    "eighth": {
        "mlp h128 round-seven data": {**_MLP, "hidden": 128, "r8": 0},
        "mlp h128": {**_MLP, "hidden": 128},
        "mlp h256": {**_MLP, "hidden": 256},
        "mlp h128 d1e-3": {**_MLP, "hidden": 128, "decay": 1e-3},
        "mlp h128 2 seeds": {**_MLP, "hidden": 128, "seeds": 2},
    },
}


class Mlp:
    """A one-hidden-layer network (ReLU, then a logistic output) over standardised
    features, trained with full-batch Adam on the weighted log loss plus an L2 penalty;
    ``snapshots`` keeps its weights at each epoch count asked for (early stopping is
    choosing one of them)."""

    def __init__(self, hidden: int, decay: float, seed: int = 0, seeds: int = 1) -> None:
        self.hidden, self.decay, self.seed, self.seeds = hidden, decay, seed, seeds
        self.params: dict[str, np.ndarray] = {}

    def fit(
        self,
        x: np.ndarray,
        y: np.ndarray,
        w: np.ndarray,
        epochs: Sequence[int],
        rate: float = 2e-3,
    ) -> list[dict[str, np.ndarray]]:
        """Train ``self.seeds`` networks from different starts; each snapshot is their
        logit average, which is one network whose hidden layer holds all their units
        (output weights divided by the count), so it ships and runs as one."""
        self.mean, self.std = x.mean(0), x.std(0) + 1e-6
        runs = [self._train(x, y, w, epochs, rate, self.seed + i) for i in range(self.seeds)]
        out = [
            {
                "w1": np.hstack([r[k]["w1"] for r in runs]),
                "b1": np.concatenate([r[k]["b1"] for r in runs]),
                "w2": np.concatenate([r[k]["w2"] for r in runs]) / len(runs),
                "b2": np.mean([r[k]["b2"] for r in runs], axis=0),
            }
            for k in range(len(epochs))
        ]
        self.params = out[-1]
        return out

    def _train(
        self,
        x: np.ndarray,
        y: np.ndarray,
        w: np.ndarray,
        epochs: Sequence[int],
        rate: float,
        seed: int,
    ) -> list[dict[str, np.ndarray]]:
        rng = np.random.default_rng(seed)
        z = (x - self.mean) / self.std
        d = z.shape[1]
        p = {
            "w1": rng.normal(0, np.sqrt(2 / d), (d, self.hidden)).astype(np.float32),
            "b1": np.zeros(self.hidden, np.float32),
            "w2": rng.normal(0, np.sqrt(1 / self.hidden), self.hidden).astype(np.float32),
            "b2": np.zeros(1, np.float32),
        }
        m = {k: np.zeros_like(v) for k, v in p.items()}
        v2 = {k: np.zeros_like(v) for k, v in p.items()}
        wn = (w / w.sum()).astype(np.float32)
        out = []
        for step in range(1, max(epochs) + 1):
            h = np.maximum(z @ p["w1"] + p["b1"], 0)
            logit = h @ p["w2"] + p["b2"][0]
            prob = 1 / (1 + np.exp(-logit))
            g = wn * (prob - y)  # d loss / d logit
            grads = {
                "w2": h.T @ g + self.decay * p["w2"],
                "b2": np.array([g.sum()], np.float32),
            }
            gh = np.outer(g, p["w2"]) * (h > 0)
            grads["w1"] = z.T @ gh + self.decay * p["w1"]
            grads["b1"] = gh.sum(0)
            for k in p:
                m[k] = 0.9 * m[k] + 0.1 * grads[k]
                v2[k] = 0.999 * v2[k] + 0.001 * grads[k] ** 2
                mh, vh = m[k] / (1 - 0.9**step), v2[k] / (1 - 0.999**step)
                p[k] = (p[k] - rate * mh / (np.sqrt(vh) + 1e-8)).astype(np.float32)
            if step in epochs:
                out.append({k: val.copy() for k, val in p.items()})
        return out

    def probabilities(
        self, x: np.ndarray, params: dict[str, np.ndarray] | None = None
    ) -> np.ndarray:
        p = params or self.params
        h = np.maximum(((x - self.mean) / self.std) @ p["w1"] + p["b1"], 0)
        return np.asarray(1 / (1 + np.exp(-(h @ p["w2"] + p["b2"][0]))), np.float64)


class Data:
    """Features of every text the experiments read, embedded once (cached on disk)."""

    def __init__(self, embedder: object, cache: Path) -> None:
        self.embedder, self.cache = embedder, cache
        self.vectors: dict[str, np.ndarray] = {}
        self.structural = False
        #: The real texts the shipped detector scores highest (brief idea 3).
        self.hard: set[str] = set()
        if cache.exists():
            found = np.load(cache, allow_pickle=False)
            self.vectors = dict(zip(found["keys"].tolist(), found["vectors"], strict=True))

    def features(self, texts: Sequence[str], cue_scale: float = linear.CUE_SCALE) -> np.ndarray:
        keys = [_key(t) for t in texts]
        new = sorted({t for t, k in zip(texts, keys, strict=True) if k not in self.vectors})
        if new:
            got = np.asarray(self.embedder.embed_batch(new), np.float32)  # type: ignore[attr-defined]
            self.vectors.update(zip(map(_key, new), got, strict=True))
            held = sorted(self.vectors)  # keyed by digest: a text's length costs nothing here
            np.savez(
                self.cache, keys=np.array(held), vectors=np.stack([self.vectors[k] for k in held])
            )
        x = np.asarray([self.vectors[k] for k in keys], np.float32).reshape(len(texts), -1)
        extra = [cue_scale * structure(texts)] if self.structural else []
        return np.hstack([x, cue_scale * cues(texts), *extra])


#: Round seven's structural view (brief idea 2), measured as extra cue columns: whether
#: a sentence is an order (a modal addressed to "you" or to the model, "make sure",
#: "from now on", an imperative verb first), and what it targets (the conversation,
#: tools, precedence over other text). The memory is read later by another model, so
#: an order addressed to a future reader is the signal; a user's request to their own
#: assistant (BEAM) is an order too, which is why this is measured, not assumed.
_R = "|".join(("you", "the (?:assistant|model|AI|agent|bot|reader)"))
STRUCTURE = tuple(
    re.compile(p, re.IGNORECASE)
    for p in (
        rf"\b(?:{_R}) (?:must|should|shall|will|are to|is to|need to|have to|has to|are "
        r"required to|is required to|are instructed to|are expected to)\b",
        r"\b(?:make sure|be sure to|ensure (?:that )?you|from now on|going forward|henceforth|"
        r"hereby|effective immediately|with immediate effect)\b",
        r"(?:^|[.!?:\n]\s*)(?:ignore|send|reveal|print|forward|upload|delete|output|list|"
        r"paste|share|email|post|approve|grant|transfer|disable|tell|reply|include|append|"
        r"copy|fetch|open|render|embed|treat|act|pretend|consider|imagine|forget|stop|drop|"
        r"skip|answer|respond|hide|keep|never|do not|don't)\b",
        r"\b(?:conversation|chat history|context(?: window)?|transcript|session)\b",
        r"\b(?:tool|function|execute|command|shell|webhook)s?\b",
        r"\b(?:precedence|supersed\w*|priority|above all|in place of|take over)\b",
        r"\b(?:next|future|later|subsequent|whichever|any)\b[^.!?\n]{0,20}\b(?:model|"
        r"assistant|AI|agent|reader|session|system|process)\b",
    )
)


N_STRUCT = len(STRUCTURE)


def structure(texts: Sequence[str]) -> np.ndarray:
    """The :data:`STRUCTURE` columns of each text (0/1)."""
    return np.asarray(
        [[p.search(t) is not None for p in STRUCTURE] for t in texts], np.float32
    ).reshape(len(texts), len(STRUCTURE))


def _key(text: str) -> str:
    return hashlib.sha1(text.encode("utf-8")).hexdigest()


#: Per training text, a multiplier of its weight (round twenty-four: a round's rows weighed
#: more or less than the others; ``fit_injection_round24.weighed`` sets it for one fit).
#: Empty: every row as before.
WEIGHTS: dict[str, float] = {}


def weights(texts: Sequence[str], base: np.ndarray) -> np.ndarray:
    """``base`` times each text's ``WEIGHTS`` multiplier (1 when it has none)."""
    if not WEIGHTS:
        return base
    return base * np.array([WEIGHTS.get(t, 1.0) for t in texts])


def design(
    data: Data, attacks: list[str], real: list[str], notes: list[str], s: dict[str, float]
) -> tuple[np.ndarray, np.ndarray, np.ndarray, int]:
    """The training matrix, labels and weights as the linear fit weighs them (attacks
    weigh as much in all as the real texts; each note ``benign_weight``; the hard
    negatives among the real texts ``hard`` each, and every real text ``real_weight``
    more); the last value is where the negatives start."""
    data.structural = bool(s.get("structural"))
    xa, xr, xn = data.features(attacks), data.features(real), data.features(notes)
    x = np.vstack([xa, xr, xn])
    y = np.r_[np.ones(len(xa)), np.zeros(len(xr) + len(xn))].astype(np.float32)
    wr = np.array([s.get("hard", 1.0) if t in data.hard else 1.0 for t in real])
    wr *= s.get("real_weight", 1.0)  # round ten: the real texts weighed more than the notes
    w = np.r_[
        weights(attacks, np.full(len(xa), len(xr) / len(xa))),
        wr,
        weights(notes, np.full(len(xn), s["benign_weight"])),
    ]
    return x, y, w, len(xa)


def by_round(
    data: Data,
    attacks: list[tuple[str, str]],
    real: list[str],
    notes: list[str],
    agent: list[str],
    settings: list[tuple[str, dict[str, float]]],
    epochs: list[int],
    only: str = "",
) -> None:
    for name, (out_attacks, out_notes) in rounds().items():
        if only and name != only:
            continue
        test, left, rules_t, rules_n = left_out(attacks, out_attacks, out_notes)
        for label, s in settings:
            drop_a, drop_n = out_attacks | without(s)[0], out_notes | without(s)[1]
            fit_attacks = [t for t, _ in attacks if t not in drop_a]
            fit_notes = [t for t in notes if t not in drop_n] + agent
            x, y, w, start = design(data, fit_attacks, real, fit_notes, s)
            xt, xl = data.features(test), data.features(left)
            scores = scored(label, s, x, y, w, epochs, x[start:], xt, xl)
            for (e, neg, pt, pl), q in itertools.product(scores, QUANTILES):
                th = max(0.5, float(np.quantile(neg, q)))
                caught = int((rules_t | (pt >= th)).sum())
                flagged = int((rules_n | (pl >= th)).sum())
                print(
                    f"{name} {label} epochs={e} q={q}: {caught}/{len(test)} "
                    f"notes {flagged}/{len(left)} (th {th:.3f})",
                    flush=True,
                )


def left_out(
    attacks: list[tuple[str, str]], out_attacks: set[str], out_notes: set[str]
) -> tuple[list[str], list[str], np.ndarray, np.ndarray]:
    """A left-out round's English attacks and benign notes (sorted), and whether the
    rules alone flag each."""
    test = sorted({t for t, cat in attacks if t in out_attacks and cat in ENGLISH})
    left = sorted(out_notes)
    rules_t = np.array([bool(scan(t)) for t in test])
    return test, left, rules_t, np.array([bool(scan(t)) for t in left])


def rounds() -> dict[str, tuple[set[str], set[str]]]:
    """Each round of hand-written training examples (attacks, benign notes): rounds four
    to six's (``fit_injection_detector.rounds``) and round eight's with its wrapped ones."""
    attacks, notes = round_eight()
    return {**linear.rounds(), "round eight": ({t for t, _ in attacks}, set(notes))}


def round_eight() -> tuple[list[tuple[str, str]], list[str]]:
    """Round eight's training-only attacks (with category) and benign notes
    (``scripts/injection_training8.py``), the wrapped ones included."""
    found = injection_training8.ROUND_EIGHT_ATTACKS
    attacks = [(t, cat) for cat, ts in found.items() for t in ts]
    wrapped_attacks, wrapped_notes = injection_training8.wrapped()
    return attacks + wrapped_attacks, injection_training8.ROUND_EIGHT_BENIGN + wrapped_notes


def without(s: dict[str, float]) -> tuple[set[str], set[str]]:
    """The training texts setting ``s`` leaves out: round eight's when ``r8`` is 0 (round
    seven's data, to measure round eight's examples against)."""
    if s.get("r8", 1):
        return set(), set()
    attacks, notes = round_eight()
    return {t for t, _ in attacks}, set(notes)


def scored(
    label: str,
    s: dict[str, float],
    x: np.ndarray,
    y: np.ndarray,
    w: np.ndarray,
    epochs: list[int],
    *rows: np.ndarray,
) -> list[tuple[int, ...]]:
    """Fit setting ``s`` (a linear model when ``label`` says so, else the network) and
    score each of ``rows``: per epoch count kept (0 for the linear model), the count and
    one probability array per ``rows``."""
    if label.startswith("linear"):
        lr = LogisticRegression(C=s["C"], max_iter=5000).fit(x, y, sample_weight=w)
        return [(0, *(lr.predict_proba(r)[:, 1] for r in rows))]
    mlp = Mlp(int(s["hidden"]), s["decay"], int(s.get("seed", 0)), int(s.get("seeds", 1)))
    snaps = mlp.fit(x, y, w, epochs, s.get("rate", 2e-3))
    return [
        (e, *(mlp.probabilities(r, p) for r in rows)) for e, p in zip(epochs, snaps, strict=True)
    ]


@dataclass(frozen=True)
class Training:
    """Everything a fit on all training data reads: the attacks, every real text and the
    indices of the fitted half, the benign notes and the agent notes."""

    attacks: list[tuple[str, str]]
    real_all: list[str]
    fitted: np.ndarray
    notes: list[str]
    agent: list[str]

    def design(self, data: Data, s: dict[str, float]) -> tuple[np.ndarray, ...]:
        real = [self.real_all[i] for i in self.fitted]
        out_a, out_n = without(s)
        attacks = [t for t, _ in self.attacks if t not in out_a]
        x, y, w, start = design(
            data, attacks, real, [t for t in self.notes if t not in out_n] + self.agent, s
        )
        checked = np.ones(len(self.real_all), bool)
        checked[self.fitted] = False
        return x, y, w, x[start:], checked


def real_flagged(
    data: Data, t: Training, label: str, s: dict[str, float], epochs: list[int]
) -> None:
    x, y, w, negatives, checked = t.design(data, s)
    real_all = t.real_all
    xr = data.features(real_all)
    runs = scored(label, s, x, y, w, epochs, negatives, xr)
    rules = np.array([bool(scan(t)) for t in real_all])
    for e, neg, pr in runs:
        for q in QUANTILES:
            th = max(0.5, float(np.quantile(neg, q)))
            hit = rules | (pr >= th)
            print(
                f"real {label} epochs={e} q={q}: {int(hit.sum())} of {len(real_all)}, "
                f"checked half {int(hit[checked].sum())} (th {th:.4f})",
                flush=True,
            )


def write(data: Data, t: Training, name: str) -> None:
    """Fit ``CHOSEN`` on everything and write ``OUT``, with the threshold at its
    ``quantile`` (``linear.QUANTILE`` by default) of the fitted negatives. A hidden layer
    wider than 128 units is stored in float16 (the file stays near round seven's 196 KB;
    the threshold is read off the rounded weights, which is what a write computes)."""
    s = CHOSEN
    x, y, w, negatives, checked = t.design(data, s)
    mlp = Mlp(int(s["hidden"]), s["decay"], int(s.get("seed", 0)), int(s.get("seeds", 1)))
    mlp.fit(x, y, w, [int(s["epochs"])])
    p = mlp.params
    if p["w1"].shape[1] > 128:
        p["w1"] = p["w1"].astype(np.float16)
        mlp.params = {**p, "w1": p["w1"].astype(np.float32)}
    quantile = s.get("quantile", linear.QUANTILE)
    threshold = max(0.5, float(np.quantile(mlp.probabilities(negatives), quantile)))
    np.savez_compressed(
        OUT,
        embedder=np.array(name),
        threshold=np.float32(threshold),
        cue_scale=np.float32(linear.CUE_SCALE),
        intercept=p["b2"][0],
        coef=p["w2"],
        mean=mlp.mean.astype(np.float32),
        std=mlp.std.astype(np.float32),
        w1=p["w1"],
        b1=p["b1"],
    )
    hit = mlp.probabilities(data.features(t.real_all)) >= threshold
    print(
        f"{OUT}: threshold {threshold:.4f}; real texts {int(hit.sum())}, "
        f"checked half {int(hit[checked].sum())}"
    )


def round_five() -> Detector:
    """Round five's linear detector, ``data/injection_detector.json``."""
    return Detector.from_mapping(json.loads(linear.OUT.read_text("utf-8")))


def timing(data: Data, real_all: list[str], before: str = "") -> None:
    """Per write, the rules and each detector on every eighth real text, one at a time,
    the two detectors interleaved per text (the vector is the one the write computes
    anyway, so it is not timed): median, mean and p95 in ms. ``before``: the ``.npz`` of
    an earlier network to time against (round seven's, kept by round eight), else round
    five's linear detector."""
    old = Detector.from_arrays(dict(np.load(before))) if before else round_five()
    new = Detector.from_arrays(dict(np.load(OUT)))
    texts = real_all[::8]
    vectors = data.features(texts, 0.0)[:, :-N_CUES]
    took: dict[str, list[float]] = {f"before ({before or 'round five'})": [], "network": []}
    for text, vector in zip(texts, vectors, strict=True):
        for name, detector in zip(took, (old, new), strict=True):
            start = time.perf_counter()
            if not scan(text):
                detector.reasons(vector[None, :], [text])
            took[name].append(1000 * (time.perf_counter() - start))
    report_timings(took)


def report_timings(took: dict[str, list[float]], digits: int = 2) -> None:
    """Each detector's milliseconds a write: median, mean and p95."""
    for name, ms in took.items():
        print(
            f"{name}: {len(ms)} texts, median {np.median(ms):.{digits}f} ms, mean "
            f"{np.mean(ms):.{digits}f} ms, p95 {np.quantile(ms, 0.95):.{digits}f} ms"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", default="../shared/bench")
    parser.add_argument("--home", default="/tmp/engram-fit-detector")
    parser.add_argument("--cache", default="/tmp/engram-fit-detector/round8-vectors.npz")
    for flag, what in SWITCHES.items():
        parser.add_argument(flag, action="store_true", help=what)
    parser.add_argument("--grid", default="first", choices=sorted(GRIDS))
    parser.add_argument("--before", default="", help="with --timing: an earlier .npz to time")
    parser.add_argument("--round", default="", help="with --by-round: leave out this round only")
    parser.add_argument("--only", default="", help="run only the grid's settings named so (a|b)")
    parser.add_argument("--epochs", default="", help="epoch counts to keep (100,130)")
    args = parser.parse_args()
    embedder = create_embedder(Config().embedder, Path(args.home))
    data = Data(embedder, Path(args.cache))
    attacks, notes, agent = linear.training_sets(True)
    eight_attacks, eight_notes = round_eight()
    attacks, notes = attacks + eight_attacks, notes + eight_notes
    real_all = [text for _, text in real_texts(args.data)]
    fitted, _ = linear.halves(len(real_all))
    real = [real_all[i] for i in fitted]
    picked = set(args.only.split("|")) if args.only else set(GRIDS[args.grid])
    settings = [(k, v) for k, v in GRIDS[args.grid].items() if k in picked]
    epochs = [int(e) for e in args.epochs.split(",")] if args.epochs else EPOCHS
    # The real texts round five's detector (the one shipped before round seven) scores
    # highest: the hard negatives of idea 3.
    found = round_five().probabilities(data.features(real, 0.0)[:, :-N_CUES], real)
    data.hard = {real[i] for i in np.argsort(-found)[:HARD]}
    everything = Training(attacks, real_all, fitted, notes, agent)
    if args.write:
        write(data, everything, embedder.name)
    if args.timing:
        timing(data, real_all, args.before)
    if args.by_round:
        by_round(data, attacks, real, notes, agent, settings, epochs, args.round)
    if args.real:
        for label, s in settings:
            real_flagged(data, everything, label, s, epochs)


if __name__ == "__main__":
    main()
