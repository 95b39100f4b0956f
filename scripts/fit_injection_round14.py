"""Round fourteen of the learned injection detector (engram issue 26, item 3;
docs/safety.md, "Round fourteen"): round thirteen's logistic on the network's and the
lexical view's scores, with its threshold bounded by the benign notes **and** the real
texts together, the real texts weighed more in its fit, and round fourteen's training
examples (``scripts/injection_training14.py``, written after held-out 13) in the lexical
model.

Why: round thirteen's logistic on the two scores caught the most on the left-out rounds
(523-528 against the network's 472) but flagged 21-29 left-out notes (the network 17)
and 5-9 real texts, because its threshold was read off the notes alone; the real texts'
out-of-fold scores never bounded it.

The network is the shipped setting and file (round eleven's ``notes x2``, 130 epochs,
fitted 0.9995 quantile), refitted once per left-out round (rounds four, five, six, eight
and nine) by round thirteen's harness on round thirteen's data (``--by-round`` runs
``fit_injection_round13.by_round``; round thirteen's saved scores may be copied instead,
and ``--by-round --round NAME`` checks that one round reproduces them). The lexical model
(``words``, word 1-3 grams hashed into 2^16 buckets, a logistic regression) is fitted per
left-out round on the texts the network read there (``--lexical``), in the settings of
``LEXICAL``: its notes weighed x2, x3 and x4 (60, 90, 120 per note), each without and
with round thirteen's and fourteen's examples (``+ r13 + r14``; the network never reads
them). Each lexical setting is read in every mode of ``MODES`` (``--combine``):

- ``logistic, notes`` (round thirteen's cell, a check on the harness): the logistic on
  the two scores' logits, fitted out of fold on the other four rounds' left-out attacks
  against their left-out notes and the checked half of the real texts (weighed 3), its
  threshold the lowest (at least 0.5) at which those rounds' notes flagged are no more
  than the network alone's there;
- ``logistic rW, both`` (brief levers a and b): the same logistic with the checked real
  texts weighed W (3: round thirteen's fit, lever a; 30 and 300: lever b, the real texts
  weighed more), its threshold the lowest (at least 0.5) at which the other four rounds'
  notes flagged **and** the checked real texts flagged by those rounds' fits (their
  out-of-fold scores) are each no more than the network alone's there. For the fit on
  everything: fitted on all five rounds, its threshold read the same way on all five,
  applied to the shipped network's and the lexical model fitted on everything's scores.

The rule, fixed and committed before the grid runs: the most English catches summed over
the five left-out rounds, over every cell above, subject to
(a) the left-out rounds' benign notes flagged, summed, no more than the network alone
    flags there (17 in round thirteen's grid);
(b) the shipped network with the cell's lexical model fitted on everything and its
    logistic flagging at most 2 of the 8,288 real texts (the shipped detector flags 2)
    and at most 2 of the checked half;
(c) more catches than the network alone (472 in round thirteen's grid; else nothing is
    read against a candidate and the shipped detector stays);
(d) the shipped files at most 512 KB together, and a write's median time within 0.2 ms
    of the shipped detector's (``--timing``, side by side, measured after the choice; a
    cell that fails it gives way to the next).
Ties go to fewer left-out notes, then fewer real texts, then the lower real-text weight,
then fewer notes weight, then without the new examples. ``logistic, notes`` is round
thirteen's cell, read only as a check: it is not a candidate.

Ran (load 8; every cell; the network's scores per left-out round are round thirteen's,
and a refit of round nine reproduced them exactly): the network alone 472 (95 / 124 / 58
/ 123 / 72), 17 notes, 2 real texts (2 checked); its five fits flag 17 checked real texts
out of fold. Round thirteen's cells reproduce (``notes x2``: 523, 21 notes, 6 real).
Bounded by the notes and the real texts, the logistic keeps 515-524 catches and, with
the lexical notes at x3, stays within the notes (``notes x3``, ``r3``/``r30``: 516-518
with 16 notes; ``notes x3 + r13 + r14``: 523-524 with 17), but every cell flags 5-9 of
the 8,288 real texts with the shipped network and the lexical model fitted on
everything: the real-text budget read out of fold (17 over five fits of 4,144 texts, the
per-round networks' rate) allows about four times the shipped detector's rate (2 of
8,288). **No cell meets the rule.**

A second grid, its rule written after the first grid was read (left-out rounds only; no
held-out fold read) and committed before it runs: the modes ``logistic rW, tight``, the
same logistic with its threshold bounded by the notes as above and by the checked real
texts at the shipped detector's rate, at most one per fit's checked half (2 of 8,288 is 1
of 4,144): at most 4 over the other four rounds' fits, at most 5 over all five for the
fit on everything. The rule is the first grid's, (a) to (d), over these cells.

Ran (seconds: the scores were kept): every cell within (a) to (c): 496-508 catches, 9-14
notes, 1-2 real texts (0-1 checked). First: ``notes x2 + r13 + r14`` with ``r30`` and
``r300`` tied (95 / 129 / 81 / 126 / 77 = 508, 12 notes, 2 real texts, 1 checked); the
lower weight, ``r30`` (threshold 0.9824), is **chosen** (``CHOSEN``). ``--write``: 124 KB
beside the network's 196 KB, 2 real texts (1 checked) through the run-time code
(``engram.injection_lexical`` since round fifteen); ``--timing`` (side by side, load
8.6-10): a write's median +0.129 and +0.117 ms (0.626 -> 0.755, 0.568 -> 0.685 ms),
within (d); a first version of the run-time code in numpy arrays took +0.238 ms (load 11), over it.

The ship rule, fixed and committed before held-out 13 (fresh) and held-out 10, 11 and 12
(checks; partly seen) are read, once, side by side with the shipped detector on the same
cached embeddings (``--read``): the choice ships if its English catches on held-out 13
are at least the shipped detector's, it flags at most 2 of the 8,288 real texts, and it
flags no more benign notes than the shipped detector summed over held-out 2 to 13. If no
cell meets the rule above, nothing is read against a candidate and the shipped detector
stays (held-out 13 is then read with the shipped detector alone, for its test).

    python scripts/fit_injection_round14.py [--data ../shared/bench] [--by-round]
        [--round NAME] [--lexical] [--combine [--tight]] [--write PATH] [--timing LEXICAL]
        [--read [LEXICAL]]
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from dataclasses import replace
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
import fit_injection_round13 as r13  # noqa: E402  (round thirteen's network scores, Stack)
import fit_injection_window as window  # noqa: E402  (round nine's rounds and grid setup)
import injection_training14  # noqa: E402  (round fourteen's training-only examples)

#: The lexical model's notes weight (30 per note times 2, 3, 4), and whether it reads
#: round thirteen's and fourteen's examples.
LEXICAL: dict[str, dict[str, float]] = {
    f"notes x{k}{' + r13 + r14' if new else ''}": {
        "benign_weight": 30.0 * k,
        "r13": new,
        "r14": new,
    }
    for new in (0, 1)
    for k in (2, 3, 4)
}
#: The modes: round thirteen's (a check), and the logistic with the real texts weighed
#: W and its threshold bounded by the notes and the real texts together.
REAL_WEIGHTS = (3.0, 30.0, 300.0)
MODES = ("logistic, notes", *(f"logistic r{w:g}, both" for w in REAL_WEIGHTS))
#: The second grid's modes: the real texts bounded at one per fit's checked half.
TIGHT = tuple(f"logistic r{w:g}, tight" for w in REAL_WEIGHTS)
#: What ``--write`` fits: (lexical setting, mode), chosen by the second grid's rule.
CHOSEN = ("notes x2 + r13 + r14", "logistic r30, tight")
#: Round fourteen's training-only examples.
FOURTEEN = notes.examples(
    injection_training14.ROUND_FOURTEEN_ATTACKS, injection_training14.ROUND_FOURTEEN_BENIGN
)
dropped = notes.adding(r13.dropped, "r14", FOURTEEN)


def training(real_all: list[str]) -> mlp.Training:
    """Round thirteen's training data and round fourteen's examples (``dropped`` decides)."""
    return notes.with_examples(r13.training(real_all), FOURTEEN)


def lexical_model(t: mlp.Training, name: str, out_a: set[str], out_n: set[str]) -> lex.Lexical:
    """The lexical setting ``name`` fitted on what the network reads without ``out_a`` and
    ``out_n`` (and the new examples when the setting names them)."""
    ls = LEXICAL[name]
    s = {**r13.NETWORK, **ls}
    return r13.lexical_of(t, s, dropped(s), out_a, out_n)


def both_threshold(
    per: dict[str, dict[str, Any]],
    rounds: list[str],
    stack: r13.Stack,
    lexs: dict[str, Any],
    tight: bool = False,
) -> float:
    """The lowest threshold (at least 0.5) at which ``rounds``' notes flagged and the
    checked real texts their fits flag (out of fold) are each no more than the network
    alone's there (``tight``: the real texts at most one per fit)."""
    notes_s = np.concatenate([stack.scores(per[o]["sl"], lexs[o][1]) for o in rounds])
    rules_n = np.concatenate([per[o]["rules_n"] for o in rounds])
    real_s = np.concatenate([stack.scores(per[o]["sr"], lexs[o][2]) for o in rounds])
    rules_r = np.concatenate([per[o]["rules_r"] for o in rounds])
    notes_budget = sum(int(per[o]["net_n"].sum()) for o in rounds)
    real_budget = len(rounds) if tight else sum(int(per[o]["net_r"].sum()) for o in rounds)
    candidates = np.concatenate([notes_s, real_s])
    for th in sorted({0.5, *(float(np.nextafter(x, 2.0)) for x in candidates if x >= 0.5)}):
        if (
            int((rules_n | (notes_s >= th)).sum()) <= notes_budget
            and int((rules_r | (real_s >= th)).sum()) <= real_budget
        ):
            return th
    return 1.0


#: Per left-out round: the network's scores (``network_scores``), the lexical view's.
Per = dict[str, dict[str, Any]]
Lexs = dict[str, Any]
Cell = tuple[r13.Stack, float]


def fitted_stack(per: Per, lexs: Lexs, rounds: list[str], notes: float, real: float) -> r13.Stack:
    """The logistic on the two scores' logits fitted on ``rounds``' out-of-fold scores:
    attacks against notes (``notes`` each) and checked real texts (``real`` each)."""
    logit = r13._logit
    pos = np.vstack([np.c_[logit(per[o]["st"]), logit(lexs[o][0])] for o in rounds])
    neg_n = np.vstack([np.c_[logit(per[o]["sl"]), logit(lexs[o][1])] for o in rounds])
    neg_r = np.vstack([np.c_[logit(per[o]["sr"]), logit(lexs[o][2])] for o in rounds])
    return r13.Stack(pos, neg_n, neg_r, notes, real)


def network_scores(
    t: mlp.Training, out: Path, rules_checked: np.ndarray
) -> dict[str, dict[str, Any]]:
    """Per left-out round, the network's saved scores and what it and the rules flag."""
    per: dict[str, dict[str, Any]] = {}
    for name, (out_attacks, out_notes) in window.rounds().items():
        _, _, rules_t, rules_n = mlp.left_out(t.attacks, out_attacks, out_notes)
        got = dict(np.load(out / f"net--{name}.npz"))
        per[name] = {**got, "rules_t": rules_t, "rules_n": rules_n, "rules_r": rules_checked}
        per[name]["net_t"] = rules_t | (got["st"] >= got["th"])
        per[name]["net_n"] = rules_n | (got["sl"] >= got["th"])
        per[name]["net_r"] = rules_checked | (got["sr"] >= got["th"])
    return per


def combine(data: mlp.Data, t: mlp.Training, out: Path, only: str, tight: bool = False) -> None:
    """Every cell of the rule (the docstring), from the network's and the lexical
    models' saved scores; the real texts with the shipped network and each lexical
    model fitted on everything."""
    rounds = window.rounds()
    rules_real = np.array([bool(scan(x)) for x in t.real_all])
    checked_mask = np.ones(len(t.real_all), bool)
    checked_mask[t.fitted] = False
    net = Detector.from_arrays(dict(np.load(r13.SHIPPED)))
    vectors = data.features(t.real_all, 0.0)[:, : -mlp.N_CUES]
    net_real = net.probabilities(vectors, t.real_all)
    per = network_scores(t, out, rules_real[checked_mask])
    alone_real = rules_real | (net_real >= net.threshold)
    print(
        f"{r13.alone_line(per, alone_real, checked_mask)}; out-of-fold checked real "
        f"{sum(int(p['net_r'].sum()) for p in per.values())}",
        flush=True,
    )
    for lname, ls in LEXICAL.items():
        if only and lname not in only.split("|"):
            continue
        lexs = {}
        for name in rounds:
            got = np.load(out / f"lex--{lname}--{name}.npz")
            lexs[name] = (got["lt"], got["ln"], got["lr"])
        lex_real = np.load(out / f"lex--{lname}--everything.npz")["real"]
        for mode in TIGHT if tight else MODES:
            counts, flagged = [], 0
            for name, p in per.items():
                others = [o for o in per if o != name]
                stack, th = _cell(per, lexs, others, ls["benign_weight"], mode)
                hit_t = p["rules_t"] | (stack.scores(p["st"], lexs[name][0]) >= th)
                hit_n = p["rules_n"] | (stack.scores(p["sl"], lexs[name][1]) >= th)
                counts.append(int(hit_t.sum()))
                flagged += int(hit_n.sum())
            stack, th = _cell(per, lexs, list(per), ls["benign_weight"], mode)
            hit_r = rules_real | (stack.scores(net_real, lex_real) >= th)
            print(
                r13.cell_line(f"{lname} | {mode}", th, counts, flagged, hit_r, checked_mask),
                flush=True,
            )


def _cell(per: Per, lexs: Lexs, rounds: list[str], notes_weight: float, mode: str) -> Cell:
    """The logistic of ``mode`` fitted on ``rounds``' out-of-fold scores, and its
    threshold read on them."""
    if mode == "logistic, notes":
        scores = {o: (*lexs[o], 0.0) for o in rounds}
        budget = sum(int(per[o]["net_n"].sum()) for o in rounds)
        return r13._stack(per, scores, rounds, notes_weight, budget)
    weight = float(mode.split()[1][1:].rstrip(","))
    stack = fitted_stack(per, lexs, rounds, notes_weight, weight)
    return stack, both_threshold(per, rounds, stack, lexs, mode.endswith("tight"))


def write(data: mlp.Data, t: mlp.Training, out: Path, path: Path) -> None:
    """``CHOSEN``'s lexical model fitted on everything and its logistic fitted on all five
    rounds' out-of-fold scores, with the threshold read on them, written as the
    ``injection_lexical.npz`` that ``engram.injection_lexical.Lexical`` reads; then the
    real texts the shipped network flags with it (``save``)."""
    lname, mode = CHOSEN
    model = lexical_model(t, lname, set(), set())
    rules_real = np.array([bool(scan(x)) for x in t.real_all])
    checked = np.ones(len(t.real_all), bool)
    checked[t.fitted] = False
    per = network_scores(t, out, rules_real[checked])
    lexs = {}
    for name in per:
        got = np.load(out / f"lex--{lname}--{name}.npz")
        lexs[name] = (got["lt"], got["ln"], got["lr"])
    stack, th = _cell(per, lexs, list(per), LEXICAL[lname]["benign_weight"], mode)
    save(data, t, model, stack, th, path, f"{lname}, {mode}")


def save(
    data: mlp.Data,
    t: mlp.Training,
    model: lex.Lexical,
    stack: r13.Stack,
    th: float,
    path: Path,
    name: str,
) -> None:
    """The lexical ``model`` and its logistic ``stack`` at threshold ``th`` written as the
    ``injection_lexical.npz`` that ``engram.injection_lexical.Lexical`` reads; then the
    real texts the shipped network flags with it (round fifteen's write shares it)."""
    from engram.injection_lexical import Lexical

    np.savez_compressed(
        path,
        coef=model.coef.astype(np.float16),
        intercept=np.float64(model.intercept),
        bits=np.int64(model.bits),
        chars=np.asarray(model.wb, np.int64),
        stack=np.asarray(stack.model.coef_[0], np.float64),
        stack_intercept=np.float64(stack.model.intercept_[0]),
        threshold=np.float64(th),
    )
    rules_real = np.array([bool(scan(x)) for x in t.real_all])
    checked = np.ones(len(t.real_all), bool)
    checked[t.fitted] = False
    net = Detector.from_arrays(dict(np.load(r13.SHIPPED)))
    with np.load(path) as arrays:
        combined = replace(net, lexical=Lexical.from_arrays(arrays))
    vectors = data.features(t.real_all, 0.0)[:, : -mlp.N_CUES]
    hit = rules_real | np.array([r is not None for r in combined.reasons(vectors, t.real_all)])
    print(
        f"{path}: {path.stat().st_size} bytes, {name}, threshold {th:.4f}; real texts "
        f"flagged {int(hit.sum())} of {len(hit)}, checked half {int(hit[checked].sum())}"
    )


def with_lexical(lexical: str) -> Detector:
    """The shipped network, with the lexical view written at ``lexical`` when named (its
    own ``lexical`` dropped otherwise: round eleven's network alone)."""
    from engram.injection_lexical import Lexical

    net = replace(Detector.from_arrays(dict(np.load(r13.SHIPPED))), lexical=None)
    if not lexical:
        return net
    with np.load(lexical) as arrays:
        return replace(net, lexical=Lexical.from_arrays(arrays))


def read(
    data: mlp.Data,
    real_all: list[tuple[str, str]],
    lexical: str,
    before: str = "",
    load: Callable[[str], Detector] | None = None,
) -> None:
    """Every fold read once, the rules alone, the shipped detector (``before``: the
    network with that lexical file; the network alone by default, as round fourteen
    shipped) and (``lexical``: a written ``injection_lexical.npz``) the shipped network
    with it, side by side on the same cached embeddings (``fit_injection_window.report``).
    ``load`` reads a path into a detector (``with_lexical`` by default; round
    twenty-four's reads a folder holding both files)."""
    load = load or with_lexical
    from engram.bench import injection

    rows = injection.load_set()
    texts = [r["text"] for r in rows] + [t for _, t in real_all]

    def embed(batch: Sequence[str]) -> np.ndarray:
        return data.features(list(batch), 0.0)[:, : -mlp.N_CUES]

    checks: dict[str, window.Check] = {"rules": scan}
    checks["before"] = injection.with_detector(texts, embed, load(before))
    if lexical:
        checks["after"] = injection.with_detector(texts, embed, load(lexical))
    window.report(rows, real_all, checks)


def timing(data: mlp.Data, real_all: list[str], lexical: str, before: str = "") -> None:
    """Per write, the rules and the shipped detector (``before``: the network with that
    lexical file; the network alone by default) against the rules, the shipped network
    and the lexical view ``lexical`` (every eighth real text, one at a time, interleaved
    per text, the write's own vector not timed): median, mean and p95 in ms."""
    import time

    net, both = with_lexical(before), with_lexical(lexical)
    texts = real_all[::8]
    vectors = data.features(texts, 0.0)[:, : -mlp.N_CUES]
    took: dict[str, list[float]] = {"shipped": [], "with the lexical view": []}
    for text, vector in zip(texts, vectors, strict=True):
        for name, detector in zip(took, (net, both), strict=True):
            start = time.perf_counter()
            if not scan(text):
                detector.reasons(vector[None, :], [text])
            took[name].append(1000 * (time.perf_counter() - start))
    mlp.report_timings(took, 3)


Setup = tuple[Any, mlp.Data, list[str], Path]


def setup(doc: str, name: str, tight: bool = False) -> Setup:
    """The parsed switches of round fourteen's and fifteen's scripts (``name``: the
    round's cache and scores), the cached embeddings, every real text and the scores'
    folder."""
    parser = window.grid_parser(doc, f"{name}-vectors.npz")
    parser.add_argument("--scores", default=f"/tmp/engram-fit-detector/{name}-scores")
    parser.add_argument("--lexical", action="store_true", help="the lexical models' scores")
    parser.add_argument("--combine", action="store_true", help="every cell of the rule")
    if tight:
        parser.add_argument("--tight", action="store_true", help="with --combine: grid two")
    parser.add_argument("--timing", default="", metavar="LEXICAL", help="time a write")
    parser.add_argument("--read", nargs="?", const="", default=None, metavar="LEXICAL")
    args, embedder, real_all = window.grid_setup(parser)
    out = Path(args.scores)
    out.mkdir(parents=True, exist_ok=True)
    data = mlp.Data(embedder, Path(args.cache))
    if args.by_round:  # round thirteen's data: the network never reads the new examples
        r13.by_round(data, r13.training(real_all), args.round, out)
    return args, data, real_all, out


def main() -> None:
    args, data, real_all, out = setup(__doc__ or "", "round14", tight=True)
    t = training(real_all)
    if args.lexical:
        r13.lexical_scores(t, out, args.only, LEXICAL, lexical_model)
    if args.combine:
        combine(data, t, out, args.only, args.tight)
    if args.timing:
        timing(data, real_all, args.timing)
    if args.write:
        write(data, t, out, Path(args.write))
    if args.read is not None:
        read(data, real_texts(args.data), args.read)


if __name__ == "__main__":
    main()
