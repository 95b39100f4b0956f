"""The scale benchmark on PostgreSQL (``engram bench scale --server postgresql://...``):
each store of a run is a new database on that server, so the cost curve is taken with
the same harness, columns and peer as on SQLite.

A SQLite store is a file and its size on disk is the file's; a PostgreSQL store is a
database, whose size (``pg_database_size``: tables, TOAST, the GIN and HNSW indexes)
is what it costs on disk. The client process's RSS is only part of a PostgreSQL
server's memory: when the server runs on this machine, ``server_pss_mb`` adds up the
proportional set size of its processes (shared buffers counted once).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

from engram.errors import InvalidInputError
from engram.store import is_postgres


def database_url(server: str, name: str) -> str:
    """The URL of database ``name`` on the server that ``server`` (a URL of any of its
    databases) points at; user, host, port and query are kept."""
    parts = urlsplit(server)
    return urlunsplit((parts.scheme, parts.netloc, "/" + name, parts.query, parts.fragment))


def _admin(server: str) -> Any:
    try:
        import psycopg
    except ImportError as exc:
        raise InvalidInputError(
            f"--server needs psycopg: pip install 'engramdb[postgres]' ({exc})"
        ) from None
    try:
        return psycopg.connect(server, autocommit=True, connect_timeout=10)
    except psycopg.Error as exc:
        raise InvalidInputError(f"cannot connect to --server {server}: {exc}") from None


def create_database(server: str, name: str) -> str:
    """A new, empty database ``name`` on ``server``; its URL. An existing one is never
    reused or dropped (it may hold someone's data): the run stops and says so."""
    from psycopg import sql

    with _admin(server) as conn:
        if conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", (name,)).fetchone():
            raise InvalidInputError(
                f"database {name} already exists on {server}: drop it "
                f"(DROP DATABASE {name}) or give --server another server"
            )
        try:
            conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
        except Exception as exc:  # psycopg's errors, e.g. no CREATEDB right
            raise InvalidInputError(
                f"cannot create database {name} on {server} (the user needs CREATEDB): {exc}"
            ) from None
    return database_url(server, name)


def drop_database(server: str, name: str) -> None:
    """Drop database ``name`` on ``server`` (one this run created)."""
    from psycopg import sql

    with _admin(server) as conn:
        conn.execute(
            sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name))
        )


def analyze(url: str) -> None:
    """Refresh the planner's statistics, as autovacuum would shortly after a bulk load."""
    with _admin(url) as conn:
        conn.execute("ANALYZE")


def database_bytes(url: str) -> int:
    """The database's size on disk: its tables, TOAST and indexes (GIN, HNSW)."""
    with _admin(url) as conn:
        row = conn.execute("SELECT pg_database_size(current_database())").fetchone()
    return int(row[0])


def _pss_kb(pid: int) -> int:
    for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines():
        if line.startswith("Pss:"):
            return int(line.split()[1])
    return 0


def _parent(pid: int) -> int:
    # /proc/PID/stat: "pid (comm) state ppid ..."; comm may hold spaces, so split after ')'.
    return int(Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()[1])


def server_pss_mb(url: str) -> float | None:
    """The server's memory in MB: the proportional set size (``Pss``) of its postmaster
    and every process it started, so shared buffers count once. None when the server
    does not run on this machine or its processes cannot be read (Linux ``/proc``)."""
    with _admin(url) as conn:
        row = conn.execute("SELECT pg_backend_pid()").fetchone()
        backend = int(row[0])
        try:
            postmaster = _parent(backend)
            if not Path(f"/proc/{postmaster}/comm").read_text().startswith("postgres"):
                return None  # this pid is not the server's here: it runs elsewhere
            pids = [postmaster]
            for entry in Path("/proc").iterdir():
                if entry.name.isdigit() and int(entry.name) != postmaster:
                    try:
                        if _parent(int(entry.name)) == postmaster:
                            pids.append(int(entry.name))
                    except (OSError, ValueError, IndexError):
                        continue  # a process that ended meanwhile
            total = 0
            for pid in pids:
                try:
                    total += _pss_kb(pid)
                except OSError:
                    continue
        except (OSError, ValueError, IndexError):
            return None
    return round(total / 1024, 1)


@contextmanager
def size_stores(server: str | None, n: int, *, keep: bool) -> Iterator[tuple[str, str] | None]:
    """The two stores of size ``n`` on ``server`` (the corpus's and the add-with-embedding
    sample's), created here and dropped after unless ``keep``; None without a server
    (the run's SQLite files)."""
    if server is None:
        yield None
        return
    if not is_postgres(server):
        raise InvalidInputError(f"--server takes a postgresql:// URL, got {server!r}")
    names = [database_name(n), database_name(n, embedded=True)]
    made: list[str] = []
    try:
        for name in names:
            create_database(server, name)
            made.append(name)
        yield database_url(server, names[0]), database_url(server, names[1])
    finally:
        if not keep:
            for name in made:
                drop_database(server, name)


def database_name(n: int, *, embedded: bool = False) -> str:
    """The database of size ``n`` on a ``--server`` run."""
    return f"engram_scale_{n}" + ("_embedded" if embedded else "")
