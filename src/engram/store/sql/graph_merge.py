"""Entity merge, split and relation invalidation: the write steps behind
``GraphStore.merge``, ``split`` and ``invalidate``, run on a connection inside the
caller's transaction (on PostgreSQL under the namespace's graph lock, the rows read
here locked ``FOR UPDATE``). Each touches only the rows of the entities involved
(their mentions, aliases and relations), never the whole graph."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engram.errors import InvalidInputError
from engram.records import iso
from engram.store.protocols.graph import canonical_name, normal_name
from engram.store.sql.dialect import Conn, Dialect, first_int
from engram.store.sql.rows import found

#: Sorts after every stored time: an open ``valid_to`` in window comparisons (SQLite
#: stores ISO 8601 text; PostgreSQL's ``timestamptz`` has ``infinity``).
_OPEN = {"sqlite": "'9999-12-31T23:59:59.999999Z'", "postgres": "'infinity'::timestamptz"}


def _shown(d: Dialect, value: Any) -> str:
    """A stored time as an error message shows it: SQLite's text as it is."""
    return str(value) if d.name == "sqlite" else iso(value)


def _entity_row(conn: Conn, d: Dialect, namespace: str, entity_id: int) -> Sequence[Any]:
    row = found(
        conn,
        "SELECT id, canonical_name, mentions, entity_type, name FROM entities "
        f"WHERE id = ? AND namespace = ?{d.for_update}",
        (entity_id, namespace),
        f"no entity {entity_id} in namespace {namespace!r}",
    )
    return tuple(row)


def merge(conn: Conn, d: Dialect, namespace: str, keep: int, other: int, stamp: Any) -> None:
    """Fold ``other`` into ``keep`` (see ``GraphStore.merge``); ``stamp`` is ``d.ts``
    of now."""
    if keep == other:
        raise InvalidInputError("cannot merge an entity into itself; name two entities")
    _entity_row(conn, d, namespace, keep)
    _, other_key, other_mentions, _, _ = _entity_row(conn, d, namespace, other)
    # A memory that mentions both counts once: its row for ``other`` goes.
    shared = conn.execute(
        "DELETE FROM memory_entity_mentions WHERE entity_id = ? AND memory_id IN "
        "(SELECT memory_id FROM memory_entity_mentions WHERE entity_id = ?)",
        (other, keep),
    ).rowcount
    conn.execute(
        "UPDATE memory_entity_mentions SET entity_id = ? WHERE entity_id = ?", (keep, other)
    )
    conn.execute(
        f"UPDATE entities SET mentions = mentions + {d.greatest}(0, ? - ?), updated_at = ? "
        "WHERE id = ?",
        (other_mentions, shared, stamp, keep),
    )
    conn.execute("UPDATE entity_aliases SET entity_id = ? WHERE entity_id = ?", (keep, other))
    rows = conn.execute(
        "SELECT id, source_entity_id, relation_type, target_entity_id, valid_from, valid_to "
        "FROM relations WHERE namespace = ? AND (source_entity_id = ? OR target_entity_id = ?) "
        "ORDER BY valid_from, id",
        (namespace, other, other),
    ).fetchall()
    opened = _OPEN[d.name]
    for rid, source, kind, target, valid_from, valid_to in rows:
        source = keep if source == other else source
        target = keep if target == other else target
        if source == target:  # "Caroline knows Caro" says nothing once they are one
            conn.execute("DELETE FROM relations WHERE id = ?", (rid,))
            continue
        twin = conn.execute(
            "SELECT id FROM relations WHERE namespace = ? AND source_entity_id = ? "
            "AND relation_type = ? AND target_entity_id = ? AND id <> ? "
            f"AND valid_from <= coalesce(?, {opened}) AND ? <= coalesce(valid_to, {opened}) "
            "ORDER BY valid_to IS NOT NULL, valid_from LIMIT 1",
            (namespace, source, kind, target, rid, valid_to, valid_from),
        ).fetchone()
        if twin is None:
            conn.execute(
                "UPDATE relations SET source_entity_id = ?, target_entity_id = ? WHERE id = ?",
                (source, target, rid),
            )
        else:
            _fold_relation(conn, int(twin[0]), int(rid))
    conn.execute(
        "INSERT INTO entity_aliases(entity_id, namespace, alias) VALUES (?, ?, ?) "
        "ON CONFLICT DO NOTHING",
        (keep, namespace, other_key),
    )
    conn.execute("DELETE FROM entities WHERE id = ?", (other,))


def _fold_relation(conn: Conn, into: int, gone: int) -> None:
    """Fold relation ``gone`` into its duplicate ``into``: windows united, stating
    memories joined (one row per memory), confidence averaged over their mentions."""
    columns = "confidence, mentions, valid_from, valid_to, source_memory_id"
    a = conn.execute(f"SELECT {columns} FROM relations WHERE id = ?", (into,)).fetchone()
    b = conn.execute(f"SELECT {columns} FROM relations WHERE id = ?", (gone,)).fetchone()
    assert a is not None and b is not None
    shared = first_int(
        conn,
        "SELECT count(*) FROM relation_mentions WHERE relation_id = ? AND memory_id IN "
        "(SELECT memory_id FROM relation_mentions WHERE relation_id = ?)",
        (gone, into),
    )
    conn.execute(
        "UPDATE relation_mentions SET relation_id = ? WHERE relation_id = ? AND memory_id "
        "NOT IN (SELECT memory_id FROM relation_mentions WHERE relation_id = ?)",
        (into, gone, into),
    )
    mentions = max(1, int(a[1]) + int(b[1]) - shared)
    # seed 004's running average, over both rows' statements
    confidence = (a[0] * a[1] + b[0] * b[1]) / max(1, a[1] + b[1])
    earlier = b if b[2] < a[2] else a
    valid_to = None if a[3] is None or b[3] is None else max(a[3], b[3])
    conn.execute("DELETE FROM relations WHERE id = ?", (gone,))
    conn.execute(
        "UPDATE relations SET confidence = ?, mentions = ?, valid_from = ?, valid_to = ?, "
        "source_memory_id = coalesce(?, source_memory_id) WHERE id = ?",
        (confidence, mentions, earlier[2], valid_to, earlier[4], into),
    )


def split(conn: Conn, d: Dialect, namespace: str, entity_id: int, alias: str, stamp: Any) -> int:
    """Make ``alias`` an entity again (see ``GraphStore.split``); returns its id."""
    _, key, _, entity_type, _ = _entity_row(conn, d, namespace, entity_id)
    found(
        conn,
        "SELECT 1 FROM entity_aliases WHERE namespace = ? AND alias = ? AND entity_id = ?",
        (namespace, alias, entity_id),
        f"{alias!r} is not an alias of entity {key!r}; see its aliases with mem.graph.entity()",
    )
    loose = normal_name(alias)
    moved: list[str] = []
    spelling = alias
    for memory_id, text in conn.execute(
        "SELECT memory_id, mention_text FROM memory_entity_mentions WHERE entity_id = ?",
        (entity_id,),
    ).fetchall():
        if canonical_name(text) == alias or normal_name(text) == loose:
            moved.append(memory_id)
            spelling = text
    conn.execute("DELETE FROM entity_aliases WHERE namespace = ? AND alias = ?", (namespace, alias))
    if loose != alias and loose != key:  # the alias's loose spelling goes with it
        conn.execute(
            "DELETE FROM entity_aliases WHERE namespace = ? AND alias = ? AND entity_id = ?",
            (namespace, loose, entity_id),
        )
    row = conn.execute(
        "INSERT INTO entities(namespace, name, canonical_name, entity_type, mentions, "
        "created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING id",
        (namespace, spelling, alias, entity_type, len(moved), stamp, stamp),
    ).fetchone()
    assert row is not None
    new = int(row[0])
    conn.execute(
        f"UPDATE entities SET mentions = {d.greatest}(0, mentions - ?), updated_at = ? "
        "WHERE id = ?",
        (len(moved), stamp, entity_id),
    )
    # An alias no mention was spelled as has nothing more to move.
    for chunk in d.slices(moved):
        conn.execute(
            "UPDATE memory_entity_mentions SET entity_id = ? WHERE entity_id = ? "
            f"AND {d.any_of('memory_id', chunk)}",
            (new, entity_id, *d.bind(chunk)),
        )
        for end in ("source_entity_id", "target_entity_id"):
            conn.execute(
                f"UPDATE relations SET {end} = ? WHERE namespace = ? AND {end} = ? "
                f"AND {d.any_of('source_memory_id', chunk)}",
                (new, namespace, entity_id, *d.bind(chunk)),
            )
    return new


def invalidate(
    conn: Conn,
    d: Dialect,
    namespace: str,
    fact: tuple[int, str, int],
    at: Any,
    stamp: Any,
) -> int:
    """Close the current relation ``fact`` at ``at`` (``d.ts`` of the moment); returns
    its id."""
    source, kind, target = fact
    row = found(
        conn,
        "SELECT id, valid_from FROM relations WHERE namespace = ? AND source_entity_id = ? "
        "AND relation_type = ? AND target_entity_id = ? AND valid_to IS NULL "
        f"ORDER BY valid_from DESC, id DESC LIMIT 1{d.for_update}",
        (namespace, source, kind, target),
        f"no current {kind!r} relation between those entities in namespace "
        f"{namespace!r}; see mem.graph.relations() for what holds",
    )
    if at < row[1]:
        raise InvalidInputError(
            f"the relation holds from {_shown(d, row[1])}; it cannot end before it "
            f"started ({_shown(d, at)})"
        )
    conn.execute("UPDATE relations SET valid_to = ? WHERE id = ?", (at, row[0]))
    conn.execute("UPDATE entities SET updated_at = ? WHERE id IN (?, ?)", (stamp, source, target))
    return int(row[0])
