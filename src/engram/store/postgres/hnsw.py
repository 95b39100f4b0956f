"""PostgreSQL's HNSW vector indexes: the statement that builds one, the build an existing
one has, and the rebuild that brings one to the configured build.

``postgres.hnsw_m`` / ``hnsw_ef_construction`` apply when an index is created, so an
index made before a change keeps its old build. ``rebuild`` builds the configured one
beside it without blocking reads or writes (``CREATE INDEX CONCURRENTLY`` under a
temporary name), drops the old one (``DROP INDEX CONCURRENTLY``) and gives the new one
the old name: searches use one or the other throughout. A run cut short is taken up by
the next: an invalid leftover is dropped and built again, and a valid one whose old
index is already gone only gets its name.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from psycopg import sql

from engram.config import PostgresConfig
from engram.errors import StoreBusyError
from engram.store.postgres.db import Database
from engram.store.protocols.vectors import IndexRebuild
from engram.store.sql.migrations import LOCK_KEY


@dataclass(frozen=True, slots=True)
class IndexBuild:
    """An HNSW index's build parameters, as its reloptions give them."""

    m: int
    ef_construction: int

    @classmethod
    def of(cls, reloptions: Sequence[str] | None) -> IndexBuild:
        """From ``pg_class.reloptions`` (``["m=16", "ef_construction=64"]``); a missing
        option is pgvector's default (m 16, ef_construction 64)."""
        found = dict(str(o).split("=", 1) for o in reloptions or () if "=" in str(o))
        return cls(int(found.get("m", 16)), int(found.get("ef_construction", 64)))


#: The session advisory lock one rebuild holds, so two never race on one index.
REBUILD_LOCK = LOCK_KEY + 2
#: The new index's name while it is built beside the old one.
BUILDING_SUFFIX = "_rebuild"

#: An index's build, whether it is usable, by name (None: no such index).
INDEX_STATE = (
    "SELECT c.reloptions, i.indisvalid FROM pg_class c JOIN pg_index i "
    "ON i.indexrelid = c.oid WHERE c.relname = %s AND c.relkind = 'i'"
)


def create_sql(
    name: str, model: str, dim: int, build: IndexBuild, *, concurrently: bool = False
) -> sql.Composed:
    """The partial HNSW index of (``model``, ``dim``) with ``build``'s parameters."""
    return sql.SQL(
        "CREATE INDEX {how} {name} ON memory_vectors USING hnsw "
        "((embedding::vector({dim})) vector_cosine_ops) "
        "WITH (m = {m}, ef_construction = {efc}) "
        "WHERE model = {model} AND dim = {dim}"
    ).format(
        how=sql.SQL("CONCURRENTLY" if concurrently else "IF NOT EXISTS"),
        name=sql.Identifier(name),
        dim=sql.SQL(str(int(dim))),
        m=sql.SQL(str(int(build.m))),
        efc=sql.SQL(str(int(build.ef_construction))),
        model=sql.Literal(model),
    )


def configured(config: PostgresConfig) -> IndexBuild:
    """The build a new index gets (``postgres.hnsw_m``, ``hnsw_ef_construction``)."""
    return IndexBuild(int(config.hnsw_m), int(config.hnsw_ef_construction))


def index_state(conn: Any, name: str) -> tuple[IndexBuild, bool] | None:
    """The build of index ``name`` and whether it is valid; None if it does not exist."""
    row = conn.execute(INDEX_STATE, (name,)).fetchone()
    return None if row is None else (IndexBuild.of(row[0]), bool(row[1]))


def rebuild(
    db: Database,
    *,
    work_mem: str | None = None,
    force: bool = False,
    missing_only: bool = False,
) -> list[IndexRebuild]:
    """Bring every vector index (``vector_indexes``) to the configured build; see the
    module's docstring. Runs on one pooled connection outside any transaction (a
    concurrent build cannot run inside one); ``work_mem`` is its
    ``maintenance_work_mem`` (reset before the connection goes back to the pool).
    ``missing_only``: build only the indexes that are absent or invalid (after a bulk
    load, ``bulk.IndexBuilds``), leaving a valid one of another build as it is.
    Every build runs without parallel workers (``max_parallel_maintenance_workers`` 0),
    ``engram maintenance reindex-vectors``'s too: pgvector's parallel build made a graph
    of lower recall (100k LoCoMo vectors, m 16 /
    ef_construction 64: recall@10 0.948-0.955 with 2 workers, 0.974-0.983 serial,
    0.974-0.986 inserted row by row; docs/benchmarks.md, issue 29, round 12)."""
    target = configured(db.config)
    done: list[IndexRebuild] = []
    with db.read("rebuilding the vector indexes") as conn:
        locked = conn.execute("SELECT pg_try_advisory_lock(%s)", (REBUILD_LOCK,)).fetchone()
        if not locked or not locked[0]:
            raise StoreBusyError(
                "another process is rebuilding the vector indexes; wait for it to finish "
                "(its build shows in pg_stat_progress_create_index) and run this again"
            )
        try:
            if work_mem is not None:
                conn.execute("SELECT set_config('maintenance_work_mem', %s, false)", (work_mem,))
            conn.execute("SET max_parallel_maintenance_workers = 0")
            indexes = conn.execute(
                "SELECT model, dim, index_name FROM vector_indexes ORDER BY model, dim"
            ).fetchall()
            for model, dim, name in indexes:
                done.append(
                    _one(conn, str(model), int(dim), str(name), target, force, missing_only)
                )
        finally:
            conn.execute("RESET maintenance_work_mem")
            conn.execute("RESET max_parallel_maintenance_workers")
            conn.execute("SELECT pg_advisory_unlock(%s)", (REBUILD_LOCK,))
    return done


def _one(
    conn: Any, model: str, dim: int, name: str, target: IndexBuild, force: bool, missing: bool
) -> IndexRebuild:
    start = time.perf_counter()
    building = name + BUILDING_SUFFIX
    old = index_state(conn, name)
    leftover = index_state(conn, building)
    before = None if old is None else old[0]

    def result(rebuilt: bool) -> IndexRebuild:
        return IndexRebuild(
            model=model,
            dimension=dim,
            index=name,
            before=None if before is None else _as_dict(before),
            after=_as_dict(target if rebuilt else (before or target)),
            rebuilt=rebuilt,
            seconds=round(time.perf_counter() - start, 1),
        )

    ident = {"name": sql.Identifier(name), "building": sql.Identifier(building)}
    if old is None and leftover is not None and leftover[1] and leftover[0] == target:
        # Cut short after the old index was dropped: the new one only needs its name.
        conn.execute(sql.SQL("ALTER INDEX {building} RENAME TO {name}").format(**ident))
        return result(True)
    if leftover is not None:  # an invalid or stale leftover of a run cut short
        conn.execute(sql.SQL("DROP INDEX CONCURRENTLY IF EXISTS {building}").format(**ident))
    if old is not None and old[1] and (missing or (old[0] == target and not force)):
        return result(False)
    conn.execute(create_sql(building, model, dim, target, concurrently=True))
    conn.execute(sql.SQL("DROP INDEX CONCURRENTLY IF EXISTS {name}").format(**ident))
    conn.execute(sql.SQL("ALTER INDEX {building} RENAME TO {name}").format(**ident))
    return result(True)


def _as_dict(build: IndexBuild) -> dict[str, int]:
    return {"m": build.m, "ef_construction": build.ef_construction}
