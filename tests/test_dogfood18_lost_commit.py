"""A write whose database connection died inside its transaction is never reported stored.

Dogfood round eighteen: `pg_ctl restart -m fast` under 4 HTTP writers gave 416 `201`
answers, and 2 of those memories were not in the database. The server had ended the
connection while the inline linker read the graph inside the write's transaction; the
linker's guard ("a bug in the rules must never cost the caller their memory") took the
`StoreConnectionError`, and psycopg's transaction block, leaving without an exception on
a connection that is no longer OK, neither commits nor raises: the write returned its
record with nothing stored. `add` must raise (HTTP: 503 `store_disconnected`) and store
nothing, as [library](../docs/library.md#writing) promises: an exception from `add`
means nothing was stored, and a returned record is stored.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any

import psycopg
import pytest

from conftest import HashEmbedder
from engram import Config, Memory
from engram.errors import NotFoundError, StoreConnectionError, StoreError


def _end_this_connection(mem: Memory, url: str) -> None:
    """Have the server end the connection of the transaction this thread holds, as a
    restart (`pg_ctl restart -m fast`) or `pg_terminate_backend` does."""
    db: Any = mem._core.store._db  # noqa: SLF001 - the test reaches the open transaction
    conn = db._bound()  # noqa: SLF001
    assert conn is not None, "the linker runs inside the write's transaction"
    with psycopg.connect(url, autocommit=True) as admin:
        admin.execute("SELECT pg_terminate_backend(%s, 10000)", (conn.info.backend_pid,))


def _failing_linker(mem: Memory, backend: str, url: str) -> Any:
    """A linker whose graph read fails the way the real one's did: on PostgreSQL the
    server ends the connection first, on SQLite (no connection to lose) the read fails."""

    def linker(text: str) -> Any:
        if backend == "postgres":
            _end_this_connection(mem, url)
            mem._core.store.memories.count("user:ana")  # noqa: SLF001 - raises: lost
        raise StoreError("listing relations failed: the disk said no")

    return linker


@pytest.fixture
def linked_mem(config: Config, store_location: str) -> Iterator[Memory]:
    with Memory(store_location, config=config, embedder=HashEmbedder()) as m:
        yield m


def test_a_write_whose_connection_died_in_its_transaction_raises_and_stores_nothing(
    linked_mem: Memory, backend: str, store_location: str
) -> None:
    mem = linked_mem
    mem.add("The billing service is written in Go.", user_id="ana")  # the pool is warm
    real = mem._core.linker  # noqa: SLF001
    mem._core.linker = _failing_linker(mem, backend, store_location)  # noqa: SLF001
    text = "Refunds above 5,000 euros need manual approval from finance."
    if backend == "postgres":
        with pytest.raises(StoreConnectionError, match="lost|closed"):
            mem.add(text, user_id="ana")
        assert [m.content for m in mem.get_all(user_id="ana")] == [
            "The billing service is written in Go."
        ]
        # The store still works: the next write takes a fresh connection and is stored.
        mem._core.linker = real  # noqa: SLF001
        again = mem.add(text, user_id="ana")
        assert mem.get(again.id, user_id="ana").content == text
    else:
        # SQLite's transaction outlives a failed read: stored unlinked, as the guard says.
        record = mem.add(text, user_id="ana")
        assert mem.get(record.id, user_id="ana").content == text


@pytest.mark.postgres
def test_a_transaction_on_a_connection_the_server_ended_does_not_pass_for_committed(
    pg_url: str, config: Config
) -> None:
    """The store's own transaction, whatever swallowed the error inside it."""
    with Memory(pg_url, config=config, embedder=HashEmbedder()) as mem:
        store = mem._core.store  # noqa: SLF001
        with pytest.raises(StoreConnectionError, match="commit"), store.transaction():
            _end_this_connection(mem, pg_url)
            # what a guard on an optional step does with the lost connection's error
            with contextlib.suppress(StoreConnectionError):
                store.memories.count("user:ana")
        with pytest.raises(NotFoundError):
            mem.get("0" * 32, user_id="ana")  # a fresh connection answers
