"""Round twenty-six of the learned injection detector (engram issue 26, item 3;
docs/safety.md, "Round twenty-six"): the neighbour view (``engram.injection_neighbours``),
a k-nearest-neighbour vote over the embeddings of every training row, read after every
other view on what they pass.

Why this lever: twenty-five rounds measured a linear probe, cues, a network, a word and a
character n-gram model, their logistic, sentence and window views, list, fact and reported
views, thresholds, weights and refits with more rows (docs/safety.md, each round's "what
was tried"). Every one is a parametric boundary fitted on all rows at once; none reads a
text's nearest training texts. Rounds twenty-three to twenty-five showed more rows in a
refit buying fewer false positives and no catches on new wording: a smooth boundary
averages the rows away. A nearest-neighbour vote keeps every row as its own evidence, so
an attack in new words near a pocket of earlier attacks (held-out folds 2 to 19 hold about
1,950 hand-written ones) is caught even where the boundary passes it, and a benign note
near earlier notes is spared. It costs no fit, and leaving a group out is exact (its rows
are masked out of the neighbours).

The memory: every training row of round twenty-five's harness (``fit_injection_round25
.training``: the hand-written rounds' attacks and notes, rounds twenty's to twenty-four's
rows, folds 2 to 19's attacks and notes; the benign agent set's ``tune`` half only in the
``agent`` cells), fp32 MiniLM, each coded in ``width`` bits (``injection_neighbours``).

The cells (``CELLS``): ``width`` 128 or 192 bits; ``k`` 1, 5 or 15; the gate ``cued``
(only a text carrying one of the detector's cues) or ``all`` (any text of 4 words or
more); memory without or with the agent set's ``tune`` half (``agent``). Each cell's
threshold: the lowest margin at which the view flags none of the real texts' fitted half
(the fixed shuffle of ``fit_injection_mlp``) that it reads; the other half is the check.

Out of fold (the choice): round twenty-five's five groups (``fit_injection_round25
.rounds``: the hand-written rounds four, five, six, eight and nine, rounds twenty's to
twenty-four's rows grouped, folds 2 to 19 by fold ``n % 5``). Each group's attacks and
notes that the shipped detector passes are scored with that group's rows masked out of
the memory; a catch is an English attack (``bench.injection.ENGLISH``) the view adds, a
note flagged is a note it adds.

The rule, fixed and committed before any cell runs (pre-registered; the brief's): the
choice is the cell with the most out-of-fold English catches added, subject to
(a) the out-of-fold notes flagged at most 1% of the groups' notes;
(b) with the view, at most 2 of the 8,288 real LoCoMo/BEAM texts flagged, and at most 2 of
    the benign agent set's 842 ``check`` writes (``src/engram/data/benign_agent.json``);
(c) the user-facts and lists probes' ``check`` halves each within 1% (2 of 207, 2 of 212);
(d) the shipped files and the view's together at most 512 KB;
(e) a write's median within 0.2 ms of the shipped detector's (``--timing``, side by side,
    interleaved per text, on every eighth real text, after the choice; a cell that fails
    gives way to the next).
Ties: fewer out-of-fold notes, then ``cued`` before ``all``, then fewer bits, then smaller
``k``, then no agent rows. The unseen folds are not read while choosing.

The ship rule, fixed before any unseen fold is read with a candidate: the choice is read
once (``--read``), side by side with the shipped detector on the same fp32 embeddings, on
the unseen folds ``held_out``, ``held_out_20``, ``held_out_21``, ``held_out_22`` and
``held_out_23``. It ships only if (1) the English catches summed over the five rise
against the shipped detector's and none of them falls by more than 1; (2) the benign notes
flagged on them, summed, are not higher than the shipped detector's by more than 2; (3)
(b) to (e) hold. Folds 2 to 19 are training rows (its memory holds them) and are not
reported as held-out figures.

Ran (23:13-23:57 UTC, load 12 to 17; two processes for the last part; round twenty-five's
cache copied to /tmp/inject26-work). 13 of the 24 cells ran; w192 k15 cued and all, w128
k5 all +agent, w128 k15 cued and all +agent and the six w192 +agent cells did not, for
time. Within the rule, **w192 k5 all** adds the most out of fold: +32 of 3,018 English
attacks, +4 of 2,675 notes (th 0.1199, 162,802 bytes, 487,378 with the shipped files; real
1, agent 2, facts 2, lists 1): chosen. Read once (23:58): English on the unseen folds
87 -> 87, 66 -> 67, 67 -> 69, 65 -> 65, 69 -> 71 (354 -> 359), notes 4/1/1/1 -> the same,
real 1 -> 1. A write's median (``--timing``): 0.489 -> 26.4 ms with one product (the
BLAS's threads on a loaded machine), 0.391 -> 1.164 ms in blocks of 256 rows: fails (e),
so **it does not ship**. docs/safety.md, "Round twenty-six", has every cell.

    python scripts/fit_injection_round26.py [--data ../shared/bench] --cache PATH
        [--grid] [--write DIR --cell NAME] [--timing DIR] [--read DIR]
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
import fit_injection_mlp as mlp  # noqa: E402  (the cached embeddings, the real-text split)
import fit_injection_round18 as r18  # noqa: E402  (the agent set's halves)
import fit_injection_round19 as r19  # noqa: E402  (the lists probe)
import fit_injection_round21 as r21  # noqa: E402  (the user-facts probe)
import fit_injection_round24 as r24  # noqa: E402  (the interleaved timing)
import fit_injection_round25 as r25  # noqa: E402  (the training rows and the groups)

from engram import injection_detector  # noqa: E402
from engram.bench import injection  # noqa: E402
from engram.injection_detector import Detector, gated, ordered  # noqa: E402
from engram.injection_neighbours import Neighbours, packed  # noqa: E402
from engram.safety import scan  # noqa: E402

#: The folds no fit reads: the claim rests on these.
UNSEEN = ("held_out", "held_out_20", "held_out_21", "held_out_22", "held_out_23")
#: The least words a text needs for the ``all`` gate.
WORDS = 4
#: The most bytes the shipped files and the view's may take together.
BUDGET = 512 * 1024


@dataclass(frozen=True)
class Cell:
    """One setting of the view."""

    width: int
    k: int
    cued: bool
    agent: bool

    @property
    def name(self) -> str:
        gate = "cued" if self.cued else "all"
        return f"w{self.width} k{self.k} {gate}" + (" +agent" if self.agent else "")


CELLS = [
    Cell(width, k, cued, agent)
    for agent in (False, True)
    for width in (128, 192)
    for k in (1, 5, 15)
    for cued in (True, False)
]
#: The cell the rule chose (``--write``); None until the grid has run.
CHOSEN: str | None = "w192 k5 all"


class Setup:
    """The cached embeddings, the shipped detector, the training rows and the groups."""

    def __init__(self, bench: str, cache: Path) -> None:
        from engram.config import Config
        from engram.embed import create_embedder

        embedder = create_embedder(
            replace(Config().embedder, precision="fp32"), Path("/tmp/engram-fit-detector")
        )
        self.data = mlp.Data(embedder, cache)
        self.real = injection.real_texts(bench)
        self.real_all = [t for _, t in self.real]
        self.t = r25.training(self.real_all)
        found = injection_detector.shipped()
        if found is None or found.neighbours is not None:
            raise SystemExit("the shipped detector is missing or already has a neighbour view")
        self.shipped = found
        self.groups = r25.rounds()
        self.attacks = sorted({a for a, _ in self.t.attacks})
        self.category = dict(self.t.attacks)
        self.notes = sorted(set(self.t.notes))
        self.agent = sorted(set(self.t.agent) - set(self.notes))
        self._passed: dict[str, bool] = {}

    def vectors(self, texts: list[str]) -> np.ndarray:
        return self.data.features(texts, 0.0)[:, : -mlp.N_CUES]

    def embed(self, batch: list[str]) -> np.ndarray:
        return self.vectors(list(batch))

    def memory(self, cell: Cell) -> tuple[list[str], np.ndarray]:
        """The cell's rows and which are attacks."""
        rows = self.attacks + self.notes + (self.agent if cell.agent else [])
        attack = np.zeros(len(rows), bool)
        attack[: len(self.attacks)] = True
        return rows, attack

    def view(self, cell: Cell, threshold: float) -> tuple[Neighbours, int]:
        """The cell's view at ``threshold`` and its file's size in bytes."""
        rows, attack = self.memory(cell)
        v = self.vectors(rows)
        centre = v.mean(axis=0)
        arrays = {
            "bits": packed(v, centre, cell.width),
            "attack": attack.astype(np.uint8),
            "centre": centre.astype(np.float32),
            "width": np.int64(cell.width),
            "k": np.int64(cell.k),
            "threshold": np.float64(threshold),
            "cued": np.int64(cell.cued),
            "words": np.int64(0 if cell.cued else WORDS),
        }
        path = Path("/tmp/inject26-work") / f"view-{cell.name.replace(' ', '_')}.npz"
        np.savez_compressed(path, **arrays)
        return Neighbours.from_arrays(arrays), path.stat().st_size

    def passed(self, texts: list[str]) -> np.ndarray:
        """Per text, whether the rules and the shipped detector pass it (remembered)."""
        new = sorted({t for t in texts if t not in self._passed})
        if new:
            self._passed.update(zip(new, s_passed(self, self.shipped, new), strict=True))
        return np.array([self._passed[t] for t in texts])

    def eligible(self, view: Neighbours, texts: list[str], free: np.ndarray) -> np.ndarray:
        """Per text, whether the view reads it (:meth:`Neighbours.fires`'s gate)."""
        network = self.shipped.probabilities(self.vectors(texts), texts)
        lex = self.shipped.lexical
        return np.array(
            [
                bool(f)
                and len(t.split()) >= view.words
                and (not view.cued or gated(t))
                and not (lex is not None and lex.spares(float(n), t, gated, ordered))
                for t, f, n in zip(texts, free, network, strict=True)
            ]
        )


def threshold(s: Setup, cell: Cell) -> float:
    """The lowest margin at which the cell's view flags none of the fitted half of the real
    texts that it reads."""
    view, _ = s.view(cell, 0.0)
    fitted = [s.real_all[i] for i in s.t.fitted]
    at = s.eligible(view, fitted, s.passed(fitted))
    margins = view.margins(s.vectors([t for t, a in zip(fitted, at, strict=True) if a]))
    return float(margins.max()) + 1e-6 if len(margins) else 0.0


def out_of_fold(s: Setup, cell: Cell, th: float) -> tuple[int, int, int, int]:
    """The view's English catches and notes flagged added out of fold (each group's rows
    masked out of its memory), and the groups' English attacks and notes."""
    view, _ = s.view(cell, th)
    rows, _ = s.memory(cell)
    caught = flagged = english = notes = 0
    for attacks, kept in s.groups.values():
        texts = sorted(attacks) + sorted(kept)
        n_attacks = len(attacks)
        free = s.passed(texts)
        at = np.flatnonzero(s.eligible(view, texts, free))
        group = attacks | kept
        exclude = np.array([r in group for r in rows])[:, None] & np.ones((1, len(at)), bool)
        margins = view.margins(s.vectors([texts[i] for i in at]), exclude)
        fired = {int(i) for i, m in zip(at, margins, strict=True) if m >= th}
        for i, text in enumerate(texts):
            is_attack = i < n_attacks
            if is_attack and s.category.get(text) in injection.ENGLISH:
                english += 1
                caught += i in fired
            elif not is_attack:
                notes += 1
                flagged += i in fired
    return caught, flagged, english, notes


def checks(s: Setup, found: Detector) -> dict[str, object]:
    """The real texts (ids flagged), the agent set's and both probes' ``check`` halves."""
    real_ok = s_passed(s, found, s.real_all)
    ids = [s.real[i][0] for i in np.flatnonzero(~real_ok)]
    agent = r18.agent_halves()["check"]
    facts, lists = r21.facts(), r19.lists()
    return {
        "real": ids,
        "agent": int((~s_passed(s, found, agent, [r18.labelled(x) for x in agent])).sum()),
        "facts": int((~s_passed(s, found, facts["check"])).sum()),
        "lists": int((~s_passed(s, found, lists["check"])).sum()),
    }


def fast_checks(s: Setup, view: Neighbours) -> dict[str, object]:
    """:func:`checks` of the shipped detector with ``view``: the shipped verdicts
    (remembered) with what the view adds on the texts they pass, as the run-time code reads
    the view last (``--write`` reads the chosen file through the run-time code)."""
    agent = r18.agent_halves()["check"]
    facts, lists = r21.facts(), r19.lists()

    def flagged(texts: list[str], marks: list[bool] | None = None) -> np.ndarray:
        free = s.passed(texts) if marks is None else s_passed(s, s.shipped, texts, marks)
        at = np.flatnonzero(
            s.eligible(view, texts, free & ~np.array(marks or [False] * len(texts)))
        )
        out = ~free
        if len(at):
            margins = view.margins(s.vectors([texts[i] for i in at]))
            out[at[margins >= view.threshold]] = True
        return out

    real = flagged(s.real_all)
    return {
        "real": [s.real[i][0] for i in np.flatnonzero(real)],
        "agent": int(flagged(agent, [r18.labelled(x) for x in agent]).sum()),
        "facts": int(flagged(facts["check"]).sum()),
        "lists": int(flagged(lists["check"]).sum()),
    }


def s_passed(
    s: Setup, found: Detector, texts: list[str], marks: list[bool] | None = None
) -> np.ndarray:
    """Per text, whether the rules and ``found`` pass it."""
    reasons = found.reasons(s.vectors(texts), texts, s.embed, None, marks)
    return np.array([r is None and not scan(t) for r, t in zip(reasons, texts, strict=True)])


def shipped_bytes() -> int:
    """The shipped network's and lexical file's bytes together."""
    data = Path(injection_detector.__file__).parent / "data"
    names = ("injection_detector.npz", "injection_lexical.npz")
    return sum((data / f).stat().st_size for f in names)


def grid(s: Setup, only: str) -> None:
    """Every cell's line: threshold, size, out-of-fold figures and the checks."""
    print(f"shipped: {checks(s, s.shipped)}", flush=True)
    for cell in CELLS:
        if only and cell.name not in only.split("|"):
            continue
        th = threshold(s, cell)
        view, size = s.view(cell, th)
        caught, flagged, english, notes = out_of_fold(s, cell, th)
        got = fast_checks(s, view)
        total = size + shipped_bytes()
        print(
            f"cell | {cell.name} | th {th:.4f} | {size} bytes ({total} together) | "
            f"oof english +{caught} of {english}, notes +{flagged} of {notes} | {got}",
            flush=True,
        )


def timing(s: Setup, path: str) -> None:
    """A write's time, the shipped detector against it with the view at ``path``, every
    eighth real text, one at a time, interleaved per text (which goes first alternating),
    the write's own vector not timed: median, mean and p95 in ms."""
    with np.load(path) as arrays:
        found = replace(s.shipped, neighbours=Neighbours.from_arrays(arrays))
    r24.interleaved(s.data, s.real_all, s.shipped, found)


def read(s: Setup, path: str, folds: Sequence[str] = UNSEEN) -> None:
    """The unseen ``folds`` read once: the rules, the shipped detector and the candidate
    (the shipped detector with the view at ``path``), side by side on the same embeddings:
    English and overall catches, per category, benign notes (counts, never texts)."""
    rows = [r for r in injection.load_set() if r["split"] in folds]
    texts = sorted({r["text"] for r in rows})
    with np.load(path) as arrays:
        found = replace(s.shipped, neighbours=Neighbours.from_arrays(arrays))
    sides = {
        "rules": scan,
        "shipped": injection.with_detector(texts, s.embed, s.shipped),
        "candidate": injection.with_detector(texts, s.embed, found),
    }
    report(rows, sides, folds)


def report(rows: list[dict[str, Any]], sides: dict[str, Any], folds: Sequence[str]) -> None:
    """Per side (a name and its check) and fold: English and overall catches, per
    category, and benign notes flagged (counts, never texts)."""
    for name, check in sides.items():
        recall = injection.recall_by_category(rows, check)
        hard = injection.hard_negatives(rows, check)
        for fold in folds:
            r = recall[fold]
            cats = {c: (v["caught"], v["total"]) for c, v in r["categories"].items()}
            notes = f"{hard[fold]['flagged']}/{hard[fold]['total']}" if fold in hard else "-"
            print(
                f"{name} {fold}: english {r['english']['caught']}/{r['english']['total']} "
                f"overall {r['overall']['caught']}/{r['overall']['total']} notes {notes} {cats}",
                flush=True,
            )


def write(s: Setup, name: str, out: Path) -> None:
    """The named cell's file, fitted on everything, as ``out/injection_neighbours.npz``."""
    cell = next(c for c in CELLS if c.name == name)
    th = threshold(s, cell)
    s.view(cell, th)
    out.mkdir(parents=True, exist_ok=True)
    src = Path("/tmp/inject26-work") / f"view-{cell.name.replace(' ', '_')}.npz"
    (out / "injection_neighbours.npz").write_bytes(src.read_bytes())
    print(f"wrote {out / 'injection_neighbours.npz'} (th {th:.4f})")
    with np.load(out / "injection_neighbours.npz") as arrays:
        found = replace(s.shipped, neighbours=Neighbours.from_arrays(arrays))
    print(f"through the run-time code: {checks(s, found)}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else "")
    parser.add_argument("--data", default="../shared/bench")
    parser.add_argument("--cache", default="/tmp/inject26-work/vectors.npz")
    parser.add_argument("--grid", action="store_true")
    parser.add_argument("--only", default="")
    parser.add_argument("--write", default="")
    parser.add_argument("--cell", default=CHOSEN or "")
    parser.add_argument("--timing", default="")
    parser.add_argument("--read", default="")
    args = parser.parse_args()
    s = Setup(args.data, Path(args.cache))
    if args.grid:
        grid(s, args.only)
    if args.write:
        write(s, args.cell, Path(args.write))
    if args.timing:
        timing(s, args.timing)
    if args.read:
        read(s, args.read)


if __name__ == "__main__":
    main()
