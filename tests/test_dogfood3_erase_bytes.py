"""An erased user's words leave the SQLite file, not only its tables (new-user pass,
round three). After ``erase(user_id=...)`` no row named the erased text, but the keyword
index's FTS5 segments kept its tokens ("berlin" in two ``fts_<n>_data`` blocks) until a
merge that might never come: a GDPR erase must not leave them readable in the file.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import pytest

from conftest import HashEmbedder
from engram import Config, Memory

SECRET = "Zanzibarqux"  # a word nothing else in the store holds


@pytest.mark.parametrize("notes", [1, 2, 30])
def test_an_erased_users_words_are_gone_from_the_file(tmp_path: Path, notes: int) -> None:
    path = tmp_path / "engram.db"
    config = Config.load(env={}, home=str(tmp_path), pipeline={"enabled": False})
    with Memory(str(path), config=config, embedder=HashEmbedder()) as mem:
        for i in range(notes):
            mem.add(f"note {i}: the {SECRET} account renews in March", user_id="alice")
        mem.add("Bob likes oolong tea", user_id="bob")
        assert mem.search(SECRET, user_id="alice")
        mem.erasure.erase(user_id="alice")
        assert mem.search("oolong", user_id="bob")  # bob's index still answers
    held = b"".join(p.read_bytes() for p in tmp_path.glob("engram.db*")).lower()
    assert SECRET.lower().encode() not in held


def test_erased_words_are_zeroed_where_sqlites_build_does_not_secure_delete(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Debian's SQLite zeroes deleted content by default; python.org's and most other
    builds do not, and there a deleted row's text stays in the file's free pages. engram
    sets ``secure_delete`` itself: simulated here with connections that start with it
    off."""
    connect = sqlite3.connect

    def build_without_secure_delete(*args: Any, **kwargs: Any) -> sqlite3.Connection:
        conn = connect(*args, **kwargs)
        conn.execute("PRAGMA secure_delete = OFF")
        return conn

    monkeypatch.setattr(sqlite3, "connect", build_without_secure_delete)
    path = tmp_path / "engram.db"
    config = Config.load(env={}, home=str(tmp_path), pipeline={"enabled": False})
    with Memory(str(path), config=config, embedder=HashEmbedder()) as mem:
        for i in range(3):
            mem.add(f"note {i}: the {SECRET} account renews in March", user_id="alice")
        mem.add("Bob likes oolong tea", user_id="bob")
        mem.erasure.erase(user_id="alice")
    held = b"".join(p.read_bytes() for p in tmp_path.glob("engram.db*")).lower()
    assert SECRET.lower().encode() not in held
