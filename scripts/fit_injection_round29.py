"""Round twenty-nine of the learned injection detector (engram issue 26, item 3;
docs/safety.md, "Round twenty-nine"): the neighbour view on every write (the ``all`` gate)
with a threshold the benign agent writes help set, over round twenty-eight's memory or a
smaller one, read through a cheaper kernel.

Round twenty-eight shipped ``pruned k5 cued`` (+22 English / +2 notes out of fold, +0.090
ms a write); its ``all`` gate added +32 / +4 but flagged one more of the agent set's
``check`` writes and cost +0.37 ms. The cells (``CELLS``), all 192 bits, ``k`` 5, gate
``all``: memory ``pruned`` (round twenty-eight's rule, band 0.15) or ``drop`` (band 0.03,
so rows are dropped), threshold ``real`` (the fitted half of the real texts, as before)
or ``real+agent`` (those and the agent set's ``tune`` writes the view reads).

The rule and the ship rule were fixed in docs/safety.md ("Round twenty-nine") and
committed (773e7e6) before any cell ran.

Ran (08:10-08:30 UTC, load 13 to 16, one process per memory). Out of fold, English / notes
added, and the checks (real / agent / facts / lists; shipped 1 / 1 / 2 / 1): ``pruned all``
+32 / +4, 1 / **2** / 2 / 1 with either threshold (the agent ``tune`` writes all lie under
0.1199, so ``real+agent`` is ``real``); ``drop all`` (3,549 rows, 98 of 10,251 training
verdicts changed) +30 / +1, **2** / 1 / 2 / 1 with either threshold. Every cell fails (b):
nothing is chosen or shipped. For the record (``--timing``, load 12): a write's median
0.289 ms without a view, 0.352 shipped, 0.449 ``pruned all`` packed, 0.606 through
:class:`Int8Layout` (dearer: two searches a write and a looser bound); at load 3.6,
0.200, 0.269, 0.333 and 0.360. Held-out 26 read
once with the shipped detector (``--read``): English 58 of 80 (0.725), rules 18.

The setup is round twenty-six's, with the shipped detector's view taken off for the fits
(the base every view is added to); ``shipped`` in the checks, the timing and the reading is
round twenty-eight's detector with its view.

    python scripts/fit_injection_round29.py [--data ../shared/bench] [--cache PATH]
        [--grid [--only NAMES]] [--write DIR --cell NAME] [--identity FILE]
        [--timing FILE [--passes 3]] [--read]
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
import fit_injection_round18 as r18  # noqa: E402  (the agent set's halves)
import fit_injection_round26 as r26  # noqa: E402  (the setup, the checks, the reading)
import fit_injection_round27 as r27  # noqa: E402  (the timing loop)
import fit_injection_round28 as r28  # noqa: E402  (the memories, out of fold)

from engram import injection_detector  # noqa: E402
from engram.injection_detector import Detector  # noqa: E402
from engram.injection_neighbours import Neighbours  # noqa: E402

WORK = Path("/tmp/inject29-work")
#: The folds the choice is read on once: the fresh one and the spent unseen ones.
UNSEEN = ("held_out", *(f"held_out_{n}" for n in range(20, 27)))
#: The shipped view's out-of-fold English catches added (round twenty-eight): rule (a).
SHIPPED_OOF = 22
#: The bands of the two memories (round twenty-eight's and the one that drops rows).
BANDS = {"pruned": 0.15, "drop": 0.03}


@dataclass(frozen=True)
class Cell:
    """One ``all``-gate view: its memory (``pruned`` or ``drop``) and whether the agent
    set's ``tune`` writes help set the threshold."""

    memory: str
    agent: bool

    @property
    def name(self) -> str:
        return f"{self.memory} all th real{'+agent' if self.agent else ''}"

    @property
    def base(self) -> r28.Cell:
        """Round twenty-eight's cell that builds this memory (its band set on use)."""
        return r28.Cell("pruned", 0, 5, False)


CELLS = [Cell(memory, agent) for memory in ("pruned", "drop") for agent in (False, True)]
#: The cell the rule chose: none (every cell fails rule (b)).
CHOSEN: str | None = None


def view_of(f: r28.Fit, cell: Cell, keep: np.ndarray, th: float) -> tuple[Neighbours, int]:
    """The cell's view on the rows ``keep`` marks, at ``th`` (round twenty-eight's
    :func:`~fit_injection_round28.cell_view` with this memory's band)."""
    r28.BAND = BANDS[cell.memory]
    r28.WORK = WORK / cell.memory  # one directory per memory: two grids run at once
    return r28.cell_view(f, cell.base, keep, th)


def threshold(f: r28.Fit, cell: Cell, view: Neighbours) -> float:
    """Round twenty-eight's threshold, raised (``real+agent``) past the highest margin of
    the agent set's ``tune`` writes that the view reads."""
    th = r28.threshold(f, view)
    if not cell.agent:
        return th
    s = f.s
    agent = r18.agent_halves()["tune"]
    marks = [r18.labelled(x) for x in agent]
    free = r26.s_passed(s, s.shipped, agent, marks) & ~np.array(marks)
    at = s.eligible(view, agent, free)
    read = [t for t, a in zip(agent, at, strict=True) if a]
    if not read:
        return th
    return max(th, float(view.margins(s.vectors(read)).max()) + 1e-6)


def changed(f: r28.Fit, view: Neighbours, th: float) -> tuple[int, int]:
    """How many verdicts of the training rows (each without its own row) and of the
    fitted real texts the view reads differ between the full memory and ``view``'s rows
    (found by their bits), and how many were read."""
    full = Neighbours.from_arrays(r28._view(f.v, f.attack, f.centre, r28.CELLS[-2], th))
    kept = {bytes(b) for b in view.bits}
    inside = np.array([bytes(b) in kept for b in full.bits])
    differ = total = 0
    for queries, own in ((f.v, True), (f.real_read, False)):
        for start in range(0, len(queries), 512):
            sims = r28._similarities(full, queries[start : start + 512])
            if own:
                idx = np.arange(start, start + len(sims[0]))
                sims[idx, np.arange(len(idx))] = -np.inf
            whole = r28._top_mean(sims[f.attack], 5) - r28._top_mean(sims[~f.attack], 5)
            part = np.where(inside[:, None], sims, -np.inf)
            pruned = r28._top_mean(part[f.attack], 5) - r28._top_mean(part[~f.attack], 5)
            differ += int(((whole >= th) != (pruned >= th)).sum())
            total += len(whole)
    return differ, total


def grid(f: r28.Fit, only: str) -> None:
    """Every cell's line: rows, threshold, size, out-of-fold figures and the checks."""
    everything = np.ones(len(f.rows), bool)
    for cell in CELLS:
        if only and cell.name not in only.split("|"):
            continue
        view, _ = view_of(f, cell, everything, 0.0)
        th = threshold(f, cell, view)
        view, size = view_of(f, cell, everything, th)
        r28.BAND = BANDS[cell.memory]
        caught, flagged, english, notes = r28.out_of_fold(f, cell.base, th)
        got = r26.fast_checks(f.s, view)
        moved = changed(f, view, th) if cell.memory == "drop" else (0, 0)
        print(
            f"cell | {cell.name} | rows {len(view.attack)} ({int(view.attack.sum())} attacks) "
            f"| th {th:.4f} | {size} bytes ({size + r26.shipped_bytes()} together) | oof "
            f"english +{caught} of {english}, notes +{flagged} of {notes} | {got} | "
            f"verdicts changed {moved[0]} of {moved[1]}",
            flush=True,
        )


def write(f: r28.Fit, name: str, out: Path) -> None:
    """The named cell's file, fitted on everything, as ``out/injection_neighbours.npz``,
    and its checks through the run-time code."""
    cell = next(c for c in CELLS if c.name == name)
    everything = np.ones(len(f.rows), bool)
    view, _ = view_of(f, cell, everything, 0.0)
    th = threshold(f, cell, view)
    view_of(f, cell, everything, th)
    out.mkdir(parents=True, exist_ok=True)
    src = WORK / cell.memory / "view-pruned_k5_all.npz"
    (out / "injection_neighbours.npz").write_bytes(src.read_bytes())
    print(f"wrote {out / 'injection_neighbours.npz'} (th {th:.4f})", flush=True)
    with np.load(out / "injection_neighbours.npz") as arrays:
        found = replace(f.s.shipped, neighbours=Neighbours.from_arrays(arrays))
    print(f"through the run-time code: {r26.checks(f.s, found)}", flush=True)


class Int8Layout:
    """The cheaper kernel (docs/safety.md, "Round twenty-nine"): the rows' signs as +-1
    int8 vectors in two ``usearch`` indexes (attacks, benign rows) read by an exact search,
    the query rounded to int8. Each similarity is within ``sqrt(width) * max|q| / 254`` of
    the float one, so :meth:`margins` returns the int8 margin plus twice that (and 1e-5
    for the float sums): an upper bound of the reference's margin. What it puts at or
    above the threshold less ``GUARD`` goes to the reference, which decides, so the
    verdicts and reasons are the reference's."""

    def __init__(self, view: Neighbours) -> None:
        from usearch.index import Index

        signs = np.unpackbits(view.bits, axis=1)[:, : view.width].astype(np.int8) * 2 - 1
        self.turn = view.layout.turn
        self.width = view.width
        self.kinds = []
        for kind in (view.attack, ~view.attack):
            index = Index(ndim=view.width, metric="ip", dtype="i8")
            index.add(np.arange(int(kind.sum())), np.ascontiguousarray(signs[kind]))
            self.kinds.append(index)

    def margins(self, vectors: np.ndarray, centre: np.ndarray, k: int) -> np.ndarray:
        q = (vectors - centre) @ self.turn
        q /= np.maximum(np.linalg.norm(q, axis=1, keepdims=True), 1e-12)
        top = np.maximum(np.abs(q).max(axis=1), 1e-12)
        qi = np.rint(q * (127 / top)[:, None]).astype(np.int8)
        unit = top / (127 * np.sqrt(self.width))
        sims = [
            (1 - np.asarray(i.search(qi, k, exact=True, threads=1).distances, np.float64))
            .reshape(len(q), k)
            .mean(axis=1)
            * unit
            for i in self.kinds
        ]
        bound = 2 * np.sqrt(self.width) * top / 254 + 1e-5
        out: np.ndarray = sims[0] - sims[1] + bound
        return out


def sides(s: r26.Setup, shipped: Detector, path: str) -> dict[str, Detector]:
    """The timed detectors: without a view, as shipped, and with the view at ``path``
    read through round twenty-seven's packed rows and through :class:`Int8Layout`."""
    with np.load(path) as arrays:
        packed = Neighbours.from_arrays(arrays)
        fast = Neighbours.from_arrays(arrays)
    object.__setattr__(fast, "layout", Int8Layout(fast))
    return {
        "no view": s.shipped,
        "shipped": shipped,
        "all, packed": replace(s.shipped, neighbours=packed),
        "all, int8": replace(s.shipped, neighbours=fast),
    }


def identity(s: r26.Setup, path: str) -> None:
    """Every eighth real text and the unseen folds' texts: the int8 bound against the
    reference's margin (it must never be lower) and how many go to the reference."""
    with np.load(path) as arrays:
        view = Neighbours.from_arrays(arrays)
    fast = Int8Layout(view)
    rows = r26.injection.load_set()
    texts = s.real_all[::8] + [r["text"] for r in rows if r["split"] != "held_out_26"][::4]
    x = s.vectors(texts)
    bound = np.concatenate([fast.margins(x[i : i + 1], view.centre, view.k) for i in range(len(x))])
    exact = view.margins(x)
    packed = view.layout.margins(x, view.centre, view.k)
    print(
        f"identity: {len(x)} texts, int8 bound below the reference {int((bound < exact).sum())}, "
        f"bound - reference max {float((bound - exact).max()):.4f} median "
        f"{float(np.median(bound - exact)):.4f}; to the reference: int8 "
        f"{int((bound >= view.threshold - 1e-3).sum())}, packed "
        f"{int((packed >= view.threshold - 1e-3).sum())}",
        flush=True,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else "")
    parser.add_argument("--data", default="../shared/bench")
    parser.add_argument("--cache", default=str(WORK / "vectors.npz"))
    parser.add_argument("--grid", action="store_true")
    parser.add_argument("--only", default="")
    parser.add_argument("--write", default="")
    parser.add_argument("--cell", default=CHOSEN or "")
    parser.add_argument("--identity", default="")
    parser.add_argument("--timing", default="")
    parser.add_argument("--passes", type=int, default=3)
    parser.add_argument("--read", action="store_true")
    args = parser.parse_args()
    shipped = injection_detector.shipped()
    if shipped is None or shipped.neighbours is None:
        raise SystemExit("expected round twenty-eight's shipped detector with its view")
    # Round twenty-six's setup refuses a detector with a view: it is the base views join.
    injection_detector.shipped = lambda: replace(shipped, neighbours=None)  # type: ignore[assignment]
    s = r26.Setup(args.data, Path(args.cache))
    if args.grid or args.write:
        f = r28.Fit(s)
        if args.grid:
            grid(f, args.only)
        if args.write:
            write(f, args.cell, Path(args.write))
    if args.identity:
        identity(s, args.identity)
    if args.timing:  # for the record only: no cell met (a) to (c), so (e) decides nothing
        took = r27.timed(s, sides(s, shipped, args.timing), args.passes)
        base = float(np.median(took["no view"]))
        print({n: round(float(np.median(t)) - base, 3) for n, t in took.items()}, flush=True)
    if args.read:  # held-out 26 and the spent unseen folds, with no candidate (none chosen)
        rows = [r for r in r26.injection.load_set() if r["split"] in UNSEEN]
        texts = sorted({r["text"] for r in rows})
        checks = {
            "rules": r26.scan,
            "no view": r26.injection.with_detector(texts, s.embed, s.shipped),
            "shipped": r26.injection.with_detector(texts, s.embed, shipped),
        }
        r26.report(rows, checks, UNSEEN)


if __name__ == "__main__":
    main()
