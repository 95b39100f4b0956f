"""issue 24 (L1, dropped): a learned order for the head of recall's ranking, measured.

The idea: fusion adds a fixed blend of the legs (dense cosine, BM25, their session
context, time, quality, recency), and on LoCoMo the turn that answers a multi-hop
question in passing often ranks at places 6 to 10 behind turns that *look like* the
question. This script reorders the first ``depth`` hits of each recall by a small
logistic model over signals recall already computed for each of them (``FEATURES``:
the hit's breakdown, plus a few read from the hit: is it a question, does the question
name its speaker, keyword overlap, length, how many hits of its session rank above it,
and the R1 leg's cosine; each also z-scored within its head), fits it on one fold of
conversations and scores the other, then checks BEAM with a model fitted on LoCoMo
only. Every configuration tried lowered BEAM on at least one fold, so no recall stage
ships; the figures are in docs/benchmarks.md, "Evidence spread over sessions" (L1).

    # 1. every question's top hits under `best`, with their breakdowns and the R1
    #    leg's cosines (a pickle of benchmark text: keep it in /tmp, never commit it)
    python scripts/learned_rank.py dump --bench locomo \
        --data ../shared/bench/locomo/locomo10_dev.json --store /tmp/x.db --out /tmp/lr.pkl
    python scripts/learned_rank.py dump --bench beam --data ../shared/bench/beam-100k \
        --store /tmp/beam.db --out /tmp/lr-beam.pkl
    # 2. fit on one fold, score the other, then swap (both directions printed)
    python scripts/learned_rank.py folds --dump /tmp/lr.pkl --fold-a conv-26,conv-30,conv-41
    # 3. the grid of the benchmarks table: LoCoMo folds both ways, BEAM folds with a
    #    model fitted on all of LoCoMo
    python scripts/learned_rank.py sweep --dump /tmp/lr.pkl --beam /tmp/lr-beam.pkl
    # 4. fit on every conversation (a model JSON), and score a dump with it
    python scripts/learned_rank.py fit --dump /tmp/lr.pkl --out /tmp/lr.json
    python scripts/learned_rank.py check --dump /tmp/lr-beam.pkl --model /tmp/lr.json

Scores are the benchmark's own (``Dataset.scorer`` on the reordered hits), so a dump
scored with no model reproduces ``engram bench ... --mode best`` to the last digit.
"""

from __future__ import annotations

import argparse
import itertools
import json
import math
import pickle
import sys
from collections import Counter, defaultdict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from functools import partial
from typing import Any

import numpy as np
import numpy.typing as npt

from engram.bench import beam, locomo
from engram.bench.dataset import Dataset, Found
from engram.bench.runner import distinct, namespace_for
from engram.config import Config
from engram.memory import Memory
from engram.recall import residual
from engram.recall.abstain import hit_overlaps
from engram.records import Hit
from engram.text import keywords

LOADERS: dict[str, Callable[[str], Dataset]] = {"locomo": locomo.load, "beam": beam.load}

Matrix = npt.NDArray[np.float64]

#: Every signal the stage can read, in the order ``features`` returns them. A model
#: names the ones it uses (a subset, in this order).
SIGNALS = (
    "sim",  # the whole question's cosine (the dense leg)
    "sim_gap",  # sim below the best sim of the head
    "sim_rank",  # log(1 + rank by sim within the head)
    "bm25",  # the keyword leg, normalised within the candidates
    "bm25_rank",  # log(1 + rank by bm25 within the head)
    "dense_ctx",  # what session context added to the dense leg
    "keyword_ctx",  # what session context added to the keyword leg
    "fused",  # fused relevance
    "final",  # the pipeline's score (quality and recency included)
    "final_ratio",  # final over the head's best final
    "position",  # log(1 + place in the pipeline's order)
    "recency",
    "question",  # 1 when the text asks something ("?")
    "speaker_named",  # 1 when the question names the speaker the text opens with
    "overlap",  # share of the question's keywords the text holds (abstain's measure)
    "length",  # log of the text's length in characters
    "session_above",  # log(1 + hits of the same session ranked above it)
    "session_first",  # 1 when it is its session's first hit
    "session_share",  # share of the head in its session
    "residual",  # cosine to the question without its anchor names (R1), else sim
    "residual_rank",  # log(1 + rank by that cosine within the head)
)
#: Every signal as read, then each z-scored within its head ("z_sim": how far above the
#: head's mean, in the head's spread), which does not depend on a corpus's scale.
FEATURES = SIGNALS + tuple(f"z_{f}" for f in SIGNALS)


@dataclass(frozen=True, slots=True)
class Model:
    """``p = sigmoid(intercept + coef . (x - mean) / scale)`` over ``features``."""

    features: tuple[str, ...]
    mean: tuple[float, ...]
    scale: tuple[float, ...]
    coef: tuple[float, ...]
    intercept: float
    depth: int
    embedder: str

    @classmethod
    def from_mapping(cls, raw: Mapping[str, Any]) -> Model:
        """A model from its JSON form; a malformed one says what is wrong."""
        try:
            names = tuple(str(n) for n in raw["features"])
            model = cls(
                features=names,
                mean=tuple(float(v) for v in raw["mean"]),
                scale=tuple(float(v) for v in raw["scale"]),
                coef=tuple(float(v) for v in raw["coef"]),
                intercept=float(raw["intercept"]),
                depth=int(raw["depth"]),
                embedder=str(raw["embedder"]),
            )
        except (KeyError, TypeError, ValueError) as exc:
            raise ValueError(f"learned rank model is malformed: {exc}") from exc
        unknown = [n for n in names if n not in FEATURES]
        sizes = {len(model.mean), len(model.scale), len(model.coef)}
        positive = all(s > 0 for s in model.scale)
        if unknown or sizes != {len(names)} or model.depth < 2 or not positive:
            raise ValueError(
                "learned rank model is malformed: features must be among "
                f"{', '.join(FEATURES)} (unknown: {unknown}), mean/scale/coef one per "
                "feature, every scale above 0, depth at least 2; refit with scripts/learned_rank.py"
            )
        return model

    def to_mapping(self) -> dict[str, Any]:
        return {
            "features": list(self.features),
            "mean": list(self.mean),
            "scale": list(self.scale),
            "coef": list(self.coef),
            "intercept": self.intercept,
            "depth": self.depth,
            "embedder": self.embedder,
        }

    def logits(self, x: Matrix) -> npt.NDArray[np.float64]:
        """The model's logit for each row of ``x`` (all of ``FEATURES``, in order)."""
        cols = [FEATURES.index(n) for n in self.features]
        z = (x[:, cols] - np.asarray(self.mean)) / np.asarray(self.scale)
        return np.asarray(z @ np.asarray(self.coef) + self.intercept, dtype=np.float64)


def _speaker(text: str) -> str | None:
    """The name a text opens with (``"Melanie: ..."``), lowercased, or None."""
    head, sep, _ = text.partition(":")
    if not sep or not head or len(head) > 40 or len(head.split()) > 3:
        return None
    return head.strip().lower()


def _ranks(values: Sequence[float]) -> list[float]:
    """log(1 + rank) of each value, rank 0 for the largest (ties by position)."""
    order = sorted(range(len(values)), key=lambda i: -values[i])
    out = [0.0] * len(values)
    for rank, i in enumerate(order):
        out[i] = math.log1p(rank)
    return out


def features(
    query: str, hits: Sequence[Hit], residual: Mapping[str, float] | None = None
) -> Matrix:
    """One row of ``FEATURES`` per hit of ``hits`` (the head, in the pipeline's order).
    ``residual`` holds the R1 leg's cosines when it ran (``recall.residual_weight``)."""
    if not hits:
        return np.zeros((0, len(FEATURES)))
    sims = [h.breakdown.sim if h.breakdown.sim is not None else 0.0 for h in hits]
    bm25 = [h.breakdown.bm25 or 0.0 for h in hits]
    finals = [h.score for h in hits]
    best_sim, best_final = max(sims), max(finals)
    rest = [(residual or {}).get(h.memory.id, sims[i]) for i, h in enumerate(hits)]
    sim_rank, bm25_rank, rest_rank = _ranks(sims), _ranks(bm25), _ranks(rest)
    overlaps = hit_overlaps(query, hits)
    words = {w.lower() for w in keywords(query)}
    sessions = [h.memory.session_id for h in hits]
    per_session = Counter(s for s in sessions if s is not None)
    seen: Counter[str] = Counter()
    rows: list[list[float]] = []
    for place, hit in enumerate(hits):
        b = hit.breakdown
        text = hit.memory.content
        speaker = _speaker(text)
        session = sessions[place]
        above = seen[session] if session is not None else 0
        if session is not None:
            seen[session] += 1
        rows.append(
            [
                sims[place],
                best_sim - sims[place],
                sim_rank[place],
                bm25[place],
                bm25_rank[place],
                (b.dense or 0.0) - min(1.0, max(0.0, sims[place])),
                (b.keyword or 0.0) - bm25[place],
                b.fused,
                finals[place],
                finals[place] / best_final if best_final > 0 else 0.0,
                math.log1p(place),
                b.recency,
                1.0 if "?" in text else 0.0,
                1.0 if speaker is not None and speaker in words else 0.0,
                overlaps[place],
                math.log(1 + len(text)),
                math.log1p(above),
                1.0 if above == 0 else 0.0,
                per_session[session] / len(hits) if session is not None else 0.0,
                rest[place],
                rest_rank[place],
            ]
        )
    x = np.asarray(rows, dtype=np.float64)
    spread = x.std(axis=0)
    spread[spread < 1e-9] = 1.0
    return np.hstack([x, (x - x.mean(axis=0)) / spread])


def reorder(
    query: str, hits: Sequence[Hit], model: Model, residual: Mapping[str, float] | None = None
) -> list[Hit]:
    """``hits`` with their first ``model.depth`` reordered by the model (ties keep the
    pipeline's order); the rest follow unchanged. The head's scores are handed out again
    in the new order so ``score`` still falls down the list."""
    head = list(hits[: model.depth])
    if len(head) < 2:
        return list(hits)
    probs = 1.0 / (1.0 + np.exp(-model.logits(features(query, head, residual))))
    order = sorted(range(len(head)), key=lambda i: (-probs[i], i))
    scores = sorted((h.score for h in head), reverse=True)
    out = [
        replace(
            head[i],
            score=scores[place],
            breakdown=replace(head[i].breakdown, rerank=float(probs[i])),
        )
        for place, i in enumerate(order)
    ]
    return [*out, *hits[model.depth :]]


CATEGORY_ORDER = ("multi-hop", "open-domain", "single-hop", "temporal", "adversarial")
SHOWN = ("session_r@5", "session_r@10", "turn_r@5", "turn_r@10", "session_ndcg@10")


def dump(args: argparse.Namespace) -> None:
    dataset = LOADERS[args.bench](args.data)
    overrides: dict[str, Any] = {"abstain": False}
    for item in args.set or []:
        key, _, value = item.partition("=")
        overrides[key] = json.loads(value)
    rows = []
    config = Config().with_overrides(injection_mode="flag")
    with Memory(args.store, config=config) as mem:
        for conv in dataset.conversations:
            ns = namespace_for(dataset.name, conv.id)
            for q in conv.questions:
                r = mem.recall(q.text, namespace=ns, limit=dataset.depth, **overrides)
                rows.append(
                    {
                        "conv": conv.id,
                        "question": q,
                        "hits": list(r.hits),
                        "residual": _residual(mem, ns, q.text, [h.memory.id for h in r.hits]),
                    }
                )
            print(conv.id, len(rows), file=sys.stderr)
    with open(args.out, "wb") as out:
        pickle.dump({"bench": args.bench, "data": args.data, "rows": rows}, out)


def _residual(mem: Memory, ns: str, query: str, ids: list[str]) -> dict[str, float]:
    """The R1 leg's cosines of ``ids`` (``recall/residual.py`` at its default share), or
    {} when the question names no anchor."""
    ret = mem._core.retriever
    if ret.embedder is None or ret.index is None:
        return {}
    embed = partial(ret.query_vectors.embed, ret.embedder)
    share = ret.config.residual_share
    rest = residual.vector(query, ns, ret.graph, ret.memories, share, embed, [], ret.sizes)
    return {} if rest is None else dict(ret.index.scores(ns, rest, ids))


def _load(path: str) -> tuple[Dataset, list[dict[str, Any]]]:
    with open(path, "rb") as f:
        saved = pickle.load(f)
    return LOADERS[saved["bench"]](saved["data"]), saved["rows"]


def _labels(row: dict[str, Any], hits: Sequence[Hit], session_weight: float) -> np.ndarray:
    q = row["question"]
    out = []
    for h in hits:
        turn, session = str(h.memory.metadata.get("turn")), str(h.memory.metadata.get("session"))
        out.append(1.0 if turn in q.gold_turns else session_weight * (session in q.gold_sessions))
    return np.asarray(out)


def fit_model(
    rows: Sequence[dict[str, Any]],
    depth: int,
    names: Sequence[str],
    *,
    l2: float,
    session_weight: float,
    embedder: str,
    pairwise: bool = False,
) -> Model:
    """Logistic regression (Newton steps, L2 on the standardised weights) of "this hit
    is gold" over the head's features, or with ``pairwise`` of "this gold hit ranks above
    that other hit"; questions weigh equally."""
    cols = [FEATURES.index(n) for n in names]
    xs, ys, ws = [], [], []
    for row in rows:
        head = row["hits"][:depth]
        y = _labels(row, head, session_weight)
        if len(head) < 2 or y.max() <= 0:
            continue  # nothing to learn from a head without gold
        xs.append(features(row["question"].text, head, row.get("residual"))[:, cols])
        ys.append(y)
        ws.append(np.full(len(head), 1.0 / len(head)))
    x, y, w = np.vstack(xs), np.concatenate(ys), np.concatenate(ws)
    mean, scale = x.mean(axis=0), x.std(axis=0)
    scale[scale < 1e-6] = 1.0  # a constant (or nearly) feature: its weight stays ~0
    if pairwise:  # RankNet-style: gold above each other hit of its own head
        diffs, pw = [], []
        for xq, yq in zip(xs, ys, strict=True):
            zq = (xq - mean) / scale
            pos, neg = np.flatnonzero(yq >= 1), np.flatnonzero(yq < 1)
            if len(neg) == 0:
                continue
            d = (zq[pos][:, None, :] - zq[neg][None, :, :]).reshape(-1, zq.shape[1])
            diffs.append(d)
            pw.append(np.full(len(d), 1.0 / len(d)))
        z = np.hstack([np.vstack(diffs), np.zeros((sum(len(d) for d in diffs), 1))])
        y, w = np.ones(len(z)), np.concatenate(pw)
    else:
        z = np.hstack([(x - mean) / scale, np.ones((len(x), 1))])
    beta = np.zeros(z.shape[1])
    penalty = np.full(z.shape[1], l2)
    penalty[-1] = 0.0
    for _ in range(50):
        p = 1.0 / (1.0 + np.exp(-(z @ beta)))
        grad = z.T @ (w * (p - y)) + penalty * beta
        hess = (z * (w * p * (1 - p))[:, None]).T @ z + np.diag(penalty + 1e-9)
        step = np.linalg.solve(hess, grad)
        beta -= step
        if np.abs(step).max() < 1e-8:
            break
    return Model(
        features=tuple(names),
        mean=tuple(float(f"{v:.6g}") for v in mean),
        scale=tuple(float(f"{v:.6g}") for v in scale),
        coef=tuple(round(float(v), 6) for v in beta[:-1]),
        intercept=round(float(beta[-1]), 6),
        depth=depth,
        embedder=embedder,
    )


def score(
    dataset: Dataset, rows: Sequence[dict[str, Any]], model: Model | None
) -> dict[str, list[dict[str, float]]]:
    """Per category (and "all"), each question's metrics as the benchmark scores them."""
    out: dict[str, list[dict[str, float]]] = defaultdict(list)
    for row in rows:
        q, hits = row["question"], row["hits"]
        if model is not None:
            hits = reorder(q.text, hits, model, row.get("residual"))
        turns = [str(h.memory.metadata.get("turn")) for h in hits]
        sessions = distinct(str(h.memory.metadata.get("session")) for h in hits)
        top = hits[0].score if hits else None
        if not q.gold_turns:
            continue
        m = dataset.scorer(Found(q, q.gold_turns, q.gold_sessions, turns, sessions, top))
        out[q.category].append(m)
        out["all"].append(m)
    return out


def table(label: str, scored: dict[str, list[dict[str, float]]], keys: Sequence[str]) -> None:
    cats = [c for c in CATEGORY_ORDER if c in scored] or sorted(c for c in scored if c != "all")
    cells = []
    for cat in [*cats, "all"]:
        ms = scored[cat]
        cells.append(
            f"{cat} " + " ".join(f"{np.mean([m[k] for m in ms]):.4f}" for k in keys if k in ms[0])
        )
    print(f"{label}: " + " | ".join(cells))


def _split(rows: Sequence[dict[str, Any]], fold_a: set[str]) -> tuple[list[Any], list[Any]]:
    a = [r for r in rows if r["conv"] in fold_a]
    return a, [r for r in rows if r["conv"] not in fold_a]


def _fit_args(args: argparse.Namespace, rows: Sequence[dict[str, Any]]) -> Model:
    names = FEATURE_SETS.get(args.features) or args.features.split(",")
    return fit_model(
        rows,
        args.depth,
        names,
        l2=args.l2,
        session_weight=args.session_weight,
        embedder=args.embedder,
        pairwise=args.pairwise,
    )


def folds(args: argparse.Namespace) -> None:
    dataset, rows = _load(args.dump)
    a, b = _split(rows, set(args.fold_a.split(",")))
    keys = args.keys.split(",")
    for name, train, test in (("A->B", a, b), ("B->A", b, a)):
        model = _fit_args(args, train)
        table(f"{name} train base ", score(dataset, train, None), keys)
        table(f"{name} train model", score(dataset, train, model), keys)
        table(f"{name} test  base ", score(dataset, test, None), keys)
        table(f"{name} test  model", score(dataset, test, model), keys)
        if args.verbose:
            print(json.dumps(dict(zip(model.features, model.coef, strict=True))))


#: Named feature sets of the sweep (``FEATURES`` by group).
SCORES = SIGNALS[:12]  # the breakdown's signals, ranks within the head, position
SESSION = ("session_above", "session_first", "session_share")
RESIDUAL = ("residual", "residual_rank")
FEATURE_SETS: dict[str, tuple[str, ...]] = {
    "all": SIGNALS,
    "all-residual": tuple(f for f in SIGNALS if f not in RESIDUAL),
    "all-position": tuple(f for f in SIGNALS if f != "position"),
    "all-length": tuple(f for f in SIGNALS if f != "length"),
    "scores": SCORES,
    "scores+session": SCORES + SESSION,
    "scores+overlap+session": (*SCORES, "overlap", *SESSION),
    "scores+residual": SCORES + RESIDUAL,
    "scores+overlap+session+residual": (*SCORES, "overlap", *SESSION, *RESIDUAL),
    "z-all": tuple(f"z_{f}" for f in SIGNALS),
    "z-all-length": tuple(f"z_{f}" for f in SIGNALS if f != "length"),
    "z-scores+overlap+session+residual": tuple(
        f"z_{f}" for f in (*SCORES, "overlap", *SESSION, *RESIDUAL)
    ),
    "z-all+all": FEATURES,
}
FOLD_CATEGORIES = (*CATEGORY_ORDER, "all")


def _means(scored: dict[str, list[dict[str, float]]], key: str) -> dict[str, float]:
    return {c: float(np.mean([m[key] for m in ms])) for c, ms in scored.items()}


def _prior(model: Model, delta: float) -> Model:
    """``model`` with ``delta`` more weight against a late place in the pipeline's
    order (a pull towards the order it corrects)."""
    place = next((f for f in ("position", "z_position") if f in model.features), None)
    if not delta or place is None:
        return model
    coef = list(model.coef)
    coef[model.features.index(place)] -= delta
    return replace(model, coef=tuple(coef))


def sweep(args: argparse.Namespace) -> None:
    """Each configuration: session R@5 change per category on each LoCoMo fold (fitted
    on the other), overall turn R@10 and NDCG@10 change, BEAM R@10 change per fold with
    the model fitted on all of LoCoMo; PASS when no category drops by more than 0.01,
    overall session R@5 rises on both folds and BEAM drops on neither."""
    dataset, rows = _load(args.dump)
    a, b = _split(rows, set(args.fold_a.split(",")))
    beam_set, beam_rows = _load(args.beam) if args.beam else (None, [])
    beam_a, beam_b = _split(beam_rows, {f"beam-{i}" for i in range(1, 6)})
    base = {"A": score(dataset, a, None), "B": score(dataset, b, None)}
    grid = itertools.product(
        args.sets.split(","),
        [int(d) for d in args.depths.split(",")],
        [float(v) for v in args.l2s.split(",")],
        [float(v) for v in args.deltas.split(",")],
    )
    for name, depth, l2, delta in grid:
        names, cells, ok = FEATURE_SETS[name], [], True
        for train, test, fold in ((a, b, "B"), (b, a, "A")):
            model = _prior(
                fit_model(train, depth, names, l2=l2, session_weight=0.0, embedder=args.embedder),
                delta,
            )
            got = score(dataset, test, model)
            s5, b5 = _means(got, "session_r@5"), _means(base[fold], "session_r@5")
            d5 = {c: s5[c] - b5[c] for c in FOLD_CATEGORIES}
            ok &= min(d5.values()) >= -0.01 and d5["all"] > 0
            extra = {
                k: _means(got, k)["all"] - _means(base[fold], k)["all"]
                for k in ("turn_r@10", "session_ndcg@10")
            }
            cells.append(
                f"test {fold}: "
                + " ".join(f"{c[:5]} {d5[c]:+.3f}" for c in FOLD_CATEGORIES)
                + f" t@10 {extra['turn_r@10']:+.3f} ndcg {extra['session_ndcg@10']:+.3f}"
            )
        if beam_set is not None:
            model = _prior(
                fit_model(rows, depth, names, l2=l2, session_weight=0.0, embedder=args.embedder),
                delta,
            )
            moved = [
                _means(score(beam_set, part, model), "msg_r@10")["all"]
                - _means(score(beam_set, part, None), "msg_r@10")["all"]
                for part in (beam_a, beam_b)
            ]
            ok &= min(moved) >= 0
            cells.append(f"BEAM R@10 {moved[0]:+.3f} / {moved[1]:+.3f}")
        verdict = "PASS" if ok else "fail"
        print(
            f"{verdict} {name} depth {depth} l2 {l2:g} prior {delta:g}: " + " || ".join(cells),
            flush=True,
        )


def fit(args: argparse.Namespace) -> None:
    dataset, rows = _load(args.dump)
    model = _fit_args(args, rows)
    raw = model.to_mapping()
    raw["fitted_on"] = args.fitted_on
    with open(args.out, "w", encoding="utf-8") as out:
        json.dump(raw, out, indent=1)
        out.write("\n")
    table("all base ", score(dataset, rows, None), args.keys.split(","))
    table("all model", score(dataset, rows, model), args.keys.split(","))


def check(args: argparse.Namespace) -> None:
    dataset, rows = _load(args.dump)
    with open(args.model, encoding="utf-8") as f:
        model = Model.from_mapping(json.load(f))
    groups = [set(g.split(",")) for g in args.groups] if args.groups else [None]
    for group in groups:
        part = [r for r in rows if group is None or r["conv"] in group]
        label = ",".join(sorted(group)) if group else "all"
        table(f"{label} base ", score(dataset, part, None), args.keys.split(","))
        table(f"{label} model", score(dataset, part, model), args.keys.split(","))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(required=True)
    p = sub.add_parser("dump")
    p.add_argument("--bench", choices=sorted(LOADERS), required=True)
    p.add_argument("--data", required=True)
    p.add_argument("--store", required=True)
    p.add_argument("--out", required=True)
    p.add_argument("--set", action="append", help="a recall override, key=json")
    p.set_defaults(run=dump)
    p = sub.add_parser("sweep")
    p.add_argument("--dump", required=True)
    p.add_argument("--beam", help="a BEAM dump: its folds scored with models fitted on --dump")
    p.add_argument("--fold-a", default="conv-26,conv-30,conv-41")
    p.add_argument("--sets", default="all")
    p.add_argument("--depths", default="20")
    p.add_argument("--l2s", default="30")
    p.add_argument("--deltas", default="0")
    p.add_argument("--embedder", default="all-MiniLM-L6-v2")
    p.set_defaults(run=sweep)
    for name, run in (("folds", folds), ("fit", fit), ("check", check)):
        p = sub.add_parser(name)
        p.add_argument("--dump", required=True)
        p.add_argument("--keys", default=",".join(SHOWN))
        p.set_defaults(run=run)
        if name == "check":
            p.add_argument("--model", required=True)
            p.add_argument("--groups", nargs="*", help="comma-joined conversation ids")
            continue
        p.add_argument("--depth", type=int, default=30)
        p.add_argument("--features", default="all", help="a FEATURE_SETS name or a list")
        p.add_argument("--l2", type=float, default=1.0)
        p.add_argument("--session-weight", type=float, default=0.0)
        p.add_argument("--embedder", default="all-MiniLM-L6-v2")
        p.add_argument("--pairwise", action="store_true")
        p.add_argument("--verbose", action="store_true")
        if name == "folds":
            p.add_argument("--fold-a", default="conv-26,conv-30,conv-41")
        else:
            p.add_argument("--out", required=True)
            p.add_argument("--fitted-on", default="LoCoMo dev, all five conversations")
    args = parser.parse_args()
    args.run(args)


if __name__ == "__main__":
    main()
