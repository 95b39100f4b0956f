"""SQLite file stores read through a memory map (recall's random row reads at scale,
docs/benchmarks.md "Recall's fuse stage at scale"), and a mapped reader still sees what
another connection writes and deletes."""

from __future__ import annotations

from pathlib import Path

from conftest import HashEmbedder
from engram import Config, Memory
from engram.store.sqlite.db import MMAP_BYTES, Database


def test_both_connections_of_a_file_store_are_mapped(tmp_path: Path) -> None:
    db = Database(tmp_path / "engram.db", busy_timeout_ms=5000)
    try:
        for conn in (db.conn, db.search_conn):
            assert conn.execute("PRAGMA mmap_size").fetchone()[0] == MMAP_BYTES
        # A long read's own connection (a cold vector load) reads without the map.
        with db.side_snapshot() as side:
            assert side.execute("PRAGMA mmap_size").fetchone()[0] == 0
    finally:
        db.close()


def test_a_mapped_reader_sees_another_writers_adds_and_deletes(
    config: Config, tmp_path: Path
) -> None:
    path = tmp_path / "engram.db"
    with (
        Memory(path, config=config, embedder=HashEmbedder()) as writer,
        Memory(path, config=config, embedder=HashEmbedder()) as reader,
    ):
        first = writer.add("the lighthouse keeper paints the door blue")
        assert reader.recall("lighthouse door").hits[0].id == first.id
        # Enough rows that the file grows past what the reader mapped and read before.
        writer.add_many([f"filler memory number {i} about harbours" for i in range(300)])
        second = writer.add("the lighthouse keeper bought a red boat")
        assert reader.get(second.id).content == second.content
        writer.delete(first.id)
        assert first.id not in {h.id for h in reader.recall("lighthouse keeper").hits}
