"""Dense top-k in the database: pgvector's HNSW index, not a client-side matrix.

``PgVectorSearch`` implements ``engram.store.protocols.VectorSearch`` for
``PostgresStore`` (``store.vectors.index`` hands it out).
Each (model, dimension) has a partial HNSW index on ``embedding::vector(N)`` with cosine
ops; a query repeats that expression and predicate so the planner can use it, and sets
``hnsw.ef_search`` (and pgvector 0.8's ``hnsw.iterative_scan``, so a namespace filter
cannot starve the result) for its own transaction only; ``ef_search`` grows with the
namespace past ``postgres.ef_search_rows`` live memories (its N in ``keyword_terms``),
by half of itself each time the namespace doubles.
The planner still chooses: for a small namespace it reads that namespace's rows through
the btree and sorts them, which is exact.

The namespace's not-yet-embedded count, which recall reads right after each dense
search to warn about memories that search cannot see, rides in the search's own round
trip (``Unembedded``) instead of taking a connection and a round trip of its own.
"""

from __future__ import annotations

import math
import threading
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt
import psycopg
from psycopg import sql

from engram.store.postgres.centres import PgCentres
from engram.store.postgres.db import Database
from engram.store.postgres.dialect import POSTGRES
from engram.store.protocols.memories import MemoryFacts
from engram.store.protocols.vector_centres import Centre, Centred, direction
from engram.store.sql import vector_reads
from engram.store.sql.memories import fact_columns, live_facts

#: ``VectorReads.unembedded``'s count, in psycopg's placeholders.
UNEMBEDDED = vector_reads.UNEMBEDDED.replace("?", "%s")


#: How fast ``ef_search`` grows past ``postgres.ef_search_rows``: by this share of itself
#: each time the namespace doubles (200 at 100k: 300 at 200k, 533 at 1M). Recall@10 at a
#: fixed ``ef_search`` sinks slowly with the namespace's size (200: 0.950-0.963 at 100k,
#: 0.941-0.966 at 200k, 0.938 at 1M), so a logarithmic rule holds 0.95 where the linear
#: one spent pgvector's cap of 1000 at 1M (docs/benchmarks.md, issue 29, round 4).
EF_GROWTH_PER_DOUBLING = 0.5

#: ``hnsw.ef_search`` for this transaction: ``ef`` × (1 + growth × log2(the namespace's
#: live memories / ``ef_search_rows``)) once the namespace is larger than ``rows``, at
#: most pgvector's 1000. The size is the namespace's N in ``keyword_terms``, read by key.
SCALED_EF = (
    "least(1000, ceil(%(ef)s::float8 * (1 + %(growth)s "
    "* ln(greatest(1, coalesce((SELECT k.df FROM keyword_terms k WHERE k.source = 'memories' "
    "AND k.namespace = %(namespace)s AND k.term = ''), 0)::float8 / %(rows)s)) / ln(2))))"
    "::int::text"
)

#: A search's settings, local to its transaction, in one statement. ``set_config(...,
#: true)`` rather than ``SET LOCAL``: it needs no transaction block, so the settings, the
#: search and the unembedded count run in the implicit transaction of one pipeline Sync
#: (one round trip; BEGIN and COMMIT took three more, issue 29 round 6). ``{ef}``: an
#: expression or a placeholder; ``{exact}``: empty, or ``EXACT``.
SETTINGS = (
    "SELECT set_config('hnsw.ef_search', {ef}, true), "
    "set_config('hnsw.iterative_scan', %(iterative)s, true){exact}"
)
#: Index scans off: a sequential scan and sort, the exact answer.
EXACT = ", set_config('enable_indexscan', 'off', true)"


#: What ``FactsAlong`` reads of each memory beside its score (``SqlMemories.facts``' row).
FACTS = f"m.namespace, m.deleted_at, {fact_columns('m.')}"


def _facts(namespace: str, rows: Sequence[Sequence[Any]]) -> dict[str, MemoryFacts]:
    """The facts in ``rows`` (id, score, then ``FACTS``) of live memories of
    ``namespace``, as ``SqlMemories.facts`` makes them."""
    out: dict[str, MemoryFacts] = {}
    for row in rows:
        if (facts := live_facts(POSTGRES, namespace, row[2:])) is not None:
            out[row[0]] = facts
    return out


def _scores(rows: Sequence[Sequence[Any]]) -> dict[str, float]:
    """The cosines in ``scores_facts``' ``rows``: ids with a live vector of the model."""
    return {r[0]: float(r[1]) for r in rows if r[1] is not None}


def scaled_ef(ef: int, size: int, rows: int) -> int:
    """``SCALED_EF``'s answer in Python (tests, benchmarks): ``ef`` for a namespace of
    ``size`` live memories."""
    growth = EF_GROWTH_PER_DOUBLING * math.log2(max(1.0, size / rows)) if rows else 0.0
    return min(1000, math.ceil(ef * (1 + growth)))


class Unembedded:
    """The not-yet-embedded count a search read, kept for the same thread's next
    ``PgVectors.unembedded`` of that namespace (recall asks right after searching),
    which takes it once; any other call counts afresh."""

    def __init__(self) -> None:
        self._local = threading.local()

    def put(self, namespace: str, count: int) -> None:
        self._local.last = (namespace, count)

    def take(self, namespace: str) -> int | None:
        last: tuple[str, int] | None = getattr(self._local, "last", None)
        self._local.last = None
        return last[1] if last is not None and last[0] == namespace else None


class PgVectorSearch:
    """Cosine top-k over one model's vectors, run by PostgreSQL.

    ``ensure_index`` is the vectors part's ``ensure_index``: ``state`` names the HNSW
    index through it. Settings (``ef_search``, ``iterative_scan``) are read from the
    database's current ``config`` at every search, so a changed config applies at once.
    """

    def __init__(
        self,
        db: Database,
        model: str,
        dimension: int,
        ensure_index: Callable[[str, int], str | None],
        unembedded: Unembedded | None = None,
        building: Callable[[], bool] | None = None,
    ) -> None:
        self._db = db
        self._ensure_index = ensure_index
        self._unembedded = unembedded
        self._building = building
        self.model = model
        self.dimension = int(dimension)
        self.searches = 0
        self.centres = PgCentres(db, model, self.dimension)
        typed = sql.SQL("embedding::vector({dim})").format(dim=sql.SQL(str(self.dimension)))
        query = sql.SQL("%s::vector({dim})").format(dim=sql.SQL(str(self.dimension)))
        # Model and dimension are literals so the partial index's predicate matches
        # under any plan, including psycopg's prepared (generic) ones.
        self._where = sql.SQL("model = {model} AND dim = {dim} AND namespace = %s AND live").format(
            model=sql.Literal(model), dim=sql.Literal(self.dimension)
        )
        self._search = sql.SQL(
            "SELECT memory_id, 1 - ({typed} <=> {query}) FROM memory_vectors "
            "WHERE {where} ORDER BY {typed} <=> {query} LIMIT %s"
        ).format(typed=typed, query=query, where=self._where)
        cosine = sql.SQL("1 - ({typed} <=> {query})").format(typed=typed, query=query)
        self._scores = self._of_ids(cosine)
        # ``VectorCentres.centred``: two vectors' cosines in one read of the rows.
        self._two = self._of_ids(sql.SQL(", ").join([cosine, cosine]))
        # ``FactsAlong``: the scores of ids beside their memories' rows.
        self._scores_facts = sql.SQL(
            "SELECT i.id, CASE WHEN v.live THEN 1 - ({typed} <=> {query}) END, {facts} "
            "FROM unnest(%s::text[]) AS i(id) "
            "LEFT JOIN memory_vectors v ON v.memory_id = i.id "
            "AND v.model = {model} AND v.dim = {dim} AND v.namespace = %s "
            "LEFT JOIN memories m ON m.id = i.id"
        ).format(
            typed=sql.SQL("v.embedding::vector({dim})").format(dim=sql.SQL(str(self.dimension))),
            query=query,
            model=sql.Literal(model),
            dim=sql.Literal(self.dimension),
            facts=sql.SQL(FACTS),
        )

    def _settings(self, conn: psycopg.Connection[Any], namespace: str, k: int, exact: bool) -> None:
        cfg = self._db.config
        # pgvector caps ef_search at 1000. A graph search keeping only k candidates for
        # k rows misses many true neighbours; ef_search_per_k x k keeps recall@k near
        # recall@10 at the same ef_search (docs/benchmarks.md, issue 29).
        ef = min(max(cfg.ef_search, cfg.ef_search_per_k * k), 1000)
        params: dict[str, object] = {"ef": ef, "iterative": cfg.iterative_scan}
        if cfg.ef_search_rows and not exact:
            # The same ef finds fewer true neighbours in a bigger graph: grow it with the
            # log of the namespace's live memories, read by key from keyword_terms' N, in
            # this round trip.
            params.update(
                growth=EF_GROWTH_PER_DOUBLING, namespace=namespace, rows=cfg.ef_search_rows
            )
            conn.execute(SETTINGS.format(ef=SCALED_EF, exact=""), params)
        else:
            conn.execute(SETTINGS.format(ef="%(ef)s::text", exact=EXACT if exact else ""), params)

    def search(
        self, namespace: str, query: npt.NDArray[np.float32], k: int, *, exact: bool = False
    ) -> list[tuple[str, float]]:
        # ``exact=True`` turns index scans off for this query: a sequential scan and sort,
        # the ground truth that HNSW recall is measured against.
        if k <= 0:
            return []
        rows, _ = self._run(self._search, namespace, query, k, exact)
        return [(r[0], float(r[1])) for r in rows]

    def search_facts(
        self,
        namespace: str,
        query: npt.NDArray[np.float32],
        k: int,
        others: Sequence[str] = (),
    ) -> tuple[list[tuple[str, float]], dict[str, float], dict[str, MemoryFacts]]:
        """``search``'s hits, and ``scores_facts`` of ``others`` in the search's one
        round trip (the keyword leg's top ids, when it ended first: issue 29, round
        11). The hits' facts are not joined to the search: at 100k that join made the
        statement 2-3 ms slower on the loaded machine, more than the read it saves."""
        if k <= 0:
            scores, facts = self.scores_facts(namespace, query, others)
            return [], scores, facts
        rows, also = self._run(self._search, namespace, query, k, False, others)
        return [(r[0], float(r[1])) for r in rows], _scores(also), _facts(namespace, also)

    def _run(
        self,
        statement: sql.Composed,
        namespace: str,
        query: npt.NDArray[np.float32],
        k: int,
        exact: bool,
        others: Sequence[str] = (),
    ) -> tuple[list[Any], list[Any]]:
        """The rows of ``statement`` (a search), and of ``scores_facts`` of ``others``."""
        vector = np.ascontiguousarray(query, dtype=np.float32).reshape(-1)
        wanted = list(dict.fromkeys(others))
        # Pipelined on an autocommit connection: the settings, the query, the
        # unembedded count and the other ids' scores share the implicit transaction that
        # the pipeline's one Sync ends, so the settings apply to the query and end with
        # it; one round trip.
        with self._db.read("vector search") as conn:
            with conn.pipeline():
                self._settings(conn, namespace, k, exact)
                cur = conn.execute(statement, (vector, namespace, vector, int(k)))
                count = None
                if self._unembedded is not None:
                    count = conn.execute(UNEMBEDDED, (namespace,))
                more = (
                    conn.execute(self._scores_facts, (vector, wanted, namespace))
                    if wanted
                    else None
                )
            rows = cur.fetchall()
            if self._unembedded is not None and count is not None:
                found = count.fetchone()
                self._unembedded.put(namespace, int(found[0]) if found else 0)
            also = more.fetchall() if more is not None else []
        self.searches += 1
        return rows, also

    def scores(
        self, namespace: str, query: npt.NDArray[np.float32], ids: Sequence[str]
    ) -> dict[str, float]:
        wanted = list(dict.fromkeys(ids))
        if not wanted:
            return {}
        vector = np.ascontiguousarray(query, dtype=np.float32).reshape(-1)
        with self._db.read("vector scores") as conn:
            rows = conn.execute(self._scores, (vector, wanted, namespace)).fetchall()
        return {r[0]: float(r[1]) for r in rows}

    def scores_facts(
        self, namespace: str, query: npt.NDArray[np.float32], ids: Sequence[str]
    ) -> tuple[dict[str, float], dict[str, MemoryFacts]]:
        """``scores`` of ``ids`` and their memories' facts, in one statement (the
        keyword leg's candidates, read on its worker: issue 29, round 11)."""
        wanted = list(dict.fromkeys(ids))
        if not wanted:
            return {}, {}
        vector = np.ascontiguousarray(query, dtype=np.float32).reshape(-1)
        with self._db.read("vector scores") as conn:
            rows = conn.execute(self._scores_facts, (vector, wanted, namespace)).fetchall()
        return _scores(rows), _facts(namespace, rows)

    def _of_ids(self, columns: sql.Composable) -> sql.Composed:
        """``columns`` of the live vectors of some ids (``%s``: the ids, then the
        namespace, after the columns' own parameters). OFFSET 0 keeps the id lookup a
        primary-key fetch of a few rows; flattened, the planner may prefer scanning the
        namespace's rows through their index."""
        return sql.SQL(
            "SELECT memory_id, {columns} FROM "
            "(SELECT * FROM memory_vectors WHERE memory_id = ANY(%s) OFFSET 0) v "
            "WHERE {where}"
        ).format(columns=columns, where=self._where)

    def centre(self, namespaces: Sequence[str]) -> Centre | None:
        """``VectorCentres``: the namespaces' sums as ``PgCentres`` holds them."""
        return self.centres.centre(namespaces)

    def centred(
        self,
        namespace: str,
        on: Sequence[str],
        query: npt.NDArray[np.float32],
        ids: Sequence[str],
    ) -> Centred | None:
        """The mean as ``PgCentres`` holds it; the ``ids``' two cosines in one read."""
        centre = self.centres.centre(list(dict.fromkeys(on)))
        found = direction(centre)
        q = np.ascontiguousarray(query, dtype=np.float32).reshape(-1)
        wanted = list(dict.fromkeys(ids))
        if centre is None or found is None or found[0].shape != q.shape or not wanted:
            return None
        unit, r = found
        with self._db.read("vector scores") as conn:
            rows = conn.execute(self._two, (q, unit, wanted, namespace)).fetchall()
        return Centred(
            [row[0] for row in rows],
            np.array([float(row[1]) for row in rows], dtype=np.float64),
            np.array([float(row[2]) for row in rows], dtype=np.float64),
            float(q @ unit),
            r,
            centre.count,
        )

    # The database is the index: nothing derived to keep in step but the centres' count
    # of writes since their sums were read.
    def added(
        self,
        namespace: str,
        ids: Sequence[str],
        vectors: npt.NDArray[np.float32],
        epoch_after: int,
    ) -> None:
        """The rows are already searchable; the namespace's sum is due sooner."""
        self.centres.wrote(namespace, len(ids))

    def removed(self, namespace: str, memory_id: str) -> None:
        """A tombstone clears the row's ``live`` flag in the same write."""
        self.centres.wrote(namespace, 1)

    def invalidate(self, namespace: str | None = None) -> None:
        """Only the centres' sums are held: read again on next use."""
        self.centres.forget(namespace)

    def state(self) -> dict[str, object]:
        cfg = self._db.config
        return {
            "model": self.model,
            "dimension": self.dimension,
            "backend": "pgvector",
            "index": self._ensure_index(self.model, self.dimension) or "none (exact)",
            # An index dropped for a bulk load and not built yet: searches are exact.
            "ann": {"building": bool(self._building and self._building())},
            "ef_search": cfg.ef_search,
            "ef_search_per_k": cfg.ef_search_per_k,
            "ef_search_rows": cfg.ef_search_rows,
            "iterative_scan": cfg.iterative_scan,
            "searches": self.searches,
        }
