"""Writes that span parts of a store commit in one transaction, on every backend.

``store.transaction()`` holds one transaction open; the memories part's insert (the
memory row, its keyword index row and its history row), a feedback rating and a
transcript written inside it commit together, or not at all. The kill test runs the
write in a child process and SIGKILLs it half way, between the parts' writes and the
commit, then reopens the store and finds nothing of it.
"""

from __future__ import annotations

import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from engram import Config, NotFoundError
from engram.store import Store, open_store
from engram.text import fts_query
from engram.validate import build_record


def _child(location: str, home: Path, kill: bool) -> subprocess.CompletedProcess[str]:
    """Run the spanning write in a fresh process; SIGKILL it before the commit if
    ``kill``. It prints what it saw inside the open transaction."""
    code = textwrap.dedent(
        """
        import os, signal, sys
        from engram import Config
        from engram.store import ListQuery, open_store
        from engram.validate import build_record

        location, home, kill = sys.argv[1], sys.argv[2], sys.argv[3] == "kill"
        store = open_store(location, Config.load(env={}, home=home))
        [old] = store.memories.select("default", ListQuery(limit=1))
        with store.transaction():
            [new] = store.memories.insert(
                [build_record("the zebra migration is in march", namespace="default",
                              max_chars=1000, session_id="s-1")]
            )
            store.feedback.record("default", old.id, 1, "half way")
            store.transcripts.put("default", "s-1", "user: zebras?")
            inside = store.memories.get("default", new.record.id)
            print("inside", inside is not None, new.record.id, flush=True)
            if kill:
                os.kill(os.getpid(), signal.SIGKILL)
        print("committed", flush=True)
        """
    )
    return subprocess.run(
        [sys.executable, "-c", code, location, str(home), "kill" if kill else "commit"],
        capture_output=True,
        text=True,
        timeout=120,
    )


def _seed(location: str, config: Config) -> str:
    store = open_store(location, config)
    try:
        [result] = store.memories.insert(
            [build_record("an older memory about giraffes", namespace="default", max_chars=1000)]
        )
        return result.record.id
    finally:
        store.close()


def _keyword(store: Store, text: str) -> list[str]:
    match = fts_query(text)
    assert match is not None
    return [memory_id for memory_id, _ in store.keyword.search("default", match, 10)]


def test_a_write_killed_half_way_leaves_nothing(
    reopenable: str, config: Config, tmp_path: Path
) -> None:
    old = _seed(reopenable, config)
    run = _child(reopenable, tmp_path / "home", kill=True)
    assert run.returncode == -signal.SIGKILL, run.stderr
    # The child got half way: its own reads saw the new memory inside the transaction.
    inside, seen, new_id = run.stdout.split()
    assert (inside, seen) == ("inside", "True")
    store = open_store(reopenable, config)
    try:
        assert store.memories.get("default", new_id, include_deleted=True) is None
        assert store.memories.history("default", new_id) == []
        assert _keyword(store, "zebra migration") == []
        assert store.memories.get("default", old) is not None
        assert store.memories.get("default", old).quality == 0  # type: ignore[union-attr]
        assert store.feedback.log("default") == []
        assert [h.event for h in store.memories.history("default", old)] == ["create"]
        assert store.transcripts.get("default", ["s-1"]) == {}
        assert store.memories.count("default") == 1
        # The store is whole and writable after the kill.
        [again] = store.memories.insert(
            [build_record("the zebra migration is in march", namespace="default", max_chars=1000)]
        )
        assert again.created
    finally:
        store.close()


def test_a_spanning_write_commits_every_part(
    reopenable: str, config: Config, tmp_path: Path
) -> None:
    old = _seed(reopenable, config)
    run = _child(reopenable, tmp_path / "home", kill=False)
    assert run.returncode == 0, run.stderr
    new_id = run.stdout.split()[2]
    store = open_store(reopenable, config)
    try:
        assert store.memories.get("default", new_id) is not None
        assert [h.event for h in store.memories.history("default", new_id)] == ["create"]
        assert _keyword(store, "zebra migration") == [new_id]
        assert store.memories.get("default", old).quality == 1  # type: ignore[union-attr]
        assert [r["comment"] for r in store.feedback.log("default")] == ["half way"]
        assert store.transcripts.get("default", ["s-1"]) == {"s-1": "user: zebras?"}
    finally:
        store.close()


def test_an_error_inside_rolls_back_every_part(any_store: Store) -> None:
    [old] = any_store.memories.insert(
        [build_record("an older memory about giraffes", namespace="default", max_chars=1000)]
    )
    with pytest.raises(RuntimeError, match="boom"), any_store.transaction():
        any_store.memories.insert(
            [build_record("the zebra migration is in march", namespace="default", max_chars=1000)]
        )
        any_store.feedback.record("default", old.record.id, 1, None)
        any_store.transcripts.put("default", "s-1", "raw")
        raise RuntimeError("boom")
    assert any_store.memories.count("default") == 1
    assert _keyword(any_store, "zebra") == []
    assert any_store.feedback.log("default") == []
    assert any_store.transcripts.get("default", ["s-1"]) == {}


def test_a_failed_part_inside_rolls_back_only_itself(any_store: Store) -> None:
    """A part's write that fails inside the block is undone alone (a savepoint); the
    caller may handle it and commit the rest."""
    with any_store.transaction():
        [kept] = any_store.memories.insert(
            [build_record("kept across a failed update", namespace="default", max_chars=1000)]
        )
        with pytest.raises(NotFoundError):
            any_store.memories.update("default", "no-such-id", {"title": "x"})
        any_store.transcripts.put("default", "s-2", "raw")
    assert any_store.memories.get("default", kept.record.id) is not None
    assert any_store.transcripts.get("default", ["s-2"]) == {"s-2": "raw"}
