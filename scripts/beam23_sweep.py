"""Issue 24, task beam23: ways a thread question meets the relative floor, offline.

Reads a dump of ``scripts/beam23_dump.py`` (every question's ordinary ranking, 50 deep,
with the abstain verdict and floor share of the user's path) and scores, per fold (chats
1-5 = A, 6-10 = B) and ability, BEAM message R@10 as ``engram bench beam`` scores it:

- ``off``: the bench's path (no decision, no floor), then the spread;
- ``on``: the user's path as recall ran it before beam23 (the floor, then the spread);
- each variant named in ``VARIANTS``: the user's path with another rule for a thread
  question (the detector fired); every other question is scored as ``on``.

    PYTHONPATH=src python scripts/beam23_sweep.py DUMP.pkl [VARIANT ...]

Named variants print their per-ability table. ``part2(DUMP)`` scores the spread's
experiments on the bench's path (standing instructions weighed less in a thread).
"""

from __future__ import annotations

import pickle
import sys
from collections import defaultdict
from collections.abc import Callable, Sequence
from typing import Any

from engram.bench import beam, locomo
from engram.bench.dataset import Found
from engram.bench.runner import distinct
from engram.recall import abstain, coverage, packing
from engram.recall.coverage import Shape
from engram.records import Hit

Rule = Callable[[list[Hit], Shape, float], list[Hit]]


def floored(hits: Sequence[Hit], share: float) -> list[Hit]:
    return packing.relative_floor(hits, share)


def spread(hits: Sequence[Hit], asked: Shape) -> list[Hit]:
    return coverage.spread(hits, asked, top_n=50)


def firsts(order: Sequence[Hit]) -> set[str]:
    """Ids of each bucket's first hit in ``order``."""
    seen: set[str] = set()
    out: set[str] = set()
    for h in order:
        b = coverage.bucket_of(h)
        if b not in seen:
            seen.add(b)
            out.add(h.id)
    return out


def keep_firsts(hits: list[Hit], asked: Shape, share: float) -> list[Hit]:
    """Spread first; the floor then drops what is under it except each bucket's best."""
    order = spread(hits, asked)
    kept = {h.id for h in floored(order, share)} | firsts(order)
    return [h for h in order if h.id in kept]


def per_bucket(hits: list[Hit], asked: Shape, share: float) -> list[Hit]:
    """Each bucket's hits floored against that bucket's best (a session's padding goes,
    each session's best stays), then the spread."""
    groups: dict[str, list[Hit]] = defaultdict(list)
    for h in hits:
        groups[coverage.bucket_of(h)].append(h)
    kept = {h.id for g in groups.values() for h in floored(g, share)}
    return spread([h for h in hits if h.id in kept], asked)


def passing_buckets(within: bool) -> Rule:
    """Only the buckets whose best hit passes the floor take part (the floor says which
    sessions hold the thread); inside one, its hits are floored against the bucket's
    best (``within``) or all kept; then the spread."""

    def rule(hits: list[Hit], asked: Shape, share: float) -> list[Hit]:
        passing = {coverage.bucket_of(h) for h in floored(hits, share)}
        groups: dict[str, list[Hit]] = defaultdict(list)
        for h in hits:
            if coverage.bucket_of(h) in passing:
                groups[coverage.bucket_of(h)].append(h)
        kept = {h.id for g in groups.values() for h in (floored(g, share) if within else g)}
        return spread([h for h in hits if h.id in kept], asked)

    return rule


def rounds_floor(rounds: int) -> Rule:
    """Spread first; the first ``rounds`` rounds are exempt from the floor."""

    def rule(hits: list[Hit], asked: Shape, share: float) -> list[Hit]:
        order = spread(hits, asked)
        depth: dict[str, int] = defaultdict(int)
        early: set[str] = set()
        for h in order:
            b = coverage.bucket_of(h)
            if depth[b] < rounds:
                early.add(h.id)
            depth[b] += 1
        kept = {h.id for h in floored(order, share)} | early
        return [h for h in order if h.id in kept]

    return rule


def spread_kept(hits: list[Hit], asked: Shape, share: float) -> list[Hit]:
    """Spread first; what the spread's own rounds placed (above its half-the-best floor)
    stays, the floor judges only what waits after the rounds."""
    order = spread(hits, asked)
    best = max((h.score for h in hits), default=0.0)
    rounds = {h.id for h in hits if h.score >= coverage.FLOOR * best}
    kept = {h.id for h in floored(order, share)} | rounds
    return [h for h in order if h.id in kept]


VARIANTS: dict[str, Rule] = {
    "floor then spread (before)": lambda h, a, s: spread(floored(h, s), a),
    "no floor": lambda h, a, s: spread(h, a),
    "spread then floor": lambda h, a, s: floored(spread(h, a), s),
    "each bucket's best exempt": keep_firsts,
    "first 2 rounds exempt": rounds_floor(2),
    "first 3 rounds exempt": rounds_floor(3),
    "floor per bucket": per_bucket,
    "floor per passing bucket": passing_buckets(True),
    "coverage.floor (kept)": lambda h, a, s: spread(coverage.floor(h, s), a),
    "passing buckets, no floor inside": passing_buckets(False),
    "spread's rounds exempt": spread_kept,
    **{
        f"share x{m}": (lambda k: lambda h, a, s: spread(floored(h, s * k), a))(m)
        for m in (0.9, 0.8, 0.7, 0.5)
    },
}


def fold(conv: str) -> str:
    return "A" if int(conv.rsplit("-", 1)[1]) <= 5 else "B"


def user_path(row: dict[str, Any], rule: Rule | None) -> list[Hit]:
    """What recall returns with the decision on: nothing when unrelated, else the hits
    floored (and spread, for a thread question) as ``rule`` says."""
    hits: list[Hit] = row["hits"]
    if row["verdict"] is abstain.Verdict.UNRELATED:
        return []
    asked = coverage.shape(row["question"].text)
    if asked is None:
        return floored(hits, row["share"])
    assert rule is not None
    return rule(hits, asked, row["share"])


def bench_path(row: dict[str, Any]) -> list[Hit]:
    asked = coverage.shape(row["question"].text)
    return row["hits"] if asked is None else spread(row["hits"], asked)


def scored(name: str, row: dict[str, Any], hits: list[Hit]) -> dict[str, float]:
    q = row["question"]
    turns = [str(h.memory.metadata.get("turn")) for h in hits]
    sessions = distinct(str(h.memory.metadata.get("session")) for h in hits)
    top = hits[0].score if hits else None
    scorer = beam.score if name == "beam" else locomo.load.__globals__["score"]
    return scorer(Found(q, q.gold_turns, q.gold_sessions, turns, sessions, top))


def table(name: str, rows: list[dict[str, Any]], path: Callable[[dict[str, Any]], list[Hit]]):
    out: dict[str, list[float]] = defaultdict(list)
    for row in rows:
        m = scored(name, row, path(row))
        if "msg_r@10" not in m:
            continue
        f = fold(row["conversation"])
        for key in ("all", row["question"].category):
            out[f"{key} {f}"].append(m["msg_r@10"])
            out[f"R@5 {key} {f}"].append(m["msg_r@5"])
            out[f"R@20 {key} {f}"].append(m["msg_r@20"])
    return {k: sum(v) / len(v) for k, v in out.items()}


def lines(row: dict[str, Any], path: Callable[[dict[str, Any]], list[Hit]]) -> int:
    return len(path(row))


def main(dump: str, shown: set[str]) -> None:
    with open(dump, "rb") as f:
        data = pickle.load(f)
    name, rows = data["dataset"], data["rows"]
    thread = [r for r in rows if coverage.shape(r["question"].text) is not None]
    print(f"{len(rows)} questions, {len(thread)} thread questions")
    ref = {"off": table(name, rows, bench_path)}
    ref["on"] = table(name, rows, lambda r: user_path(r, VARIANTS["floor then spread (before)"]))
    results = dict(ref)
    for label, rule in VARIANTS.items():
        results[label] = table(name, rows, lambda r, rule=rule: user_path(r, rule))
    base = results["on"]
    for label, m in results.items():
        size = (
            sum(len(user_path(r, VARIANTS.get(label))) for r in thread) if label in VARIANTS else 0
        )
        print(
            f"{label:30s} R@10 A {m['all A']:.4f} ({m['all A'] - base['all A']:+.4f})"
            f"  B {m['all B']:.4f} ({m['all B'] - base['all B']:+.4f})"
            f"  R@5 {m['R@5 all A']:.3f} / {m['R@5 all B']:.3f}"
            f"  R@20 {m['R@20 all A']:.3f} / {m['R@20 all B']:.3f}"
            f"  thread hits kept {size / max(1, len(thread)):.1f}"
        )
    for label in ("off", "on", *[s for s in shown if s in results]):
        m = results[label]
        print(f"\n{label}")
        cats = sorted({k.rsplit(" ", 1)[0] for k in m if not k.startswith("R@")})
        for c in cats:
            print(f"  {c:28s} R@10 {m[c + ' A']:.3f} / {m[c + ' B']:.3f}")


if __name__ == "__main__":
    main(sys.argv[1], set(sys.argv[2:]))


# -- part 2: the spread itself, on the bench's path (no decision) --------------------------


def spread_with(
    hits: Sequence[Hit], asked: Shape, directive: float, shapes: tuple[Shape, ...]
) -> list[Hit]:
    """``coverage.spread`` with standing instructions weighed ``directive`` in ``shapes``."""
    from engram.recall.directives import is_directive

    if asked not in shapes:
        return spread(hits, asked)
    others = coverage.OTHERS if asked is Shape.ORDER else 1.0
    weighed = []
    for h in hits[:50]:
        w = h.score
        if asked is Shape.ORDER and not coverage.users(h.memory):
            w *= others
        if is_directive(h.memory.content[:64]):
            w *= directive
        weighed.append((w, h))
    # the module's spread on scores replaced by the weights (ORDER's own weighing done)
    from dataclasses import replace

    fake = [replace(h, score=w) for w, h in weighed]
    order = coverage.spread(fake, Shape.SUMMARY, top_n=50)
    by_id = {h.id: h for h in hits}
    return [by_id[h.id] for h in order] + list(hits[50:])


def part2(dump: str) -> None:
    with open(dump, "rb") as f:
        data = pickle.load(f)
    name, rows = data["dataset"], data["rows"]
    base = table(name, rows, bench_path)
    cells: dict[str, Callable[[dict[str, Any]], list[Hit]]] = {}
    for d in (0.0, 0.25, 0.5, 0.75):
        for label, shapes in (
            ("order", (Shape.ORDER,)),
            ("order+summary", (Shape.ORDER, Shape.SUMMARY)),
            ("all", (Shape.ORDER, Shape.SUMMARY, Shape.TOTAL)),
        ):

            def path(r: dict[str, Any], d: float = d, shapes: tuple[Shape, ...] = shapes):
                asked = coverage.shape(r["question"].text)
                return r["hits"] if asked is None else spread_with(r["hits"], asked, d, shapes)

            cells[f"directives x{d} in {label}"] = path
    for label, path in cells.items():
        m = table(name, rows, path)
        worst = min(m[k] - base[k] for k in m if not k.startswith("R@"))
        print(
            f"{label:36s} R@10 A {m['all A']:.4f} ({m['all A'] - base['all A']:+.4f})"
            f"  B {m['all B']:.4f} ({m['all B'] - base['all B']:+.4f})"
            f"  worst ability {worst:+.3f}"
        )
