"""hop39 (issue 24): why multi-hop and open-domain gold sessions rank below the fifth
session, and offline reorders of the cached top 100 measured per fold.

The dump is `scripts/learned_rank.py dump` (every question's top 100 under `best`, with
breakdowns; a pickle of benchmark text: keep it in /tmp). The store is the one the dump
was made from (`engram bench locomo --store`): its vectors give every turn's cosine.

    python scripts/learned_rank.py dump --bench locomo \
        --data ../shared/bench/locomo/locomo10_dev.json --store /tmp/l.db --out /tmp/lr.pkl
    # the diagnosis (fold A only: conv-26, conv-30, conv-41)
    python scripts/hop39_measure.py diagnose --dump /tmp/lr.pkl --store /tmp/l.db
    # a reorder per fold (session R@5 and turn R@5 per category, fold A / fold B)
    python scripts/hop39_measure.py reorder --dump /tmp/lr.pkl --store /tmp/l.db \
        --leg centred --weight 0.5 --k 10

Scores are `Dataset.scorer`'s on the reordered hits, so `reorder --weight 0` reproduces
`engram bench locomo --mode best` per fold to the last digit.
"""

from __future__ import annotations

import argparse
import json
import pickle
import re
import sqlite3
import statistics
from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from engram.bench import locomo
from engram.bench.dataset import Found
from engram.bench.runner import distinct
from engram.config import Config
from engram.memory import Memory
from engram.recall.judgement import asks_judgement
from engram.text import keywords

FOLD_A = ("conv-26", "conv-30", "conv-41")
CATS = ("multi-hop", "open-domain", "single-hop", "temporal", "adversarial")
Matrix = npt.NDArray[np.float32]


@dataclass
class Space:
    """One conversation's memories: ids, turn and session of each, unit vectors."""

    ids: list[str]
    turns: list[str]
    sessions: list[str]
    texts: list[str]
    vectors: Matrix


def spaces(store: str) -> dict[str, Space]:
    con = sqlite3.connect(f"file:{store}?mode=ro", uri=True)
    rows = con.execute(
        "select m.id, m.namespace, m.metadata, m.content, v.vector from memories m "
        "join memory_vectors v on v.memory_seq = m.seq where m.deleted_at is null order by m.seq"
    ).fetchall()
    out: dict[str, dict[str, list[Any]]] = defaultdict(lambda: defaultdict(list))
    for mid, ns, meta, text, blob in rows:
        md = json.loads(meta)
        s = out[ns.rsplit(":", 1)[-1]]
        s["ids"].append(mid)
        s["turns"].append(str(md.get("turn")))
        s["sessions"].append(str(md.get("session")))
        s["texts"].append(text)
        s["vectors"].append(np.frombuffer(blob, dtype=np.float32))
    return {
        conv: Space(s["ids"], s["turns"], s["sessions"], s["texts"], np.vstack(s["vectors"]))
        for conv, s in out.items()
    }


def question_vectors(store: str, texts: Sequence[str], cache: str) -> dict[str, Matrix]:
    try:
        with open(cache, "rb") as f:
            saved: dict[str, Matrix] = pickle.load(f)
        if all(t in saved for t in texts):
            return saved
    except OSError:
        pass
    with Memory(store, config=Config()) as mem:
        ret = mem._core.retriever
        assert ret.embedder is not None
        uniq = sorted(set(texts))
        made = ret.embedder.embed_batch(uniq)
        vecs = {t: np.asarray(v, dtype=np.float32) for t, v in zip(uniq, made, strict=True)}
    with open(cache, "wb") as f:
        pickle.dump(vecs, f)
    return vecs


def parts(text: str, sentences: bool = True) -> list[str]:
    """A turn's parts, each with its speaker's prefix: its sentences (when more than one)
    and, for a turn with an image, its words without the caption and the caption alone."""
    body, _, caption = text.partition(" [image: ")
    name, _, rest = body.partition(": ")
    out: list[str] = []
    said = [x.strip() for x in re.split(r"(?<=[.!?])\s+", rest) if len(x.strip()) > 12]
    if sentences and len(said) > 1:
        out += [f"{name}: {x}" for x in said]
    if caption:
        out += [f"{name}: {rest}", f"{name}: {caption.rstrip(']')}"]
    return out


PART_VECTORS: dict[str, Matrix] = {}


def part_vectors(store: str, sp: dict[str, Space], cache: str) -> dict[str, Matrix]:
    """Every part's vector (embedded once, kept in ``cache``)."""
    texts = sorted({x for s in sp.values() for t in s.texts for x in parts(t)})
    try:
        with open(cache, "rb") as f:
            saved: dict[str, Matrix] = pickle.load(f)
        if all(t in saved for t in texts):
            return saved
    except OSError:
        pass
    with Memory(store, config=Config()) as mem:
        embedder = mem._core.retriever.embedder
        assert embedder is not None
        made: list[Matrix] = []
        for start in range(0, len(texts), 256):
            made.extend(embedder.embed_batch(texts[start : start + 256]))
    vecs = {t: np.asarray(v, dtype=np.float32) for t, v in zip(texts, made, strict=True)}
    with open(cache, "wb") as f:
        pickle.dump(vecs, f)
    return vecs


#: Capitalised words of a question that are not names (its first word).
WH_WORDS = frozenset(
    [
        "what",
        "which",
        "when",
        "how",
        "who",
        "would",
        "does",
        "did",
        "is",
        "where",
        "why",
        "do",
        "has",
        "have",
        "are",
        "was",
        "in",
        "the",
    ]
)


def speaker(text: str) -> str:
    return text.partition(":")[0].strip().lower()


def diagnose(rows: list[dict[str, Any]], sp: dict[str, Space], qv: dict[str, Matrix]) -> None:
    counts: dict[str, Counter[str]] = defaultdict(Counter)
    examples: list[str] = []
    for row in rows:
        q = row["question"]
        if row["conv"] not in FOLD_A or q.category not in ("multi-hop", "open-domain"):
            continue
        s = sp[row["conv"]]
        hits = row["hits"]
        order = distinct(str(h.memory.metadata.get("session")) for h in hits)
        cos = s.vectors @ qv[q.text]
        rank_all = np.argsort(-cos)
        place_of = {int(i): p for p, i in enumerate(rank_all)}
        speakers = {speaker(t) for t in s.texts}
        qwords = {w.lower() for w in keywords(q.text)}
        qnames = {re.sub(r"'s$", "", w.lower()) for w in re.findall(r"[A-Z][\w']*", q.text)}
        qspeakers = qnames & speakers
        qother = qnames - speakers - WH_WORDS
        top_sim = max((h.breakdown.sim or 0.0) for h in hits[:5]) if hits else 0.0
        for g in sorted(q.gold_sessions):
            c = counts[q.category]
            c["gold"] += 1
            p = order.index(g) if g in order else None
            band = (
                "top5"
                if p is not None and p < 5
                else "6-10"
                if p is not None and p < 10
                else "11+"
                if p is not None
                else "absent"
            )
            c[band] += 1
            if band == "top5":
                continue
            golds = [i for i, t in enumerate(s.turns) if t in q.gold_turns and s.sessions[i] == g]
            if not golds:
                c["miss:no-gold-turn-in-store"] += 1
                continue
            best = min(golds, key=lambda i: place_of[i])
            text = s.texts[best]
            low = text.lower()
            tw = {w.lower() for w in keywords(text)}
            shared = (qwords & tw) - qspeakers
            c[f"miss:{band}"] += 1
            c["miss:shares-keyword(non-speaker)"] += bool(shared)
            c["miss:shares-other-name"] += any(n in low for n in qother)
            c["miss:speaker-is-named"] += speaker(text) in qspeakers
            c["miss:speaker-not-named(other)"] += bool(qspeakers) and speaker(text) not in qspeakers
            c["miss:image-caption"] += "[image:" in text
            c["miss:gold-cos>=top5-best"] += bool(cos[best] >= top_sim)
            c["miss:cos-rank<=10"] += place_of[best] < 10
            c["miss:cos-rank<=30"] += place_of[best] < 30
            c["miss:hit-place<=100"] += any(h.memory.id == s.ids[best] for h in hits)
            if len(examples) < 40:
                examples.append(
                    f"[{q.category} {band} cosrank {place_of[best]} cos {cos[best]:.3f}"
                    f" vs top {top_sim:.3f}] "
                    f"Q: {q.text}\n    G: {text[:160]}\n    shared: {sorted(shared)}"
                )
    for cat, c in counts.items():
        print(cat, dict(c))
    print("\n".join(examples))


def embed_texts(store: str, texts: Sequence[str], cache: str) -> dict[str, Matrix]:
    """``texts`` embedded by the store's embedder (once; kept in ``cache``)."""
    try:
        with open(cache, "rb") as f:
            saved: dict[str, Matrix] = pickle.load(f)
        if all(t in saved for t in texts):
            return saved
    except OSError:
        pass
    uniq = sorted(set(texts))
    with Memory(store, config=Config()) as mem:
        embedder = mem._core.retriever.embedder
        assert embedder is not None
        made: list[Matrix] = []
        for start in range(0, len(uniq), 256):
            made.extend(embedder.embed_batch(uniq[start : start + 256]))
    vecs = {t: np.asarray(v, dtype=np.float32) for t, v in zip(uniq, made, strict=True)}
    with open(cache, "wb") as f:
        pickle.dump(vecs, f)
    return vecs


def missed(row: dict[str, Any], s: Space) -> list[tuple[str, list[int]]]:
    """The gold sessions outside the cached ranking's first 5, each with the indexes of
    its gold turns in ``s``."""
    q = row["question"]
    order = distinct(str(h.memory.metadata.get("session")) for h in row["hits"])
    out = []
    for g in sorted(q.gold_sessions):
        golds = [i for i, t in enumerate(s.turns) if t in q.gold_turns and s.sessions[i] == g]
        if g not in order[:5] and golds:
            out.append((g, golds))
    return out


def probe(rows: list[dict[str, Any]], sp: dict[str, Space]) -> None:
    """Fold A: where gold turns sit in their session; what the first hit of each of the
    first 5 sessions is (gold session or not); whether a missed gold turn shares a rare
    word with the top 3 hits (what feedback from the top hits could reach)."""
    place: dict[tuple[str, str], int] = {}
    for conv, s in sp.items():
        seen: Counter[str] = Counter()
        for t, ses in zip(s.turns, s.sessions, strict=True):
            place[(conv, t)] = seen[ses]
            seen[ses] += 1
    fold = [r for r in rows if r["conv"] in FOLD_A]
    base = [p < 3 for (conv, _), p in place.items() if conv in FOLD_A]
    print(f"turns among their session's first 3: {statistics.fmean(base):.3f} of all turns")
    opening: dict[str, list[bool]] = defaultdict(list)
    firsts: dict[tuple[str, str], list[tuple[bool, bool, bool]]] = defaultdict(list)
    shares: Counter[tuple[str, int]] = Counter()
    df: dict[str, Counter[str]] = {}
    for conv, s in sp.items():
        df[conv] = Counter(w for t in s.texts for w in {x.lower() for x in keywords(t)})
    for r in fold:
        q, s = r["question"], sp[r["conv"]]
        opening[q.category] += [
            place[(r["conv"], t)] < 3 for t in q.gold_turns if (r["conv"], t) in place
        ]
        speakers = {speaker(t) for t in s.texts}
        named = {re.sub(r"'s$", "", w.lower()) for w in re.findall(r"[A-Z][\w']*", q.text)}
        named &= speakers
        first: dict[str, Any] = {}
        for h in r["hits"]:
            first.setdefault(str(h.memory.metadata.get("session")), h)
            if len(first) == 5:
                break
        for ses, h in first.items():
            text = h.memory.content
            kind = "gold" if ses in q.gold_sessions else "other"
            is_gold = str(h.memory.metadata.get("turn")) in q.gold_turns
            firsts[(q.category, kind)].append(("?" in text, speaker(text) in named, is_gold))
        if q.category not in ("multi-hop", "open-domain"):
            continue
        top = {w.lower() for h in r["hits"][:3] for w in keywords(h.memory.content)} - speakers
        for _, golds in missed(r, s):
            words = {w.lower() for i in golds for w in keywords(s.texts[i])}
            shares[(q.category, 0)] += 1
            for most in (3, 10, 30):
                shares[(q.category, most)] += bool(
                    {w for w in top & words if df[r["conv"]][w] <= most}
                )
    for cat in CATS:
        print(
            f"{cat}: gold turns among their session's first 3: {statistics.fmean(opening[cat]):.3f}"
        )
        for kind in ("gold", "other"):
            got = firsts[(cat, kind)]
            if got:
                asks, named_, gold = (statistics.fmean(x[j] for x in got) for j in range(3))
                print(
                    f"  first hits of {kind} sessions in the first 5 ({len(got)}): holds '?' "
                    f"{asks:.3f}, spoken by a named speaker {named_:.3f}, is a gold turn {gold:.3f}"
                )
    for cat in ("multi-hop", "open-domain"):
        print(
            f"{cat}: missed gold sessions {shares[(cat, 0)]}; sharing a word of the top 3 hits"
            " found in at most 3 / 10 / 30 turns: "
            + " / ".join(str(shares[(cat, m)]) for m in (3, 10, 30))
        )


def generators(
    store: str, rows: list[dict[str, Any]], sp: dict[str, Space], qv: dict[str, Matrix], cache: str
) -> None:
    """Fold A: the question with or without the speakers' names against the turn with or
    without its "Name: " prefix, ranked by cosine alone over the whole conversation: where
    the missed multi-hop gold sessions land, and session R@5 per category."""
    names = {c: {speaker(t) for t in s.texts} for c, s in sp.items()}

    def bare(text: str, conv: str) -> str:
        for n in names[conv]:
            text = re.sub(rf"\b{re.escape(n)}('s)?\b", "", text, flags=re.IGNORECASE)
        return re.sub(r"\s+", " ", text).strip()

    fold = [r for r in rows if r["conv"] in FOLD_A]
    bodies = [t.partition(": ")[2] for c in FOLD_A for t in sp[c].texts]
    vec = embed_texts(store, bodies + [bare(r["question"].text, r["conv"]) for r in fold], cache)
    found: Counter[tuple[str, str]] = Counter()
    s5: dict[tuple[str, str], list[float]] = defaultdict(list)
    for r in fold:
        q, s = r["question"], sp[r["conv"]]
        body = np.vstack([vec[t.partition(": ")[2]] for t in s.texts])
        rest = vec[bare(q.text, r["conv"])]
        scorings = {
            "question . turn": s.vectors @ qv[q.text],
            "question . turn without prefix": body @ qv[q.text],
            "question without names . turn": s.vectors @ rest,
            "question without names . turn without prefix": body @ rest,
        }
        for label, sc in scorings.items():
            order = np.argsort(-sc)
            sessions = distinct(s.sessions[int(i)] for i in order)
            s5[(label, q.category)].append(
                len(set(sessions[:5]) & q.gold_sessions) / len(q.gold_sessions)
            )
            if q.category != "multi-hop":
                continue
            rank = {int(i): p for p, i in enumerate(order)}
            for g, golds in missed(r, s):
                best = min(rank[i] for i in golds)
                found[(label, "n")] += 1
                found[(label, "turn in first 10")] += best < 10
                found[(label, "turn in first 30")] += best < 30
                found[(label, "session in first 5")] += g in sessions[:5]
    for label in (
        "question . turn",
        "question . turn without prefix",
        "question without names . turn",
        "question without names . turn without prefix",
    ):
        cats = " ".join(f"{c} {statistics.fmean(s5[(label, c)]):.3f}" for c in CATS)
        got = ", ".join(
            f"{k} {found[(label, k)]}"
            for k in ("n", "turn in first 10", "turn in first 30", "session in first 5")
        )
        print(f"{label}: session R@5 {cats}; missed multi-hop sessions: {got}")


def rank_gain(
    values: dict[str, float], ids: Sequence[str], weight: float, k: int
) -> dict[str, float]:
    order = sorted(ids, key=lambda i: -values.get(i, -9))
    return {i: weight / (k + r) for r, i in enumerate(order, 1)}


def reorder(
    rows: list[dict[str, Any]],
    sp: dict[str, Space],
    qv: dict[str, Matrix],
    leg: str,
    weight: float,
    k: int,
    only: str,
) -> dict[str, dict[str, list[dict[str, float]]]]:
    dataset = locomo.load("/work/shared/bench/locomo/locomo10_dev.json")
    out: dict[str, dict[str, list[dict[str, float]]]] = {
        "A": defaultdict(list),
        "B": defaultdict(list),
    }
    means = {conv: s.vectors.mean(axis=0) for conv, s in sp.items()}
    for row in rows:
        q = row["question"]
        hits = row["hits"]
        s = sp[row["conv"]]
        index = {mid: i for i, mid in enumerate(s.ids)}
        ids = [h.memory.id for h in hits]
        base = {h.memory.id: h.score for h in hits}
        scale = 1.0 + weight / (k + 1)
        if (weight > 0 or leg == "unit") and gated(only, q.text):
            if leg == "sessions":  # the bare question's session ranking, by session rank
                ses_rank = bare_sessions(q.text, row["conv"], s)
                new = {
                    h.memory.id: (
                        base[h.memory.id]
                        + weight / (k + ses_rank.get(str(h.memory.metadata.get("session")), 99))
                    )
                    / scale
                    for h in hits
                }
            elif leg == "entries":  # the same gain, only to each session's nearest hit
                ses_rank = bare_sessions(q.text, row["conv"], s)
                entry = session_entries(q.text, hits, s, index)
                new = {
                    h.memory.id: (
                        base[h.memory.id]
                        + (h.memory.id in entry)
                        * weight
                        / (k + ses_rank.get(str(h.memory.metadata.get("session")), 99))
                    )
                    / scale
                    for h in hits
                }
            elif leg == "unit":  # sessions ranked as units, each session's hits together
                hits = as_units(hits, weight, k)
                new = None
            elif leg == "opening":  # a session's first k turns: the score times 1 + weight
                first = openings(s, k)
                new = {i: base[i] * (1 + weight * (i in first)) for i in ids}
            else:
                vals = leg_values(
                    leg, q.text, qv[q.text], s, index, ids, means[row["conv"]], hits, row
                )
                gain = rank_gain(vals, ids, weight, k)
                new = {i: (base[i] + gain.get(i, 0.0)) / scale for i in ids}
            if new is not None:
                hits = sorted(hits, key=lambda h: -new[h.memory.id])
        turns = [str(h.memory.metadata.get("turn")) for h in hits]
        sessions = distinct(str(h.memory.metadata.get("session")) for h in hits)
        m = dataset.scorer(Found(q, q.gold_turns, q.gold_sessions, turns, sessions, None))
        fold = "A" if row["conv"] in FOLD_A else "B"
        out[fold][q.category].append(m)
        out[fold]["all"].append(m)
    return out


BARE: dict[str, Matrix] = {}


def bare_question(text: str, names: set[str]) -> str:
    """``text`` without the conversation's speakers' names (and their "'s")."""
    for n in names:
        text = re.sub(rf"\b{re.escape(n)}('s)?\b", "", text, flags=re.IGNORECASE)
    return re.sub(r"\s+", " ", text).strip()


def bare_sessions(text: str, conv: str, s: Space) -> dict[str, int]:
    """Sessions ranked (from 1) by their best turn's cosine to the question without the
    speakers' names, over the whole conversation."""
    bare = bare_question(text, {speaker(t) for t in s.texts})
    order = np.argsort(-(s.vectors @ BARE[bare]))
    return {ses: r for r, ses in enumerate(distinct(s.sessions[int(i)] for i in order), 1)}


def session_entries(text: str, hits: Sequence[Any], s: Space, index: dict[str, int]) -> set[str]:
    """Each session's hit nearest the question without the speakers' names."""
    bare = BARE[bare_question(text, {speaker(t) for t in s.texts})]
    best: dict[str, tuple[float, str]] = {}
    for h in hits:
        ses = str(h.memory.metadata.get("session"))
        c = float(s.vectors[index[h.memory.id]] @ bare)
        if ses not in best or c > best[ses][0]:
            best[ses] = (c, h.memory.id)
    return {mid for _, mid in best.values()}


def as_units(hits: Sequence[Any], beta: float, k: int) -> list[Any]:
    """The hits grouped by session, sessions ordered by their best score plus ``beta``
    times the sum of their next ``k - 1`` best (below 0: one strong turn beats many)."""
    groups: dict[str, list[Any]] = defaultdict(list)
    for h in hits:
        groups[str(h.memory.metadata.get("session"))].append(h)

    def unit(g: list[Any]) -> float:
        scores = sorted((h.score for h in g), reverse=True)
        return scores[0] + beta * sum(scores[1:k])

    ordered = sorted(groups.values(), key=lambda g: -unit(g))
    return [h for g in ordered for h in g]


def openings(s: Space, k: int) -> set[str]:
    """The ids of each session's first ``k`` memories (in the order they were added)."""
    seen: Counter[str] = Counter()
    out = set()
    for mid, ses in zip(s.ids, s.sessions, strict=True):
        if seen[ses] < k:
            out.add(mid)
        seen[ses] += 1
    return out


LIST_CUES = (
    "what activities",
    "what items",
    "what kind",
    "what types",
    "which",
    "both",
    "in common",
    "how many",
    "what are",
    "what has",
    "what have",
    "ways",
    "what things",
    "what places",
    "what events",
    "what books",
    "what pets",
    "what does",
)


def gated(only: str, text: str) -> bool:
    """Whether a leg applies to this question (``--only``)."""
    if only == "list":
        return is_list(text)
    if only == "hypothetical":  # H6's gate, as shipped (the same 30 questions as the
        # first reading, "would|likely|might|could" without the request forms' exclusion)
        return asks_judgement(text)
    return True


def is_list(text: str) -> bool:
    low = text.lower()
    return any(c in low for c in LIST_CUES)


def leg_values(
    leg: str,
    text: str,
    qvec: Matrix,
    s: Space,
    index: dict[str, int],
    ids: Sequence[str],
    mean: Matrix,
    hits: Sequence[Any],
    row: dict[str, Any],
) -> dict[str, float]:
    idx = [index[i] for i in ids]
    m = s.vectors[idx]
    if leg == "centred":  # every vector less the conversation's mean
        qc = qvec - mean
        mc = m - mean
        val = (mc @ qc) / (np.linalg.norm(mc, axis=1) * np.linalg.norm(qc) + 1e-9)
    elif leg == "centred-local":  # less the candidates' mean
        mu = m.mean(axis=0)
        qc, mc = qvec - mu, m - mu
        val = (mc @ qc) / (np.linalg.norm(mc, axis=1) * np.linalg.norm(qc) + 1e-9)
    elif leg in ("parts", "captions"):  # the best of the whole turn and its parts
        val = m @ qvec
        for j, i in enumerate(ids):
            pv = [PART_VECTORS[x] for x in parts(s.texts[index[i]], leg == "parts")]
            if pv:
                val[j] = max(float(val[j]), max(float(v @ qvec) for v in pv))
    elif leg == "residual":
        res = row.get("residual") or {}
        return {i: res.get(i, float(m[j] @ qvec)) for j, i in enumerate(ids)}
    else:
        raise SystemExit(f"unknown leg {leg}")
    return {i: float(v) for i, v in zip(ids, val, strict=True)}


def report(
    scored: dict[str, dict[str, list[dict[str, float]]]], label: str, folds: str = "AB"
) -> str:
    """One table row: session R@5 and turn R@5 per category, "A / B" (or one fold)."""
    cells = []
    for cat in (*CATS, "all"):
        for key in ("session_r@5", "turn_r@5"):
            vals = [statistics.fmean(m[key] for m in scored[f][cat]) for f in folds]
            cells.append(" / ".join(f"{v:.3f}" for v in vals))
    return f"| {label} | " + " | ".join(cells) + " |"


def main() -> None:
    p = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    p.add_argument("command", choices=("diagnose", "probe", "generators", "reorder", "grid"))
    p.add_argument("--dump", required=True)
    p.add_argument("--store", required=True)
    p.add_argument("--qcache", default="/tmp/hop39-qvec.pkl")
    p.add_argument("--leg", default="centred")
    p.add_argument("--weight", type=float, default=0.5)
    p.add_argument("--k", type=int, default=10)
    p.add_argument("--only", default="all", choices=("all", "list", "hypothetical"))
    p.add_argument("--tune", default="A", choices=("A", "B"), help="the fold `grid` reads")
    p.add_argument("--weights", help="`grid`'s weights, comma-separated (else the leg's own)")
    p.add_argument("--ks", help="`grid`'s k values, comma-separated (else the leg's own)")
    args = p.parse_args()
    with open(args.dump, "rb") as f:
        rows = pickle.load(f)["rows"]
    sp = spaces(args.store)
    qv = question_vectors(args.store, [r["question"].text for r in rows], args.qcache)
    if "sessions" in args.leg or "entries" in args.leg:
        bare = [
            bare_question(r["question"].text, {speaker(t) for t in sp[r["conv"]].texts})
            for r in rows
        ]
        BARE.update(embed_texts(args.store, bare, args.qcache + ".bareq"))
    if any(x in args.leg for x in ("parts", "captions")):
        PART_VECTORS.update(part_vectors(args.store, sp, args.qcache + ".parts"))
    if args.command == "diagnose":
        diagnose(rows, sp, qv)
    elif args.command == "probe":
        probe(rows, sp)
    elif args.command == "generators":
        generators(args.store, rows, sp, qv, args.qcache + ".bare")
    elif args.command == "reorder":
        print(report(reorder(rows, sp, qv, args.leg, 0.0, args.k, args.only), "baseline"))
        print(
            report(
                reorder(rows, sp, qv, args.leg, args.weight, args.k, args.only),
                f"{args.leg} w {args.weight} k {args.k} {args.only}",
            )
        )
    else:
        # the grid reads one fold (A: tuning; B only for the swap, after A's rows were
        # read on B once with `reorder`)
        print(
            report(reorder(rows, sp, qv, args.leg, 0.0, args.k, args.only), "baseline", args.tune)
        )
        for leg in args.leg.split(","):
            grid = (
                ((0.02, 0.05, 0.1), (1, 2, 3))
                if leg == "opening"
                else ((-0.3, -0.1, 0.0, 0.1, 0.3), (2, 3))
                if leg == "unit"
                else ((0.05, 0.1, 0.2, 0.5), (1, 3, 10))
                if leg in ("sessions", "entries")
                else ((0.2, 0.5, 1.0), (5, 10, 30))
            )
            if args.weights:
                grid = (tuple(float(x) for x in args.weights.split(",")), grid[1])
            if args.ks:
                grid = (grid[0], tuple(int(x) for x in args.ks.split(",")))
            for w in grid[0]:
                for k in grid[1]:
                    print(
                        report(
                            reorder(rows, sp, qv, leg, w, k, args.only),
                            f"{leg} w {w} k {k} {args.only}",
                            args.tune,
                        )
                    )


if __name__ == "__main__":
    main()
