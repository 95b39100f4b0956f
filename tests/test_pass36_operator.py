"""New-user round twenty-seven: an operator running engram on PostgreSQL.

What the round found (docs/benchmarks.md, "round twenty-seven (an operator on
PostgreSQL)"): the pool came back long after the database did; ``--log-format json``
wrote other libraries' warnings as boxed Rich text; a database restored without
pgvector opened and failed later; and a role short of a privilege was told to ask
the database's owner for what only a superuser (or a schema grant) gives.
"""

from __future__ import annotations

import contextlib
import json
import socket
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import psycopg
import pytest
from psycopg import sql

from engram.config import PostgresConfig
from engram.errors import MigrationError, StoreConnectionError, StoreError
from engram.store.postgres import PostgresStore
from pgserver import PgServer

ROOT = Path(__file__).resolve().parents[1]


# -- a database that goes away and comes back -----------------------------------------


class Outage:
    """A TCP forwarder in front of the test server that can play a database outage:
    while ``down``, every connection through it is cut and new ones are closed at once,
    as a stopped server's refused connections fail the pool's attempts."""

    def __init__(self, host: str, port: int) -> None:
        self._target = (host, port)
        self._listener = socket.create_server(("127.0.0.1", 0))
        self.port = int(self._listener.getsockname()[1])
        self._down = threading.Event()
        self._stop = threading.Event()
        self._open: list[socket.socket] = []
        self._lock = threading.Lock()
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while not self._stop.is_set():
            try:
                client, _ = self._listener.accept()
            except OSError:
                return
            if self._down.is_set():
                client.close()
                continue
            upstream = socket.create_connection(self._target)
            with self._lock:
                self._open += [client, upstream]
            for a, b in ((client, upstream), (upstream, client)):
                threading.Thread(target=self._pipe, args=(a, b), daemon=True).start()

    @staticmethod
    def _pipe(src: socket.socket, dst: socket.socket) -> None:
        try:
            while data := src.recv(65536):
                dst.sendall(data)
        except OSError:
            pass
        finally:
            for s in (src, dst):
                with contextlib.suppress(OSError):
                    s.shutdown(socket.SHUT_RDWR)

    def down(self) -> None:
        self._down.set()
        with self._lock:
            cut, self._open = self._open, []
        for s in cut:
            with contextlib.suppress(OSError):
                s.shutdown(socket.SHUT_RDWR)
            s.close()

    def up(self) -> None:
        self._down.clear()

    def close(self) -> None:
        self._stop.set()
        self.down()
        self._listener.close()


@pytest.fixture
def own_db(pg_server: PgServer) -> Iterator[str]:
    name = pg_server.create_database()
    yield name
    pg_server.drop_database(name)


@pytest.mark.postgres
def test_the_pool_is_back_within_seconds_of_the_database(pg_server: PgServer, own_db: str) -> None:
    url = psycopg.conninfo.conninfo_to_dict(pg_server.database_url(own_db))
    outage = Outage(str(url["host"]), int(url["port"]))
    through = pg_server.database_url(own_db).replace(f":{url['port']}/", f":{outage.port}/")
    store = PostgresStore(through, PostgresConfig(pool_timeout=1.0, connect_timeout=2))
    try:
        assert store.schema_version()
        outage.down()
        # The database is gone for 9 s; calls meanwhile fail as disconnected. The pool's
        # attempts back off 1, 2, 4, 8 s on psycopg_pool's own schedule, so its next one
        # came about 7 s after the database was back.
        gone = time.monotonic()
        while time.monotonic() - gone < 9:
            with pytest.raises(StoreConnectionError):
                store.schema_version()
        outage.up()
        back = time.monotonic()
        while True:
            try:
                store.schema_version()
                break
            except StoreConnectionError:
                assert time.monotonic() - back < 20, "the pool never reconnected"
        assert time.monotonic() - back < 3.0
    finally:
        store.close()
        outage.close()


# -- a restore without pgvector ---------------------------------------------------------


@pytest.mark.postgres
def test_a_database_whose_vector_type_is_gone_is_refused_at_open(
    pg_server: PgServer, own_db: str
) -> None:
    url = pg_server.database_url(own_db)
    with psycopg.connect(url, autocommit=True) as conn:
        # What pg_restore leaves in a database without the extension: engram's
        # migrations recorded, the vector tables (and the type) missing.
        conn.execute("DROP EXTENSION vector CASCADE")
    with pytest.raises(StoreError, match=r"no `vector` type.*CREATE EXTENSION vector"):
        PostgresStore(url).close()


# -- a role short of a privilege --------------------------------------------------------


@pytest.fixture
def weak_role(pg_server: PgServer) -> Iterator[str]:
    role = f"weak_{uuid.uuid4().hex[:10]}"
    with psycopg.connect(pg_server.url, autocommit=True) as conn:
        conn.execute(sql.SQL("CREATE ROLE {} LOGIN").format(sql.Identifier(role)))
    names: list[str] = []
    yield role
    with psycopg.connect(pg_server.url, autocommit=True) as conn:
        rows = conn.execute(
            "SELECT datname FROM pg_database WHERE datdba = (SELECT oid FROM pg_roles "
            "WHERE rolname = %s)",
            (role,),
        ).fetchall()
        names = [r[0] for r in rows]
    for name in names:
        pg_server.drop_database(name)
    with psycopg.connect(pg_server.url, autocommit=True) as conn:
        conn.execute(sql.SQL("DROP OWNED BY {}").format(sql.Identifier(role)))
        conn.execute(sql.SQL("DROP ROLE {}").format(sql.Identifier(role)))


def _as(pg_server: PgServer, role: str, database: str) -> str:
    return pg_server.database_url(database).replace("://postgres@", f"://{role}@")


@pytest.mark.postgres
def test_an_owner_without_pgvector_is_told_a_superuser_installs_it(
    pg_server: PgServer, weak_role: str
) -> None:
    name = f"{weak_role}_db"
    with psycopg.connect(pg_server.url, autocommit=True) as conn:
        conn.execute(
            sql.SQL("CREATE DATABASE {} OWNER {}").format(
                sql.Identifier(name), sql.Identifier(weak_role)
            )
        )
    with pytest.raises(MigrationError) as caught:
        PostgresStore(_as(pg_server, weak_role, name)).close()
    said = str(caught.value)
    assert "superuser" in said and "CREATE EXTENSION vector" in said
    assert "database owner run" not in said  # the owner may not: pgvector is untrusted


@pytest.mark.postgres
def test_a_role_that_may_not_create_tables_is_told_the_grant(
    pg_server: PgServer, weak_role: str
) -> None:
    name = pg_server.create_database(migrated=False)
    try:
        with psycopg.connect(pg_server.database_url(name), autocommit=True) as conn:
            conn.execute("CREATE EXTENSION IF NOT EXISTS vector")
        with pytest.raises(MigrationError) as caught:
            PostgresStore(_as(pg_server, weak_role, name)).close()
        said = str(caught.value)
        assert "GRANT CREATE ON SCHEMA public TO <this role>" in said, said
        assert "\n" not in said  # the server's message, without its LINE and caret
    finally:
        pg_server.drop_database(name)


# -- JSON logs ---------------------------------------------------------------------------

_SERVE_LIKE = """
import logging, logging.config
from engram import Memory
from engram.api import create_app
from engram.api.logs import log_config

logging.config.dictConfig(log_config("json", "info"))  # as engram serve does
with Memory(":memory:", embedder=None) as mem:
    create_app(mem, mcp=True, worker=False, schedules=False)
    logging.getLogger("psycopg.pool").warning("discarding closed connection: <conn>")
    logging.getLogger("engram.api").warning("an engram line")
"""


def test_json_logs_carry_other_libraries_lines_as_json() -> None:
    done = subprocess.run(
        [sys.executable, "-c", _SERVE_LIKE],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=ROOT,
        check=True,
    )
    lines = [line for line in done.stderr.splitlines() if line.strip()]
    parsed = []
    for line in lines:
        try:
            parsed.append(json.loads(line))
        except json.JSONDecodeError:
            pytest.fail(f"not a JSON line: {line!r}\n{done.stderr}")
    pool = [p for p in parsed if p["logger"] == "psycopg.pool"]
    assert [p["message"] for p in pool] == ["discarding closed connection: <conn>"]
    assert pool[0]["level"] == "warning"
    assert any(p["logger"] == "engram.api" for p in parsed)


# -- another program's database ----------------------------------------------------------


@pytest.mark.postgres
def test_another_programs_database_is_refused_untouched(
    pg_server: PgServer, tmp_path: Path
) -> None:
    from engram import Config
    from engram.migrate_store import migrate_locations

    name = pg_server.create_database(migrated=False)
    url = pg_server.database_url(name)
    try:
        with psycopg.connect(url, autocommit=True) as conn:
            conn.execute("CREATE EXTENSION IF NOT EXISTS vector")
            conn.execute("CREATE TABLE customers (id int, name text)")
        target = tmp_path / "copy.db"
        with pytest.raises(StoreError, match=r"not an engram store.*customers"):
            migrate_locations(url, f"sqlite:///{target}", Config.load(home=tmp_path))
        with pytest.raises(StoreError, match="schema of its own"):
            PostgresStore(url).close()
        with psycopg.connect(url) as conn:
            tables = conn.execute(
                "SELECT tablename FROM pg_tables WHERE schemaname = 'public'"
            ).fetchall()
        assert tables == [("customers",)]
        assert not target.exists()
    finally:
        pg_server.drop_database(name)


def test_an_extensions_own_table_is_not_another_programs(pg_server: PgServer) -> None:
    # PostGIS puts spatial_ref_sys in public; a table that belongs to an extension is no
    # application's data, so engram opens the database (made here with ALTER EXTENSION).
    name = pg_server.create_database(migrated=False)
    url = pg_server.database_url(name)
    try:
        with psycopg.connect(url, autocommit=True) as conn:
            conn.execute("CREATE EXTENSION IF NOT EXISTS vector")
            conn.execute("CREATE TABLE spatial_ref_sys (srid int)")
            conn.execute("ALTER EXTENSION vector ADD TABLE spatial_ref_sys")
        PostgresStore(url).close()
        with psycopg.connect(url) as conn:
            count = conn.execute(
                "SELECT count(*) FROM pg_tables WHERE schemaname = 'public'"
            ).fetchone()
        assert count is not None and count[0] > 2  # engram's tables beside it
    finally:
        pg_server.drop_database(name)
