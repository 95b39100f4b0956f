"""The extended store retrieved on demand: hybrid search over org facts (seed 002's
"Extended knowledge ... stored in a queryable store and retrieved on demand").

Two ranked lists, fused with seed 002's reciprocal rank fusion (``score = sum(1 / (k +
rank))``, k 60): BM25 over the facts' keywords, and cosine of the embedder's vectors
when there is an embedder. Org facts are few (seed 002: 5-10 core rules, then ADRs and
procedures), so both legs run over the current facts in memory.
"""

from __future__ import annotations

import logging
import math
from collections import Counter
from collections.abc import Mapping, Sequence

import numpy as np

from engram.embed import Embedder
from engram.recall.fusion import rrf
from engram.store.protocols.org import OrgFact, OrgStore
from engram.text import keywords

log = logging.getLogger("engram.org")

#: BM25's usual parameters (as SQLite FTS5's ``bm25()`` uses).
K1 = 1.2
B = 0.75
#: seed 002: "The smoothing constant k (default 60, configurable via rrf_k)".
RRF_K = 60


def _terms(fact: OrgFact) -> list[str]:
    return keywords(" ".join([fact.content, *fact.tags]), limit=10_000)


def bm25(query: str, facts: Sequence[OrgFact]) -> dict[int, float]:
    """BM25 of each fact (by ``seq``) that shares a keyword with ``query``."""
    wanted = set(keywords(query))
    if not wanted or not facts:
        return {}
    docs = {f.seq: Counter(_terms(f)) for f in facts}
    avg = sum(sum(c.values()) for c in docs.values()) / len(docs) or 1.0
    df = Counter(t for c in docs.values() for t in set(c) if t in wanted)
    n = len(docs)
    out: dict[int, float] = {}
    for seq, counts in docs.items():
        length = sum(counts.values())
        score = 0.0
        for term in wanted & set(counts):
            idf = math.log(1 + (n - df[term] + 0.5) / (df[term] + 0.5))
            tf = counts[term]
            score += idf * tf * (K1 + 1) / (tf + K1 * (1 - B + B * length / avg))
        if score > 0:
            out[seq] = score
    return out


def vectors_for(
    store: OrgStore, embedder: Embedder, facts: Sequence[OrgFact]
) -> dict[int, list[float]]:
    """The facts' vectors of ``embedder``; any missing are embedded and stored now (a
    fact written while the embedder was down, or before the model changed)."""
    have = store.vectors([f.seq for f in facts], embedder.name)
    missing = [f for f in facts if f.seq not in have]
    if missing:
        try:
            made = embedder.embed_batch([f.content for f in missing])
        except Exception as exc:  # the keyword leg still answers
            log.warning("embedding %d org facts failed: %s", len(missing), exc)
            return have
        for fact, row in zip(missing, made, strict=True):
            vector = [float(x) for x in row]
            store.set_vector(fact.seq, embedder.name, vector)
            have[fact.seq] = vector
    return have


def dense(
    query_vector: Sequence[float], vectors: Mapping[int, Sequence[float]]
) -> dict[int, float]:
    """Cosine of each fact's (unit) vector with the (unit) query vector, above zero."""
    q = np.asarray(query_vector, dtype=np.float32)
    out: dict[int, float] = {}
    for seq, vector in vectors.items():
        cosine = float(np.dot(q, np.asarray(vector, dtype=np.float32)))
        if cosine > 0:
            out[seq] = cosine
    return out


def rank(
    keyword: Mapping[int, float], semantic: Mapping[int, float], limit: int
) -> list[tuple[int, float]]:
    """seed 002's RRF of the two legs: (seq, fused score in [0, 1]), best first."""
    lists = [
        [str(s) for s in sorted(leg, key=lambda s: (-leg[s], s))]
        for leg in (keyword, semantic)
        if leg
    ]
    fused = rrf(lists, k=RRF_K)
    best = sorted(((int(s), v) for s, v in fused.items()), key=lambda item: (-item[1], item[0]))
    return best[:limit]
