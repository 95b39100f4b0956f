"""The parts of ``Memory`` (``keys``, ``transcripts``, ``admin``), their async twins, and
the aliases kept for names the guides documented before the parts existed."""

from __future__ import annotations

import asyncio
import io
from pathlib import Path

import pytest

from conftest import HashEmbedder
from engram import AsyncMemory, AuthenticationError, Config, InvalidInputError, Memory


def _two(config: Config, tmp_path: Path) -> tuple[Memory, Memory]:
    """Two stores holding the same memories, one to call the alias on, one the part."""
    pair = []
    for name in ("alias", "part"):
        mem = Memory(tmp_path / f"{name}.db", config=config, embedder=HashEmbedder())
        gone = mem.add("the old deploy script lived in tools/", user_id="alice")
        mem.add("deploys run from ops/deploy.sh", user_id="alice")
        mem.feedback(gone.id, "down", "outdated", user_id="alice")
        mem.delete(gone.id, user_id="alice")
        pair.append(mem)
    return pair[0], pair[1]


def test_aliases_agree_with_their_parts(config: Config, tmp_path: Path) -> None:
    alias, part = _two(config, tmp_path)
    try:
        assert alias.purge(namespace="user:alice") == part.admin.purge(namespace="user:alice") == 1
        log_a = alias.feedback_log(namespace="user:alice")
        log_p = part.admin.feedback_log(namespace="user:alice")
        assert [r["rating"] for r in log_a] == [r["rating"] for r in log_p] == []
        assert alias.reindex(rebuild=True) == part.admin.reindex(rebuild=True) == 1
        assert alias.add_transcript("s-1", "raw", user_id="alice") is True
        assert part.transcripts.add("s-1", "raw", user_id="alice") is True
        assert alias.add_transcript("s-1", "again", user_id="alice") is False
        assert part.transcripts.add("s-1", "again", user_id="alice") is False
        a, p = alias.doctor(), part.admin.doctor()
        for report in (a, p):
            report["store"].pop("location")
            # The saved ANN graphs live beside each store file (issue 29).
            report["vectors"]["index"]["ann"]["snapshots"].pop("directory")
        assert a == p
    finally:
        alias.close()
        part.close()


def test_transcripts_part_reads_back_what_it_kept(mem: Memory) -> None:
    assert mem.transcripts.add("s-1", "user: hi\nbot: hello", user_id="alice")
    assert mem.transcripts.get(["s-1", "s-2"], user_id="alice") == {"s-1": "user: hi\nbot: hello"}
    assert mem.transcripts.get(["s-1"], user_id="bob") == {}  # another namespace
    with pytest.raises(InvalidInputError, match="list of session keys"):
        mem.transcripts.get("s-1", user_id="alice")  # type: ignore[arg-type]


def test_admin_export_and_import_round_trip(config: Config, tmp_path: Path) -> None:
    with Memory(tmp_path / "a.db", config=config, embedder=HashEmbedder()) as a:
        kept = a.add("the staging database is db-staging-2", user_id="alice")
        out = io.StringIO()
        counts = a.admin.export_jsonl(out, namespaces=["user:alice"], vectors=True)
        assert (counts.memories, counts.vectors) == (1, 1)
    file = tmp_path / "alice.jsonl"
    file.write_text(out.getvalue(), encoding="utf-8")
    with Memory(tmp_path / "b.db", config=config, embedder=HashEmbedder()) as b:
        assert b.admin.import_jsonl(file).memories == 1
        assert b.admin.import_jsonl(file).memories == 0  # twice is a no-op
        assert b.search("staging database", user_id="alice")[0].memory.id == kept.id
        assert b.admin.location == str(tmp_path / "b.db")


def test_async_parts_run_the_sync_parts(config: Config) -> None:
    async def scenario() -> None:
        async with AsyncMemory(":memory:", config=config, embedder=HashEmbedder()) as mem:
            key, plaintext = await mem.keys.create("alice", name="ci")
            assert (await mem.keys.verify(plaintext)).id == key.id
            assert [k.id for k in await mem.keys.list()] == [key.id]
            await mem.keys.revoke(key.id)
            with pytest.raises(AuthenticationError):
                await mem.keys.verify(plaintext)
            assert await mem.transcripts.add("s-1", "raw", user_id="alice")
            assert await mem.transcripts.get(["s-1"], user_id="alice") == {"s-1": "raw"}
            await mem.add("async memories share one core", user_id="alice")
            report = await mem.admin.doctor()
            assert report["namespaces"] == {"user:alice": 1}
            assert mem.admin.location == ":memory:"

    asyncio.run(scenario())
