"""The SQLite store: durability settings, FTS sync, tombstones, audit history, vectors."""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from conftest import HashEmbedder
from engram import Config, InvalidInputError, Memory, NotFoundError, StoreClosedError
from engram.store import ListQuery, Store, VectorRow
from engram.store.sqlite import SQLiteStore, fts
from engram.text import normalize_content
from test_store_backends import add, kw, rec


@pytest.fixture
def store(tmp_path: Path) -> Iterator[SQLiteStore]:
    s = SQLiteStore(tmp_path / "store.db", busy_timeout_ms=1234)
    yield s
    s.close()


def set_content(store: Store, memory_id: str, content: str) -> None:
    """Change content at the store level, as ``Memory.update`` does, without re-embedding."""
    changes = {"content": content, "content_hash": normalize_content(content).content_hash}
    store.memories.update("default", memory_id, changes)


def raw(store: SQLiteStore, sql: str, *params: Any) -> list[tuple[Any, ...]]:
    conn = sqlite3.connect(store.location)
    try:
        return conn.execute(sql, params).fetchall()
    finally:
        conn.close()


# -- connection settings ---------------------------------------------------------------


def test_file_store_uses_wal_and_busy_timeout(store: SQLiteStore) -> None:
    conn = store._db.conn  # the store's own connection: settings are per connection
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert conn.execute("PRAGMA busy_timeout").fetchone()[0] == 1234
    assert conn.execute("PRAGMA foreign_keys").fetchone()[0] == 1
    # WAL is persistent: a fresh connection to the file sees it too
    assert raw(store, "PRAGMA journal_mode") == [("wal",)]


def test_memory_passes_configured_busy_timeout(tmp_path: Path) -> None:
    config = Config.load(env={}, home=str(tmp_path), busy_timeout_ms=777)
    with Memory(tmp_path / "m.db", config=config, embedder=None) as mem:
        assert isinstance(mem.store, SQLiteStore)
        assert mem.store._db.conn.execute("PRAGMA busy_timeout").fetchone()[0] == 777


def test_tilde_path_is_in_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.chdir(tmp_path)
    store = SQLiteStore("~/sub/engram.db")
    try:
        assert store.location == str(tmp_path / "sub" / "engram.db")
        add(store, "stored under the home directory")
    finally:
        store.close()
    assert (tmp_path / "sub" / "engram.db").is_file()
    assert not (tmp_path / "~").exists()


def test_two_writers_on_one_file(config: Config, tmp_path: Path) -> None:
    """WAL and the busy timeout let two connections write at once without 'locked'."""
    path = tmp_path / "shared.db"
    with (
        Memory(path, config=config, embedder=HashEmbedder()) as one,
        Memory(path, config=config, embedder=HashEmbedder()) as two,
    ):
        one.add("written before the other connection looked")

        def write(mem: Memory, who: str) -> None:
            for i in range(15):
                mem.add(f"{who} wrote note {i}")

        threads = [
            threading.Thread(target=write, args=(m, f"writer{k}"))
            for k, m in enumerate((one, two, one, two))
        ]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert one.store.memories.count("default") == two.store.memories.count("default") == 61
        # each sees the other's vectors: the derived index reloads when the epoch moves
        two_only = two.add("zebra crossing notes")
        top = one.recall("zebra crossing notes", strategy="dense").hits[0]
        assert top.id == two_only.id and top.breakdown.sim == pytest.approx(1.0, abs=1e-5)
        one.delete(two_only.id)
        assert two_only.id not in [h.id for h in two.recall("zebra crossing", limit=50).hits]


def test_closed_store_raises(tmp_path: Path) -> None:
    s = SQLiteStore(tmp_path / "c.db")
    s.close()
    s.close()  # idempotent
    assert s.closed
    with pytest.raises(StoreClosedError):
        s.memories.get("default", "x")
    with pytest.raises(StoreClosedError):
        s.memories.insert([rec("hello")])


# -- FTS index stays in sync -----------------------------------------------------------


def test_fts_finds_inserted_content(store: SQLiteStore) -> None:
    a = add(store, "The staging database is db-staging-2")
    add(store, "Alice likes green tea")
    assert kw(store, "staging database") == [a]
    assert kw(store, "databases") == [a]  # porter stemming


def test_fts_follows_content_update(store: SQLiteStore) -> None:
    a = add(store, "The deploy script lives in ops")
    new = "The release runbook lives in docs"
    store.memories.update(
        "default", a, {"content": new, "content_hash": normalize_content(new).content_hash}
    )
    assert kw(store, "runbook") == [a]
    assert kw(store, "deploy script") == []  # the old text is gone from the index
    # the FTS index agrees with a full rebuild check
    fts.integrity_check(store._db.conn)


def test_fts_follows_title_and_tags_update(store: SQLiteStore) -> None:
    a = add(store, "body text here", title="zebra")
    assert kw(store, "zebra") == [a]
    store.memories.update("default", a, {"title": "giraffe", "tags": ("savanna",)})
    assert kw(store, "zebra") == []
    assert kw(store, "giraffe") == [a]
    assert kw(store, "savanna") == [a]


def test_tombstone_leaves_every_read(store: SQLiteStore) -> None:
    keep = add(store, "keep this note about kites")
    gone = add(store, "drop this note about kites")
    deleted = store.memories.delete("default", gone)
    assert deleted.deleted
    assert kw(store, "kites") == [keep]
    assert store.memories.get("default", gone) is None
    assert store.memories.get("default", gone, include_deleted=True) is not None
    assert [r.id for r in store.memories.select("default", ListQuery())] == [keep]
    assert set(store.memories.get_many("default", [keep, gone])) == {keep}
    assert [r.id for r in store.memories.select("default", ListQuery(limit=10))] == [keep]
    assert store.memories.count("default") == 1
    assert store.memories.count("default", include_deleted=True) == 2
    listed = store.memories.select("default", ListQuery(include_deleted=True))
    assert {r.id for r in listed} == {keep, gone}
    with pytest.raises(NotFoundError):
        store.memories.delete("default", gone)  # already tombstoned
    with pytest.raises(NotFoundError):
        store.memories.update("default", gone, {"title": "x"})
    with pytest.raises(NotFoundError):
        store.feedback.record("default", gone, 1, None)
    fts.integrity_check(store._db.conn)


def test_tombstoned_never_recalled(mem: Memory) -> None:
    mem.add("Kites fly well in strong wind")
    gone = mem.add("Kites need a long string")
    mem.delete(gone.id)
    for mode in ("hybrid", "bm25", "dense"):
        hits = mem.recall("kites string wind", strategy=mode, limit=10).hits
        assert gone.id not in [h.id for h in hits], mode
        assert hits, mode


def test_purge_hard_deletes_with_history_feedback_and_vectors(mem: Memory) -> None:
    keep = mem.add("a memory that stays")
    gone = mem.add("a memory that goes")
    mem.feedback(gone.id, "up", "nice")
    mem.feedback(keep.id, "down")
    mem.delete(gone.id)
    store = mem.store
    assert mem.history(gone.id)  # a tombstone keeps its history...
    assert store.stats("test-hash").vectors == {"test-hash": 2}  # ...and its vector row
    assert mem.purge() == 1
    assert store.memories.get("default", gone.id, include_deleted=True) is None
    assert store.memories.history("default", gone.id) == []
    assert store.feedback.log("default", gone.id) == []
    assert store.stats("test-hash").vectors == {"test-hash": 1}
    assert store.stats("test-hash").tombstoned == 0
    with pytest.raises(NotFoundError):
        mem.history(gone.id)
    # the live memory keeps everything
    assert mem.get(keep.id).content == "a memory that stays"
    assert [e.event for e in mem.history(keep.id)] == ["create", "feedback"]
    assert [r["rating"] for r in store.feedback.log("default", keep.id)] == [-1]
    assert mem.purge() == 0


def test_purge_is_scoped_to_namespace(store: SQLiteStore) -> None:
    a = add(store, "same words", "ns-a")
    b = add(store, "same words", "ns-b")
    store.memories.delete("ns-a", a)
    store.memories.delete("ns-b", b)
    assert store.memories.purge("ns-a") == 1
    assert store.memories.get("ns-b", b, include_deleted=True) is not None
    assert store.memories.purge(None) == 1
    assert store.memories.get("ns-b", b, include_deleted=True) is None


# -- history ---------------------------------------------------------------------------


def test_history_records_every_event_with_before_and_after(store: SQLiteStore) -> None:
    first = rec("Deploys are frozen on Fridays", tags=["ops"])
    [created] = store.memories.insert([first])
    memory_id = created.record.id
    store.memories.insert([rec("deploys are   frozen on fridays!")])  # dedup
    new = "Deploys are frozen on Fridays after 3pm"
    set_content(store, memory_id, new)
    store.feedback.record("default", memory_id, 1, "useful")
    store.memories.delete("default", memory_id)

    entries = store.memories.history("default", memory_id)
    assert [e.event for e in entries] == ["create", "dedup", "update", "feedback", "delete"]
    create, dedup, update, feedback, delete = entries
    assert create.before is None
    assert create.after is not None and create.after["content"] == "Deploys are frozen on Fridays"
    assert dedup.reason == "identical content already stored"
    assert update.before is not None and update.after is not None
    assert update.before["content"] == "Deploys are frozen on Fridays"
    assert update.after["content"] == new
    assert feedback.before is not None and feedback.after is not None
    assert (feedback.before["quality"], feedback.after["quality"]) == (0, 1)
    assert feedback.reason == "useful"
    assert delete.before is not None and delete.after is not None
    assert delete.before["deleted_at"] is None and delete.after["deleted_at"] is not None
    assert [e.id for e in entries] == sorted(e.id for e in entries)
    assert all(e.memory_id == memory_id and e.namespace == "default" for e in entries)
    assert store.memories.history("other", memory_id) == []  # scoped by namespace


# -- dedup -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "variant",
    [
        "Alice likes green tea",
        "  Alice   likes\tgreen\ntea  ",
        "alice LIKES green tea",
        "Alice likes green tea.",
        "Alice likes green tea!?",
    ],
)
def test_duplicate_add_returns_existing(mem: Memory, variant: str) -> None:
    original = mem.add("Alice likes green tea")
    again = mem.add(variant)
    assert again.id == original.id
    assert again.content == "Alice likes green tea"  # the stored one, not the variant
    assert len(mem.get_all()) == 1
    assert [e.event for e in mem.history(original.id)] == ["create", "dedup"]


def test_near_duplicates_are_distinct(mem: Memory) -> None:
    a = mem.add("Alice likes green tea")
    b = mem.add("Alice likes green tea a lot")
    c = mem.add("Alice, likes green tea")  # inner punctuation is kept
    assert len({a.id, b.id, c.id}) == 3


def test_duplicate_within_one_batch(mem: Memory) -> None:
    out = mem.add_many(["Same thing", "same thing.", "Other thing"])
    assert out[0].id == out[1].id != out[2].id
    assert len(mem.get_all()) == 2


def test_same_content_other_namespace_is_separate(mem: Memory) -> None:
    a = mem.add("Alice likes green tea", user_id="a")
    b = mem.add("Alice likes green tea", user_id="b")
    assert a.id != b.id
    assert (a.namespace, b.namespace) == ("user:a", "user:b")
    assert [e.event for e in mem.history(a.id, user_id="a")] == ["create"]


def test_content_readded_after_delete_is_new(mem: Memory) -> None:
    a = mem.add("ephemeral fact")
    mem.delete(a.id)
    b = mem.add("ephemeral fact")
    assert b.id != a.id
    assert mem.get(b.id).content == "ephemeral fact"


def test_update_to_clashing_content_changes_nothing(mem: Memory) -> None:
    a = mem.add("first memory")
    b = mem.add("second memory")
    before_a, before_b = mem.get(a.id), mem.get(b.id)
    with pytest.raises(InvalidInputError, match=a.id):
        mem.update(b.id, "First   memory.")
    assert mem.get(a.id) == before_a
    assert mem.get(b.id) == before_b
    assert [e.event for e in mem.history(b.id)] == ["create"]
    assert [h.id for h in mem.recall("second", strategy="bm25").hits] == [b.id]


def test_update_to_own_variant_is_allowed(mem: Memory) -> None:
    a = mem.add("first memory")
    after = mem.update(a.id, "First memory.")
    assert after.content == "First memory."
    assert after.content_hash == a.content_hash


# -- vectors ---------------------------------------------------------------------------


def test_vectors_stored_as_float32_with_model_dim_and_hash(file_mem: Memory) -> None:
    record = file_mem.add("vectors are float32 blobs")
    store = file_mem.store
    assert isinstance(store, SQLiteStore)
    [(model, dim, content_hash, blob)] = raw(
        store, "SELECT model, dim, content_hash, vector FROM memory_vectors"
    )
    assert (model, dim, content_hash) == ("test-hash", 64, record.content_hash)
    assert len(blob) == 64 * 4
    vector = np.frombuffer(blob, dtype=np.float32)
    expected = HashEmbedder().embed_batch([record.embedding_text()])[0]
    np.testing.assert_array_equal(vector, expected)
    assert store.vectors.dimensions() == {"test-hash": 64}
    assert file_mem.get(record.id).embedding_model == "test-hash"


def test_put_vectors_upserts_one_row_per_memory(store: SQLiteStore) -> None:
    a = add(store, "one")
    h = normalize_content("one").content_hash
    epoch0 = store.vectors.epoch()
    e1 = store.vectors.put([VectorRow(a, "m", np.ones(8, np.float64), h)])
    e2 = store.vectors.put([VectorRow(a, "m", np.zeros(4, np.float32), h)])
    assert epoch0 < e1 < e2
    assert raw(store, "SELECT count(*), max(dim) FROM memory_vectors") == [(1, 4)]
    assert store.vectors.dimensions() == {"m": 4}
    loaded = store.vectors.load("default", "m")
    assert loaded.ids == [a] and loaded.matrix.dtype == np.float32
    assert loaded.matrix.shape == (1, 4)
    assert store.vectors.put([VectorRow("no-such-id", "m", np.ones(4, np.float32), h)]) == e2


def test_missing_vectors_tracks_stale_content(mem: Memory) -> None:
    a = mem.add("original wording")
    b = mem.add("untouched")
    store = mem.store
    assert store.vectors.missing("test-hash", limit=10) == []
    assert [r.id for r in store.vectors.missing("other-model", limit=10)] == [a.id, b.id]
    # change content behind the embedder's back: the vector is now stale
    new = "changed wording"
    store.memories.update(
        "default", a.id, {"content": new, "content_hash": normalize_content(new).content_hash}
    )
    assert [r.id for r in store.vectors.missing("test-hash", limit=10)] == [a.id]
    assert store.vectors.load("default", "test-hash").ids == [b.id]  # stale rows never load
    assert store.stats("test-hash").missing_vectors == 1
    assert mem.reindex() == 1
    assert store.vectors.missing("test-hash", limit=10) == []


def test_update_through_memory_reembeds(mem: Memory) -> None:
    a = mem.add("original wording")
    mem.update(a.id, "completely different words")
    assert mem.store.vectors.missing("test-hash", limit=10) == []
    hits = mem.recall("completely different", strategy="dense").hits
    assert hits[0].id == a.id
    assert hits[0].breakdown.sim == pytest.approx(
        float(
            HashEmbedder().embed_batch(["completely different"])[0]
            @ HashEmbedder().embed_batch(["completely different words"])[0]
        ),
        abs=1e-5,
    )


def test_tombstone_drops_vector_from_index(mem: Memory) -> None:
    a = mem.add("alpha beta gamma")
    b = mem.add("alpha beta delta")
    assert {h.id for h in mem.recall("alpha beta", strategy="dense").hits} == {a.id, b.id}
    mem.delete(a.id)
    assert [h.id for h in mem.recall("alpha beta", strategy="dense").hits] == [b.id]
    assert mem.store.vectors.load("default", "test-hash").ids == [b.id]


def test_list_memories_filters(store: SQLiteStore) -> None:
    a = add(store, "a", type="decision", tags=["ops", "x"], metadata={"src": "runbook", "n": 1})
    b = add(store, "b", type="fact", tags=["ops"], metadata={"src": "chat", "flag": True})
    c = add(store, "c", category="social", user_id="u", agent_id="g", run_id="r")

    def ids(**q: Any) -> list[str]:
        return [r.id for r in store.memories.select("default", ListQuery(**q))]

    assert ids() == [c, b, a]  # newest first
    assert ids(newest_first=False) == [a, b, c]
    assert ids(type="decision") == [a]
    assert ids(tags=("ops",)) == [b, a]
    assert ids(tags=("ops", "x")) == [a]
    assert ids(metadata={"src": "chat"}) == [b]
    assert ids(metadata={"n": 1}) == [a]
    assert ids(metadata={"flag": True}) == [b]
    assert ids(category="social", user_id="u", agent_id="g", run_id="r") == [c]
    assert ids(limit=1, offset=1) == [b]
    assert ids(limit=10, offset=3) == []


def test_keyword_statistics_stay_inside_a_namespace(store: SQLiteStore) -> None:
    """BM25's IDF comes from the namespace's own index: another namespace's words never
    change a namespace's scores (each has its own FTS5 table)."""
    for text in ("Caroline likes green tea", "Bob prefers coffee", "Caroline paints lakes"):
        add(store, text, namespace="b")
    before = store.keyword.search("b", '"caroline" OR "coffee"', 10)
    for i in range(40):
        add(store, f"Caroline note {i} about coffee", namespace="a")
    after = store.keyword.search("b", '"caroline" OR "coffee"', 10)
    assert after == before
    assert {i for i, _ in after} <= {r.id for r in store.memories.select("b", ListQuery())}
    fts.integrity_check(store._db.conn)
    assert store.keyword.search("nobody-here", '"caroline"', 10) == []


def test_common_terms_leave_the_match_when_a_rarer_one_remains(
    store: SQLiteStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    for i in range(30):
        add(store, f"Alice wrote note {i}")
    kites = {add(store, "Alice flew a red kite"), add(store, "the kite string snapped")}
    both = {i for i, _ in store.keyword.search("default", '"alice" OR "kite"', 100)}
    assert len(both) == 32
    monkeypatch.setattr(fts, "COMMON", 10)
    assert {i for i, _ in store.keyword.search("default", '"alice" OR "kite"', 100)} == kites
    # When every term is common, the rarest ones still answer.
    common_only = store.keyword.search("default", '"alice" OR "wrote" OR "note"', 100)
    assert len(common_only) == 30


def test_vectors_load_in_slices_keeps_every_row_in_order(
    store: SQLiteStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    from engram.store.sqlite import vectors as sqlite_vectors

    monkeypatch.setattr(sqlite_vectors, "_LOAD_SLICE", 3)  # 10 rows: slices of 3, 3, 3, 1
    ids = [add(store, f"memory number {i}") for i in range(10)]
    rows = [
        VectorRow(
            i, "m", np.full(4, n, np.float32), normalize_content(f"memory number {n}").content_hash
        )
        for n, i in enumerate(ids)
    ]
    store.vectors.put(rows)
    loaded = store.vectors.load("default", "m")
    assert loaded.ids == ids
    np.testing.assert_array_equal(loaded.matrix[:, 0], np.arange(10, dtype=np.float32))
    assert loaded.matrix.shape == (10, 4) and loaded.matrix.flags.writeable


def test_rows_read_back_their_json_lists_and_metadata_whole_or_empty(store: SQLiteStore) -> None:
    """A row's empty facts, tags and metadata (``[]``, ``{}``) are read without the JSON
    parser: the same empty tuples, and a dict of each record's own."""
    plain = [add(store, f"a plain memory {i}") for i in range(2)]
    full = add(
        store,
        "a memory with everything",
        tags=("x", "y"),
        facts=("it rained",),
        metadata={"k": [1, "v"], "n": None},
    )
    got = store.memories.get_many("default", [*plain, full])
    one, two = (got[i] for i in plain)
    assert one.tags == () and one.facts == () and one.metadata == {}
    assert one.metadata is not two.metadata  # a caller may change one record's dict
    one.metadata["changed"] = True
    assert store.memories.get_many("default", [plain[0]])[plain[0]].metadata == {}
    assert got[full].tags == ("x", "y") and got[full].facts == ("it rained",)
    assert got[full].metadata == {"k": [1, "v"], "n": None}
    rows = raw(store, "SELECT tags, facts, metadata FROM memories WHERE id = ?", plain[0])
    assert rows == [("[]", "[]", "{}")]  # what the shortcut reads without parsing
