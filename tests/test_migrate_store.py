"""``engram migrate-store``: SQLite to PostgreSQL and back, lossless, verified, resumable."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from click.testing import CliRunner

from conftest import HashEmbedder
from engram import Config, Memory
from engram.cli.main import cli
from engram.migrate_store import TABLES, migrate_store, table_checksums, verify_copy
from engram.records import ApiKey
from engram.store import open_store

pytestmark = pytest.mark.postgres


def fill(mem: Memory) -> dict[str, Any]:
    """A store with every kind of row: live, updated, tombstoned, rated, two namespaces."""
    kept = mem.add("Alice keeps bees on the roof", tags=["hobby"], metadata={"hives": 3})
    mem.add_many([f"note {i} about the migration plan" for i in range(7)], namespace="team")
    changed = mem.add("the launch is on Monday", title="launch")
    mem.update(changed.id, "the launch moved to Thursday")
    gone = mem.add("an outdated memory")
    mem.delete(gone.id)
    mem.feedback(kept.id, "up", "useful")
    mem.feedback(kept.id, "up")
    mem.add("Alice keeps bees on the roof.")  # a dedup event in the history
    mem.add_transcript("session-1", "user: hi\nassistant: hello", agent_id="bot")
    mem.store.keys.add(ApiKey(id="key1", user="alice", name="ci"), "a" * 64)
    return {"kept": kept.id, "changed": changed.id, "gone": gone.id}


def sqlite_memory(path: Path, config: Config) -> Memory:
    return Memory(path, config=config, embedder=HashEmbedder())


def test_cli_copies_sqlite_to_postgres_and_verifies(
    tmp_path: Path, config: Config, pg_url: str
) -> None:
    db = tmp_path / "source.db"
    with sqlite_memory(db, config) as mem:
        ids = fill(mem)
        before = table_checksums(mem.store)
    result = CliRunner().invoke(
        cli,
        [
            "--home",
            str(tmp_path / "home"),
            "migrate-store",
            "--from",
            f"sqlite:///{db}",
            "--to",
            pg_url,
            "--batch",
            "3",
            "--json",
        ],
    )
    assert result.exit_code == 0, result.output
    report = json.loads(result.output)
    assert report["ok"] is True
    assert {t["table"] for t in report["tables"]} == set(TABLES)
    counts = {t["table"]: t["target_rows"] for t in report["tables"]}
    assert counts["memories"] == 10 and counts["memory_vectors"] == 10
    assert counts["session_transcripts"] == 1 and counts["api_keys"] == 1
    assert report["copied"]["memories"] == 10 and report["copied"]["api_keys"] == 1
    with Memory(pg_url, config=config, embedder=HashEmbedder()) as pg:
        assert table_checksums(pg.store) == before
        assert pg.get(ids["kept"]).quality == 2
        assert pg.store.memories.get("default", ids["gone"], include_deleted=True) is not None
        assert [h.event for h in pg.history(ids["kept"])] == [
            "create",
            "feedback",
            "feedback",
            "dedup",
        ]
        assert pg.recall("who keeps bees?", limit=1).hits[0].id == ids["kept"]
        assert pg.recall("launch Thursday", limit=1).hits[0].id == ids["changed"]
        assert pg.recall("migration plan", namespace="team", limit=7).hits
        keys = [(k.id, k.user, k.name, h) for k, h in pg.store.keys.export()]
        assert keys == [("key1", "alice", "ci", "a" * 64)]
    # running it again changes nothing and still verifies
    again = CliRunner().invoke(
        cli, ["migrate-store", "--from", f"sqlite:///{db}", "--to", pg_url, "--json"]
    )
    assert again.exit_code == 0, again.output
    second = json.loads(again.output)
    assert second["ok"] and second["copied"]["memories"] == 0
    assert second["copied"]["existing"] == 11  # 10 memories and the transcript


def test_an_interrupted_copy_resumes(tmp_path: Path, config: Config, pg_url: str) -> None:
    with sqlite_memory(tmp_path / "s.db", config) as mem:
        fill(mem)
        source = mem.store
        target = open_store(pg_url, config)
        try:

            def stop_after_first_page(done: int, total: int) -> None:
                raise KeyboardInterrupt  # the process is killed mid-copy

            with pytest.raises(KeyboardInterrupt):
                migrate_store(source, target, batch=4, progress=stop_after_first_page)
            partial = verify_copy(source, target)
            assert not all(c.ok for c in partial)
            assert target.stats(None).memories  # the first page landed
            report = migrate_store(source, target, batch=4)
            assert report.ok, [c.to_dict() for c in report.checks]
            assert report.copied.existing == 4 and report.copied.memories == 6
        finally:
            target.close()


def test_round_trip_back_to_sqlite_is_identical(
    tmp_path: Path, config: Config, pg_url: str
) -> None:
    with sqlite_memory(tmp_path / "a.db", config) as mem:
        fill(mem)
        original = table_checksums(mem.store)
        pg = open_store(pg_url, config)
        back = open_store(f"sqlite:///{tmp_path / 'b.db'}", config)
        try:
            assert migrate_store(mem.store, pg).ok
            assert migrate_store(pg, back).ok
            assert table_checksums(back) == original
            a = mem.store.vectors.load("default", "test-hash")
            b = back.vectors.load("default", "test-hash")
            assert a.ids == b.ids
            np.testing.assert_array_equal(a.matrix, b.matrix)  # float32, bit for bit
        finally:
            pg.close()
            back.close()


def test_a_target_with_other_data_fails_verification(
    tmp_path: Path, config: Config, pg_url: str
) -> None:
    db = tmp_path / "s.db"
    with sqlite_memory(db, config) as mem:
        fill(mem)
    with Memory(pg_url, config=config, embedder=HashEmbedder()) as pg:
        pg.add("something only the target has")
    result = CliRunner().invoke(cli, ["migrate-store", "--from", str(db), "--to", pg_url])
    assert result.exit_code == 1
    assert "MISMATCH" in result.output


def test_missing_source_is_refused(tmp_path: Path, pg_url: str) -> None:
    result = CliRunner().invoke(
        cli, ["migrate-store", "--from", f"sqlite:///{tmp_path}/nope.db", "--to", pg_url]
    )
    assert result.exit_code == 2
    assert "does not exist" in result.output
