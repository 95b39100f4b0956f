"""SQLite query plans on the read path: a lookup of memories by id must use the id
index, never walk a whole namespace.

Without statistics SQLite's planner prefers an index on ``namespace`` over the unique
id index for ``namespace = ? AND id IN (...)``; once a second ``(namespace, ...)``
index existed (runs, migration 019), the length lookup of every recall scanned its
namespace: 126 ms of a 100k store's 150 ms recall. The queries write ``+namespace``
to keep the planner on the id index; this test catches any that does not, whatever
the store's size (the plan does not depend on the data).
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

from conftest import HashEmbedder
from engram import Config, Memory


def _plans(conn: sqlite3.Connection, statements: list[str]) -> list[tuple[str, str]]:
    """(statement, plan step) for every step of every SELECT/DELETE on ``memories``."""
    out = []
    for sql in statements:
        head = sql.lstrip().split(None, 1)[0].upper()
        if head not in ("SELECT", "DELETE", "UPDATE") or "memories" not in sql:
            continue
        for row in conn.execute("EXPLAIN QUERY PLAN " + sql).fetchall():
            out.append((sql, str(row[3])))
    return out


def test_lookups_by_id_never_scan_a_namespace(config: Config, tmp_path: Path) -> None:
    cfg = config.with_overrides(recall={"long_chars": 40, "time_weight": 0.3})
    with Memory(tmp_path / "plans.db", config=cfg, embedder=HashEmbedder()) as mem:
        for session in range(4):
            mem.add_many(
                [
                    {
                        "content": f"turn {i} of session {session}: the blue heron "
                        "nested by the old mill pond near the river bend",
                        "session_id": f"s{session}",
                        "run_id": f"r{session}",
                    }
                    for i in range(6)
                ],
                namespace="plans",
            )
        db = mem.store._db  # type: ignore[attr-defined]
        seen: list[str] = []
        for conn in {id(c): c for c in (db.conn, db.search_conn)}.values():
            conn.set_trace_callback(seen.append)
        try:
            # With a time in the query the time leg reads the candidates' records, so
            # their facts come from those; without one they are looked up by id.
            for query in ("where did the heron nest last week?", "where did the heron nest?"):
                hits = mem.recall(query, namespace="plans").hits
                assert hits, "the recall found nothing, so it exercised no lookup"
            mem.get(hits[0].memory.id, namespace="plans")
        finally:
            for conn in (db.conn, db.search_conn):
                conn.set_trace_callback(None)
        by_id = [s for s in seen if " id IN (" in s]
        assert by_id, "no lookup by id was traced"
        plans = _plans(db.conn, by_id)
        assert plans
        bad = [
            (sql[:120], step)
            for sql, step in plans
            if step.startswith("SCAN memories")
            or ("memories USING INDEX" in step and "(namespace=?" in step)
        ]
        assert not bad, bad


def test_closing_reads_of_the_graph_never_walk_a_namespace(config: Config, tmp_path: Path) -> None:
    """The closer's reads on the write path (an entity's relations, a relation type's
    cardinality) run per new memory: each must search an index by more than the
    namespace, or its cost grows with the graph (issue 29)."""
    from engram.records import utcnow
    from engram.store.protocols.graph import SINGLE_VALUED, Statement

    with Memory(tmp_path / "graph.db", config=config, embedder=None) as mem:
        record = mem.add("Ana works at Acme and likes tea", namespace="plans")
        now = utcnow()
        triples = [("Ana", "works_at", "Acme", 0.9), ("Ana", "likes", "tea", 0.8)]
        triples += [(f"Person {i}", "likes", f"thing {i}", 0.7) for i in range(30)]
        store = mem.store
        store.graph.record(
            "plans", [Statement(record.id, triples, now, now)], single_valued=SINGLE_VALUED
        )
        ana = store.graph.entity("plans", "Ana")
        assert ana is not None
        db = store._db  # type: ignore[attr-defined]
        seen: list[str] = []
        db.conn.set_trace_callback(seen.append)
        try:
            listed = store.graph.relations(
                "plans", entity_id=ana.id, current_only=True, at=None, limit=10, offset=0
            )
            counts = store.graph_counts.relation_cardinality("plans", ["likes", "works_at"])
        finally:
            db.conn.set_trace_callback(None)
        assert {r.relation_type for r in listed} == {"works_at", "likes"}
        assert counts["likes"].sources == 31
        traced = [s for s in seen if "FROM relations" in s]
        assert len(traced) == 2, traced
        steps = [
            (sql[:100], str(row[3]))
            for sql in traced
            for row in db.conn.execute("EXPLAIN QUERY PLAN " + sql).fetchall()
        ]
        bad = [(sql, step) for sql, step in steps if "(namespace=?)" in step or "SCAN r" in step]
        assert not bad, bad
