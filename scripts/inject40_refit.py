"""Round thirty-six (inject40; docs/safety.md, "Round thirty-six"): the learned detector's
neighbour view refitted with the spent folds and the look-alikes as rows, the threshold
chosen on tuning data only, judged out of fold on held-out 20 to 30 and read once on
held-out 31 (``scripts/injection_round36.py``).

Why the neighbour view: it is the detector's part that "needs no fit, only the rows"
(``engram.injection_neighbours``), so new rows join it without the six network fits of
about 7 minutes each round twenty-five's harness needs (round thirty-five left the refit
unrun for that reason). Its memory holds the training rows and held-out 2 to 19
(round twenty-eight); held-out 20 to 30, acks36's look-alikes, notes39 and notes40 were
never in any fit. The shipped rows are kept as they are (their bits and centre): the new
rows are coded against the same centre and appended.

The candidate rows (``--grid``), by cell:
- ``misses``: the English units of held-out 20 to 30 the shipped scan misses, as attacks;
- ``all``: every attack row of held-out 20 to 30 but the split pairs (round twenty-five's
  choice), as attacks;
- each with, as benign rows, the notes of held-out 20 to 30, notes39 A, notes40 A and
  acks36's tune notes, and acks36's tune look-alikes as attacks.

The threshold is the project's (round twenty-six's): the lowest margin at which the view
flags none of the real texts' fitted half that it reads. Out of fold: each of held-out 20
to 30 is read with a memory built without its rows (threshold chosen again without
them). The rule, fixed here before the grid ran: keep the cell with the most out-of-fold
English catches added on held-out 20 to 30, if it adds at least one, flags no more of
their notes out of fold, and flags no more of the tuning benign sets (the real texts'
fitted half, the agent set's and the probes' ``tune`` halves, wishes31 A, acks36's tune
notes, notes39 A, notes40 A, the 2,877 training notes). It ships only if, read once,
held-out 31's English does not fall, its notes do not rise, and the checks (``--checks``)
hold.

Every verdict is a write's: the rules, else the detector's reason (the neighbour view
read last, on what the rest passed, then the stated-value guard) unless the wish guard
passes it. The detector's reasons without the view are cached in ``/tmp/inject40``.

    PYTHONPATH=src python scripts/inject40_refit.py --grid
    PYTHONPATH=src python scripts/inject40_refit.py --write CELL   # src/engram/data
    PYTHONPATH=src python scripts/inject40_refit.py --checks BASE.npz [--final]
    PYTHONPATH=src python scripts/inject40_refit.py --read REFIT.npz  # held-out 31, once
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import replace
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
import fit_injection_round18 as r18  # noqa: E402  (the agent set's halves)
import fit_injection_round19 as r19  # noqa: E402  (the lists probe)
import fit_injection_round21 as r21  # noqa: E402  (the user-facts probe)
import fit_injection_round25 as r25  # noqa: E402  (the training rows, the real-text split)
import fit_injection_round30 as r30  # noqa: E402  (the embedder, the wishes probe)

from engram import injection_detector, safety, safety_values, safety_wishes  # noqa: E402
from engram.bench import injection  # noqa: E402
from engram.injection_detector import CODE, gated, ordered  # noqa: E402
from engram.injection_neighbours import Neighbours, packed  # noqa: E402

WORK = Path("/tmp/inject40")
CACHE = WORK / "vectors.npz"
REASONS = WORK / "reasons-noview.json"
DATA = Path(__file__).resolve().parents[1] / "src/engram/data"
SPENT = tuple(f"held_out_{n}" for n in range(20, 31))
EARLY = ("tune", "held_out", *(f"held_out_{n}" for n in range(2, 20)))
CELLS = ("misses", "all")


def _json(name: str) -> list[dict[str, str]]:
    return list(json.loads((DATA / name).read_text("utf-8")))


class Setup:
    def __init__(self, bench: str) -> None:
        self.embed = r30.fp32_embed(CACHE)
        self.shipped = injection_detector.shipped()
        assert self.shipped is not None and self.shipped.neighbours is not None
        self.bare = replace(self.shipped, neighbours=None)
        self.rows = injection.load_set()
        self.real = [t for _, t in injection.real_texts(bench)]
        self.t = r25.training(self.real)
        self.fitted = sorted({self.real[i] for i in self.t.fitted})
        self.cache: dict[str, str | None] = (
            json.loads(REASONS.read_text()) if REASONS.exists() else {}
        )

    def fold(self, split: str) -> tuple[list[tuple[str, list[str]]], list[str]]:
        """A fold's attack units (category, texts) and its notes."""
        rows = [x for x in self.rows if x["split"] == split]
        units = [
            (str(r["category"]), list(ts))
            for r, ts in injection._units([x for x in rows if not x.get("benign")])
        ]
        return units, [str(x["text"]) for x in rows if x.get("benign")]

    def noview(self, texts: list[str], marks: list[bool] | None = None) -> list[str | None]:
        """The detector's reasons without the neighbour view (cached per text; a marked
        text, a message list, is keyed apart)."""
        marks = marks or [False] * len(texts)
        keys = [("L:" if m else "") + t for t, m in zip(texts, marks, strict=True)]
        todo = sorted(
            {
                (k, t, bool(m))
                for k, t, m in zip(keys, texts, marks, strict=True)
                if k not in self.cache
            }
        )
        for start in range(0, len(todo), 512):
            part = todo[start : start + 512]
            got = self.bare.reasons(
                self.embed([t for _, t, _ in part]),
                [t for _, t, _ in part],
                self.embed,
                None,
                [m for _, _, m in part],
            )
            self.cache.update({k: g for (k, _, _), g in zip(part, got, strict=True)})
        if todo:
            REASONS.write_text(json.dumps(self.cache))
        return [self.cache[k] for k in keys]

    def flagged(
        self,
        view: Neighbours,
        texts: list[str],
        marks: list[bool] | None = None,
        exclude: np.ndarray | None = None,
    ) -> np.ndarray:
        """Per text, a write's verdict with ``view`` as the neighbour view (``exclude``:
        view rows left out, for a fold read out of fold)."""
        marks = marks or [False] * len(texts)
        out: list[str | None] = list(self.noview(texts, marks))
        bare = [
            injection_detector.unlabelled(t) if m else t for t, m in zip(texts, marks, strict=True)
        ]
        free = [o is None and not m for o, m in zip(out, marks, strict=True)]
        at = [i for i, f in enumerate(free) if f and not safety.scan(texts[i])]
        if at:
            sub = [bare[i] for i in at]
            vectors = self.embed(sub)
            network = self.bare.probabilities(vectors, sub)
            floors = (network, self.bare.lexical, gated, ordered)
            admitted = view.admitted(sub, [True] * len(sub), floors)
            if admitted:
                margins = view.margins(
                    vectors[admitted],
                    None
                    if exclude is None
                    else exclude[:, None] & np.ones((1, len(admitted)), bool),
                )
                for j, m in zip(admitted, margins, strict=True):
                    if m >= view.threshold:
                        out[at[j]] = f"{CODE}: neighbours {m:.2f}"
        out = safety_values.cleared(out, bare)
        return np.array(
            [
                bool(safety.scan(t)) or (r is not None and not safety_wishes.wish(t))
                for t, r in zip(texts, out, strict=True)
            ]
        )

    def threshold(self, view: Neighbours, exclude: np.ndarray | None = None) -> float:
        """The lowest margin flagging none of the real texts' fitted half the view reads."""
        texts = self.fitted
        out = self.noview(texts)
        free = [o is None and not safety.scan(t) for o, t in zip(out, texts, strict=True)]
        sub = [t for t, f in zip(texts, free, strict=True) if f]
        vectors = self.embed(sub)
        network = self.bare.probabilities(vectors, sub)
        admitted = view.admitted(
            sub, [True] * len(sub), (network, self.bare.lexical, gated, ordered)
        )
        if not admitted:
            return 0.0
        ex = None if exclude is None else exclude[:, None] & np.ones((1, len(admitted)), bool)
        return float(view.margins(vectors[admitted], ex).max()) + 1e-6

    def misses(self, split: str) -> list[str]:
        """The texts of a fold's English units the shipped scan misses."""
        units, _ = self.fold(split)
        texts = sorted({t for _, ts in units for t in ts})
        got = dict(zip(texts, self.flagged(self.shipped.neighbours, texts), strict=True))  # type: ignore[arg-type]
        return [
            t
            for c, ts in units
            if c in injection.ENGLISH and c != "split_pair" and not any(got[t] for t in ts)
            for t in ts
        ]

    def candidate_rows(self, cell: str) -> tuple[list[str], list[bool], list[str]]:
        """The cell's new rows, whether each is an attack, and the fold each came from."""
        texts: list[str] = []
        attack: list[bool] = []
        origin: list[str] = []
        for split in SPENT:
            units, notes = self.fold(split)
            if cell == "misses":
                atk = self.misses(split)
            else:
                atk = [t for c, ts in units if c != "split_pair" for t in ts]
            texts += atk + notes
            attack += [True] * len(atk) + [False] * len(notes)
            origin += [split] * (len(atk) + len(notes))
        acks = _json("acks36.json")
        extra_a = [r["text"] for r in acks if r["fold"] == "tune" and r["label"] == "attack"]
        extra_b = [r["text"] for r in acks if r["fold"] == "tune" and r["label"] == "benign"]
        extra_b += [r["text"] for r in _json("notes39.json") if r["fold"] == "A"]
        extra_b += [r["text"] for r in _json("notes40.json") if r["fold"] == "A"]
        texts += extra_a + extra_b
        attack += [True] * len(extra_a) + [False] * len(extra_b)
        origin += ["extra"] * (len(extra_a) + len(extra_b))
        return texts, attack, origin

    def view(self, texts: list[str], attack: list[bool], th: float) -> Neighbours:
        old = self.shipped.neighbours
        assert old is not None
        arrays = {
            "bits": np.vstack([old.bits, packed(self.embed(texts), old.centre, old.width)]),
            "attack": np.concatenate([old.attack, np.array(attack, bool)]).astype(np.uint8),
            "centre": old.centre,
            "width": np.int64(old.width),
            "k": np.int64(old.k),
            "threshold": np.float64(th),
            "cued": np.int64(old.cued),
            "words": np.int64(old.words),
        }
        return Neighbours.from_arrays(arrays)

    def tuning_sets(self) -> dict[str, tuple[list[str], list[bool] | None]]:
        agent = r18.agent_halves()["tune"]
        wishes = [r["text"] for r in _json("wishes31.json") if r["fold"] == "A"]
        acks = [
            r["text"]
            for r in _json("acks36.json")
            if r["fold"] == "tune" and r["label"] == "benign"
        ]
        return {
            "real fitted half": (self.fitted, None),
            "agent tune": (agent, [r18.labelled(x) for x in agent]),
            "facts tune": (r21.facts()["tune"], None),
            "lists tune": (r19.lists()["tune"], None),
            "wishes31 A": (wishes, None),
            "acks36 tune notes": (acks, None),
            "notes39 A": ([r["text"] for r in _json("notes39.json") if r["fold"] == "A"], None),
            "notes40 A": ([r["text"] for r in _json("notes40.json") if r["fold"] == "A"], None),
            "training notes": (sorted(set(self.t.notes)), None),
        }


def grid(s: Setup) -> None:
    old = s.shipped.neighbours
    assert old is not None
    n_old = len(old.attack)
    base: dict[str, int] = {}
    for name, (texts, marks) in s.tuning_sets().items():
        base[name] = int(s.flagged(old, texts, marks).sum())
    print("shipped view, tuning benign sets flagged:", base, flush=True)
    for cell in CELLS:
        texts, attack, origin = s.candidate_rows(cell)
        full = s.view(texts, attack, 0.0)
        th = s.threshold(full)
        full = replace(full, threshold=th)
        added = notes_added = english = notes_n = 0
        per: list[str] = []
        for split in SPENT:
            exclude = np.concatenate(
                [np.zeros(n_old, bool), np.array([o == split for o in origin])]
            )
            th_f = s.threshold(full, exclude)
            view = replace(full, threshold=th_f)
            units, notes = s.fold(split)
            texts_f = sorted({t for _, ts in units for t in ts} | set(notes))
            was = dict(zip(texts_f, s.flagged(old, texts_f), strict=True))
            now = dict(zip(texts_f, s.flagged(view, texts_f, None, exclude), strict=True))
            eng = [ts for c, ts in units if c in injection.ENGLISH]
            a = sum(any(now[t] for t in ts) for ts in eng) - sum(
                any(was[t] for t in ts) for ts in eng
            )
            n = sum(now[t] for t in notes) - sum(was[t] for t in notes)
            added, notes_added = added + a, notes_added + n
            english, notes_n = english + len(eng), notes_n + len(notes)
            per.append(f"{split[9:]} {a:+d}/{n:+d}")
        tuning = {
            name: int(s.flagged(full, t, m).sum()) for name, (t, m) in s.tuning_sets().items()
        }
        worse = {k: (base[k], v) for k, v in tuning.items() if v > base[k]}
        print(
            f"cell {cell}: {sum(attack)} attack rows, {len(attack) - sum(attack)} benign, th "
            f"{th:.4f} (shipped {old.threshold:.4f}); out of fold English +{added} of {english}, "
            f"notes {notes_added:+d} of {notes_n}; {'; '.join(per)}; tuning sets {tuning}; "
            f"worse {worse or 'none'}",
            flush=True,
        )


def write(s: Setup, cell: str) -> None:
    """The cell's view, fitted on everything, over ``src/engram/data``'s file: the shipped
    memory (round twenty-eight's 6,479 rows) and the new rows, never appended twice."""
    old = s.shipped.neighbours
    if old is None or len(old.attack) != 6_479:
        raise SystemExit("the tree's view is not round twenty-eight's: restore it first")
    texts, attack, _ = s.candidate_rows(cell)
    full = s.view(texts, attack, 0.0)
    th = s.threshold(full)
    full = replace(full, threshold=th)
    arrays = {
        "bits": full.bits,
        "attack": full.attack.astype(np.uint8),
        "centre": full.centre,
        "width": np.int64(full.width),
        "k": np.int64(full.k),
        "threshold": np.float64(th),
        "cued": np.int64(full.cued),
        "words": np.int64(full.words),
    }
    np.savez_compressed(DATA / "injection_neighbours.npz", **arrays)
    print(f"wrote {cell}: {len(full.attack)} rows, th {th:.4f}")


def checks(s: Setup, base_path: Path, final: bool) -> None:
    """Every check set flagged with the base view (``base_path``) and this tree's file;
    held-out 31 and the held-out folds of notes40 only with ``final``."""
    with np.load(base_path) as arrays:
        base = Neighbours.from_arrays(arrays)
    new = s.shipped.neighbours
    assert new is not None
    agent = r18.agent_halves()
    facts, lists = r21.facts(), r19.lists()
    wishes = _json("wishes31.json")
    acks = _json("acks36.json")
    sets: dict[str, tuple[list[str], list[bool] | None]] = {
        "real (distinct)": (sorted(set(s.real)), None),
        "agent check": (agent["check"], [r18.labelled(x) for x in agent["check"]]),
        "facts check": (facts["check"], None),
        "lists check": (lists["check"], None),
        "wishes probe": (list(r30.WISHES), None),
        "wishes31 B": ([r["text"] for r in wishes if r["fold"] == "B"], None),
        "acks36 held_out notes": (
            [r["text"] for r in acks if r["fold"] == "held_out" and r["label"] == "benign"],
            None,
        ),
        "notes39 B": ([r["text"] for r in _json("notes39.json") if r["fold"] == "B"], None),
    }
    if final:
        sets["notes40 B"] = ([r["text"] for r in _json("notes40.json") if r["fold"] == "B"], None)
    for name, (texts, marks) in {**s.tuning_sets(), **sets}.items():
        print(
            f"{name}: {int(s.flagged(base, texts, marks).sum())} -> "
            f"{int(s.flagged(new, texts, marks).sum())} of {len(texts)}",
            flush=True,
        )
    for name, attacks in (
        ("acks36 look-alikes tune", "tune"),
        ("acks36 look-alikes held_out", "held_out"),
    ):
        texts = [r["text"] for r in acks if r["fold"] == attacks and r["label"] == "attack"]
        print(
            f"{name} caught: {int(s.flagged(base, texts).sum())} -> "
            f"{int(s.flagged(new, texts).sum())} of {len(texts)}",
            flush=True,
        )
    folds = [f for f in injection.FOLDS if final or f != "held_out_31"]
    summed = [0, 0, 0, 0, 0, 0]
    for split in folds:
        units, notes = s.fold(split)
        texts = sorted({t for _, ts in units for t in ts} | set(notes))
        got = []
        for view in (base, new):
            v = dict(zip(texts, s.flagged(view, texts), strict=True))
            eng = sum(any(v[t] for t in ts) for c, ts in units if c in injection.ENGLISH)
            allu = sum(any(v[t] for t in ts) for _, ts in units)
            got.append((eng, allu, sum(v[t] for t in notes)))
        print(f"{split}: English/overall/notes {got[0]} -> {got[1]}", flush=True)
        if split != "held_out_31":
            summed = [a + b for a, b in zip(summed, [*got[0], *got[1]], strict=True)]
    print(f"folds but held-out 31 summed, English/overall/notes: {summed[:3]} -> {summed[3:]}")


def read(s: Setup, path: Path) -> None:
    """Held-out 31 and notes40 B, once, with the tree's view and the view at ``path``."""
    with np.load(path) as arrays:
        other = Neighbours.from_arrays(arrays)
    units, notes = s.fold("held_out_31")
    texts = sorted({t for _, ts in units for t in ts} | set(notes))
    late = [r["text"] for r in _json("notes40.json") if r["fold"] == "B"]
    for name, view in (("tree", s.shipped.neighbours), (str(path), other)):
        assert view is not None
        v = dict(zip(texts, s.flagged(view, texts), strict=True))
        eng = sum(any(v[t] for t in ts) for c, ts in units if c in injection.ENGLISH)
        allu = sum(any(v[t] for t in ts) for _, ts in units)
        b = int(s.flagged(view, late).sum())
        print(
            f"{name}: held-out 31 English {eng} of 80, overall {allu} of 88, notes "
            f"{sum(v[t] for t in notes)} of 50; notes40 B {b} of {len(late)}"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", default="../shared/bench")
    parser.add_argument("--grid", action="store_true")
    parser.add_argument("--write", default="")
    parser.add_argument("--checks", default="", help="the base view's .npz")
    parser.add_argument("--final", action="store_true")
    parser.add_argument("--read", default="", help="a refitted view's .npz, read beside")
    args = parser.parse_args()
    WORK.mkdir(parents=True, exist_ok=True)
    s = Setup(args.data)
    if args.grid:
        grid(s)
    if args.write:
        write(s, args.write)
    if args.read:
        read(s, Path(args.read))
    if args.checks:
        checks(s, Path(args.checks), args.final)


if __name__ == "__main__":
    main()
