"""FEATURES S1: the backend lifecycle (connect, disconnect, health_check, is_connected,
backend_name), capability discovery and seed 002's error families, on both backends
and through the library, the HTTP API and the CLI."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator
from pathlib import Path

import httpx
import psycopg
import pytest
from click.testing import CliRunner

from conftest import HashEmbedder, run_doc_example
from engram import (
    CapabilityError,
    Config,
    EngramConnectionError,
    InvalidInputError,
    Memory,
    MemoryCategory,
    RetrievalError,
    StoreClosedError,
    StoreConnectionError,
    StoreError,
)
from engram.api import create_app
from engram.api.errors import status_for
from engram.api.server import serve_in_thread
from engram.cli.main import cli
from engram.errors import EngramError, ServerConnectionError


@pytest.fixture
def reopen_mem(config: Config, reopenable: str) -> Iterator[Memory]:
    """A store that survives a disconnect: a SQLite file or a PostgreSQL database."""
    with Memory(reopenable, config=config, embedder=HashEmbedder()) as m:
        yield m


def test_disconnect_refuses_calls_and_connect_reopens_the_same_store(
    reopen_mem: Memory, backend: str
) -> None:
    mem = reopen_mem
    assert mem.backend.backend_name == ("postgresql" if backend == "postgres" else "sqlite")
    assert mem.backend.is_connected and mem.backend.health_check()
    kept = mem.add("The staging database is called ember", user_id="ann")
    mem.backend.disconnect()
    mem.backend.disconnect()  # idempotent
    assert not mem.backend.is_connected
    assert mem.backend.health_check() is False  # answers, never raises
    with pytest.raises(StoreConnectionError, match=r"backend\.connect\(\)") as caught:
        mem.get(kept.id, user_id="ann")
    # One error, three families a caller may catch it by.
    assert isinstance(caught.value, EngramConnectionError)
    assert isinstance(caught.value, StoreError)
    assert caught.value.code == "store_disconnected"
    with pytest.raises(StoreConnectionError):
        mem.add("written while disconnected", user_id="ann")
    with pytest.raises(StoreConnectionError):
        mem.recall("staging database", user_id="ann")
    mem.backend.connect()
    mem.backend.connect()  # idempotent
    assert mem.backend.is_connected and mem.backend.health_check()
    assert mem.get(kept.id, user_id="ann").content == kept.content
    assert [h.memory.id for h in mem.search("staging database", user_id="ann")] == [kept.id]
    assert [r.content for r in mem.get_all(user_id="ann")] == [kept.content]  # nothing lost


def test_close_is_final(config: Config, reopenable: str) -> None:
    mem = Memory(reopenable, config=config, embedder=None)
    mem.backend.disconnect()
    mem.close()  # closing a disconnected memory is fine
    assert not mem.backend.is_connected and mem.backend.health_check() is False
    with pytest.raises(StoreClosedError):
        mem.backend.connect()
    with pytest.raises(StoreClosedError):
        mem.backend.disconnect()


def test_an_in_memory_sqlite_store_cannot_disconnect(config: Config) -> None:
    with Memory(":memory:", config=config, embedder=None) as mem:
        mem.add("kept only in the connection")
        with pytest.raises(CapabilityError, match="in-memory"):
            mem.backend.disconnect()
        assert mem.backend.is_connected and len(mem.get_all()) == 1
        assert mem.backend.capabilities().supports_reconnect is False


def test_capabilities_report_what_the_backend_and_embedder_do(
    config: Config, store_location: str, backend: str
) -> None:
    with Memory(store_location, config=config, embedder=HashEmbedder()) as mem:
        caps = mem.backend.capabilities()
        assert caps.backend_name == mem.backend.backend_name
        assert caps.supported_categories == frozenset(MemoryCategory)
        assert caps.supports_graph and caps.supports_temporal and caps.supports_shared_access
        assert caps.supports_vector_search
        # seed 002's per-agent maximum, which consolidation enforces (mem.lifecycle).
        assert caps.max_memories_per_agent == config.lifecycle.max_memories_per_agent == 10_000
        assert caps.supports_reconnect is (backend == "postgres")
        mem.backend.require("graph")
        mem.backend.require("supports_vector_search")
        with pytest.raises(InvalidInputError, match="unknown capability"):
            mem.backend.require("teleport")
    with Memory(store_location, config=config, embedder=None) as keyword_only:
        assert keyword_only.backend.capabilities().supports_vector_search is False
        with pytest.raises(CapabilityError, match="vector search"):
            keyword_only.backend.require("vector_search")
        status = keyword_only.backend.status()
        assert status["connected"] is True and status["healthy"] is True
        assert status["capabilities"]["supported_categories"] == sorted(
            c.value for c in MemoryCategory
        )


def _rename_table(location: str, backend: str, old: str, new: str) -> None:
    """Rename a table from outside engram (a broken database, and its repair)."""
    if backend == "postgres":
        with psycopg.connect(location, autocommit=True) as conn:
            conn.execute(f"ALTER TABLE {old} RENAME TO {new}")
    else:
        with sqlite3.connect(location) as conn:
            conn.execute(f"ALTER TABLE {old} RENAME TO {new}")


def test_a_recall_the_store_fails_raises_retrieval_error(
    config: Config, reopenable: str, backend: str
) -> None:
    with Memory(reopenable, config=config, embedder=None) as mem:
        mem.add("the ember database runs on port 5433")
        _rename_table(reopenable, backend, "memories", "memories_gone")
        try:
            with pytest.raises(RetrievalError, match="recall failed in the store") as caught:
                mem.recall("ember database")
        finally:  # the PostgreSQL test database is shared by the next tests
            _rename_table(reopenable, backend, "memories_gone", "memories")
        assert isinstance(caught.value, StoreError) and caught.value.code == "retrieval_error"
        assert mem.search("ember database")  # repaired, recall works again


def test_the_error_tree_has_seed_002s_families() -> None:
    assert issubclass(ServerConnectionError, EngramConnectionError)
    assert issubclass(StoreConnectionError, EngramConnectionError)
    assert issubclass(RetrievalError, StoreError)
    assert ServerConnectionError("x").code == "connection_error"  # unchanged for clients
    assert status_for(StoreConnectionError("x")) == 503
    assert status_for(RetrievalError("x")) == 500
    assert status_for(CapabilityError("x")) == 501
    codes = {cls.code for cls in (StoreConnectionError, RetrievalError, EngramConnectionError)}
    assert len(codes) == 3 and all(issubclass(c, EngramError) for c in (RetrievalError,))


def test_http_reports_the_backend_and_a_disconnect_as_503(config: Config, tmp_path: Path) -> None:
    with Memory(tmp_path / "e.db", config=config, embedder=None) as memory:
        key = memory.keys.create("alice")[1]
        with serve_in_thread(create_app(memory, worker=False)) as url:
            headers = {"Authorization": f"Bearer {key}"}
            with httpx.Client(base_url=url, timeout=10, headers=headers) as alice:
                body = alice.get("/v1/backend").json()
                assert body["backend"] == "sqlite" and body["connected"] and body["healthy"]
                assert body["capabilities"]["supports_shared_access"] is True
                assert body["capabilities"]["supports_vector_search"] is False  # no embedder
                assert httpx.get(f"{url}/v1/backend").status_code == 401
                memory.backend.disconnect()
                down = alice.get("/v1/memories")
                assert down.status_code == 503
                assert down.json()["error"] == "store_disconnected"
                # Keys live in the store too: while it is away no key can be checked.
                assert alice.get("/v1/backend").status_code == 503
                assert memory.backend.status()["healthy"] is False
                memory.backend.connect()
                assert alice.get("/v1/memories").status_code == 200


def test_cli_backend_shows_capabilities(tmp_path: Path) -> None:
    env = {"ENGRAM_EMBEDDER_NAME": "none", "ENGRAM_CONFIG": ""}
    home = ["--home", str(tmp_path / "home")]
    runner = CliRunner()
    assert runner.invoke(cli, [*home, "add", "a first memory"], env=env).exit_code == 0
    shown = runner.invoke(cli, [*home, "backend", "--json"], env=env)
    assert shown.exit_code == 0, shown.output
    body = json.loads(shown.stdout)
    assert body["backend"] == "sqlite" and body["healthy"] is True
    assert body["capabilities"]["supports_graph"] is True
    table = runner.invoke(cli, [*home, "backend"], env=env)
    assert table.exit_code == 0 and "supports_temporal" in table.stdout


def test_the_docs_example_runs(capsys: pytest.CaptureFixture[str]) -> None:
    run_doc_example(
        capsys, "organisation.md", after="## Backends, memory levels and shared knowledge"
    )
