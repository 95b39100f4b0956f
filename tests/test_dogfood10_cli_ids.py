"""The other commands that take an id, walked with a 12-character prefix, an ambiguous
one and an unknown one (new-user pass, round ten): ``keys revoke`` and ``shared
retract`` took only the whole id."""

from __future__ import annotations

import pytest

from engram import Memory
from engram.errors import InvalidInputError, NotFoundError

SHARED = "0190a1b2c3d4"
ALICE, BOB = (SHARED + c * 20 for c in "ab")


def test_keys_revoke_takes_a_unique_prefix(mem: Memory, monkeypatch: pytest.MonkeyPatch) -> None:
    ids = iter([ALICE, BOB])
    monkeypatch.setattr("engram.keys.new_id", lambda: next(ids))
    mem.keys.create("alice")
    mem.keys.create("bob")
    with pytest.raises(InvalidInputError, match="it matches 2 API keys; give more characters"):
        mem.keys.revoke(SHARED)
    with pytest.raises(NotFoundError, match="`engram keys list` shows them"):
        mem.keys.revoke("ffffffffffff")
    assert not any(k.revoked for k in mem.keys.list())
    assert mem.keys.revoke(ALICE[:13]).id == ALICE
    assert [k.user for k in mem.keys.list() if k.revoked] == ["alice"]
