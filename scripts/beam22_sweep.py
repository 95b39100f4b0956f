"""Issue 24, task beam22: coverage reorderings of thread questions, measured offline.

Every question is recalled once with ``recall.coverage_top_n = 0`` (the ordinary
ranking, ``limit`` 100, so the head a reordering sees is the real one); every variant
then reorders those hits the way ``engram.recall.coverage`` would, with its knobs free,
and is scored as ``engram bench`` scores it: BEAM message R@10 per fold (chats 1-5 = A,
6-10 = B) and ability, LoCoMo session R@5 and turn R@10 per category. It also counts how
often ``coverage.shape`` fires per ability. Usage (a kept store of each, as
``engram bench beam/locomo --store`` writes them):

    PYTHONPATH=src python scripts/beam22_sweep.py BEAM_STORE LOCOMO_STORE [VARIANT...]

Named variants print their per-ability table too (e.g. ``"n50 f0.5 o0.5 r0"``);
``--quick`` leaves out the centroid variants, which embed every thread question's hits.
"""

from __future__ import annotations

import sys
from collections import Counter, defaultdict
from dataclasses import replace
from itertools import product
from typing import Any

import numpy as np

from engram import Memory
from engram.bench import beam, locomo
from engram.bench.dataset import Dataset, Found, Question
from engram.bench.runner import distinct, namespace_for
from engram.config import Config
from engram.recall import coverage
from engram.recall.coverage import Shape
from engram.records import Hit

Asked = tuple[Question, str, list[Hit], Any]


def recalled(store: str, dataset: Dataset, limit: int, vectors: bool) -> list[Asked]:
    """(question, conversation, hits, the hits' unit vectors for a thread question)."""
    out: list[Asked] = []
    config = Config().with_overrides(injection_mode="flag")
    with Memory(store, config=config) as mem:
        embedder = mem.embedder
        for conv in dataset.conversations:
            ns = namespace_for(dataset.name, conv.id)
            for q in conv.questions:
                found = mem.recall(
                    q.text, namespace=ns, limit=limit, abstain=False, coverage_top_n=0
                )
                hits = list(found.hits)
                rows = None
                if vectors and embedder is not None and coverage.shape(q.text) is not None:
                    texts = [h.memory.embedding_text() for h in hits]
                    rows = np.asarray(embedder.embed_batch(texts), dtype=np.float32)
                out.append((q, conv.id, hits, rows))
    return out


def reorder(hits: list[Hit], asked: Shape, rows: Any, v: dict[str, Any]) -> list[Hit]:
    """One variant: an optional centroid rescoring (``k`` top hits' mean vector, weight
    ``w``), then the spread with ``rounds`` rounds (0: all; after them the rest of the head
    in its ordinary order) and ``others`` applied to the shapes in ``weighed``."""
    if v.get("w") and rows is not None:
        centre = rows[: v["k"]].mean(axis=0)
        cosines = rows @ (centre / np.linalg.norm(centre))
        scores = np.array([h.score for h in hits])
        mixed = (1 - v["w"]) * scores / max(scores.max(), 1e-9) + v["w"] * cosines
        hits = [replace(hits[i], score=float(mixed[i])) for i in np.argsort(-mixed)]
    if not v.get("spread", True):
        return hits
    if v.get("lead"):  # the ordinary first ``lead`` hits stay in place
        k = v["lead"]
        rest = reorder(hits[k:], asked, None, {**v, "lead": 0, "n": v["n"] - k})
        return [*hits[:k], *rest]
    others = v["others"] if asked in v.get("weighed", (Shape.ORDER,)) else 1.0
    others = v.get("per_shape", {}).get(asked, others)  # e.g. the assistant's, for summaries
    # ORDER: the shape whose spread weighs ``others`` (1.0 leaves every hit as it is).
    spread = coverage.spread(hits, Shape.ORDER, top_n=v["n"], floor=v["floor"], others=others)
    if not v.get("rounds"):
        return spread
    # Only the first ``rounds`` rounds, then the rest of the head by score.
    head = hits[: v["n"]]
    firsts: dict[str, int] = {}
    early: list[Hit] = []
    for h in spread[: len(head)]:
        seen = firsts.get(coverage.bucket_of(h), 0)
        if seen < v["rounds"]:
            early.append(h)
        firsts[coverage.bucket_of(h)] = seen + 1
    taken = {h.id for h in early}
    return [*early, *(h for h in head if h.id not in taken), *hits[v["n"] :]]


def scored(dataset: Dataset, q: Question, hits: list[Hit]) -> dict[str, float]:
    turns = [str(h.memory.metadata.get("turn")) for h in hits]
    sessions = distinct(str(h.memory.metadata.get("session")) for h in hits)
    top = hits[0].score if hits else None
    return dataset.scorer(Found(q, q.gold_turns, q.gold_sessions, turns, sessions, top))


def fold(conv: str) -> str:
    return "A" if int(conv.rsplit("-", 1)[1]) <= 5 else "B"


def run(data: Dataset, asked: list[Asked], v: dict[str, Any] | None) -> dict[str, list[float]]:
    rows: dict[str, list[float]] = defaultdict(list)
    for q, conv, hits, vectors in asked:
        shape = coverage.shape(q.text)
        if v is not None and shape is not None:
            hits = reorder(hits, shape, vectors, v)
        m = scored(data, q, hits)
        if data.name == "beam" and "msg_r@10" in m:
            for key in ("all", q.category):
                rows[f"{key} {fold(conv)}"].append(m["msg_r@10"])
                rows[f"R@5 {key} {fold(conv)}"].append(m["msg_r@5"])
        elif data.name != "beam":
            for metric in ("session_r@5", "turn_r@10"):
                for key in ("all", q.category):
                    rows[f"{metric} {key}"].append(m[metric])
    return rows


def main(beam_store: str, locomo_store: str, shown: set[str]) -> None:
    bdata = beam.load("../shared/bench/beam-100k")
    ldata = locomo.load("../shared/bench/locomo/locomo10_dev.json")
    quick = "--quick" in shown  # no centroid variants (they embed every thread hit again)
    bq = recalled(beam_store, bdata, 100, not quick)
    lq = recalled(locomo_store, ldata, 50, False)
    fires = Counter((q.category, str(coverage.shape(q.text))) for q, *_ in bq + lq)
    print("shape per ability:", sorted(fires.items()))
    variants: dict[str, dict[str, Any] | None] = {"base": None}
    for n, floor, others, rounds in product((20, 30, 50, 100), (0, 0.5, 0.7), (1, 0.5), (0, 2)):
        v = {"n": n, "floor": floor, "others": others, "rounds": rounds}
        variants[f"n{n} f{floor} o{others} r{rounds}"] = v
    for lead in (1, 2, 3):
        v = {"n": 50, "floor": 0.5, "others": 0.5, "lead": lead}
        variants[f"n50 f0.5 o0.5 lead{lead}"] = v
    for others in (0.25, 0.0):  # the assistant's turns weigh less still (order questions)
        variants[f"n50 f0.5 o{others} r0"] = {"n": 50, "floor": 0.5, "others": others}
    for more in (1.2, 1.5, 2.0):  # summaries: the assistant's long answers preferred
        v = {"n": 50, "floor": 0.5, "others": 0.5, "per_shape": {Shape.SUMMARY: more}}
        variants[f"n50 f0.5 o0.5, summaries' assistant x{more}"] = v
    for others in (0.5, 0.8):  # the user's words preferred for totals too
        v = {"n": 50, "floor": 0.5, "others": others, "weighed": (Shape.ORDER, Shape.TOTAL)}
        variants[f"n50 f0.5 o{others} order+total"] = v
    centroids = [] if quick else product((3, 5, 10, 20), (0.3, 0.5, 0.7, 1.0), (False, True))
    for k, w, spread in centroids:
        v = {"n": 50, "floor": 0.5, "others": 0.5, "k": k, "w": w, "spread": spread}
        variants[f"centroid k{k} w{w}" + (" + spread" if spread else "")] = v
    base_b, base_l = run(bdata, bq, None), run(ldata, lq, None)
    for name, v in variants.items():
        b, loc = run(bdata, bq, v), run(ldata, lq, v)
        mean = {k: sum(x) / len(x) for k, x in b.items()}
        base = {k: sum(x) / len(x) for k, x in base_b.items()}
        worst = min(sum(loc[k]) / len(loc[k]) - sum(base_l[k]) / len(base_l[k]) for k in loc)
        print(
            f"{name:34s} A {mean['all A']:.4f} ({mean['all A'] - base['all A']:+.4f})"
            f"  B {mean['all B']:.4f} ({mean['all B'] - base['all B']:+.4f})"
            f"  R@5 {mean['R@5 all A']:.3f} / {mean['R@5 all B']:.3f}"
            f"  LoCoMo worst category {worst:+.4f}"
        )
        if name in shown or name == "base":
            for key in sorted(mean):
                print(f"    {key:34s} {mean[key]:.3f}")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2], set(sys.argv[3:]))
