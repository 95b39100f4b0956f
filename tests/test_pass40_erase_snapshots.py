"""An erase drops the erased namespace's snapshots beside the SQLite file (new-user pass,
round thirty: a privacy officer). A namespace grown past the sizes where engram persists
derived indexes has, in ``<store>.vindex/``, its memory ids, vectors and HNSW graph, its
term postings and recall's facts (the memories' openings in plain text). The erase
deleted the rows and left all of these: the erased customer's words, ids and vectors
stayed readable on disk until the namespace was searched again, which for an erased
customer is never.
"""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest

from conftest import HashEmbedder
from engram import Config, Memory
from engram.store.sqlite import fact_index
from engram.store.sqlite.facts import SQLiteMemories

SECRET = "Quorravelle"  # a word nothing else in the store holds
PHONE = "555-0199"
ALICE, BOB = "user:alice", "user:bob"
NOTES = 60


@pytest.fixture(autouse=True)
def _small_fact_blocks(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(fact_index, "MIN_MEMORIES", 20)


def _config(home: Path) -> Config:
    return Config.load(
        env={},
        home=str(home),
        pipeline={"enabled": False},
        recall={
            "ann_min_vectors": 20,
            "keyword_index_min": 20,
            "ann_background": False,
            "keyword_index_background": False,
        },
    )


def _manifests(folder: Path) -> dict[str, set[str]]:
    """namespace -> the kinds of snapshot saved for it (vectors, terms, facts)."""
    found: dict[str, set[str]] = {}
    for manifest in folder.glob("*.json"):
        saved = json.loads(manifest.read_text(encoding="utf-8"))
        found.setdefault(saved["namespace"], set()).add(saved.get("kind", "vectors"))
    return found


def _persisted(mem: Memory, folder: Path) -> dict[str, set[str]]:
    """Search both users until every kind of snapshot is saved for each."""
    memories = mem.store.memories
    assert isinstance(memories, SQLiteMemories)
    deadline = time.monotonic() + 60
    while True:
        assert mem.search(f"{SECRET} phone", user_id="alice")
        assert mem.search("oolong tea", user_id="bob")
        memories.blocks.wait(60)
        found = _manifests(folder) if folder.is_dir() else {}
        want = {"vectors", "terms", "facts"}
        if found.get(ALICE) == want and found.get(BOB) == want:
            return found
        assert time.monotonic() < deadline, found
        time.sleep(0.2)


def _fill(mem: Memory) -> None:
    for i in range(NOTES):
        secret = i % 2 == 0
        mem.add(
            f"note {i}: {SECRET} lives at 12 Elm street, phone {PHONE}",
            user_id="alice",
            metadata={"secret": secret},
        )
        mem.add(f"note {i}: Bob likes oolong tea, pot {i}", user_id="bob")


def _held(folder: Path) -> bytes:
    return b"".join(p.read_bytes() for p in folder.iterdir() if p.is_file()).lower()


@pytest.mark.parametrize("filtered", [False, True], ids=["whole", "filtered"])
def test_an_erase_drops_the_namespaces_snapshots(tmp_path: Path, filtered: bool) -> None:
    path = tmp_path / "engram.db"
    folder = Path(f"{path}.vindex")
    with Memory(str(path), config=_config(tmp_path / "home"), embedder=HashEmbedder()) as mem:
        _fill(mem)
        _persisted(mem, folder)
        assert SECRET.lower().encode() in _held(folder)  # recall's facts hold the openings
        filters = {"metadata.secret": True} if filtered else None
        mem.erasure.erase(user_id="alice", filters=filters, actor="dpo")
        assert ALICE not in _manifests(folder)
        assert set(_manifests(folder)[BOB]) == {"vectors", "terms", "facts"}
        if not filtered:
            assert SECRET.lower().encode() not in _held(folder)
            assert PHONE.encode() not in _held(folder)
        assert mem.search("oolong tea", user_id="bob")  # bob's blocks still answer
        left = mem.search(f"{SECRET} phone", user_id="alice", limit=100)
        assert len(left) == (NOTES // 2 if filtered else 0)
        assert all(hit.memory.metadata.get("secret") is False for hit in left)
    # Reopened, the survivors are found again and nothing erased comes back.
    with Memory(str(path), config=_config(tmp_path / "home"), embedder=HashEmbedder()) as mem:
        assert mem.search("oolong tea", user_id="bob")
        left = mem.search(f"{SECRET} phone", user_id="alice", limit=100)
        assert len(left) == (NOTES // 2 if filtered else 0)
        assert all(hit.memory.metadata.get("secret") is False for hit in left)
