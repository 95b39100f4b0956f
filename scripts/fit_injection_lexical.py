"""Round twelve of the learned injection detector (engram issue 26, item 3; docs/safety.md,
"Round twelve"): round eleven's leftover fits (its training examples with the notes
weighed x2 or x3), and the lexical view beside the network: a hashed word (and
character) n-gram logistic model, combined with the network by ``max`` (a text is
flagged when either model's score reaches its threshold).

Why: weighing the benign notes more moved round eleven along the same catches-for-notes
curve (docs/safety.md, "Round eleven"); the misses the issue lists are phrasings ("from
this point on", "whichever assistant reads this", "set aside everything you were told")
that a bag of word n-grams sees as such while a sentence embedding averages them into an
ordinary note. Round twelve's own training examples (``scripts/injection_training12.py``,
written after held-out 11) feed the lexical model in the settings that name ``r12``.

Network settings (``GRID``; each read at 100, 130 and 160 epochs and with every
threshold in ``NET_THRESHOLDS``): ``notes x2 + r11`` and ``notes x3 + r11`` (round ten's
fit with the real texts weighed 3, the notes 60 or 90, and round eleven's examples),
then, if time allows, ``notes x2 + r11 + r12``. Lexical settings (``LEXICAL``, fitted with
sklearn's logistic regression on the same texts and weights as the network setting
beside it; at run time only the hashing and the coefficients): ``words`` (word 1-3
grams), ``words + chars`` (and character 4-grams), each with and without round twelve's
examples (``+ r12``), each read with every threshold in ``LEX_THRESHOLDS``.

The rule, fixed and committed before the grid ran: the most English catches summed over
the five left-out rounds (four, five, six, eight, nine; ``--by-round``), over every
network cell alone and every network cell combined with every lexical cell, subject to
(a) the left-out rounds' benign notes flagged, summed, at most 16 (the shipped setting,
    ``notes x2`` at 130 epochs, flagged 16 there with 473 catches);
(b) a fit on everything (``--real``) flagging at most 2 of the 8,288 real texts (the
    shipped detector flags 2) and at most 2 of the checked half;
(c) more catches than the shipped setting's 473 (else nothing is read and the shipped
    detector stays);
(d) the shipped files at most 512 KB together (the network is 196 KB; a lexical model
    of 2^16 float16 coefficients 128 KB), and, for a combined cell, a write's median
    time within 0.2 ms of the shipped detector's (``--timing``, side by side, measured
    after the choice; a cell that fails it gives way to the next by this rule).
Ties go to fewer left-out notes, then fewer real texts, then the network alone before a
combined cell, then fewer epochs.

Ran (load 6-12; every setting, every left-out round): 351 cells, 65 within the rule.
First by the rule: ``notes x2 + r11``, 160 epochs, fixed 0.6, with ``words + chars`` at
its fitted 0.9995: 94 / 131 / 74 / 128 / 79 = 506 catches, 12 notes, 1 real text (1
checked); but a write's median rose 0.204 ms (0.684 -> 0.888 ms, side by side, load
4.5-4.9), over (d); every ``words + chars`` cell pays the same hashing, so each gives
way. Next: ``notes x2 + r11 + r12``, 160 epochs, fixed 0.6, with ``words`` at its
fitted 0.9995: 94 / 130 / 76 / 126 / 78 = 504, 14 notes, 2 real texts (2 checked),
321 KB, the median +0.126 ms (0.611 -> 0.737 ms, load 4.8-5.2): **chosen**. The
network alone within the rule: ``notes x2 + r11``, 130 epochs, 0.9995: 476, 16, 2 (2).
Read once after the choice (``--read``): 80 of held-out 11's 96 English attacks against
the shipped detector's 76, 2 real texts against 2, but benign notes 25 against 23 summed
over held-out 2 to 11 (held-out 8 and 10 two more each, held-out 9 two fewer): by the
ship rule it **does not ship**, and round eleven's network stays (docs/safety.md, "Round
twelve", every cell and fold).

The ship rule, fixed and committed before held-out 10 (a check, read once in round
eleven) and held-out 11 (fresh) are read, each once, side by side with the shipped
detector: the choice ships if its English catches on held-out 11 are at least the
shipped detector's, it flags at most 2 of the 8,288 real texts, and it flags no more
benign notes than the shipped detector summed over held-out 2 to 11. If no cell meets
the rule above, nothing is read against a candidate and the shipped detector stays.

    python scripts/fit_injection_lexical.py [--data ../shared/bench] [--by-round]
        [--real] [--round NAME] [--only A|B] [--scores DIR] [--combine]
        [--write PATH] [--read BEFORE AFTER LEXICAL] [--timing BEFORE AFTER LEXICAL]

(``LEXICAL`` is the written lexical model's path, or "" for the network alone.)
"""

from __future__ import annotations

import functools
import itertools
import re
import sys
import zlib
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from engram.bench.injection import real_texts
from engram.safety import scan

sys.path.insert(0, str(Path(__file__).resolve().parent))
import fit_injection_mlp as mlp  # noqa: E402  (round eight's network, data and harness)
import fit_injection_notes as notes  # noqa: E402  (round eleven's fit and thresholds)
import fit_injection_threshold as threshold  # noqa: E402  (round ten's harness)
import fit_injection_window as window  # noqa: E402  (round nine's rounds)
import injection_training12  # noqa: E402  (round twelve's training-only examples)

GRID: dict[str, dict[str, float]] = {
    "notes x2 + r11": {**notes.GRID["notes x2"], "r11": 1},
    "notes x3 + r11": notes.GRID["notes x3 + r11"],
    "notes x2 + r11 + r12": {**notes.GRID["notes x2"], "r11": 1, "r12": 1},
}
NET_THRESHOLDS: tuple[tuple[str, float], ...] = (
    ("fitted", 0.9995),
    ("fixed", 0.6),
    ("fixed", 0.7),
)
#: The lexical settings: character n-gram length (0: words only), round twelve's examples.
LEXICAL: dict[str, dict[str, float]] = {
    "words": {"chars": 0, "r12": 0},
    "words + r12": {"chars": 0, "r12": 1},
    "words + chars": {"chars": 4, "r12": 0},
    "words + chars + r12": {"chars": 4, "r12": 1},
}
#: (kind, value): ``fitted`` a quantile of the lexical scores of the fitted negatives
#: (real texts and notes; at least 0.5), ``fixed`` the threshold itself.
LEX_THRESHOLDS: tuple[tuple[str, float], ...] = (
    ("fitted", 0.9995),
    ("fixed", 0.8),
    ("fixed", 0.9),
)
#: What ``--write`` fits: (network setting, epochs, kind, value) and the lexical cell
#: (name, kind, value) or None; chosen by the rule above; none until the grid has run.
CHOSEN: tuple[tuple[str, int, str, float], tuple[str, str, float] | None] | None = (
    ("notes x2 + r11 + r12", 160, "fixed", 0.6),
    ("words", "fitted", 0.9995),
)
#: Hashed feature space (2^16 float16 coefficients: 128 KB).
BITS = 16


#: Words (letters and digits) and single punctuation marks are the tokens.
_TOKEN = re.compile(r"[^\W_]+|[^\w\s]", re.UNICODE)


@functools.cache
def hashed(
    text: str, chars: int, wb: tuple[int, int] = (0, 0), bits: int = BITS
) -> tuple[int, ...]:
    """The distinct hashed n-gram indices of ``text``: word 1-3 grams of its lower case
    (whitespace collapsed), and its character ``chars``-grams when ``chars`` is set, each
    CRC-32 hashed into ``2 ** BITS`` buckets (CRC-32: stable across processes and
    machines, unlike ``hash``); kept, as the grid hashes each text many times. ``wb``
    (round seventeen): the run-time hashing of ``engram.injection_lexical`` with its
    words' character n-grams of those lengths, into ``2 ** bits`` buckets."""
    if wb[0]:
        from engram.injection_lexical import hashed as shipped_hashed

        return tuple(sorted(shipped_hashed(text, bits, wb)))
    low = " ".join(text.lower().split())
    words = _TOKEN.findall(low)
    grams = list(words)
    grams += [a + " " + b for a, b in zip(words, words[1:], strict=False)]
    grams += [a + " " + b + " " + c for a, b, c in zip(words, words[1:], words[2:], strict=False)]
    if chars:
        grams += ["#" + low[i : i + chars] for i in range(max(0, len(low) - chars + 1))]
    mask = (1 << BITS) - 1
    return tuple(sorted({zlib.crc32(g.encode()) & mask for g in grams}))


def matrix(
    texts: Sequence[str], chars: int, wb: tuple[int, int] = (0, 0), bits: int = BITS
) -> object:
    """Rows of L2-normalised binary hashed features (a scipy CSR matrix)."""
    from scipy.sparse import csr_matrix

    indptr, indices = [0], []
    for text in texts:
        found = hashed(text, chars, wb, bits)
        indices += list(found)
        indptr.append(len(indices))
    counts = np.diff(indptr)
    data = np.repeat(1.0 / np.sqrt(np.maximum(counts, 1)), counts)
    return csr_matrix((data, indices, indptr), shape=(len(texts), 1 << bits))


class Lexical:
    """A hashed n-gram logistic model fitted on attacks against real texts and notes,
    weighed as ``fit_injection_mlp.design`` weighs the network's."""

    def __init__(
        self,
        lex: dict[str, float],
        s: dict[str, float],
        attacks: list[str],
        real: list[str],
        negatives: list[str],
    ) -> None:
        from sklearn.linear_model import LogisticRegression

        self.chars = int(lex["chars"])
        # Round seventeen's character view (``wb``: its n-gram lengths) and buckets.
        self.wb = (int(lex.get("wb_low", 0)), int(lex.get("wb_high", 0)))
        self.bits = int(lex.get("bits", BITS))
        x = matrix(attacks + real + negatives, self.chars, self.wb, self.bits)
        y = np.r_[np.ones(len(attacks)), np.zeros(len(real) + len(negatives))]
        w = np.r_[
            mlp.weights(attacks, np.full(len(attacks), len(real) / len(attacks))),
            np.full(len(real), s.get("real_weight", 1.0)),
            mlp.weights(negatives, np.full(len(negatives), s["benign_weight"])),
        ]
        model = LogisticRegression(C=1.0, max_iter=3000).fit(x, y, sample_weight=w)
        self.coef = model.coef_[0].astype(np.float16).astype(np.float64)
        self.intercept = float(model.intercept_[0])
        fitted = self.scores(real + negatives)
        self.fitted = fitted

    def scores(self, texts: Sequence[str]) -> np.ndarray:
        found = [hashed(t, self.chars, self.wb, self.bits) for t in texts]
        z = np.array([self.coef[list(f)].sum() for f in found])
        # The rows are normalised by the square root of their feature count.
        n = np.array([max(1, len(f)) for f in found])
        return np.asarray(1.0 / (1.0 + np.exp(-(z / np.sqrt(n) + self.intercept))))

    def threshold(self, kind: str, value: float) -> float:
        if kind == "fixed":
            return value
        return max(0.5, float(np.quantile(self.fitted, value)))


#: What a setting leaves out: round eleven's rule, and round twelve's examples unless
#: ``r12`` is set.
#: Round twelve's training-only examples.
TWELVE = notes.examples(
    injection_training12.ROUND_TWELVE_ATTACKS, injection_training12.ROUND_TWELVE_BENIGN
)
dropped = notes.adding(notes.dropped, "r12", TWELVE)


def training(real_all: list[str]) -> mlp.Training:
    """Round eleven's training data and round twelve's examples (``dropped`` decides)."""
    return notes.with_examples(notes.training(real_all), TWELVE)


def by_round(data: mlp.Data, t: mlp.Training, picked: list[str], only: str, out: Path) -> None:
    """Per left-out round and network setting, the left-out English attacks' and notes'
    scores at every epoch count and threshold, printed and kept in ``out``."""
    real = [t.real_all[i] for i in t.fitted]
    for name, (out_attacks, out_notes) in window.rounds().items():
        if only and name != only:
            continue
        test, left, rules_t, rules_n = mlp.left_out(t.attacks, out_attacks, out_notes)
        for label in picked:
            s = GRID[label]
            drop_a, drop_n = out_attacks | dropped(s)[0], out_notes | dropped(s)[1]
            fit = notes.Fit(
                data,
                s,
                [a for a, _ in t.attacks if a not in drop_a],
                real,
                [n for n in t.notes if n not in drop_n] + t.agent,
                t.real_all,
            )
            st, sl = fit.scores(test, 0), fit.scores(left, 0)
            ths = np.array(
                [[fit.threshold(k, v, i) for k, v in NET_THRESHOLDS] for i in range(len(st))]
            )
            np.savez(out / f"{label}--{name}.npz", st=np.array(st), sl=np.array(sl), th=ths)
            for (i, e), (j, (kind, value)) in itertools.product(
                enumerate(window.EPOCHS), enumerate(NET_THRESHOLDS)
            ):
                caught = int((rules_t | (st[i] >= ths[i, j])).sum())
                flagged = int((rules_n | (sl[i] >= ths[i, j])).sum())
                print(
                    f"{name} | {label} | epochs={e} {kind} {value}: {caught}/{len(test)} "
                    f"notes {flagged}/{len(left)} (th {ths[i, j]:.4f})",
                    flush=True,
                )


def real(data: mlp.Data, t: mlp.Training, picked: list[str], out: Path) -> None:
    """Per network setting fitted on everything, every real text's score, kept in ``out``."""
    for label in picked:
        fit = threshold.everything_fit(data, t, GRID[label], dropped, notes.Fit)
        scores = np.array(fit.real_all_scores)
        ths = np.array(
            [[fit.threshold(k, v, i) for k, v in NET_THRESHOLDS] for i in range(len(scores))]
        )
        np.savez(out / f"{label}--real.npz", scores=scores, th=ths)
        print(f"real | {label}: kept", flush=True)


def combine(t: mlp.Training, picked: list[str], out: Path) -> None:
    """Every cell of the rule: each network cell alone and with each lexical cell (the
    lexical model fitted on the same texts per left-out round, and on everything)."""
    real_fitted = [t.real_all[i] for i in t.fitted]
    rules_real = np.array([bool(scan(x)) for x in t.real_all])
    checked = np.ones(len(t.real_all), bool)
    checked[t.fitted] = False
    for label in picked:
        s = GRID[label]
        saved = {n: out / f"{label}--{n}.npz" for n in [*window.rounds(), "real"]}
        if not all(p.exists() for p in saved.values()):
            print(f"{label}: not every left-out round ran", flush=True)
            continue
        per_round = []
        for name, (out_attacks, out_notes) in window.rounds().items():
            test, left, rules_t, rules_n = mlp.left_out(t.attacks, out_attacks, out_notes)
            got = np.load(saved[name])
            lex = {}
            for lname, ls in LEXICAL.items():
                both = {**s, "r12": ls["r12"]}
                drop_a, drop_n = out_attacks | dropped(both)[0], out_notes | dropped(both)[1]
                model = Lexical(
                    ls,
                    s,
                    [a for a, _ in t.attacks if a not in drop_a],
                    real_fitted,
                    [n for n in t.notes if n not in drop_n] + t.agent,
                )
                lex[lname] = (model, model.scores(test), model.scores(left))
            per_round.append((rules_t, rules_n, got, lex))
        got_real = np.load(saved["real"])
        lex_real = {}
        for lname, ls in LEXICAL.items():
            both = {**s, "r12": ls["r12"]}
            drop_a, drop_n = dropped(both)
            model = Lexical(
                ls,
                s,
                [a for a, _ in t.attacks if a not in drop_a],
                real_fitted,
                [n for n in t.notes if n not in drop_n] + t.agent,
            )
            lex_real[lname] = (model, model.scores(t.real_all))
        cells: list[tuple[str, ...]] = [("",)]
        cells += [(ln, k, str(v)) for ln in LEXICAL for k, v in LEX_THRESHOLDS]
        for (i, e), (j, (kind, value)), cell in itertools.product(
            enumerate(window.EPOCHS), enumerate(NET_THRESHOLDS), cells
        ):
            caught = flagged = 0
            counts = []
            for rules_t, rules_n, got, lex in per_round:
                hit_t = rules_t | (got["st"][i] >= got["th"][i, j])
                hit_n = rules_n | (got["sl"][i] >= got["th"][i, j])
                if cell[0]:
                    model, lt, ln_ = lex[cell[0]]
                    lth = model.threshold(cell[1], float(cell[2]))
                    hit_t, hit_n = hit_t | (lt >= lth), hit_n | (ln_ >= lth)
                caught += int(hit_t.sum())
                flagged += int(hit_n.sum())
                counts.append(int(hit_t.sum()))
            hit = rules_real | (got_real["scores"][i] >= got_real["th"][i, j])
            if cell[0]:
                model, lr = lex_real[cell[0]]
                hit |= lr >= model.threshold(cell[1], float(cell[2]))
            lexname = " + ".join(cell) if cell[0] else "alone"
            print(
                f"cell | {label} | epochs={e} {kind} {value} | lexical {lexname}: "
                f"{caught} ({' / '.join(map(str, counts))}) notes {flagged} real "
                f"{int(hit.sum())} ({int(hit[checked].sum())})",
                flush=True,
            )


def write(data: mlp.Data, t: mlp.Training, name: str, out: Path) -> None:
    """Fit ``CHOSEN`` on everything: the network to ``out`` (round eight's layout), and
    its lexical model, if any, beside it (``injection_lexical.npz``)."""
    if CHOSEN is None:
        raise SystemExit("nothing chosen yet: run --by-round, --real and --combine first")
    net, lexical = CHOSEN
    threshold.write(data, t, name, out, net, GRID, dropped, notes.Fit)
    if lexical is None:
        return
    s = GRID[net[0]]
    lname, kind, value = lexical
    ls = LEXICAL[lname]
    drop_a, drop_n = dropped({**s, "r12": ls["r12"]})
    model = Lexical(
        ls,
        s,
        [a for a, _ in t.attacks if a not in drop_a],
        [t.real_all[i] for i in t.fitted],
        [n for n in t.notes if n not in drop_n] + t.agent,
    )
    path = out.with_name("injection_lexical.npz")
    np.savez_compressed(
        path,
        coef=model.coef.astype(np.float16),
        intercept=np.float32(model.intercept),
        threshold=np.float32(model.threshold(kind, value)),
        bits=np.int64(BITS),
        chars=np.int64(model.chars),
    )
    hit = np.array([bool(scan(x)) for x in t.real_all]) | (
        model.scores(t.real_all) >= model.threshold(kind, value)
    )
    print(f"{path}: {path.stat().st_size} bytes; lexical alone with the rules: {hit.sum()} real")


class Saved:
    """A written lexical model (``write``), scored as a write would score it."""

    def __init__(self, path: str) -> None:
        with np.load(path) as got:
            self.coef = got["coef"].astype(np.float64)
            self.intercept = float(got["intercept"])
            self.threshold = float(got["threshold"])
            self.chars = int(got["chars"])

    def probability(self, text: str) -> float:
        found = list(hashed(text, self.chars))
        z = self.coef[found].sum() / np.sqrt(max(1, len(found))) + self.intercept
        return float(1.0 / (1.0 + np.exp(-z)))


def read(
    data: mlp.Data, real_all: list[tuple[str, str]], before: str, after: str, lexical: str
) -> None:
    """Every fold read once, the rules alone, the shipped detector and the choice side by
    side (``fit_injection_window.read``), the choice's lexical model, if any, ORed in."""

    def wrap(net: window.Check) -> window.Check:
        model = Saved(lexical)

        def combined(text: str) -> tuple[str, ...]:
            return net(text) or (("lexical",) if model.probability(text) >= model.threshold else ())

        return combined

    window.read(data, real_all, before, after, wrap if lexical else None)


def timing(embedder: object, real_all: list[str], before: str, after: str, lexical: str) -> None:
    """Per write, the rules and the shipped detector against the rules, the choice's
    network and its lexical model (every eighth real text, one at a time, interleaved per
    text, the write's own vector not timed): median, mean and p95 in ms."""
    import time

    from engram.injection_detector import Detector

    nets = {
        n: Detector.from_arrays(dict(np.load(p))) for n, p in (("before", before), ("after", after))
    }
    model = Saved(lexical) if lexical else None
    texts = real_all[::8]
    vectors = np.asarray(embedder.embed_batch(texts), np.float32)  # type: ignore[attr-defined]
    took: dict[str, list[float]] = {n: [] for n in nets}
    for text, vector in zip(texts, vectors, strict=True):
        for name, detector in nets.items():
            start = time.perf_counter()
            if not scan(text):
                flagged = detector.reasons(vector[None, :], [text])[0]
                if name == "after" and model is not None and flagged is None:
                    model.probability(text)
            took[name].append(1000 * (time.perf_counter() - start))
    mlp.report_timings(took, 3)


def main() -> None:
    parser = window.grid_parser(__doc__ or "", "round12-vectors.npz")
    parser.add_argument("--scores", default="/tmp/engram-fit-detector/round12-scores")
    parser.add_argument("--combine", action="store_true", help="every cell of the rule")
    parser.add_argument("--read", nargs=3, metavar=("BEFORE", "AFTER", "LEXICAL"))
    parser.add_argument("--timing", nargs=3, metavar=("BEFORE", "AFTER", "LEXICAL"))
    args, embedder, real_all = window.grid_setup(parser)
    if args.timing:
        timing(embedder, real_all, *args.timing)
        return
    out = Path(args.scores)
    out.mkdir(parents=True, exist_ok=True)
    t = training(real_all)
    picked = args.only.split("|") if args.only else list(GRID)
    if args.read:
        read(mlp.Data(embedder, Path(args.cache)), real_texts(args.data), *args.read)
        return
    if args.write:
        write(mlp.Data(embedder, Path(args.cache)), t, embedder.name, Path(args.write))
    if args.by_round or args.real:
        data = mlp.Data(embedder, Path(args.cache))
        if args.by_round:
            by_round(data, t, picked, args.round, out)
        if args.real:
            real(data, t, picked, out)
    if args.combine:
        combine(t, picked, out)


if __name__ == "__main__":
    main()
