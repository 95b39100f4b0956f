"""Ids in round ten's leftovers (new-user pass, round eleven): ``engram keys list``
printed whole 32-character ids, which left the other columns no room at 80 columns,
where every other table shows the shortest unique prefix that commands take back."""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import run_cli as run
from engram import Memory
from engram.errors import InvalidInputError, NotFoundError

SHARED = "0190a1b2c3d4"
ALICE, BOB = (SHARED + c * 20 for c in "ab")
CAROL = "0190ffee" + "c" * 24


def test_keys_resolve_takes_an_id_or_a_unique_prefix(
    mem: Memory, monkeypatch: pytest.MonkeyPatch
) -> None:
    ids = iter([ALICE, BOB])
    monkeypatch.setattr("engram.keys.new_id", lambda: next(ids))
    mem.keys.create("alice")
    mem.keys.create("bob")
    assert mem.keys.resolve(ALICE) == ALICE
    assert mem.keys.resolve(BOB[:13]) == BOB
    with pytest.raises(InvalidInputError, match="it matches 2 API keys"):
        mem.keys.resolve(SHARED)
    with pytest.raises(NotFoundError, match="`engram keys list` shows them"):
        mem.keys.resolve("ffffffffffff")


def test_keys_list_shows_the_short_id_that_revoke_takes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    home = tmp_path / "home"
    ids = iter([ALICE, BOB, CAROL])
    monkeypatch.setattr("engram.keys.new_id", lambda: next(ids))
    for user in ("alice", "bob", "carol"):
        assert run(home, "keys", "create", "--user", user).exit_code == 0
    listed = run(home, "keys", "list")
    assert listed.exit_code == 0, listed.output
    rows = {
        line.split()[3]: line.split()[1]
        for line in listed.stdout.splitlines()
        if line.startswith("│") and line.split()[3] in {"alice", "bob", "carol"}
    }
    # the shortest prefix that names each key alone: 13 characters for the two that
    # share 12, the minimum 8 for the third; never the whole id
    assert rows == {"alice": ALICE[:13], "bob": BOB[:13], "carol": CAROL[:8]}
    revoked = run(home, "keys", "revoke", rows["bob"])
    assert revoked.exit_code == 0, revoked.output
    assert f"revoked {BOB}" in revoked.stdout
