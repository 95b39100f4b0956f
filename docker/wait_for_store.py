"""Wait until engram's PostgreSQL store accepts a query (docker/entrypoint.sh runs it).

The store is the one ``engram serve`` will open (``ENGRAM_STORE``, or ``store`` in
``$ENGRAM_HOME/config.toml``). A SQLite store needs no wait. Gives up after
``STORE_WAIT_SECONDS`` (default 60) with exit status 1 and the last error, so a wrong
URL fails the container instead of hanging it. compose.yaml's ``depends_on: condition:
service_healthy`` usually makes the wait short; this also covers a database elsewhere.
"""

from __future__ import annotations

import os
import sys
import time
from urllib.parse import urlsplit

from engram.config import POSTGRES_SCHEMES, Config
from engram.errors import ConfigError


def where(url: str) -> str:
    """``host:port/database`` of a URL: never its password."""
    parts = urlsplit(url)
    return f"{parts.hostname or 'localhost'}:{parts.port or 5432}{parts.path}"


def wait(url: str, seconds: float) -> str | None:
    """None once ``SELECT 1`` succeeds, else the last error after ``seconds``."""
    import psycopg

    deadline = time.monotonic() + seconds
    last = "no attempt was made"
    while True:
        try:
            with psycopg.connect(url, connect_timeout=3) as conn:
                conn.execute("SELECT 1")
            return None
        except psycopg.Error as exc:
            last = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        if time.monotonic() >= deadline:
            return last
        time.sleep(1.0)


def main() -> int:
    """Exit status 0 when the store is ready (or is SQLite), 1 when it never answered."""
    try:
        store = Config.load().store_path
    except ConfigError as exc:
        print(f"engram: {exc}", file=sys.stderr, flush=True)
        return 1
    if not store.startswith(POSTGRES_SCHEMES):
        return 0
    seconds = float(os.environ.get("STORE_WAIT_SECONDS", "60"))
    print(f"engram: waiting for PostgreSQL at {where(store)}", file=sys.stderr, flush=True)
    error = wait(store, seconds)
    if error is None:
        return 0
    print(
        f"engram: PostgreSQL at {where(store)} did not answer within {seconds:g} s: {error}. "
        "Check ENGRAM_STORE (postgresql://user:password@host:5432/db), that the database "
        "runs and is reachable, or raise STORE_WAIT_SECONDS.",
        file=sys.stderr,
        flush=True,
    )
    return 1


if __name__ == "__main__":
    sys.exit(main())
