"""A SQLite file that is not an engram store is not made one (task dogfood16, round
sixteen). ``engram migrate-store --from sqlite:///other.db`` (a team's app database
given by mistake), ``engram --db other.db list`` or ``Memory("other.db")`` opened it as
a store: switched it to WAL and wrote engram's 50-odd tables into it beside the
owner's (the file grew from 8 KiB to 656 KiB), and migrate-store then "copied" an
empty store and said ok. Now the open is refused before anything is written, naming
the file and its tables; an empty file, a new path and an engram store open as before.
(PostgreSQL has no such case: a database's schema shared with an app's tables is how
engram is meant to be deployed there, docs/deploy-postgres.md.)"""

from __future__ import annotations

import hashlib
import sqlite3
from pathlib import Path

import pytest
from click.testing import CliRunner

from conftest import HashEmbedder
from engram import Memory, StoreError
from engram.cli.main import cli


def _app_db(path: Path) -> Path:
    with sqlite3.connect(path) as conn:
        conn.execute("CREATE TABLE invoices (id INTEGER PRIMARY KEY, total REAL)")
        conn.execute("CREATE TABLE customers (id INTEGER PRIMARY KEY, name TEXT)")
        conn.execute("INSERT INTO invoices(total) VALUES (12.5)")
    conn.close()
    return path


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_memory_refuses_a_sqlite_file_of_another_app(tmp_path: Path) -> None:
    app = _app_db(tmp_path / "app.db")
    before = _digest(app)
    with pytest.raises(StoreError) as caught:
        Memory(str(app), embedder=HashEmbedder())
    message = str(caught.value)
    assert f"{app} is a SQLite database but not an engram store" in message, message
    assert "customers, invoices" in message
    assert "engram would add its own tables to it" in message
    assert _digest(app) == before
    assert not Path(f"{app}-wal").exists()


def test_an_empty_file_a_new_path_and_a_store_still_open(tmp_path: Path) -> None:
    empty = tmp_path / "empty.db"
    empty.touch()
    for path in (empty, tmp_path / "new.db"):
        with Memory(str(path), embedder=HashEmbedder()) as mem:
            mem.add("Ann likes tea", user_id="ann")
        with Memory(str(path), embedder=HashEmbedder()) as mem:
            assert [r.content for r in mem.get_all(user_id="ann")] == ["Ann likes tea"]


def test_migrate_store_refuses_it_as_a_source(tmp_path: Path) -> None:
    app = _app_db(tmp_path / "app.db")
    before = _digest(app)
    target = tmp_path / "target.db"
    home = str(tmp_path / "home")
    args = ["migrate-store", "--from", f"sqlite:///{app}", "--to", f"sqlite:///{target}"]
    result = CliRunner().invoke(cli, ["--home", home, *args])
    assert result.exit_code != 0, result.output
    assert "is a SQLite database but not an engram store" in result.output
    assert _digest(app) == before
