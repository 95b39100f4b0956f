"""The library API: every verb, every documented keyword, and every way to call it wrong."""

from __future__ import annotations

import asyncio
import inspect
import re
from collections.abc import Callable, Iterable, Sequence
from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path
from typing import Any

import pytest

from conftest import FailingEmbedder, HashEmbedder
from engram import (
    AsyncMemory,
    Config,
    ContentTooLargeError,
    DimensionMismatchError,
    EmbeddingError,
    EmptyContentError,
    EngramError,
    InvalidInputError,
    Memory,
    MemoryCategory,
    MemoryRecord,
    MemoryType,
    NotFoundError,
    StoreClosedError,
    write,
)
from engram.store import InsertResult, VectorRow
from engram.store.sql.memories import SqlMemories
from engram.store.sql.session import Sql
from engram.store.sqlite import SQLiteStore
from engram.store.sqlite.db import Database
from engram.store.sqlite.vectors import SQLiteVectors

DOCS = Path(__file__).resolve().parents[1] / "docs" / "library.md"


# -- add -------------------------------------------------------------------------------


def test_add_with_every_documented_keyword(mem: Memory) -> None:
    record = mem.add(
        "Deploys are frozen on Fridays after 3pm",
        user_id="alice",
        agent_id="planner",
        run_id="r42",
        metadata={"source": "runbook", "page": 3, "nested": {"ok": [1, 2]}},
        tags=["ops", "policy", "ops"],
        type="decision",
        category="procedural",
        importance=0.8,
        score=9.1,
        created_at="2024-05-08T13:56:00Z",
        title="Deploy freeze",
        narrative="The team froze Friday deploys",
        facts=["no deploys after 3pm Friday"],
        confidence=0.9,
        session_id="s1",
        who="alice",
        why="incident 123",
    )
    stored = mem.get(record.id, user_id="alice")
    assert stored == record
    assert stored.namespace == "user:alice"
    assert stored.content == "Deploys are frozen on Fridays after 3pm"
    assert stored.metadata == {"source": "runbook", "page": 3, "nested": {"ok": [1, 2]}}
    assert stored.tags == ("ops", "policy")  # deduplicated, in order
    assert stored.type is MemoryType.DECISION
    assert stored.category is MemoryCategory.PROCEDURAL
    assert (stored.importance, stored.score, stored.confidence) == (0.8, 9.1, 0.9)
    assert stored.created_at == datetime(2024, 5, 8, 13, 56, tzinfo=UTC)
    assert stored.updated_at == stored.created_at
    assert (stored.title, stored.narrative, stored.facts) == (
        "Deploy freeze",
        "The team froze Friday deploys",
        ("no deploys after 3pm Friday",),
    )
    assert (stored.agent_id, stored.run_id, stored.session_id) == ("planner", "r42", "s1")
    assert (stored.who, stored.why, stored.quality) == ("alice", "incident 123", 0)
    assert stored.deleted_at is None and not stored.deleted
    assert len(stored.id) == 32 and len(stored.content_hash) == 64


def test_add_defaults(mem: Memory) -> None:
    before = datetime.now(UTC)
    record = mem.add("plain text")
    assert record.namespace == "default"
    assert record.type is MemoryType.FACT
    assert record.category is None and record.tags == () and record.metadata == {}
    assert record.score is None and record.importance is None and record.quality == 0
    assert before <= record.created_at <= datetime.now(UTC)


@pytest.mark.parametrize(
    "created_at",
    [
        datetime(2024, 5, 8, 13, 56, tzinfo=UTC),
        datetime(2024, 5, 8, 13, 56),  # naive means UTC
        datetime(2024, 5, 8, 15, 56, tzinfo=timezone(timedelta(hours=2))),
        "2024-05-08T13:56:00+00:00",
        "2024-05-08T15:56:00+02:00",
        "2024-05-08 13:56:00",
    ],
)
def test_created_at_forms(mem: Memory, created_at: datetime | str) -> None:
    record = mem.add("imported history", created_at=created_at)
    assert mem.get(record.id).created_at == datetime(2024, 5, 8, 13, 56, tzinfo=UTC)
    assert mem.get(record.id).created_at.tzinfo is not None


def test_imported_history_sorts_by_its_own_date(mem: Memory) -> None:
    old = mem.add("from 2020", created_at="2020-01-01T00:00:00Z")
    new = mem.add("from today")
    older = mem.add("from 2010", created_at=datetime(2010, 1, 1, tzinfo=UTC))
    assert [r.id for r in mem.get_all()] == [new.id, old.id, older.id]


def test_messages_become_one_message_memory(mem: Memory) -> None:
    record = mem.add(
        [
            {"role": "user", "content": "I like  tea"},
            {"role": "assistant", "content": "Noted, tea it is."},
        ],
        user_id="alice",
    )
    assert record.type is MemoryType.MESSAGE
    # one "role: content" line per message, each message's text exactly as given
    assert record.content == "user: I like  tea\nassistant: Noted, tea it is."
    assert mem.get(record.id, user_id="alice") == record
    explicit = mem.add([{"role": "user", "content": "hello"}], type="observation")
    assert explicit.type is MemoryType.OBSERVATION


# -- add_many --------------------------------------------------------------------------


class CountingMemories(SqlMemories):
    """The memories part of a real SQLite store, counting write transactions."""

    def __init__(self, sql: Sql) -> None:
        super().__init__(sql)
        self.sizes: list[int] = []

    def insert(
        self, records: Sequence[MemoryRecord], *, actor: str | None = None
    ) -> list[InsertResult]:
        self.sizes.append(len(records))
        return super().insert(records, actor=actor)


class CountingVectors(SQLiteVectors):
    """The vectors part of a real SQLite store, counting write transactions."""

    def __init__(self, db: Database) -> None:
        super().__init__(db)
        self.sizes: list[int] = []

    def put(self, rows: Iterable[VectorRow]) -> int:
        rows = list(rows)
        self.sizes.append(len(rows))
        return super().put(rows)


class CountingStore(SQLiteStore):
    """A real SQLite store that counts write transactions (the ``store=`` seam)."""

    def __init__(self, path: str = ":memory:") -> None:
        super().__init__(path)
        self.memories = CountingMemories(self._sql)
        self.vectors = CountingVectors(self._db)
        self.inserts = self.memories.sizes
        self.vector_writes = self.vectors.sizes


def test_add_many_batches(config: Config, monkeypatch: pytest.MonkeyPatch) -> None:
    # add_many commits write.BATCH (256) records per transaction and embeds
    # write.EMBED_GROUP (2048) per call. Both are shrunk 32-fold here so that 85 items
    # cross the same boundaries 2,600 would (ten full transactions and a partial one,
    # a full group and a partial one) in a thirtieth of the time.
    assert (write.BATCH, write.EMBED_GROUP) == (256, 2048)
    monkeypatch.setattr(write, "BATCH", 8)
    monkeypatch.setattr(write, "EMBED_GROUP", 64)
    store = CountingStore()
    embedder = HashEmbedder()
    progress: list[tuple[int, int]] = []
    with Memory(config=config, store=store, embedder=embedder) as mem:
        items: list[str | dict[str, Any]] = [f"imported memory number {i}" for i in range(84)]
        items.append({"content": "a dict item", "tags": ["x"], "user_id": "bob"})
        out = mem.add_many(items, progress=lambda done, total: progress.append((done, total)))
        assert len(out) == 85
        # Transactions of BATCH; then each group of EMBED_GROUP is embedded in one call
        # and its vectors written in one transaction.
        assert store.inserts == [8] * 10 + [5]
        assert store.vector_writes == [64, 21]
        assert embedder.calls == 2
        assert progress == [(64, 85), (85, 85)]
        assert mem.store.memories.count("default") == 84
        assert mem.get(out[-1].id, user_id="bob").tags == ("x",)
        assert [r.content for r in out[:2]] == [
            "imported memory number 0",
            "imported memory number 1",
        ]
        assert mem.add_many([]) == []


@pytest.mark.parametrize(
    ("bad", "error", "message"),
    [
        ("   ", EmptyContentError, "item 3: content is empty"),
        (42, InvalidInputError, "item 3 must be a string or a dict"),
        ({"content": "x", "tags": "ops"}, InvalidInputError, "item 3: tags must be a list"),
        (
            {"content": "x", "colour": "red"},
            InvalidInputError,
            "item 3: unknown field(s) colour",
        ),
        ({"tags": ["x"]}, InvalidInputError, "item 3: content is missing"),
    ],
)
def test_add_many_one_bad_item_stores_nothing(
    config: Config, bad: object, error: type[EngramError], message: str
) -> None:
    store = CountingStore()
    with Memory(config=config, store=store, embedder=HashEmbedder()) as mem:
        mem.add("already here")
        items = ["one", "two", "three", bad, "five"]
        with pytest.raises(error) as info:
            mem.add_many(items)
        assert message in str(info.value)
        assert type(info.value) is error
        assert [r.content for r in mem.get_all()] == ["already here"]
        assert store.inserts == [1]  # the bad batch never reached the store


# -- reads -----------------------------------------------------------------------------


def test_get_all_pagination(mem: Memory) -> None:
    base = datetime(2024, 1, 1, tzinfo=UTC)
    added = [mem.add(f"memory {i}", created_at=base + timedelta(hours=i)) for i in range(25)]
    newest_first = [r.id for r in reversed(added)]
    pages = [mem.get_all(limit=10, offset=o) for o in (0, 10, 20, 30)]
    assert [len(p) for p in pages] == [10, 10, 5, 0]
    assert [r.id for p in pages for r in p] == newest_first
    assert [r.id for r in mem.get_all()] == newest_first  # default limit 100
    assert len(mem.get_all(limit=3)) == 3


def test_get_all_filters(mem: Memory) -> None:
    a = mem.add("a", type="decision", tags=["ops", "db"], metadata={"source": "runbook"})
    b = mem.add("b", type="preference", tags=["ops"], metadata={"source": "chat", "n": 1})
    c = mem.add("c", category="social", session_id="s1", metadata={"flag": True})

    def ids(**kwargs: Any) -> set[str]:
        return {r.id for r in mem.get_all(**kwargs)}

    assert ids(filters={"type": "decision"}) == {a.id}
    assert ids(filters={"tags": ["ops"]}) == {a.id, b.id}
    assert ids(filters={"tags": "db"}) == {a.id}
    assert ids(filters={"tags": ["ops", "db"]}) == {a.id}
    assert ids(filters={"metadata.source": "chat"}) == {b.id}
    assert ids(filters={"metadata.source": "chat", "metadata.n": 1}) == {b.id}
    assert ids(filters={"metadata": {"flag": True}}) == {c.id}
    assert ids(filters={"category": "social", "session_id": "s1"}) == {c.id}
    assert ids(filters={"type": MemoryType.DECISION}) == {a.id}
    # get_all filters in SQL, one value per key; a list used to match nothing, silently
    for key in ("type", "metadata.source"):
        with pytest.raises(InvalidInputError, match="one string or number"):
            mem.get_all(filters={key: ["decision", "preference"]})
        with pytest.raises(InvalidInputError, match=r"operator\(s\) 'x'.*\$eq, \$in"):
            mem.get_all(filters={key: {"x": 1}})
    assert ids(filters={"metadata.source": "nowhere"}) == set()
    assert ids(filters={"type": "decision", "metadata.source": "chat"}) == set()


def test_update_keeps_history(mem: Memory) -> None:
    record = mem.add("Deploys are frozen on Fridays after 3pm", tags=["ops"])
    after = mem.update(record.id, "Deploys are frozen on Fridays after 2pm")
    assert after.id == record.id and after.content.endswith("2pm")
    assert after.content_hash != record.content_hash
    assert after.updated_at > record.updated_at and after.created_at == record.created_at
    tagged = mem.update(record.id, tags=["ops", "policy"], score=8.0, title="Freeze")
    assert tagged.content == after.content and tagged.tags == ("ops", "policy")
    assert mem.get(record.id) == tagged
    history = mem.history(record.id)
    assert [e.event for e in history] == ["create", "update", "update"]
    assert history[1].before is not None and history[1].after is not None
    assert history[1].before["content"] == "Deploys are frozen on Fridays after 3pm"
    assert history[1].after["content"] == "Deploys are frozen on Fridays after 2pm"
    assert history[2].before is not None and history[2].before["tags"] == ["ops"]
    assert history[2].after is not None and history[2].after["tags"] == ["ops", "policy"]
    assert [h.id for h in mem.recall("2pm", strategy="bm25").hits] == [record.id]
    assert mem.recall("3pm", strategy="bm25").hits == ()


def test_delete_tombstones(mem: Memory) -> None:
    keep = mem.add("keep me")
    record = mem.add("forget me")
    deleted = mem.delete(record.id)
    assert deleted.deleted and deleted.id == record.id
    with pytest.raises(NotFoundError, match="forget|no memory"):
        mem.get(record.id)
    assert [r.id for r in mem.get_all()] == [keep.id]
    assert {r.id for r in mem.get_all(include_deleted=True)} == {keep.id, record.id}
    assert [e.event for e in mem.history(record.id)] == ["create", "delete"]
    assert record.id not in [h.id for h in mem.search("forget me")]
    # deleting it again changes nothing and returns the tombstone (issue 26 item 19)
    again = mem.delete(record.id)
    assert again.id == record.id and again.deleted_at == deleted.deleted_at
    assert [e.event for e in mem.history(record.id)] == ["create", "delete"]
    with pytest.raises(NotFoundError):
        mem.delete("no-such-memory")


def test_feedback_clamps_and_logs(mem: Memory) -> None:
    record = mem.add("a helpful memory")
    qualities = [mem.feedback(record.id, "up").quality for _ in range(5)]
    assert qualities == [1, 2, 3, 3, 3]
    assert mem.feedback(record.id, -1, "less so").quality == 2
    for _ in range(8):
        mem.feedback(record.id, "down")
    assert mem.get(record.id).quality == -3
    for up in (1, "+1", "+", "👍"):
        mem.feedback(record.id, up)
    assert mem.get(record.id).quality == 1
    log = mem.feedback_log()
    assert len(log) == 5 + 1 + 8 + 4
    assert [row["rating"] for row in log[:6]] == [1, 1, 1, 1, 1, -1]
    assert log[5]["comment"] == "less so" and log[5]["memory_id"] == record.id
    events = [e.event for e in mem.history(record.id)]
    assert events == ["create"] + ["feedback"] * 18


def test_get_strips_id_whitespace(mem: Memory) -> None:
    record = mem.add("x marks the spot")
    assert mem.get(f"  {record.id}\n").id == record.id


# -- namespaces ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("kwargs", "namespace"),
    [
        ({}, "default"),
        ({"namespace": "team-x"}, "team-x"),
        ({"namespace": "team-x", "user_id": "alice"}, "team-x"),  # explicit always wins
        ({"user_id": "alice"}, "user:alice"),
        ({"user_id": "alice", "agent_id": "planner", "run_id": "r1"}, "user:alice"),
        ({"agent_id": "planner"}, "agent:planner"),
        ({"agent_id": "planner", "run_id": "r1"}, "agent:planner"),
        ({"run_id": "r42"}, "run:r42"),
    ],
)
def test_namespace_rule(mem: Memory, kwargs: dict[str, str], namespace: str) -> None:
    record = mem.add("whose memory is this", **kwargs)
    assert record.namespace == namespace
    assert mem.get(record.id, namespace=namespace) == record
    assert mem.get(record.id, **kwargs) == record
    for key in ("user_id", "agent_id", "run_id"):
        assert getattr(record, key) == kwargs.get(key)


def test_default_namespace_from_config(config: Config) -> None:
    cfg = config.with_overrides(default_namespace="home")
    with Memory(":memory:", config=cfg, embedder=None) as mem:
        assert mem.add("x").namespace == "home"


# -- bad input: the specific error, a message saying what is wrong, nothing changed --

Invalid = InvalidInputError

BAD_INPUT: list[tuple[str, Callable[[Memory, str], object], type[EngramError], str]] = [
    ("empty", lambda m, i: m.add(""), EmptyContentError, "content is empty"),
    ("whitespace", lambda m, i: m.add(" \n\t "), EmptyContentError, "content is empty"),
    ("too large", lambda m, i: m.add("x" * 51), ContentTooLargeError, "51 characters, over"),
    ("int content", lambda m, i: m.add(42), Invalid, "got int"),
    ("bytes", lambda m, i: m.add(b"raw"), Invalid, "got bytes"),
    ("none content", lambda m, i: m.add(None), Invalid, "content is missing"),
    ("message no role", lambda m, i: m.add([{"content": "x"}]), Invalid, "message 0"),
    ("message not dict", lambda m, i: m.add(["x"]), Invalid, "message 0 must be a dict"),
    ("meta keys", lambda m, i: m.add("ok", metadata={1: "x"}), Invalid, "keys must be strings"),
    ("meta type", lambda m, i: m.add("ok", metadata=["x"]), Invalid, "metadata must be a dict"),
    ("meta json", lambda m, i: m.add("ok", metadata={"f": object()}), Invalid, "JSON"),
    ("meta nan", lambda m, i: m.add("ok", metadata={"f": float("nan")}), Invalid, "JSON"),
    ("tags str", lambda m, i: m.add("ok", tags="ops"), Invalid, "tags must be a list"),
    ("tags empty", lambda m, i: m.add("ok", tags=["ops", " "]), Invalid, "non-empty"),
    ("tags int", lambda m, i: m.add("ok", tags=[1]), Invalid, "tags must hold"),
    ("type", lambda m, i: m.add("ok", type="rumour"), Invalid, "unknown type 'rumour'"),
    ("category", lambda m, i: m.add("ok", category="x"), Invalid, "unknown category"),
    ("importance", lambda m, i: m.add("ok", importance=1.5), Invalid, "importance"),
    ("score range", lambda m, i: m.add("ok", score=11), Invalid, "score must be in"),
    ("score type", lambda m, i: m.add("ok", score="9"), Invalid, "score must be a number"),
    ("score bool", lambda m, i: m.add("ok", score=True), Invalid, "score"),
    ("created_at", lambda m, i: m.add("ok", created_at="yesterday"), Invalid, "ISO 8601"),
    ("created_at int", lambda m, i: m.add("ok", created_at=5), Invalid, "created_at"),
    ("user_id", lambda m, i: m.add("ok", user_id=""), Invalid, "user_id must be"),
    ("user_id int", lambda m, i: m.add("ok", user_id=7), Invalid, "user_id must be"),
    ("namespace", lambda m, i: m.add("ok", namespace="a b"), Invalid, "invalid namespace"),
    ("unknown kwarg", lambda m, i: m.add("ok", colour="red"), Invalid, "colour"),
    ("title type", lambda m, i: m.add("ok", title=5), Invalid, "title must be a string"),
    ("items str", lambda m, i: m.add_many("abc"), Invalid, "must be a list"),
    ("get unknown", lambda m, i: m.get("nope"), NotFoundError, "no memory 'nope'"),
    ("get other ns", lambda m, i: m.get(i, user_id="x"), NotFoundError, "'user:x'"),
    ("get empty id", lambda m, i: m.get(""), Invalid, "memory id must be"),
    ("get int id", lambda m, i: m.get(5), Invalid, "memory id must be"),
    ("update unknown", lambda m, i: m.update("nope", "x"), NotFoundError, "no memory 'nope'"),
    ("update fields unknown", lambda m, i: m.update("nope", tags=["x"]), NotFoundError, "nope"),
    ("update int id", lambda m, i: m.update(5, tags=["x"]), Invalid, "memory id"),
    ("update nothing", lambda m, i: m.update(i), Invalid, "nothing to update"),
    ("update empty", lambda m, i: m.update(i, "  "), EmptyContentError, "content is empty"),
    ("update int", lambda m, i: m.update(i, 5), Invalid, "content must be a string"),
    ("update big", lambda m, i: m.update(i, "y" * 60), ContentTooLargeError, "over the limit"),
    ("update tags", lambda m, i: m.update(i, tags="x"), Invalid, "tags must be a list"),
    ("update meta", lambda m, i: m.update(i, metadata={2: 1}), Invalid, "keys"),
    ("update score", lambda m, i: m.update(i, score=-1), Invalid, "score"),
    ("delete unknown", lambda m, i: m.delete("nope"), NotFoundError, "nope"),
    ("feedback unknown", lambda m, i: m.feedback("nope", 1), NotFoundError, "nope"),
    ("rating 2", lambda m, i: m.feedback(i, 2), Invalid, "rating must be +1 or -1"),
    ("rating 0", lambda m, i: m.feedback(i, 0), Invalid, "rating"),
    ("rating bool", lambda m, i: m.feedback(i, True), Invalid, "rating"),
    ("rating word", lambda m, i: m.feedback(i, "sideways"), Invalid, "'sideways'"),
    ("comment", lambda m, i: m.feedback(i, 1, 5), Invalid, "comment must be"),
    ("history unknown", lambda m, i: m.history("nope"), NotFoundError, "nope"),
    ("query empty", lambda m, i: m.recall("  "), Invalid, "query is empty"),
    ("query type", lambda m, i: m.search(5), Invalid, "query must be a string"),
    ("limit 0", lambda m, i: m.recall("q", limit=0), Invalid, "limit must be"),
    ("limit neg", lambda m, i: m.search("q", limit=-3), Invalid, "limit must be"),
    ("limit str", lambda m, i: m.recall("q", limit="4"), Invalid, "limit must be"),
    ("limit bool", lambda m, i: m.recall("q", limit=True), Invalid, "limit must be"),
    ("limit huge", lambda m, i: m.get_all(limit=10**9), Invalid, "limit must be"),
    ("offset", lambda m, i: m.get_all(offset=-1), Invalid, "offset must be"),
    ("budget", lambda m, i: m.recall("q", budget_tokens=0), Invalid, "budget_tokens"),
    ("filters str", lambda m, i: m.recall("q", filters="type"), Invalid, "filters"),
    ("filters list", lambda m, i: m.get_all(filters=["type"]), Invalid, "filters"),
    ("batch size", lambda m, i: m.reindex(batch_size=0), Invalid, "batch_size"),
    ("purge ns", lambda m, i: m.purge(namespace="a b"), Invalid, "invalid namespace"),
]  # fmt: skip


@pytest.mark.parametrize(
    ("call", "error", "message"),
    [pytest.param(c, e, msg, id=name) for name, c, e, msg in BAD_INPUT],
)
def test_bad_input_raises_and_changes_nothing(
    config: Config,
    call: Callable[[Memory, str], object],
    error: type[EngramError],
    message: str,
) -> None:
    cfg = config.with_overrides(max_content_chars=50)
    with Memory(":memory:", config=cfg, embedder=HashEmbedder()) as mem:
        first = mem.add("an existing memory", tags=["keep"], metadata={"k": "v"})
        mem.feedback(first.id, "up")
        second = mem.add("another one", user_id="bob")
        before = state(mem, [(first.id, {}), (second.id, {"user_id": "bob"})])
        with pytest.raises(error) as info:
            call(mem, first.id)
        assert type(info.value) is error, type(info.value)
        assert message in str(info.value)
        assert state(mem, [(first.id, {}), (second.id, {"user_id": "bob"})]) == before


def state(mem: Memory, ids: list[tuple[str, dict[str, str]]]) -> object:
    return (
        [(mem.get(i, **scope).to_dict(), len(mem.history(i, **scope))) for i, scope in ids],
        mem.store.memories.namespaces(),
        mem.feedback_log(),
    )


def test_bad_embedder_argument(config: Config) -> None:
    with pytest.raises(InvalidInputError, match="embedder must be"):
        Memory(":memory:", config=config, embedder="minilm")


def test_recall_override_typo_is_an_engram_error(mem: Memory) -> None:
    with pytest.raises(EngramError, match="alphaa"):
        mem.recall("q", alphaa=0.3)
    with pytest.raises(EngramError, match="alpha"):
        mem.recall("q", alpha=2.0)


# -- lifecycle -------------------------------------------------------------------------

VERBS: list[tuple[str, Callable[[Memory], object]]] = [
    ("add", lambda m: m.add("x")),
    ("add_many", lambda m: m.add_many(["x"])),
    ("get", lambda m: m.get("id")),
    ("get_all", lambda m: m.get_all()),
    ("search", lambda m: m.search("x")),
    ("recall", lambda m: m.recall("x")),
    ("update", lambda m: m.update("id", "x")),
    ("delete", lambda m: m.delete("id")),
    ("feedback", lambda m: m.feedback("id", 1)),
    ("feedback_log", lambda m: m.feedback_log()),
    ("history", lambda m: m.history("id")),
    ("purge", lambda m: m.purge()),
    ("reindex", lambda m: m.reindex()),
    ("doctor", lambda m: m.doctor()),
]


@pytest.mark.parametrize("call", [pytest.param(c, id=n) for n, c in VERBS])
def test_closed_memory_raises(config: Config, call: Callable[[Memory], object]) -> None:
    with Memory(":memory:", config=config, embedder=HashEmbedder()) as mem:
        mem.add("stored before closing")
    with pytest.raises(StoreClosedError, match="closed"):
        call(mem)
    mem.close()  # closing twice is fine


def test_file_store_survives_close_and_reopen(config: Config, tmp_path: Path) -> None:
    path = tmp_path / "engram.db"
    with Memory(path, config=config, embedder=HashEmbedder()) as mem:
        record = mem.add("durable", tags=["t"])
        mem.feedback(record.id, "up")
    with Memory(path, config=config, embedder=HashEmbedder()) as mem:
        assert mem.get(record.id).quality == 1
        assert mem.recall("durable").hits[0].id == record.id
        assert mem.store.vectors.missing("test-hash", limit=5) == []


def test_default_location_is_engram_home(tmp_path: Path) -> None:
    config = Config.load(env={}, home=str(tmp_path / "h"), embedder={"name": "none"})
    with Memory(config=config) as mem:
        mem.add("in the default store")
        assert mem.store.location == str(tmp_path / "h" / "engram.db")
    assert (tmp_path / "h" / "engram.db").is_file()


def test_doctor(mem: Memory) -> None:
    mem.add("x")
    report = mem.doctor()
    assert report["namespaces"] == {"default": 1}
    assert report["vectors"]["missing"] == 0
    assert report["embedder"]["dimension"] == 64
    assert report["recall"]["limit"] == 4


# -- dimensions and reindex ------------------------------------------------------------


@pytest.fixture
def db64(config: Config, tmp_path: Path) -> Path:
    path = tmp_path / "dim.db"
    with Memory(path, config=config, embedder=HashEmbedder(64)) as mem:
        mem.add_many(["green tea", "black coffee", "deploy script"])
    return path


def test_dimension_mismatch_is_refused(config: Config, db64: Path) -> None:
    with pytest.raises(DimensionMismatchError) as info:
        Memory(db64, config=config, embedder=HashEmbedder(32))
    message = str(info.value)
    assert "64" in message and "32" in message
    assert "engram reindex" in message
    assert isinstance(info.value, EmbeddingError)


def test_reindex_reembeds_after_mismatch(config: Config, db64: Path) -> None:
    with Memory(db64, config=config, embedder=HashEmbedder(32), allow_dimension_mismatch=True) as m:
        assert m.recall("green tea").hits  # keyword tier still answers meanwhile
        progress: list[tuple[int, int]] = []
        assert m.reindex(batch_size=2, progress=lambda d, t: progress.append((d, t))) == 3
        assert progress == [(2, 3), (3, 3)]
        assert m.store.vectors.dimensions() == {"test-hash": 32}
    with Memory(db64, config=config, embedder=HashEmbedder(32)) as m:
        top = m.recall("green tea", strategy="dense").hits[0]
        assert top.memory.content == "green tea" and top.breakdown.sim == pytest.approx(1.0)
        assert m.reindex() == 0  # nothing left to do
        assert m.reindex(rebuild=True) == 3


def test_reindex_stops_loudly_when_embedding_fails(config: Config) -> None:
    with Memory(":memory:", config=config, embedder=FailingEmbedder()) as mem:
        mem.add_many(["one", "two"])
        with pytest.raises(EmbeddingError, match="after 0 of 2 memories"):
            mem.reindex()
        assert mem.store.stats("test-failing").missing_vectors == 2
        assert len(mem.get_all()) == 2


def test_reindex_needs_an_embedder(config: Config) -> None:
    with (
        Memory(":memory:", config=config, embedder=None) as mem,
        pytest.raises(EmbeddingError, match="no embedder"),
    ):
        mem.reindex()


# -- AsyncMemory -----------------------------------------------------------------------


def documented_verbs() -> set[str]:
    """``verb`` or ``part.verb`` for every ``mem.verb(`` / ``mem.part.verb(`` in the guide."""
    calls = re.findall(r"\bmem\.(\w+(?:\.\w+)?)\(", DOCS.read_text(encoding="utf-8"))
    return set(calls)


def test_async_has_every_documented_verb() -> None:
    verbs = documented_verbs()
    assert {"add", "get_all", "recall", "search", "feedback", "admin.reindex"} <= verbs
    assert {"admin.doctor", "transcripts.add", "admin.purge"} <= verbs
    mem = AsyncMemory(":memory:", embedder=None, config=Config.load(env={}))
    try:
        for verb in sorted(verbs | {"close"}):
            sync_owner: object = mem.sync
            async_owner: object = mem
            for name in verb.split(".")[:-1]:
                sync_owner, async_owner = getattr(sync_owner, name), getattr(async_owner, name)
            last = verb.split(".")[-1]
            assert callable(getattr(sync_owner, last)), verb
            assert inspect.iscoroutinefunction(getattr(async_owner, last)), verb
    finally:
        mem.sync.close()


def test_async_mirrors_memory_surface() -> None:
    public = {
        name
        for name, value in vars(Memory).items()
        if not name.startswith("_") and inspect.isfunction(value)
    }
    public.discard("scope")  # pure argument resolution, no I/O: nothing to await
    missing = {name for name in public if not hasattr(AsyncMemory, name)}
    assert not missing, f"AsyncMemory lacks {sorted(missing)}"
    for name in public:
        sync_params = list(inspect.signature(getattr(Memory, name)).parameters)
        async_params = list(inspect.signature(getattr(AsyncMemory, name)).parameters)
        assert sync_params == async_params, name


def test_async_verbs_work(config: Config) -> None:
    async def main() -> None:
        async with AsyncMemory(":memory:", config=config, embedder=HashEmbedder()) as mem:
            record = await mem.add("async works too", user_id="alice")
            more = await mem.add_many(["second async memory", "third"], namespace="user:alice")
            assert len(more) == 2
            assert (await mem.get(record.id, user_id="alice")).content == "async works too"
            assert len(await mem.get_all(user_id="alice")) == 3
            recall = await mem.recall("does async work?", user_id="alice")
            assert recall.hits[0].id == record.id and recall.context
            assert (await mem.search("async", user_id="alice"))[0].id in {record.id, more[0].id}
            updated = await mem.update(record.id, "async still works", user_id="alice")
            assert updated.content == "async still works"
            assert (await mem.feedback(record.id, "up", user_id="alice")).quality == 1
            assert len(await mem.feedback_log(namespace="user:alice")) == 1
            events = [e.event for e in await mem.history(record.id, user_id="alice")]
            assert events == ["create", "update", "feedback"]
            await mem.delete(more[1].id, user_id="alice")
            assert await mem.purge(namespace="user:alice") == 1
            assert await mem.reindex() == 0
            assert (await mem.doctor())["namespaces"] == {"user:alice": 2}
            with pytest.raises(NotFoundError):
                await mem.get("nope", user_id="alice")
            # many calls at once on the worker threads
            results = await asyncio.gather(*(mem.add(f"concurrent {i}") for i in range(20)))
            assert len({r.id for r in results}) == 20
        with pytest.raises(StoreClosedError):
            await mem.get_all()

    asyncio.run(main())


@pytest.mark.parametrize(
    "fields",
    [
        {"content": "bad\x00text"},
        {"content": "ok", "title": "t\x00"},
        {"content": "ok", "tags": ["a\x00"]},
        {"content": "ok", "metadata": {"k": ["v\x00"]}},
        {"content": "ok", "metadata": {"k\x00": 1}},
        {"content": "lone \ud800 surrogate"},
        {"content": "ok", "title": "\udc80"},
    ],
)
def test_nul_characters_are_refused_on_every_backend(mem: Memory, fields: dict[str, Any]) -> None:
    kept = mem.add("stored before")
    with pytest.raises(InvalidInputError, match="NUL character|lone surrogate"):
        mem.add(**fields)
    assert [r.id for r in mem.get_all()] == [kept.id]


def test_lone_surrogates_in_metadata_are_refused(mem: Memory) -> None:
    with pytest.raises(InvalidInputError, match="lone surrogate"):
        mem.add("ok", metadata={"k": ["\udc80"]})
    assert mem.get_all() == []


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda mem: mem.add(None), "content is missing; pass the text to remember"),
        (lambda mem: mem.add("x", colour="red"), "unknown field(s) colour; known:"),
    ],
    ids=["content None", "unknown keyword"],
)
def test_one_add_names_no_batch_position(
    config: Config, call: Callable[[Memory], object], message: str
) -> None:
    """mem.add(None) said "item 0 has no 'content'": a single add has no item 0 (it is a
    batch of one inside); the message is the field's alone."""
    with Memory(config=config, embedder=HashEmbedder()) as mem:
        with pytest.raises(InvalidInputError) as info:
            call(mem)
        assert str(info.value).startswith(message), str(info.value)
        assert mem.get_all().total == 0
