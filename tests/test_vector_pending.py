"""A write whose memory committed but whose vector did not (engram issue 26, item 5).

``add`` stores the memory, then its vector in a second transaction (raw first). When
that second one fails (a deadlock, a restart), the memory is stored: the caller gets
the record with ``embedding_model`` None and a "stored without a vector" warning, never
an error that reads as "not stored". The background filler (``backfill``) adds it.
"""

from __future__ import annotations

import threading
from typing import Any

import pytest
from fastapi.testclient import TestClient

from engram import Memory, admin
from engram.api.app import create_app
from engram.errors import StoreConnectionError


@pytest.fixture
def failing_vectors(mem: Memory, monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The vector store fails like a server restart between the two transactions."""
    calls: list[int] = []

    def put(rows: Any) -> int:
        calls.append(len(list(rows)))
        raise StoreConnectionError("storing vectors failed: server closed the connection")

    monkeypatch.setattr(mem.store.vectors, "put", put)
    return calls


def test_add_returns_the_stored_record_with_its_vector_pending(
    mem: Memory, failing_vectors: list[int], monkeypatch: pytest.MonkeyPatch
) -> None:
    record = mem.add("stored although its vector write failed", user_id="u")
    assert failing_vectors == [1]
    assert record.embedding_model is None
    assert mem.get(record.id, user_id="u").content == record.content
    batch = mem.add_many(["two", "three"], namespace="user:u")
    assert [i.created for i in batch.items] == [True, True]
    assert all(i.record is not None and i.record.embedding_model is None for i in batch.items)
    assert all(w.startswith("stored without a vector") for i in batch.items for w in i.warnings)
    assert [len(i.warnings) for i in batch.items] == [1, 1]
    assert batch.items[0].to_dict()["warnings"] == list(batch.items[0].warnings)
    monkeypatch.undo()  # the store is back: the filler embeds what was left
    assert mem.admin.backfill() == 3
    assert mem.get(record.id, user_id="u").embedding_model is not None


def test_post_memories_answers_201_with_the_warning(
    mem: Memory, failing_vectors: list[int]
) -> None:
    with TestClient(create_app(mem, auth=False, mcp=False, worker=False)) as client:
        r = client.post("/v1/memories", json={"content": "kept", "user_id": "u"})
        assert r.status_code == 201, r.text
        body = r.json()
        assert body["embedding_model"] is None
        assert len(body["warnings"]) == 1 and "stored without a vector" in body["warnings"][0]
        assert client.get(f"/v1/memories/{body['id']}", params={"user_id": "u"}).status_code == 200
        batch = client.post(
            "/v1/memories/batch", json={"items": [{"content": "more"}], "user_id": "u"}
        )
        assert batch.status_code == 201, batch.text
        assert "stored without a vector" in batch.json()["items"][0]["warnings"][0]


def test_a_write_with_its_vector_stored_has_no_warning(mem: Memory) -> None:
    [item] = mem.add_many(["an ordinary write"], namespace="user:u").items
    assert item.warnings == ()
    assert item.record is not None and item.record.embedding_model is not None


def test_the_background_filler_waits_out_a_store_failure(
    mem: Memory, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A restart used to end ``engram serve``'s filler for good; now it pauses and
    tries the same rows again (a direct ``backfill()`` call still raises)."""
    mem.add_many(["first to fill", "second to fill"], namespace="user:u")
    mem.store.vectors.delete()  # both wait for the filler
    real = mem.store.vectors.put
    failures = [2]

    def flaky(rows: Any) -> int:
        if failures[0]:
            failures[0] -= 1
            raise StoreConnectionError("storing vectors failed: the database system is starting up")
        return real(rows)

    monkeypatch.setattr(admin, "BACKFILL_PAUSE_S", 0.0)
    monkeypatch.setattr(mem.store.vectors, "put", flaky)
    assert mem.admin.backfill(stop=threading.Event()) == 2
    assert failures == [0]
    assert all(r.embedding_model is not None for r in mem.get_all(user_id="u"))
