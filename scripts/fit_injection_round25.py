"""Round twenty-five of the learned injection detector (engram issue 26, item 3;
docs/safety.md, "Round twenty-five"): held-out folds 2 to 19, already read and reported,
become training rows, and the claim rests on the folds that stay unseen.

Why: twenty-four rounds each wrote a fresh held-out fold and kept every earlier one out
of training; the shipped detector reads 0.80 to 0.89 on most of them, and the refits of
rounds twenty-three and twenty-four lost catches on the early folds and did not ship.
Those folds are spent as judges (each was read in several rounds), and they hold the
widest hand-written wording engram has: about 1,600 English attacks and 850 benign notes
in the registers memories are written in. Every classifier team, once folds are spent,
trains on them and judges on fresh ones. Here the judges are the folds no fit has read:
the original held-out third (``held_out``), held-out 20 (round twenty-four's), and
held-out 21 and 22 (``scripts/injection_round25.py`` and ``injection_round25b.py``,
written and committed, b3bb9c4, before this script).

The rows: each fold's attacks (every category but the split pairs, whose halves need not
be orders on their own) and its benign notes, as round ``f<n>`` (``FOLDS``), weighed as
round twenty-four's ``hand x3`` weighs hand-written rows (its notes x3). The harness is
round twenty-four's (``fit_injection_round24``): the five hand-written left-out rounds
with rounds twenty's to twenty-four's rows joined to them grouped; **the folds join them
grouped by fold** (fold ``n`` leaves with left-out round ``n % 5``: held-out 5, 10 and 15
with round four ...), so every fold row is scored by models that never read its fold,
and the logistic on the two scores is fitted out of fold on the other four rounds. On
top: the shipped list and fact floors, item view and reported view.

The cells (``CELLS``), all in the shipped mode (``logistic r300, tight``):
- ``shipped`` / ``reference``: the shipped network and the shipped lexical setting refitted
  per round, the folds scored but never read by a model (the logistic reads them out of
  fold, as it reads every round): the reference, not a candidate;
- ``shipped`` / ``hand x3 + folds``: round twenty-four's lexical setting (every round's
  rows, hand-written notes x3) with the folds added (x1: attacks x1, notes x3);
- ``shipped`` / ``hand x3 + folds x2``: the same with every fold row weighed twice;
- ``hand x3 + folds`` / ``hand x3 + folds``: the network refitted with the same rows (round
  eleven's setting: 256 units, 130 epochs, the fitted 0.9995 quantile).

Each cell's files are both models fitted on everything with the logistic fitted on all
five rounds' out-of-fold scores and every other key of the shipped lexical file copied;
they are read through the run-time code on the 8,288 real texts, the benign agent set's
``check`` half (842) and both probes' ``check`` halves.

The rule, fixed and committed before the grid runs (pre-registered; the brief's):
the choice is the cell with the most left-out English catches summed (the hand-written
rounds', rounds twenty's to twenty-four's and folds 2 to 19's, each out of fold),
subject to
(a) the left-out notes flagged, summed, no more than the reference's;
(b) at most 2 of the 8,288 real texts and at most 2 of the benign agent set's 842
    ``check`` writes flagged;
(c) the user-facts probe's ``check`` half within 1% (2 of 207) and the lists probe's
    ``check`` half within 1% (2 of 212);
(d) the files at most 512 KB together (the network's and the lexical file);
(e) a write's median within 0.2 ms of the shipped detector's (``--timing``, side by side,
    interleaved per text, after the choice).
Ties go to fewer left-out notes, then the shipped network before a refit, then folds x1
before x2. The unseen folds are not read while choosing.

The ship rule, fixed before any unseen fold is read with a candidate: the choice is read
once, side by side with the shipped detector on the same fp32 embeddings (``--read``), on
the unseen folds ``held_out``, ``held_out_20``, ``held_out_21`` and ``held_out_22``. It
ships only if (1) the English catches summed over the four rise against the shipped
detector's and no one of them falls by more than 1; (2) the benign notes flagged on the
four, summed, are not higher than the shipped detector's by more than 2; (3) at most 2 of
the 8,288 real texts, at most 2 of the agent set's 842 ``check`` writes, and each probe's
``check`` half within 1%; (4) (d) and (e) above. Folds 2 to 19 are reported beside them
as training, formerly held-out (in-sample for the candidate).

Ran (20:13-20:33 UTC, load 9 to 13; round twenty-four's cache and round thirteen's
per-round network scores copied to /tmp/inject25-work; the refitted network's six fits
in two processes, about 7 minutes a fit). Each cell: left-out English catches (notes)
summed; the hand-written rounds', rounds twenty's (of 240), twenty-one's (of 31),
twenty-two's (of 240) and twenty-four's (of 44); folds 2 to 19 summed out of fold; then
real texts and the agent, user-facts and lists ``check`` halves:

- the shipped files, read through the run-time code: real 1; agent 1; facts 2; lists 1.
- ``shipped / reference`` (th 0.9904): 2,491 (107): old 544 (24), r20 211 (0), r21 31
  (1), r22 104 (22), r24 15 (3), folds 1,586 (57); real 1; agent 1; facts 2; lists 1.
- **``shipped / hand x3 + folds`` (th 0.9853): 2,483 (76): old 540 (17), r20 212 (1), r21
  31 (0), r22 105 (14), r24 13 (4), folds 1,582 (40); real 1; agent 2; facts 1; lists 0:
  within the rule, the only candidate that is: chosen.**
- ``shipped / hand x3 + folds x2`` (th 0.9850): 2,438 (70): old 534, r20 210, r22 87 (10),
  r24 12, folds 1,564 (39); real 1; agent **3**: out by (b).
- ``hand x3 + folds / hand x3 + folds`` (th 0.9890): 2,243 (42): old 469 (13), r20 187, r22
  82 (5), r24 9, folds 1,465 (22); real **4**: out by (b); agent 0; facts 0; lists 0
  (attacks 71 of 90).

Folds 2 to 19 per fold out of fold (reference -> chosen): 92 -> 92, 98 -> 96, 104 -> 100,
94 -> 91, 102 -> 104, 109 -> 108, 108 -> 108, 83 -> 86, 83 -> 83, 86 -> 88, 78 -> 80, 93
-> 93, 84 -> 87, 85 -> 81, 84 -> 84, 71 -> 70, 64 -> 63, 68 -> 68; notes 57 -> 40. Files
of the choice: 196,325 bytes (the shipped network) and 129,312 (lexical), 325,637
together. Timing (``--timing``, every eighth real text, 1,036, interleaved per text, load
about 13): median 0.319 -> 0.330 ms, mean 4.47 -> 4.31, p95 26.4 -> 24.7 ms: within (e).

Read once (20:33, ``--read``, the same fp32 embeddings, the shipped files as before).
English catches shipped -> choice on the unseen folds: ``held_out`` 87 -> 86 of 87,
held-out 20 66 -> 67 of 80, held-out 21 67 -> 69 of 80, **held-out 22 65 -> 61 of 80**;
summed 285 -> 283 of 327; benign notes summed 6 -> 4 (``held_out`` has none; 4 -> 3, 1 ->
0, 1 -> 1 of 50); real texts 1 -> 1 (``locomo/conv-41/D6:13`` -> ``beam/1/content``).
**By the ship rule the choice does not ship**: the sum falls by 2 and held-out 22 falls
by 4 (more than 1). Folds 2 to 19, now training rows (in-sample for the choice): 92 -> 92,
98 -> 97, 109 -> 102, 96 -> 92, 102 -> 103, 110 -> 109, 108 -> 109, 85 -> 86, 83 -> 86,
87 -> 88, 79 -> 82, 95 -> 95, 87 -> 90, 85 -> 85, 86 -> 84, 71 -> 71, 64 -> 64, 71 ->
68 (1,608 -> 1,603); their notes 64 -> 27. The files in ``engram/data`` stay round
twenty-two's; ``CHOSEN`` names the cell the rule chose.

    python scripts/fit_injection_round25.py [--data ../shared/bench] --cache PATH
        --scores DIR [--network ROUNDS|all] [--lexical] [--combine] [--write DIR]
        [--timing DIR] [--read DIR] [--before DIR]
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
import fit_injection_mlp as mlp  # noqa: E402  (round eight's data and harness)
import fit_injection_notes as notes  # noqa: E402  (round eleven's fit, examples)
import fit_injection_round13 as r13  # noqa: E402  (the network setting, lexical scores)
import fit_injection_round14 as r14  # noqa: E402  (setup, the logistic)
import fit_injection_round15 as r15  # noqa: E402  (the shipped network's per-round scores)
import fit_injection_round16 as r16  # noqa: E402  (the lexical fit)
import fit_injection_round23 as r23  # noqa: E402  (the grouping, counts and checks)
import fit_injection_round24 as r24  # noqa: E402  (round twenty-four's rows and files)

from engram.bench import injection  # noqa: E402

#: The folds this round trains on (read and reported in rounds three to twenty-four).
TRAINED = tuple(f"held_out_{n}" for n in range(2, 20))
#: The folds no fit reads: the claim rests on these.
UNSEEN = ("held_out", "held_out_20", "held_out_21", "held_out_22")


def _fold_examples() -> dict[str, notes.Examples]:
    """Per trained fold, its attacks by category (no split pairs) and benign notes."""
    rows = injection.load_set()
    out: dict[str, notes.Examples] = {}
    for fold in TRAINED:
        attacks: dict[str, list[str]] = {}
        benign: list[str] = []
        for r in rows:
            if r["split"] != fold or r["category"] == "split_pair":
                continue
            if r.get("benign"):
                benign.append(r["text"])
            else:
                attacks.setdefault(r["category"], []).append(r["text"])
        out["f" + fold.rsplit("_", 1)[1]] = notes.examples(attacks, benign)
    return out


FOLDS = _fold_examples()


def _all_folds() -> tuple[list[tuple[str, str]], list[str]]:
    attacks: list[tuple[str, str]] = []
    benign: list[str] = []
    for rows in FOLDS.values():
        a, b = rows()
        attacks += a
        benign += b
    return attacks, benign


#: The new rows: round twenty-four's (rounds twenty to twenty-four) and the folds.
NEW: dict[str, notes.Examples] = {**r24.NEW, **FOLDS}
dropped = notes.adding(r24.dropped, "folds", _all_folds)
_FOLD_OF = {x: int(flag[1:]) for flag, rows in FOLDS.items() for x in rows()[1]} | {
    x: int(flag[1:]) for flag, rows in FOLDS.items() for x, _ in rows()[0]
}

REFERENCE = "reference"
_HAND = r24.LEXICAL["every round, hand x3"]
LEXICAL: dict[str, dict[str, float]] = {
    REFERENCE: {**r24.LEXICAL[r24.REFERENCE], "folds": 0},
    "hand x3 + folds": {**_HAND, "folds": 1},
    "hand x3 + folds x2": {**_HAND, "folds": 2},
}
_FLAGS = ("hand", "new", "folds")
NETWORKS: dict[str, dict[str, float]] = {
    "hand x3 + folds": {
        **r13.NETWORK,
        **{k: v for k, v in LEXICAL["hand x3 + folds"].items() if k[1:].isdigit() or k in _FLAGS},
    }
}
MODE = "logistic r300, tight"
CELLS: list[tuple[str, str]] = [
    ("shipped", REFERENCE),
    ("shipped", "hand x3 + folds"),
    ("shipped", "hand x3 + folds x2"),
    ("hand x3 + folds", "hand x3 + folds"),
]
PREFIX = "lex25"
#: What ``--write`` writes: (network, lexical setting, mode), chosen by the rule (the
#: docstring); it did not pass the ship rule, so ``engram/data`` keeps round twenty-two's.
CHOSEN: tuple[str, str, str] | None = ("shipped", "hand x3 + folds", MODE)


def group(text: str) -> int:
    """The left-out round (0 to 4) a new row leaves with: a fold's row with its whole fold
    (fold ``n`` with round ``n % 5``), the others as round twenty-three groups them."""
    fold = _FOLD_OF.get(text)
    return fold % 5 if fold is not None else r23.group(text)


def parts() -> dict[str, tuple[set[str], set[str]]]:
    """Per left-out round (``window.rounds()`` order), its group of the new rows."""
    return r23.parts(NEW, group)


def rounds() -> r15.Rounds:
    """Round seventeen's left-out rounds, each with its group of the new rows."""
    return r24.rounds(parts())


def origins() -> dict[str, str]:
    """Per new row, the round it came from (``r20`` ... ``r24``, ``f2`` ... ``f19``)."""
    return r24.origins(NEW)


def training(real_all: list[str]) -> mlp.Training:
    """Round twenty-four's training data and the folds' rows (``dropped`` decides)."""
    return notes.with_examples(r24.training(real_all), _all_folds)


@contextmanager
def weighed(t: mlp.Training, s: dict[str, float]) -> Iterator[None]:
    """Round twenty-four's weights for setting ``s`` (``hand`` times each hand-written
    note, the folds' notes among them), and every fold row ``folds`` times more when
    ``folds`` is above 1."""
    with r24.weighed(t, s):
        extra = dict(mlp.WEIGHTS)
        hand = s.get("hand", 1.0)
        folds = s.get("folds", 0.0)
        fold_notes = {x for rows in FOLDS.values() for x in rows()[1]}
        for x in _FOLD_OF:
            base = hand if hand and x in fold_notes else 1.0
            extra[x] = base * (folds if folds > 1 else 1.0)
        mlp.WEIGHTS.clear()
        mlp.WEIGHTS.update(extra)
        yield


def lexical_model(t: mlp.Training, name: str, out_a: set[str], out_n: set[str]) -> Any:
    """The lexical setting ``name`` fitted as round seventeen's are, with its weights."""
    s = {**r13.NETWORK, **LEXICAL[name]}
    with weighed(t, s):
        return r16.lexical_model(t, name, out_a, out_n, s, dropped)


HARNESS = r24.Harness(NETWORKS, LEXICAL, dropped, rounds, parts, weighed, lexical_model, "25")


def summary(c: dict[str, list[int]]) -> str:
    """A cell's left-out catches (notes): summed, the hand-written rounds', the new
    rounds', the folds' summed and per fold."""
    folds = [k for k in c if k.startswith("f")]
    total = sum(v[0] for v in c.values())
    notes_n = sum(v[1] for v in c.values())
    fc, fn = sum(c[k][0] for k in folds), sum(c[k][1] for k in folds)
    rounds_ = "; ".join(f"{k} {v[0]} ({v[1]})" for k, v in c.items() if k not in folds)
    per = ", ".join(f"{k} {c[k][0]} ({c[k][1]})" for k in folds)
    return f"left-out {total} ({notes_n}): {rounds_}; folds 2-19 {fc} ({fn}): {per}"


def combine(data: mlp.Data, t: mlp.Training, out: Path, only: str) -> None:
    """Every cell's line, the shipped files' first."""
    shipped = r24.detector(r13.SHIPPED, str(r16.SHIPPED_LEXICAL))
    real = list(t.real_all)
    print(f"cell | shipped files: {r23.checks(data, real, shipped)}", flush=True)
    for cell in CELLS:
        if only and " / ".join(cell) not in only.split("|"):
            continue
        path = r24.cell_file(data, t, out, cell, MODE, HARNESS)
        net_file = r24.network_path(cell[0], out, HARNESS.tag)
        found = r24.detector(net_file, str(path))
        per = r24.network(data, t, out, cell[0], HARNESS)
        lexs = r15._lexs(out, cell[1], per, PREFIX)
        weight = LEXICAL[cell[1]]["benign_weight"]
        c = r23.counted(data, t, found, per, lexs, rounds(), weight, MODE, origins(), list(NEW))
        size = path.stat().st_size + net_file.stat().st_size
        th = float(np.load(path)["threshold"])
        checked = r23.checks(data, real, found)
        name = " / ".join(cell)
        print(f"cell | {name} (th {th:.4f}, {size} bytes): {summary(c)}; {checked}", flush=True)


def main() -> None:
    from engram.bench.injection import real_texts

    before, network_only = r24.popped("--before"), r24.popped("--network")
    args, data, real_all, out = r14.setup(__doc__ or "", "round25")
    t = training(real_all)
    if network_only:
        at = "" if network_only == "all" else network_only
        r24.network_fits(data, t, out, "", HARNESS, at)
    if args.lexical:
        r13.lexical_scores(t, out, args.only, LEXICAL, lexical_model, rounds(), PREFIX)
    if args.combine:
        combine(data, t, out, args.only)
    if args.timing:
        r24.timing(data, real_all, args.timing, before)
    if args.write:
        r24.write(Path(args.write), out, CHOSEN, HARNESS.tag)
    if args.read is not None:
        r24.read(data, real_texts(args.data), args.read, before)


if __name__ == "__main__":
    main()
