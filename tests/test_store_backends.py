"""The Store protocol's semantics, checked on every backend (SQLite and PostgreSQL).

One suite, two engines: each test takes ``any_store`` (or ``mem``), which conftest
parametrizes over the backends, so a difference between them fails here.
"""

from __future__ import annotations

import inspect
from typing import Any, get_type_hints

import numpy as np
import pytest

from engram import InvalidInputError, Memory, NotFoundError, StoreClosedError
from engram.records import MemoryRecord
from engram.store import ListQuery, Store, VectorRow
from engram.store.sql.session import SqlPart
from engram.text import fts_query, normalize_content
from engram.validate import build_record


def rec(content: str, namespace: str = "default", **fields: Any) -> MemoryRecord:
    return build_record(content, namespace=namespace, max_chars=100_000, **fields)


def add(store: Store, content: str, namespace: str = "default", **fields: Any) -> str:
    [result] = store.memories.insert([rec(content, namespace, **fields)])
    return result.record.id


def kw(store: Store, text: str, namespace: str = "default") -> list[str]:
    match = fts_query(text)
    assert match is not None
    return [memory_id for memory_id, _ in store.keyword.search(namespace, match, 50)]


def vec(*values: float) -> np.ndarray:
    v = np.asarray(values, dtype=np.float32)
    return v / np.linalg.norm(v)


def test_round_trip_keeps_every_field(any_store: Store) -> None:
    record = rec(
        "Ünïcode content — with 'quotes' and \"doubles\"",
        title="A title",
        narrative="the story",
        facts=["fact one", "fact two"],
        tags=["b", "a"],
        importance=0.25,
        score=7.5,
        confidence=0.1 + 0.2,
        user_id="u1",
        metadata={"z": 1, "a": [1.5, {"k": None}], "big": 10**18, "t": True},
    )
    [result] = any_store.memories.insert([record])
    assert result.created
    assert any_store.memories.get("default", record.id) == record
    assert list(any_store.memories.get("default", record.id).metadata) == ["z", "a", "big", "t"]  # type: ignore[union-attr]


def test_dedup_returns_existing_and_audits(any_store: Store) -> None:
    first = add(any_store, "Alice likes green tea.")
    results = any_store.memories.insert([rec("alice   LIKES green tea"), rec("something else")])
    assert [r.created for r in results] == [False, True]
    assert results[0].record.id == first
    events = [h.event for h in any_store.memories.history("default", first)]
    assert events == ["create", "dedup"]
    assert any_store.memories.count("default") == 2


def test_duplicates_within_one_batch(any_store: Store) -> None:
    results = any_store.memories.insert([rec("same text"), rec("Same text!"), rec("other")])
    assert [r.created for r in results] == [True, False, True]
    assert results[1].record.id == results[0].record.id


def test_a_batch_that_repeats_itself_keeps_its_order_and_its_index(any_store: Store) -> None:
    # SQLite writes a batch's new rows in runs (``executemany``) cut at each repeat.
    texts = ["otter one", "badger two", "Otter one!", "heron three", "badger two", "vole four"]
    results = any_store.memories.insert([rec(t) for t in texts])
    assert [r.created for r in results] == [True, True, False, True, False, True]
    assert results[2].record.id == results[0].record.id
    assert results[4].record.id == results[1].record.id
    listed = any_store.memories.select("default", ListQuery(limit=10))
    assert sorted(r.content for r in listed) == [
        "badger two",
        "heron three",
        "otter one",
        "vole four",
    ]
    for word, at in (("otter", 0), ("badger", 1), ("heron", 3), ("vole", 5)):
        assert kw(any_store, word) == [results[at].record.id]
    events = [h.event for h in any_store.memories.history("default", results[1].record.id)]
    assert events == ["create", "dedup"]


def test_keyword_search_ranks_title_and_follows_updates(any_store: Store) -> None:
    body = add(any_store, "the garden has tomatoes and basil")
    titled = add(any_store, "notes from saturday", title="tomatoes")
    assert set(kw(any_store, "tomatoes")) == {body, titled}
    assert kw(any_store, "tomatoes")[0] == titled  # title weighs twice the body
    any_store.memories.update("default", body, {"content": "the garden has peppers"})
    assert kw(any_store, "tomatoes") == [titled]
    assert kw(any_store, "peppers") == [body]
    any_store.memories.update("default", titled, {"tags": ("harvest",)})
    assert kw(any_store, "harvest") == [titled]


@pytest.mark.parametrize(
    "query",
    [
        'NEAR("x" "y") AND OR NOT * ^ -',
        "'); DROP TABLE memories; --",
        "a & b | !c <-> d :* \\",
        '"unterminated',
        "café",
    ],
)
def test_keyword_search_survives_hostile_queries(any_store: Store, query: str) -> None:
    memory_id = add(any_store, "a note about the cafe near the river")
    match = fts_query(query)
    if match is None:
        return
    found = [i for i, _ in any_store.keyword.search("default", match, 10)]
    assert found in ([], [memory_id])
    assert any_store.memories.count("default") == 1


def test_keyword_search_folds_diacritics_and_splits_punctuation(any_store: Store) -> None:
    memory_id = add(any_store, "Mail bob@example.com about the Café opening, re-scheduled")
    for query in ("cafe", "example", "scheduled", "CAFÉ"):
        assert kw(any_store, query) == [memory_id], query


def test_keyword_scores_are_non_negative_and_ordered(any_store: Store) -> None:
    add(any_store, "python python python tips")
    add(any_store, "a python note about snakes and many other words in a long sentence")
    match = fts_query("python")
    assert match is not None
    scores = [s for _, s in any_store.keyword.search("default", match, 10)]
    assert len(scores) == 2 and all(s > 0 for s in scores)
    assert scores == sorted(scores, reverse=True)


def test_tombstones_leave_reads_but_keep_history(any_store: Store) -> None:
    memory_id = add(any_store, "secret plan")
    any_store.memories.delete("default", memory_id)
    assert any_store.memories.get("default", memory_id) is None
    assert any_store.memories.get("default", memory_id, include_deleted=True) is not None
    assert kw(any_store, "secret") == []
    assert any_store.memories.count("default") == 0 and any_store.memories.count(
        "default", include_deleted=True
    )
    assert [h.event for h in any_store.memories.history("default", memory_id)] == [
        "create",
        "delete",
    ]
    with pytest.raises(NotFoundError):
        any_store.memories.delete("default", memory_id)
    # the same content may come back as a new memory
    assert add(any_store, "secret plan") != memory_id


def test_history_has_before_and_after(any_store: Store) -> None:
    memory_id = add(any_store, "v1")
    before, after = any_store.memories.update("default", memory_id, {"content": "v2"}, actor="me")
    entry = any_store.memories.history("default", memory_id)[-1]
    assert entry.event == "update" and entry.actor == "me"
    assert entry.before is not None and entry.before["content"] == "v1"
    assert entry.after is not None and entry.after["content"] == "v2"
    assert before.content == "v1" and after.content == "v2"


def test_update_refuses_clashing_content(any_store: Store) -> None:
    a = add(any_store, "first")
    add(any_store, "second")
    with pytest.raises(InvalidInputError):
        any_store.memories.update(
            "default",
            a,
            {"content": "second", "content_hash": normalize_content("second").content_hash},
        )
    with pytest.raises(InvalidInputError):
        any_store.memories.update("default", a, {"namespace": "other"})


def test_feedback_clamps_and_logs(any_store: Store) -> None:
    memory_id = add(any_store, "rate me")
    for _ in range(5):
        _, after = any_store.feedback.record("default", memory_id, 1, "good")
    assert after.quality == 3
    log = any_store.feedback.log("default", memory_id)
    assert [r["rating"] for r in log] == [1] * 5
    assert isinstance(log[0]["created_at"], str) and log[0]["comment"] == "good"
    assert any_store.feedback.log("other") == []


def test_namespaces_are_isolated(any_store: Store) -> None:
    a = add(any_store, "shared words", "ns-a")
    b = add(any_store, "shared words", "ns-b")
    assert a != b
    assert kw(any_store, "shared", "ns-a") == [a]
    assert any_store.memories.get("ns-b", a) is None
    assert any_store.memories.get_many("ns-a", [a, b]) == {a: any_store.memories.get("ns-a", a)}
    with pytest.raises(NotFoundError):
        any_store.memories.update("ns-b", a, {"title": "x"})
    assert any_store.memories.namespaces() == {"ns-a": 1, "ns-b": 1}
    any_store.memories.delete("ns-a", a)
    assert any_store.memories.purge("ns-b") == 0
    assert any_store.memories.purge("ns-a") == 1
    assert any_store.memories.history("ns-a", a) == []


def test_list_memories_filters(any_store: Store) -> None:
    a = add(any_store, "one", tags=["x", "y"], metadata={"k": "v", "n": 2, "b": True})
    b = add(any_store, "two", tags=["y"], metadata={"k": "w", "n": 2.0, "b": 1})
    c = add(any_store, "three", type="decision", metadata={"k": None})

    def ids(**q: Any) -> set[str]:
        return {r.id for r in any_store.memories.select("default", ListQuery(**q))}

    assert ids(tags=("y",)) == {a, b}
    assert ids(tags=("x", "y")) == {a}
    assert ids(type="decision") == {c}
    assert ids(metadata={"k": "v"}) == {a}
    assert ids(metadata={"n": 2}) == {a, b}
    assert ids(metadata={"b": True}) == {a, b}  # SQLite's json_extract: true IS 1
    assert ids(metadata={"k": None}) == {c}
    assert ids(metadata={"missing": None}) == {a, b, c}
    newest = any_store.memories.select("default", ListQuery(limit=2))
    assert [r.id for r in newest] == [c, b]
    oldest = any_store.memories.select("default", ListQuery(limit=1, offset=1, newest_first=False))
    assert [r.id for r in oldest] == [b]


def test_vectors_epoch_and_staleness(any_store: Store) -> None:
    a = add(any_store, "alpha")
    b = add(any_store, "beta")
    ra = any_store.memories.get("default", a)
    rb = any_store.memories.get("default", b)
    assert ra is not None and rb is not None
    epoch0 = any_store.vectors.epoch()
    epoch = any_store.vectors.put(
        [
            VectorRow(a, "m", vec(1, 0, 0), ra.content_hash),
            VectorRow(b, "m", vec(0, 1, 0), rb.content_hash),
        ]
    )
    assert epoch == epoch0 + 2 == any_store.vectors.epoch()
    assert any_store.vectors.dimensions() == {"m": 3}
    loaded = any_store.vectors.load("default", "m")
    assert loaded.ids == [a, b] and loaded.matrix.shape == (2, 3)
    assert loaded.matrix.dtype == np.float32
    np.testing.assert_array_equal(loaded.matrix[0], vec(1, 0, 0))
    assert any_store.vectors.missing("m", limit=10) == []
    changed = {
        "content": "alpha changed",
        "content_hash": normalize_content("alpha changed").content_hash,
    }
    any_store.memories.update("default", a, changed)
    assert any_store.vectors.epoch() == epoch + 1
    assert [r.id for r in any_store.vectors.missing("m", limit=10)] == [a]
    assert any_store.vectors.load("default", "m").ids == [b]
    any_store.memories.delete("default", b)
    assert any_store.vectors.load("default", "m").ids == []
    assert any_store.stats("m").missing_vectors == 1
    assert any_store.vectors.delete("m") == 2
    assert any_store.vectors.dimensions() == {}


def test_vector_search_is_exact_and_namespaced(any_store: Store) -> None:
    ids = [add(any_store, f"memory {i}") for i in range(6)]
    other = add(any_store, "memory 0", "elsewhere")
    rows = []
    for i, memory_id in enumerate(ids):
        record = any_store.memories.get("default", memory_id)
        assert record is not None
        rows.append(VectorRow(memory_id, "m", vec(1, i, 0), record.content_hash))
    record = any_store.memories.get("elsewhere", other)
    assert record is not None
    rows.append(VectorRow(other, "m", vec(1, 0, 0), record.content_hash))
    any_store.vectors.put(rows)
    search = any_store.vectors.index("m", 3)
    found = search.search("default", vec(1, 0, 0), 3)
    assert [i for i, _ in found] == ids[:3]
    assert found[0][1] == pytest.approx(1.0, abs=1e-6)
    assert other not in dict(search.search("default", vec(1, 0, 0), 100))
    scores = search.scores("default", vec(1, 0, 0), [ids[1], other, "nope"])
    assert set(scores) == {ids[1]}
    assert scores[ids[1]] == pytest.approx(float(vec(1, 1, 0) @ vec(1, 0, 0)), abs=1e-6)
    any_store.memories.delete("default", ids[0])
    search.removed("default", ids[0])
    assert ids[0] not in dict(search.search("default", vec(1, 0, 0), 10))


def test_transcripts_and_api_keys(any_store: Store) -> None:
    from engram.records import ApiKey

    assert any_store.transcripts.put("default", "s1", "raw text", agent_id="a")
    assert not any_store.transcripts.put("default", "s1", "other text")
    assert any_store.transcripts.get("default", ["s1", "s2"]) == {"s1": "raw text"}
    assert any_store.transcripts.get("other", ["s1"]) == {}
    key = ApiKey(id="k1", user="alice")
    any_store.keys.add(key, "h" * 64)
    assert any_store.keys.find("h" * 64) == key
    assert any_store.keys.export() == [(key, "h" * 64)]
    revoked = any_store.keys.revoke("k1")
    assert revoked.revoked and any_store.keys.find("h" * 64) is None
    with pytest.raises(NotFoundError):
        any_store.keys.revoke("nope")


def test_closed_store_raises(any_store: Store) -> None:
    any_store.close()
    any_store.close()
    with pytest.raises(StoreClosedError):
        any_store.memories.get("default", "x")


def test_recall_is_the_same_on_both_backends(mem: Memory) -> None:
    mem.add_many(
        [
            "Alice adopted a grey cat named Pixel in March",
            "Bob prefers tea over coffee in the morning",
            "The team decided to use PostgreSQL for the production store",
            "Pixel the cat likes sleeping on the keyboard",
        ]
    )
    result = mem.recall("what is the name of Alice's cat?", limit=2)
    assert result.mode.value == "hybrid"
    assert "Pixel" in result.hits[0].memory.content
    keyword = mem.recall("PostgreSQL production", strategy="bm25", limit=1)
    assert keyword.hits[0].breakdown.bm25 == 1.0  # normalised by the best keyword score


def test_select_by_id_prefix(any_store: Store) -> None:
    a = add(any_store, "first memory about the prefix")
    b = add(any_store, "second memory about the prefix")
    add(any_store, "elsewhere", namespace="other")
    assert [r.id for r in any_store.memories.select("default", ListQuery(id_prefix=a))] == [a]
    common = 0
    while a[: common + 1] == b[: common + 1]:
        common += 1
    both = any_store.memories.select("default", ListQuery(id_prefix=a[:common]))
    assert {r.id for r in both} == {a, b}
    assert any_store.memories.select("other", ListQuery(id_prefix=a)) == []  # namespaced
    assert any_store.memories.select("default", ListQuery(id_prefix="zz")) == []


def test_each_shared_part_is_its_protocol(any_store: Store) -> None:
    """A part written once in ``engram.store.sql`` subclasses its protocol, so the
    contract's docstrings are the part's (``help``, ``inspect.getdoc``) without a copy,
    and each verb is the part's own, never the protocol's empty body."""
    shared = set()
    for name, member in vars(Store).items():
        if not isinstance(member, property):
            continue
        part = type(getattr(any_store, name))
        if not issubclass(part, SqlPart):
            continue  # a native part (keyword, vectors): the engine's own class
        shared.add(part)
        contract = get_type_hints(member.fget)["return"]
        assert contract in part.__mro__, f"{part.__name__} does not subclass {contract.__name__}"
        # its own line, or help() would show the one of ``SqlPart``, the first base
        assert vars(part).get("__doc__"), f"{part.__name__} has no class docstring"
        for verb, body in inspect.getmembers(contract, inspect.isfunction):
            if verb.startswith("_"):
                continue
            assert getattr(part, verb) is not body, f"{part.__name__}.{verb} is not written"
            assert inspect.getdoc(getattr(part, verb)) == inspect.getdoc(body)
    # every shared part is reached (SQLite's memories part is a subclass of the shared one)
    assert set(SqlPart.__subclasses__()) <= {base for part in shared for base in part.__mro__}
