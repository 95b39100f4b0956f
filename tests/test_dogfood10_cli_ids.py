"""The other commands that take an id, walked with a 12-character prefix, an ambiguous
one and an unknown one (new-user pass, round ten): ``keys revoke`` and ``shared
retract`` took only the whole id."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from conftest import run_cli as run
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


def test_shared_retract_takes_the_short_id(tmp_path: Path) -> None:
    home = tmp_path / "home"
    made = run(home, "shared", "publish", "alice", "Backups run at 02:00 UTC", "--json")
    assert made.exit_code == 0, made.output
    full = json.loads(made.stdout)["id"]
    unknown = run(home, "shared", "retract", "alice", "ffffffffffff")
    assert unknown.exit_code != 0 and "as an id or id prefix" in unknown.output
    gone = run(home, "shared", "retract", "alice", full[:12] + "…")
    assert gone.exit_code == 0, gone.output
    assert f"retracted {full}" in gone.stdout
    assert json.loads(run(home, "shared", "list", "--json").stdout)["items"] == []


def test_an_id_from_another_namespace_names_the_flags_that_find_it(tmp_path: Path) -> None:
    """Lead's pass, session thirty-one: `engram add ... --user dana` then `engram show
    PREFIX` said only "`engram list` shows the ids", and `engram list` (the default
    namespace) does not show it either: ids are per namespace."""
    home = tmp_path / "home"
    added = run(home, "add", "The staging database is Postgres 15.", "--user", "dana")
    assert added.exit_code == 0, added.output
    prefix = added.stdout.split()[1][:10]
    missing = run(home, "show", prefix)
    assert missing.exit_code != 0
    assert "namespace 'default'" in missing.output and "--user" in missing.output
    found = run(home, "show", prefix, "--user", "dana")
    assert found.exit_code == 0 and "Postgres 15" in found.stdout
