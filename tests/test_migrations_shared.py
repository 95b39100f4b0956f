"""The one migration list makes what each backend's own list made, and upgrades the
databases that list made in place, with every row as the old code left it.

The reference is tests/data/schema_377cb58.json, written by the code of commit 377cb58
(the last with one migration list per backend) by scripts/snapshot_old_schema.py: each
backend's schema after each of its steps, and old databases (tests/data/old_db) made at
an early step, a middle one, and the last one filled through the library, with their
row checksums before and after the old code upgraded them. tests/schema_dump.py says
what a schema and a checksum hold.
"""

from __future__ import annotations

import gzip
import json
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

import schema_dump as sd
from engram.store.sql import migrations
from engram.store.sql.dialect import Dialect
from engram.store.sqlite import SQLiteStore
from engram.store.sqlite.dialect import SQLITE

if TYPE_CHECKING:
    from pgserver import PgServer

DATA = Path(__file__).resolve().parent / "data"
SNAPSHOT: dict[str, Any] = json.loads((DATA / "schema_377cb58.json").read_text(encoding="utf-8"))
SAME = {"set": {}, "drop": []}


def _postgres() -> Dialect:
    from engram.store.postgres.dialect import POSTGRES

    return POSTGRES


def reference(engine: str) -> Iterator[tuple[str, sd.Schema]]:
    """(step name, the schema and rows the old code had after it), in order."""
    schema: sd.Schema = {}
    for step in SNAPSHOT[engine]["steps"]:
        schema = sd.apply(schema, step)
        yield step["name"], schema


def final(engine: str) -> sd.Schema:
    *_, (_, schema) = reference(engine)
    return {k: v for k, v in schema.items() if not k.startswith("rows ")}


def fixtures(engine: str) -> list[Any]:
    return [pytest.param(f, id=f["point"]) for f in SNAPSHOT[engine]["fixtures"]]


#: Steps added after the snapshot, each checked by its own tests: an old database gets
#: the snapshot's steps (compared below), then these.
SINCE_SNAPSHOT = {
    "sqlite": [
        "029_job_history",
        "030_chat_settings",
        "032_relations_by_type",
        "034_palace_mined_seq",
        "035_schedule_leases",
        "038_documents_source",
        "039_runs_agent",
        "040_checkpoints_agent",
        "041_api_keys_agent",
    ],
    "postgres": [
        "024_job_history",
        "025_chat_settings",
        "026_keyword_terms",
        "027_relations_by_type",
        "028_memory_search",
        "029_palace_mined_seq",
        "030_schedule_leases",
        "031_bulk_vector_epoch",
        "032_keyword_bm25",
        "033_documents_source",
        "034_runs_agent",
        "035_checkpoints_agent",
        "036_api_keys_agent",
    ],
}


def last_snapshot_step(engine: str) -> str:
    *_, (name, _) = reference(engine)
    return name


def still_to_run(d: Dialect, point: str) -> list[str]:
    """The snapshot's steps an old database at ``point`` still needs."""
    names = [name for name, _ in migrations.named(d)]
    end = names.index(last_snapshot_step(d.name)) + 1
    return [] if point == "latest" else names[names.index(point) + 1 : end]


def test_each_engine_records_the_step_names_it_always_has() -> None:
    for engine, d in (("sqlite", SQLITE), ("postgres", _postgres())):
        named = [n for n, _ in migrations.named(d)]
        assert named == [n for n, _ in reference(engine)] + SINCE_SNAPSHOT[engine]


# -- SQLite ----------------------------------------------------------------------------


def sqlite_state(conn: sqlite3.Connection) -> sd.Schema:
    return sd.sqlite_schema(conn) | {f"rows {t}": c for t, c in sd.sqlite_rows(conn).items()}


def test_a_new_sqlite_database_gets_the_old_schema_step_by_step(tmp_path: Path) -> None:
    conn = sqlite3.connect(tmp_path / "new.db", isolation_level=None)
    try:
        for name, expected in reference("sqlite"):
            assert migrations.migrate(conn, SQLITE, upto=name) == [name]
            assert (name, sd.delta(expected, sqlite_state(conn))) == (name, SAME)
    finally:
        conn.close()


@pytest.mark.parametrize("fixture", fixtures("sqlite"))
def test_an_old_sqlite_database_upgrades_in_place(tmp_path: Path, fixture: dict[str, Any]) -> None:
    path = tmp_path / "old.db"
    sd.gunzip_file(DATA / "old_db" / fixture["file"], path)
    conn = sqlite3.connect(path, isolation_level=None)
    try:
        assert sd.sqlite_rows(conn) == fixture["rows_before"]
        upto = last_snapshot_step("sqlite")
        assert migrations.migrate(conn, SQLITE, upto=upto) == still_to_run(SQLITE, fixture["point"])
        assert sd.sqlite_rows(conn) == fixture["rows_after"]
        expected = sd.apply(sd.unordered(final("sqlite")), fixture["schema"])
        assert sd.delta(expected, sd.unordered(sd.sqlite_schema(conn))) == SAME
        assert migrations.migrate(conn, SQLITE) == SINCE_SNAPSHOT["sqlite"]
        assert migrations.migrate(conn, SQLITE) == []
    finally:
        conn.close()
    if fixture["point"] == "latest":
        assert fixture["rows_after"] == fixture["rows_before"]
    store = SQLiteStore(path)
    try:
        assert store.schema_version() == SINCE_SNAPSHOT["sqlite"][-1]
    finally:
        store.close()


# -- PostgreSQL ------------------------------------------------------------------------


@pytest.fixture
def new_pg(pg_server: PgServer) -> Iterator[str]:
    """An empty database without engram's schema, dropped afterwards."""
    name = pg_server.create_database(migrated=False)
    yield pg_server.database_url(name)
    pg_server.drop_database(name)


def pg_state(conn: Any) -> sd.Schema:
    return sd.pg_schema(conn) | {f"rows {t}": c for t, c in sd.pg_rows(conn).items()}


@pytest.mark.postgres
def test_a_new_postgres_database_gets_the_old_schema_step_by_step(new_pg: str) -> None:
    import psycopg

    d = _postgres()
    with psycopg.connect(new_pg, autocommit=True) as conn:
        for name, expected in reference("postgres"):
            assert migrations.migrate(conn, d, upto=name) == [name]
            assert (name, sd.delta(expected, pg_state(conn))) == (name, SAME)


@pytest.mark.postgres
@pytest.mark.parametrize("fixture", fixtures("postgres"))
def test_an_old_postgres_database_upgrades_in_place(new_pg: str, fixture: dict[str, Any]) -> None:
    import psycopg

    from engram.store.postgres import PostgresStore

    d = _postgres()
    dump = gzip.decompress((DATA / "old_db" / fixture["file"]).read_bytes()).decode()
    with psycopg.connect(new_pg, autocommit=True) as conn:
        sd.pg_restore(conn, dump)
    with psycopg.connect(new_pg, autocommit=True) as conn:
        assert sd.pg_rows(conn) == fixture["rows_before"]
        upto = last_snapshot_step("postgres")
        assert migrations.migrate(conn, d, upto=upto) == still_to_run(d, fixture["point"])
        assert sd.pg_rows(conn) == fixture["rows_after"]
        expected = sd.apply(final("postgres"), fixture["schema"])
        assert sd.delta(expected, sd.pg_schema(conn)) == SAME
        assert migrations.migrate(conn, d) == SINCE_SNAPSHOT["postgres"]
        assert migrations.migrate(conn, d) == []
    if fixture["point"] == "latest":
        assert fixture["rows_after"] == fixture["rows_before"]
    store = PostgresStore(new_pg)
    try:
        assert store.schema_version() == SINCE_SNAPSHOT["postgres"][-1]
    finally:
        store.close()
