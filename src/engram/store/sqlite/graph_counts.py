"""The graph's counts on SQLite, and the listing filters they share with
``SQLiteGraph.entities`` and ``relations`` (one definition, so a total always matches
its pages)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from engram.store.sqlite.codec import ts
from engram.store.sqlite.db import Database

#: A relation valid at a moment (two parameters: the moment twice).
VALID_AT = "r.valid_from <= ? AND (r.valid_to IS NULL OR r.valid_to > ?)"


def entity_filter(namespace: str, query: str | None) -> tuple[str, list[Any]]:
    """The WHERE clause (over ``entities e``) of a listing: the namespace, and canonical
    names containing ``query`` (LIKE wildcards in it taken literally)."""
    where, params = "e.namespace = ?", [namespace]
    if query:
        escaped = query.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
        where += " AND e.canonical_name LIKE ? ESCAPE '\\'"
        params.append(f"%{escaped}%")
    return where, params


def relation_filter(
    namespace: str, entity_id: int | None, current_only: bool, at: datetime | None
) -> tuple[str, list[Any]]:
    """The WHERE clause (over ``relations r``) of a listing: of one entity (either end);
    valid at ``at``, else current only, else all."""
    where = "r.namespace = ?"
    params: list[Any] = [namespace]
    if entity_id is not None:
        where += " AND (r.source_entity_id = ? OR r.target_entity_id = ?)"
        params += [entity_id, entity_id]
    if at is not None:
        where += f" AND {VALID_AT}"
        params += [ts(at), ts(at)]
    elif current_only:
        where += " AND r.valid_to IS NULL"
    return where, params


class SQLiteGraphCounts:
    """``GraphCountStore`` on SQLite: one ``COUNT(*)`` each."""

    def __init__(self, db: Database) -> None:
        self._db = db

    def count_entities(self, namespace: str, *, query: str | None) -> int:
        """How many entities the listing with ``query`` has."""
        where, params = entity_filter(namespace, query)
        with self._db.read("counting entities") as conn:
            row = conn.execute(
                f"SELECT COUNT(*) FROM entities e WHERE {where}", params
            ).fetchone() or (0,)
        return int(row[0])

    def count_relations(
        self,
        namespace: str,
        *,
        entity_id: int | None,
        current_only: bool,
        at: datetime | None,
    ) -> int:
        """How many relations the listing with these filters has."""
        where, params = relation_filter(namespace, entity_id, current_only, at)
        with self._db.read("counting relations") as conn:
            row = conn.execute(
                f"SELECT COUNT(*) FROM relations r WHERE {where}", params
            ).fetchone() or (0,)
        return int(row[0])
