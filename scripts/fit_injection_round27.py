"""Round twenty-seven of the learned injection detector (engram issue 26, item 3;
docs/safety.md, "Round twenty-seven"): round twenty-six's chosen neighbour view (``w192 k5
all``, the file ``fit_injection_round26.py --write`` makes) read from its packed rows, and
whether that brings a write's cost within round twenty-six's rule.

Round twenty-six's view added English catches on every unseen fold but cost ~0.7 ms a
write against the 0.2 ms its rule allows (e). The same cell, read cheaper: the rows stay
packed (24 bytes a row), a query makes a table of 256 entries per byte once and a row's
similarity is the sum of its bytes' entries (``injection_neighbours._Layout``); the
reference float product decides wherever the packed margin is within ``GUARD`` of the
threshold or fires, so the verdicts and reasons are the reference's by construction.

Nothing is fitted or chosen here: the cell, its file and its threshold are round
twenty-six's. The rule is round twenty-six's, pre-registered there: the view ships only
if (b) to (e) hold with the new cost, and the unseen folds (``held_out``, 20 to 23, and
now 24) meet (1) and (2). ``--identity`` proves the new reading gives the reference's
verdicts and reasons, row by row, on every training row and real text, and the probes'
and agent set's ``check`` halves, and as counts on the unseen folds 20 to 23 (their rows
are never printed). ``--timing`` measures a write side by side: the shipped detector,
the reference view (round twenty-six's code) and the packed view, interleaved per text
(the order turning each text), over every eighth real text, ``--passes`` times.
``--read`` reads held-out 24 once: the rules, the shipped detector, the reference view
and the packed view, counts only.

Ran (02:38 to 02:50 UTC, load 13 to 18; the view's file is round twenty-six's
``w192 k5 all``, 162,802 bytes). ``--identity``: the packed reading equals the reference
on 3,780 training attacks, 2,877 notes, 1,290 agent ``tune`` rows, 8,288 real texts and
the 842 / 207 / 212 ``check`` rows; the unseen folds' counts are round twenty-six's
(English 87, 67, 69, 65, 71). ``--timing`` (5 passes, 5,180 writes a side): median
shipped 0.434, reference 1.351, packed 0.808 ms: the view costs +0.374 ms, over (e)'s
0.2, so **it does not ship**. ``--read`` (held-out 24, once): English rules 19, shipped
63, with the view 63 of 80; overall 21 / 69 / 71 of 88; notes 0 / 0 / 0 of 50.

    python scripts/fit_injection_round27.py [--data ../shared/bench] --cache PATH
        --view FILE [--identity] [--timing] [--passes 5] [--read]
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
import fit_injection_round18 as r18  # noqa: E402  (the agent set's halves)
import fit_injection_round19 as r19  # noqa: E402  (the lists probe)
import fit_injection_round21 as r21  # noqa: E402  (the user-facts probe)
import fit_injection_round26 as r26  # noqa: E402  (the setup and the unseen folds)

from engram.bench import injection  # noqa: E402
from engram.injection_detector import Detector  # noqa: E402
from engram.injection_neighbours import Neighbours  # noqa: E402
from engram.safety import scan  # noqa: E402

#: The fold this round wrote, read once.
FRESH = "held_out_24"


class Reference(Neighbours):
    """Round twenty-six's reading of the view: every text the gate admits scored by the
    float product over the unpacked rows (:meth:`Neighbours.margins`)."""

    def fires(self, vectors: Any, texts: Any, passed: Any, *floors: Any) -> dict[int, float]:
        at = self.admitted(texts, passed, floors)
        if not at:
            return {}
        found = self.margins(np.asarray(vectors, np.float32)[at])
        return {i: float(m) for i, m in zip(at, found, strict=True) if m >= self.threshold}


def sides(s: r26.Setup, path: str) -> dict[str, Detector]:
    """The shipped detector, and it with the view at ``path`` read both ways."""
    with np.load(path) as arrays:
        data = {k: arrays[k] for k in arrays.files}
    return {
        "shipped": s.shipped,
        "reference": replace(s.shipped, neighbours=Reference.from_arrays(data)),
        "packed": replace(s.shipped, neighbours=Neighbours.from_arrays(data)),
    }


def verdicts(
    s: r26.Setup, found: Detector, texts: list[str], marks: list[bool] | None = None
) -> list[str | None]:
    """Per text, the rules' flag or the detector's reason, or None."""
    reasons = found.reasons(s.vectors(texts), texts, s.embed, None, marks)
    return ["rules" if scan(t) else r for r, t in zip(reasons, texts, strict=True)]


def identity(s: r26.Setup, path: str) -> None:
    """The packed view's verdicts and reasons against the reference's: row by row on the
    training rows, the real texts and the check halves; counts on the unseen folds."""
    both = sides(s, path)
    agent = r18.agent_halves()["check"]
    named: dict[str, tuple[list[str], list[bool] | None]] = {
        "training attacks": (s.attacks, None),
        "training notes": (s.notes, None),
        "agent tune rows": (s.agent, None),
        "real texts": (s.real_all, None),
        "agent check": (agent, [r18.labelled(x) for x in agent]),
        "facts check": (r21.facts()["check"], None),
        "lists check": (r19.lists()["check"], None),
    }
    for name, (texts, marks) in named.items():
        got = {k: verdicts(s, both[k], texts, marks) for k in ("shipped", "reference", "packed")}
        same = sum(a == b for a, b in zip(got["reference"], got["packed"], strict=True))
        flagged = {k: sum(v is not None for v in got[k]) for k in got}
        print(f"{name}: {len(texts)} rows, packed == reference on {same}; flagged {flagged}")
        band(s, texts, got["reference"])
    rows = [r for r in injection.load_set() if r["split"] in r26.UNSEEN]
    count(both, rows, s, ("reference", "packed"))


def band(s: r26.Setup, texts: list[str], found: list[str | None]) -> None:
    """The shipped combination's scores of the texts the view flags: whether a band of
    the base detector's score could skip the vote (counts and figures only)."""
    at = [i for i, r in enumerate(found) if r is not None and r.endswith("(neighbours)")]
    if not at or s.shipped.lexical is None:
        return
    sub = [texts[i] for i in at]
    network = s.shipped.probabilities(s.vectors(sub), sub)
    combined = s.shipped.lexical.combined(network, sub)
    print(
        f"  the view flags {len(at)}: combined score min {combined.min():.5f}, "
        f"under 0.001 {int((combined < 0.001).sum())}, under 0.0023 "
        f"{int((combined < 0.0023).sum())}; network min {network.min():.5f}",
        flush=True,
    )


def count(
    both: dict[str, Detector], rows: list[dict[str, Any]], s: r26.Setup, names: tuple[str, ...]
) -> None:
    """Per fold of ``rows``, each named side's English and overall catches, per category,
    and benign notes flagged (counts, never texts)."""
    texts = sorted({r["text"] for r in rows})
    checks: dict[str, Any] = {"rules": scan}
    checks |= {n: injection.with_detector(texts, s.embed, both[n]) for n in names}
    r26.report(rows, checks, sorted({str(r["split"]) for r in rows}))


def timing(s: r26.Setup, path: str, passes: int) -> None:
    """A write's time on each side, every eighth real text, one at a time, interleaved per
    text (the order turning each text and each pass), the write's own vector not timed:
    per pass and over all, the median, mean and p95 in ms, and the load before and after."""
    timed(s, sides(s, path), passes)


def timed(s: r26.Setup, both: dict[str, Detector], passes: int) -> dict[str, list[float]]:
    """:func:`timing`'s loop over the named sides ``both``: each write's ms per side."""
    texts = s.real_all[::8]
    vectors = s.vectors(texts)
    names = list(both)
    took: dict[str, list[float]] = {n: [] for n in names}
    print(f"load before {os.getloadavg()}", flush=True)
    for p in range(passes):
        for i, (text, vector) in enumerate(zip(texts, vectors, strict=True)):
            turn = (i + p) % len(names)
            for name in names[turn:] + names[:turn]:
                start = time.perf_counter()
                if not scan(text):
                    both[name].reasons(vector[None, :], [text])
                took[name].append(1000 * (time.perf_counter() - start))
        last = {n: round(float(np.median(took[n][-len(texts) :])), 3) for n in names}
        print(f"pass {p + 1}: medians {last}, load {os.getloadavg()[0]:.1f}", flush=True)
    for name in names:
        x = np.array(took[name])
        print(
            f"{name}: {len(x)} writes, median {np.median(x):.3f} ms, mean {x.mean():.3f} ms, "
            f"p95 {np.percentile(x, 95):.3f} ms",
            flush=True,
        )
    return took


def read(s: r26.Setup, path: str) -> None:
    """Held-out 24 read once, side by side on the same embeddings (counts only)."""
    rows = [r for r in injection.load_set() if r["split"] == FRESH]
    count(sides(s, path), rows, s, ("shipped", "reference", "packed"))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else "")
    parser.add_argument("--data", default="../shared/bench")
    parser.add_argument("--cache", default="/tmp/inject27-work/vectors.npz")
    parser.add_argument("--view", required=True)
    parser.add_argument("--identity", action="store_true")
    parser.add_argument("--timing", action="store_true")
    parser.add_argument("--passes", type=int, default=5)
    parser.add_argument("--read", action="store_true")
    args = parser.parse_args()
    s = r26.Setup(args.data, Path(args.cache))
    if args.identity:
        identity(s, args.view)
    if args.timing:
        timing(s, args.view, args.passes)
    if args.read:
        read(s, args.view)


if __name__ == "__main__":
    main()
