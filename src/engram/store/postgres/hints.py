"""PostgreSQL's half of hints (seed 004's prospective index): ``memory_hints`` has a
generated ``tsvector`` and a GIN index, ranked here by BM25 the way ``keyword`` ranks
content. The rows themselves are written and read by ``engram.store.sql.hints``, for
both engines; the generated column needs no upkeep.

The ranking is ``keyword.search``'s, over hint rows instead of memories: per keyword,
its document frequency among the namespace's hints (counted up to ``COMMON``) gives
BM25's IDF against N, the namespace's hint count (refreshed every ``COUNT_TTL``
seconds); ``ts_rank_cd`` without normalisation gives the keyword's frequency in a hint,
which goes through BM25's saturation and length normalisation (k1 1.2, b 0.75). A
memory scores its best hint (seed 004: hints elevate their memory, never stack), and
only live memories' hints are ranked. A namespace without hints costs one indexed
count that finds nothing.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any

import psycopg

from engram.store.postgres.db import Database
from engram.store.postgres.dialect import POSTGRES
from engram.store.postgres.keyword import COMMON, COUNT_TTL, K1, B, idf
from engram.store.sql.dialect import Conn
from engram.text import match_terms

_TERM = "phraseto_tsquery('engram_english', engram_fold(%s))"
#: Hints have one field: every occurrence counts 1, whatever its (default) weight.
RANK_WEIGHTS = "{1.0, 1.0, 1.0, 1.0}"


def hint_count(conn: psycopg.Connection[Any], namespace: str) -> int:
    """How many hint rows ``namespace`` holds (BM25's N for the hint index)."""
    row = conn.execute(
        "SELECT count(*) FROM memory_hints WHERE namespace = %s", (namespace,)
    ).fetchone()
    return int(row[0]) if row else 0


def search(
    conn: psycopg.Connection[Any],
    namespace: str,
    terms: Sequence[str],
    limit: int,
    total: int,
) -> list[tuple[str, float]]:
    """(memory id, BM25 of its best hint) of live memories of ``namespace``, best first;
    ``total`` is the namespace's hint count (N)."""
    if not terms or limit <= 0 or total <= 0:
        return []
    counts = ", ".join(
        "(SELECT count(*) FROM (SELECT 1 FROM memory_hints h WHERE h.namespace = %s "
        f"AND h.search @@ {_TERM} LIMIT {COMMON}) s)"
        for _ in terms
    )
    count_params: list[Any] = []
    for term in terms:
        count_params.extend([namespace, term])
    row = conn.execute("SELECT " + counts, count_params).fetchone()
    if row is None:  # pragma: no cover - a SELECT without FROM always returns a row
        return []
    present = [(t, int(df)) for t, df in zip(terms, row, strict=True) if df]
    if not present:
        return []
    total = max(total, max(df for _, df in present))
    # Common keywords (a speaker's name in most hints) add almost nothing to BM25 and
    # would make every hint a candidate: rank the hints holding a rarer one.
    rare = [t for t, df in present if df < COMMON]
    wanted = rare or [t for t, _ in present]
    candidates = (
        "SELECT h.memory_id, h.id, h.search FROM memory_hints h "
        "JOIN memories m ON m.id = h.memory_id AND m.deleted_at IS NULL "
        f"WHERE h.namespace = %s AND h.search @@ ({' || '.join(_TERM for _ in wanted)})"
    )
    if not rare:
        candidates += f" ORDER BY h.id DESC LIMIT {COMMON}"
    freqs = ", ".join(
        f"ts_rank_cd('{RANK_WEIGHTS}'::float4[], c.search, {_TERM}, 0) AS f{i}"
        for i in range(len(present))
    )
    score = " + ".join(
        f"%s * f{i} * {K1 + 1} / (f{i} + {K1} * (1 - {B} + {B} * rel_len))"
        for i in range(len(present))
    )
    # In the order the placeholders appear: IDFs (score), keywords (freqs), candidates.
    params: list[Any] = [idf(total, df) for _, df in present]
    params += [t for t, _ in present]
    params += [namespace, *wanted]
    rows = conn.execute(
        f"SELECT memory_id, max(rank) AS best FROM (SELECT memory_id, {score} AS rank FROM ("
        f"SELECT c.memory_id, {freqs}, length(c.search) / "
        "greatest(avg(length(c.search)) OVER (), 1) AS rel_len "
        f"FROM ({candidates}) c) r) b GROUP BY memory_id ORDER BY best DESC, memory_id "
        "LIMIT %s",
        [*params, limit],
    ).fetchall()
    return [(r[0], max(0.0, float(r[1]))) for r in rows]


class PgHintIndex:
    """``engram.store.sql.hints.HintIndex`` on PostgreSQL: the generated ``tsvector``."""

    def __init__(self, db: Database) -> None:
        self._db = db
        self._counts: dict[str, tuple[float, int]] = {}

    def forget(self, conn: Conn) -> None:
        """Nothing to do: a deleted row takes its ``tsvector`` with it."""

    def add(self, conn: Conn, namespace: str, memory_id: str) -> None:
        """Nothing to do: the ``tsvector`` is generated from the row."""

    def search(self, namespace: str, match: str, limit: int) -> list[tuple[str, float]]:
        terms = [POSTGRES.text(t, "query") for t in match_terms(match)]
        if not terms or limit <= 0:
            return []
        with self._db.read("hint search") as conn:
            cached = self._counts.get(namespace)
            now = time.monotonic()
            # A namespace that had no hints is counted again each time (an index probe
            # that finds nothing), so its first hints match at once.
            if cached is None or cached[1] == 0 or now - cached[0] > COUNT_TTL:
                cached = (now, hint_count(conn, namespace))
                self._counts[namespace] = cached
            return search(conn, namespace, terms, limit, cached[1])
