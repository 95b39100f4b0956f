"""Round twenty-eight of the learned injection detector (engram issue 26, item 3;
docs/safety.md, "Round twenty-eight"): cheaper neighbour views, so the view costs a write
at most 0.2 ms more than the shipped detector.

Round twenty-six's view (``w192 k5 all``: every one of 6,657 training rows, read on any
text of 4 words or more) added English catches on every unseen fold it moved; round
twenty-seven halved its arithmetic and it still cost +0.37 ms a write, because it reads
every row for almost every write. Two levers cut that, each a new cell:
- fewer rows: **prototypes** (k-means centroids of the attack rows per category and of the
  benign notes, coded like rows) or a **pruned** memory (the rows that decide some
  verdict near the boundary);
- a **narrower gate**: ``cued`` reads only a text carrying one of the detector's cues, so
  most writes never reach the view and the median write does not pay it.

The cells (``CELLS``), all 192 bits and read by round twenty-seven's run-time code
unchanged: ``full k5 cued``; ``proto P kK gate`` for ``P`` 512 or 1,024 prototypes, ``K``
1 or 3, gate ``all`` or ``cued``; ``pruned k5 gate`` for both gates. Out of fold (the
choice) is round twenty-six's five groups with each group's rows left out: here the
prototypes are re-clustered and the pruned rows re-chosen without the group. Each cell's
threshold is the lowest margin at which the view flags none of the real texts' fitted
half that it reads.

The rule and the ship rule were fixed in docs/safety.md ("Round twenty-eight") and
committed (44da52b) before any cell ran: the cell with the most out-of-fold English
catches added, subject to (a) out-of-fold notes at most 26 of 2,675; (b) real texts and
the agent set's ``check`` no more than shipped (1, 1); (c) the probes' ``check`` halves no
more than shipped (2, 1); (d) the files together at most 512 KB; (e) a write's median
within 0.2 ms of shipped (``--timing``). Read once (``--read``) on held-out 25 and the
spent folds ``held_out``, 20 to 24; it ships only if the English catches summed rise,
none falls by more than 1, held-out 25 does not fall, and the notes summed do not rise.

Ran (05:07-05:44 UTC, load 9 to 16; the last ten cells in two single-threaded processes).
Out of fold, English / notes added: full k5 cued +22 / +2; proto 512 k1 all +7 / +3,
cued +3 / +2; proto 512 k3 all +14 / +8 and cued +9 / +7 (4 real texts: fail (b)); proto
1024 k1 all +27 / +7 (2 real) and cued +19 / +8 (3 real); proto 1024 k3 all +12 / +1 and
cued +7 / +1 (2 real); pruned k5 all +32 / +4 (2 agent writes: fails (b)); **pruned k5
cued** +22 / +2 (6,479 rows, th 0.1199, 158,573 bytes, 483,149 together; real 1, agent
1, facts 2, lists 1), chosen over full k5 cued on fewer rows. (e): a write's median 0.214
-> 0.304 ms (+0.090, load 9). Read once: English 87, 66, 67, 65, 69, 63, 58 -> 87, 67,
69, 65, 70, 63, 58 (475 -> 479), notes 8 -> 8: **it ships**.

    python scripts/fit_injection_round28.py [--data ../shared/bench] [--cache PATH]
        [--grid [--only NAMES]] [--write DIR --cell NAME] [--timing FILE [--passes 3]]
        [--read FILE]
"""

from __future__ import annotations

import argparse
import sys
import time
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
import fit_injection_round26 as r26  # noqa: E402  (the setup, the checks, the reading)
import fit_injection_round27 as r27  # noqa: E402  (the timing loop)

from engram.bench import injection  # noqa: E402
from engram.injection_detector import gated, ordered  # noqa: E402
from engram.injection_neighbours import Neighbours, packed  # noqa: E402

WORK = Path("/tmp/inject28-work")
#: The folds the choice is read on once: the fresh one and the spent unseen ones.
UNSEEN = ("held_out", *(f"held_out_{n}" for n in range(20, 26)))
#: The bits a row keeps (round twenty-six's best width).
WIDTH = 192
#: The pruned memory's band: queries whose full-memory margin lies this near round
#: twenty-six's threshold keep their neighbours.
BAND, FULL_THRESHOLD = 0.15, 0.1199


@dataclass(frozen=True)
class Cell:
    """One cheaper view: its memory (``full``, ``proto`` or ``pruned``), the prototypes'
    count (``proto`` only), ``k`` and the gate."""

    memory: str
    size: int
    k: int
    cued: bool

    @property
    def name(self) -> str:
        gate = "cued" if self.cued else "all"
        size = f" {self.size}" if self.memory == "proto" else ""
        return f"{self.memory}{size} k{self.k} {gate}"


CELLS = [
    Cell("full", 0, 5, True),
    *(Cell("proto", p, k, cued) for p in (512, 1024) for k in (1, 3) for cued in (False, True)),
    *(Cell("pruned", 0, 5, cued) for cued in (False, True)),
]
#: The cell the rule chose; None until the grid has run.
CHOSEN: str | None = "pruned k5 cued"


def _view(
    rows: np.ndarray, attack: np.ndarray, centre: np.ndarray, cell: Cell, th: float
) -> dict[str, np.ndarray]:
    """The view's arrays for memory ``rows`` (vectors) labelled ``attack``."""
    return {
        "bits": packed(rows, centre, WIDTH),
        "attack": attack.astype(np.uint8),
        "centre": centre.astype(np.float32),
        "width": np.int64(WIDTH),
        "k": np.int64(cell.k),
        "threshold": np.float64(th),
        "cued": np.int64(cell.cued),
        "words": np.int64(0 if cell.cued else r26.WORDS),
    }


class Fit:
    """Round twenty-six's setup with memories built per cell and left-out group."""

    def __init__(self, s: r26.Setup) -> None:
        self.s = s
        self.rows = s.attacks + s.notes
        self.v = s.vectors(self.rows)
        self.attack = np.zeros(len(self.rows), bool)
        self.attack[: len(s.attacks)] = True
        self.cats = np.array([s.category[a] for a in s.attacks] + [""] * len(s.notes))
        self.centre = self.v.mean(axis=0)
        self._spared: dict[str, bool] = {}
        s.eligible = self.eligible  # type: ignore[method-assign]  # remembered, per text
        fitted = [s.real_all[i] for i in s.t.fitted]
        reader = Neighbours.from_arrays(_view(self.v, self.attack, self.centre, CELLS[-2], 0.0))
        at = s.eligible(reader, fitted, s.passed(fitted))
        self.real_read = s.vectors([t for t, a in zip(fitted, at, strict=True) if a])

    def eligible(self, view: Neighbours, texts: list[str], free: np.ndarray) -> np.ndarray:
        """:meth:`r26.Setup.eligible` with the floors' verdict per text remembered: the
        network and the lexical view are read once per text, not once per cell."""
        s = self.s
        new = sorted({t for t in texts if t not in self._spared})
        if new:
            network = s.shipped.probabilities(s.vectors(new), new)
            lex = s.shipped.lexical
            for t, n in zip(new, network, strict=True):
                self._spared[t] = lex is not None and lex.spares(float(n), t, gated, ordered)
        return np.array(
            [
                bool(f)
                and len(t.split()) >= view.words
                and (not view.cued or gated(t))
                and not self._spared[t]
                for t, f in zip(texts, free, strict=True)
            ]
        )

    def memory(self, cell: Cell, keep: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The cell's memory from the rows ``keep`` marks: vectors and attack labels."""
        v, attack = self.v[keep], self.attack[keep]
        if cell.memory == "full":
            return v, attack
        if cell.memory == "proto":
            return self._prototypes(cell.size, v, attack, self.cats[keep])
        return self._pruned(v, attack)

    def _prototypes(
        self, size: int, v: np.ndarray, attack: np.ndarray, cats: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray]:
        from sklearn.cluster import KMeans

        n_attack = round(size * attack.sum() / len(attack))
        groups = [(cats == c) & attack for c in sorted(set(cats[attack]))]
        shares = [max(1, round(n_attack * g.sum() / attack.sum())) for g in groups]
        groups.append(~attack)
        shares.append(size - n_attack)
        out, labels = [], []
        for g, n in zip(groups, shares, strict=True):
            x = v[g]
            n = min(n, len(x))
            km = KMeans(n_clusters=n, n_init=1, random_state=0).fit(x)
            out.append(km.cluster_centers_.astype(np.float32))
            labels.append(np.full(n, bool(attack[g][0])))
        return np.vstack(out), np.concatenate(labels)

    def _pruned(self, v: np.ndarray, attack: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        full = Neighbours.from_arrays(_view(v, attack, self.centre, Cell("full", 0, 5, False), 0))
        kept = np.zeros(len(v), bool)
        for queries, own in ((v, True), (self.real_read, False)):
            for start in range(0, len(queries), 512):
                q = queries[start : start + 512]
                sims = _similarities(full, q)
                if own:  # a training row is not its own neighbour
                    idx = np.arange(start, start + len(q))
                    sims[idx, np.arange(len(q))] = -np.inf
                margin = _top_mean(sims[attack], 5) - _top_mean(sims[~attack], 5)
                near = np.abs(margin - FULL_THRESHOLD) <= BAND
                for kind in (attack, ~attack):
                    part = np.where(kind[:, None], sims, -np.inf)[:, near]
                    top = np.argpartition(-part, 5, axis=0)[:5]
                    kept[np.unique(top)] = True
        return v[kept], attack[kept]


def _similarities(view: Neighbours, vectors: np.ndarray) -> np.ndarray:
    """Rows x queries: the reference's similarities (:meth:`Neighbours.margins`'s)."""
    from engram.injection_neighbours import rotate

    q = rotate(np.asarray(vectors, np.float32) - view.centre)[:, : view.signs.shape[1]]
    q /= np.maximum(np.linalg.norm(q, axis=1, keepdims=True), 1e-12)
    out: np.ndarray = view.signs @ q.T
    return out


def _top_mean(sims: np.ndarray, k: int) -> np.ndarray:
    return np.partition(sims, sims.shape[0] - k, axis=0)[-k:].mean(axis=0)


def cell_view(f: Fit, cell: Cell, keep: np.ndarray, th: float) -> tuple[Neighbours, int]:
    """The cell's view on the rows ``keep`` marks, at ``th``, and its compressed size."""
    rows, attack = f.memory(cell, keep)
    arrays = _view(rows, attack, f.centre, cell, th)
    WORK.mkdir(parents=True, exist_ok=True)
    path = WORK / f"view-{cell.name.replace(' ', '_')}.npz"
    np.savez_compressed(path, **arrays)
    return Neighbours.from_arrays(arrays), path.stat().st_size


def threshold(f: Fit, view: Neighbours) -> float:
    """The lowest margin flagging none of the fitted half's real texts the view reads."""
    s = f.s
    fitted = [s.real_all[i] for i in s.t.fitted]
    at = s.eligible(view, fitted, s.passed(fitted))
    margins = view.margins(s.vectors([t for t, a in zip(fitted, at, strict=True) if a]))
    return float(margins.max()) + 1e-6 if len(margins) else 0.0


def out_of_fold(f: Fit, cell: Cell, th: float) -> tuple[int, int, int, int]:
    """English catches and notes flagged added out of fold (each group's memory built
    without its rows), and the groups' English attacks and notes."""
    s = f.s
    caught = flagged = english = notes = 0
    for attacks, kept in s.groups.values():
        group = attacks | kept
        keep = np.array([r not in group for r in f.rows])
        view, _ = cell_view(f, cell, keep, th)
        texts = sorted(attacks) + sorted(kept)
        at = np.flatnonzero(s.eligible(view, texts, s.passed(texts)))
        fired: set[int] = set()
        if len(at):
            margins = view.margins(s.vectors([texts[i] for i in at]))
            fired = {int(i) for i, m in zip(at, margins, strict=True) if m >= th}
        for i, text in enumerate(texts):
            if i < len(attacks):
                if s.category.get(text) in injection.ENGLISH:
                    english += 1
                    caught += i in fired
            else:
                notes += 1
                flagged += i in fired
    return caught, flagged, english, notes


def grid(f: Fit, only: str) -> None:
    """Every cell's line: rows, threshold, size, out-of-fold figures and the checks."""
    everything = np.ones(len(f.rows), bool)
    for cell in CELLS:
        if only and cell.name not in only.split("|"):
            continue
        started = time.time()
        view, _ = cell_view(f, cell, everything, 0.0)
        th = threshold(f, view)
        view, size = cell_view(f, cell, everything, th)
        caught, flagged, english, notes = out_of_fold(f, cell, th)
        got = r26.fast_checks(f.s, view)
        read = f.s.eligible(view, f.s.real_all[::8], f.s.passed(f.s.real_all[::8]))
        print(
            f"cell | {cell.name} | rows {len(view.attack)} ({int(view.attack.sum())} attacks) "
            f"| th {th:.4f} | {size} bytes ({size + r26.shipped_bytes()} together) | oof "
            f"english +{caught} of {english}, notes +{flagged} of {notes} | {got} | reads "
            f"{int(read.sum())} of {len(read)} timed texts | {time.time() - started:.0f} s",
            flush=True,
        )


def write(f: Fit, name: str, out: Path) -> None:
    """The named cell's file, fitted on everything, as ``out/injection_neighbours.npz``."""
    cell = next(c for c in CELLS if c.name == name)
    everything = np.ones(len(f.rows), bool)
    view, _ = cell_view(f, cell, everything, 0.0)
    th = threshold(f, view)
    cell_view(f, cell, everything, th)
    out.mkdir(parents=True, exist_ok=True)
    src = WORK / f"view-{cell.name.replace(' ', '_')}.npz"
    (out / "injection_neighbours.npz").write_bytes(src.read_bytes())
    print(f"wrote {out / 'injection_neighbours.npz'} (th {th:.4f})", flush=True)
    with np.load(out / "injection_neighbours.npz") as arrays:
        found = replace(f.s.shipped, neighbours=Neighbours.from_arrays(arrays))
    print(f"through the run-time code: {r26.checks(f.s, found)}", flush=True)


def timing(s: r26.Setup, path: str, passes: int) -> float:
    """A write's time, shipped against the view at ``path`` (round twenty-seven's loop:
    every eighth real text, one at a time, the order turning each text and pass, the
    write's own vector not timed; per pass and over all, the median, mean and p95 in ms,
    and the load). Returns the medians' difference (rule (e))."""
    with np.load(path) as arrays:
        both = {
            "shipped": s.shipped,
            "candidate": replace(s.shipped, neighbours=Neighbours.from_arrays(arrays)),
        }
    took = r27.timed(s, both, passes)
    return float(np.median(took["candidate"]) - np.median(took["shipped"]))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else "")
    parser.add_argument("--data", default="../shared/bench")
    parser.add_argument("--cache", default=str(WORK / "vectors.npz"))
    parser.add_argument("--grid", action="store_true")
    parser.add_argument("--only", default="")
    parser.add_argument("--write", default="")
    parser.add_argument("--cell", default=CHOSEN or "")
    parser.add_argument("--timing", default="")
    parser.add_argument("--passes", type=int, default=3)
    parser.add_argument("--read", default="")
    args = parser.parse_args()
    s = r26.Setup(args.data, Path(args.cache))
    if args.grid or args.write:
        f = Fit(s)
        if args.grid:
            grid(f, args.only)
        if args.write:
            write(f, args.cell, Path(args.write))
    if args.timing and timing(s, args.timing, args.passes) > 0.2:
        # (e) failed: the choice gives way to the next cell, and this one is not read.
        print("over rule (e): not read", flush=True)
        return
    if args.read:
        r26.read(s, args.read, UNSEEN)


if __name__ == "__main__":
    main()
