"""Keyword search on PostgreSQL: ``tsvector`` + GIN, BM25 ranking built on ``ts_rank_cd``.

FTS5's BM25 weighs each query term by its rarity (IDF); ``ts_rank_cd`` alone has no
corpus statistics, so a term found in half the store counts as much as one found in
three memories, and ranking every memory that holds a common term (every LoCoMo turn
names its speaker) costs ~1 s at 100k memories. So the search runs in two statements
on one connection:

1. statistics: each keyword's document frequency in the namespace, the namespace's
   row count N and its token count, read from ``keyword_terms``, which triggers keep
   (migrations ``026_keyword_terms``, ``032_keyword_bm25``): key lookups, however
   common the keyword. Inside a transaction that writes, its own changes are added
   from ``keyword_terms_pending`` (the counts take them in at its commit). A keyword
   that is not one lexeme (a phrase after folding) is counted instead, up to
   ``COMMON`` (a lookup that stops early);
2. ranking, BM25 in SQL, the formula FTS5's ``bm25()`` computes on SQLite
   (``engram.store.protocols.keyword``): per keyword, ``ts_rank_cd(weights, search,
   keyword, 0)`` gives its column-weighted frequency in a memory; that frequency goes
   through BM25's saturation and length normalisation (k1 = 1.2, b = 0.75; length is
   the memory's token count, ``memory_search.len``, against the namespace's average)
   and is weighted by FTS5's IDF; the keywords' scores add up. Candidates are
   the memories matching a keyword rarer than ``COMMON``; memories that hold only
   common keywords (whose BM25 contribution is near zero) are left out. When every
   keyword is common, the newest ``COMMON`` matches are ranked.

Every keyword reaches the server as a bound parameter turned into a tsquery there by
``phraseto_tsquery``, so user text is never parsed as tsquery syntax.

``PgKeyword`` implements ``engram.store.protocols.KeywordIndex`` with these functions.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import psycopg

from engram.store.postgres.db import Database
from engram.store.postgres.dialect import POSTGRES
from engram.store.protocols.keyword import K1, B, KeywordSettings, idf, scores_from_ranking
from engram.store.sql.dialect import Conn
from engram.store.sql.steps_search import TOKENS
from engram.text import match_terms

#: ts_rank_cd weights {D, C, B, A}: title (A) counts twice the body (B), tags (C) half,
#: the ratios of the SQLite store's bm25(1, 2, 1, 1, 0.5) column weights.
RANK_WEIGHTS = "{0.1, 0.25, 0.5, 1.0}"
#: A keyword in at least this many live memories of a namespace is "common".
COMMON = 1000

_TERM = "phraseto_tsquery('engram_english', engram_fold(%s))"


def _stat(term: str, pending: bool) -> str:
    """The count of lexeme ``term`` (SQL; ``''``: the rows themselves, BM25's N;
    ``TOKENS``: their tokens) in ``keyword_terms``, with a (source, namespace)
    parameter pair; with ``pending``, plus this transaction's own changes, which the
    counts take in only when it commits."""
    out = (
        "coalesce((SELECT k.df FROM keyword_terms k WHERE k.source = %s "
        f"AND k.namespace = %s AND k.term = {term}), 0)"
    )
    if pending:
        changed = (
            "sum(p.tokens)" if term == f"'{TOKENS}'" else "sum(p.delta)",
            "" if term == f"'{TOKENS}'" else f" AND ({term} = '' OR {term} = ANY(p.terms))",
        )
        out += (
            f" + coalesce((SELECT {changed[0]} FROM keyword_terms_pending p "
            f"WHERE p.source = %s AND p.namespace = %s{changed[1]}), 0)"
        )
    return out


@dataclass(frozen=True, slots=True)
class Ranked:
    """What BM25 ranks: memories (``keyword``) or hint rows (``hints``), as SQL pieces."""

    rows: str
    """The matching rows of ``namespace = %s`` (``{term}``: one keyword's tsquery)."""
    candidates: str
    """``id, seq, search`` of the rows matching ``{terms}``, a tsquery of several."""
    newest: str
    """ORDER BY when every keyword is common: the newest rows."""
    weights: str
    """``ts_rank_cd``'s {D, C, B, A} weights, and a factor before it."""
    outer: str
    """The final query around ``{ranked}`` (``id, rank`` of each candidate)."""
    source: str
    """Its ``keyword_terms.source``: the statistics the triggers keep of these rows."""
    length: str
    """A candidate ``c``'s length in tokens (BM25's |D|)."""


#: Memories: FTS5's column weights. ``ts_rank_cd`` without length normalisation scores
#: one occurrence in the body 0.5, in the title 1.0: doubled to FTS5's (body 1, title 2,
#: tags 0.5). Read from ``memory_search``, the live memories' (seq, id, namespace,
#: search) that a trigger keeps (migration ``028_memory_search``): the ranking then
#: visits narrow rows, not whole memories (at 1M, 34.2 -> 24.0 ms a search, the same
#: ids and scores; docs/benchmarks.md, issue 29, round 9).
MEMORIES = Ranked(
    rows="memory_search m WHERE m.namespace = %s AND m.search @@ {term}",
    candidates="SELECT m.id, m.seq, m.search, m.len FROM memory_search m WHERE m.namespace = %s "
    "AND m.search @@ ({terms})",
    newest="m.seq DESC",
    weights=f"2 * ts_rank_cd('{RANK_WEIGHTS}'",
    outer="{ranked} ORDER BY rank DESC, seq",
    source="memories",
    length="c.len",
)


def statistics(ranked: Ranked, pending: bool) -> str:
    """The first statement: (-1, tokens, false), (0, N, false), then (i, df of keyword
    i, whether it is one lexeme) for the keywords bound as one text array. A keyword of
    one lexeme reads its count; any other is counted."""
    rows = ranked.rows.format(term="t.q")
    tokens = _stat(f"'{TOKENS}'", pending)
    total = _stat("''", pending)
    return (
        f"SELECT -1, {tokens}, false UNION ALL SELECT 0, {total}, false UNION ALL "
        f"SELECT t.i, CASE WHEN numnode(t.q) = 1 THEN {_stat('t.lex', pending)} "
        f"ELSE (SELECT count(*) FROM (SELECT 1 FROM {rows} LIMIT {COMMON}) s) END, "
        "numnode(t.q) = 1 "
        "FROM (SELECT i, phraseto_tsquery('engram_english', engram_fold(w)) AS q, "
        "(tsvector_to_array(to_tsvector('engram_english', engram_fold(w))))[1] AS lex "
        "FROM unnest(%s::text[]) WITH ORDINALITY AS u(w, i)) t ORDER BY 1"
    )


def looked_up(terms: Sequence[str], stats: Sequence[Sequence[Any]]) -> set[str]:
    """The keywords of one lexeme (``statistics``' third column): ranked only in the
    rows that hold them (``search``)."""
    return {t for t, row in zip(terms, stats, strict=True) if row[2]}


def search(
    conn: psycopg.Connection[Any],
    namespace: str,
    terms: Sequence[str],
    limit: int,
    ranked: Ranked = MEMORIES,
    *,
    pending: bool = False,
) -> list[tuple[str, float]]:
    """(id, score >= 0) of ``ranked``'s live rows of ``namespace``, best first.

    ``pending``: ``conn`` is inside a transaction that may have written; its own
    changes count too (read-your-writes before it commits)."""
    if not terms or limit <= 0:
        return []
    pair = [ranked.source, namespace] * (2 if pending else 1)
    stats = conn.execute(
        statistics(ranked, pending), [*pair, *pair, *pair, namespace, list(terms)]
    ).fetchall()
    tokens, total = int(stats[0][1]), int(stats[1][1])
    # Exact for a keyword of one lexeme (its count in keyword_terms), counted up to
    # COMMON for a phrase.
    counts = [int(df) for _, df, _ in stats[2:]]
    single = looked_up(terms, stats[2:])
    present = [(t, df) for t, df in zip(terms, counts, strict=True) if df]
    if not total or not present:
        return []
    # FTS5's average length: the namespace's tokens over its rows.
    avgdl = tokens / total if tokens > 0 else 1.0
    total = max(total, max(df for _, df in present))
    # Common keywords (a speaker's name in most rows) add almost nothing to BM25 and
    # would make every row a candidate: rank the rows holding a rarer one.
    rare = [t for t, df in present if df < COMMON]
    wanted = rare or [t for t, _ in present]
    candidates = ranked.candidates.format(terms=" || ".join(_TERM for _ in wanted))
    if not rare:
        candidates += f" ORDER BY {ranked.newest} LIMIT {COMMON}"
    # Per keyword: its weighted frequency in the row, from ts_rank_cd without length
    # normalisation. A candidate holds few of the keywords, and ts_rank_cd of a lexeme
    # it lacks is 0 after building the row's whole cover representation: a keyword of
    # one lexeme is first looked up (``@@``, a binary search of the row's lexemes) and
    # ranked only where present. The same frequencies, a tenth less server CPU per
    # search (16.8 ms for 18.7 at 1M; docs/benchmarks.md, "Recall's own cost"). A
    # phrase is always ranked.
    freqs = ", ".join(
        (
            f"CASE WHEN c.search @@ {_TERM} THEN {ranked.weights}::float4[], c.search, "
            f"{_TERM}, 0) ELSE 0 END AS f{i}"
            if t in single
            else f"{ranked.weights}::float4[], c.search, {_TERM}, 0) AS f{i}"
        )
        for i, (t, _) in enumerate(present)
    )
    # BM25 with FTS5's k1 and b; length is the row's token count against the
    # namespace's average. Its normalisation, k1 × (1 - b + b × relative length), is
    # the same for every keyword of a row: computed once per row, a fifth less server
    # CPU at 1M than per keyword (docs/benchmarks.md, issue 29, round 5).
    score = " + ".join(f"%s * f{i} * {K1 + 1} / (f{i} + norm)" for i in range(len(present)))
    # In the order the placeholders appear: IDFs (score), the average length (norm),
    # keywords (freqs), candidates.
    params: list[Any] = [idf(total, df) for _, df in present]
    params.append(avgdl)
    params += [x for t, _ in present for x in ([t, t] if t in single else [t])]
    params += [namespace, *wanted]
    # The frequencies and lengths are computed below the window (OFFSET 0 keeps the
    # planner from pulling them up into it), so the window's buffer holds a few numbers
    # per row instead of each row's tsvector.
    fs = ", ".join(f"f{i}" for i in range(len(present)))
    inner = (
        f"SELECT id, {score} AS rank FROM ("
        f"SELECT id, seq, {fs}, {K1} * (1 - {B} + {B} * len / %s::float8) AS norm FROM ("
        f"SELECT c.id, c.seq, {freqs}, {ranked.length} AS len "
        f"FROM ({candidates}) c OFFSET 0) n) r"
    )
    # Never prepared: each run is planned with its keywords as constants. psycopg
    # prepares a statement after five runs, and PostgreSQL then switched some of these
    # (one text per keyword count) to a generic plan, which cannot see how common a
    # keyword is: at 100k a search for three common keywords took 86-131 ms instead of
    # about 9 (the leg's p95 86 -> 23 ms; docs/benchmarks.md, issue 29, round 6).
    rows = conn.execute(
        ranked.outer.format(ranked=inner) + " LIMIT %s", [*params, limit], prepare=False
    )
    # The rows as psycopg makes them, (id text, rank float8), with no pass over them in
    # Python: a score is never negative (an IDF, a frequency and a length norm that are
    # each > 0 or >= 0), so the clamp and float() that ran per row changed nothing, and
    # at recall's depth of 1,000 rows they were about a fifth of the leg's client CPU
    # (docs/benchmarks.md, issue 29, round 7).
    found: list[tuple[str, float]] = rows.fetchall()
    return found


class Bm25:
    """BM25 search of one ``Ranked`` (this module's docstring)."""

    def __init__(self, db: Database, ranked: Ranked, what: str) -> None:
        self._db = db
        self._ranked = ranked
        self._what = what

    def search(self, namespace: str, match: str, limit: int) -> list[tuple[str, float]]:
        """Live rows of ``namespace`` ranked by BM25 (>= 0, higher is better)."""
        terms = [POSTGRES.text(t, "query") for t in match_terms(match)]
        if not terms or limit <= 0:
            return []
        pending = self._db.in_transaction
        with self._db.read(self._what) as conn:
            return search(conn, namespace, terms, limit, self._ranked, pending=pending)


class PgKeyword(Bm25):
    """The PostgreSQL implementation of ``KeywordIndex``."""

    def __init__(self, db: Database) -> None:
        super().__init__(db, MEMORIES, "keyword search")

    def scores(self, namespace: str, match: str, ids: Sequence[str]) -> dict[str, float]:
        """The scores ``search`` gives ``ids``, picked from its ranking to ``DEPTH``
        (BM25 here is relative to the matching candidates, so ids are not scored
        apart from them)."""
        return scores_from_ranking(self.search, namespace, match, ids)

    def exact(self, namespace: str) -> bool:
        """False: scoring ids reads the ranking (see ``scores``)."""
        return False

    def configure(self, settings: KeywordSettings) -> None:
        """Nothing to configure: PostgreSQL ranks every namespace in the database."""

    def state(self) -> dict[str, object]:
        """Keyword search runs in the database (tsvector + GIN), for every namespace."""
        return {"ranks_in": "database", "index": "tsvector + GIN"}


class PgKeywordUpkeep:
    """The keyword index's upkeep for the shared parts (``KeywordUpkeep``): the
    ``memories.search`` tsvector a trigger keeps; a live memory whose ``search`` is
    NULL is missing from it."""

    def counts(self, conn: Conn) -> tuple[int, int]:
        row = conn.execute(
            "SELECT count(*) FILTER (WHERE search IS NOT NULL), "
            "count(*) FILTER (WHERE search IS NULL) FROM memories WHERE deleted_at IS NULL"
        ).fetchone()
        return (0, 0) if row is None else (int(row[0]), int(row[1]))

    def repair(self, conn: Conn) -> int:
        # Touching ``content`` fires the trigger that computes ``search``.
        cur = conn.execute(
            "UPDATE memories SET content = content WHERE deleted_at IS NULL AND search IS NULL"
        )
        return int(cur.rowcount)

    def flush(self, conn: Conn, namespace: str) -> None:
        """Nothing is queued: the index changes with its rows."""
