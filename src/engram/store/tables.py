"""Which tables a store-to-store copy and an export carry, declared once for both backends.

Memories travel as bundles (``store.transfer``); transcripts and API keys have their own
paths. Every other table that holds user data, or derived state that is expensive to
make again (an LLM's hints, an entity graph, a palace), is listed in ``TABLES`` as a
``TableSpec``: its natural key, the column a backend assigns for itself (left out of the
canonical row), and how its references to other tables' local ids become the natural
keys of the rows they point at. ``engram.store.sql.tables`` turns a spec into SQL on
either backend. Tables left out are in ``SKIPPED``, each with the reason, and
docs/storage.md ("What a copy carries") shows both lists.

Columns come from the live schema, so a column a later migration adds (the lifecycle
archive grows some) is carried without touching this file. Kinds the schema cannot
tell apart on SQLite (JSON and booleans are TEXT and INTEGER there) are declared here;
a column named ``at`` or ``*_at`` is a time.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

#: How a column's value is written in the canonical (backend-neutral) row.
Kind = Literal["text", "int", "float", "bool", "time", "json"]
#: Where a table's namespace is: its own ``namespace`` column, a parent row's, or none.
Scope = Literal["namespace", "parent", "global"]


@dataclass(frozen=True, slots=True)
class Ref:
    """A column holding another table's local id. In the canonical row it holds the
    referenced row's natural key instead (a list), which survives the copy."""

    column: str
    table: str | None = None
    """The referenced spec, or None when ``by`` picks it per row."""
    by: str | None = None
    """A column of the row whose value picks the referenced spec from ``tables``."""
    tables: Mapping[str, str | None] = field(default_factory=dict)
    """Value of ``by`` -> referenced spec (None: the value is kept as it is)."""

    def target(self, row: Mapping[str, Any]) -> str | None:
        """The spec this ref points at for ``row`` (its local or canonical values)."""
        if self.by is None:
            return self.table
        return self.tables.get(str(row[self.by]))


@dataclass(frozen=True, slots=True)
class TableSpec:
    """How one table is copied, checked and exported."""

    name: str
    key: tuple[str, ...]
    """Canonical columns naming a row: a row whose key the target holds is skipped."""
    order: tuple[str, ...]
    """Local columns to page by (the primary key): a copy resumes after the last page."""
    local: str | None = None
    """The id column the backend assigns (AUTOINCREMENT / IDENTITY): never copied."""
    refs: tuple[Ref, ...] = ()
    kinds: Mapping[str, Kind] = field(default_factory=dict)
    """Kinds the schema does not tell on both backends (json, bool, odd time names)."""
    repeats: bool = False
    """The key may repeat (a log): the n-th row with a key is copied unless the target
    holds n rows with that key already, so a copy run twice adds nothing. A log's key
    columns are NOT NULL and led by an indexed column (occurrences are counted by it)."""
    scope: Scope = "namespace"
    parent: tuple[str, str, str] | None = None
    """For ``scope="parent"``: (column, parent table, parent column)."""
    scanned: tuple[str, ...] = ()
    """Columns the injection scan sees when they are written (a core block's value): an
    import that is not ``trusted`` scans them too, and skips a row the scan blocks."""
    memory_ids: tuple[str, ...] = ()
    """Columns with a foreign key to ``memories(id)``: a row whose memory the target
    lacks (an import skipped it) is skipped too, as an orphan."""

    def ref(self, column: str) -> Ref | None:
        """The ref of ``column``, if it holds a local id."""
        return next((r for r in self.refs if r.column == column), None)


def _log(name: str, key: tuple[str, ...], **kw: Any) -> TableSpec:
    """A table of events with a local ``id`` and a key that may repeat."""
    return TableSpec(name, key, ("id",), local="id", repeats=True, **kw)


def _keyed(name: str, key: tuple[str, ...], **kw: Any) -> TableSpec:
    """A table whose natural key is its primary key: pages go in key order."""
    return TableSpec(name, key, key, **kw)


_ENTITY = Ref("entity_id", "entities")
_PALACE_PARENT = {"wing": None, "room": "palace_wings", "closet": "palace_rooms"}
_PALACE_TARGET = {"wing": "palace_wings", "room": "palace_rooms", "closet": "palace_closets"}

#: Carried tables, parents before the tables that reference them.
TABLES: tuple[TableSpec, ...] = (
    _keyed("documents", ("id",)),
    _keyed(
        "document_memories",
        ("document_id", "chunk_index"),
        scope="parent",
        parent=("document_id", "documents", "id"),
    ),
    _log("memory_hints", ("memory_id", "hint", "model"), memory_ids=("memory_id",)),
    _log(
        "memory_jobs",
        ("status", "created_at", "kind", "namespace"),
        kinds={"payload": "json", "result": "json", "run_after": "time"},
    ),
    TableSpec("entities", ("namespace", "canonical_name"), ("id",), local="id"),
    _keyed("entity_aliases", ("namespace", "alias"), refs=(_ENTITY,)),
    TableSpec("entity_aspects", ("entity_id", "canonical_name"), ("id",), "id", (_ENTITY,)),
    TableSpec(
        "entity_attributes",
        ("entity_id", "memory_id", "content"),
        ("id",),
        "id",
        (_ENTITY, Ref("aspect_id", "entity_aspects")),
        memory_ids=("memory_id",),
    ),
    _keyed(
        "memory_entity_mentions",
        ("memory_id", "entity_id"),
        refs=(_ENTITY,),
        memory_ids=("memory_id",),
    ),
    _log(
        "relations",
        ("namespace", "source_entity_id", "target_entity_id", "relation_type", "valid_from"),
        refs=(Ref("source_entity_id", "entities"), Ref("target_entity_id", "entities")),
        kinds={"valid_from": "time", "valid_to": "time"},
        memory_ids=("source_memory_id",),
    ),
    _keyed(
        "relation_mentions",
        ("relation_id", "memory_id"),
        refs=(Ref("relation_id", "relations"),),
        scope="parent",
        parent=("relation_id", "relations", "id"),
        memory_ids=("memory_id",),
    ),
    _log(
        "review_queue",
        ("namespace", "memory_id", "action", "created_at"),
        kinds={"proposal": "json"},
    ),
    _keyed("palace_counters", ("namespace",)),
    TableSpec("palace_wings", ("namespace", "slug"), ("id",), local="id"),
    TableSpec(
        "palace_rooms", ("wing_id", "slug"), ("id",), "id", (Ref("wing_id", "palace_wings"),)
    ),
    TableSpec(
        "palace_closets", ("room_id", "slug"), ("id",), "id", (Ref("room_id", "palace_rooms"),)
    ),
    TableSpec(
        "palace_drawers",
        ("room_id", "number"),
        ("id",),
        "id",
        (Ref("room_id", "palace_rooms"),),
        kinds={"tags": "json"},
        memory_ids=("memory_id",),
    ),
    _keyed(
        "palace_closet_drawers",
        ("closet_id", "drawer_id"),
        refs=(Ref("closet_id", "palace_closets"), Ref("drawer_id", "palace_drawers")),
        scope="parent",
        parent=("closet_id", "palace_closets", "id"),
    ),
    _keyed(
        "palace_aliases",
        ("namespace", "level", "parent_id", "alias"),
        refs=(
            Ref("parent_id", by="level", tables=_PALACE_PARENT),
            Ref("target_id", by="level", tables=_PALACE_TARGET),
        ),
    ),
    _keyed("runs", ("namespace", "run_id"), kinds={"issues": "json", "metadata": "json"}),
    _keyed("run_memory_hits", ("namespace", "run_id", "memory_id")),
    _log(
        "erase_audit",
        ("namespace", "created_at"),
        kinds={"filters": "json", "whole_namespace": "bool"},
    ),
    _log(
        "session_checkpoints",
        ("namespace", "session_key", "created_at"),
        kinds={"memory_queries": "json", "recent_remembers": "json"},
    ),
    _keyed(
        "session_memories",
        ("namespace", "session_key", "memory_id"),
        kinds={"was_injected": "bool"},
    ),
    _keyed("session_scores", ("namespace", "session_key"), kinds={"per_memory": "json"}),
    _keyed("agent_profiles", ("agent_id",), scope="global"),
    TableSpec(
        "org_facts",
        ("fact_id", "version"),
        ("seq",),
        local="seq",
        refs=(Ref("supersedes", "org_facts"),),
        kinds={"tags": "json", "retracted": "bool"},
        scope="global",
    ),
    _keyed(
        "org_fact_vectors",
        ("seq", "model"),
        refs=(Ref("seq", "org_facts"),),
        kinds={"vector": "json"},
        scope="global",
    ),
    _log("org_audit", ("at", "action", "actor_id", "category"), scope="global"),
    _keyed("org_key_roles", ("key_id",), scope="global"),
    _keyed("core_blocks", ("namespace", "label"), kinds={"read_only": "bool"}, scanned=("value",)),
    _log("core_block_history", ("namespace", "label", "at")),
    _keyed("chat_settings", ("namespace",), kinds={"settings": "json"}),
    # Columns read from the schema: the lifecycle archive grows columns of its own.
    _keyed("memory_archive", ("archive_id",), kinds={"record": "json"}),
    _keyed("retention_overrides", ("namespace", "category")),
    _log(
        "maintenance_runs",
        ("kind", "mode", "started_at"),
        kinds={"recommendations": "json", "actions": "json", "report": "json"},
    ),
    _log("maintenance_actions", ("action", "executed_at"), scope="global"),
    _keyed("maintenance_halts", ("action",), scope="global"),
)

SPECS: dict[str, TableSpec] = {spec.name: spec for spec in TABLES}

#: Tables neither copied nor exported, and why (docs/storage.md shows this list).
SKIPPED: dict[str, str] = {
    "memories": "carried as memory bundles (store.transfer), not by a table spec",
    "memory_history": "carried inside memory bundles",
    "memory_feedback_log": "carried inside memory bundles",
    "memory_vectors": "carried inside memory bundles",
    "session_transcripts": "carried by store.transfer's transcript pages",
    "api_keys": "carried by store.keys' export (hashes only)",
    "memory_chunks": "chunk vectors of long memories: `engram reindex` embeds them again",
    "schema_migrations": "each store's own migration record",
    "schedule_leases": "which running process holds each server schedule now",
    "engram_meta": "SQLite cache epochs, moved by triggers",
    "fts_namespaces": "SQLite keyword index bookkeeping, rebuilt as memories are inserted",
    "fts_pending": "SQLite keyword index queue, emptied by every write",
    "fts_log": "SQLite keyword change log for the in-memory term index, pruned as it grows",
    "hint_namespaces": "SQLite hint index bookkeeping, rebuilt as hints are inserted",
    "hint_fts_pending": "SQLite hint index queue, emptied by every hint write",
    "vector_indexes": "PostgreSQL ANN index registry: indexes are built again on first use",
    "keyword_terms": "PostgreSQL keyword statistics per namespace, kept by triggers as memories "
    "and hints are inserted",
    "keyword_terms_pending": "PostgreSQL keyword statistics queue, emptied at each commit",
    "memory_search": "PostgreSQL keyword search's narrow copy of live memories, kept by a "
    "trigger as memories are written",
    "sqlite_sequence": "SQLite's AUTOINCREMENT counters",
}
