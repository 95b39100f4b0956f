"""Snapshot what the per-backend migrations of commit 377cb58 made, for
tests/test_migrations_shared.py (the shared migration list must make the same).

377cb58 is the last commit with one migration list per backend
(``store/sqlite/migrations.py`` and ``store/postgres/migrations.py``). This script takes
that commit's ``src`` and ``tests`` with ``git archive`` into a temporary directory and
runs itself again with them first on the path, so everything below runs the old code:

- each backend's schema after every one of its migrations, applied one at a time to a
  new database (the first in full, then what each step changed: tests/schema_dump.py
  describes the format), with the rows the migrations themselves write;
- old databases to upgrade, in ``tests/data/old_db/``: one filled through the library
  at the latest old migration (rows in every table ``migrate-store`` carries, made by
  ``fill`` of tests/test_migrate_tables.py, and a long memory for ``memory_chunks``;
  only the queues a commit drains stay empty), and two made at earlier migrations
  (SQLite ``004_provenance`` and ``014_review``, PostgreSQL ``003_vectors_feedback`` and
  ``010_review``) holding the filled database's rows in the tables that existed then.
  SQLite files are gzipped as they are; PostgreSQL databases are ``pg_dump --inserts``
  scripts, gzipped. For each: the row checksums as the test will restore it, and after
  the old code upgraded it to its latest migration, with the schema it then had (as a
  change from a new database's; on SQLite without the order objects were made in).

Everything goes to ``tests/data/schema_377cb58.json``. Run it from the repository root
with the dev venv (PostgreSQL comes from tests/pgserver.py, as in the test suite)::

    .venv/bin/python scripts/snapshot_old_schema.py

Regenerating gives the same schema; the old databases get new ids and times (their
checksums are rewritten with them).
"""

from __future__ import annotations

import argparse
import gzip
import os
import shutil
import sqlite3
import subprocess
import sys
import tempfile
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

OLD = "377cb58"
ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "tests" / "data"
POINTS = {
    "sqlite": ["004_provenance", "014_review"],
    "postgres": ["003_vectors_feedback", "010_review"],
}
#: Tables a made-up old database does not copy from the filled one: the bookkeeping of
#: indexes that only the store builds (FTS5 tables per namespace, pgvector HNSW indexes).
NOT_COPIED = {
    "engram_meta",  # the counters of the keys that exist then are set after the copy
    "schema_migrations",
    "sqlite_sequence",
    "fts_namespaces",
    "hint_namespaces",
    "vector_indexes",
}
NS = "user:alice"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--inside", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.inside:
        generate(Path(args.inside))
        return
    with tempfile.TemporaryDirectory(prefix="engram-old-") as tmp:
        archive = subprocess.run(
            ["git", "-C", str(ROOT), "archive", OLD, "src", "tests"],
            check=True,
            capture_output=True,
        ).stdout
        subprocess.run(["tar", "-x", "-C", tmp], input=archive, check=True)
        env = dict(os.environ)
        # The old code and its tests first; this checkout's tests/ only for schema_dump.
        env["PYTHONPATH"] = os.pathsep.join([f"{tmp}/src", f"{tmp}/tests", str(ROOT / "tests")])
        subprocess.run([sys.executable, __file__, "--inside", tmp], check=True, env=env)


# -- run under the old code --------------------------------------------------------------


def generate(tmp: Path) -> None:
    import schema_dump as sd
    from engram.store.sqlite import migrations

    if not Path(migrations.__file__).is_relative_to(tmp):
        raise SystemExit(f"expected the code of {OLD} from {tmp}, got {migrations.__file__}")
    work = tmp / "work"
    work.mkdir()
    shutil.rmtree(DATA / "old_db", ignore_errors=True)
    (DATA / "old_db").mkdir(parents=True)
    out: dict[str, Any] = {"commit": OLD, "made_by": "scripts/snapshot_old_schema.py"}
    out["sqlite"] = sqlite_snapshot(work, sd)
    out["postgres"] = postgres_snapshot(work, sd)
    target = DATA / f"schema_{OLD}.json"
    target.write_text(sd.dumps(out) + "\n", encoding="utf-8")
    print(f"wrote {target.relative_to(ROOT)}")


def _fill(location: str, work: Path) -> None:
    from conftest import Clock, HashEmbedder
    from engram import Memory
    from test_migrate_tables import _config, fill

    config = _config(work).with_overrides(recall={"chunk_chars": 200})
    with Memory(location, config=config, embedder=HashEmbedder()) as mem:
        fill(mem, Clock(datetime(2026, 3, 1, 9, 0, tzinfo=UTC)))
        # a long memory, so its chunk vectors fill memory_chunks
        mem.add(" ".join(f"Alice packed item {i} for the trip" for i in range(40)), namespace=NS)


def _final(steps: list[dict[str, Any]], sd: Any) -> dict[str, Any]:
    schema: dict[str, Any] = {}
    for step in steps:
        schema = sd.apply(schema, step)
    return {k: v for k, v in schema.items() if not k.startswith("rows ")}


# -- SQLite ----------------------------------------------------------------------------


def sqlite_snapshot(work: Path, sd: Any) -> dict[str, Any]:
    from engram.store.sqlite import migrations

    conn = sqlite3.connect(work / "steps.db", isolation_level=None)
    steps, before = [], {}
    for name, _ in migrations.MIGRATIONS:
        migrations.migrate(conn, upto=name)
        now = sd.sqlite_schema(conn) | {f"rows {t}": c for t, c in sd.sqlite_rows(conn).items()}
        steps.append({"name": name, **sd.delta(before, now)})
        before = now
    conn.close()
    final = _final(steps, sd)

    full = work / "full.db"
    _fill(str(full), work)
    fixtures = []
    for point in POINTS["sqlite"]:
        made = work / f"sqlite-{point}.db"
        _sqlite_old_database(full, made, point)
        fixtures.append(_sqlite_fixture(made, point, work, final, sd))
    fixtures.append(_sqlite_fixture(full, "latest", work, final, sd))
    return {"steps": steps, "fixtures": fixtures}


def _sqlite_old_database(full: Path, path: Path, point: str) -> None:
    """A database at migration ``point`` holding ``full``'s rows of the tables it has."""
    from engram.store.sqlite import fts, migrations

    conn = sqlite3.connect(path, isolation_level=None)
    migrations.migrate(conn, upto=point)
    conn.execute("ATTACH DATABASE ? AS src", (str(full),))
    objects = conn.execute(
        "SELECT name, sql FROM main.sqlite_master WHERE type = 'table' ORDER BY rowid"
    ).fetchall()
    virtual = [n for n, sql in objects if sql.startswith("CREATE VIRTUAL TABLE")]
    conn.execute("BEGIN IMMEDIATE")
    for table, _ in objects:
        if table in NOT_COPIED or table in virtual or any(table.startswith(v) for v in virtual):
            continue
        mine = [r[1] for r in conn.execute(f"PRAGMA main.table_info({table})")]
        theirs = {r[1] for r in conn.execute(f"PRAGMA src.table_info({table})")}
        cols = ", ".join(f'"{c}"' for c in mine if c in theirs)
        conn.execute(
            f"INSERT OR REPLACE INTO main.{table} ({cols}) "
            f"SELECT {cols} FROM src.{table} ORDER BY rowid"
        )
    conn.execute(
        "UPDATE main.engram_meta SET value = "
        "(SELECT value FROM src.engram_meta s WHERE s.key = engram_meta.key)"
    )
    if point >= "008_namespace_fts":
        fts.flush(conn)  # as the store does before it commits
    if point == "004_provenance":  # 009 forgets a model whose vector is gone
        conn.execute(
            "DELETE FROM memory_vectors WHERE memory_seq = (SELECT min(seq) FROM memories)"
        )
    if point == "014_review":  # 015 gives an old entity its normalised spelling
        conn.execute(
            "INSERT INTO entities(namespace, name, canonical_name, created_at, updated_at) "
            "VALUES (?, 'Dr. Smith', 'dr. smith', '2026-01-01T00:00:00+00:00', "
            "'2026-01-01T00:00:00+00:00')",
            (NS,),
        )
    conn.execute("COMMIT")
    conn.execute("DETACH DATABASE src")
    conn.close()


def _sqlite_fixture(
    made: Path, point: str, work: Path, final: dict[str, Any], sd: Any
) -> dict[str, Any]:
    from engram.store.sqlite import migrations

    name = f"sqlite-{point}.db.gz"
    sd.gzip_file(made, DATA / "old_db" / name)
    copy = work / f"check-{name}.db"
    sd.gunzip_file(DATA / "old_db" / name, copy)
    conn = sqlite3.connect(copy, isolation_level=None)
    try:
        before = sd.sqlite_rows(conn)
        migrations.migrate(conn)
        after = sd.sqlite_rows(conn)
        schema = sd.delta(sd.unordered(final), sd.unordered(sd.sqlite_schema(conn)))
    finally:
        conn.close()
    if point == "latest" and before != after:
        raise SystemExit("the old code changed rows of a database at its latest migration")
    return {"file": name, "point": point, "rows_before": before, "rows_after": after,
            "schema": schema}  # fmt: skip


# -- PostgreSQL ------------------------------------------------------------------------


def postgres_snapshot(work: Path, sd: Any) -> dict[str, Any]:
    import psycopg

    from engram.store.postgres import migrations
    from pgserver import PgServer

    server = PgServer.start()
    try:
        url = server.database_url(server.create_database(migrated=False))
        steps, before = [], {}
        with psycopg.connect(url, autocommit=True) as conn:
            for name, _ in migrations.MIGRATIONS:
                migrations.migrate(conn, upto=name)
                now = sd.pg_schema(conn) | {f"rows {t}": c for t, c in sd.pg_rows(conn).items()}
                steps.append({"name": name, **sd.delta(before, now)})
                before = now
        final = _final(steps, sd)

        full = server.database_url(server.create_database(migrated=False))
        _fill(full, work)
        fixtures = []
        for point in POINTS["postgres"]:
            made = server.database_url(server.create_database(migrated=False))
            _pg_old_database(full, made, point)
            fixtures.append(_pg_fixture(server, made, point, final, sd))
        fixtures.append(_pg_fixture(server, full, "latest", final, sd))
        return {"steps": steps, "fixtures": fixtures}
    finally:
        server.stop()


def _pg_old_database(full: str, url: str, point: str) -> None:
    """A database at migration ``point`` holding ``full``'s rows of the tables it has.
    Rows are copied as they are (``session_replication_role = replica``: no trigger
    runs, so keyword vectors and ``live`` flags come along), then identities move on."""
    import psycopg

    from engram.store.postgres import migrations

    with psycopg.connect(full) as src, psycopg.connect(url, autocommit=True) as dst:
        migrations.migrate(dst, upto=point)
        tables = [
            r[0]
            for r in dst.execute(
                "SELECT c.relname FROM pg_class c WHERE c.relkind = 'r' "
                "AND c.relnamespace = current_schema()::regnamespace ORDER BY c.oid"
            )
        ]
        with dst.transaction():
            dst.execute("SET LOCAL session_replication_role = replica")
            for table in tables:
                if table in NOT_COPIED:
                    continue
                mine = _pg_columns(dst, table)
                theirs = set(_pg_columns(src, table))
                cols = ", ".join(f'"{c}"' for c in mine if c in theirs)
                with (
                    src.cursor().copy(f"COPY (SELECT {cols} FROM {table}) TO STDOUT") as cin,
                    dst.cursor().copy(f"COPY {table} ({cols}) FROM STDIN") as cout,
                ):
                    for data in cin:
                        cout.write(data)
            for key, value in src.execute("SELECT key, value FROM engram_meta").fetchall():
                dst.execute("UPDATE engram_meta SET value = %s WHERE key = %s", (value, key))
        for table, column in dst.execute(
            "SELECT table_name, column_name FROM information_schema.columns "
            "WHERE table_schema = current_schema() AND (is_identity = 'YES' "
            "OR column_default LIKE 'nextval(%%')"
        ).fetchall():
            dst.execute(
                f"SELECT setval(pg_get_serial_sequence('{table}', '{column}'), max({column})) "
                f"FROM {table} HAVING max({column}) IS NOT NULL"
            )
        if point == "003_vectors_feedback":  # 005 forgets a model whose vector is gone
            dst.execute(
                "DELETE FROM memory_vectors WHERE memory_id = "
                "(SELECT min(memory_id) FROM memory_vectors)"
            )
        if point == "010_review":  # 011 gives an old entity its normalised spelling
            dst.execute(
                "INSERT INTO entities(namespace, name, canonical_name, created_at, updated_at) "
                "VALUES (%s, 'Dr. Smith', 'dr. smith', '2026-01-01T00:00:00+00:00', "
                "'2026-01-01T00:00:00+00:00')",
                (NS,),
            )


def _pg_columns(conn: Any, table: str) -> list[str]:
    """The columns of ``table`` a row is written with (not generated ones), in order."""
    return [
        r[0]
        for r in conn.execute(
            "SELECT attname FROM pg_attribute WHERE attrelid = %s::regclass AND attnum > 0 "
            "AND NOT attisdropped AND attgenerated = '' ORDER BY attnum",
            (table,),
        )
    ]


def _pg_fixture(
    server: Any, made: str, point: str, final: dict[str, Any], sd: Any
) -> dict[str, Any]:
    import psycopg

    from engram.store.postgres import migrations
    from pgserver import pg_bin

    dump = subprocess.run(
        [str(pg_bin() / "pg_dump"), "--inserts", "--no-owner", "--no-privileges",
         "--no-comments", "--dbname", made],
        check=True, capture_output=True, text=True,
    ).stdout  # fmt: skip
    name = f"postgres-{point}.sql.gz"
    with gzip.GzipFile(DATA / "old_db" / name, "wb", mtime=0) as f:
        f.write(dump.encode())
    copy = server.database_url(server.create_database(migrated=False))
    with psycopg.connect(copy, autocommit=True) as conn:
        sd.pg_restore(conn, gzip.decompress((DATA / "old_db" / name).read_bytes()).decode())
    with psycopg.connect(made) as conn:
        original = sd.pg_rows(conn)
    with psycopg.connect(copy, autocommit=True) as conn:
        before = sd.pg_rows(conn)
        if before != original:
            raise SystemExit(f"{name} does not restore the rows it was made with")
        migrations.migrate(conn)
        after = sd.pg_rows(conn)
        schema = sd.delta(final, sd.pg_schema(conn))
    if point == "latest" and before != after:
        raise SystemExit("the old code changed rows of a database at its latest migration")
    return {"file": name, "point": point, "rows_before": before, "rows_after": after,
            "schema": schema}  # fmt: skip


if __name__ == "__main__":
    main()
