"""issue 24 (Q1): questions read as the statements that answer them, measured offline.

On the cached top 100 of ``best`` (``scripts/learned_rank.py dump``, which reproduces
``engram bench locomo --mode best`` to the last digit), each question's statement
(``recall/statement.py``) ranks the cached hits a second time by cosine, and each hit
gains ``w / (k + rank)`` (R1's shape, scaled back by ``1 + w / (k + 1)``); optionally
R1's own leg is fused too, and hits that are themselves questions are multiplied by a
factor when the query asks for a fact. Scored by ``Dataset.scorer`` per fold.

    python scripts/learned_rank.py dump --bench locomo --data DATA --store S --out /tmp/lr.pkl
    python scripts/qd22_statement.py cosines --dump /tmp/lr.pkl --store S --out /tmp/st.pkl
    python scripts/qd22_statement.py grid --dump /tmp/lr.pkl --cosines /tmp/st.pkl \\
        --variants third,first --weights 0.2,0.5,1 --ks 5,10,30 --r1 0,0.5 --ask 1,0.9

The pickles hold benchmark text: keep them in /tmp. Session and turn R@5 per category,
fold A / fold B, overall session R@5 / R@10 and NDCG@10 are printed per row; PASS when
no category's session or turn R@5 drops by more than 0.01 on the fold named and
multi-hop rises.
"""

from __future__ import annotations

import argparse
import itertools
import pickle
import sys
from collections.abc import Mapping, Sequence
from dataclasses import replace
from functools import partial
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from learned_rank import _load, score  # noqa: E402

from engram.bench.runner import namespace_for  # noqa: E402
from engram.config import Config  # noqa: E402
from engram.memory import Memory  # noqa: E402
from engram.recall import anchors, statement  # noqa: E402

VARIANTS = ("third", "first", "third-noname")
FOLD_A = frozenset({"conv-26", "conv-30", "conv-41"})
CATS = ("multi-hop", "open-domain", "single-hop", "temporal", "adversarial")


def cosines(args: argparse.Namespace) -> None:
    """Each question's statement cosines to its cached hits, per variant."""
    dataset, rows = _load(args.dump)
    out: dict[str, dict[str, dict[str, float]]] = {v: {} for v in VARIANTS}
    texts: dict[str, dict[str, str | None]] = {v: {} for v in VARIANTS}
    with Memory(args.store, config=Config()) as mem:
        ret = mem._core.retriever
        assert ret.embedder is not None and ret.index is not None
        embed = partial(ret.query_vectors.embed, ret.embedder)
        for row in rows:
            q = row["question"]
            ns = namespace_for(dataset.name, row["conv"])
            ids = [h.memory.id for h in row["hits"]]
            for variant in VARIANTS:
                text = statement.statement(q.text, "first" if variant == "first" else "third")
                if text is not None and variant == "third-noname":
                    rest = anchors.dense_query(
                        text, ns, ret.graph, ret.memories, 0.2, [], ret.sizes
                    )
                    text = rest.text if rest.dropped else None
                texts[variant][q.id] = text
                if text is None:
                    continue
                out[variant][q.id] = dict(ret.index.scores(ns, embed(text), ids))
    with open(args.out, "wb") as f:
        pickle.dump({"cosines": out, "texts": texts}, f)


def _gain(cos: Mapping[str, float], weight: float, k: int) -> dict[str, float]:
    order = sorted(cos, key=lambda i: (-cos[i], i))
    return {i: weight / (k + rank) for rank, i in enumerate(order, 1)}


def reorder(
    row: dict[str, Any],
    legs: Sequence[tuple[Mapping[str, float], float, int]],
    ask: float,
) -> list[Any]:
    """The cached hits with each leg's reciprocal rank added (scaled back), questions
    among them multiplied by ``ask`` when the query asks for a fact."""
    hits = row["hits"]
    scores = {h.memory.id: h.score for h in hits}
    scale = 1.0
    for cos, weight, k in legs:
        if weight <= 0 or not cos:
            continue
        for i, g in _gain(cos, weight, k).items():
            scores[i] += g
        scale += weight / (k + 1)
    fact = ask < 1 and statement.asks_fact(row["question"].text)
    for h in hits:
        scores[h.memory.id] /= scale
        if fact and statement.asks(h.memory.content):
            scores[h.memory.id] *= ask
    order = sorted(range(len(hits)), key=lambda j: (-scores[hits[j].memory.id], j))
    return [replace(hits[j], score=scores[hits[j].memory.id]) for j in order]


def _summary(dataset: Any, rows: list[dict[str, Any]]) -> dict[str, dict[str, float]]:
    got = score(dataset, rows, None)
    return {
        c: {k: float(np.mean([m[k] for m in ms])) for k in ms[0]} for c, ms in got.items() if ms
    }


def grid(args: argparse.Namespace) -> None:
    dataset, rows = _load(args.dump)
    with open(args.cosines, "rb") as f:
        saved = pickle.load(f)
    folds = {
        "A": [r for r in rows if r["conv"] in FOLD_A],
        "B": [r for r in rows if r["conv"] not in FOLD_A],
    }
    base = {name: _summary(dataset, part) for name, part in folds.items()}
    combos = itertools.product(
        args.variants.split(","),
        [float(v) for v in args.weights.split(",")],
        [int(v) for v in args.ks.split(",")],
        [float(v) for v in args.r1.split(",")],
        [float(v) for v in args.ask.split(",")],
    )
    print(_header(base, "baseline"))
    for variant, weight, k, r1, ask in combos:
        cos = saved["cosines"][variant]
        got = {}
        for name, part in folds.items():
            moved = [
                {
                    **r,
                    "hits": reorder(
                        r,
                        [(cos.get(r["question"].id, {}), weight, k), (r["residual"], r1, 10)],
                        ask,
                    ),
                }
                for r in part
            ]
            got[name] = _summary(dataset, moved)
        verdict = " ".join(f"{n}:{_verdict(base[n], got[n])}" for n in folds)
        print(_header(got, f"{variant} w {weight:g} k {k} r1 {r1:g} ask {ask:g} [{verdict}]"))


def _verdict(base: dict[str, dict[str, float]], got: dict[str, dict[str, float]]) -> str:
    lower = [
        f"{c[:5]}{'s' if key.startswith('session') else 't'}"
        for c in CATS
        for key in ("session_r@5", "turn_r@5")
        if got[c][key] < base[c][key] - 0.01
    ]
    if lower:
        return "fail(" + ",".join(lower) + ")"
    return "PASS" if got["multi-hop"]["session_r@5"] > base["multi-hop"]["session_r@5"] else "flat"


def _header(by_fold: dict[str, dict[str, dict[str, float]]], label: str) -> str:
    cells = []
    for c in CATS:
        cells.append(
            f"{c[:5]} "
            + " / ".join(f"{by_fold[f][c]['session_r@5']:.3f}" for f in sorted(by_fold))
            + " t "
            + " / ".join(f"{by_fold[f][c]['turn_r@5']:.3f}" for f in sorted(by_fold))
        )
    cells.append(
        "all "
        + " / ".join(
            f"{by_fold[f]['all']['session_r@5']:.4f},{by_fold[f]['all']['session_r@10']:.4f},"
            f"{by_fold[f]['all']['session_ndcg@10']:.4f}"
            for f in sorted(by_fold)
        )
    )
    return f"{label}: " + " | ".join(cells)


def texts(args: argparse.Namespace) -> None:
    """Print each question and its statements (to read the rules' output)."""
    _, rows = _load(args.dump)
    with open(args.cosines, "rb") as f:
        saved = pickle.load(f)
    for r in rows:
        q = r["question"]
        if args.category and q.category != args.category:
            continue
        shown = " | ".join(str(saved["texts"][v].get(q.id)) for v in VARIANTS)
        print(f"{q.category[:5]} {q.text} => {shown}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(required=True)
    p = sub.add_parser("cosines")
    p.add_argument("--dump", required=True)
    p.add_argument("--store", required=True)
    p.add_argument("--out", required=True)
    p.set_defaults(run=cosines)
    p = sub.add_parser("grid")
    p.add_argument("--dump", required=True)
    p.add_argument("--cosines", required=True)
    grid_lists = {"--variants": "third", "--weights": "0.5", "--ks": "10", "--r1": "0"}
    for flag, default in {**grid_lists, "--ask": "1"}.items():
        p.add_argument(flag, default=default, help="comma-separated")
    p.set_defaults(run=grid)
    p = sub.add_parser("texts")
    p.add_argument("--dump", required=True)
    p.add_argument("--cosines", required=True)
    p.add_argument("--category")
    p.set_defaults(run=texts)
    args = parser.parse_args()
    args.run(args)


if __name__ == "__main__":
    main()
