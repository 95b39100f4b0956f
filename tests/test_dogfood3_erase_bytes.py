"""An erased user's words leave the SQLite file, not only its tables (new-user pass,
round three). After ``erase(user_id=...)`` no row named the erased text, but the keyword
index's FTS5 segments kept its tokens ("berlin" in two ``fts_<n>_data`` blocks) until a
merge that might never come: a GDPR erase must not leave them readable in the file.
"""

from __future__ import annotations

from pathlib import Path

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
