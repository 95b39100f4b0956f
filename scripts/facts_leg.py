"""issue 24 (F1): a facts leg for recall, measured offline on a dump of `best`.

The missing gold sessions of LoCoMo's multi-hop and open-domain questions hold a
passing mention, first person, the speaker's name only in the turn's prefix ("Just
signed up for a pottery class!" for "What activities does Melanie partake in?").
The offline extractor (issue 28) rewrites such a turn as a third-person, name-resolved
fact ("Melanie signed up for a pottery class"). This script ranks every extracted fact
of the conversation by cosine to the question (engram's default embedder); a fact's
rank votes for its source memory (turn), and the vote is added to the cached ranking
of `best` as ``w / (k + rank)`` (R1's shape, recall/residual.py), or as a max with the
hit's own score; the list is sorted again and scored exactly as ``engram bench locomo``
scores (``Dataset.scorer``). With the leg off the dump reproduces the baseline row.

    # the dump is scripts/learned_rank.py's (`dump --bench locomo`): top 100 of `best`
    python scripts/facts_leg.py grid --dump /tmp/lr.pkl --cache /tmp/facts.npz \
        --modes rrf votes max --weights 0.1 0.2 0.3 0.5 1.0 --ks 5 10 20 60 \
        --depths 10 30 100 --gates 0 0.7 --pools all hits names --queries whole rest
    # where the missing gold sessions' facts rank, and what a perfect fusion reaches
    python scripts/facts_leg.py ceiling --dump /tmp/lr.pkl --cache /tmp/facts.npz
    # BEAM: the same on its dump (chats 1-5 are fold A)
    python scripts/facts_leg.py grid --dump /tmp/lr-beam.pkl --cache /tmp/facts-beam.npz

The cache holds fact vectors and question vectors of benchmark text: keep it in /tmp.
"""

from __future__ import annotations

import argparse
import itertools
import pickle
import re
import sys
from collections import defaultdict
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from engram.bench import beam, locomo
from engram.bench.dataset import Dataset, Found
from engram.bench.extraction import configured_embedder
from engram.bench.runner import distinct
from engram.config import Config
from engram.pipeline.extraction import extract_offline
from engram.pipeline.turns import split_speaker

Matrix = npt.NDArray[np.float32]
#: Fold A of each benchmark (issue 24's folds: LoCoMo dev conv-26/30/41 against
#: conv-42/43, BEAM chats 1-5 against 6-10), and the metric the fold rule reads.
FOLD_A = frozenset({"conv-26", "conv-30", "conv-41", *(f"beam-{n}" for n in range(1, 6))})
METRICS = {"locomo": ("session_r@5", "turn_r@5"), "beam": ("msg_r@10", "msg_r@5")}
LOADERS: dict[str, Callable[[str], Dataset]] = {"locomo": locomo.load, "beam": beam.load}


@dataclass(frozen=True)
class Facts:
    """Every extracted fact of the dataset: its conversation, source turn, confidence."""

    conv: list[str]
    turn: list[str]
    text: list[str]
    confidence: npt.NDArray[np.float64]
    vectors: Matrix


def extract(dataset: Dataset) -> tuple[list[str], list[str], list[str], list[float]]:
    """Each turn read with the turn before it in its session (as the write path's
    extract job reads a mined chat: ``extract_job.turn_before``)."""
    convs, turns, texts, conf = [], [], [], []
    for conv in dataset.conversations:
        last: Any = None
        for turn in conv.turns:
            before = last.text if last is not None and last.session == turn.session else None
            for fact in extract_offline(turn.text, before=before).facts:
                convs.append(conv.id)
                turns.append(turn.id)
                texts.append(fact.content)
                conf.append(fact.confidence)
            last = turn
    return convs, turns, texts, conf


def load(dump: str, cache: str) -> tuple[Dataset, list[dict[str, Any]], Facts, Matrix]:
    with open(dump, "rb") as f:
        saved = pickle.load(f)
    dataset = LOADERS[saved["bench"]](saved["data"])
    rows = saved["rows"]
    try:
        z = np.load(cache, allow_pickle=False)
        facts = Facts(
            list(z["conv"]),
            list(z["turn"]),
            list(z["text"]),
            z["confidence"],
            z["vectors"].astype(np.float32),
        )
        questions = z["questions"].astype(np.float32)
    except FileNotFoundError:
        convs, turns, texts, conf = extract(dataset)
        print(
            f"{len(texts)} facts from {sum(len(c.turns) for c in dataset.conversations)} turns",
            file=sys.stderr,
        )
        embedder = configured_embedder(Config())
        vectors = embedder.embed_many(texts).astype(np.float32)
        questions = embedder.embed_many([r["question"].text for r in rows]).astype(np.float32)
        np.savez(
            cache,
            conv=np.array(convs),
            turn=np.array(turns),
            text=np.array(texts),
            confidence=np.array(conf),
            vectors=vectors,
            questions=questions,
        )
        facts = Facts(convs, turns, texts, np.array(conf), vectors)
    return dataset, rows, facts, questions


#: A question that asks for several things or joins two (E2's plural category, and the
#: list forms of issue 24's decomposition): "What activities ...", "Which cities ...",
#: "both", "in common", "how many", "ways".
LIST_QUESTION = re.compile(
    r"\b(?:what|which)\s+(?:\w+\s+)?\w{3,}s\b(?<!\bis)(?<!\bhas)(?<!\bdoes)(?<!\bwas)"
    r"|\bboth\b|\bin common\b|\bhow many\b|\bways\b|\bkinds?\b|\btypes?\b",
    re.IGNORECASE,
)


def without_speakers(text: str, speakers: set[str]) -> str:
    """``text`` without the conversation's speakers' names (and their "'s")."""
    for name in sorted(speakers, key=len, reverse=True):
        text = re.sub(rf"\b{re.escape(name)}(?:'s)?\b", " ", text)
    return " ".join(text.split())


def rest_vectors(dataset: Dataset, rows: Sequence[dict[str, Any]], cache: str) -> Matrix:
    """Each question's vector without the speakers' names (cached beside ``cache``)."""
    path = cache.removesuffix(".npz") + "-rest.npy"
    try:
        return np.load(path).astype(np.float32)
    except FileNotFoundError:
        pass
    speakers = {
        c.id: {n for t in c.turns if (n := split_speaker(t.text)[0])} for c in dataset.conversations
    }
    texts = [without_speakers(r["question"].text, speakers[r["conv"]]) for r in rows]
    vectors = configured_embedder(Config()).embed_many(texts).astype(np.float32)
    np.save(path, vectors)
    return vectors


@dataclass(frozen=True)
class Leg:
    """One setting of the leg. ``mode``: ``rrf`` adds ``w / (k + rank)`` by the memory's
    best fact (memories ranked by their best fact's cosine); ``votes`` adds it for every
    fact (facts ranked by cosine, a memory summing its facts' votes); ``max`` replaces a
    memory's score by ``max(score, w * best fact cosine)``. ``depth``: how many memories
    (or facts) of the fact ranking take part; ``gate``: the least confidence a fact needs
    (0.7 is seed 004's write gate)."""

    w: float
    k: int
    mode: str = "rrf"
    depth: int = 30
    gate: float = 0.0
    pool: str = "all"
    query: str = "whole"
    only: str = "any"
    """``any``: every question, every memory; ``new``: only memories of sessions outside
    the cached first 5; ``lists``: only questions that ask for a list or a join
    (:data:`LIST_QUESTION`)."""
    """``whole``: the question as asked; ``rest``: without the speakers' names (as R1's
    residual query, recall/residual.py, drops its anchor names)."""
    """``all``: every fact of the conversation; ``hits``: only facts of the cached hits
    (a reorder, as R1 is); ``names``: only facts naming a speaker the question names
    (all facts when it names none)."""

    def label(self) -> str:
        return (
            f"{self.mode} w={self.w} k={self.k} depth={self.depth} gate={self.gate} "
            f"pool={self.pool} query={self.query} only={self.only}"
        )


def leg_scores(leg: Leg, cos: npt.NDArray[np.float32], turns: Sequence[str]) -> dict[str, float]:
    """Per turn id, what the leg adds (``rrf``/``votes``) or its score (``max``)."""
    order = np.argsort(-cos, kind="stable")
    out: dict[str, float] = defaultdict(float)
    if leg.mode == "votes":
        for rank, i in enumerate(order[: leg.depth], 1):
            out[turns[i]] += leg.w / (leg.k + rank)
        return dict(out)
    best: dict[str, float] = {}
    for i in order:
        if turns[i] not in best:
            best[turns[i]] = float(cos[i])
            if len(best) >= leg.depth:
                break
    if leg.mode == "max":
        return {t: leg.w * c for t, c in best.items()}
    return {t: leg.w / (leg.k + rank) for rank, t in enumerate(best, 1)}


def rerank(
    hits: Sequence[tuple[str, str, float]],
    leg: Leg | None,
    extra: Mapping[str, float],
    session_of: Mapping[str, str],
) -> list[tuple[str, str, float]]:
    """``hits`` (turn, session, score) with the leg applied, sorted again; a memory the
    leg finds outside the cached hits joins with score 0 plus its gain."""
    if leg is None or not extra:
        return list(hits)
    scores = {t: s for t, _, s in hits}
    for t in extra:
        scores.setdefault(t, 0.0)
    if leg.mode == "max":
        new = {t: max(s, extra.get(t, 0.0)) for t, s in scores.items()}
    else:
        new = {t: s + extra.get(t, 0.0) for t, s in scores.items()}
    place = {t: i for i, (t, _, _) in enumerate(hits)}
    order = sorted(new, key=lambda t: (-new[t], place.get(t, len(place))))
    return [(t, session_of[t], new[t]) for t in order]


def score(
    dataset: Dataset,
    rows: Sequence[dict[str, Any]],
    facts: Facts,
    questions: Matrix,
    leg: Leg | None,
    rest: Matrix | None = None,
) -> dict[str, dict[str, list[dict[str, float]]]]:
    """Per fold ("A", "B") and category (and "all"), each question's metrics."""
    session_of = {t.id: t.session for c in dataset.conversations for t in c.turns}
    speakers = {
        c.id: {n for t in c.turns if (n := split_speaker(t.text)[0])} for c in dataset.conversations
    }
    by_conv: dict[str, npt.NDArray[np.int64]] = {}
    conv_arr = np.array(facts.conv)
    for c in set(facts.conv):
        by_conv[c] = np.flatnonzero(
            (conv_arr == c) & (facts.confidence >= (leg.gate if leg else 0))
        )
    out = by_fold()
    for qi, row in scored_rows(rows):
        q = row["question"]
        hits = cached_hits(row)
        extra: dict[str, float] = {}
        if leg is not None:
            idx = by_conv.get(row["conv"], np.zeros(0, dtype=np.int64))
            if leg.pool == "hits":
                inside = {t for t, _, _ in hits}
                idx = np.array([i for i in idx if facts.turn[i] in inside], dtype=np.int64)
            elif leg.pool == "names":
                named = [n for n in speakers[row["conv"]] if n in q.text]
                if named:
                    idx = np.array(
                        [i for i in idx if any(n in facts.text[i] for n in named)], dtype=np.int64
                    )
            qv = questions[qi] if leg.query == "whole" else rest[qi]
            cos = facts.vectors[idx] @ qv
            extra = leg_scores(leg, cos, [facts.turn[i] for i in idx])
            if leg.only == "new":  # only sessions outside the first 5 gain
                first = set(distinct(s for _, s, _ in hits)[:5])
                extra = {t: g for t, g in extra.items() if session_of[t] not in first}
            elif leg.only == "lists" and not LIST_QUESTION.search(q.text):
                extra = {}
        ranked = rerank(hits, leg, extra, session_of)
        record(dataset, out, row, ranked[: max(len(row["hits"]), 1)])
    return out


def by_fold() -> dict[str, dict[str, list[dict[str, float]]]]:
    """Per fold ("A", "B") and category, the questions' metrics (filled by ``record``)."""
    return {"A": defaultdict(list), "B": defaultdict(list)}


def scored_rows(rows: Sequence[dict[str, Any]]) -> Iterator[tuple[int, dict[str, Any]]]:
    """The dump's rows (with their place) that ``engram bench`` scores: gold turns, and
    not an abstention question."""
    for qi, row in enumerate(rows):
        q = row["question"]
        if q.gold_turns and q.category != "abstention":
            yield qi, row


def cached_hits(row: Mapping[str, Any]) -> list[tuple[str, str, float]]:
    """The dump's hits of one question as (turn, session, score), in its order."""
    return [
        (str(h.memory.metadata.get("turn")), str(h.memory.metadata.get("session")), h.score)
        for h in row["hits"]
    ]


def record(
    dataset: Dataset,
    out: Mapping[str, dict[str, list[dict[str, float]]]],
    row: Mapping[str, Any],
    ranked: Sequence[tuple[str, str, float]],
) -> None:
    """Score one question's ranking as ``engram bench`` does, under its fold and
    category (and "all")."""
    q = row["question"]
    turns = [t for t, _, _ in ranked]
    sessions = distinct(s for _, s, _ in ranked)
    top = ranked[0][2] if ranked else None
    m = dataset.scorer(Found(q, q.gold_turns, q.gold_sessions, turns, sessions, top))
    fold = "A" if row["conv"] in FOLD_A else "B"
    out[fold][q.category].append(m)
    out[fold]["all"].append(m)


def means(scored: Mapping[str, list[dict[str, float]]], key: str) -> dict[str, float]:
    return {c: float(np.mean([m[key] for m in ms])) for c, ms in scored.items()}


def categories(scored: dict[str, dict[str, list[dict[str, float]]]]) -> list[str]:
    return sorted({c for f in "AB" for c in scored[f] if c != "all"})


def line(label: str, scored: dict[str, dict[str, list[dict[str, float]]]], bench: str) -> str:
    first, second = METRICS[bench]
    cells = []
    for cat in [*categories(scored), "all"]:
        s = [means(scored[f], first).get(cat, float("nan")) for f in "AB"]
        t = [means(scored[f], second).get(cat, float("nan")) for f in "AB"]
        cells.append(f"{cat} {first} {s[0]:.3f}/{s[1]:.3f} {second} {t[0]:.3f}/{t[1]:.3f}")
    return f"{label}: " + " | ".join(cells)


def deltas(
    base: dict[str, dict[str, list[dict[str, float]]]],
    new: dict[str, dict[str, list[dict[str, float]]]],
    bench: str,
) -> dict[str, dict[str, float]]:
    """Per fold, the change of the first metric per category (and "worst": the lowest
    of the categories' changes, the fold rule's test; "worst_t" the same of the second)."""
    first, second = METRICS[bench]
    out = {}
    for f in "AB":
        if not base[f]:
            continue  # a fold without questions (a dump of one fold)
        cats = [c for c in base[f] if c != "all"]
        b, n = means(base[f], first), means(new[f], first)
        d = {c: n[c] - b[c] for c in [*cats, "all"]}
        bt, nt = means(base[f], second), means(new[f], second)
        d["worst"] = min(d[c] for c in cats)
        d["worst_t"] = min(nt[c] - bt[c] for c in cats)
        d.setdefault("multi-hop", 0.0)
        d.setdefault("open-domain", 0.0)
        out[f] = d
    return out


def grid(args: argparse.Namespace) -> None:
    dataset, rows, facts, questions = load(args.dump, args.cache)
    bench = dataset.name
    rest = rest_vectors(dataset, rows, args.cache) if "rest" in args.queries else None
    base = score(dataset, rows, facts, questions, None)
    print(line("baseline", base, bench))
    legs = [
        Leg(w, k, mode, depth, gate, pool, query, only)
        for mode, w, k, depth, gate, pool, query, only in itertools.product(
            args.modes,
            args.weights,
            args.ks,
            args.depths,
            args.gates,
            args.pools,
            args.queries,
            args.only,
        )
        if not (mode == "max" and k != args.ks[0])
    ]
    results = []
    for leg in legs:
        new = score(dataset, rows, facts, questions, leg, rest)
        d = deltas(base, new, bench)
        results.append((leg, new, d))
        print(
            f"{leg.label()}: "
            + " ".join(
                f"{f}: mh {d[f]['multi-hop']:+.3f} od {d[f]['open-domain']:+.3f} "
                f"worst {d[f]['worst']:+.3f} worst_t {d[f]['worst_t']:+.3f} all {d[f]['all']:+.3f}"
                for f in "AB"
            ),
            flush=True,
        )
    for tune, check in (("A", "B"), ("B", "A")):
        ok = [r for r in results if r[2][tune]["worst"] >= -0.01]
        if not ok:
            print(f"tuned on {tune}: nothing passes the fold rule")
            continue
        leg, new, d = max(ok, key=lambda r: r[2][tune]["multi-hop"] + r[2][tune]["open-domain"])
        print(f"tuned on {tune}, checked on {check}: {leg.label()}")
        print(line("  chosen", new, bench))
    for label in args.show or []:
        leg = next(r for r in results if r[0].label() == label)
        print(line(label, leg[1], bench))


def turn_units(dataset: Dataset, cache: str) -> Facts:
    """Every turn as its own unit (the control: turns ranked by their own cosine)."""
    path = cache.removesuffix(".npz") + "-turns.npy"
    turns = [(c.id, t) for c in dataset.conversations for t in c.turns]
    try:
        vectors = np.load(path).astype(np.float32)
    except FileNotFoundError:
        embedder = configured_embedder(Config())
        vectors = embedder.embed_many([t.text for _, t in turns]).astype(np.float32)
        np.save(path, vectors)
    return Facts(
        [c for c, _ in turns],
        [t.id for _, t in turns],
        [t.text for _, t in turns],
        np.ones(len(turns)),
        vectors,
    )


def memory_ranks(cos: npt.NDArray[np.float32], turns: Sequence[str]) -> dict[str, int]:
    """Per turn, the place (from 1) of its best fact when the facts are ranked by cosine."""
    ranks: dict[str, int] = {}
    for i in np.argsort(-cos, kind="stable"):
        ranks.setdefault(turns[i], len(ranks) + 1)
    return ranks


def ceiling(args: argparse.Namespace) -> None:
    """Where the gold sessions missing from the baseline's first 5 sessions rank by
    their best fact, and the session R@5 a perfect fusion would reach if every gold
    session whose fact ranks in the first ``n`` memories joined the first 5."""
    dataset, rows, facts, questions = load(args.dump, args.cache)
    if args.query == "rest":
        questions = rest_vectors(dataset, rows, args.cache)
    if args.units == "turns":
        facts = turn_units(dataset, args.cache)
    session_of = {t.id: t.session for c in dataset.conversations for t in c.turns}
    conv_arr = np.array(facts.conv)
    for cat in args.categories:
        places: list[int] = []
        missing = without = 0
        reached: dict[tuple[int, str], list[float]] = defaultdict(list)
        for qi, row in enumerate(rows):
            q = row["question"]
            if q.category != cat or not q.gold_turns:
                continue
            first = set(distinct(str(h.memory.metadata.get("session")) for h in row["hits"])[:5])
            idx = np.flatnonzero(conv_arr == row["conv"])
            ranks = memory_ranks(facts.vectors[idx] @ questions[qi], [facts.turn[i] for i in idx])
            best = {
                s: min(ranks.get(t, 10**6) for t in q.gold_turns if session_of.get(t) == s)
                for s in q.gold_sessions
            }
            for s, place in best.items():
                if s not in first:
                    missing += 1
                    if place >= 10**6:
                        without += 1
                    else:
                        places.append(place)
            fold = "A" if row["conv"] in FOLD_A else "B"
            for n in args.ns:
                found = {s for s, place in best.items() if s in first or place <= n}
                reached[(n, fold)].append(len(found) / len(q.gold_sessions))
        p = np.array(places)
        print(
            f"{cat}: {missing} gold sessions outside the first 5, {without} without a unit (fact); "
            + ", ".join(f"best unit in the first {n}: {(p <= n).sum()}" for n in args.ns)
            + f"; median place {np.median(p):.0f}"
        )
        for n in args.ns:
            print(
                f"  ceiling at {n}: session R@5 "
                f"{np.mean(reached[(n, 'A')]):.3f} / {np.mean(reached[(n, 'B')]):.3f}"
            )


def main() -> None:
    p = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    sub = p.add_subparsers(dest="cmd", required=True)
    g = sub.add_parser("grid", help="the leg's grid, both folds, chosen on each")
    g.add_argument("--dump", required=True)
    g.add_argument("--cache", required=True)
    g.add_argument("--modes", nargs="+", default=["rrf", "votes", "max"])
    g.add_argument("--weights", nargs="+", type=float, default=[0.1, 0.2, 0.3, 0.5])
    g.add_argument("--ks", nargs="+", type=int, default=[5, 10, 20])
    g.add_argument("--depths", nargs="+", type=int, default=[30])
    g.add_argument("--gates", nargs="+", type=float, default=[0.0])
    g.add_argument("--pools", nargs="+", default=["all"])
    g.add_argument("--queries", nargs="+", default=["whole"], choices=["whole", "rest"])
    g.add_argument("--only", nargs="+", default=["any"], choices=["any", "new", "lists"])
    g.add_argument("--show", nargs="*", help="labels of grid rows to print in full")
    g.set_defaults(run=grid)
    c = sub.add_parser("ceiling", help="where the missing gold sessions' facts rank")
    c.add_argument("--dump", required=True)
    c.add_argument("--cache", required=True)
    c.add_argument("--categories", nargs="+", default=["multi-hop", "open-domain"])
    c.add_argument("--ns", nargs="+", type=int, default=[5, 10, 30])
    c.add_argument("--query", default="whole", choices=["whole", "rest"])
    c.add_argument("--units", default="facts", choices=["facts", "turns"])
    c.set_defaults(run=ceiling)
    args = p.parse_args()
    run: Callable[[argparse.Namespace], None] = args.run
    run(args)


if __name__ == "__main__":
    main()
